"""The runner against the reference engine: over the real subprocess protocol (100 % of the
corpus), in-process, with filters, skips, reports and the message schemas."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema

from copa_ref.conformance.channel import InProcessChannel, SubprocessChannel
from copa_ref.conformance.engine import ReferenceEngine
from copa_ref.conformance.observables import CORPUS_DIR
from copa_ref.conformance.runner import Filters, Runner, load_corpus, select
from copa_ref.games import GAMES

ENGINE = f"{sys.executable} -m copa_ref.cli engine"
SCHEMAS = CORPUS_DIR / "schema"


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
