"""CrossHair on HOPPER's contracted functions, bounded in time, and proof it is not vacuous."""

from __future__ import annotations

import os

import pytest

from tests.support import crosshair

pytestmark = pytest.mark.slow

CHECKED = (
    "copa_ref.hopper.rules.deal",          # HOPPER-3: even shares, every bean in play
    "copa_ref.hopper.rules.can_shoot",     # HOPPER-10, HOPPER-11
    "copa_ref.hopper.rules.next_turn",     # HOPPER-4, HOPPER-11: the next seat that may shoot
    "copa_ref.hopper.rules.replenish",     # HOPPER-10: all the loose beans
    "copa_ref.hopper.rules.is_foursome",   # HOPPER-8
    "copa_ref.hopper.rules.drop_bean",     # HOPPER-7, HOPPER-8, HOPPER-19: beans conserved
    "copa_ref.hopper.rules.close_up",      # HOPPER-9
    "copa_ref.hopper.rules.cup_value",     # HOPPER-16
    "copa_ref.hopper.rules.points",        # HOPPER-16: the last cup counts 3
)


def test_contracts_hold() -> None:
    """HOPPER-3, HOPPER-4, HOPPER-7 … HOPPER-11, HOPPER-16, HOPPER-19: no counterexample
    within the bound."""
    result = crosshair(*CHECKED, timeout=2)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout, result.stdout
    assert "Unable to meet precondition" not in result.stdout, result.stdout


def test_planted_bugs_are_found() -> None:
    """HOPPER-8, HOPPER-10, HOPPER-11: the same check reports a lost foursome bean, a partial
    replenishment and an empty-handed seat not skipped."""
    result = crosshair("tests/hopper/broken_contracts.py", timeout=4)
    assert result.returncode != 0
    for name in ("drop_bean_losing_the_foursome", "replenish_taking_one",
                 "next_turn_without_skipping"):
        assert name in result.stdout, result.stdout


@pytest.mark.proof
@pytest.mark.skipif(not os.environ.get("COPA_REF_PROOFS"), reason="opt-in: COPA_REF_PROOFS=1")
def test_long_search() -> None:
    """HOPPER-7 … HOPPER-19: a long search (minutes a condition) finds no counterexample."""
    result = crosshair(*CHECKED, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
