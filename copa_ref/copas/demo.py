"""A seeded Copas match between simple players, told trick by trick in plain words: the
first round by default, more rounds or the whole match on request."""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

from copa_ref.copas.rules import apply, legal_actions, new_game, outcome, sample_chance
from copa_ref.copas.state import Card, Config, Phase, Play, State, Suit, Trick
from copa_ref.core.wrap import wrap_told

__all__ = [
    "LEGEND",
    "WIDTH",
    "cut_lines",
    "demo",
    "describe_trick",
    "hand_text",
    "result_lines",
    "scoring",
    "simple_player",
]

LEGEND = """\
  Legend: a card is its rank, then its suit. Ranks from weakest to strongest:
  2 3 4 5 6 Q J K 7 A (as the source prints it: the queen below the jack, the seven, the
  "manilha", above the king). Suits: p paus (clubs), e espadas (spades), c copas (cups,
  hearts), o ouros (coins, diamonds). The leader plays any card; the others must follow
  the led suit if they can, else discard any card; the highest card of the led suit takes
  the trick and leads the next. Each copa taken is one minus point; whoever has 51 or more
  at the end of a round bursts and loses, the fewest minus points wins."""
"""What the demo prints under the first deal."""

WIDTH = 100
"""The demo wraps a longer line (a trick, a round's scoring) at this width, the rest of it
indented under the first."""

SUIT_NAMES = {Suit.PAUS: "paus", Suit.ESPADAS: "espadas", Suit.COPAS: "copas",
              Suit.OUROS: "ouros"}
"""The suits by name (``Card.suit``)."""


def simple_player(state: State, rng: random.Random) -> Play:
    """A simple player: follows with its lowest card, discards its highest copa if it can,
    and otherwise plays a random legal card."""
    plays = legal_actions(state)
    assert plays, "simple_player asked at a node where nobody plays"
    if state.trick:
        led = state.trick[0].suit
        following = [p for p in plays if isinstance(p, Play) and p.card.suit is led]
        if following:
            return min(following, key=lambda p: p.card.rank)
        copas = [p for p in plays if isinstance(p, Play) and p.card.suit is Suit.COPAS]
        if copas:
            return max(copas, key=lambda p: p.card.rank)
    choice = rng.choice(plays)
    assert isinstance(choice, Play)
    return choice


def hand_text(hand: tuple[Card, ...]) -> str:
    """A hand grouped by suit, each suit weakest card first."""
    groups = [" ".join(str(c) for c in sorted((c for c in hand if c.suit is suit),
                                              key=lambda c: c.rank))
              for suit in Suit]
    return "  ".join(g for g in groups if g)


def _copas(n: int) -> str:
    return f"{n} cop{'a' if n == 1 else 'as'}"


def describe_trick(number: int, trick: Trick) -> str:
    """One finished trick: who played what (discards marked), who took it with which card
    and why, and how many copas it held."""
    n = len(trick.cards)
    led = trick.cards[0].suit
    plays = []
    for i, card in enumerate(trick.cards):
        seat = (trick.leader + i) % n
        note = "" if card.suit is led else f" (no {SUIT_NAMES[led]}: a discard, COPAS-12)"
        plays.append(f"seat {seat} {'leads ' if i == 0 else ''}{card}{note}")
    best = trick.cards[(trick.winner - trick.leader) % n]
    why = f"the highest {SUIT_NAMES[led]}, the suit led (COPAS-13)"
    beaten = [c for c in trick.cards if c.suit is led and c is not best]
    if best.value[0] == "7" and any(c.value[0] in "QJK" for c in beaten):
        why = (f"the highest {SUIT_NAMES[led]}, the suit led (COPAS-13): the seven ranks "
               "above Q, J and K (COPAS-2)")
    elif best.value[0] == "J" and any(c.value[0] == "Q" for c in beaten):
        why = (f"the highest {SUIT_NAMES[led]}, the suit led (COPAS-13): the jack ranks "
               "above the queen (COPAS-2)")
    copas = sum(c.suit is Suit.COPAS for c in trick.cards)
    taken = f", {_copas(copas)}" if copas else ""
    return (f"   trick {number}: {', '.join(plays)} → seat {trick.winner} takes it with "
            f"{best}, {why}{taken}")


def scoring(after: State, pending: int | None) -> Iterator[str]:
    """The lines of a round's scoring (*after* is the state once the round is scored, its
    tricks still listed; *pending* the seat whose bonus round it was): each seat's points
    and the rule that booked them."""
    n = len(after.scores)
    took = [0] * n
    for trick in after.tricks:
        took[trick.winner] += sum(c.suit is Suit.COPAS for c in trick.cards)
    takers = {trick.winner for trick in after.tricks}
    if len(takers) == 1:
        yield f"   seat {takers.pop()} took every trick: every other seat books 10 (COPAS-19)"
    elif pending is not None and took[pending] == 0:
        yield f"   bonus round: seat {pending} took no copa, so its ten are erased (COPAS-18)"
    elif pending is not None:
        yield (f"   bonus round: seat {pending} took {_copas(took[pending])}, so it books its "
               f"ten as well: {10 + took[pending]} (COPAS-18)")
    if after.pending is not None:
        yield (f"   seat {after.pending} took all ten copas: nothing is booked to it now; the "
               "next round is its bonus round (COPAS-17)")
    booked = ", ".join(f"seat {s} +{b}" for s, b in enumerate(after.last_round))
    total = ", ".join(f"seat {s} {p}" for s, p in enumerate(after.scores))
    yield f"   scored, one minus point a copa taken (COPAS-16): {booked}; totals {total}"


def result_lines(state: State) -> Iterator[str]:
    """The result of a finished match, with its reason."""
    result = outcome(state)
    assert result is not None
    losers = " and ".join(f"seat {s} ({state.scores[s]})" for s in result.losers)
    yield (f"match over after round {state.round}: {losers} reached 51 or more minus points "
           "and burst (COPAS-20)")
    if result.winners:
        names = [f"seat {s}" for s in result.winners]
        winners = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        verb = "wins" if len(result.winners) == 1 else "share the win"
        yield (f"result: {winners} {verb}: the fewest minus points, "
               f"{state.scores[result.winners[0]]} (COPAS-21).")
    else:
        yield ("result: nobody wins: every seat is tied on the most minus points, so all "
               "lose (COPAS-21).")


def _wrap(line: str) -> list[str]:
    """*line* wrapped at :data:`WIDTH`."""
    return wrap_told(line, WIDTH)


def cut_lines(state: State) -> Iterator[str]:
    """The end of a demo cut short after ``state.round - 1`` rounds of a match still in
    progress: the minus points so far, in the one form of result line."""
    played = state.round - 1
    rounds = f"{played} round{'' if played == 1 else 's'}"
    points = ", ".join(f"seat {s} {p}" for s, p in enumerate(state.scores))
    yield from _wrap(f"the demo stops after {rounds} (--rounds N plays N, --rounds 0 the whole "
                     "match); the match goes on until a seat has 51 or more minus points "
                     "(COPAS-20)")
    yield (f"result: no winner yet: cut after {rounds}; minus points {points} "
           "(COPAS-16).")


def demo(seed: int, players: int | None = None, config: Config | None = None,
         rounds: int = 1) -> Iterator[str]:
    """Play a seeded match between simple players (4 of them, or *players*); yield it as
    lines of text: each deal, each trick, each round's scoring, the result. Only the first
    *rounds* rounds are played (default 1; 0 plays the whole match); a match cut short ends
    with the minus points so far (:func:`cut_lines`)."""
    rng = random.Random(seed)
    config = config or Config()
    if players is not None:
        config = attrs.evolve(config, players=players)
    state = new_game(config)
    n = state.config.players
    yield (f"Copas, seed {seed}: {n} simple players (each follows with its lowest card, "
           "discards its highest copa)")
    legend = True
    while state.phase is not Phase.OVER:
        before = state
        dealing = before.phase is Phase.DEAL
        action = sample_chance(before, rng) if dealing else simple_player(before, rng)
        state = after = apply(before, action)
        if dealing:
            bonus = (f", the bonus round of seat {before.pending}"
                     if before.pending is not None else "")
            yield f"-- round {before.round}, dealer seat {before.dealer}{bonus}"
            for seat, hand in enumerate(after.hands):
                yield f"   seat {seat}: {hand_text(hand)}"
            if legend:
                yield LEGEND
                legend = False
            yield f"   seat {after.leader} leads the first trick (COPAS-8)"
            continue
        if len(after.tricks) > len(before.tricks):
            yield from _wrap(describe_trick(len(after.tricks), after.tricks[-1]))
        if after.phase is not Phase.PLAY:
            for line in scoring(after, before.pending):
                yield from _wrap(line)
            if after.phase is not Phase.OVER and 0 < rounds <= after.round - 1:
                yield from cut_lines(after)
                return
    yield from result_lines(state)
