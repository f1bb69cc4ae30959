"""The rule entries (``copa_ref/conformance/<game>/rules.py``) and the tables built from
them (``copa_ref/conformance/tables.py``)."""

from __future__ import annotations

import importlib

import pytest

from copa_ref.conformance.entries import Misread, Option, RuleEntry, ViewPart, view_parts
from copa_ref.conformance.registry import RECORDS
from copa_ref.conformance.tables import misreadings, readings, view_rules
from tests.conformance.test_kill_matrix import spec_rules


class TestPlaces:
    def test_a_table_is_sorted_by_place(self) -> None:
        """Items of several entries come out in the order of their places, not of the
        entries."""
        entries = (RuleEntry("X-1", views=(ViewPart(at=2, part="public", says="a"),)),
                   RuleEntry("X-2", views=(ViewPart(at=1, part="legal", says="b"),)))
        assert [(v.rule, v.part) for v in view_rules(entries)] == [
            ("X-2", "legal"), ("X-1", "public")]

    def test_several_parts_with_one_saying(self) -> None:
        """``view_parts`` gives a view part for each part, at its place, with the one saying
        and condition."""
        def when(step: object) -> bool:
            return True

        assert view_parts({"public.turn": 2, "to_move": 5}, says="s", when=when) == (
            ViewPart(at=2, part="public.turn", says="s", when=when),
            ViewPart(at=5, part="to_move", says="s", when=when))

    @pytest.mark.parametrize("places", [(1, 3), (1, 1), (0, 1), (2,)])
    def test_places_must_run_from_one_without_gaps(self, places: tuple[int, ...]) -> None:
        """A gap, a repeat or a place before 1 is refused where the table is built."""
        entry = RuleEntry("X-1", options=tuple(Option(at=at, option=f"o{at}", question="Q")
                                               for at in places))
        with pytest.raises(ValueError, match="places of the readings"):
            readings((entry,))

    def test_a_misreading_in_several_lists(self) -> None:
        """One wrong reading with places in two lists is in both, with the entry's rule."""
        entry = RuleEntry("X-1", misread=(Misread(slug="s", description="d", replacements={},
                                                  explains=1, mutant=1),))
        assert [m.rule for m in misreadings((entry,), "mutant")] == ["X-1"]
        assert misreadings((entry,), "explains") == misreadings((entry,), "mutant")
        assert misreadings((entry,), "pictured") == ()


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_one_entry_a_rule_in_the_specs_order(game: str) -> None:
    """Every game's entries (``copa_ref/conformance/<game>/rules.py``) are its spec's
    rules, each once, in the spec's order (protocol rules its checks name after them); the
    record's tables are the ones built from them."""
    module = importlib.import_module(f"copa_ref.conformance.{game}.rules")
    named = [e.rule for e in module.RULES]
    rules = spec_rules(game)
    assert [r for r in named if r in rules] == [r for r in rules if r in named]
    assert all(r.startswith("P-") for r in named if r not in rules)
    assert len(set(named)) == len(named)
    record = RECORDS[game]
    assert record.rules is module.RULES
    assert record.view_rules == module.VIEW_RULES
    assert record.readings == module.READINGS
    assert record.catalogue is module.CATALOGUE
    assert record.diagnose is module.diagnose
