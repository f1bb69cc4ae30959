"""The pictures of the RONDA rule page are drawn from corpus cases and kept fresh.

``python -m tests.ronda.test_docs`` rewrites them (``docs/rules/ronda/*.svg``); the test
fails when a picture differs from what the corpus case and ``copa_ref.ronda.svg`` draw now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from copa_ref.ronda import GAME, State
from copa_ref.ronda.svg import svg

ROOT = Path(__file__).resolve().parents[2]
PICTURES = ROOT / "docs" / "rules" / "ronda"
TRACES = ROOT / "conformance" / "cases" / "ronda" / "traces.json"

# picture name -> (corpus case ID, actions replayed from the end: 0 = the last position)
DRAWN = {
    "two-fives-before": ("ronda/trace/two-fives-black-cup-empty", 1),
    "two-fives-after": ("ronda/trace/two-fives-black-cup-empty", 0),
    "penalty-bean": ("ronda/trace/penalty-bean", 0),
}


def position(case_id: str, back: int) -> State:
    """The reference position of a corpus trace, *back* actions before its end."""
    case = next(c for c in json.loads(TRACES.read_text())["cases"] if c["id"] == case_id)
    state = GAME.new_game(GAME.config_from_json(case["config"]))
    steps = case["steps"][:len(case["steps"]) - back]
    for step in steps:
        state = GAME.apply(state, GAME.action_from_json(step["action"]))
    return state


def pictures() -> dict[str, str]:
    """Every picture's SVG text, seen by the seat to move (no covered count shows)."""
    drawn = {}
    for name, (case_id, back) in DRAWN.items():
        state = position(case_id, back)
        drawn[name] = svg(state, state.turn) + "\n"
    return drawn


@pytest.mark.parametrize("name", sorted(DRAWN))
def test_picture_is_fresh(name: str) -> None:
    """RONDA-10, RONDA-11: the rule page's pictures are the corpus positions as drawn now."""
    assert (PICTURES / f"{name}.svg").read_text() == pictures()[name]


if __name__ == "__main__":
    PICTURES.mkdir(parents=True, exist_ok=True)
    for picture, text in pictures().items():
        (PICTURES / f"{picture}.svg").write_text(text)
