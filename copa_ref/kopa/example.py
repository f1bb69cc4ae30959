"""The text's worked example ("Kopa Game Simulation"), replayed against the rules.

The example is transcribed move by move, as printed, into ``example.json`` (package data):
the hands, every play (with the pile the text puts it on), every invalid attempt and its
penalty, every pass, every "The table now has" line, the hidden "several rounds later", the
final moves, the hand counts the text claims and its score summary. :func:`diagnose` reads
that file (nothing of the example is written here) and replays it:

1. The deal is checked against KOPA-4 (and refused by :func:`~copa_ref.kopa.rules.apply`).
2. The replay goes on from the hands as stated, with the reference's
   :func:`~copa_ref.kopa.rules.apply` as the judge of every move, until the first stated move
   the rules refuse but the example treats as made: there the example can no longer be
   followed legally.
3. From then on the replay keeps **the example's own table**: each move the example makes is
   laid where the text lays it, each "The table now has" line is compared with the moves
   before it and then adopted, and every later move is checked against that table with the
   rules' own functions (:func:`~copa_ref.kopa.rules.pile_accepts`,
   :func:`~copa_ref.kopa.rules.eight_ready`, :func:`~copa_ref.kopa.rules.start_cards`, …).
   Every card stays in one place: a card the text has someone play who never held it is
   laid where the text lays it and leaves the hand that did hold it.

Every violation is listed with its rule ID and a one-line reason; those the text itself
admits ("penalized 1 point for an invalid play") are marked.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from typing import Any

import attrs

from copa_ref.core import IllegalActionError
from copa_ref.kopa import rules
from copa_ref.kopa.state import Card, Config, Deal, Pass, Phase, Play, State

__all__ = ["Diagnosis", "Violation", "diagnose", "load_example", "report"]

_SUIT_NAMES = ("Sable", "Vert", "Gules", "Or")


@attrs.frozen
class Violation:
    """One place where the example breaks a rule."""

    where: str
    """Where in the example (its heading and the player, or the table line)."""
    rule: str
    """The rule broken."""
    reason: str
    """Why, in one line."""
    admitted: bool = False
    """Whether the example itself calls the move invalid."""
    kind: str = "independent"
    """``"independent"``: a violation of its own; ``"charged"``: the point the example
    charges for an invalid play already counted (the item before it); ``"restatement"``:
    what an earlier item already says, shown again (a table line laying out a move already
    counted, a card dealt to nobody shown again, a total that follows from the hands)."""
    of: int | None = None
    """For a charge or a restatement, the number (from 1) of the item it goes with."""


@attrs.frozen
class Diagnosis:
    """The replay's findings."""

    violations: tuple[Violation, ...]
    """Every violation, in the order of the text."""
    deal: str
    """What the reference says of the example's deal."""
    departure: str
    """The first stated move the rules refuse that the example treats as made: where the
    example can no longer be followed legally."""
    then: str
    """What the replay does from there."""


def load_example() -> dict[str, Any]:
    """The transcribed example (``copa_ref/kopa/example.json``)."""
    text = resources.files("copa_ref.kopa").joinpath("example.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def _card(text: str) -> Card:
    name, number = text.split()
    return rules.card_of(_SUIT_NAMES.index(name), int(number))


def _pile(text: str) -> tuple[Card, ...]:
    if text == "empty":
        return ()
    name, run = text.split()
    row = _SUIT_NAMES.index(name)
    return tuple(rules.card_of(row, int(n)) for n in run.split("→"))


def _name(card: Card) -> str:
    return f"{_SUIT_NAMES[card.row]} {card.number}"


def _run(pile: tuple[Card, ...] | list[Card]) -> str:
    if not pile:
        return "empty"
    return f"{_SUIT_NAMES[pile[0].row]} " + "→".join(str(c.number) for c in pile)


def _names(cards: list[Card] | tuple[Card, ...]) -> str:
    return ", ".join(_name(c) for c in cards) if cards else "nothing"


def _place(pile: tuple[Card, ...] | list[Card]) -> int:
    """The place on the table (KOPA-14) a pile belongs to, by its first card."""
    first = pile[0]
    return 2 * first.row + (first.number > 8)


class _Replay:
    def __init__(self, data: dict[str, Any]) -> None:
        self.names: list[str] = list(data["players"])
        self.n = len(self.names)
        self.config = Config(players=self.n)
        self.hands: list[list[Card]] = [
            sorted((rules.card_of(_SUIT_NAMES.index(suit), k)
                    for suit, numbers in data["hands"][name].items() for k in numbers),
                   key=lambda c: c.index)
            for name in self.names]
        self.table: list[list[Card]] = []
        self.eights: list[Card] = []
        self.turn: int | None = None
        self.where = "Setup"
        self.rules_penalties = [0] * self.n
        self.example_penalties = [0] * self.n
        self.violations: list[Violation] = []
        self.shapes: set[tuple[object, ...]] = set()
        self.ref: State | None = None
        # The position as the example states it: its deal may be one the rules refuse, so
        # it need not pass check_state; it is replayed with the rules' inner apply (the
        # actions are the example's own, of exact types), not through the checked entry.
        self.departure = ""
        self.deal = ""
        self.skipped = False
        self.misstated: list[tuple[str, str]] = []
        self.suit_items: dict[int, int] = {}
        """The item of the latest play that broke a pile rule, by suit row."""
        self.missing_items: dict[Card, int] = {}
        """The item saying a card was dealt to nobody, by card."""
        self.held_items: dict[int, int] = {}
        """The item saying a seat holds another count at the end, by seat."""
        self.stated_held: dict[int, int] = {}
        """The cards the text says each seat holds at the end."""

    # -- recording -----------------------------------------------------------------------

    def violation(self, who: str, rule: str, reason: str, admitted: bool = False,
                  kind: str = "independent", of: int | None = None) -> int:
        """Record a violation; its number in the report (from 1)."""
        self.violations.append(Violation(f"{self.where}, {who}", rule, reason, admitted,
                                         kind, of))
        return len(self.violations)

    def depart(self, text: str, err: IllegalActionError) -> None:
        if self.ref is not None:
            self.departure = f"{self.where}: \"{text}\" (refused under {err})"
            self.ref = None

    # -- the deal ------------------------------------------------------------------------

    def check_deal(self, data: dict[str, Any]) -> None:
        size = rules.deal_shape(self.n)[1]
        stated = data["hand_size"]
        for seat, hand in enumerate(self.hands):
            if len(hand) != size:
                self.violation(self.names[seat], "KOPA-4",
                               f"dealt {len(hand)} cards; the text says {stated}, and with "
                               f"{self.n} players each is dealt {size}")
        seen: Counter[Card] = Counter(c for h in self.hands for c in h)
        for card, count in sorted(seen.items(), key=lambda x: x[0].index):
            if count > 1:
                self.violation("the deal", "KOPA-4", f"{_name(card)} is dealt {count} times")
        missing = [c for c in rules.DECK if c not in seen]
        for card in missing:
            self.missing_items[card] = self.violation(
                "the deal", "KOPA-4", f"{_name(card)} is dealt to nobody (the hands hold "
                f"{sum(seen.values())} cards, not 60)")
        start = rules.new_game(self.config)
        try:
            rules.apply(start, Deal(tuple(tuple(h) for h in self.hands)))
            self.deal = "The deal is accepted."
        except IllegalActionError as err:
            self.deal = (f"The deal is refused ({err}). The replay goes on from the hands as "
                         "stated.")
        self.ref = State(
            config=self.config, phase=Phase.PLAY, round=1, dealer=start.dealer,
            turn=start.turn, hands=tuple(tuple(h) for h in self.hands), stock=(), drawn=None,
            piles=((),) * 8, eights=(), penalties=(0,) * self.n, scores=(0,) * self.n,
            last_round=())
        first = self.names.index(data["first_player"])
        self.turn = start.turn
        if first != start.turn:
            self.violation(data["first_player"], "KOPA-5",
                           f"begins, but the dealer's left is {self.names[start.turn]}")

    # -- the example's own table ---------------------------------------------------------

    def in_place(self, place: int) -> list[list[Card]]:
        return [p for p in self.table if p and _place(p) == place]

    def holder(self, card: Card) -> str:
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"{self.names[seat]} holds it"
        return "nobody was dealt it"

    def takes(self, card: Card) -> bool:
        """Whether the example's table takes *card* (the rules' functions on its piles)."""
        if card.number == 8:
            ups, downs = self.in_place(2 * card.row), self.in_place(2 * card.row + 1)
            return card not in self.eights and any(
                rules.eight_ready(tuple(u), tuple(d)) for u in ups for d in downs)
        piles = self.in_place(card.pile)
        if not piles:
            return card in rules.start_cards(card.pile)
        return any(card in rules.pile_accepts(card.pile, tuple(p)) for p in piles)

    def placement(self, card: Card, event: dict[str, Any]) -> tuple[list[tuple[str, str]],
                                                                    list[Card] | None]:
        """What is wrong with laying *card* where the text lays it, and the pile it goes on
        (``None``: a new pile, or across for an 8)."""
        problems: list[tuple[str, str]] = []
        if card.number == 8:
            if not self.takes(card):
                problems.append(("KOPA-13", f"{_name(card)} needs its suit's 7 and 9 on the "
                                 "table"))
            return problems, None
        if "starts" in event:
            start = rules.start_cards(card.pile)[0]
            if card is not start:
                problems.append(("KOPA-8", f"{_name(card)} cannot start a pile: the "
                                 f"{rules.PILE_NAMES[card.pile]}-pile starts with "
                                 f"{_name(start)}"))
            elif self.in_place(card.pile):
                problems.append(("KOPA-8", f"the {rules.PILE_NAMES[card.pile]}-pile is "
                                 f"already started ({_run(self.in_place(card.pile)[0])}); "
                                 "it cannot be started twice"))
            return problems, None
        top = _card(event["on"])
        piles = [p for p in self.table if p and p[-1] is top]
        if not piles:
            shown = [_run(p) for p in self.in_place(top.pile)] or ["nothing"]
            rule = "KOPA-10" if top.number > 8 else "KOPA-9"
            self.misstated.append((rule, f"no pile shows {_name(top)} on top: the "
                                   f"{rules.PILE_NAMES[top.pile]} place shows "
                                   f"{', '.join(shown)}"))
            own = self.in_place(card.pile)
            if not own:
                start = rules.start_cards(card.pile)[0]
                problems.append(("KOPA-8", f"{_name(card)} cannot start the "
                                 f"{rules.PILE_NAMES[card.pile]}-pile: it starts with "
                                 f"{_name(start)}"))
                return problems, None
            piles = own
        pile = piles[0]
        place = _place(pile)
        if card not in rules.pile_accepts(place, tuple(pile)):
            following = rules.pile_accepts(place, tuple(pile))
            want = f"its next card is {_name(following[0])}" if following else "it is complete"
            if card.suit is not top.suit:
                problems.append(("KOPA-11", f"{_name(card)} cannot go on {_name(top)}: only "
                                 "on its own suit"))
            elif (card.number > 8) != bool(place & 1):
                rule = "KOPA-10" if card.number > 8 else "KOPA-9"
                problems.append((rule, f"{_name(card)} belongs to the other pile of its "
                                 f"suit, not on {_run(pile)}"))
            else:
                problems.append(("KOPA-12", f"{_name(card)} on {_run(pile)} skips numbers; "
                                 f"{want}"))
        return problems, pile

    def lay(self, card: Card, pile: list[Card] | None) -> None:
        if card.number == 8:
            self.eights.append(card)
        elif pile is None:
            self.table.append([card])
        else:
            pile.append(card)

    # -- events --------------------------------------------------------------------------

    def check_turn(self, seat: int) -> None:
        if self.turn is not None and seat != self.turn:
            self.violation(self.names[seat], "KOPA-6",
                           f"acts, but it is {self.names[self.turn]}'s turn (play proceeds "
                           "clockwise)")
        self.turn = seat

    def check_count(self, seat: int, event: dict[str, Any]) -> None:
        if "cards_left" in event and len(self.hands[seat]) != event["cards_left"]:
            hand = self.hands[seat]
            self.violation(self.names[seat], "KOPA-7",
                           f"said to hold {event['cards_left']}, but holds {len(hand)} "
                           f"({_names(hand)}): the cards played for them were not theirs")

    def play(self, event: dict[str, Any], attempt: bool) -> None:
        seat = self.names.index(event["player"])
        name = self.names[seat]
        card = _card(event["card"])
        self.check_turn(seat)
        self.check_count(seat, event)
        held = card in self.hands[seat]
        if not held:
            self.violation(name, "KOPA-7", f"plays {_name(card)} but does not hold it "
                           f"({self.holder(card)})")
        self.misstated = []
        problems, pile = self.placement(card, event)
        for rule, reason in self.misstated:
            self.violation(name, rule, reason)
        invalid = None
        for rule, reason in problems:
            invalid = self.violation(name, rule, reason, admitted=attempt)
            self.suit_items[card.row] = invalid
        if self.ref is not None:
            try:
                after = rules._apply(self.ref, Play(seat, card))
            except IllegalActionError as err:
                if not attempt:
                    self.depart(event["text"], err)
            else:
                if attempt:
                    self.violation(name, "KOPA-12", f"{_name(card)} is called invalid, but "
                                   "the rules accept it")
                else:
                    self.ref = after
        if attempt:
            points = event.get("penalty", 0)
            self.example_penalties[seat] += points
            if points:
                self.violation(name, "KOPA-15", f"charged {points} for an invalid play: the "
                               "rules charge points only for a turn without a card; an "
                               "invalid play is refused (KOPA-Q4)", admitted=False,
                               kind="charged" if invalid else "independent", of=invalid)
            return
        self.lay(card, pile)
        # Every card is in one place: a card laid leaves the hand that held it.
        for hand in self.hands:
            if card in hand:
                hand.remove(card)
        self.turn = rules.next_seat(seat, self.n)

    def pass_(self, event: dict[str, Any]) -> None:
        seat = self.names.index(event["player"])
        name = self.names[seat]
        self.check_turn(seat)
        could = [c for c in self.hands[seat] if self.takes(c)]
        cost = rules.failed_turn_penalty() + (rules.false_claim_penalty() if could else 0)
        stated = event.get("penalty", 0)
        self.rules_penalties[seat] += cost
        self.example_penalties[seat] += stated
        if could:
            self.violation(name, "KOPA-16",
                           f"claims no valid move while holding {_names(could)}: the rules "
                           f"charge 1 + 4 = {cost}, the example {stated}")
        elif cost != stated:
            self.violation(name, "KOPA-15", f"a pass costs {cost}, the example charges {stated}")
        if self.ref is not None:
            self.ref = rules._apply(self.ref, Pass(seat))
        self.turn = rules.next_seat(seat, self.n)

    def table_line(self, event: dict[str, Any]) -> None:
        stated = [_pile(t) for t in event["piles"]]
        where = "the table line"
        if len(stated) != 8:
            if ("count", len(stated)) not in self.shapes:
                self.shapes.add(("count", len(stated)))
                self.violation(where, "KOPA-14",
                               f"shows {len(stated)} places; the table has 8, one up-pile and "
                               "one down-pile per suit")
        else:
            for i, pile in enumerate(stated):
                for k, card in enumerate(pile):
                    if card in rules.pile_accepts(i, pile[:k]):
                        continue
                    if (i, pile[0]) not in self.shapes:
                        self.shapes.add((i, pile[0]))
                        rule = "KOPA-8" if k == 0 else ("KOPA-10" if i & 1 else "KOPA-9")
                        earlier = self.suit_items.get(card.row)
                        self.violation(where, rule,
                                       f"the {rules.PILE_NAMES[i]} place shows {_run(pile)}, "
                                       f"which is no {rules.PILE_NAMES[i]}-pile",
                                       kind="restatement" if earlier else "independent",
                                       of=earlier)
                    break
        if self.skipped:
            self.grow(stated)
        else:
            mine = Counter(tuple(p) for p in self.table if p)
            theirs = Counter(p for p in stated if p)
            if mine != theirs:
                lost = [_run(p) for p in mine - theirs]
                new = [_run(p) for p in theirs - mine]
                self.violation(where, "KOPA-14",
                               f"does not follow from the moves: they built "
                               f"{', '.join(lost) or 'nothing else'}, the line shows "
                               f"{', '.join(new) or 'nothing else'}")
        if self.ref is not None and tuple(stated) != self.ref.piles:
            self.departure = f"{self.where}: the table line differs from the moves"
            self.ref = None
        # Keep the example's own table from here on.
        self.table = [list(p) for p in stated if p]
        self.skipped = False

    def grow(self, stated: list[tuple[Card, ...]]) -> None:
        """A table after rounds not shown: it must grow from the last one (cards on the table
        never move), and its new cards must come from the hands."""
        where = "the table line"
        for pile in self.table:
            if not any(p[:len(pile)] == tuple(pile) for p in stated):
                rule = "KOPA-10" if _place(pile) & 1 else "KOPA-9"
                self.violation(where, rule, f"{_run(pile)} lay on the table, but no pile of "
                               "the new table begins with it: laid cards never move")
        laid = {c for p in self.table for c in p}
        for card in [c for p in stated for c in p if c not in laid]:
            for hand in self.hands:
                if card in hand:
                    hand.remove(card)
                    break
            else:
                earlier = self.missing_items.get(card)
                self.violation(where, "KOPA-4", f"shows {_name(card)}, which was dealt to "
                               "nobody", kind="restatement" if earlier else "independent",
                               of=earlier)

    def round_end(self, event: dict[str, Any]) -> None:
        seat = self.names.index(event["player"])
        hand = self.hands[seat]
        if hand:
            self.violation(self.names[seat], "KOPA-19",
                           f"still holds {_names(hand)}: the round ends only when a player "
                           "plays their own last card")

    def held(self, event: dict[str, Any]) -> None:
        seat = self.names.index(event["player"])
        hand = self.hands[seat]
        self.stated_held[seat] = event["cards"]
        if len(hand) != event["cards"]:
            self.held_items[seat] = self.violation(
                self.names[seat], "KOPA-20", f"said to hold {event['cards']} cards at the end, "
                f"but holds {len(hand)} ({_names(hand)})")

    def total(self, event: dict[str, Any]) -> None:
        seat = self.names.index(event["player"])
        others = sum(len(h) for s, h in enumerate(self.hands) if s != seat)
        if others != event["points"]:
            # The points follow from the counts the text states, each already an item:
            # a restatement of the last of them.
            rest = [s for s in range(self.n) if s != seat]
            follows = (all(s in self.stated_held for s in rest)
                       and sum(self.stated_held[s] for s in rest) == event["points"]
                       and all(s in self.held_items for s in rest
                               if self.stated_held[s] != len(self.hands[s])))
            earlier = max((self.held_items[s] for s in rest if s in self.held_items),
                          default=None)
            self.violation(self.names[seat], "KOPA-20",
                           f"scores {event['points']}, but the other hands hold {others} "
                           "cards", kind="restatement" if follows and earlier else
                           "independent", of=earlier if follows else None)

    def summary(self, event: dict[str, Any]) -> None:
        seat = self.names.index(event["player"])
        name = self.names[seat]
        own, by_rules = self.example_penalties[seat], self.rules_penalties[seat]
        if event["points"] - event["penalties"] != event["score"]:
            self.violation(name, "KOPA-20", f"{event['points']} - {event['penalties']} is not "
                           f"{event['score']}")
        if event["penalties"] != own or own != by_rules:
            self.violation(name, "KOPA-20",
                           f"{event['penalties']} penalty points, but the moves shown charge "
                           f"{own} by the example's own count and {by_rules} by the rules")

    def run(self, data: dict[str, Any]) -> Diagnosis:
        self.where = "Initial Hands"
        self.check_deal(data)
        for event in data["events"]:
            kind = event["kind"]
            if kind == "heading":
                self.where = event["text"]
            elif kind in ("play", "attempt"):
                self.play(event, attempt=kind == "attempt")
            elif kind == "pass":
                self.pass_(event)
            elif kind == "table":
                self.table_line(event)
            elif kind == "skip":
                self.where = "Several rounds later"
                self.skipped = True
                self.turn = None
            elif kind == "round_end":
                self.round_end(event)
            elif kind == "held":
                self.held(event)
            elif kind == "total":
                self.total(event)
            elif kind == "summary":
                self.summary(event)
            else:
                msg = f"unknown event kind {kind!r} in the example"
                raise ValueError(msg)
        then = ("From there the replay keeps the example's own table: each move the example "
                "makes is laid where the text lays it, each table line is compared with the "
                "moves before it and then adopted, and every later move is checked against "
                "that table with the rules' own functions.")
        return Diagnosis(tuple(self.violations), self.deal,
                         self.departure or "Nowhere: every stated move is legal.", then)


def diagnose(data: dict[str, Any] | None = None) -> Diagnosis:
    """Replay the example (by default the transcribed one) against the rules."""
    return _Replay(load_example() if data is None else data).run(
        load_example() if data is None else data)


def report(diagnosis: Diagnosis) -> list[str]:
    """The diagnosis as lines of text: the deal, the departure, then every violation."""
    admitted = sum(v.admitted for v in diagnosis.violations)
    kinds = {kind: sum(v.kind == kind for v in diagnosis.violations)
             for kind in ("independent", "charged", "restatement")}
    lines = [
        f"The worked example breaks the rules {len(diagnosis.violations)} times "
        f"({admitted} of them plays the example itself calls invalid).",
        f"Of the {len(diagnosis.violations)} items, {kinds['independent']} are independent "
        f"violations, {kinds['charged']} charge a point for an invalid play already counted "
        f"in the item before (\"charged for item n\"), and {kinds['restatement']} restate an "
        "earlier item (\"restates item n\").",
        diagnosis.deal,
        f"The example can no longer be followed legally at {diagnosis.departure}",
        diagnosis.then,
        "",
    ]
    for k, v in enumerate(diagnosis.violations, 1):
        mark = " (the example says so)" if v.admitted else ""
        if v.kind == "charged":
            mark += f" (charged for item {v.of})"
        elif v.kind == "restatement":
            mark += f" (restates item {v.of})"
        lines.append(f"{k:2}. {v.rule:8} {v.where}: {v.reason}{mark}")
    return lines



