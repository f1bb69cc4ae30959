"""The SVG picture of a Kopa position: well formed, deterministic, themed, and a seat's view
shows only what that seat may see."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from copa_ref.kopa.svg import svg
from tests.kopa.helpers import dealt, play_script, two

NS = "{http://www.w3.org/2000/svg}"
EIGHT = "S1 S15 O1 S2 S14 O2 S3 S13 O3 S4 S12 O4 S5 S11 O5 S6 S10 O6 S7 S9 S8"


class TestSvg:
    def test_well_formed_with_title_and_description(self) -> None:
        """KOPA-14: the table in the text's arrangement, with a title and a description."""
        state = play_script(dealt(), EIGHT)
        root = ET.fromstring(svg(state))
        assert root.find(f"{NS}title") is not None
        desc = root.find(f"{NS}desc")
        assert desc is not None and desc.text is not None
        assert "Sable: up to 7, down to 9, complete with its 8." in desc.text
        assert "prefers-color-scheme: dark" in svg(state)
        assert svg(state) == svg(state)

    def test_a_seat_sees_only_its_own_hand(self) -> None:
        """KOPA-7: the seat's view lists its hand; no view names another hand or the stock."""
        state = play_script(two(), "S1")

        def words(seat: int | None) -> list[str]:
            desc = ET.fromstring(svg(state, seat)).find(f"{NS}desc")
            assert desc is not None and desc.text is not None
            return desc.text.replace(".", " ").split()

        public, mine = words(None), words(1)
        for card in state.hands[1]:
            assert card.value in mine and card.value not in public
        for card in (*state.hands[0], *state.stock):
            assert card.value not in mine
