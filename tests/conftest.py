"""The two tiers of the test command, the Hypothesis profiles and the rule book's build.

``pytest`` runs the fast tier: every rule test, the properties at a small profile, the corpus
checks, the command line and the adapters. ``pytest --full`` (or ``COPA_REF_FULL=1``) adds
the heavy checks, marked ``full`` here by file (:data:`FULL`): mypy, ruff and the Sphinx
build, the rule book in a browser, the wheel, the traceability check, the kill matrix,
CrossHair, explore's proofs and the fuzz tests. CI (``.ci/run``) runs ``pytest --full``.

Each failure is named on its own line as it happens (``FAILED tests/...``), so a run cut
short has said what failed so far. The ``-n auto`` of ``addopts`` starts pytest-xdist's
workers for the whole suite or a folder only: a run of test files or single tests runs in
this process (:func:`pytest_xdist_auto_num_workers`).

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE``: ``dev`` (the default), ``ci`` and
``crosshair``.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

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
_TREE_GROUP = ("tests/docs/", "tests/test_tooling.py", "tests/test_wheel.py")


FULL = ("tests/test_tooling.py", "tests/test_traceability.py", "tests/test_wheel.py",
        "tests/docs/test_browser.py", "tests/docs/test_rulebook.py",
        "tests/conformance/test_kill_matrix", "tests/conformance/test_explore_proof.py",
        "tests/conformance/test_hostile.py", "tests/fuzz/")
"""The heavy tier, by path prefix (each game's ``test_crosshair.py`` too): run by
``pytest --full`` and CI, left out of the default ``pytest``."""


def _is_full(path: str) -> bool:
    return path.startswith(FULL) or path.rpartition("/")[2].startswith("test_crosshair.py")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--full", action="store_true", default=False,
                     help="also run the heavy checks (marked full: mypy, ruff, Sphinx, "
                     "browser, wheel, traceability, kill matrix, CrossHair, explore proofs, "
                     "fuzz); COPA_REF_FULL=1 does the same. CI runs them.")


def full_tier(config: pytest.Config) -> bool:
    """Whether this run includes the heavy tier (``--full`` or ``COPA_REF_FULL=1``)."""
    return bool(config.getoption("--full") or os.environ.get("COPA_REF_FULL") == "1")


# tryfirst: pytest-xdist reads the group marks in its own hook of the same name.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the tests that build from the source tree into one xdist group; mark the heavy
    tier ``full`` (by path, :data:`FULL`, or a test's own ``full`` mark) and, without
    ``--full``, leave it out (deselected, counted in the summary)."""
    full = full_tier(config)
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        path = item.nodeid.replace("\\", "/")
        if path.startswith(_TREE_GROUP):
            item.add_marker(pytest.mark.xdist_group("source-tree"))
        if _is_full(path) or item.get_closest_marker("full") is not None:
            item.add_marker(pytest.mark.full)
            if not full:
                left.append(item)
                continue
        kept.append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def _explicit_workers(config: pytest.Config) -> bool:
    """Whether ``-n``/``--numprocesses`` was given on the command line or in
    ``PYTEST_ADDOPTS`` (not only in the ``addopts`` of ``pyproject.toml``)."""
    given = [*config.invocation_params.args, *os.environ.get("PYTEST_ADDOPTS", "").split()]
    return any(arg.startswith(("-n", "--numprocesses")) for arg in given)


def _names_tests_only(config: pytest.Config) -> bool:
    """Whether every path the run names is a test file or a test in one (``path::name``):
    no folder, and not the whole suite (``testpaths``)."""
    base = config.invocation_params.dir
    return bool(config.args) and all(
        "::" in arg or (base / arg).is_file() for arg in config.args)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """The workers ``-n auto`` of ``addopts`` starts: none (the tests run in this process)
    when the run names only test files or single tests, where starting the workers costs
    more than they save (about 4 s before the first test); pytest-xdist's count (the cores)
    for the whole suite or a folder, or when ``-n`` is given on the command line."""
    if not _explicit_workers(config) and _names_tests_only(config):
        return 0
    return None


def pytest_report_header(config: pytest.Config) -> str:
    return ("tier: full (every check)" if full_tier(config)
            else "tier: fast (the heavy checks run with: pytest --full)")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Name each failure as it happens (on the controller under xdist), not only at the end."""
    if not report.failed or _WRITER is None:
        return
    when = "" if report.when == "call" else f" (at {report.when})"
    crash = getattr(getattr(report, "longrepr", None), "reprcrash", None)
    why = f" - {str(crash.message).splitlines()[0][:120]}" if crash is not None else ""
    _WRITER.write("\n")
    _WRITER.write_line(f"FAILED {report.nodeid}{when}{why}", red=True, bold=True)


_WRITER: Any = None


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    global _WRITER
    if not hasattr(config, "workerinput"):   # the controller, or a run without xdist
        _WRITER = config.pluginmanager.get_plugin("terminalreporter")


ROOT = Path(__file__).resolve().parent.parent


DOCS_SOURCES = ("docs", "copa_ref", "conformance", "specs", "README.md", "CHANGELOG.md",
                "pyproject.toml")
"""What the rule book is built from (the pages, the code autodoc reads, the corpus the
pictures and the case viewer come from, the pages it includes)."""


def _docs_stamp() -> str:
    """A digest of the rule book's sources (each file's path, size and modification time;
    the built site and the generated case pages left out) and of the Python and Sphinx
    versions: the same digest, the same site."""
    import hashlib

    import sphinx

    digest = hashlib.sha256(f"{sys.version}|{sphinx.__version__}".encode())
    for name in DOCS_SOURCES:
        top = ROOT / name
        for path in sorted(top.rglob("*")) if top.is_dir() else [top]:
            relative = path.relative_to(ROOT).as_posix()
            if (relative.startswith(("docs/_build/", "docs/cases/")) or "__pycache__" in relative
                    or not path.is_file()):
                continue
            info = path.stat()
            digest.update(f"{relative}|{info.st_size}|{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


@pytest.fixture(scope="session")
def docs_site() -> tuple[subprocess.CompletedProcess[str], Path]:
    """The rule book, built once a session (``sphinx-build -W -E -a -n`` into
    ``docs/_build/test-html``, not the ``docs/_build/html`` a reader builds, so that a cut
    test run never leaves a half-built site there), or the site an earlier session built
    from the same sources (:func:`_docs_stamp`), with that build's result: the Sphinx check
    of ``tests/test_tooling.py`` reads the result and the browser test opens the site. The
    build result and the site's folder."""
    import json

    site = ROOT / "docs" / "_build" / "test-html"
    stamp_file = ROOT / "docs" / "_build" / "test-html.stamp.json"
    stamp = _docs_stamp()
    with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
        kept = json.loads(stamp_file.read_text())
        if kept["stamp"] == stamp and (site / "index.html").is_file():
            return subprocess.CompletedProcess(kept["args"], kept["returncode"],
                                               kept["stdout"], kept["stderr"]), site
    stamp_file.unlink(missing_ok=True)
    result = subprocess.run(
        [sys.executable, "-m", "sphinx.cmd.build", "-W", "-E", "-a", "-n", "--keep-going",
         "-q", "-b", "html", str(ROOT / "docs"), str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    stamp_file.write_text(json.dumps({
        "stamp": stamp, "args": result.args, "returncode": result.returncode,
        "stdout": result.stdout, "stderr": result.stderr}))
    return result, site
