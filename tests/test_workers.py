"""Which runs ``-n auto`` (in ``addopts``) starts pytest-xdist workers for
(``tests/conftest.py``): the whole suite or a folder, not a run of test files or single tests."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.conftest import pytest_xdist_auto_num_workers

ROOT = Path(__file__).resolve().parent.parent


def _config(*args: str, given: tuple[str, ...] = ()) -> Any:
    """A stand-in for pytest's config: *args* the paths the run collects, *given* the
    command line as typed."""
    return SimpleNamespace(args=list(args), invocation_params=SimpleNamespace(
        dir=ROOT, args=given or args))


@pytest.fixture(autouse=True)
def _no_addopts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests' own command line, not this run's ``PYTEST_ADDOPTS``."""
    monkeypatch.delenv("PYTEST_ADDOPTS", raising=False)


class TestAutoWorkers:
    @pytest.mark.parametrize("args", [
        ("tests/kala/test_rules.py",),
        ("tests/kala/test_small.py::TestSmallerStores::test_store_sets_both_stores",),
        ("tests/kala/test_rules.py", "tests/ronda/test_rules.py::TestMaterials"),
    ])
    def test_files_and_single_tests_run_in_process(self, args: tuple[str, ...]) -> None:
        """A run of test files or single tests starts no worker."""
        assert pytest_xdist_auto_num_workers(_config(*args)) == 0

    @pytest.mark.parametrize("args", [("tests",), ("tests/kala",),
                                      ("tests/kala", "tests/kala/test_rules.py")])
    def test_the_suite_and_folders_get_workers(self, args: tuple[str, ...]) -> None:
        """The whole suite (``testpaths``: ``tests``) or any folder: pytest-xdist's count."""
        assert pytest_xdist_auto_num_workers(_config(*args)) is None

    @pytest.mark.parametrize("flag", ["-n", "-n2", "--numprocesses=auto"])
    def test_workers_asked_for_are_started(self, flag: str) -> None:
        """``-n`` on the command line is obeyed, even for one test."""
        config = _config("tests/kala/test_rules.py",
                         given=(flag, "tests/kala/test_rules.py"))
        assert pytest_xdist_auto_num_workers(config) is None

    def test_workers_asked_for_in_the_environment_are_started(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        """``-n`` in ``PYTEST_ADDOPTS`` is obeyed too."""
        monkeypatch.setenv("PYTEST_ADDOPTS", "-n 2")
        assert pytest_xdist_auto_num_workers(_config("tests/kala/test_rules.py")) is None
