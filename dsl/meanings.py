"""What the interpreter does with a line of the language, read from the class that compiles it.

Each effect verb (``dsl.effects``) and each procedure (``dsl.compiled.calls``) has one class, and
its docstring says, in one paragraph, what the interpreter does with a line of it.
``docs/generate_reference.py`` prints that paragraph beside the form in ``docs/reference.md``,
so the reference says what the engine does from the same text the engine's readers see.
"""

from __future__ import annotations

import inspect


def meaning(cls: type) -> str:
    """What the interpreter does with a line of ``cls``, in one paragraph: its own docstring (not
    an inherited one) after a leading paragraph that shows the form, joined into one line.

    >>> class Halt:
    ...     '''``halt ROLE``.
    ...
    ...     The role's units stop
    ...     where they are.'''
    >>> meaning(Halt)
    "The role's units stop where they are."
    """
    paragraphs = inspect.cleandoc(cls.__doc__ or "").split("\n\n")
    if paragraphs[0].startswith("``") and len(paragraphs) > 1:
        paragraphs = paragraphs[1:]
    return " ".join(" ".join(paragraphs).split())
