"""Loading: parse and build the model of each shipped rulebook, against a bare Lark parse of its text.

``dsl.loader.load_with_diagnostics(path)`` reads the file, parses it into the syntax
tree (``dsl.ast``), follows ``include``/``extends``, applies overrides, matches every
line against the vocabulary (``dsl.schema``), builds the frozen ``Rulebook`` and
resolves its names.  The baseline is what no loader can avoid: the grammar's LALR
parse of the same text (``dsl.parser._parser().parse(text)``: the parser ``parse_text``
uses, with the same options, without its transformer; no position tracking, which
``parse_text`` does not use either).  Target ≤ 1.4×: the model may cost at most 40% on top
of the parse.

Run: ``python -m benchmarks loading``.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.harness import Figure, interleaved_many, pairs, profile_call, ratio, spread

NAMES = ("loading",)
ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = sorted((ROOT / "rulebooks").glob("*.rules"))


def run(name: str = "loading", profile: bool = False) -> list[Figure]:
    from warbook.dsl.loader import load_with_diagnostics
    from warbook.dsl.parser import _parser, parse_text

    figures = []
    for path in RULEBOOKS:
        figures.append(_one(path, load_with_diagnostics, _parser(), parse_text, profile))
    return figures


def _one(path: Path, load, parser, parse_text, profile: bool) -> Figure:
    text = path.read_text(encoding="utf-8")
    rulebook, diagnostics = load(path)
    if rulebook is None or any(d.severity.name == "ERROR" for d in diagnostics):
        raise AssertionError(f"{path.name} does not load cleanly")
    if any(st.words and st.words[0].text in ("include", "extends") for st in parse_text(text).statements):
        raise AssertionError(f"{path.name} includes other files: the bare parse would not cover them")
    times = interleaved_many({"load": lambda: load(path), "parse": lambda: parser.parse(text),
                              "ast": lambda: parse_text(text, str(path))})
    if profile:
        profile_call(lambda: load(path))
    return Figure(f"Loading ({path.stem})", ratio(times["load"], times["parse"]), 1.4,
                  pairs=pairs(times["load"], times["parse"]), raw=[
        f"{len(text.splitlines())} lines, {len(rulebook.declarations)} declarations",
        f"load (parse + model):  {spread(times['load'])}",
        f"bare Lark parse:       {spread(times['parse'])}",
        f"(parse_text, the parse with its syntax tree: {ratio(times['ast'], times['parse']):.2f}x the bare parse)",
    ])
