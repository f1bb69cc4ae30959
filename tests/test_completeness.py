"""Every registered game has every part a game needs (the fields of
``copa_ref.core.game.Game`` and the conformance record): forgetting one fails here, naming
the game and the part, instead of the game silently dropping out of a list.

The games come from the registry (:data:`copa_ref.games.GAMES`); every other list of games
(the corpus schema's rule prefixes, the rule book's, the traceability check's, the kill
matrix's) is made from it.
"""

from __future__ import annotations

import random
import re
import sys
import tomllib
from pathlib import Path

import pytest

from copa_ref.conformance.registry import RECORDS
from copa_ref.core import MoverKind, steps, uniform
from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(GAMES)


def _rules_of(name: str) -> list[str]:
    text = (ROOT / "specs" / f"{name}.md").read_text(encoding="utf-8")
    prefix = GAMES[name].prefix
    return list(dict.fromkeys(re.findall(rf"^#+\s+({prefix}-\d+)\b", text, re.MULTILINE)))


@pytest.mark.parametrize("name", NAMES)
class TestEveryGameHasItsParts:
    def test_spec(self, name: str) -> None:
        """``specs/<game>.md`` states the game's numbered rules under its prefix."""
        assert (ROOT / "specs" / f"{name}.md").is_file(), f"{name}: no specs/{name}.md"
        assert _rules_of(name), f"{name}: specs/{name}.md states no {GAMES[name].prefix} rule"

    def test_rules_library(self, name: str) -> None:
        """``copa_ref/<game>/`` has its state, rules, invariants and demo."""
        folder = ROOT / "copa_ref" / name
        missing = [f for f in ("__init__.py", "state.py", "rules.py", "invariants.py",
                               "demo.py") if not (folder / f).is_file()]
        assert not missing, f"{name}: copa_ref/{name}/ lacks {missing}"

    def test_conformance_record(self, name: str) -> None:
        """The game has a conformance record in the registry and its folder
        ``copa_ref/conformance/<game>/`` (rule entries, record, diagnosis, misreadings), and a
        corpus."""
        assert name in RECORDS, f"{name}: no record in copa_ref/conformance/registry.py"
        assert RECORDS[name].game is GAMES[name]
        folder = ROOT / "copa_ref" / "conformance" / name
        missing = [f for f in ("__init__.py", "rules.py", "record.py", "diagnosis.py",
                               "misreadings.py") if not (folder / f).is_file()]
        assert RECORDS[name].rules, f"{name}: its record has no rule entries"
        assert not missing, f"{name}: copa_ref/conformance/{name}/ lacks {missing}"
        assert sorted((ROOT / "conformance" / "cases" / name).glob("*.json")), (
            f"{name}: no corpus cases (run copa-ref conformance generate)")

    def test_misreadings_in_the_kill_matrix(self, name: str) -> None:
        """The game's catalogue has a mutant for every rule of its spec (or the reason why
        a rule has none), and the kill matrix takes the game."""
        from tests.conformance.test_kill_matrix import mutants_of

        catalogue = RECORDS[name].catalogue
        assert catalogue.mutants, f"{name}: no mutants in its catalogue"
        assert mutants_of(name) == catalogue.mutants
        mutated = {m.rule for m in catalogue.mutants}
        bare = [r for r in _rules_of(name) if r not in mutated and r not in catalogue.unmutatable]
        assert not bare, f"{name}: rules with no mutant and no reason: {bare}"

    def test_docs_pages(self, name: str) -> None:
        """The rule book has the game's rule page and its API page (both indexed by a
        glob), and the API page documents the game's package and its catalogue."""
        assert (ROOT / "docs" / "rules" / f"{name}.md").is_file(), f"{name}: no docs/rules page"
        api = ROOT / "docs" / "api" / f"{name}.md"
        assert api.is_file(), f"{name}: no docs/api/{name}.md"
        text = api.read_text(encoding="utf-8")
        assert f"copa_ref.{name}" in text, f"{name}: docs/api/{name}.md does not document it"

    def test_benchmark(self, name: str) -> None:
        """``bench/playouts.py`` plays the game (its games are the registry's): one short
        run gives it a throughput."""
        sys.path.insert(0, str(ROOT / "bench"))
        try:
            import playouts  # type: ignore[import-not-found]
        finally:
            sys.path.remove(str(ROOT / "bench"))
        assert playouts.GAMES[name] is GAMES[name], f"{name}: bench/playouts.py lacks it"
        played = steps(GAMES[name], uniform, random.Random(1), max_steps=300)
        decisions = sum(step.mover.kind is not MoverKind.CHANCE for step in played)
        assert decisions > 0, f"{name}: the benchmark's loop played no decision"

    def test_packaged(self, name: str) -> None:
        """The wheel carries the game's packages (``pyproject.toml`` lists them)."""
        config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        packages = set(config["tool"]["setuptools"]["packages"])
        for package in (f"copa_ref.{name}", f"copa_ref.conformance.{name}"):
            assert package in packages, f"{name}: pyproject.toml does not ship {package}"


def test_every_package_is_shipped() -> None:
    """Every package of the source tree is in ``pyproject.toml``'s list (the wheel carries
    exactly what the checkout imports)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    packages = set(config["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "copa_ref").rglob("__init__.py")}
    assert found <= packages, f"packages not shipped: {sorted(found - packages)}"


def test_every_record_is_a_registered_game() -> None:
    """No conformance record outlives its game in the registry."""
    assert set(RECORDS) == set(GAMES)
