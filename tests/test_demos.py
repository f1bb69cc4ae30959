"""The demos a newcomer can follow without the spec: a legend under the first picture, a
line in plain words for each rule that fires, the result with its reason; seeded, so the
same command always prints the same text (one demo's text is pinned)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copa_ref.cli import demo_lines, main
from copa_ref.games import get_game

DATA = Path(__file__).resolve().parent / "data"

EXPLAINED = ("copas", "da_capo", "kala")
"""The games whose demos tell every rule in plain words."""


@pytest.mark.parametrize("name", EXPLAINED)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_legend_rules_and_result(name: str, seed: int) -> None:
    """A legend comes early; rule IDs of the game name what fired; the last line is the
    result with the rule that decided it."""
    game = get_game(name)
    lines = demo_lines(game, seed)
    assert any("Legend:" in line for line in lines[:15])
    fired = {m for line in lines for m in re.findall(rf"\b{game.prefix}-\d+\b", line)}
    assert len(fired) >= 4
    assert lines[-1].startswith("result: ")
    assert re.search(rf"\({game.prefix}-\d+\)\.$", lines[-1])


def test_pinned_text(capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref demo da_capo --seed 1 --players 3`` prints exactly the pinned text
    (regenerate ``tests/data/`` with that command when the demo changes on purpose)."""
    assert main(["demo", "da_capo", "--seed", "1", "--players", "3"]) == 0
    expected = (DATA / "demo-da_capo-seed-1-players-3.txt").read_text()
    assert capsys.readouterr().out == expected


def test_da_capo_bids_once() -> None:
    """DA CAPO prints each round's bids once, and says why the winner advanced."""
    lines = demo_lines(get_game("da_capo"), 4)
    rounds = [line for line in lines if line.startswith("Round ")]
    assert rounds and all("bids" in line for line in rounds)
    assert not any("last round:" in line for line in lines)
    assert sum(line.strip().startswith("why: ") for line in lines) == len(rounds)


def test_kala_harvest_in_plain_words() -> None:
    """KALA tells a harvest with its split: one bean to the bank, the rest to the store."""
    text = "\n".join(demo_lines(get_game("kala"), 1))
    assert re.search(r"harvest: the cup on \d,\d held (\d+) → 1 to the bank, \d+ to [AB]'s "
                     r"store \(KALA-15\)", text)
