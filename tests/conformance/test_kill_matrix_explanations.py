"""Every failing case of the kill matrix (every mutant of every game against its corpus)
gets truthful ``rule:`` lines (:func:`tests.conformance.test_explanations.check_truthful`).
In the full tier, on the kill matrix's worker (the matrix is computed once a process)."""

from __future__ import annotations

import pytest

from tests.conformance.test_explanations import check_truthful
from tests.conformance.test_kill_matrix import matrix

pytestmark = pytest.mark.xdist_group("kill-matrix")


def test_every_failing_case_of_the_matrix() -> None:
    checked = 0
    for row in matrix():
        for result in row.failed:
            check_truthful(result)
            checked += 1
    assert checked > 100, checked
