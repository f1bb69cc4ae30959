"""The checks the README's test command promises beside the rule tests: ``mypy --strict``,
ruff, and the Sphinx build with warnings as errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, check=False)


def test_mypy_strict() -> None:
    """The library is typed: ``mypy --strict copa_ref`` is clean."""
    result = run("mypy", "--strict", "copa_ref")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff() -> None:
    """The library and tests pass the lint selection of ``pyproject.toml``."""
    result = run("ruff", "check", "copa_ref", "tests", "bench")
    assert result.returncode == 0, result.stdout + result.stderr


def test_sphinx_build(docs_site: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    """The rule spec and API reference build with warnings as errors, nitpicky, afresh."""
    result, _ = docs_site
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_source_tree_tests_share_one_worker(request: pytest.FixtureRequest) -> None:
    """Under pytest-xdist with ``--dist loadgroup``, this test carries its group's suffix
    (``@source-tree``): the tests that build from the source tree run on one worker, one at a
    time (``tests/conftest.py``). A pytest-xdist that stops grouping fails here, not as a
    rare clash between the rule book's build and the wheel's copy of the tree."""
    if not os.environ.get("PYTEST_XDIST_WORKER") or request.config.getoption("dist") != "no":
        pytest.skip("not a pytest-xdist worker")
    if not request.config.getvalue("loadgroup"):
        pytest.skip("not run with --dist loadgroup")
    assert request.node.nodeid.endswith("@source-tree"), request.node.nodeid
