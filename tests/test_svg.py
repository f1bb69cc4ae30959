"""The pictures every game draws (``Game.svg``): deterministic, well-formed SVG with its
accessible text, readable in both themes, and a seat's view showing only what it may see."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest

from copa_ref.copas import GAME as COPAS
from copa_ref.copas.state import Phase
from copa_ref.core import MoverKind
from copa_ref.games import GAMES
from tests.support import play_random

NS = "{http://www.w3.org/2000/svg}"
DRAWN = sorted(name for name, game in GAMES.items() if game.svg is not None)


def _positions(name: str, seeds: int = 3) -> list[Any]:
    game = GAMES[name]
    states = []
    for seed in range(seeds):
        config = game.default_config()
        states += [state for state, _ in play_random(game, config, random.Random(seed),
                                                     check=False)]
    return states


def _seats(game: Any, state: Any) -> list[int | None]:
    return [None, *range(game.num_players(state.config))]


@pytest.mark.parametrize("name", DRAWN)
class TestPicture:
    def test_well_formed_with_accessible_text(self, name: str) -> None:
        """Every picture parses as SVG and opens with a non-empty ``<title>`` and ``<desc>``,
        and carries the light and the dark palette."""
        game = GAMES[name]
        assert game.svg is not None
        for state in _positions(name, seeds=1)[::7]:
            for seat in _seats(game, state):
                root = ET.fromstring(game.svg(state, seat))
                assert root.tag == f"{NS}svg" and root.get("role") == "img"
                title, desc = root[0], root[1]
                assert title.tag == f"{NS}title" and (title.text or "").strip()
                assert desc.tag == f"{NS}desc" and len(desc.text or "") > 40
                style = root.find(f"{NS}style")
                assert style is not None and "prefers-color-scheme: dark" in (style.text or "")
                assert "data-theme='dark'" in (style.text or "")

    def test_deterministic(self, name: str) -> None:
        """The same position gives the same text, also after a JSON round trip."""
        game = GAMES[name]
        assert game.svg is not None
        for state in _positions(name, seeds=1)[::11]:
            again = game.state_from_json(game.to_json(state))
            for seat in _seats(game, state):
                assert game.svg(state, seat) == game.svg(again, seat)

    def test_desc_follows_the_position(self, name: str) -> None:
        """The words describe the position: different positions, different descriptions."""
        game = GAMES[name]
        assert game.svg is not None
        states = _positions(name, seeds=1)[:40]
        descs = {ET.fromstring(game.svg(s, None))[1].text for s in states}
        publics = {game.dumps(game.observe(s, None)) for s in states}
        assert len(descs) == len(publics)

    def test_no_colour_outside_the_style(self, name: str) -> None:
        """Shapes carry classes, never colours, so both themes apply to everything."""
        game = GAMES[name]
        assert game.svg is not None
        root = ET.fromstring(game.svg(_positions(name, seeds=1)[-1], None))
        for element in root.iter():
            assert "fill" not in element.attrib and "stroke" not in element.attrib
            if element.tag not in (f"{NS}svg", f"{NS}title", f"{NS}desc", f"{NS}style"):
                assert element.get("class", "").startswith("copa-")


def _swap_hidden(state: Any, keep: int, rng: random.Random) -> Any:
    """*state* with the cards of every seat but *keep* dealt among them anew (same sizes)."""
    others = [s for s in range(len(state.hands)) if s != keep]
    pool = [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    for s in others:
        size = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:size], key=lambda c: c.value)), pool[size:]
    return attrs.evolve(state, hands=tuple(hands))


class TestCopasView:
    def test_a_seat_sees_its_hand_and_nothing_else_hidden(self) -> None:
        """P-6: re-dealing the other seats' hidden cards changes neither the public
        picture nor seat *s*'s picture; the seat's own hand is in its picture."""
        assert COPAS.svg is not None
        rng = random.Random(0)
        checked = 0
        for state in _positions("copas", seeds=1)[::5]:
            if state.phase is not Phase.PLAY:
                continue
            for seat in range(state.config.players):
                other = _swap_hidden(state, seat, rng)
                if not COPAS.well_formed(other):
                    continue  # a re-deal that breaks a rule already played (COPAS-11)
                assert COPAS.svg(state, seat) == COPAS.svg(other, seat)
                assert COPAS.svg(state, None) == COPAS.svg(other, None)
                desc = ET.fromstring(COPAS.svg(state, seat))[1].text or ""
                assert " ".join(c.value for c in state.hands[seat]) in desc
                checked += 1
        assert checked > 20

    def test_the_public_view_shows_no_hand(self) -> None:
        """The spectator's picture names no card still in a hand."""
        assert COPAS.svg is not None
        for state in _positions("copas", seeds=1)[1:60:3]:
            if COPAS.to_move(state).kind is not MoverKind.SEAT:
                continue
            root = ET.fromstring(COPAS.svg(state, None))
            words = " ".join(t for t in root.itertext())
            for hand in state.hands:
                for card in hand:
                    assert card.value not in words.split()
