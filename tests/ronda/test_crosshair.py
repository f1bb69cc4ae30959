"""CrossHair on RONDA's contracted functions, bounded in time, and proof it is not vacuous.

Checked: ``add_bean`` (RONDA-7, RONDA-10, RONDA-12, RONDA-15: one bean from the supply, a
group of the maximum leaves the circle whole with the bean, the black cup fills only when
empty, no bean lost), ``take_penalty`` (RONDA-11, RONDA-15) and ``next_seat`` (RONDA-4).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support import crosshair

pytestmark = pytest.mark.slow

CHECKED = (
    "copa_ref.ronda.rules.add_bean",
    "copa_ref.ronda.rules.take_penalty",
    "copa_ref.ronda.rules.next_seat",
)


def test_contracts_hold_and_planted_bugs_are_found() -> None:
    """RONDA-10, RONDA-11, RONDA-12, RONDA-15: no counterexample on the real functions; one
    on each broken copy (tests/ronda/broken_contracts.py)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        real = pool.submit(crosshair, *CHECKED, timeout=4.0)
        broken = pool.submit(crosshair, "tests.ronda.broken_contracts", timeout=5.0)
        real_result, broken_result = real.result(), broken.result()
    assert real_result.returncode == 0, real_result.stdout + real_result.stderr
    assert "error" not in real_result.stdout, real_result.stdout
    assert "Unable to meet precondition" not in real_result.stdout, real_result.stdout
    found = broken_result.stdout
    assert broken_result.returncode != 0, found + broken_result.stderr
    for name in ("add_bean_forgetting_the_bean", "add_bean_filling_a_full_black_cup",
                 "take_penalty_from_nowhere"):
        assert f"when calling {name}" in found, found
