"""Misreadings the rule book uses to find the step where a rule fires in a corpus case.

A rule fires at the first step where a reference that misreads it reports differently
(:func:`copa_ref.conformance.viewer.rule_step`). The rule book takes its misreadings from
each game's catalogue (``copa_ref.<game>.misreadings``) and the kill-matrix mutants
(``tests.<game>.mutants``); these few cover the rules it pictures that neither names yet.
"""

from __future__ import annotations

from copa_ref.core import Misreading

__all__ = ["FIRING"]


def _sow_beneath(field, cups, cup_beans, seat, path):  # type: ignore[no-untyped-def]
    """KALA-9 misread: a bean sown on the opponent's cup falls into the field cup beneath."""
    cells = list(field)
    beans = [cup_beans[0], cup_beans[1]]
    beans[seat] += 1
    for row, col in path[1:]:
        cells[4 * row + col] += 1
    return tuple(cells), (beans[0], beans[1])


def _no_cascade(bids, tie_resolution):  # type: ignore[no-untyped-def]
    """DACAPO-11 misread: a tied top cancels and nobody advances."""
    top = max(b for b in bids if b is not None)
    return bids.index(top) if bids.count(top) == 1 else None


def _any_suit_wins(trick, plain):  # type: ignore[no-untyped-def]
    """COPAS-13 misread: the highest card of any suit takes the trick."""
    values = [c.plain if plain else c.rank for c in trick]
    return values.index(max(values))


def _ten_booked(copas, taker, pending, *readings):  # type: ignore[no-untyped-def]
    """COPAS-17 misread: all ten copas are booked like any others; no bonus round."""
    return tuple(copas), None


FIRING: dict[str, tuple[Misreading, ...]] = {
    "kala": (
        Misreading(rule="KALA-9", slug="bean-beneath-opponent-cup",
                   description="a bean on the opponent's cup goes into the field cup beneath",
                   replacements={"sow_beans": _sow_beneath}),
        Misreading(rule="KALA-14", slug="no-sixth-bean",
                   description="the bonus sows every bean in the cup, however many",
                   replacements={"bonus_length": lambda state: state.cup_beans[state.turn]}),
        Misreading(rule="KALA-15", slug="harvest-keeps-the-bank-bean",
                   description="a harvest puts every bean into the store, none into the bank",
                   replacements={"harvest_split": lambda beans: (0, beans)}),
    ),
    "da_capo": (
        Misreading(rule="DACAPO-11", slug="no-cascade",
                   description="a tied top bid means nobody advances",
                   replacements={"round_winner": _no_cascade}),
        Misreading(rule="DACAPO-14", slug="no-last-player-step",
                   description="the last player with beans keeps them",
                   replacements={"last_player_step": lambda table, seat: table}),
    ),
    "copas": (
        Misreading(rule="COPAS-2", slug="plain-order",
                   description="the plain order (Q above J, 7 below J)",
                   replacements={"strength": lambda card, plain: card.plain}),
        Misreading(rule="COPAS-13", slug="any-suit-wins",
                   description="the highest card of any suit takes the trick",
                   replacements={"trick_winner": _any_suit_wins}),
        Misreading(rule="COPAS-17", slug="ten-booked",
                   description="all ten copas are booked at once, with no bonus round",
                   replacements={"round_points": _ten_booked}),
        Misreading(rule="COPAS-19", slug="no-all-cards-rule",
                   description="taking every trick is no special case",
                   replacements={"_all_cards_taker": lambda hands, tricks: None}),
    ),
    "kopa": (
        Misreading(rule="KOPA-13", slug="eight-never-laid",
                   description="an 8 is never laid: a suit's 7 and 9 stay open",
                   replacements={"eight_ready": lambda up, down: False}),
    ),
}
"""Per game name, the misreadings of the rules the rule book pictures."""
