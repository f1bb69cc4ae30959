"""Every repository path named in a docstring or a doc exists in the checkout.

A *named path* is the text between backticks (single or double) that contains ``/`` and either
ends in one of :data:`EXTENSIONS` or starts with one of the checkout's top-level folders
(:data:`TOP`). Sources: the docstrings of the Python files under :data:`CODE` (``copa_ref/``,
``tests/``, ``bench/``, ``examples/`` and the rule book's extension: every string literal that
is a module, class or function docstring), and ``README.md``, ``docs/**/*.md``,
``conformance/README.md``, ``bench/README.md``, ``specs/*.md``.

Exceptions, each with its reason:

* ``<game>`` is a placeholder: it expands over the registered games' package names, and the
  path exists when it exists for every game;
* a path that starts with ``./``, ``~``, ``/`` or ``..`` is the user's own (``./my-engine``,
  an absolute path on their machine), not the checkout's;
* a path with other placeholders (``<...>``, ``{...}``, ``*``, ``...``) names a pattern, not a
  file;
* a path is looked for from the checkout's root, from the naming file's own folder, and from
  :data:`BASES` (a page about the package names ``<game>/rules.py``; the corpus and its code
  name ``schema/corpus.schema.json`` from the corpus folder);
* a path in a library's own source (:data:`LIBRARIES`: ``pettingzoo/classic/...``, the
  anchors a page sets ours beside) is that library's, not the checkout's;
* :data:`GENERATED`: folders a build or a test writes (the Sphinx output, the rule book's case
  pages, the corpus as the wheel carries it), absent from a clean checkout.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS = (".py", ".md", ".json", ".toml", ".txt", ".yml", ".yaml", ".cfg", ".rst", ".svg",
              ".html", ".js", ".css", ".in", ".jsonl")
TOP = tuple(sorted(p.name + "/" for p in ROOT.iterdir()
                   if p.is_dir() and not p.name.startswith((".", "_"))))
GENERATED = ("docs/_build", "docs/cases", "copa_ref/conformance/published")
CODE = ("copa_ref", "tests", "bench", "examples", "docs/_ext")
BASES = ("copa_ref", "conformance")
LIBRARIES = ("open_spiel/", "pettingzoo/", "supersuit/", "gymnasium/", "stable_baselines3/",
             "ray/")
_TICKED = re.compile(r"``?([^`\s]+)``?")


def _docs() -> list[Path]:
    found = [ROOT / "README.md", ROOT / "conformance" / "README.md", ROOT / "bench" / "README.md"]
    found += sorted((ROOT / "docs").rglob("*.md"))
    found += sorted((ROOT / "specs").glob("*.md"))
    return [p for p in found if p.exists() and not p.is_relative_to(ROOT / "docs" / "_build")
            and not p.is_relative_to(ROOT / "docs" / "cases")]


def _docstrings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append(text)
    return found


def _texts() -> list[tuple[str, str]]:
    texts = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in _docs()]
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            texts += [(str(path.relative_to(ROOT)), text) for text in _docstrings(path)]
    return texts


def named_paths(text: str) -> list[str]:
    """The repository paths *text* names in backticks (see the module's docstring)."""
    found = []
    for candidate in _TICKED.findall(text):
        candidate = candidate.rstrip(".,:;)")
        if "/" not in candidate or "://" in candidate:
            continue
        if not (candidate.endswith(EXTENSIONS) or candidate.startswith(TOP)):
            continue
        if candidate.startswith(("./", "~", "/", "..")):
            continue  # the user's own project
        if candidate.startswith(LIBRARIES):
            continue  # a library's own source
        found.append(candidate)
    return found


def _expansions(path: str) -> list[str]:
    if "<game>" in path:
        return [path.replace("<game>", game) for game in sorted(GAMES)]
    return [path]


def _missing(path: str, where: str = ".") -> bool:
    if path.startswith(GENERATED) or re.search(r"<|\{|\*|\.\.\.", path.replace("<game>", "")):
        return False
    bases = (ROOT, (ROOT / where).parent, *(ROOT / base for base in BASES))
    return not any(all((base / one.rstrip("/")).exists() for one in _expansions(path))
                   for base in bases)


@pytest.mark.parametrize(("text", "expected"), [
    ("see ``tests/kala/test_rules.py``.", ["tests/kala/test_rules.py"]),
    ("run `./my-engine` or `copa-ref conformance`", []),
    ("`copa_ref/conformance/<game>/misreadings.py`",
     ["copa_ref/conformance/<game>/misreadings.py"]),
    ("`a/b` is not a path", []),
    ("beside `pettingzoo/classic/connect_four/connect_four.py`", []),
])
def test_the_matcher_finds_named_paths(text: str, expected: list[str]) -> None:
    assert named_paths(text) == expected


def test_a_missing_path_is_caught() -> None:
    assert _missing("tests/<game>/mutants.py")
    assert _missing("TOOLCHAIN/x.md")
    assert not _missing("copa_ref/conformance/<game>/misreadings.py")


def test_every_named_path_exists() -> None:
    dangling = sorted({f"{where}: {path}" for where, text in _texts()
                       for path in named_paths(text) if _missing(path, where)})
    assert not dangling, "\n".join(dangling)
