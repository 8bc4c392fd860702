"""``python -m warbook``: the ``warbook`` command (``interpreter.cli``)."""

from .interpreter.cli import run

run()
