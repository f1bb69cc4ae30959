"""The speed layer (copa_ref.kopa.fast) equals the plain rule functions it is installed over,
at every step of random matches."""

from __future__ import annotations

import random

import pytest

from copa_ref.core.loop import steps, uniform
from copa_ref.kopa import GAME, Config, fast, rules

CONFIGS = (Config(players=2), Config(players=3), Config(players=5, target=30))


def test_the_layer_is_installed() -> None:
    """The rules module calls the table-reading functions; the plain ones are kept."""
    assert rules.wanted is fast.wanted and rules.legal_cards is fast.legal_cards
    assert rules._place is fast.place
    assert fast.PLAIN["wanted"] is not fast.wanted


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.players}p")
def test_equal_to_the_plain_functions_at_every_step(config: Config) -> None:
    """wanted, legal_cards (every seat's hand) and the place of every card that is no 8 on
    every table of random matches: the same answers, in the same order."""
    wanted, legal_cards, place = (fast.PLAIN[n] for n in ("wanted", "legal_cards", "_place"))
    rng = random.Random(7)
    tables = 0
    for _ in range(3):
        for step in steps(GAME, uniform, rng, config=config, max_steps=3000):
            state = step.after
            piles, eights = state.piles, state.eights
            assert fast.wanted(piles, eights) == wanted(piles, eights)
            for hand in state.hands:
                assert fast.legal_cards(hand, piles, eights) == legal_cards(hand, piles, eights)
            for card in rules.DECK:
                if card.number != 8:
                    assert fast.place(card, piles) == place(card, piles)
            tables += 1
    assert tables > 1000


def test_the_same_matches_without_the_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Random matches played with the plain functions are the matches played with the
    layer, step for step."""
    def play() -> list[object]:
        return [(s.action, s.after) for s in
                steps(GAME, uniform, random.Random(3), config=Config(players=2),
                      max_steps=2000)]

    fast_play = play()
    for name, function in fast.PLAIN.items():
        monkeypatch.setattr(rules, name, function)
    assert play() == fast_play
