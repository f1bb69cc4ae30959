"""``copa-ref conformance rule``: each rule's conformance knowledge in one record."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copa_ref.cli import main
from copa_ref.conformance.knowledge import UnknownRule, rule_record
from copa_ref.conformance.ladder import Check, Ladder
from copa_ref.conformance.registry import RECORDS
from tests.conformance.test_kill_matrix import spec_rules

ROOT = Path(__file__).resolve().parents[2]

NO_RULE = "KALA" + "-99"
"""A rule ID no spec states (split so that the traceability test does not read it)."""


class TestRuleRecord:
    @pytest.mark.parametrize("game", sorted(RECORDS))
    def test_every_mutant_and_view_rule_is_in_its_rules_record(self, game: str) -> None:
        """Each mutant, misreading, reading and view rule of a game appears in the record
        of the rule it names, and in no other."""
        record = RECORDS[game]
        for rule in spec_rules(game):
            found = rule_record(rule)
            assert {s for s, _ in found.mutants} == {
                m.slug for m in record.catalogue.mutants if m.rule == rule}
            assert len(found.views) == sum(v.rule == rule for v in record.view_rules)
            assert {o for o, _, _ in found.readings} == {
                r.option for r in record.readings if r.rule == rule}
            assert bool(found.mutants) != bool(found.unmutatable), rule

    @pytest.mark.parametrize("game", sorted(RECORDS))
    def test_every_game_shows_its_diagnosis(self, game: str) -> None:
        """Each check of a game's diagnosis ladders is in the record of the rule it names;
        where part of the diagnosis is code (a function, not a ladder), its module is read
        for the lines naming a rule."""
        record = RECORDS[game]
        rules = spec_rules(game)
        parts = getattr(record.diagnose, "parts", (record.diagnose,))
        checks = [c for part in parts if isinstance(part, Ladder) for c in part.checks
                  if isinstance(c, Check) and c.rule in rules]
        for check in checks:
            assert (check.observable, check.name) in rule_record(check.rule).checks, check
        if all(isinstance(part, Ladder) for part in parts):
            return
        shown = {m.where.split(":")[0] for rule in rules for m in rule_record(rule).diagnosis}
        assert f"copa_ref/conformance/{game}/diagnosis.py" in shown, shown

    def test_kala_15(self) -> None:
        """KALA-15's record names its reading, a view rule, its mutant and its events."""
        found = rule_record("kala-15")
        assert (found.game, found.title) == ("kala", "Harvest")
        assert ("harvest", "KALA-Q7", "every value") in found.readings
        assert "harvest-at-three" in {slug for slug, _ in found.mutants}
        assert any(part == "public.phase" for part, _, _ in found.views)
        assert all(re.search(r"kala/record\.py:\d+$", m.where) for m in found.events)
        assert found.events

    def test_the_entry_is_named_by_its_line(self) -> None:
        """The record points at the line of kala/rules.py where KALA-15's entry starts."""
        (found,) = rule_record("KALA-15").declared
        path, _, line = found.where.partition(":")
        assert path == "copa_ref/conformance/kala/rules.py"
        lines = (ROOT / path).read_text().splitlines()
        assert lines[int(line) - 1].strip() == '"KALA-15",'
        assert lines[int(line) - 2].strip() == "RuleEntry("

    def test_a_rule_function_shows_the_table_it_reads(self) -> None:
        """HOPPER's config_rule reads the option table naming HOPPER-13: its line is shown
        as where HOPPER-13 is named for a refused config, not as diagnosis."""
        found = rule_record("HOPPER-13")
        assert any("_OPTION_RULES" in m.text or '"HOPPER-13"' in m.text for m in found.config)
        assert not any('"HOPPER-13"' in m.text for m in found.diagnosis)

    def test_a_public_view_check_is_shown_apart(self) -> None:
        """RONDA's check_public names RONDA-15 for a view whose beans do not add up: shown
        as a check of the reported view, not as diagnosis; the diagnosis's own check of the
        beans is a row of its settled ladder."""
        found = rule_record("RONDA-15")
        assert any('"RONDA-15"' in m.text for m in found.public)
        assert not found.diagnosis
        assert ("public", "beans_differ") in found.checks

    def test_unknown_rule(self) -> None:
        """A rule the spec lacks is refused."""
        with pytest.raises(UnknownRule):
            rule_record(NO_RULE)


class TestRuleCommand:
    def test_prints_the_record(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``copa-ref conformance rule KALA-15`` prints the rule's heading and sections."""
        assert main(["conformance", "rule", "KALA-15"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("KALA-15 Harvest  (kala)\n")
        for head in ("exercised by:", "events (tags a step with it):",
                     "mutants (kill matrix):", "readings (option - question - values):"):
            assert head in out

    def test_refuses_an_unknown_rule(self, capsys: pytest.CaptureFixture[str]) -> None:
        """An unknown rule ID exits with status 2 and one line on stderr."""
        with pytest.raises(SystemExit) as exit_:
            main(["conformance", "rule", NO_RULE])
        assert exit_.value.code == 2
        assert NO_RULE in capsys.readouterr().err
