"""The runner against the reference engine: over the real subprocess protocol (100 % of the
corpus), in-process, with filters, skips, reports and the message schemas."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from copa_ref.conformance.channel import InProcessChannel, SubprocessChannel
from copa_ref.conformance.corpus import CORPUS_DIR, Filters, load_corpus, select
from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.conformance.runner import Runner
from copa_ref.core import JSON
from copa_ref.games import GAMES
from tests.conformance.engines import misbehaving

ENGINE = f"{sys.executable} -m copa_ref.cli engine"
SCHEMAS = CORPUS_DIR / "schema"
UNKNOWN_RULE = "-".join(("KALA", "99"))  # built, so that no file cites a rule no spec has


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "copa_ref.cli", *args], capture_output=True,
                          text=True, timeout=timeout, check=False)


def validator(name: str, ref: str | None = None) -> jsonschema.Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text())
    if ref is not None:
        schema = {"$defs": schema["$defs"], "$ref": f"#/$defs/{ref}"}
    return jsonschema.Draft202012Validator(schema)


class TestReferenceOverSubprocess:
    def test_reference_passes_the_whole_corpus(self, tmp_path: Path) -> None:
        """`copa-ref conformance run --engine "copa-ref engine"` passes every case, exits 0,
        and writes a JSON-lines report (header, one line per case, footer) that validates."""
        report = tmp_path / "report.jsonl"
        done = cli("conformance", "run", "--engine", ENGINE, "--report", str(report),
                   "--validate")
        assert done.returncode == 0, done.stdout + done.stderr
        lines = [json.loads(line) for line in report.read_text().splitlines()]
        check = validator("report")
        for line in lines:
            check.validate(line)
        header, cases, footer = lines[0], lines[1:-1], lines[-1]
        loaded = len(load_corpus())
        assert header["type"] == "header" and header["loaded"] == loaded
        assert header["corpus_version"] == (CORPUS_DIR / "VERSION").read_text().strip()
        assert header["engine"]["name"] == "copa-ref"
        assert len(cases) == loaded
        assert {c["status"] for c in cases} == {"passed"}
        assert footer["passed"] == footer["run"] == footer["selected"] == loaded
        assert f"{loaded} loaded" in done.stdout and f"{loaded} passed" in done.stdout


class TestInProcess:
    def test_reference_in_process_passes(self) -> None:
        """The same runner drives a Python engine in-process through the adapter interface."""
        runner = Runner(lambda: InProcessChannel(ReferenceEngine))
        results = list(runner.run(load_corpus()))
        runner.close()
        assert {r.status for r in results} == {"passed"}

    def test_an_answer_the_runner_cannot_judge_is_reported_escaped(
            self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Whatever breaks the judging of a case, the case errors with a reason that is
        clipped and has its control characters escaped (no escape sequence reaches a
        terminal through a report)."""
        import copa_ref.conformance.runner as runner_module

        def broken(run: object) -> None:
            raise ValueError("\x1b[31mred\n" * 100)

        monkeypatch.setattr(runner_module, "judge", broken)
        runner = Runner(lambda: InProcessChannel(ReferenceEngine))
        case = select(load_corpus(), Filters(game="kala", kind="trace"))[0]
        [result] = list(runner.run([case]))
        runner.close()
        assert result.status == "errored"
        reason = result.reason or ""
        assert "could not judge" in reason and "ValueError" in reason
        assert "\x1b" not in reason and "\n" not in reason
        assert len(reason) < 420

    def test_filters(self) -> None:
        """Cases filter by game, kind, rule and ID (exact or glob)."""
        cases = load_corpus()
        kala_rejections = select(cases, Filters(game="kala", kind="rejection"))
        assert kala_rejections and all(c["id"].startswith("kala/rejection/")
                                       for c in kala_rejections)
        by_rule = select(cases, Filters(rule="KALA-14"))
        assert by_rule and all("KALA-14" in c["rules"] for c in by_rule)
        one = cases[0]["id"]
        assert [c["id"] for c in select(cases, Filters(case=one))] == [one]
        assert len(select(cases, Filters(case="kala/count/*"))) == len(
            select(cases, Filters(game="kala", kind="count")))

    def test_undeclared_game_and_option_are_skipped(self) -> None:
        """Cases needing a game or an option the engine did not declare are skipped, with
        the reason, never run and never silently dropped."""

        class KalaDefaultsOnly(ReferenceEngine):
            def hello(self) -> dict[str, Any]:
                return {**super().hello(), "games": {"kala": {"options": []}}}

        cases = load_corpus()
        runner = Runner(lambda: InProcessChannel(KalaDefaultsOnly))
        results = list(runner.run(cases))
        runner.close()
        assert len(results) == len(cases)
        for case, result in zip(cases, results, strict=True):
            if case["game"] != "kala":
                assert result.status == "skipped" and "does not play" in (result.reason or "")
            elif case["options"]:
                assert result.status == "skipped" and "needs option" in (result.reason or "")
            else:
                assert result.status == "passed"

    def test_without_undo_counts_replay(self) -> None:
        """An engine without the undo feature still gets its counts checked (by replay)."""

        class NoUndo(ReferenceEngine):
            def hello(self) -> dict[str, Any]:
                return {**super().hello(), "features": ["rule_ids"]}

        cases = select(load_corpus(), Filters(kind="count", game="kala"))[:2]
        runner = Runner(lambda: InProcessChannel(NoUndo))
        assert {r.status for r in runner.run(cases)} == {"passed"}
        runner.close()


class TestMessages:
    def test_reference_messages_follow_the_schema(self) -> None:
        """Every request the runner sends and every answer of the reference engine validates
        against conformance/schema/messages.schema.json."""
        requests, responses = validator("messages", "request"), validator("messages", "response")
        channel = SubprocessChannel(ENGINE, timeout=10)
        try:
            for name, game in sorted(GAMES.items()):
                sent = [
                    {"op": "start", "protocol": "1.0"},
                    {"op": "new_game", "game": name,
                     "config": game.to_json(game.default_config())},
                    {"op": "observe"}, {"op": "legal", "seat": None}, {"op": "legal", "seat": 0},
                    {"op": "export"},
                    {"op": "apply", "action": {"type": "nonsense"}},
                    {"op": "undo"}, {"op": "frobnicate"},
                ]
                for message in sent:
                    if message["op"] != "frobnicate":
                        requests.validate(message)
                    responses.validate(json.loads(json.dumps(channel.request(message))))
        finally:
            channel.close()


def _run(engine: type, cases: list[dict[str, Any]]) -> list[Any]:
    runner = Runner(lambda: InProcessChannel(engine), load_corpus())
    try:
        return list(runner.run(cases))
    finally:
        runner.close()


class TestReadings:
    def test_declared_readings_run_only_what_the_engine_plays(self) -> None:
        """An engine that declares it plays harvest=mandatory only (not the default) runs
        the KALA cases under that reading and skips the others, saying why."""
        from tests.conformance.engines import KalaMandatoryOnly

        cases = select(load_corpus(), Filters(game="kala"))
        results = _run(KalaMandatoryOnly, cases)
        for case, result in zip(cases, results, strict=True):
            if case["config"]["harvest"] == "mandatory":
                assert result.status == "passed", result
            else:
                assert result.status == "skipped"
                assert result.reason == ("the engine does not play harvest=optional "
                                         "(it plays mandatory)")

    def test_another_reading_explains_the_failure(self) -> None:
        """An engine that hard-codes harvest=mandatory fails the default-config cases with
        a harvest, and the failure says so: "your engine plays as if harvest=mandatory
        (KALA-Q7)", naming KALA-15."""
        from tests.conformance.engines import KalaHarvestAlwaysMandatory

        cases = [c for c in select(load_corpus(), Filters(game="kala", kind="trace"))
                 if c["config"]["harvest"] == "optional"]
        failed = [r for r in _run(KalaHarvestAlwaysMandatory, cases) if r.status == "failed"]
        assert failed
        for result in failed:
            assert result.broken_rule == "KALA-15", result
            assert result.explanation == ("your engine plays as if harvest=mandatory "
                                          "(KALA-Q7) [KALA-15]")

    def test_outcome_rule_is_compared_only_with_rule_ids(self) -> None:
        """An engine without rule_ids may name any rule in its outcome; the rest of the
        outcome is still compared."""
        cases = select(load_corpus(), Filters(kind="trace", case="*/random-*"))
        results = _run(misbehaving("no-rule-ids"), cases)
        assert {r.status for r in results} == {"passed"}


    def test_a_misreading_of_the_catalogue_explains_the_failure(self, monkeypatch: Any) -> None:
        """With a misreading in the game's catalogue, an engine that plays it is told so, and
        the misreading's rule is the broken rule."""
        import attrs

        from copa_ref.conformance import registry
        from tests.conformance.engines import MISREAD, WRONG

        game, misreading = MISREAD["copas-q-above-j"]
        record = registry.RECORDS[game]
        monkeypatch.setitem(registry.RECORDS, game,
                            attrs.evolve(record, catalogue=attrs.evolve(
                                record.catalogue, misreadings=(misreading,))))
        cases = select(load_corpus(), Filters(game=game, kind="trace"))
        failed = [r for r in _run(WRONG["copas-q-above-j"], cases) if r.status == "failed"]
        assert failed
        for result in failed:
            assert result.broken_rule == "COPAS-2"
            assert result.explanation == ("your engine plays as if copas-q-above-j: the Q ranks "
                                          "above the J [COPAS-2]")

class TestNothingAnEngineSendsStopsTheRun:
    @pytest.mark.parametrize(("how", "games", "statuses"), [
        ("options-not-a-list", ("kala",), {"errored"}),
        ("bad-seat-legal", ("da_capo",), {"failed"}),
        ("huge-integer", ("kala",), {"errored"}),
        ("many-legal", ("kala",), {"failed"}),
        ("plays-on", ("da_capo",), {"failed", "passed"}),
    ])
    def test_misshapen_answers_fail_or_error_each_case(
            self, how: str, games: tuple[str, ...], statuses: set[str]) -> None:
        """A handshake with "options": 5, a per-seat legal list holding a malformed bid, a
        huge integer in a report, five thousand legal actions, a match that plays on after
        its end: every case ends failed or errored with a reason (the runner never raises,
        and never reports its own exception), and the run completes."""
        cases = [c for c in load_corpus() if c["game"] in games]
        if how == "many-legal":
            cases = cases[::8]
        results = _run(misbehaving(how), cases)
        assert len(results) == len(cases)
        assert {r.status for r in results} <= statuses | {"passed"}
        assert statuses & {r.status for r in results}
        for result in results:
            assert "could not judge" not in (result.reason or ""), result
            assert result.status == "passed" or result.reason

    def test_da_capo_count_after_the_end(self) -> None:
        """The count that once crashed the runner (an engine reporting a joint node where
        the match has ended) is failed at its node, naming the rule that ends the match."""
        cases = select(load_corpus(), Filters(case="da_capo/count/low-reserves-2p-depth-2"))
        assert cases
        result = _run(misbehaving("plays-on"), cases)[0]
        assert result.status == "failed" and result.broken_rule == "DACAPO-16", result

    def test_a_count_past_its_request_budget_is_errored(self, monkeypatch: Any) -> None:
        """A count that needs more requests than the bound is errored, saying so."""
        from copa_ref.conformance import session as module

        monkeypatch.setattr(module, "MAX_REQUESTS", 50)
        cases = select(load_corpus(), Filters(case="kala/count/initial-depth-4"))
        result = _run(ReferenceEngine, cases)[0]
        assert result.status == "errored"
        assert "more than 50 requests" in (result.reason or "")


class TestPrefixes:
    def test_a_divergence_in_a_prefix_is_reported_at_its_step(self) -> None:
        """A rejection or count whose prefix the engine plays wrongly fails at the step
        where it differs, naming the rule, not one step later under the case's rule."""
        from tests.conformance.engines import WRONG

        cases = select(load_corpus(), Filters(game="kala"))
        cases = [c for c in cases if c["kind"] in ("rejection", "count") and c["prefix"]]
        results = _run(WRONG["kala-no-bean-into-opponent-cup"], cases)
        early = [r for r, c in zip(results, cases, strict=True)
                 if r.status == "failed" and r.step is not None and r.step < len(c["prefix"])]
        assert early
        assert {r.broken_rule for r in early} == {"KALA-9"}


class TestCommandLine:
    @pytest.mark.parametrize(("args", "message"), [
        (("--game", "dacapo"), "unknown game 'dacapo'"),
        (("--rule", UNKNOWN_RULE), f"KALA has rules KALA-1 to KALA-18, not {UNKNOWN_RULE}"),
        (("--case", "kala/nothing/*"), "no case selected"),
        (("--corpus", "/nonexistent"), "no conformance corpus at /nonexistent"),
        (("--engine", "/nonexistent-engine"), "did not start"),
    ])
    def test_fails_loudly(self, args: tuple[str, ...], message: str) -> None:
        """A typo or a missing corpus or engine is one clear message and exit status 2."""
        if "--engine" not in args:
            args = ("--engine", ENGINE, *args)
        done = cli("conformance", "run", *args)
        assert done.returncode == 2, done.stdout + done.stderr
        assert message in done.stderr
        assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1

    def test_a_misshapen_handshake_errors_every_case_and_the_run_completes(
            self, tmp_path: Path) -> None:
        """An engine whose handshake says "options": 5 gets every case errored with the
        reason, and the run ends with its summary and its report's footer (exit 1)."""
        report = tmp_path / "report.jsonl"
        engine = f"{sys.executable} {Path(__file__).parent / 'engines.py'} " \
                 "misbehaving-options-not-a-list"
        done = cli("conformance", "run", "--engine", engine, "--game", "da_capo",
                   "--report", str(report))
        assert done.returncode == 1, done.stdout + done.stderr
        lines = [json.loads(line) for line in report.read_text().splitlines()]
        assert lines[-1]["type"] == "footer" and lines[-1]["errored"] == lines[-1]["selected"]
        assert all("misshapen handshake" in line["reason"] for line in lines[1:-1])
        assert "errored" in done.stdout

    def test_failures_show_the_action_null_and_the_rules(self) -> None:
        """A failed rejection prints the refused action; JSON null prints as null; the
        summary groups the failures by rule."""
        from copa_ref.conformance.report import Tally, summary
        from copa_ref.conformance.runner import CaseResult

        tally = Tally(2, 2)
        tally.add(CaseResult(id="kala/rejection/x", game="kala", kind="rejection",
                             corpus_version="2.0.0", status="failed", rules=("KALA-3",),
                             step=0, reason="accepted …", broken_rule="KALA-3",
                             action={"type": "sow", "seat": 1, "path": None}))
        tally.add(CaseResult(id="kala/trace/y", game="kala", kind="trace",
                             corpus_version="2.0.0", status="failed", rules=("KALA-3",),
                             step=1, broken_rule="KALA-3"))
        out = io.StringIO()
        summary(tally, out)
        text = out.getvalue()
        assert 'action: {"path":null,"seat":1,"type":"sow"}' in text
        assert "None" not in text
        assert "failures by rule:" in text and "KALA-3          2" in text


class TestTheEnginesOwnRule:
    """A refusal under the engine's own reading of a rule names that rule; a refusal that
    is only an order of checks names the case's rule."""

    def _deck_engine(self) -> type:
        from copa_ref.conformance.kopa.rules import CATALOGUE
        from tests.conformance.engines import Misread

        wrong = CATALOGUE.mutant("thirteen-per-suit")
        return type("KopaThirteenPerSuit", (Misread,),
                    {"misreading": wrong, "game_name": "kopa", "label": wrong.slug})

    def test_a_deck_misread_is_named_by_the_deck_rule(self) -> None:
        """An engine whose Kopa deck stops at 13 refuses every real deal under KOPA-1: a
        refused legal deal and a bad deal refused under KOPA-1 (not the case's KOPA-17,
        since it refuses a legal deal under KOPA-1 too) both name KOPA-1."""
        cases = select(load_corpus(), Filters(game="kopa"))
        results = {r.id: r for r in _run(self._deck_engine(), cases)}
        order = results["kopa/rejection/KOPA-17/shortened-hands-n/two-player-draw-kept-ply-0"]
        assert order.status == "failed" and order.broken_rule == "KOPA-1", order
        assert "it also refuses the legal action" in (order.diff or "")
        failed = [r for r in results.values() if r.status == "failed"]
        assert failed and {r.broken_rule for r in failed} == {"KOPA-1"}

    def test_a_wrong_rule_on_a_refusal_alone_names_the_cases_rule(self) -> None:
        """An engine that plays the rules but names KOPA-1 for every refusal fails each
        rejection under the case's own rule: it refuses no legal action under KOPA-1."""
        from copa_ref.conformance.engine import ReferenceEngine

        class WrongName(ReferenceEngine):
            def apply(self, action: JSON) -> tuple[bool, str | None, str]:
                accepted, rule, message = super().apply(action)
                return accepted, (rule if accepted or rule is None else "KOPA-1"), message

        cases = [c for c in select(load_corpus(), Filters(game="kopa", kind="rejection"))
                 if c["rule"] not in ("KOPA-1", None)]  # None: a malformed action
        results = _run(WrongName, cases)
        assert {r.status for r in results} == {"failed"}  # after the end too: none errored
        rule_of = {c["id"]: c["rule"] for c in cases}
        assert all(r.broken_rule == rule_of[r.id] for r in results), results[:3]


# -- requests written ahead ------------------------------------------------------------------

PACED = '''
"""An engine that serves *NAME* (the reference, or a wrong engine of tests/conformance/
engines.py) at its own pace: "slow" sleeps before each answer; "greedy" reads every request
it can get (until none comes for a few milliseconds) before it answers any."""
import os, select, sys, time
sys.path.insert(0, {root!r})
from copa_ref.conformance.engine import ReferenceEngine, _encode
from copa_ref.core.codec import loads
from tests.conformance.engines import WRONG

mode, name = sys.argv[1], sys.argv[2]
engine = ReferenceEngine() if name == "reference" else WRONG[name]()

def answer(line):
    request = loads(line, what="request")
    reply = engine.respond(request) if isinstance(request, dict) else _encode(
        {{"ok": False, "error": "not an object"}})
    return reply + "\\n", isinstance(request, dict) and request.get("op") == "stop"

if mode == "slow":
    for line in sys.stdin.buffer:
        reply, stop = answer(line)
        time.sleep(0.0003)
        sys.stdout.write(reply)
        sys.stdout.flush()
        if stop:
            break
else:
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        while select.select([0], [], [], 0.003)[0]:
            more = os.read(0, 1 << 16)
            if not more:
                break
            pending += more
        *lines, pending = pending.split(b"\\n")
        replies = [answer(line) for line in lines if line.strip()]
        sys.stdout.write("".join(reply for reply, _ in replies))
        sys.stdout.flush()
        if any(stop for _, stop in replies):
            break
'''


def _results(runner: Runner, cases: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    """Every result's report line without its time, and the requests counted."""
    try:
        lines = [{k: v for k, v in r.as_json().items() if k != "seconds"}
                 for r in runner.run(cases)]
    finally:
        runner.close()
    return lines, runner.requests


class TestWrittenAhead:
    """Over a pipe the runner writes a step's requests (and the next steps') before it reads
    their answers: an engine that answers slowly, or reads everything it can before it
    answers, gets exactly the results, failure texts and request count of an engine asked
    one request at a time (in-process)."""

    @pytest.mark.parametrize("mode", ["slow", "greedy"])
    @pytest.mark.parametrize(("name", "game"), [("reference", "kala"),
                                                ("kala-sixth-bean-kept", "kala"),
                                                ("copas-q-above-j", "copas"),
                                                ("da-capo-tie-awards-top-bid", "da_capo")])
    def test_paced_engines_get_the_results_of_one_request_at_a_time(
            self, mode: str, name: str, game: str, tmp_path: Path) -> None:
        from tests.conformance.engines import WRONG

        script = tmp_path / "paced.py"
        script.write_text(PACED.format(root=str(Path(__file__).resolve().parents[2])))
        corpus = load_corpus()
        cases = select(corpus, Filters(game=game))
        if game == "copas":  # its long traces: the rejections and counts follow them
            cases = [c for c in cases if c["kind"] != "trace"][:12]
        engine = ReferenceEngine if name == "reference" else WRONG[name]
        alone, asked = _results(Runner(lambda: InProcessChannel(engine), corpus), cases)
        ahead, sent = _results(Runner(lambda: SubprocessChannel(
            [sys.executable, str(script), mode, name], timeout=20), corpus), cases)
        assert ahead == alone
        assert sent == asked
        if name != "reference":
            assert any(line["status"] == "failed" for line in ahead)

    def test_a_plan_left_by_a_failure_is_set_aside(self) -> None:
        """A case that fails mid-trace leaves the answers of the requests written ahead
        unread; they are read and set aside, and the next case is judged from its own
        answers (the wrong engine over a real pipe: failures, then passes, in order)."""
        from tests.conformance.engines import WRONG

        corpus = load_corpus()
        cases = select(corpus, Filters(game="kala", kind="trace"))
        alone, asked = _results(Runner(lambda: InProcessChannel(
            WRONG["kala-sixth-bean-kept"]), corpus), cases)
        command = f"{sys.executable} {Path(__file__).parent / 'engines.py'} " \
                  "kala-sixth-bean-kept"
        ahead, sent = _results(Runner(lambda: SubprocessChannel(command, timeout=20), corpus),
                               cases)
        assert ahead == alone and sent == asked
        statuses = [line["status"] for line in ahead]
        assert "failed" in statuses and "passed" in statuses


def test_ctrl_c_ends_the_run_with_its_summary_and_report(tmp_path: Path) -> None:
    """Ctrl-C during `conformance run` ends it with the summary of the cases judged so far,
    a complete report whose footer says it was interrupted (and validates), and exit
    status 130."""
    import signal
    import time

    script = tmp_path / "paced.py"
    script.write_text(PACED.format(root=str(Path(__file__).resolve().parents[2])))
    report = tmp_path / "report.jsonl"
    engine = f"{sys.executable} {script} slow reference"
    run = subprocess.Popen([sys.executable, "-m", "copa_ref.cli", "conformance", "run",
                            "--engine", engine, "--report", str(report)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not report.exists() or len(
            report.read_text().splitlines()) < 3):  # the header and a case or two
        time.sleep(0.1)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, out + err
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    check = validator("report")
    for line in lines:
        check.validate(line)
    footer, cases = lines[-1], lines[1:-1]
    assert footer["type"] == "footer" and footer["interrupted"] is True
    assert footer["run"] == len(cases) < footer["selected"]
    assert "Traceback" not in err
    assert f"{len(cases)} run" in out and "interrupted:" in out


class TestWrittenAheadLimits:
    def test_the_budget_runs_out_at_the_same_request(self, monkeypatch: Any) -> None:
        """With a budget smaller than some cases need, the cases over a pipe (requests
        written ahead) are errored exactly where one request at a time errors them, and the
        others pass: the same results and the same request count."""
        from copa_ref.conformance import session as module

        monkeypatch.setattr(module, "MAX_REQUESTS", 300)
        corpus = load_corpus()
        cases = select(corpus, Filters(kind="count")) + select(
            corpus, Filters(game="copas", kind="trace"))[:2]
        alone = _results(Runner(lambda: InProcessChannel(ReferenceEngine), corpus), cases)
        ahead = _results(Runner(lambda: SubprocessChannel(ENGINE, timeout=20), corpus), cases)
        assert ahead == alone
        statuses = {line["status"] for line in ahead[0]}
        assert statuses == {"errored", "passed"}

    def test_counts_without_undo_replay_the_same_over_a_pipe(self, tmp_path: Path) -> None:
        """An engine without undo over a pipe: every count replays its way back (requests
        written ahead) and gets the results of one request at a time."""

        class NoUndo(ReferenceEngine):
            def hello(self) -> dict[str, Any]:
                return {**super().hello(), "features": ["rule_ids"]}

        script = tmp_path / "no_undo.py"
        script.write_text(
            "import sys\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})\n"
            "from copa_ref.conformance.engine import ReferenceEngine, serve\n"
            "class NoUndo(ReferenceEngine):\n"
            "    def hello(self):\n"
            "        return {**super().hello(), 'features': ['rule_ids']}\n"
            "sys.exit(serve(NoUndo()))\n")
        corpus = load_corpus()
        cases = select(corpus, Filters(kind="count"))
        alone = _results(Runner(lambda: InProcessChannel(NoUndo), corpus), cases)
        ahead = _results(Runner(lambda: SubprocessChannel([sys.executable, str(script)],
                                                          timeout=20), corpus), cases)
        assert ahead == alone
        assert {line["status"] for line in ahead[0]} == {"passed"}


def test_a_channel_that_asks_one_request_at_a_time_answers_sends_in_order() -> None:
    """A channel that is not pipelined (the in-process one) takes ``send`` too: each request
    is asked when its answer is received, oldest first; an answer with nothing sent is an
    engine failure, not a crash."""
    from copa_ref.conformance.channel import EngineFailure

    channel = InProcessChannel(ReferenceEngine)
    assert not channel.pipelined
    from copa_ref.games import GAMES

    config = GAMES["kala"].to_json(GAMES["kala"].default_config())
    assert channel.request({"op": "start", "protocol": "1.0"})["ok"]
    channel.send([{"op": "new_game", "game": "kala", "config": config},
                  {"op": "legal", "seat": None}, {"op": "observe"}])
    started, legal, view = (channel.receive() for _ in range(3))
    assert started == {"ok": True}
    assert legal is not None and legal["ok"] and legal["actions"]
    assert view is not None and view["ok"] and "public" in view
    with pytest.raises(EngineFailure):
        channel.receive()
    channel.close()
