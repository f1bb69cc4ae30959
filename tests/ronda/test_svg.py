"""The RONDA picture: well-formed SVG with a title and a description, deterministic, readable
in both themes, and a seat's view never shows a covered cup (RONDA-14)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from copa_ref.ronda import new_game
from copa_ref.ronda.svg import svg
from tests.ronda.helpers import arranged, play

NS = "{http://www.w3.org/2000/svg}"


class TestPicture:
    def test_shape(self) -> None:
        """RONDA-14: title, description, a dark-theme query; the same text twice."""
        state = play(arranged(), "lift:4")
        text = svg(state)
        root = ET.fromstring(text)
        assert root.find(f"{NS}title") is not None
        desc = root.find(f"{NS}desc")
        assert desc is not None and "place 4 shows 2" in (desc.text or "")
        assert "prefers-color-scheme: dark" in text
        assert text == svg(state)
        assert ET.fromstring(svg(new_game())) is not None

    def test_seat_view_hides_covered_cups(self) -> None:
        """RONDA-14: with a seat, covered cups are '?', and the description holds no hidden
        count; the whole position shows them."""
        state = play(arranged(), "lift:4")
        seat_view = ET.fromstring(svg(state, 0))
        texts = [t.text for t in seat_view.iter(f"{NS}text")]
        assert texts.count("?") == 9 and "(3)" not in texts
        assert "Hidden" not in (seat_view.find(f"{NS}desc").text or "")  # type: ignore[union-attr]
        whole = [t.text for t in ET.fromstring(svg(state)).iter(f"{NS}text")]
        assert "(3)" in whole and "?" not in whole
