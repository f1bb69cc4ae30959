"""Kopa's scenarios: every pile start, building up and down, the 8, a pass with and without a
playable card, the two-player stock and its draws, the end of a round and of the match at 20
and 30, and whole matches for 2 to 5 players.

Uniformly random players pass so often (and pay for it) that their matches need not end
(KOPA-Q14), so every trace here is played by a simple player (a legal card when there is
one) from a seed, or from a deal arranged on purpose. Two simple players' matches do not end
either (the draws cost more than a round's winner gains), so the two-player whole matches
are the arranged ones that reach 20 and 30 in a round (``match-end-20``, ``match-end-30``);
three to five players play seeded whole matches. Rule IDs refer to ``specs/kopa.md``.
"""

from __future__ import annotations

import random
from typing import Any

from copa_ref.conformance.kopa.diagnosis import (
    check_public,
    config_rule,
    could_play,
    legal_rule,
    round_ends,
)
from copa_ref.conformance.kopa.rules import CATALOGUE, READINGS, RULES, VIEW_RULES, diagnose
from copa_ref.conformance.predicates import first_deal, first_of, step_into
from copa_ref.conformance.vocabulary import CountSpec, GameRecord, Scenario
from copa_ref.core import Game, MoverKind
from copa_ref.kopa import (
    GAME,
    Action,
    Config,
    Deal,
    DeclinedDraw,
    FalsePass,
    Observation,
    Pass,
    Phase,
    Play,
    State,
)
from copa_ref.kopa.demo import simple_player
from copa_ref.kopa.rules import legal_cards

__all__ = ["RECORD"]

KopaGame = Game[State, Action, Config, Observation]


def _run(suit: str, numbers: range) -> list[str]:
    return [f"{suit}{n}" for n in numbers]


LOW_RUNS = _run("S", range(1, 8)) + _run("V", range(1, 8)) + _run("G", range(1, 7))
HIGH_RUNS = _run("S", range(9, 16)) + _run("V", range(9, 16)) + _run("G", range(10, 16))
MIDDLE_AND_OR = ["G7", "G8", "G9", "S8", "V8", *_run("O", range(1, 16))]
"""Three players: seat 0 the low runs, seat 1 the high runs, seat 2 the middle and Or: every
8 comes down in the first round."""

TWO_SEAT1 = _run("S", range(9, 15)) + _run("V", range(9, 15)) + _run("G", range(9, 15)) + [
    "S8", "V8"]
TWO_STOCK = [*_run("O", range(2, 16)), "O1", "G7", "G8", "G15", "S15", "V15"]
"""Two players: seat 0 plays out its low runs alone while seat 1 can play nothing and draws
cards it cannot play (then the Or 15 and the Or 1, which it can)."""


def _arranged(hands: list[list[str]]) -> Any:
    """A policy dealing round 1 as *hands* (in seat order, the stock last with two players)."""

    def deal(game: KopaGame, state: State) -> Action:
        return game.action_from_json({"type": "deal", "hands": hands})
    return first_deal(deal)


def _simple(game: KopaGame, state: State, rng: random.Random) -> Action | None:
    """A simple player: a legal card when it has one (chance is sampled from the seed)."""
    if game.to_move(state).kind is not MoverKind.SEAT:
        return None
    return simple_player(state, rng)


def _passer(game: KopaGame, state: State, rng: random.Random) -> Action | None:
    """Passes now and then (a third of its turns), else plays like the simple player."""
    if game.to_move(state).kind is not MoverKind.SEAT:
        return None
    if rng.random() < 1 / 3:
        return Pass(state.turn) if Pass(state.turn) in game.legal_actions(state, None) else None
    return simple_player(state, rng)


RUNS = _arranged([LOW_RUNS, HIGH_RUNS, MIDDLE_AND_OR])
TWO = _arranged([LOW_RUNS, TWO_SEAT1, TWO_STOCK])


def _number(card: Any) -> int:
    return int(card.value[1:])


def _fires_play(test: Any) -> Any:
    def fires(before: State, action: Action, after: State, earlier: tuple[Action, ...]) -> bool:
        return isinstance(action, Play) and bool(test(before, action))
    return fires


def _fires_pass(test: Any) -> Any:
    def fires(before: State, action: Action, after: State, earlier: tuple[Action, ...]) -> bool:
        return isinstance(action, Pass) and bool(test(before, after))
    return fires


def _round_ends(before: State, action: Action, after: State, earlier: tuple[Action, ...]
                ) -> bool:
    return round_ends(before.phase, after.phase)


_over = step_into(Phase.OVER)


def events(before: State, action: Action, after: State) -> frozenset[str]:
    """The rules one Kopa step exercises."""
    rules: set[str] = set()
    n = before.config.players
    if isinstance(action, Deal):
        rules |= {"KOPA-1", "KOPA-2", "KOPA-4", "KOPA-5"}
        rules.add("KOPA-17" if n == 2 else "KOPA-4")
        rules.add("KOPA-3" if before.round == 1 else "KOPA-21")
        return frozenset(rules)
    rules |= {"KOPA-6"}
    if isinstance(action, Play):
        rules |= {"KOPA-7", "KOPA-14"}
        number = _number(action.card)
        if number in (1, 15):
            rules.add("KOPA-8")
        elif number == 8:
            rules.add("KOPA-13")
        else:
            rules |= {"KOPA-9" if number < 8 else "KOPA-10", "KOPA-11", "KOPA-12"}
        if before.phase is Phase.DRAWN:
            rules.add("KOPA-18")
    else:
        rules.add("KOPA-15")
        if before.phase is Phase.DRAWN or (n == 2 and before.stock):
            rules |= {"KOPA-17", "KOPA-18"}
        if before.phase is Phase.PLAY and could_play(before):
            rules.add("KOPA-16")
    if round_ends(before.phase, after.phase):
        rules |= {"KOPA-19", "KOPA-20"}
        rules.add("KOPA-22" if after.phase is Phase.OVER else "KOPA-21")
    return frozenset(rules)


def candidates(game: KopaGame, state: State) -> Any:
    """Every card of the mover's hand the table does not take (a skipped number, a wrong
    suit, an 8 too early, a pile started wrongly), a card another seat holds, and after a
    playable draw another card than the drawn one."""
    mover = state.turn
    if state.phase is Phase.DRAWN:
        for card in state.hands[mover]:
            if card is not state.drawn:
                yield ("not-the-drawn-card", f"seat {mover} plays {card.value}, not the card "
                       "it drew", {"type": "play", "seat": mover, "card": card.value})
                return
    if state.phase is not Phase.PLAY:
        return
    legal = set(legal_cards(state.hands[mover], state.piles, state.eights))
    for card in state.hands[mover]:
        if card not in legal:
            yield ("card-not-taken", f"seat {mover} plays {card.value} from its hand",
                   {"type": "play", "seat": mover, "card": card.value})
    other = state.hands[(mover + 1) % len(state.hands)]
    if other:
        yield ("card-not-held", f"seat {mover} plays {other[0].value}, which it does not hold",
               {"type": "play", "seat": mover, "card": other[0].value})


TWO_P = Config(players=2)

RECORD: GameRecord[State, Action, Config, Observation] = GameRecord(
    game=GAME,
    random_games=(),
    whole_game_rules=("KOPA-1", "KOPA-2", "KOPA-3", "KOPA-4", "KOPA-5", "KOPA-6", "KOPA-7",
                      "KOPA-14", "KOPA-19", "KOPA-20", "KOPA-22"),
    scenarios=(
        Scenario("start-up-pile", "The first player begins with a 1, starting its suit's "
                 "up-pile", ("KOPA-5", "KOPA-8"), Config(),
                 _fires_play(lambda b, a: _number(a.card) == 1), policy=_simple),
        Scenario("start-down-pile", "A 15 starts its suit's down-pile", ("KOPA-8",), Config(),
                 _fires_play(lambda b, a: _number(a.card) == 15), policy=_simple),
        Scenario("build-up", "A card builds up on its suit's up-pile", ("KOPA-9", "KOPA-12"),
                 Config(), _fires_play(lambda b, a: 2 <= _number(a.card) <= 7), policy=_simple),
        Scenario("build-down", "A card builds down on its suit's down-pile",
                 ("KOPA-10", "KOPA-12"), Config(),
                 _fires_play(lambda b, a: 9 <= _number(a.card) <= 14), policy=_simple),
        Scenario("up-pile-to-seven", "An up-pile reaches its 7 (arranged deal)",
                 ("KOPA-9", "KOPA-11"), Config(),
                 _fires_play(lambda b, a: _number(a.card) == 7), policy=first_of(RUNS, _simple)),
        Scenario("eight-across", "An 8 is laid across its suit's 7 and 9, completing the suit "
                 "(arranged deal)", ("KOPA-13",), Config(),
                 _fires_play(lambda b, a: _number(a.card) == 8), policy=first_of(RUNS, _simple)),
        Scenario("pass-without-a-card", "A player who cannot play passes for one point",
                 ("KOPA-15",), Config(), _fires_pass(lambda b, a: not could_play(b)),
                 policy=_simple),
        Scenario("pass-with-a-card", "A player passes while holding a playable card: 1 + 4 "
                 "points", ("KOPA-15", "KOPA-16"), Config(),
                 _fires_pass(lambda b, a: b.phase is Phase.PLAY and could_play(b)),
                 policy=_passer),
        Scenario("false-pass-refused", "Under false_pass=refused (KOPA-Q3) a pass comes only "
                 "when no card is playable", ("KOPA-16",),
                 Config(false_pass=FalsePass.REFUSED), _fires_pass(lambda b, a: True),
                 policy=_simple),
        Scenario("two-player-draw-kept", "Two players: a player who cannot play draws from the "
                 "stock, cannot play the card, keeps it for one point (arranged deal)",
                 ("KOPA-17", "KOPA-18"), TWO_P, _fires_pass(lambda b, a: bool(b.stock)),
                 policy=first_of(TWO, _simple)),
        Scenario("two-player-draw-played", "Two players: the drawn card is playable and is "
                 "played at once (arranged deal)", ("KOPA-18",), TWO_P,
                 lambda b, a, af, e: b.phase is Phase.DRAWN and isinstance(a, Play),
                 policy=first_of(TWO, _simple)),
        Scenario("two-player-draw-declined", "Two players: a playable drawn card is kept, for "
                 "one point (KOPA-Q6)", ("KOPA-18",), TWO_P,
                 lambda b, a, af, e: b.phase is Phase.DRAWN and isinstance(a, Pass),
                 policy=_passer),
        Scenario("two-player-draw-declined-free", "As before under declined_draw=free",
                 ("KOPA-18",), Config(players=2, declined_draw=DeclinedDraw.FREE),
                 lambda b, a, af, e: b.phase is Phase.DRAWN and isinstance(a, Pass),
                 policy=_passer),
        Scenario("two-player-empty-stock", "Two players: with the stock empty, a player who "
                 "cannot play just takes the point", ("KOPA-15", "KOPA-18"), TWO_P,
                 _fires_pass(lambda b, a: not b.stock and b.phase is Phase.PLAY),
                 policy=_simple),
        Scenario("round-end", "A player plays the last card: the round ends and is scored, "
                 "and the deal passes clockwise", ("KOPA-19", "KOPA-20", "KOPA-21"), Config(),
                 _round_ends, extra=1, policy=_simple),
        Scenario("match-end-20", "Two players: seat 0 plays out its hand while seat 1 draws; "
                 "seat 0 reaches 20 in one round and wins (arranged deal)",
                 ("KOPA-20", "KOPA-22"), TWO_P, _over, policy=first_of(TWO, _simple)),
        Scenario("match-end-30", "The same under target=30: the longer game ends at 30",
                 ("KOPA-22",), Config(players=2, target=30), _over,
                 policy=first_of(TWO, _simple)),
        Scenario("match-3p-seed-3", "A whole three-player match between simple players",
                 ("KOPA-21", "KOPA-22"), Config(), _over, seeds=range(3, 4), policy=_simple),
        Scenario("match-4p-seed-3", "A whole four-player match between simple players",
                 ("KOPA-21", "KOPA-22"), Config(players=4), _over, seeds=range(3, 4),
                 policy=_simple),
        Scenario("match-5p-seed-2", "A whole five-player match between simple players",
                 ("KOPA-21", "KOPA-22"), Config(players=5), _over, seeds=range(2, 3),
                 policy=_simple),
    ),
    counts=(
        CountSpec("opening-3p", "The first turns after a seeded deal",
                  ("KOPA-5", "KOPA-8", "KOPA-15"), Config(), 3,
                  lambda b, a, af, e: b.phase is Phase.DEAL),
        CountSpec("opening-2p", "The first turns of two players (passes draw)",
                  ("KOPA-17", "KOPA-18"), TWO_P, 3,
                  lambda b, a, af, e: b.phase is Phase.DEAL),
        CountSpec("mid-round-4p", "Twelve turns into a four-player round",
                  ("KOPA-9", "KOPA-10", "KOPA-12"), Config(players=4), 3,
                  lambda b, a, af, e: sum(len(p) for p in af.piles) >= 8),
    ),
    events=events,
    check_public=check_public,
    candidates=candidates,
    rejection_games=0,
    rules=RULES,
    view_rules=VIEW_RULES,
    readings=READINGS,
    catalogue=CATALOGUE,
    bad_configs=({"players": 6}, {"target": 25}),
    diagnose=diagnose,
    config_rule=config_rule,
    legal_rule=legal_rule,
)
"""Kopa's scenarios."""
