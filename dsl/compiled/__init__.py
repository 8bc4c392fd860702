"""The compile stage: each kind of declaration read once into frozen, typed records.

``dsl.model`` keeps a rulebook as it was written: declarations whose properties are words and
values.  The modules here read those words once, when a rulebook is compiled, into records the
interpreter reads instead (``interpreter.rules.Rules`` holds them): a unit type with its selectors,
a movement class with every limit it sets, a terrain with its costs and defence, a spotting rule
with its ranges.  One module per kind; each has one public ``compile_…`` function and records
that keep the declaration and line they came from, for citations only (``interpreter.citations``).

The modules: ``units`` (unit and marker types), ``movement``, ``terrain``, ``sides``, ``modes``
(modes and spotting), ``stacking``, ``actions``, ``scoring`` (resources, awards, victory),
``boxes`` (boxes and placements), ``combat``, ``events`` (whose event each is), ``zones``,
``sequence`` (phase plans and the sequence's turns) and ``lines`` (``for`` lines, and which
kinds honour ``requires option``); tables are
``dsl.tables.TableView`` and effect lines ``dsl.effects``.

Guarantees: every property of a compiled kind is read here, once per rulebook; a record never
changes (the few memos on records, such as ``ActionRule``'s prices by year, only add answers).
Limits: still read from the model at play: options' defaults (``interpreter.options``), the
arguments of ``do`` lines (the procedures read their properties), events' text, the rulebook
header, and citations (a line's provenance).
"""
