"""The case viewer's model: every corpus case replays through the reference, the page and
step a failure names, the step where a rule fires."""

from __future__ import annotations

import pytest

from copa_ref.conformance.viewer import (
    action_words,
    frames,
    load_cases,
    rule_step,
    viewer_path,
)
from copa_ref.core import Misreading
from copa_ref.games import GAMES

CASES = {case["id"]: case for case in load_cases()}


class TestViewerPath:
    def test_page_and_step(self) -> None:
        """A failure names the page relative to the site's root and the step's anchor."""
        assert viewer_path("kala/trace/bonus-of-five", 3) == (
            "cases/kala/trace/bonus-of-five.html#step-3")
        assert viewer_path("kala/trace/bonus-of-five") == "cases/kala/trace/bonus-of-five.html"


class TestFrames:
    def test_every_case_replays(self) -> None:
        """Every case of every kind replays through the reference, one frame per action
        plus the start, and its expected observables are the ones shown."""
        assert len(CASES) > 100
        for case in CASES.values():
            shown = frames(GAMES[case["game"]], case)
            actions = case.get("steps") or case.get("prefix") or []
            assert [f.step for f in shown] == list(range(len(actions) + 1))
            if case["kind"] == "trace":
                last = case["steps"][-1]["expect"] if case["steps"] else case["initial"]
                assert shown[-1].observed["outcome"] == last["outcome"]

    def test_a_rejection_ends_on_its_refused_action(self) -> None:
        """The last frame of a rejection case carries the action refused and the rule."""
        case = CASES["kala/rejection/KALA-7/turns-twice/default-seed-1-ply-0"]
        last = frames(GAMES["kala"], case)[-1]
        assert last.refused == case["action"] and last.rule == "KALA-7"


class TestRuleStep:
    def test_rejection_and_ending_rules(self) -> None:
        """A rejection's rule fires at its refused action, an ending rule where the outcome
        names it; a rule that does nowhere gives None."""
        case = CASES["kala/rejection/KALA-7/turns-twice/default-seed-1-ply-0"]
        assert rule_step(GAMES["kala"], case, "KALA-7") == len(case["prefix"])
        trace = CASES["kala/trace/random-default-seed-1"]
        assert rule_step(GAMES["kala"], trace, "KALA-17") == len(trace["steps"])
        assert rule_step(GAMES["kala"], trace, "KALA-14") is None

    def test_a_misreading_finds_where_its_rule_fires(self) -> None:
        """KALA-15: the first harvest of the case is where a misread harvest differs."""
        case = CASES["kala/trace/harvest-field-cup"]
        game = GAMES["kala"]
        wrong = Misreading(rule="KALA-15", slug="no-bank-bean", description="no bank bean",
                           replacements={"harvest_split": lambda beans: (0, beans)})
        step = rule_step(game, case, "KALA-15", [wrong])
        assert step is not None and case["steps"][step - 1]["action"]["type"] == "harvest"


@pytest.mark.parametrize(("action", "words"), [
    ({"type": "sow", "seat": 0, "path": [[0, 0], [0, 1]]}, "seat 0: sow, path [0, 0] → [0, 1]"),
    ({"type": "play", "seat": 2, "card": "Qe"}, "seat 2: play, card Qe"),
    ({"type": "bids", "bids": [4, None, 1]}, "bids 4, –, 1"),
    ({"type": "harvest", "seat": 1, "take": True}, "seat 1: harvest, take yes"),
])
def test_action_words(action: dict[str, object], words: str) -> None:
    """An action's JSON reads as words: who, what, and its fields."""
    assert action_words(action) == words  # type: ignore[arg-type]
