"""attrs' generated methods are compiled once per machine (``dsl.method_cache``): the records built
from kept code behave as freshly compiled ones, under any ``PYTHONHASHSEED``."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from pathlib import Path

import pytest

from warbook.dsl.method_cache import (FORMAT, SALT, MethodCache, module_of, places_of, read_methods, text_key,
                                      type_hash, with_constant, with_constant_at)

OURS = "<attrs generated methods warbook.tests.Record>"

PROBE = """
import json, sys
import attr._make
import warbook.dsl
from warbook.dsl.ast import Span
from warbook.dsl.effects import Retreat
from warbook.dsl.model import Property

cache = getattr(attr._make._compile_and_eval, "__self__", None)
span = Span("a.rules", 1, 2, 1, 9)
line = Property("effect", span, (), ())
retreat = Retreat(line, "attackers", None, None, 2)
methods = {}
for name, module in list(sys.modules.items()):
    for cls in vars(module).values() if name.startswith("warbook.") else ():
        if isinstance(cls, type) and cls.__module__ == name and "__attrs_attrs__" in vars(cls):
            for method in ("__init__", "__eq__", "__hash__", "__repr__"):
                code = getattr(vars(cls).get(method), "__code__", None)
                if code is not None:
                    methods[f"{name}.{cls.__qualname__}.{method}"] = [code.co_code.hex(), repr(code.co_consts)]
print(json.dumps({
    "kept": sum(len(kept) for kept in cache.kept.values()) if cache else None,
    "compiled": len(cache.compiled) if cache else None,
    "hashes": [hash(span), hash(line)],
    "methods": methods,
    "repr": repr(retreat),
    "equal": [span == Span("a.rules", 1, 2, 1, 9), retreat == Retreat(line, "attackers", None, None, 3)],
}))
"""
"""Records' hashes are compared only for records without ``None`` in them: ``hash(None)`` is the
object's address before Python 3.12, so it differs between processes whatever the seed."""


def probe(folder: str, seed: str) -> dict:
    env = {**os.environ, "WARBOOK_CACHE_DIR": folder, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_a_second_process_compiles_nothing_and_builds_the_same_records(tmp_path: Path) -> None:
    first = probe(str(tmp_path), "1")
    assert first["kept"] == 0 and first["compiled"] > 50  # the language's records, all compiled
    saved = sorted(p.name for p in tmp_path.glob("attrs-methods-*/*"))
    assert "warbook.dsl.effects.marshal" in saved and all(name.endswith(".marshal") for name in saved)
    again = probe(str(tmp_path), "2")  # another seed: another type hash in every __hash__
    assert again["kept"] == first["compiled"] and again["compiled"] == 0
    fresh = probe("", "2")  # caching off: attrs compiles as it always did
    assert fresh["kept"] is None
    assert len(again["methods"]) > 100 and again["methods"] == fresh["methods"]
    assert again["hashes"] == fresh["hashes"] and again["repr"] == fresh["repr"] == first["repr"]
    assert again["equal"] == fresh["equal"] == [True, False]
    assert first["hashes"] != fresh["hashes"]  # the seed does reach the type hash


def test_kept_code_takes_the_running_process_type_hash() -> None:
    old, new = 123456789012345, type_hash(OURS)
    code = compile(f"def h(x):\n    return (({old},), ({old}, x), -{old})\n", OURS, "exec")
    space: dict = {}
    exec(with_constant(code, old, new), space)  # noqa: S102 - the test's own text
    assert space["h"](5) == ((new,), (new, 5), -old)  # the constant, alone or in a folded tuple; not its negation
    places = tuple(places_of(code, old))
    assert len(places) == 2  # inside h's code: in the folded ``(old,)`` and as a constant of its own
    at: dict = {}
    exec(with_constant_at(code, places, new), at)  # noqa: S102
    assert at["h"](5) == ((new,), (new, 5), -old)
    at_places, everywhere = with_constant_at(code, places, new), with_constant(code, old, new)
    assert at_places.co_consts[0].co_consts == everywhere.co_consts[0].co_consts


def test_a_constant_in_a_frozenset_has_no_place_and_is_looked_for_everywhere(tmp_path: Path) -> None:
    old, new = 123456789012345, type_hash(OURS)
    text = "def f(x):\n    return x in {{{}, 2, 3}}\n"
    kept = compile(text.format(old), OURS, "exec")  # as a process with another type hash compiled it
    with pytest.raises(ValueError):
        tuple(places_of(kept, old))
    key = (OURS, text_key(text.format(SALT)))
    (tmp_path / "warbook.tests.marshal").write_bytes(marshal.dumps((FORMAT, {key: (kept, old, None)})))
    cache = MethodCache(tmp_path, 0)
    space: dict = {}
    exec(cache.code(text.format(new), OURS), space)  # noqa: S102 - the test's own text
    assert cache.compiled == {} and space["f"](new) and not space["f"](old)


def test_a_changed_class_replaces_its_old_text_and_other_modules_are_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "warbook.tests.marshal"
    first = MethodCache(tmp_path, 0)
    first.code("x = 1\n", OURS)
    first.code("y = 1\n", "<attrs generated methods elsewhere.Record>")
    first.save()
    assert [key for key in read_methods(path)] == [(OURS, text_key("x = 1\n"))]
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    second = MethodCache(tmp_path, 0)
    second.code("x = 2\n", OURS)
    second.save()
    assert [key for key in read_methods(path)] == [(OURS, text_key("x = 2\n"))]


def test_the_type_hash_is_taken_out_of_the_kept_text(tmp_path: Path) -> None:
    path = tmp_path / "warbook.tests.marshal"
    cache = MethodCache(tmp_path, 0)
    space: dict = {}
    exec(cache.code(f"def h():\n    return {type_hash(OURS)}\n", OURS), space)  # noqa: S102
    cache.save()
    (((_, text), (_, salt, places)),) = read_methods(path).items()
    assert text == text_key(f"def h():\n    return {SALT}\n") and space["h"]() == salt == type_hash(OURS)
    assert places == ((0, 1),)  # h's code is the module's first constant; the hash, h's second (after None)


def test_a_damaged_or_unwritable_file_means_compiling(tmp_path: Path) -> None:
    (tmp_path / "warbook.tests.marshal").write_bytes(b"\xff\x00 not marshal")
    cache = MethodCache(tmp_path, 0)
    space: dict = {}
    exec(cache.code("x = 3\n", OURS), space)  # noqa: S102
    assert space["x"] == 3 and cache.kept == {"warbook.tests": {}} and len(cache.compiled) == 1
    key = next(iter(cache.compiled))
    for damaged in ({key: "not code"}, {key: (None, 1, None)}, [key]):  # a file of the right shape, wrong entries
        (tmp_path / "warbook.tests.marshal").write_bytes(marshal.dumps((FORMAT, damaged)))
        again = MethodCache(tmp_path, 0)
        exec(again.code("x = 3\n", OURS), space)  # noqa: S102
        assert space["x"] == 3 and len(again.compiled) == 1
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    unwritable = MethodCache(blocker / "kept", 0)
    unwritable.code("x = 4\n", OURS)
    unwritable.save()  # no error, nothing written
    assert blocker.read_text() == "not a folder"


def test_each_class_is_kept_in_its_module_file() -> None:
    assert module_of("<attrs generated methods warbook.dsl.effects.Retreat>") == "warbook.dsl.effects"
    assert module_of("<attrs generated methods warbook.dsl.effects.Retreat-2>") == "warbook.dsl.effects"
    assert module_of("<attrs generated methods warbook.x.Outer.Inner>") == "warbook.x.Outer"


ATTRS_PROBE = """
import json, sys
import warbook.dsl  # before attrs: the cache is installed as attr._make is imported
import attr._make, attr.validators

cache = getattr(attr._make._compile_and_eval, "__self__", None)
kept = [key for module in cache.kept.values() for key in module] if cache else []
methods = {}
for name in ("attr._make", "attr.validators", "attr._version_info"):
    for cls in vars(sys.modules[name]).values():
        if isinstance(cls, type) and cls.__module__ == name:
            for method, function in vars(cls).items():
                code = getattr(function, "__code__", None)
                if code is not None and code.co_filename.startswith("<attrs generated"):
                    methods[f"{name}.{cls.__qualname__}.{method}"] = [code.co_code.hex(), repr(code.co_consts)]
print(json.dumps({"kept": sorted(key[0] for key in kept if " attr." in key[0]),
                  "compiled": sorted(key[0] for key in (cache.compiled if cache else ()) if " attr." in key[0]),
                  "hooks": [type(finder).__name__ for finder in sys.meta_path], "methods": methods,
                  "compile": "compile" in vars(attr._make),
                  "checks": [repr(attr.validators.instance_of(int)), attr.validators.in_((1, 2)) == attr.validators.in_((1, 2)),
                             repr(attr.Factory(list)), hash(attr.Factory(list)) == hash(attr.Factory(list)),
                             attr.fields(attr._version_info.VersionInfo)[0] == attr.fields(attr._version_info.VersionInfo)[0]]}))
"""


def attrs_probe(folder: str, seed: str = "3") -> dict:
    env = {**os.environ, "WARBOOK_CACHE_DIR": folder, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-c", ATTRS_PROBE], env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_attrs_own_classes_are_built_from_kept_code_when_the_language_is_imported_first(tmp_path: Path) -> None:
    first = attrs_probe(str(tmp_path))
    assert first["kept"] == [] and "<attrs generated methods attr.validators._InValidator>" in first["compiled"]
    assert "<attrs generated __hash__ attr._make.Attribute>" in first["compiled"]  # built as attr._make ran
    assert {"attr._make.marshal", "attr.validators.marshal"} <= {p.name for p in tmp_path.glob("*/*")}
    again = attrs_probe(str(tmp_path))
    assert again["kept"] == first["compiled"] and again["compiled"] == []
    fresh = attrs_probe("")  # caching off: attrs compiles its classes itself
    assert len(again["methods"]) >= 25 and again["methods"] == fresh["methods"] == first["methods"]
    assert again["checks"] == fresh["checks"] == [
        "<instance_of validator for type <class 'int'>>", True, "Factory(factory=<class 'list'>, takes_self=False)",
        True, True]
    assert "WrapOnImport" not in again["hooks"] + first["hooks"]  # the finder acted once and left
    assert not again["compile"] and not first["compile"]  # attrs' module calls the builtin again
    other = attrs_probe(str(tmp_path), "4")  # another type hash in every __hash__, attr._make's own too
    assert other["compiled"] == [] and other["methods"] == attrs_probe("", "4")["methods"] != again["methods"]
