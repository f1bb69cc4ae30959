"""Kopa's diagnosis code: the predicates and the context its rule entries (:mod:`.rules`)
refer to, the findings that are searches rather than tables (:func:`play_findings`),
``config_rule``, ``legal_rule`` and ``check_public``.

The public view shows the table (eight piles and the 8s laid), the hand sizes, the stock's
size, the penalties, the scores and whose turn it is; the hands and the stock are hidden.
A view rule's ``when`` is a predicate on the divergence; the round ladders' checks read a
:class:`RoundStep`. The diagnosis names the cause before its consequences (a round that
ends early before its scores, a misplaced card before the cards it makes playable). Rule
IDs refer to ``specs/kopa.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from copa_ref.conformance.predicates import action_is, leaves, reaches
from copa_ref.conformance.vocabulary import Divergence, Finding
from copa_ref.core import JSON, InvariantViolation
from copa_ref.kopa import Action, Card, Config, Deal, Observation, Pass, Phase, Play, State
from copa_ref.kopa.rules import (
    PILE_NAMES,
    draws,
    eight_ready,
    false_claim_penalty,
    leader,
    legal_actions,
    legal_cards,
    pile_accepts,
    refusal,
)

__all__ = ["RoundStep", "check_public", "config_rule", "legal_rule", "play_findings"]

KopaDivergence = Divergence[State, Action, Config, Observation]


def playing(phase: Phase) -> bool:
    """Whether a round is being played in *phase* (a card or a pass is due)."""
    return phase is Phase.PLAY or phase is Phase.DRAWN


def round_ends(before: Phase, after: Phase) -> bool:
    """Whether a step from *before* to *after* ends a round (KOPA-19)."""
    return playing(before) and not playing(after)


def pile_run_rule(k: int, down: bool) -> str:
    """The rule a pile breaks whose *k*-th card (from 0) is not the next of its run: its
    start (KOPA-8), an up-pile's or a down-pile's order (KOPA-9, KOPA-10)."""
    return "KOPA-8" if k == 0 else ("KOPA-10" if down else "KOPA-9")


_dealt = action_is(Deal)
_round_ended = leaves(Phase.PLAY, Phase.DRAWN)
"""The step ends a round (KOPA-19): it leaves play, in the reference or as reported."""
_over = reaches(Phase.OVER)


def could_play(state: State) -> bool:
    """Whether the seat to act holds a card the table takes (KOPA-15, KOPA-16)."""
    return bool(legal_cards(state.hands[state.turn], state.piles, state.eights))


def _false_pass(d: KopaDivergence) -> bool:
    b = d.before
    return isinstance(d.action, Pass) and b.phase is Phase.PLAY and could_play(b)


def _draw(d: KopaDivergence) -> bool:
    b = d.before
    return isinstance(d.action, Pass) and b.config.players == 2 and (
        bool(b.stock) or b.phase is Phase.DRAWN)


# -- the rules that admit a config and make an action legal ------------------------------------


def config_rule(config: Config) -> str:
    """The rule that admits *config*, named when an engine refuses it: the player count's
    rule (KOPA-2), or for three players (the text's own example) the target's (KOPA-22) or
    the first dealer's (KOPA-3) when that is what differs from the default."""
    if config.players == 3 and config.target != 20:
        return "KOPA-22"
    if config.players == 3 and config.first_dealer is not None:
        return "KOPA-3"
    return "KOPA-2"


def _card_rule(card: Card) -> str:
    """The rule that lets *card* go on the table when its pile (or its 7 and 9) are ready."""
    if card.number == 8:
        return "KOPA-13"
    if card.number in (1, 15):
        return "KOPA-8"
    return "KOPA-9" if card.number < 8 else "KOPA-10"


def legal_rule(state: State, action: Action) -> str | None:
    """The rule that makes the legal *action* legal in *state*, named when an engine refuses
    it: a deal's shape (KOPA-4, or the two-player stock KOPA-17), the pile range a card
    continues (a 1 or 15 KOPA-8, 2 to 7 KOPA-9, 14 to 9 KOPA-10, an 8 KOPA-13), the drawn
    card's offer (KOPA-18), a pass (KOPA-15 without a playable card, KOPA-16 with one)."""
    if isinstance(action, Deal):
        return "KOPA-17" if state.config.players == 2 else "KOPA-4"
    if state.phase is Phase.DRAWN:
        return "KOPA-18"
    if isinstance(action, Play):
        return _card_rule(action.card)
    if isinstance(action, Pass):
        return "KOPA-16" if could_play(state) else "KOPA-15"
    return None


# -- re-deriving from the engine's reports -----------------------------------------------------


def _follows_other_suit(card: Card, piles: tuple[tuple[Card, ...], ...]) -> int:
    """The place of another suit's pile whose top *card* would follow by number (in that
    pile's direction), or -1."""
    own = card.pile
    if own < 0:
        return -1
    for i in range(own & 1, 8, 2):
        if i != own and piles[i] and piles[i][-1].number + (-1 if i & 1 else 1) == card.number:
            return i
    return -1


def _table_rule(card: Card, piles: tuple[tuple[Card, ...], ...]) -> tuple[str, str]:
    """Why the table does not take *card*, as the likeliest misreading: laid on another
    suit's pile when it would follow that pile's top (KOPA-11), else the reference's refusal
    (an 8 too early KOPA-13, a pile not started KOPA-8, a skipped number KOPA-12)."""
    other = _follows_other_suit(card, piles)
    if other >= 0:
        return "KOPA-11", (f"{card} would follow the {PILE_NAMES[other]}-pile's "
                           f"{piles[other][-1]}, but a card builds only on its own suit")
    if card.number == 8:
        return "KOPA-13", f"{card} needs its suit's 7 and 9 on the table first"
    err = refusal(card, piles)
    return err.rule, err.message


class RoundStep:
    """A step at a round's start or end, with the engine's decoded report: what the
    round ladders (:data:`ROUND_START`, :data:`ROUND_END`) compare."""

    def __init__(self, d: KopaDivergence, seen: Observation) -> None:
        self.d, self.seen, self.want = d, seen, d.expected
        self.players = d.config.players


def _round_start(d: KopaDivergence) -> RoundStep | None:
    """The round-start ladder's context: a step that starts a round (the initial position,
    a deal, or a deal due in both), where the engine's dealer or first mover differs."""
    seen = d.reported_view
    if seen is None:
        return None
    starting = d.action is None or isinstance(d.action, Deal) or (
        seen.phase is Phase.DEAL and d.expected.phase is Phase.DEAL)
    if not starting or (seen.turn == d.expected.turn and seen.dealer == d.expected.dealer):
        return None
    return RoundStep(d, seen)


def _first_dealer(r: RoundStep) -> bool:
    return r.seen.dealer != r.want.dealer and r.want.round == 1


def _next_dealer(r: RoundStep) -> bool:
    return r.seen.dealer != r.want.dealer


def _dealers_left_begins(r: RoundStep) -> bool:
    dealer, n = r.seen.dealer, r.players
    return not 0 <= dealer < n or r.seen.turn != leader(dealer, n)


def _round_end(d: KopaDivergence) -> RoundStep | None:
    """The round-end ladder's context: a play during a round, which the engine ends where
    the reference goes on, or the other way round."""
    seen = d.reported_view
    if seen is None or not isinstance(d.action, Play) or not playing(d.before.phase):
        return None
    if (not playing(d.expected.phase)) == (not playing(seen.phase)):
        return None
    return RoundStep(d, seen)


def _play_empties_hand(r: RoundStep) -> bool:
    return not playing(r.want.phase)


def _round_ended_early(r: RoundStep) -> bool:
    return playing(r.want.phase)


def _play(r: RoundStep) -> Play:
    assert isinstance(r.d.action, Play)
    return r.d.action


def _enginecould_play(d: KopaDivergence) -> bool:
    """Whether the passing seat held a playable card, from the engine's own previous report
    (its legal actions, which agreed with the reference), else from the reference."""
    before = d.reported_before
    seat = d.before.turn
    if before is not None:
        for key in (seat, None):
            listed = before.legal.get(key)
            if listed is not None:
                return any(isinstance(a, dict) and a.get("type") == "play" for a in listed)
    return could_play(d.before)


def _pass_findings(d: KopaDivergence, seen: Observation) -> Iterator[Finding]:
    """A pass: whether the engine offers the drawn card (KOPA-18), and its price re-derived
    part by part: one point for the turn without a card (KOPA-15), four more when the seat
    could play (KOPA-16), one point for keeping a playable drawn card (KOPA-18, KOPA-Q6)."""
    b, e = d.before, d.expected
    assert isinstance(d.action, Pass)
    seat = d.action.seat
    if b.phase is Phase.PLAY and draws(d.config.players, b.stock) and (
            (e.phase is Phase.DRAWN) != (seen.phase is Phase.DRAWN)):
        card = b.stock[0]
        if e.phase is Phase.DRAWN:
            yield Finding("KOPA-18", f"seat {seat} draws {card}, which the table takes: it "
                                     "may play it at once; the engine does not offer it")
        else:
            rule, why = _table_rule(card, b.piles)
            yield Finding(rule, f"the engine offers seat {seat}'s drawn {card} to play, but "
                                f"the table does not take it: {why}")
        return
    if seen.penalties == e.penalties or len(seen.penalties) != len(b.penalties):
        return
    want = e.penalties[seat] - b.penalties[seat]
    got = seen.penalties[seat] - b.penalties[seat]
    if b.phase is Phase.DRAWN:
        yield Finding("KOPA-18", f"keeping the drawn card costs seat {seat} {want}; the engine "
                                 f"charges {got}")
        return
    extra = false_claim_penalty() if _enginecould_play(d) else 0
    base = want - extra
    says = (f"seat {seat} passes {'holding' if extra else 'without'} a playable card: "
            f"{base} for the turn without a card"
            + (f" + {extra} for the false claim" if extra else "")
            + f"; the engine charges {got}")
    if extra and got == want - extra:
        yield Finding("KOPA-16", says)
    elif base and got == want - base:
        yield Finding("KOPA-15", says)
    else:
        yield Finding("KOPA-16" if extra else "KOPA-15", says)


def _pile_findings(d: KopaDivergence, seen: Observation) -> Iterator[Finding]:
    """The piles, re-derived: listed in the text's order (KOPA-14); each reported pile is a
    run from its start (KOPA-8 to KOPA-10); the card played lies on its own suit's pile
    (KOPA-11)."""
    if len(seen.piles) != 8:
        yield Finding("KOPA-14", f"the table has 8 places; the engine reports "
                                 f"{len(seen.piles)}")
        return
    if Counter(seen.piles) == Counter(d.expected.piles):
        yield Finding("KOPA-14", "the engine's piles are the right ones in another order; the "
                                 "table lists Sable, Vert, Gules, Or, each up-pile then "
                                 "down-pile")
        return
    for i, pile in enumerate(seen.piles):
        for k, card in enumerate(pile):
            if card not in pile_accepts(i, pile[:k]):
                rule = pile_run_rule(k, bool(i & 1))
                if card.pile != i and card.number != 8:
                    rule = "KOPA-11" if card.row != i >> 1 else "KOPA-12"
                yield Finding(rule, f"the engine's {PILE_NAMES[i]}-pile "
                                    f"{' '.join(map(str, pile))} is no run of its place")
                return
    action = d.action
    if isinstance(action, Play) and action.card.number != 8:
        own = action.card.pile
        if seen.piles[own][-1:] != (action.card,):
            yield Finding("KOPA-11", f"{action.card} goes on the {PILE_NAMES[own]}-pile; the "
                                     "engine puts it elsewhere")


def _eight_findings(d: KopaDivergence, seen: Observation) -> Iterator[Finding]:
    """Each 8 the engine lays lies across its suit's 7 and 9 on the engine's own table, and
    the 8 played is laid (KOPA-13)."""
    if len(seen.piles) != 8:
        return
    for card in seen.eights:
        row = card.row
        if card.number != 8 or not eight_ready(seen.piles[2 * row], seen.piles[2 * row + 1]):
            yield Finding("KOPA-13", f"the engine lays {card} without its suit's 7 and 9")
            return
    if isinstance(d.action, Play) and d.action.card in d.expected.eights and (
            d.action.card not in seen.eights):
        yield Finding("KOPA-13", f"{d.action.card} lies across its 7 and 9; the engine does "
                                 "not lay it")


_CODES = frozenset(card.value for card in Card)


def _listed_cards(listed: list[JSON]) -> set[Card] | None:
    cards: set[Card] = set()
    for action in listed:
        if not isinstance(action, dict):
            return None
        if action.get("type") == "play":
            code = action.get("card")
            if not isinstance(code, str) or code not in _CODES:
                return None
            cards.add(Card(code))
    return cards


def _legal_findings(d: KopaDivergence) -> Iterator[Finding]:
    """When only the legal actions differ: a legal card the engine does not list names the
    rule that makes it legal (a pile that stops early: KOPA-9, KOPA-10; an 8, KOPA-13); a
    card it lists that would follow another suit's pile names KOPA-11 (the reference's
    refusals name the others)."""
    state = d.expected
    if not playing(state.phase):
        return
    mover = state.turn
    listed = d.reported.legal.get(None, d.reported.legal.get(mover))
    if listed is None:
        return
    shown = _listed_cards(listed)
    if shown is None:
        return
    want = {a.card for a in legal_actions(state) if isinstance(a, Play)}
    for card in sorted(want - shown, key=lambda c: c.index):
        rule = "KOPA-18" if state.phase is Phase.DRAWN else _card_rule(card)
        yield Finding(rule, f"seat {mover} may play {card}; the engine does not list it")
        return
    if state.phase is Phase.PLAY:
        for card in sorted(shown - want, key=lambda c: c.index):
            if card in state.hands[mover] and _follows_other_suit(card, state.piles) >= 0:
                yield Finding(*_table_rule(card, state.piles))
                return


def play_findings(d: KopaDivergence) -> Iterator[Finding]:
    """Kopa's findings after a round's start and end, re-derived from what the engine
    reported: the pass's draw and price, the piles and the 8s, the legal cards, the round's
    scores."""
    seen = d.reported_view
    if seen is None or d.action is None:
        return
    if isinstance(d.action, Pass):
        yield from _pass_findings(d, seen)
    if seen.piles != d.expected.piles:
        yield from _pile_findings(d, seen)
    if seen.eights != d.expected.eights:
        yield from _eight_findings(d, seen)
    if set(d.differing) <= {"legal"}:
        yield from _legal_findings(d)
    if _round_ended(d) and seen.scores != d.expected.scores and not playing(seen.phase) and (
            not playing(d.expected.phase)):
        yield Finding("KOPA-20", f"the round books {list(d.expected.last_round)}; the engine "
                                 f"has scores {list(seen.scores)}")


def check_public(before: JSON | None, action: JSON | None, after: JSON) -> None:
    """What a reported public view must satisfy: piles are runs from their start (KOPA-8 to
    KOPA-10), an 8 lies across its 7 and 9 (KOPA-13), and in play every card is in one place:
    hands, stock, piles and 8s make the 60 (KOPA-1)."""
    piles = after["piles"]
    if len(piles) != 8:
        raise InvariantViolation("KOPA-14", f"{len(piles)} places on the table, not 8")
    shown: list[str] = []
    for i, pile in enumerate(piles):
        suit, down = "SVGO"[i // 2], i % 2 == 1
        for k, code in enumerate(pile):
            want = f"{suit}{15 - k if down else 1 + k}"
            if code != want:
                rule = pile_run_rule(k, down)
                raise InvariantViolation(rule, f"pile {i} shows {code} where {want} belongs")
        shown += pile
    for code in after["eights"]:
        i = "SVGO".index(code[0]) * 2
        if code[1:] != "8" or len(piles[i]) != 7 or len(piles[i + 1]) != 7:
            raise InvariantViolation("KOPA-13", f"{code} lies without its 7 and 9")
    shown += after["eights"]
    if len(shown) != len(set(shown)):
        raise InvariantViolation("KOPA-1", "a card shows twice on the table")
    if after["phase"] in ("play", "drawn"):
        total = sum(after["hand_sizes"]) + after["stock_size"] + len(shown)
        if total != 60:
            raise InvariantViolation("KOPA-1", f"{total} cards in hands, stock and table, "
                                     "not 60")
