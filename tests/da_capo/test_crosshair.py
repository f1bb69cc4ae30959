"""CrossHair on DA CAPO's contracted round-resolution helpers, bounded for CI.

``round_winner`` (DACAPO-9, DACAPO-11, DACAPO-12: the winner's bid is unique, no higher
unmatched bid exists, and under the cascade nobody advances only when every bid is
matched), ``settle_round`` (DACAPO-3, DACAPO-10: beans conserved, at most one line moves)
and ``last_player_step`` (DACAPO-14: beans conserved, the last player's reserve emptied).
A run must find no counterexample; the deliberately broken copies in
``broken_contracts.py`` prove that the same setup does find one.
"""

from __future__ import annotations

import re

from tests.support import crosshair

ERROR = re.compile(r":\d+: error:")


def test_contracts_hold() -> None:
    """DACAPO-3, DACAPO-9, DACAPO-10, DACAPO-11, DACAPO-12, DACAPO-14: no counterexample
    to the contracts of the round-resolution helpers within the bounded search."""
    result = crosshair(
        "copa_ref.da_capo.rules.round_winner",
        "copa_ref.da_capo.rules.settle_round",
        "copa_ref.da_capo.rules.last_player_step",
        timeout=3,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert not ERROR.search(result.stdout), result.stdout
    # --report_all prints one line per condition: all seven were examined.
    assert result.stdout.count("info:") == 7, result.stdout


def test_broken_copies_caught() -> None:
    """DACAPO-3, DACAPO-11: CrossHair finds the planted bugs (a tied top bid winning, a
    bean lost from a round without a winner), so the check above is not vacuous."""
    result = crosshair(
        "tests.da_capo.broken_contracts.broken_round_winner",
        "tests.da_capo.broken_contracts.broken_settle_round",
        timeout=3,
    )
    assert result.returncode != 0
    errors = ERROR.findall(result.stdout)
    assert len(errors) == 2, result.stdout
    assert "broken_round_winner(" in result.stdout
    assert "broken_settle_round(" in result.stdout
