"""The chain from spec to code to tests: every rule ID in ``specs/`` is enforced or guarded in
the library and exercised by a test, and nothing cites an ID the spec lacks (DESIGN.md,
"Rules are numbered, and the numbers travel"). Corpus coverage is checked in
``tests/conformance/test_corpus.py``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PREFIXES = ("KALA", "RONDA", "HOPPER", "DACAPO", "KOPA", "COPAS")
RULE = re.compile(r"\b(?:" + "|".join(PREFIXES) + r")-\d+\b")
HEADING = re.compile(r"^#{1,6}\s+(" + RULE.pattern + r")\b")


def spec_rules() -> dict[str, str]:
    """Every rule ID stated in a spec heading, with the spec file it is in."""
    found: dict[str, str] = {}
    for spec in sorted((ROOT / "specs").glob("*.md")):
        for line in spec.read_text(encoding="utf-8").splitlines():
            match = HEADING.match(line)
            if match and spec.name != "ambiguities.md":
                assert match.group(1) not in found, f"{match.group(1)} stated twice"
                found[match.group(1)] = spec.name
    return found


def cited(folder: str) -> dict[str, set[str]]:
    """Every rule ID cited in the Python files under *folder*, with the files citing it."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        for rule in RULE.findall(path.read_text(encoding="utf-8")):
            found.setdefault(rule, set()).add(str(path.relative_to(ROOT)))
    return found


RULES = spec_rules()


def test_every_registered_game_has_a_spec() -> None:
    """P-10: each registered game states its rules in its spec, under its prefix."""
    for game in GAMES.values():
        assert any(rule.startswith(game.prefix + "-") for rule in RULES), game.name


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rule_is_enforced_or_guarded(rule: str) -> None:
    """Every spec rule appears in the library where it is enforced or guarded."""
    assert rule in cited("copa_ref"), f"{rule} ({RULES[rule]}) is cited nowhere in copa_ref/"


@pytest.mark.parametrize("rule", sorted(RULES))
def test_rule_is_tested(rule: str) -> None:
    """Every spec rule is named by at least one test."""
    assert rule in cited("tests"), f"{rule} ({RULES[rule]}) is named by no test"


def test_no_unknown_rule_is_cited() -> None:
    """No code or test cites a rule ID the specs do not state."""
    unknown = {rule: files for folder in ("copa_ref", "tests")
               for rule, files in cited(folder).items() if rule not in RULES}
    assert not unknown, f"rule IDs not in any spec: {unknown}"


def test_ambiguities_name_known_rules() -> None:
    """The register refers only to rules the specs state."""
    text = (ROOT / "specs" / "ambiguities.md").read_text(encoding="utf-8")
    unknown = set(RULE.findall(text)) - set(RULES)
    assert not unknown, f"the register cites unknown rules {sorted(unknown)}"
