"""A seeded Kopa match between simple players: the first round's opening turns in plain
words (each card with the reason it fits, each pass with what the table wanted), the table
drawn as it grows, the rest of the round in short; on request, more rounds (each later one
with its scoring) or the whole match.

Every seat is a *simple player* (:func:`simple_player`): it plays a legal card whenever it
has one and passes only when it must. A match between such players ends (with three to five
players after a median of 11 to 26 rounds), but not every Kopa match does: uniformly random
players, who also pass while holding a card at 1 + 4 points, fall ever further below zero,
and with two players even simple players do, since the draws' penalty points outweigh what a
round's winner gains (KOPA-Q14). The demo says so when it stops.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

import attrs

from copa_ref.core.wrap import wrap_told
from copa_ref.kopa.rules import apply, legal_actions, new_game, outcome, sample_chance
from copa_ref.kopa.state import Action, Card, Config, Phase, Play, State, Suit

__all__ = ["LEGEND", "MAX_ROUNDS", "POLICY", "WIDTH", "demo", "hand_text", "play_round", "render",
           "simple_player"]

MAX_ROUNDS = 100
"""The demo stops after this many rounds: a match need not end (KOPA-Q14). Simple players'
matches with three to five players have ended within 80 rounds at every seed tried."""

POLICY = ("every seat is a simple player: it plays a legal card whenever it has one (an 8 "
          "first, else a card farthest from the middle) and passes only when it must")
"""The demo's policy, in words (its first line says it)."""

WIDTH = 100
"""The demo wraps a longer line (a turn, a round's scoring) at this width, the rest of it
indented under the first."""

SUIT_NAMES = {Suit.SABLE: "Sable", Suit.VERT: "Vert", Suit.GULES: "Gules", Suit.OR: "Or"}
"""The suits' names, by their letters."""

LEGEND = (
    "  Legend: a card is its suit's letter and its number: S Sable, V Vert, G Gules, O Or, "
    "each",
    "  numbered 1 to 15 (G10 is the Gules 10); hands are sorted by suit, then number. On "
    "the",
    "  table each suit has two piles: \"up\" starts with its 1 and builds 2, 3, ... to 7; "
    "\"down\"",
    "  starts with its 15 and builds 14, 13, ... to 9 (\"-\": not started yet). The 8 is "
    "laid",
    "  last, across the 7 and the 9, completing the suit. A player who cannot play passes "
    "and",
    "  takes a penalty point; the first to play his last card wins the round and gains a "
    "point",
    "  for each card the others still hold, and every seat's penalty points come off its "
    "score.",
)
"""The legend printed under the first picture."""

PICTURE_EVERY = 4
"""In the first round, the table is drawn after every this many turns of each seat."""

TOLD_TURNS = 24
"""The first round is told in words for this many turns, then in short."""


def _wrap(line: str) -> list[str]:
    """*line* wrapped at :data:`WIDTH`."""
    return wrap_told(line, WIDTH)


def _sorted(cards: Sequence[Card]) -> list[Card]:
    return sorted(cards, key=lambda c: (c.row, c.number))


def hand_text(cards: Sequence[Card]) -> str:
    """A hand sorted by suit (the table's order, KOPA-14) and number, a gap between suits."""
    groups: dict[int, list[str]] = {}
    for card in _sorted(cards):
        groups.setdefault(card.row, []).append(str(card))
    return "  ".join(" ".join(group) for _, group in sorted(groups.items()))


def _pile(pile: tuple[Card, ...]) -> str:
    if not pile:
        return "-"
    if len(pile) == 1:
        return str(pile[0])
    return f"{pile[0]}..{pile[-1]}"


def render(state: State) -> str:
    """The table, a suit a row in the order of KOPA-14 (each suit's up-pile, down-pile and
    8), then the hand sizes, the penalty points of the round and the scores."""
    rows = []
    for row, suit in enumerate(SUIT_NAMES.values()):
        up, down = state.piles[2 * row], state.piles[2 * row + 1]
        eight = next((str(c) for c in state.eights if c.row == row), "-")
        rows.append(f"     {suit:6} up {_pile(up):8} down {_pile(down):8} 8: {eight}")
    sizes = ", ".join(f"seat {s} {len(h)}" for s, h in enumerate(state.hands))
    stock = f"; stock {len(state.stock)}" if state.stock else ""
    rows.extend(_wrap(f"     cards in hand: {sizes}{stock}; penalty points this round: "
                      + ", ".join(f"seat {s} {p}" for s, p in enumerate(state.penalties))))
    return "\n".join(rows)


def _wanted(state: State) -> list[Card]:
    """The cards the table takes now, whoever holds them."""
    wanted = []
    for card in Card:
        pile = state.piles[card.pile] if card.number != 8 else ()
        if card.number == 8:
            ups, downs = state.piles[2 * card.row], state.piles[2 * card.row + 1]
            if ups and ups[-1].number == 7 and downs and downs[-1].number == 9:
                wanted.append(card)
        elif not pile:
            if card.number in (1, 15):
                wanted.append(card)
        elif pile[-1].number == (card.number - 1 if card.number < 8 else card.number + 1):
            wanted.append(card)
    return _sorted(wanted)


def simple_player(state: State, rng: random.Random) -> Action:
    """A simple player: plays a random legal card when it has one (an 8 or a card far from
    the middle first), and passes only when it must."""
    actions = legal_actions(state)
    assert actions, "simple_player asked at a node where nobody acts"
    plays = [a for a in actions if isinstance(a, Play)]
    if not plays:
        return actions[-1]
    eights = [p for p in plays if p.card.number == 8]
    if eights:
        return eights[0]
    best = max(abs(p.card.number - 8) for p in plays)
    return rng.choice([p for p in plays if abs(p.card.number - 8) == best])


def _why_card(state: State, card: Card) -> str:
    """Why *card* fits the table of *state*, with the rule."""
    suit = SUIT_NAMES[card.suit]
    if card.number == 8:
        return f"across {suit} 7 and 9: both are down, so the 8 completes {suit} (KOPA-13)"
    pile = state.piles[card.pile]
    if not pile:
        way = "up" if card.number == 1 else "down"
        return f"starts the {suit} {way}-pile: a {card.number} starts a pile (KOPA-8)"
    top = pile[-1]
    if card.number < 8:
        return f"on {top}: the next number up on {suit} (KOPA-9)"
    return f"on {top}: the next number down on {suit} (KOPA-10)"


def _turn(state: State, action: Action, after: State) -> list[str]:
    """The lines for one turn of the first round, in words, with the rules."""
    seat = state.turn
    if isinstance(action, Play):
        lines = [f"   seat {seat} plays {action.card}, {_why_card(state, action.card)}"]
        if not after.hands[seat] and state.phase is not Phase.DEAL:
            lines.append(f"   seat {seat} has played his last card: the round ends (KOPA-19)")
        return lines
    wanted = " ".join(str(c) for c in _wanted(state)) or "nothing"
    charged = after.penalties[seat] - state.penalties[seat] if after.round == state.round \
        else None
    if state.phase is Phase.DRAWN:
        return [f"   seat {seat} keeps the card he drew: 1 penalty point (KOPA-18)"]
    if len(after.stock) < len(state.stock):
        drawn = after.drawn
        if drawn is not None:
            return [f"   seat {seat} cannot play (the table takes {wanted}): he draws from "
                    f"the stock and can play the card drawn (KOPA-18)"]
        return [f"   seat {seat} cannot play (the table takes {wanted}): he draws from the "
                f"stock, cannot play that card either, keeps it: 1 penalty point (KOPA-18)"]
    points = "1 penalty point" if charged == 1 else f"{charged} penalty points"
    return [f"   seat {seat} passes: he holds none of the cards the table takes ({wanted}): "
            f"{points} (KOPA-15)"]


def play_round(state: State, rng: random.Random) -> tuple[State, list[str]]:
    """Play the round in progress between simple players to its end; the state after it and
    each turn in short (``1:S2``, ``0:pass(+1)``)."""
    turns: list[str] = []
    while state.phase is Phase.PLAY or state.phase is Phase.DRAWN:
        seat = state.turn
        action = simple_player(state, rng)
        before = state.penalties[seat]
        state = apply(state, action)
        if isinstance(action, Play):
            turns.append(f"{seat}:{action.card}")
        else:
            turns.append(f"{seat}:pass(+{state.penalties[seat] - before})")
    return state, turns


def _told_round(state: State, rng: random.Random) -> Iterator[str | State]:
    """The first round, its first :data:`TOLD_TURNS` turns in words and the rest in short;
    yields lines, and the state after the round last."""
    n = state.config.players
    turns = 0
    while state.phase is Phase.PLAY or state.phase is Phase.DRAWN:
        if turns == TOLD_TURNS and state.phase is Phase.PLAY:
            state, told = play_round(state, rng)
            yield from _wrap(f"   the rest of round 1 in short (seat:card, or a pass with its "
                             f"penalty points): {' '.join(told)}")
            out = next(s for s in range(n) if not state.hands[s])
            yield f"   seat {out} has played his last card: the round ends (KOPA-19)"
            break
        action = simple_player(state, rng)
        after = apply(state, action)
        for line in _turn(state, action, after):
            yield from _wrap(line)
        if state.phase is not Phase.DRAWN:
            turns += 1
        state = after
        if state.phase is Phase.PLAY and turns % (PICTURE_EVERY * n) == 0:
            yield f"   the table after {turns} turns:"
            yield render(state)
    yield state


def _scoring(state: State, winner: int) -> str:
    """The scoring of the round just ended, with its arithmetic (KOPA-20)."""
    n = state.config.players
    held = [len(state.hands[s]) for s in range(n)]
    gain = sum(held) - held[winner]
    cards = " + ".join(str(held[s]) for s in range(n) if s != winner)
    parts = [f"seat {winner} gains {cards} = {gain}, a point for each card the others "
             f"still hold"]
    penalties = [f"seat {s} -{p}" for s, p in enumerate(state.penalties) if p]
    parts.append("penalty points subtracted: " + (", ".join(penalties) if penalties
                                                  else "none"))
    return "; ".join(parts) + " (KOPA-20)"


def _scores(values: tuple[int, ...], sign: bool = False) -> str:
    return ", ".join(f"seat {s} {v:+d}" if sign else f"seat {s} {v}"
                     for s, v in enumerate(values))


def demo(seed: int, config: Config | None = None, players: int | None = None,
         rounds: int = 1) -> Iterator[str]:
    """Play a seeded match between simple players (*players* seats, default the config's);
    yield it as lines of text: the first round's deal and every turn in words, then each
    later round with its scoring. Only the first *rounds* rounds are played (default 1; 0
    plays the whole match, up to :data:`MAX_ROUNDS`); a match cut short ends with the scores
    so far."""
    rng = random.Random(seed)
    if players is not None:
        config = attrs.evolve(config or Config(), players=players)
    state = new_game(config)
    n = state.config.players
    target = state.config.target
    yield f"Kopa, seed {seed}: {n} players, to {target} points; {POLICY}"
    while state.phase is not Phase.OVER:
        if state.round > MAX_ROUNDS:
            why = ("with two players the penalty points of the draws outweigh what a "
                   "round's winner gains, so the scores fall" if n == 2 else
                   "penalties can outweigh what a round's winner gains")
            yield from _wrap(f"stopped after {MAX_ROUNDS} rounds with no one at {target}: {why}, "
                             f"and a match need not end (KOPA-Q14); scores "
                             f"{_scores(state.scores)}")
            yield (f"result: nobody wins: no one reached {target} points in {MAX_ROUNDS} "
                   f"rounds, and the match ends only when someone does (KOPA-Q14; KOPA-22).")
            return
        dealer = state.dealer
        played = state.round
        state = apply(state, sample_chance(state, rng))
        leader = state.turn
        if played == 1:
            yield from _wrap(f"-- round 1: seat {dealer} deals all 60 cards, clockwise (KOPA-4); "
                             f"seat {leader}, to the dealer's left, begins (KOPA-5)")
            for seat, hand in enumerate(state.hands):
                yield f"   seat {seat}: {hand_text(hand)}"
            if state.stock:
                yield (f"   stock: {len(state.stock)} cards face down, the third \"hand\" "
                       "of a two-player deal (KOPA-17)")
            yield render(state)
            yield from LEGEND
            last: State | None = None
            for item in _told_round(state, rng):
                if isinstance(item, State):
                    last = item
                else:
                    yield item
            assert last is not None
            state = last
            turns = None
        else:
            state, told = play_round(state, rng)
            turns = len(told)
        winner = next(s for s in range(n) if not state.hands[s])
        if turns is None:
            yield "   the table at the end of round 1:"
            yield render(state)
            yield from _wrap(f"   {_scoring(state, winner)}")
            yield f"   scores: {_scores(state.scores)}"
            if state.phase is not Phase.OVER and not 0 < rounds <= played:
                yield ("-- later rounds in short (the deal passes clockwise, KOPA-21): who "
                       "went out, the scoring")
        else:
            yield from _wrap(f"   round {played}: seat {dealer} deals, seat {leader} begins; "
                             f"seat {winner} goes out after {turns} turns, his last card "
                             "played (KOPA-19)")
            yield from _wrap(f"      {_scoring(state, winner)}")
            yield f"      scores: {_scores(state.scores)}"
        if state.phase is not Phase.OVER and 0 < rounds <= played:
            cut = f"{played} round{'' if played == 1 else 's'}"
            yield from _wrap(f"the demo stops after {cut} (--rounds N plays N, --rounds 0 the "
                             f"whole match); the match goes on until a seat reaches {target} "
                             "points (KOPA-22)")
            yield (f"result: no winner yet: cut after {cut}; scores {_scores(state.scores)} "
                   "(KOPA-20).")
            return
    result = outcome(state)
    assert result is not None
    names = " and ".join(f"seat {s}" for s in result.winners)
    verb = "win" if len(result.winners) > 1 else "wins"
    yield (f"match over after round {state.round}: {names} reached {target} points "
           f"({result.rule})")
    yield (f"result: {names} {verb}: the first to reach {target} points; scores "
           f"{_scores(result.scores)} ({result.rule}).")
