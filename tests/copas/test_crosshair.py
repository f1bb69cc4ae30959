"""CrossHair on the contracted Copas functions, bounded for CI, and proof it is not vacuous.

Checked: ``strength`` (COPAS-2), ``legal_cards`` (COPAS-11/COPAS-12: a subset of the hand,
never empty for a non-empty hand, the led suit when held, every card of it offered),
``trick_winner`` (COPAS-13: the led suit's highest card), ``round_points`` (COPAS-16 to
COPAS-19: never negative, a plain round books the copas, a new pending seat had all ten and
books nothing, a pending seat that took copas books at least 10). Hand and trick sizes are
bounded in the preconditions, so CrossHair explores small cases; within its per-condition
timeout it may report "Not confirmed" (information), never an error.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from tests.support import crosshair

REAL = (
    "copa_ref.copas.rules.strength",
    "copa_ref.copas.rules.legal_cards",
    "copa_ref.copas.rules.trick_winner",
    "copa_ref.copas.rules.round_points",
)


def test_contracts_hold_and_broken_copies_fail() -> None:
    """COPAS-11, COPAS-13, COPAS-16: no counterexample on the real functions; one on each
    broken copy (tests/copas/broken_contracts.py)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        real = pool.submit(crosshair, *REAL, timeout=3.0)
        broken = pool.submit(crosshair, "tests.copas.broken_contracts", timeout=5.0)
        real_result, broken_result = real.result(), broken.result()
    errors = [line for line in real_result.stdout.splitlines() if ": error:" in line]
    assert real_result.returncode == 0, real_result.stdout + real_result.stderr
    assert not errors, errors
    found = broken_result.stdout
    assert broken_result.returncode != 0
    assert "error: false when calling trick_winner" in found, found
    assert "error: false when calling legal_cards" in found, found
