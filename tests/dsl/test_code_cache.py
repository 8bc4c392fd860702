"""attrs' generated methods are compiled once per machine (``dsl.code_cache``): the same code
as attrs compiles, a type hash of this process's, safe writes, and no cache means no harm."""

from __future__ import annotations

import linecache
import marshal
import os
import subprocess
import sys
from pathlib import Path

from warbook.dsl import code_cache
from warbook.dsl.ast import Span
from warbook.dsl.code_cache import CodeCache


def _script(method) -> tuple[str, str]:
    """The source attrs wrote for one of a class's methods, and its file name."""
    filename = method.__code__.co_filename
    return "".join(linecache.cache[filename][2]), filename


def _function_code(module_code, name: str):
    return next(c for c in module_code.co_consts if getattr(c, "co_name", None) == name)


def test_the_code_is_what_attrs_compiles_with_this_process_type_hash(tmp_path: Path) -> None:
    script, filename = _script(Span.__hash__)
    cache = CodeCache(tmp_path / "codes.marshal")
    code = cache.code(script, filename)
    assert _function_code(code, "__hash__") == Span.__hash__.__code__
    assert _function_code(code, "__init__") == Span.__init__.__code__
    cache.save()
    again = CodeCache(tmp_path / "codes.marshal")
    assert _function_code(again.code(script, filename), "__hash__") == Span.__hash__.__code__
    assert again.compiled == 0  # read, not compiled


def test_a_record_class_built_from_the_cache_behaves_as_one_compiled(tmp_path: Path) -> None:
    probe = ("from warbook.dsl.ast import Span\n"
             "a, b = Span('p', 1, 2, 3, 4), Span('p', 1, 2, 3, 4)\n"
             "print(repr(a), a == b, hash(a) == hash(b), a < Span('p', 1, 3, 1, 1), len({a, b}))\n")
    env = {**os.environ, "WARBOOK_CACHE_DIR": str(tmp_path)}
    runs = [subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
            for _ in range(2)]
    (saved,) = tmp_path.glob("attrs-*.marshal")
    assert runs[0].stdout == runs[1].stdout == "Span(path='p', line=1, column=2, end_line=3, end_column=4) " \
                                               "True True True 1\n"
    assert all(type(code).__name__ == "code" for code in marshal.loads(saved.read_bytes()).values())
    assert not list(tmp_path.glob("*.partial"))


def test_a_damaged_file_is_compiled_again_and_rewritten(tmp_path: Path) -> None:
    path = tmp_path / "codes.marshal"
    path.write_bytes(b"\x00not marshal")
    script, filename = _script(Span.__init__)
    cache = CodeCache(path)
    assert _function_code(cache.code(script, filename), "__init__") == Span.__init__.__code__
    cache.save()
    assert len(marshal.loads(path.read_bytes())) == 1


def test_a_folder_that_cannot_be_written_means_no_saving(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    cache = CodeCache(blocker / "cache" / "codes.marshal")
    script, filename = _script(Span.__init__)
    cache.code(script, filename)
    cache.save()
    assert blocker.read_text() == "not a folder"


def test_the_file_keeps_only_the_last_run_once_it_grows_too_big(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "codes.marshal"
    monkeypatch.setattr(code_cache, "MAX_ENTRIES", 2)
    for n in range(2):
        cache = CodeCache(path)
        cache.code(f"x = {n}\n", f"<f{n}>")
        cache.save()
    assert len(marshal.loads(path.read_bytes())) == 2
    cache = CodeCache(path)
    cache.code("x = 9\n", "<f9>")
    cache.save()
    assert list(marshal.loads(path.read_bytes())) == ["<f9>\0x = 9\n"]


def test_no_cache_folder_means_attrs_compiles_as_before() -> None:
    probe = ("import attr._make as m\nfrom warbook.dsl import code_cache\n"
             "print(code_cache.install(), m._compile_and_eval.__module__)\n")
    env = {**os.environ, "WARBOOK_CACHE_DIR": ""}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert done.stdout == "None attr._make\n"


def test_this_attrs_has_the_hook() -> None:
    """attrs' ``_compile_and_eval`` is private: this fails first when an attrs release changes it."""
    import attr._make as make

    assert make._compile_and_eval.__code__.co_varnames[:4] == ("script", "globs", "locs", "filename")
