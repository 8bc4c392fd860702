"""The language server (``warbook lsp``): the linter, the formatter and the language's own
queries (``dsl.navigation``, ``dsl.keywords``) spoken over the Language Server Protocol.

- ``positions``: spans (1-based, in characters) to LSP positions (0-based, in the client's
  code units: UTF-16 unless the client asked for another) and back;
- ``session``: what the editor asks, answered in warbook's own terms (diagnostics, spans,
  declarations), with no LSP library: testable and reusable by another protocol;
- ``server``: the pygls server that turns those answers into LSP messages.

pygls is an optional dependency (``pip install warbook[lsp]``); only ``server`` imports it.
"""
