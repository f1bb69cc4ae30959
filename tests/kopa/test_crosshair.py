"""CrossHair on the contracted Kopa functions, bounded for CI, and proof it is not vacuous.

Checked: ``start_cards`` (KOPA-8: one card, of the pile it starts), ``next_up`` and
``next_down`` (KOPA-9/KOPA-10/KOPA-11/KOPA-12: the same suit, the next number, up to 7 or down
to 9), ``eight_ready`` (KOPA-13: both the 7 and the 9) and ``round_changes`` (KOPA-20: the
winner gains the other hands' cards, everyone loses their penalties). Within its
per-condition timeout CrossHair may report "Not confirmed" (information), never an error.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.support import crosshair

REAL = (
    "copa_ref.kopa.rules.start_cards",
    "copa_ref.kopa.rules.next_up",
    "copa_ref.kopa.rules.next_down",
    "copa_ref.kopa.rules.eight_ready",
    "copa_ref.kopa.rules.round_changes",
)


def test_contracts_hold_and_broken_copies_fail() -> None:
    """KOPA-12, KOPA-13, KOPA-20: no counterexample on the real functions; one on each
    broken copy (tests/kopa/broken_contracts.py)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        real = pool.submit(crosshair, *REAL, timeout=3.0)
        broken = pool.submit(crosshair, "tests.kopa.broken_contracts", timeout=5.0)
        real_result, broken_result = real.result(), broken.result()
    errors = [line for line in real_result.stdout.splitlines() if ": error:" in line]
    assert real_result.returncode == 0, real_result.stdout + real_result.stderr
    assert not errors, errors
    found = broken_result.stdout
    assert broken_result.returncode != 0
    assert "error: false when calling next_up" in found, found
    assert "error: false when calling eight_ready" in found, found
    assert "error: false when calling round_changes" in found, found
