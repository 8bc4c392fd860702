"""The hand reader (``dsl.reader``) and Lark's parser give the same tree, or the reader refuses.

``parse_text`` trusts the reader for text it accepts and parses with Lark otherwise; so the
reader must accept only what the grammar accepts, give Lark's tree for it, and (so that good
files never pay for Lark) accept everything the grammar accepts.
"""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import UnexpectedInput

from warbook.dsl import reader
from warbook.dsl.lalr import ast_parser, bare_parser
from warbook.dsl.parser import parse_text

ROOT = Path(__file__).resolve().parents[2]
GRAMMAR = (ROOT / "dsl" / "grammar.lark").read_text(encoding="utf-8")
FILES = sorted(p for folder in ("rulebooks", "scenarios", "tests", "examples", "docs") for p in (ROOT / folder).rglob("*.rules"))
SETTINGS = settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.too_slow])


def _lark(text: str, path: str = "t.rules"):
    parser, to_ast = ast_parser()
    to_ast.path = path
    try:
        return parser.parse(text)
    except UnexpectedInput:
        return None


def _same(text: str, path: str = "t.rules") -> None:
    assert reader.read(text, path) == _lark(text, path)


@pytest.mark.parametrize(("name", "pattern"), [("ATOM", reader.ATOM), ("STRING", reader.STRING),
                                               ("_NL", reader.NEWLINE), ("COMMENT", reader.COMMENT)])
def test_the_terminals_are_the_grammars(name, pattern):
    assert re.search(rf"^{re.escape(name)}: /(.*)/$", GRAMMAR, re.M).group(1) == pattern


def test_the_ignored_space_is_the_grammars():
    assert f"%ignore /{reader.SPACE}/" in GRAMMAR


def test_the_bare_parser_is_larks_own():
    assert bare_parser().parse('a "b"\n').data == "start"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_of_the_repository_reads_as_lark_parses_it(path):
    text = path.read_text(encoding="utf-8").removeprefix("\ufeff")
    if not parse_text.__globals__["_FALSE_BREAKS"].search(text):
        _same(text if text.endswith("\n") else text + "\n", str(path))


@pytest.mark.parametrize("text", [
    "\n", "a\n", "  a  b\n", "# c\n\n  # d\na\n", "a # c\n", "a, b ,c\n", "a: b c\n", "a:\n", "a b:c: d\n",
    'a "x\\"y" "z\\n\\\\"\n', 'a "one\ntwo" b\n', 'a "x\ny" {\n b\n}\n', "a {}\n", "a { }\n", "a {\n}\n",
    "a {\n b {\n  c\n }\n}\n", 'a §"1" gap "g" errata "e"\n', "a §1.2\n", 'a b: c §"1" {\n d\n}\n',
    "gapx errata_ xgap\n", "a\r\nb\r\n", "½D½A K+R 3:1 1..3\n", "\t\f a\n",
    # refused, as Lark refuses them
    "a }\n", "}\n", "a {\n", "a { b }\n", ", a\n", ": a\n", "a: b: c\n", "a § b §\n", "gap \"x\"\n", 'a gap x\n',
    'a §"1" b\n', 'a §"1" gapx "y"\n', "a\u00a0b\n", '"open\n', "a {\n b\n} c\n", "a {} {}\n",
    # what is left after the last terminal: ignored text, or a character no terminal starts with
    "a\n# c", "a\n  ", "a # c", "a\n\x0b", "a\n\r", "a\r", "a\n \u00a0", 'a\n "',
])
def test_corners_read_as_lark_parses_them(text):
    _same(text)


PIECES = st.sampled_from(["a", "b:c", "½D", "1:2", "gap", "errata", "gapx", "xgap", "gap-x", '"q"', '"q\\"s"',
                          '"two\nlines"', '"\\n"', ",", ":", "§", "{", "}", "\n", "\n", "\n", "\r\n", " ", " ",
                          "\t", "# c", "#", '"', "\u00a0"])
GLUE = st.sampled_from(["", " ", " ", "\n"])
TEXT = st.lists(st.tuples(PIECES, GLUE), max_size=40).map(lambda parts: "".join(p + g for p, g in parts) + "\n")


@SETTINGS
@given(TEXT)
def test_generated_text_reads_as_lark_parses_it(text):
    _same(text)
