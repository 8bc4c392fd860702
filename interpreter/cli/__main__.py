"""``python -m warbook.interpreter.cli``: the ``warbook`` command."""

from . import run

run()
