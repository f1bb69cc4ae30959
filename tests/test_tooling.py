"""The checks the README's test command promises beside the rule tests: ``mypy --strict``,
ruff, and the Sphinx build with warnings as errors."""

from __future__ import annotations

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
