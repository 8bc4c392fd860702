"""The language server's answers never fail on text being typed: whatever the buffer holds and
wherever the cursor is, linting, hover, definition, completion, the outline and formatting
answer (possibly with nothing) and raise no exception."""

from hypothesis import given, settings, strategies as st

from warbook.interpreter.lsp.session import Session

PIECES = ["terrain", "marsh", "side", "red", "tag", "wet", "cost", "2", "for", "{", "}", "\n", "\n    ", " ",
          '"', '"Marsh"', "§", '§"1.0"', "gap", "errata", "#", ":", ",", "½", "𝄞", "extends", "include",
          '"base.rules"', "override", "remove", "1..3:", "table", "crt", "\\", "\r\n", "\t"]
BASE = 'side red "Red"\ntag wet "Wet"\n'


@settings(max_examples=60)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.integers(1, 12), st.integers(1, 40))
def test_every_answer_comes_back_for_any_buffer_and_position(tmp_path_factory, pieces, line, column):
    folder = tmp_path_factory.mktemp("typing")
    (folder / "base.rules").write_text(BASE, encoding="utf-8")
    path = str(folder / "typing.rules")
    text = "".join(pieces)
    session = Session()
    for buffer in (BASE + 'terrain marsh "Marsh" {\n    cost 2 for wet\n}\n', text):  # a good text, then this one
        session.lint(path, buffer)
        session.symbols(path, buffer)
        assert session.format(path, buffer) is None or isinstance(session.format(path, buffer), str)
        for at in ((line, column), (1, 1), (buffer.count("\n") + 1, 1)):
            hover = session.hover(path, buffer, *at)
            assert hover is None or isinstance(hover[0], str)
            assert isinstance(session.definition(path, buffer, *at), tuple)
            assert isinstance(session.completions(path, buffer, *at), tuple)
