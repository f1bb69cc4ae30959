"""The SVG picture of a HOPPER position: well-formed, deterministic, titled and described in
words, readable in both themes, the same for every seat (HOPPER-18)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from copa_ref.hopper import GAME, Config, Ending
from copa_ref.hopper.svg import describe, svg
from tests.support import play_random

NS = "{http://www.w3.org/2000/svg}"


class TestSvg:
    def test_every_position_of_a_game(self) -> None:
        """HOPPER-18: every position draws, with a title and a description in words; every
        seat sees the same picture."""
        for state, _ in play_random(GAME, Config(players=3, ending=Ending.END_2),
                                    random.Random(4), check=False)[::7]:
            text = svg(state)
            root = ET.fromstring(text)
            assert root.find(f"{NS}title") is not None
            desc = root.find(f"{NS}desc")
            assert desc is not None and desc.text == describe(state)
            assert "prefers-color-scheme: dark" in text
            assert svg(state) == text
            assert ET.fromstring(svg(state, 1))[1].text == desc.text
            cups = [c for c in root.iter(f"{NS}circle")
                    if c.get("class") in ("copa-cup", "copa-dark")]
            assert len(cups) == len(state.tray)

    def test_words(self) -> None:
        """HOPPER-2, HOPPER-4: the description names the cups, the beans and who shoots."""
        text = describe(GAME.new_game(Config()))
        assert "cup 0 0" in text and "Seat 0 holds 40 beans" in text
        assert "seat 0 to shoot" in text
