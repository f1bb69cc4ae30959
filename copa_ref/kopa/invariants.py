"""Kopa step invariants, each named after the rule it guards.

Each is ``(before, action, after) -> None`` and raises
:class:`~copa_ref.core.errors.InvariantViolation` naming its rule when an implementation (ours,
or a foreign engine's reported states) breaks it. They recompute what they check from the
transition itself, independently of :mod:`copa_ref.kopa.rules`.
"""

from __future__ import annotations

from collections.abc import Callable

from copa_ref.core import require
from copa_ref.kopa.state import Action, Card, Deal, Pass, Phase, Play, State

__all__ = [
    "STEP_INVARIANTS",
    "inv_card_conservation",
    "inv_card_on_its_pile",
    "inv_draw",
    "inv_eights",
    "inv_first_player",
    "inv_match_end",
    "inv_next_round",
    "inv_no_skipping",
    "inv_own_hand",
    "inv_penalties",
    "inv_piles_are_runs",
    "inv_round_end",
    "inv_scores",
    "inv_turn_order",
]

_ROWS = "SVGO"


def _code(row: int, number: int) -> str:
    return f"{_ROWS[row]}{number}"


def _everything(state: State) -> list[Card]:
    cards = [c for h in state.hands for c in h] + list(state.stock)
    return cards + [c for p in state.piles for c in p] + list(state.eights)


def _fresh(state: State) -> bool:
    return state.phase is Phase.DEAL and not _everything(state)


def _round_ended(before: State, after: State) -> bool:
    playing = (Phase.PLAY, Phase.DRAWN)
    return before.phase in playing and after.phase not in playing


def _playable(state: State) -> set[str]:
    """The codes of every card the table takes in *state*, recomputed from the piles."""
    take: set[str] = set()
    for row in range(4):
        up, down = state.piles[2 * row], state.piles[2 * row + 1]
        top_up = int(up[-1].value[1:]) if up else 0
        top_down = int(down[-1].value[1:]) if down else 16
        if top_up < 7:
            take.add(_code(row, top_up + 1))
        if top_down > 9:
            take.add(_code(row, top_down - 1))
        if top_up == 7 and top_down == 9 and all(e.value != _code(row, 8) for e in state.eights):
            take.add(_code(row, 8))
    return take


def _could_play(state: State, seat: int) -> bool:
    take = _playable(state)
    return any(c.value in take for c in state.hands[seat])


def inv_card_conservation(before: State, action: Action, after: State) -> None:
    """KOPA-1: every card of the deck exactly once: hands, stock, piles and the 8s laid."""
    if _fresh(after):
        return
    cards = [c.value for c in _everything(after)]
    require(len(cards) == len(set(cards)), "KOPA-1", "a card is in two places")
    require(len(cards) == 60, "KOPA-1", f"{len(cards)} cards in play, not 60")


def inv_first_player(before: State, action: Action, after: State) -> None:
    """KOPA-5: after a deal the dealer's left acts; KOPA-4/KOPA-17: the hands are even."""
    if isinstance(action, Deal):
        n = after.config.players
        require(after.turn == (after.dealer + 1) % n, "KOPA-5", "the dealer's left begins")
        size = 20 if n == 2 else 60 // n
        rule = "KOPA-17" if n == 2 else "KOPA-4"
        require(all(len(h) == size for h in after.hands), rule, "uneven hands after the deal")
        require(len(after.stock) == (20 if n == 2 else 0), "KOPA-17", "wrong stock size")


def inv_turn_order(before: State, action: Action, after: State) -> None:
    """KOPA-6: the seat that acted was the seat to act; then its left neighbour acts."""
    if not isinstance(action, Play | Pass):
        return
    n = before.config.players
    require(action.seat == before.turn, "KOPA-6", f"seat {action.seat} acted out of turn")
    if after.phase is Phase.PLAY:
        require(after.turn == (action.seat + 1) % n, "KOPA-6", "the turn did not pass clockwise")


def inv_own_hand(before: State, action: Action, after: State) -> None:
    """KOPA-7: the card played was in the seat's hand and has left it."""
    if isinstance(action, Play):
        seat = action.seat
        require(action.card in before.hands[seat], "KOPA-7", f"{action.card} was not held")
        require(action.card not in after.hands[seat], "KOPA-7", f"{action.card} is still held")
        require(len(after.hands[seat]) == len(before.hands[seat]) - 1, "KOPA-7",
                "the hand did not lose exactly one card")


def inv_piles_are_runs(before: State, action: Action, after: State) -> None:
    """KOPA-9/KOPA-10: each up-pile is 1, 2, … and each down-pile 15, 14, … of its suit (a
    pile starts with its 1 or 15, KOPA-8)."""
    for i, pile in enumerate(after.piles):
        row, down = divmod(i, 2)
        for k, card in enumerate(pile):
            number = 15 - k if down else 1 + k
            rule = "KOPA-8" if k == 0 else ("KOPA-10" if down else "KOPA-9")
            require(card.value == _code(row, number), rule,
                    f"pile {i} holds {card} where {_code(row, number)} belongs")
        require(len(pile) <= 7, "KOPA-9", f"pile {i} runs past its 7 or 9")


def inv_card_on_its_pile(before: State, action: Action, after: State) -> None:
    """KOPA-11: a card played lies on its own suit's pile; no other pile changed."""
    if not isinstance(action, Play) or action.card.value[1:] == "8":
        return
    code = action.card.value
    row = _ROWS.index(code[0])
    place = 2 * row + (int(code[1:]) > 8)
    for i in range(8):
        if i == place:
            require(after.piles[i][-1:] == (action.card,), "KOPA-11",
                    f"{code} is not on its own suit's pile")
        else:
            require(after.piles[i] == before.piles[i], "KOPA-11", f"pile {i} changed")


def inv_no_skipping(before: State, action: Action, after: State) -> None:
    """KOPA-12: a card played was the next number of its pile (or started it)."""
    if isinstance(action, Play):
        require(action.card.value in _playable(before), "KOPA-12",
                f"{action.card} was not the next card of its pile")


def inv_eights(before: State, action: Action, after: State) -> None:
    """KOPA-13: an 8 lies only across its suit's 7 and 9."""
    for eight in after.eights:
        row = _ROWS.index(eight.value[0])
        up, down = after.piles[2 * row], after.piles[2 * row + 1]
        require(eight.value[1:] == "8", "KOPA-13", f"{eight} laid as an 8")
        require(len(up) == 7 and len(down) == 7, "KOPA-13",
                f"{eight} lies without its suit's 7 and 9")
    if isinstance(action, Play) and action.card.value[1:] == "8":
        require(action.card in after.eights, "KOPA-13", f"{action.card} is not laid across")


def inv_penalties(before: State, action: Action, after: State) -> None:
    """KOPA-15/KOPA-16/KOPA-18: penalties change only on passes (and draws): one point for a
    turn without a card, four more for a false claim."""
    if isinstance(action, Deal):
        require(not any(after.penalties), "KOPA-15", "penalties carried into a new round")
        return
    if isinstance(action, Play) or _round_ended(before, after):
        require(after.penalties == before.penalties, "KOPA-15", "a play changed the penalties")
        return
    if not isinstance(action, Pass):
        return
    seat = action.seat
    got = after.penalties[seat] - before.penalties[seat]
    others = [after.penalties[s] - before.penalties[s] for s in range(len(after.penalties))
              if s != seat]
    require(not any(others), "KOPA-15", "a pass charged another seat")
    if before.phase is Phase.DRAWN:
        free = after.config.declined_draw.value == "free"
        require(got == (0 if free else 1), "KOPA-18", f"keeping the drawn card cost {got}")
        return
    false_claim = 4 if _could_play(before, seat) else 0
    ends_turn = 0 if after.phase is Phase.DRAWN else 1
    rule = "KOPA-16" if false_claim else "KOPA-15"
    require(got == false_claim + ends_turn, rule, f"a pass cost {got}, not "
            f"{false_claim + ends_turn}")


def inv_draw(before: State, action: Action, after: State) -> None:
    """KOPA-18: with two players a pass draws the stock's top card into the hand; the stock
    changes at no other time."""
    if isinstance(action, Deal):
        return
    drew = (isinstance(action, Pass) and before.phase is Phase.PLAY
            and before.config.players == 2 and bool(before.stock))
    if not drew:
        require(after.stock == before.stock, "KOPA-18", "the stock changed without a draw")
        return
    assert isinstance(action, Pass)
    card = before.stock[0]
    require(after.stock == before.stock[1:], "KOPA-18", "the draw did not take the top card")
    require(card in after.hands[action.seat], "KOPA-18", f"the drawn {card} is not in the hand")
    take = _playable(before)
    require((after.phase is Phase.DRAWN) == (card.value in take), "KOPA-18",
            "a playable drawn card is offered, an unplayable one kept")


def inv_round_end(before: State, action: Action, after: State) -> None:
    """KOPA-19: the round ends exactly when a play empties a hand."""
    if before.phase not in (Phase.PLAY, Phase.DRAWN):
        return
    emptied = isinstance(action, Play) and not after.hands[action.seat]
    require(_round_ended(before, after) == emptied, "KOPA-19",
            "the round ended without an empty hand, or went on after one")


def inv_scores(before: State, action: Action, after: State) -> None:
    """KOPA-20: scores change only at a round's end: the winner gains one point per card in
    the other hands, every seat loses its penalty points."""
    if not _round_ended(before, after):
        require(after.scores == before.scores, "KOPA-20", "scores changed within a round")
        return
    assert isinstance(action, Play)
    winner = action.seat
    n = len(after.hands)
    gain = sum(len(after.hands[s]) for s in range(n) if s != winner)
    for s in range(n):
        expected = (gain if s == winner else 0) - after.penalties[s]
        got = after.scores[s] - before.scores[s]
        require(got == expected, "KOPA-20", f"seat {s} scored {got}, not {expected}")
        require(after.last_round[s] == got, "KOPA-20", "last_round is not the change")


def inv_next_round(before: State, action: Action, after: State) -> None:
    """KOPA-21: after a round the deal passes clockwise; within a round the dealer stays."""
    n = after.config.players
    if _round_ended(before, after) and after.phase is Phase.DEAL:
        require(after.dealer == (before.dealer + 1) % n, "KOPA-21", "the deal did not pass")
        require(after.round == before.round + 1, "KOPA-21", "the round number did not grow")
    else:
        require(after.dealer == before.dealer, "KOPA-21", "the dealer changed within a round")


def inv_match_end(before: State, action: Action, after: State) -> None:
    """KOPA-22: the match ends exactly after a round in which a seat reached the target."""
    if _round_ended(before, after):
        reached = max(after.scores) >= after.config.target
        require((after.phase is Phase.OVER) == reached, "KOPA-22", "match end at the wrong time")
    else:
        require(after.phase is not Phase.OVER, "KOPA-22", "the match ended within a round")


STEP_INVARIANTS: tuple[Callable[[State, Action, State], None], ...] = (
    inv_card_conservation,
    inv_first_player,
    inv_turn_order,
    inv_own_hand,
    inv_piles_are_runs,
    inv_card_on_its_pile,
    inv_no_skipping,
    inv_eights,
    inv_penalties,
    inv_draw,
    inv_round_end,
    inv_scores,
    inv_next_round,
    inv_match_end,
)
"""Every step invariant, in rule order."""
