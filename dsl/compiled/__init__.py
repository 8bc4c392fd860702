"""The compile stage: each kind of declaration read once into frozen, typed records.

``dsl.model`` keeps a rulebook as it was written: declarations whose properties are words and
values.  The modules here read those words once, when a rulebook is compiled, into records the
interpreter reads instead (``interpreter.rules.Rules`` holds them): a unit type with its selectors,
a movement class with every limit it sets, a terrain with its costs and defence, a spotting rule
with its ranges.  One module per kind; each has one public ``compile_…`` function and records
that keep the declaration and line they came from, for citations only (``interpreter.citations``).

Guarantees: every property of a compiled kind is read here or nowhere; a record never changes.
Limits: the kinds not compiled yet are still read from the model by the interpreter (issue 12).
"""
