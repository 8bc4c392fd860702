"""``python -m warbook.interpreter.cli``: the ``warbook`` command."""

from . import run

if __name__ == "__main__":
    run()
