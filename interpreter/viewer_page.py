"""The replay page's HTML, style and script (``viewer`` fills in the map and the data).

The script only draws what the data holds: each view's counters are what ``viewer`` wrote for that
side (``frames.counters``), so no hiding happens in the browser.  It places the counters of a
cell as ``picture.MapPicture.stack_offsets`` does (up to ``shown`` offset by ``step``, a badge
past that).
"""

from __future__ import annotations

PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
body { margin: 0; height: 100vh; display: flex; flex-direction: column; font-family: "DejaVu Sans", Arial, sans-serif;
       background: #f4f2ea; color: #1a1a1a; }
header { padding: 8px 14px; background: #2f3b45; color: #fff; display: flex; gap: 14px; align-items: center;
         flex-wrap: wrap; }
header h1 { font-size: 16px; margin: 0; max-width: 36vw; overflow: hidden; text-overflow: ellipsis;
            white-space: nowrap; }
header label { font-size: 13px; }
#slider { width: 320px; }
main { display: flex; flex: 1 1 auto; min-height: 0; }
#board { flex: 1 1 auto; overflow: auto; background: #fbfaf5; }
#board.fit svg { width: 100%; height: auto; }
#side-panel { width: 420px; flex: none; display: flex; flex-direction: column; border-left: 1px solid #bbb; }
#caption { flex: none; padding: 8px 10px; font-weight: bold; border-bottom: 1px solid #ccc; }
#rolls { flex: none; padding: 6px 10px; border-bottom: 1px solid #ccc; min-height: 28px; max-height: 30vh;
         overflow: auto; font-size: 13px; }
.die { display: inline-block; min-width: 22px; padding: 1px 4px; margin: 1px 4px 1px 0; border: 1px solid #333;
       border-radius: 4px; background: #fff; text-align: center; font-weight: bold; }
#away-box { flex: none; padding: 4px 10px; border-bottom: 1px solid #ccc; font-size: 12px; max-height: 25vh;
            overflow: auto; }
#away p { margin: 2px 0; }
#narrative p.choice { font-style: italic; }
#narrative { flex: 1 1 auto; overflow: auto; padding: 6px 10px; font-size: 13px; line-height: 1.35; }
#narrative p { margin: 0; white-space: pre-wrap; color: #777; }
#narrative p.done { color: #1a1a1a; }
#narrative p.current { background: #ffe9a8; color: #000; }
#narrative p.roll { border-left: 3px solid #b07d00; padding-left: 4px; }
button { font-size: 13px; }
</style>
</head>
<body>
<header>
  <h1 id="heading">__TITLE__</h1>
  <label>Side <select id="side"></select></label>
  <button id="first" title="first step (Home)">|&#x25C0;</button>
  <button id="back" title="step back (left arrow)">&#x25C0;</button>
  <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
  <button id="next" title="step on (right arrow)">&#x25B6;</button>
  <button id="last" title="last step (End)">&#x25B6;|</button>
  <span id="where"></span>
  <label><input id="fit" type="checkbox"> fit the map to the window</label>
</header>
<main>
  <div id="board">__MAP__</div>
  <div id="side-panel">
    <div id="caption"></div>
    <div id="rolls"></div>
    <details id="away-box"><summary>Off the map</summary><div id="away"></div></details>
    <div id="narrative"></div>
  </div>
</main>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
const SVG = "http://www.w3.org/2000/svg";
const data = JSON.parse(document.getElementById("data").textContent);
const svgRoot = document.querySelector("#board svg");
const layer = svgRoot.querySelector("#counters");
const controlLayer = svgRoot.querySelector("#control");
const slider = document.getElementById("slider");
const chooser = document.getElementById("side");
const last = data.headings.length - 1;
let view = Object.keys(data.views)[0];
let step = 0;

function build(diffs) {  // the counters at every step, from the step-by-step changes
  const out = [];
  let now = new Map();
  for (const diff of diffs) {
    now = new Map(now);
    for (const id of diff.gone) now.delete(id);
    for (const counter of diff.set) now.set(counter[0], counter);
    out.push(now);
  }
  return out;
}
const states = {};
for (const [name, v] of Object.entries(data.views)) {
  states[name] = build(v.frames);
  const option = document.createElement("option");
  option.value = name;
  option.textContent = v.label;
  chooser.appendChild(option);
}
const control = build(data.control.map(d => ({gone: d.gone, set: d.set})));

function el(tag, attributes, parent, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

function drawCounters() {
  layer.replaceChildren();
  const stacks = new Map();
  for (const counter of states[view][step].values()) {
    if (!(counter[3] in data.cells)) continue;
    if (!stacks.has(counter[3])) stacks.set(counter[3], []);
    stacks.get(counter[3]).push(counter);
  }
  const k = data.counter, shift = data.stack.step;
  for (const [cell, stack] of stacks) {
    const [cx, cy] = data.cells[cell];
    const holder = el("g", {"class": "stack", "data-cell": cell, "data-count": stack.length}, layer);
    el("title", {}, holder, cell + ": " + stack.map(c => c[6]).join("; "));
    const shown = Math.min(stack.length, data.stack.shown);
    stack.slice(stack.length - shown).forEach((c, i) => {
      const x = cx - k / 2 + shift * (i - (shown - 1) / 2), y = cy - k / 2 - shift * (i - (shown - 1) / 2);
      const face = el("g", {"class": c[2] === null ? "counter hidden" : "counter", "data-id": c[0],
                            "data-side": c[1]}, holder);
      el("use", {href: "#glyph-" + c[1] + "-" + (c[2] === null ? "hidden" : c[2]), x: x, y: y}, face);
      if (c[5] && c[2] !== null) el("rect", {x: x + 1.5, y: y + 1.5, width: k - 3, height: k - 3, fill: "none",
        stroke: "#ffffff", "stroke-width": 1, "stroke-dasharray": "2 2", "class": "face-down"}, face);
      el("text", {x: x + k / 2, y: y + k * 0.88, "font-size": k * 0.26, "text-anchor": "middle",
                  fill: c[4] && c[2] !== null ? "#1a1a1a" : "#ffffff"}, face, c[0]);
    });
    if (stack.length > data.stack.shown) {
      const bx = cx + k / 2 + 2, by = cy - k / 2 - 2;
      el("circle", {cx: bx, cy: by, r: k * 0.26, fill: "#ffffff", stroke: "#1a1a1a", "stroke-width": 0.8}, holder);
      el("text", {x: bx, y: by + k * 0.1, "font-size": k * 0.28, "text-anchor": "middle", "class": "badge"}, holder,
         String(stack.length));
    }
  }
  controlLayer.replaceChildren();
  for (const [cell, entry] of control[step]) {
    el("polygon", {points: data.outlines[cell], stroke: data.colours[entry[1]] || "#555555", "stroke-width": 2.5,
                   "stroke-dasharray": "4 2", "class": "control", "data-side": entry[1], "data-cell": cell},
       controlLayer);
  }
}

function drawAway() {  // counters in holding areas: eliminated, boxes, off the map
  const boxes = new Map();
  for (const counter of states[view][step].values()) {
    if (counter[3] in data.cells) continue;
    if (!boxes.has(counter[3])) boxes.set(counter[3], []);
    boxes.get(counter[3]).push(counter[6]);
  }
  const away = document.getElementById("away");
  away.replaceChildren();
  for (const [box, titles] of [...boxes].sort()) {
    const p = document.createElement("p");
    p.dataset.box = box;
    p.textContent = box.replace(/_/g, " ") + " (" + titles.length + "): " + titles.join("; ");
    away.appendChild(p);
  }
  document.querySelector("#away-box summary").textContent = "Off the map (" +
    [...boxes.values()].reduce((n, titles) => n + titles.length, 0) + ")";
}

function drawNarrative() {
  const box = document.getElementById("narrative");
  box.replaceChildren();
  data.views[view].narrative.forEach((lines, s) => {
    for (const [kind, text] of lines) {
      const p = document.createElement("p");
      p.textContent = text;
      p.dataset.step = s;
      if (kind !== "text") p.classList.add(kind);
      box.appendChild(p);
    }
  });
  markNarrative();
}

function markNarrative() {
  let first = null;
  for (const p of document.querySelectorAll("#narrative p")) {
    const s = Number(p.dataset.step);
    p.classList.toggle("current", s === step);
    p.classList.toggle("done", s < step);
    if (s === step && first === null) first = p;
  }
  if (first) first.scrollIntoView({block: "nearest"});
  const rolls = document.getElementById("rolls");
  rolls.replaceChildren();
  for (const [kind, text, value] of data.views[view].narrative[step]) {
    if (kind !== "roll") continue;
    const line = document.createElement("div");
    const die = document.createElement("span");
    die.className = "die";
    die.textContent = value;
    line.appendChild(die);
    line.appendChild(document.createTextNode(text.trim()));
    rolls.appendChild(line);
  }
  if (!rolls.childElementCount) rolls.textContent = "no dice rolled at this step";
}

function show(s) {
  step = Math.max(0, Math.min(last, s));
  slider.value = step;
  document.getElementById("where").textContent = "step " + step + " of " + last;
  document.getElementById("caption").textContent = data.headings[step] + " \\u2014 " + data.views[view].label;
  drawCounters();
  drawAway();
  markNarrative();
}

document.getElementById("fit").addEventListener("change", event =>
  document.getElementById("board").classList.toggle("fit", event.target.checked));
chooser.addEventListener("change", () => { view = chooser.value; chooser.blur(); drawNarrative(); show(step); });
slider.max = last;
slider.addEventListener("input", () => show(Number(slider.value)));
document.getElementById("first").addEventListener("click", () => show(0));
document.getElementById("back").addEventListener("click", () => show(step - 1));
document.getElementById("next").addEventListener("click", () => show(step + 1));
document.getElementById("last").addEventListener("click", () => show(last));
document.addEventListener("keydown", event => {
  if (event.target === chooser) return;
  const moves = {ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10};
  if (event.key in moves) show(step + moves[event.key]);
  else if (event.key === "Home") show(0);
  else if (event.key === "End") show(last);
  else return;
  event.preventDefault();
});
drawNarrative();
show(0);
</script>
</body>
</html>
"""
