"""``warbook lsp`` without pygls installed: a clear message and exit 2, never a traceback."""

import sys

from warbook.interpreter.cli import main


def test_without_pygls_the_command_says_how_to_install_it(monkeypatch, capsys):
    for name in ("pygls", "pygls.lsp", "pygls.lsp.server", "pygls.uris", "lsprotocol", "lsprotocol.types"):
        monkeypatch.setitem(sys.modules, name, None)  # an import of it then fails, as if not installed
    monkeypatch.delitem(sys.modules, "warbook.interpreter.lsp.server", raising=False)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert err == ("warbook: error: the language server needs pygls, which is not installed; "
                   "install it with: pip install 'warbook[lsp]'\n")


def test_the_stdio_flag_editors_pass_is_accepted():
    from warbook.interpreter.cli import build_parser

    assert build_parser().parse_args(["lsp", "--stdio"]).stdio is True
