"""The RONDA picture: what the observation holds and nothing more (RONDA-14); the generic
checks of every game's picture are in ``tests/test_svg.py``."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import attrs

from copa_ref.ronda import GAME, new_game
from copa_ref.ronda.svg import svg
from tests.ronda.helpers import arranged, play

NS = "{http://www.w3.org/2000/svg}"


class TestPicture:
    def test_lifted_and_shown(self) -> None:
        """RONDA-14: a lifted cup shows its beans; a mismatched cup its count, once covered."""
        state = play(arranged(), "lift:4")
        desc = ET.fromstring(svg(state))[1].text or ""
        assert "place 4 shows 2" in desc
        after = play(arranged(), "lift:0 lift:1")
        texts = [t.text for t in ET.fromstring(svg(after, 1)).iter(f"{NS}text")]
        assert "was 0" in texts and texts.count("?") == 10
        assert ET.fromstring(svg(new_game())) is not None
        assert GAME.svg is svg

    def test_covered_cups_never_show(self) -> None:
        """RONDA-14: two positions differing only under covered cups draw the same picture,
        for the public view and for every seat."""
        state = play(arranged(), "lift:4")
        cups = list(state.cups)
        cups[0], cups[3] = cups[3], cups[0]
        other = attrs.evolve(state, cups=tuple(cups))
        for seat in (None, 0, 1):
            assert svg(state, seat) == svg(other, seat)
