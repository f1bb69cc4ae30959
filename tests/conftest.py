"""Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE``.

``dev`` (the default), ``ci`` and ``crosshair``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=150,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "crosshair",
    backend="crosshair",
    max_examples=20,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# Tests that build the rule book write its generated case pages into ``docs/cases/`` of the
# source tree, and the wheel test copies that tree: under pytest-xdist (``-n``) they run in
# one group on one worker (``--dist loadgroup``), so no two of them touch the tree at once.
_TREE_GROUP = ("tests/docs/", "tests/test_tooling.py", "tests/test_wheel.py",
               "tests/test_sdist.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests that build from the source tree into one xdist group."""
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if path.startswith(_TREE_GROUP):
            item.add_marker(pytest.mark.xdist_group("source-tree"))
