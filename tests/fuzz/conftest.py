"""Volumes of the fuzz tests, and their tally printed at the end of the run.

CI (``COPA_REF_FUZZ`` unset) runs a tenth of the long run's volume; ``COPA_REF_FUZZ=long``
reaches at least 250,000 ``apply`` calls per game over 3,000 positions, 100,000 mutated JSON
inputs per game, 5,000 malformed engine lines, 20,678 small pathological texts of 64 KiB
(every unit of one to three structural characters, repeated, after seven prefixes) and long
engine sessions (100,000 Kopa passes, 200,000 seats out of range, 3,000 refusals of 100 KB,
100,000 explored moves).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from tests.fuzz.strategies import LONG

TALLY: Counter[str] = Counter()
"""What the fuzz tests tried, by kind (``"kala apply"``, ``"engine lines"``, ...)."""

SCALE = 10 if LONG else 1

POSITIONS = 3000 if LONG else 300
"""Positions per game."""


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if TALLY:
        terminalreporter.section("fuzz volumes" + (" (long run)" if LONG else ""))
        for key in sorted(TALLY):
            terminalreporter.write_line(f"{key}: {TALLY[key]:,}")
