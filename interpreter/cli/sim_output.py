"""How ``warbook sim`` shows a study: rich tables, JSON, a picture (matplotlib), the progress bar's rate.

Nothing timed goes into the report, so its text and JSON are the same for the same seeds however
the games were spread over workers.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen
from rich.progress import ProgressColumn
from rich.text import Text

from ..statistics import Interval
from .common import write_atomically
from ..study import StudyArm
from ..study_report import ArmSummary, Comparison
from .consoles import console, percent


class RateColumn(ProgressColumn):
    """Games finished per second, for the progress bar."""

    def render(self, task) -> Text:
        elapsed = task.finished_time if task.finished else task.elapsed
        return Text(f"{task.completed / elapsed:.1f} games/s" if elapsed and task.completed else "- games/s")


@frozen
class Report:
    """Everything ``warbook sim`` prints about a study."""

    scenario: str
    arms: tuple[StudyArm, ...]
    sides: tuple[str, ...]
    seed: int
    games: int
    """Games asked for, per arm."""
    interrupted: bool
    summaries: tuple[ArmSummary, ...]
    comparison: Comparison | None
    shown_rules: tuple[tuple[str, str | None], ...] = ()
    """(arm, its rulebook as the command line named it; ``None``: the scenario's own)."""

    def to_json(self) -> dict:
        return {"scenario": self.scenario, "sides": list(self.sides), "first_seed": self.seed,
                "games": self.games, "interrupted": self.interrupted,
                "agents": list(self.arms[0].agents) or ["random"] * len(self.sides),
                "rules": dict(self.shown_rules),
                "arms": [summary.to_json() for summary in self.summaries],
                "comparison": self.comparison.to_json() if self.comparison is not None else None}


def ci(interval: Interval, scale: float = 1.0, digits: int = 1) -> str:
    """``low–high`` of an interval, scaled (100 for percentages)."""
    return f"{interval.low * scale:.{digits}f} to {interval.high * scale:.{digits}f}"


def show_report(report: Report) -> None:
    """The report as rich tables on stdout."""
    from rich.table import Table

    out = console()
    agents = ", ".join(report.arms[0].agents) or "random"
    played = ", ".join(f"{s.arm} {s.games}" for s in report.summaries)
    out.print(f"{report.scenario}: seeds {report.seed} to {report.seed + report.games - 1}, agents {agents}; "
              f"games finished: {played}" + (" (interrupted)" if report.interrupted else ""))
    for summary in report.summaries:
        if summary.errors:
            out.print(f"[bold]{summary.arm}: {len(summary.errors)} games broke off with an engine error "
                      f"(first: seed {summary.errors[0][0]}: {summary.errors[0][1]})[/bold]")
    if report.comparison is not None:
        _show_comparison(out, report, report.comparison)
        return
    summary = report.summaries[0]
    results = Table("Result", "Games", "Rate", "95% CI", title="Wins and draws")
    for side, count, interval in summary.wins:
        results.add_row(f"{side} wins", str(count), percent(interval.estimate), ci(interval, 100) + " %")
    results.add_row("no winner", str(summary.draws[0]), percent(summary.draws[1].estimate),
                    ci(summary.draws[1], 100) + " %")
    out.print(results)
    levels = Table("Result", "Games", "Share", title="Victory levels")
    for level, count in summary.levels:
        levels.add_row(level, str(count), percent(count / summary.games if summary.games else 0))
    out.print(levels)
    out.print(_histogram(f"VP margin for {report.sides[0]}", summary.margins, summary.games))
    out.print(_histogram("Turns played", summary.turns, summary.games))
    figures = Table("Per game", "Mean", "95% CI", title="Game length, decisions and losses")
    figures.add_row("VP margin", f"{summary.margin.estimate:+.2f}", ci(summary.margin, digits=2))
    figures.add_row("turns", f"{summary.length.estimate:.2f}", ci(summary.length, digits=2))
    figures.add_row("decisions", f"{summary.decisions.estimate:.1f}", ci(summary.decisions))
    for phase, interval in summary.phase_decisions:
        figures.add_row(f"  decisions in {phase}", f"{interval.estimate:.1f}", ci(interval))
    for side, interval in summary.losses:
        figures.add_row(f"counters {side} lost", f"{interval.estimate:.2f}", ci(interval, digits=2))
    out.print(figures)


def _show_comparison(out, report: Report, comparison: Comparison) -> None:
    from rich.table import Table

    house, base = comparison.house, comparison.base
    rules = {arm: shown or "the scenario's own rules" for arm, shown in report.shown_rules}
    out.print(f"house: {rules['house']}\nbase:  {rules['base']}\npaired games: {comparison.paired}")
    table = Table("Per game", "House", "Base", "Difference", "95% CI", title="House rule against base")
    for (side, _, h), (_, _, b), (_, d) in zip(house.wins, base.wins, comparison.wins):
        table.add_row(f"{side} win rate", percent(h.estimate), percent(b.estimate), f"{d.estimate * 100:+.1f} pts",
                      ci(d, 100) + " pts")
    table.add_row("no winner", percent(house.draws[1].estimate), percent(base.draws[1].estimate),
                  f"{comparison.draws.estimate * 100:+.1f} pts", ci(comparison.draws, 100) + " pts")
    table.add_row(f"VP margin ({report.sides[0]})", f"{house.margin.estimate:+.2f}", f"{base.margin.estimate:+.2f}",
                  f"{comparison.margin.estimate:+.2f}", ci(comparison.margin, digits=2))
    for (side, h), (_, b), (_, d) in zip(house.losses, base.losses, comparison.losses):
        table.add_row(f"counters {side} lost", f"{h.estimate:.2f}", f"{b.estimate:.2f}", f"{d.estimate:+.2f}",
                      ci(d, digits=2))
    table.add_row("turns", f"{house.length.estimate:.2f}", f"{base.length.estimate:.2f}",
                  f"{house.length.estimate - base.length.estimate:+.2f}", "")
    out.print(table)
    for sentence in comparison.verdict:
        out.print(f"- {sentence}")


def _histogram(title: str, counts: Sequence[tuple[int, int]], games: int):
    from rich.table import Table

    table = Table("Value", "Games", "", title=title)
    most = max((n for _, n in counts), default=0)
    for value, n in counts:
        table.add_row(str(value), str(n), "█" * max(1, round(30 * n / most)) if most else "")
    if not counts:
        table.add_row("-", "0", "")
    return table


def plot_report(report: Report, target: Path) -> None:
    """Draw win rates with their intervals, the margin and the game length per arm; written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, (wins, margins, turns) = pyplot.subplots(1, 3, figsize=(13, 4))
    from matplotlib.ticker import MaxNLocator

    width = 0.8 / len(report.summaries)
    for index, summary in enumerate(report.summaries):
        offset = (index - (len(report.summaries) - 1) / 2) * width  # the arms side by side around each value
        labels = [side for side, _, _ in summary.wins] + ["no winner"]
        rates = [*(i for _, _, i in summary.wins), summary.draws[1]]
        wins.bar([x + offset for x in range(len(labels))], [r.estimate for r in rates], width, label=summary.arm,
                 yerr=[[r.estimate - r.low for r in rates], [r.high - r.estimate for r in rates]], capsize=3)
        wins.set_xticks(range(len(labels)), labels)
        margins.bar([m + offset for m, _ in summary.margins], [n for _, n in summary.margins], width,
                    label=summary.arm)
        turns.bar([t + offset for t, _ in summary.turns], [n for _, n in summary.turns], width, label=summary.arm)
    margins.xaxis.set_major_locator(MaxNLocator(integer=True))
    turns.set_xticks(sorted({t for summary in report.summaries for t, _ in summary.turns}))
    wins.set_title("Win rate (95% CI)")
    wins.set_ylim(0, 1)
    margins.set_title(f"VP margin for {report.sides[0]}")
    turns.set_title("Turns played")
    for axes in (wins, margins, turns):
        axes.legend()
    figure.suptitle(f"{report.scenario}: {report.games} seeds from {report.seed}")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format=target.suffix.lower().lstrip("."), metadata=_plot_metadata(target))
    pyplot.close(figure)
    write_atomically(target, buffer.getvalue())


def _plot_metadata(target: Path) -> dict:
    """No date in the picture, so the same study draws the same file."""
    return {"Date": None} if target.suffix.lower() == ".svg" else {}
