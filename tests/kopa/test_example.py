"""The text's worked example, replayed against the rules: the diagnosis is pinned."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from copa_ref.cli import main
from copa_ref.kopa.example import diagnose, load_example, report

ROOT = Path(__file__).resolve().parents[2]


class TestDiagnosis:
    def test_the_count_and_the_departure(self) -> None:
        """KOPA-8: 54 violations (13 admitted by the example); the deal is refused under
        KOPA-4, and the first move that cannot be followed is Carlos's Gules 2 (KOPA-8)."""
        found = diagnose()
        assert len(found.violations) == 54
        assert sum(v.admitted for v in found.violations) == 13
        assert found.deal.startswith("The deal is refused (KOPA-4:")
        assert found.departure.startswith("Round 2:") and "Gules 2" in found.departure
        assert "KOPA-8" in found.departure

    def test_independent_charged_and_restated(self) -> None:
        """KOPA-15: of the 54 items, 37 are independent violations, 13 charge a point for
        the invalid play the item before lists, and 4 restate an earlier item; the report
        says which is which."""
        found = diagnose().violations
        kinds = [v.kind for v in found]
        assert (kinds.count("independent"), kinds.count("charged"),
                kinds.count("restatement")) == (37, 13, 4)
        for number, v in enumerate(found, 1):
            if v.kind == "charged":
                assert v.of == number - 1 and found[number - 2].admitted
                assert "charged 1 for an invalid play" in v.reason
            elif v.kind == "restatement":
                assert v.of is not None and v.of < number
            else:
                assert v.of is None
        assert [n for n, v in enumerate(found, 1) if v.kind == "restatement"] == [8, 22, 39, 51]
        lines = report(diagnose())
        assert "37 are independent violations, 13 charge a point" in lines[1]
        assert any(line.endswith("(restates item 4)") for line in lines)
        assert any(line.endswith("(charged for item 5)") for line in lines)

    def test_every_kind_of_violation_is_named(self) -> None:
        """KOPA-4, KOPA-6, KOPA-7, KOPA-8, KOPA-12, KOPA-14, KOPA-15, KOPA-16, KOPA-19,
        KOPA-20: the deal, plays, passes, table lines, penalties and the final scores."""
        rules = [v.rule for v in diagnose().violations]
        assert rules[:4] == ["KOPA-4"] * 4
        assert rules.count("KOPA-7") == 7
        assert rules.count("KOPA-15") == 13
        for rule in ("KOPA-6", "KOPA-8", "KOPA-9", "KOPA-12", "KOPA-14", "KOPA-16", "KOPA-19",
                     "KOPA-20"):
            assert rule in rules
        reasons = {v.where: v.reason for v in diagnose().violations}
        assert "Gules 15, Or 15, Or 4" in reasons["Round 6, Alice"]
        assert any("Vert 13" in v.reason for v in diagnose().violations)

    def test_the_docs_page_shows_the_report(self) -> None:
        """KOPA-20: the docs page lists exactly what the replay reports."""
        page = (ROOT / "docs" / "rules" / "kopa-example.md").read_text(encoding="utf-8")
        assert "\n".join(report(diagnose())) in page

    def test_the_replay_reads_the_data(self) -> None:
        """KOPA-8: nothing is hard-coded: a corrected move in the data changes the report."""
        data = copy.deepcopy(load_example())
        for event in data["events"]:
            if event.get("card") == "Gules 2":
                event.update(card="Sable 5", on="Sable 4")
                event.pop("starts")
        found = diagnose(data)
        assert found.departure == "Round 2: the table line differs from the moves"
        data["events"].append({"kind": "mystery"})
        with pytest.raises(ValueError, match="mystery"):
            diagnose(data)

    def test_command(self, capsys: pytest.CaptureFixture[str]) -> None:
        """KOPA-4: ``copa-ref kopa-example`` prints the report."""
        assert main(["kopa-example"]) == 0
        out = capsys.readouterr().out
        assert out.splitlines() == report(diagnose())
