"""docs/procedures.md cannot drift: its inventory of procedures and effects is current, and every
one that only the seed rulebooks use says why it stays."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def generator():
    spec = importlib.util.spec_from_file_location("generate_procedures", DOCS / "generate_procedures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def users(generator):
    return generator.users()


def test_the_document_is_current(generator):
    text = (DOCS / "procedures.md").read_text(encoding="utf-8")
    assert generator.splice(text, generator.generate()) == text, \
        "docs/procedures.md is stale: run python docs/generate_procedures.py"


def test_check_mode_reports_stale_tables(generator, tmp_path):
    stale = tmp_path / "procedures.md"
    stale.write_text(f"intro\n{generator.BEGIN}\nSTALE\n{generator.END}\nend\n", encoding="utf-8")
    assert generator.main(["--check", str(stale)]) == 1
    assert generator.main([str(stale)]) == 0
    assert generator.main(["--check", str(stale)]) == 0
    text = stale.read_text(encoding="utf-8")
    assert text.startswith("intro\n") and text.endswith("end\n") and "| `designate force` |" in text


def test_every_seed_only_entry_says_why_it_stays(generator, users):
    procedures, effects = users
    missing = [name for name, found in procedures.items() if generator.needs_note(found)
               and name not in generator.PROCEDURE_NOTES]
    missing += [generator.EFFECT_NAMES[verb] for verb, found in effects.items() if generator.needs_note(found)
                and generator.EFFECT_NAMES[verb] not in generator.EFFECT_NOTES]
    assert not missing, f"add a note to docs/generate_procedures.py for: {missing}"


def test_no_note_outlives_its_reason(generator, users):
    """A note is for an entry only the seeds use; once a neutral game uses it, the note goes."""
    procedures, effects = users
    stale = [name for name in generator.PROCEDURE_NOTES
             if name not in procedures or not generator.needs_note(procedures[name])]
    by_name = {generator.EFFECT_NAMES[verb]: found for verb, found in effects.items()}
    stale += [name for name in generator.EFFECT_NOTES if name not in by_name or not generator.needs_note(by_name[name])]
    assert not stale


def test_users_are_the_files_that_write_the_line(users):
    """Hand-checked against the games: the forces galleries and Sea Lords designate forces; a house
    rule that extends Several Klicks does not count as a user of the lines it inherits."""
    procedures, effects = users
    assert procedures["designate force"] == [
        ("rulebooks/sea_lords.rules", "seed"),
        ("tests/gallery/force_exits/force_exits.rules", "gallery"),
        ("tests/gallery/forces/forces.rules", "gallery"),
    ]
    assert procedures["fire at aircraft"] == [("rulebooks/several_klicks.rules", "seed"),
                                              ("tests/gallery/air_missions/air_missions.rules", "gallery")]
    assert procedures["check stacking"] == []
    assert effects["break"] == [("rulebooks/sea_lords.rules", "seed")]
