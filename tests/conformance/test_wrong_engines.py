"""The corpus catches wrong engines: each changes one rule, and the runner fails it and
names a relevant rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Filters, load_corpus, select
from copa_ref.conformance.runner import Runner
from copa_ref.games import GAMES
from tests.conformance.engines import MISREAD, WRONG

HERE = Path(__file__).resolve().parent

# engine -> (game, the rules a failure may name)
TARGETS = {
    "kala-90-degrees-per-turn": ("kala", {"KALA-7"}),
    "kala-no-bean-into-opponent-cup": ("kala", {"KALA-9"}),
    "kala-sixth-bean-kept": ("kala", {"KALA-14"}),
    "da-capo-tie-awards-top-bid": ("da_capo", {"DACAPO-11"}),
    "copas-q-j-swapped": ("copas", {"COPAS-2"}),
    "copas-revoke-allowed": ("copas", {"COPAS-11"}),
}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_wrong_engine_fails_naming_its_rule(name: str) -> None:
    """A deliberately wrong engine (in-process) fails some cases of its game, and a failing
    case names the rule it breaks as its broken rule (a case that merely covers the rule
    does not count)."""
    game, rules = TARGETS[name]
    if game not in GAMES:
        pytest.skip(f"{game} is not registered")
    cases = select(load_corpus(), Filters(game=game))
    runner = Runner(lambda: InProcessChannel(WRONG[name]))
    results = list(runner.run(cases))
    runner.close()
    failed = [r for r in results if r.status == "failed"]
    assert failed, f"{name}: the corpus caught nothing"
    named = {r.broken_rule for r in failed}
    assert named & rules, f"{name}: failures name {sorted(n for n in named if n)}"
    assert sum(r.status == "passed" for r in results) > 0, "everything failed: not one rule"


@pytest.mark.parametrize("name", sorted(MISREAD))
def test_misread_engine_is_named_by_its_rule(name: str) -> None:
    """An engine misreading one rule (the behaviours engine authors got wrong: the Q above
    the J, a hand ended early, no all-tricks rule, the match ended at 30, every burst seat a
    loser, a discard taking the trick, a bonus at more than 4 beans, two beans to the bank,
    bids above the reserve listed, the last-player step's box) fails, and every failing case
    names the misread rule as the broken rule, derived from what the engine reported."""
    game, misreading = MISREAD[name]
    cases = load_corpus()
    runner = Runner(lambda: InProcessChannel(WRONG[name]), cases)
    results = list(runner.run(select(cases, Filters(game=game))))
    runner.close()
    failed = [r for r in results if r.status != "passed"]
    assert failed, f"{name}: the corpus caught nothing"
    wrong = {r.id: r.broken_rule for r in failed if r.broken_rule != misreading.rule}
    assert not wrong, f"{name}: named other rules first: {wrong}"


@pytest.mark.parametrize(("name", "section"), [("kala-phase-named-bonus", "P-11"),
                                              ("kala-phase-named-bonus-sowing", "P-8")])
def test_a_wrong_phase_name_is_an_encoding_error(name: str, section: str) -> None:
    """An engine that names the bonus sowing's phase "bonus" (KALA's other phase) is told
    the encoding of P-11, one that names it "bonus_sowing" (no phase at all) that its view
    is not canonical JSON (P-8); never "a new turn for the same player" (KALA-3)."""
    cases = load_corpus()
    runner = Runner(lambda: InProcessChannel(WRONG[name]), cases)
    results = list(runner.run(select(cases, Filters(game="kala"))))
    runner.close()
    failed = [r for r in results if r.status != "passed"]
    assert failed
    assert {r.broken_rule for r in failed} == {section}


def test_wrong_engine_over_subprocess(tmp_path: Path) -> None:
    """The sixth-bean engine as a real command: the CLI exits 1, the report names KALA-14
    as the broken rule, and --failures-only prints only failures and the totals."""
    report = tmp_path / "report.jsonl"
    command = f"{sys.executable} {HERE / 'engines.py'} kala-sixth-bean-kept"
    done = subprocess.run(
        [sys.executable, "-m", "copa_ref.cli", "conformance", "run", "--engine", command,
         "--game", "kala", "--report", str(report), "--failures-only"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    failed = [line for line in lines if line.get("status") == "failed"]
    assert failed and "KALA-14" in {line["broken_rule"] for line in failed}
    assert "PASSED" not in done.stdout and "FAILED kala/" in done.stdout
    assert "broken rule: KALA-14" in done.stdout
    assert "loaded" in done.stdout and "skipped" in done.stdout
