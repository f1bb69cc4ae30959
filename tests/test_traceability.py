"""The chain from spec to code to tests: every rule ID in ``specs/`` is enforced or guarded in
the library and asserted by a test, and nothing cites an ID the spec lacks: rule IDs
number the rules and travel from spec to code to test. Corpus coverage is checked in
``tests/conformance/test_corpus.py``.

A rule counts as tested only where a test says it asserts the rule's behaviour: a test
function or class marked ``@pytest.mark.rule("KALA-7")`` (or whose name carries the ID,
``test_kala_7_...``). A mention in a docstring or a comment does not count."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import pytest

from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PREFIXES = tuple(sorted(game.prefix for game in GAMES.values()))
"""The registry's rule prefixes."""
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


def _marked(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> set[str]:
    """The rule IDs a test function or class carries: in ``pytest.mark.rule(...)`` among its
    decorators, or in its name (``test_kala_7_...``, ``TestKALA7``)."""
    found: set[str] = set()
    for decorator in node.decorator_list:
        if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "rule" and isinstance(decorator.func.value,
                                                                  ast.Attribute)
                and decorator.func.value.attr == "mark"):
            found |= {a.value for a in decorator.args
                      if isinstance(a, ast.Constant) and isinstance(a.value, str)}
    for prefix, number in NAMED.findall(node.name):
        found.add(f"{prefix.upper()}-{number}")
    return found


@functools.cache
def marked_rules() -> dict[str, set[str]]:
    """Every rule ID a test function or class under ``tests/`` is marked with (or named
    after), with the tests carrying it."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and (
                    node.name.startswith(("test", "Test"))):
                for rule in _marked(node):
                    found.setdefault(rule, set()).add(
                        f"{path.relative_to(ROOT)}::{node.name}")
    return found


NAMED = re.compile(r"(?i)(?<![a-z])(" + "|".join(PREFIXES) + r")_?(\d+)(?!\d)")
"""A rule ID in a test's name (``kala_7``, ``KALA7``)."""

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
    """Every spec rule is asserted by at least one test marked with it (or named after it)."""
    assert rule in marked_rules(), (f"{rule} ({RULES[rule]}): no test is marked "
                              f"@pytest.mark.rule({rule!r}) or named after it")


def test_only_known_rules_are_marked() -> None:
    """A test marks only rules the specs state."""
    unknown = {rule: tests for rule, tests in marked_rules().items() if rule not in RULES}
    assert not unknown, f"tests marked with rules no spec states: {unknown}"


def test_a_mention_is_not_a_test(tmp_path: Path) -> None:
    """The check counts markers and names, not mentions: a docstring that cites a rule
    carries nothing; a marker and a name do."""
    tree = ast.parse('''
def test_mentions():
    """KALA-7: cited only."""

@pytest.mark.rule("KALA-7", "KALA-9")
class TestMarked:
    pass

def test_kala_12_named():
    pass
''')
    nodes = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert _marked(nodes["test_mentions"]) == set()
    assert _marked(nodes["TestMarked"]) == {"KALA-7", "KALA-9"}
    assert _marked(nodes["test_kala_12_named"]) == {"KALA-12"}


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
