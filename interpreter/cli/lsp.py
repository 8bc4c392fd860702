"""``warbook lsp``: the language server (``interpreter.lsp``), over standard input and output.

It needs pygls, an optional dependency: without it the command says how to install it and
exits 2 (a usage error, as for any missing requirement of a command)."""

from __future__ import annotations

import argparse

from .common import EXIT_CLEAN, usage


def register(sub) -> None:
    lsp = sub.add_parser("lsp", help="run the language server on stdin/stdout (docs/editors.md)")
    lsp.add_argument("--stdio", action="store_true", help="speak over stdin/stdout (the default and only "
                     "transport; accepted because editors pass it)")
    lsp.set_defaults(run=run_lsp)


def run_lsp(args: argparse.Namespace) -> int:
    try:
        from ..lsp.server import serve
    except ImportError as exc:
        if exc.name not in ("pygls", "lsprotocol") and not str(exc.name).startswith(("pygls.", "lsprotocol.")):
            raise
        return usage("the language server needs pygls, which is not installed; "
                     "install it with: pip install 'warbook[lsp]'")
    serve()
    return EXIT_CLEAN
