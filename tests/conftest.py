"""Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE``.

``dev`` (the default), ``ci`` and ``crosshair``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


# tryfirst: pytest-xdist reads the group marks in its own hook of the same name.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests that build from the source tree into one xdist group."""
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if path.startswith(_TREE_GROUP):
            item.add_marker(pytest.mark.xdist_group("source-tree"))


ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def docs_site() -> tuple[subprocess.CompletedProcess[str], Path]:
    """The rule book, built once a session, afresh (``sphinx-build -W -E -a -n`` into
    ``docs/_build/html``): the Sphinx check of ``tests/test_tooling.py`` reads its result and
    the browser test opens it. The build result and the site's folder."""
    site = ROOT / "docs" / "_build" / "html"
    result = subprocess.run(
        [sys.executable, "-m", "sphinx.cmd.build", "-W", "-E", "-a", "-n", "--keep-going",
         "-q", "-b", "html", str(ROOT / "docs"), str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    return result, site
