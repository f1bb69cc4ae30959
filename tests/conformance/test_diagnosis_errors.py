"""A diagnosis's own bug raises; only the engine's data errors are taken for a misshapen
report (``ENGINE_DATA``, ``BAD_DATA`` in ``copa_ref/core/replay.py``)."""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs
import pytest

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Case, Filters, load_corpus, select
from copa_ref.conformance.ladder import Check, Diagnosis, Ladder
from copa_ref.conformance.registry import RECORDS
from copa_ref.conformance.runner import Runner
from copa_ref.conformance.vocabulary import Finding, ViewRule
from copa_ref.core import misread
from copa_ref.core.replay import BAD_DATA, ENGINE_DATA
from copa_ref.games import GAMES
from tests.conformance.test_kill_matrix import MutantEngine

CASE = "kala/trace/harvest-field-cup"


@functools.cache
def _case() -> Case:
    """The case, read from the corpus once a run."""
    (case,) = select(load_corpus(), Filters(case=CASE))
    return case


def _run(monkeypatch: pytest.MonkeyPatch, bug: Exception | None,
         where: str = "diagnose") -> tuple[str, str]:
    """The status and reason of a case a KALA-15 mutant fails, with the diagnosis raising
    *bug* (``None``: the real diagnosis). *where* plants the bug: ``diagnose`` replaces the
    whole diagnosis; ``predicate``, a check's predicate put first in the real diagnosis's
    ladders (run by the ladder engine); ``when``, the ``when`` of a view rule put first in
    the record's view rules."""
    record = RECORDS["kala"]
    if bug is not None:
        def raises(d: object) -> bool:
            raise bug

        def faulty(d: object) -> Iterator[Finding]:
            raise bug

        if where == "diagnose":
            record = attrs.evolve(record, diagnose=faulty)
        elif where == "predicate":
            planted = Ladder(context=lambda d: d, checks=(
                Check(rule="KALA-15", observable="public", holds=raises, says=str),))
            assert isinstance(record.diagnose, Diagnosis)
            record = attrs.evolve(record, diagnose=Diagnosis(
                (planted, *record.diagnose.parts)))
        else:
            view: ViewRule[object, object, object, object] = ViewRule(
                part="public", rule="KALA-15", says="planted", when=raises)
            record = attrs.evolve(record, view_rules=(view, *record.view_rules))
        monkeypatch.setitem(RECORDS, "kala", record)
    wrong = misread(GAMES["kala"], record.catalogue.mutant("harvest-all-to-store"))
    case = _case()
    runner = Runner(lambda: InProcessChannel(lambda: MutantEngine(wrong)), corpus=[case])
    result = runner.run_case(case)
    runner.close()
    return result.status, result.reason or ""


class TestDiagnosisErrors:
    def test_the_real_diagnosis_names_the_rule(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """The case fails, named (the baseline of the tests below)."""
        assert _run(monkeypatch, None)[0] == "failed"

    @pytest.mark.parametrize("bug", [IndexError("a bug"), AssertionError("a bug"),
                                     AttributeError("a bug")])
    def test_a_faulty_diagnosis_raises(self, monkeypatch: pytest.MonkeyPatch,
                                       bug: Exception) -> None:
        """A diagnosis that raises an error of its own is not taken for the engine's: the
        runner reports the case errored with the exception's type, not a failure naming
        some other rule."""
        status, reason = _run(monkeypatch, bug)
        assert status == "errored" and type(bug).__name__ in reason

    @pytest.mark.parametrize("where", ["predicate", "when"])
    @pytest.mark.parametrize("bug", [IndexError("a bug"), AssertionError("a bug"),
                                     AttributeError("a bug")])
    def test_a_faulty_predicate_raises(self, monkeypatch: pytest.MonkeyPatch,
                                       bug: Exception, where: str) -> None:
        """A bug inside one predicate (a ladder's check, run by the ladder engine; a view
        rule's ``when``) surfaces the same way: the case errors, naming the exception."""
        status, reason = _run(monkeypatch, bug, where)
        assert status == "errored" and type(bug).__name__ in reason

    @pytest.mark.parametrize("where", ["diagnose", "predicate", "when"])
    def test_engine_data_errors_in_a_predicate_are_caught(
            self, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
        """A ``KeyError`` or ``ValueError`` from a predicate is the engine's data: the case
        still fails, named."""
        assert _run(monkeypatch, KeyError("rounds"), where)[0] == "failed"
        assert _run(monkeypatch, ValueError("not a path"), where)[0] == "failed"

    def test_engine_data_errors_are_caught(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """A ``KeyError`` (a key missing from the engine's report) is the engine's data: the
        case still fails, named by the generic checks."""
        assert _run(monkeypatch, KeyError("rounds"))[0] == "failed"

    def test_bad_data_leaves_out_bugs(self) -> None:
        """Neither an ``IndexError`` nor a bare ``AssertionError`` is taken for bad data."""
        assert not issubclass(IndexError, BAD_DATA + ENGINE_DATA)
        assert AssertionError not in BAD_DATA + ENGINE_DATA
