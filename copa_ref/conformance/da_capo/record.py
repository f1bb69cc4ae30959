"""DA CAPO's scenarios: the tie patterns, the last player, the target and the end rules of
``specs/da_capo.md``, found by search over seeded random matches.

Rule IDs refer to ``specs/da_capo.md``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from copa_ref.conformance.da_capo.diagnosis import legal_rule
from copa_ref.conformance.da_capo.rules import CATALOGUE, READINGS, RULES, VIEW_RULES, diagnose
from copa_ref.conformance.vocabulary import CountSpec, GameRecord, RandomGames, Scenario
from copa_ref.da_capo import GAME, Action, Config, State
from copa_ref.da_capo.state import TargetReached, TieBreak, TieResolution

__all__ = ["RECORD"]


def _cfg(players: int, **options: Any) -> Config:
    return Config(players=players, **options)


def _levels(bids: tuple[int | None, ...]) -> list[int]:
    """The multiplicity of each bid level, from the highest level down."""
    counts = Counter(b for b in bids if b is not None)
    return [counts[level] for level in sorted(counts, reverse=True)]


def events(before: State, action: Any, after: State) -> frozenset[str]:
    """The rules one DA CAPO round exercises."""
    rules = {"DACAPO-3", "DACAPO-4", "DACAPO-5", "DACAPO-6", "DACAPO-7", "DACAPO-8"}
    played = after.rounds[-1]
    levels = _levels(played.bids)
    if played.winner is not None:
        rules |= {"DACAPO-9", "DACAPO-10"}
    else:
        rules |= {"DACAPO-10", "DACAPO-12"}
    if levels and levels[0] > 1:
        rules.add("DACAPO-11")
    if any(b is None for b in played.bids) or 0 in after.reserves:
        rules.add("DACAPO-13")
    if after.last_step is not None and before.last_step is None:
        rules.add("DACAPO-14")
    if after.finisher is not None:
        rules.add("DACAPO-15")
    return frozenset(rules)


def _round(test: Any) -> Any:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        played = after.rounds[-1]
        return bool(test(_levels(played.bids), played, before, after))
    return fires


def _outcome_rule(rule: str, test: Any = None) -> Any:
    from copa_ref.da_capo import outcome

    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        result = outcome(after)
        return result is not None and result.rule == rule and (test is None or test(result))
    return fires


def _bids(state: State, **changed: int | None) -> dict[str, Any]:
    """A round in which every seat with beans bids 1, but for the seats *changed* names
    (``s0=9``: seat 0 bids 9)."""
    bids: list[int | None] = [1 if held else None for held in state.reserves]
    for name, bid in changed.items():
        bids[int(name[1:])] = bid
    return {"type": "bids", "bids": bids}


def candidates(game: Any, state: State) -> Any:
    """DA CAPO's own candidate refusals: a seat that holds beans sits the round out; and
    actions breaking two rules, one for each step of the refusal order of
    ``specs/da_capo.md`` (the end before a lone bid and before the list's length, the
    length before the bids, seat by seat in seat order, a seat that is out before its
    bid's value, the value before the reserve)."""
    reserves = state.reserves
    players = len(reserves)
    active = [seat for seat, held in enumerate(reserves) if held]
    if state.finisher is not None or not active:
        yield ("order-over-before-lone-bid", "a lone bid of seat 0 after the match is over",
               {"type": "bid", "seat": 0, "beans": 1})
        yield ("order-over-before-length", "one bid too few after the match is over",
               {"type": "bids", "bids": [1] * (players - 1)})
        return
    yield ("order-length-before-bids", "one bid too few, and bids of 9",
           {"type": "bids", "bids": [9] * (players - 1)})
    if len(active) >= 2:
        first, second = active[0], active[1]
        yield ("null-bid-with-beans", f"seat {first} holds beans but bids null",
               _bids(state, **{f"s{first}": None}))
        yield ("order-earlier-seat-first", f"seat {first} bids 9 and seat {second}, who holds "
               "beans, bids null", _bids(state, **{f"s{first}": 9, f"s{second}": None}))
    out = [seat for seat, held in enumerate(reserves) if not held]
    if out:
        yield ("order-out-before-value", f"seat {out[0]}, out of the match, bids 9",
               _bids(state, **{f"s{out[0]}": 9}))
    low = [seat for seat in active if reserves[seat] < 5]
    if low:
        yield ("order-value-before-reserve", f"seat {low[0]} holds {reserves[low[0]]} beans "
               "and bids 6", _bids(state, **{f"s{low[0]}": 6}))


RECORD: GameRecord[State, Action, Config, State] = GameRecord(
    game=GAME,
    random_games=(
        RandomGames("2p", _cfg(2), (1, 2, 3)),
        RandomGames("3p", _cfg(3), (1, 2, 3)),
        RandomGames("4p", _cfg(4), (1, 2)),
        RandomGames("5p", _cfg(5), (1, 2)),
        RandomGames("3p-two-level", _cfg(3, tie_resolution=TieResolution.TWO_LEVEL), (1,)),
        RandomGames("2p-line-full", _cfg(2, target_reached_when=TargetReached.LINE_FULL), (1,)),
        RandomGames("3p-beans-spent", _cfg(3, tie_break=TieBreak.BEANS_SPENT), (1,)),
    ),
    whole_game_rules=("DACAPO-1", "DACAPO-2", "DACAPO-3", "DACAPO-4", "DACAPO-5", "DACAPO-6",
                      "DACAPO-7", "DACAPO-8"),
    scenarios=(
        Scenario("tie-at-top-second-wins",
                 "The highest bid is tied (as 5, 5, 3): the tied bids cancel and the single "
                 "next level down wins the round", ("DACAPO-9", "DACAPO-10", "DACAPO-11"),
                 _cfg(3), _round(lambda lv, r, b, a: lv[0] > 1 and r.winner is not None)),
        Scenario("two-tied-levels-cascade",
                 "The two highest levels are both tied (as 5, 5, 3, 3, 1): under the cascade "
                 "reading the next single level still wins", ("DACAPO-11",), _cfg(5),
                 _round(lambda lv, r, b, a: len(lv) > 2 and lv[0] > 1 and lv[1] > 1
                        and r.winner is not None)),
        Scenario("two-tied-levels-two-level",
                 "The two highest levels are both tied under the two-level reading "
                 "(DACAPO-Q3): nobody advances", ("DACAPO-11", "DACAPO-12"),
                 _cfg(5, tie_resolution=TieResolution.TWO_LEVEL),
                 _round(lambda lv, r, b, a: len(lv) > 2 and lv[0] > 1 and lv[1] > 1)),
        Scenario("all-tied-nobody-advances",
                 "Every bid is matched (as 4, 4): nobody advances and every bean goes to the "
                 "box", ("DACAPO-10", "DACAPO-12"), _cfg(2),
                 _round(lambda lv, r, b, a: r.winner is None)),
        Scenario("player-out", "A player spends his last bean and is out; the others bid on "
                 "without him", ("DACAPO-13",), _cfg(3),
                 _round(lambda lv, r, b, a: sum(1 for x in a.reserves if x) >= 2
                        and 0 in a.reserves), extra=1),
        Scenario("last-player-step", "One player is left with beans: one bean into his next "
                 "cup, the rest to the box, automatically", ("DACAPO-14",), _cfg(3),
                 _round(lambda lv, r, b, a: a.last_step is not None and a.last_step.beans > 1)),
        Scenario("last-player-step-into-target", "One player is left with beans and his "
                 "line is full: the last-player step puts his bean into the target cup and he "
                 "wins at once", ("DACAPO-14", "DACAPO-15"), _cfg(2),
                 _round(lambda lv, r, b, a: a.last_step is not None
                        and a.finisher == a.last_step.seat), seeds=range(2000)),
        Scenario("everyone-out-at-once", "The last players all run out in the same round: "
                 "no last-player step (DACAPO-Q7)", ("DACAPO-13", "DACAPO-16"), _cfg(2),
                 _round(lambda lv, r, b, a: not any(a.reserves) and a.last_step is None
                        and a.finisher is None)),
        Scenario("target-reached", "A player with a full line advances into the target cup "
                 "and wins at once", ("DACAPO-15",), _cfg(2), _outcome_rule("DACAPO-15")),
        Scenario("target-reached-line-full", "Under the line-full reading (DACAPO-Q4) "
                 "filling the last cup of the line wins", ("DACAPO-15",),
                 _cfg(2, target_reached_when=TargetReached.LINE_FULL),
                 _outcome_rule("DACAPO-15")),
        Scenario("furthest-advance-wins", "All reserves used up: the furthest advance wins",
                 ("DACAPO-16",), _cfg(3), _outcome_rule("DACAPO-16")),
        Scenario("equal-advance-fewest-beans", "Equal advance: the player whose cups hold "
                 "fewer beans wins", ("DACAPO-17",), _cfg(3),
                 _outcome_rule("DACAPO-17", lambda o: len(o.winners) == 1)),
        Scenario("equal-advance-shared-win", "Equal advance and equal beans used: a shared win",
                 ("DACAPO-17",), _cfg(3), _outcome_rule("DACAPO-17", lambda o: len(o.winners) > 1)),
        Scenario("equal-advance-beans-spent", "Equal advance under the beans-spent reading "
                 "(DACAPO-Q6)", ("DACAPO-17",), _cfg(3, tie_break=TieBreak.BEANS_SPENT),
                 _outcome_rule("DACAPO-17")),
    ),
    counts=(
        CountSpec("initial-2p", "The initial position, two players",
                  ("DACAPO-4", "DACAPO-6"), _cfg(2), 2),
        CountSpec("initial-3p", "The initial position, three players",
                  ("DACAPO-4", "DACAPO-6"), _cfg(3), 1),
        CountSpec("low-reserves-2p", "A reserve under 5 limits the bids",
                  ("DACAPO-7", "DACAPO-13"), _cfg(2), 2,
                  lambda b, a, af, e: all(2 <= r < 5 for r in af.reserves)),
    ),
    events=events,
    candidates=candidates,
    rejection_games=6,
    rules=RULES,
    view_rules=VIEW_RULES,
    readings=READINGS,
    catalogue=CATALOGUE,
    diagnose=diagnose,
    config_rule=lambda _config: "DACAPO-1",
    legal_rule=legal_rule,
    bad_configs=({"players": 1}, {"players": 6}),
)
"""DA CAPO's conformance record."""
