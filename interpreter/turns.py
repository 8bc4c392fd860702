"""The turn record and the weather: what a turn is called, and the conditions it is played in.

- **Turn record.**  The sequence's ``turn N "LABEL" [weather NAME] [note "TEXT"]`` lines name the
  turns of the turn track.  When turn N starts (``start_turn``) its weather, if the line gives one,
  becomes the game's; the turn's log entry then carries the label, the weather and a heading
  (``Turn 3: 14 June, Mud``) that narration prints.  A turn with no line starts as it always has
  (``turn N``, nothing more), so a rulebook without a turn record logs exactly what it did before.
- **Weather.**  ``GameState.weather`` is one declared ``weather`` (or ``None``): a turn's fixed
  weather, or what a ``set weather NAME`` effect set (an event of a table a phase rolls on: weather
  rolled at a named moment).  It holds until the next turn that gives one or the next effect that
  sets one.  Conditions read it (``when weather is NAME``, ``dsl.conditions``).
"""

from __future__ import annotations

from ..dsl.effects import SetWeather, Where
from .context import Context, Flow
from .effects import Target, carries_out
from .state import replace


def weather_label(ctx: Context, weather: str | None) -> str | None:
    """A weather's label as declared (``None`` for no weather)."""
    return None if weather is None else ctx.rules.weathers.get(weather, weather)


def start_turn(ctx: Context, turn: int) -> None:
    """Turn ``turn`` starts: its number in the state, its weather (turn record), its log entry."""
    ctx.state = replace(ctx.state, turn=turn)
    record = ctx.rules.turn_records.get(turn)
    if record is None:
        ctx.say(f"turn {turn}", kind="turn")
        return
    if record.weather is not None:
        ctx.state = replace(ctx.state, weather=record.weather)
    weather = ctx.state.weather
    ctx.say(f"turn {turn}", kind="turn", label=record.label, weather=weather,
            heading=record.heading(weather_label(ctx, weather)))


@carries_out(SetWeather, Where.EVENT, Where.MOMENT, Where.OPTION)
def _set_weather(ctx: Context, effect: SetWeather, target: Target) -> Flow:
    ctx.state = replace(ctx.state, weather=effect.weather)
    ctx.say(f"the weather is {weather_label(ctx, effect.weather)} ({target.why})", kind="weather",
            weather=effect.weather)
    return
    yield  # a generator, as every implementation is
