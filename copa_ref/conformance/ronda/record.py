"""RONDA's scenarios: hand-made traces for every rule of ``specs/ronda.md`` and each simpler
rule, seeded whole games for 2 to 5 players, counts and rejections.

Every hand-made trace is a script played from an arrangement given explicitly (its first
action), so any engine replays it without the reference's random generator: the policy
plays the script, and the trace ends with its last action.

Rule IDs refer to ``specs/ronda.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from copa_ref.conformance.ronda.diagnosis import check_public, legal_rule
from copa_ref.conformance.ronda.rules import CATALOGUE, READINGS, RULES, VIEW_RULES, diagnose
from copa_ref.conformance.vocabulary import CountSpec, GameRecord, RandomGames, Scenario
from copa_ref.core import JSON
from copa_ref.ronda import (
    GAME,
    Action,
    Add,
    Again,
    Arrange,
    Config,
    Keep,
    Lift,
    Observation,
    Phase,
    State,
    Stop,
)
from copa_ref.ronda.rules import apply, new_game
from copa_ref.ronda.state import PLACES

__all__ = ["RECORD", "events"]

DEFAULT = Config()
RELIFT = Config(relift_after_match=True)
MAX_FOUR = Config(max_beans=4)
NO_PENALTY = Config(penalty_beans=False)
NINE = Config(beans_per_player=9)
THREE = Config(players=3)
SIMPLER = Config(relift_after_match=True, max_beans=4, penalty_beans=False)

STAIRS = (4, 4, 3, 3, 2, 2, 1, 1, 0, 0)
"""The arrangement of the hand-made traces: the pairs side by side, fours at places 0, 1."""

FIRST_FIVES = ("lift:2 lift:3 add:2 keep:2 lift:0 add:0 keep:2 lift:1 add:2 keep:2 lift:0 "
               "add:2")
"""Seat 0 builds two fives from the stairs and sends one group to the middle."""
PENALTY = FIRST_FIVES + " lift:0 lift:1"
"""Seat 1 then mismatches while the black cup holds six: a penalty bean."""
SIX_OUT = PENALTY + " lift:4 lift:5 add:4 keep:4 lift:3 add:4 keep:4 lift:1 add:4 keep:4 " \
    "lift:0 add:4"
"""Seat 0 builds two more fives while the black cup holds beans: six out of the game."""
THE_END = SIX_OUT + " lift:0 lift:1 lift:6 lift:7 add:6 keep:6 lift:5 add:5"
"""Seat 1 mismatches (another penalty), seat 0 gives his last two beans and wins."""


def _actions(state: State, script: str) -> list[Any]:
    actions: list[Any] = []
    for word in script.split():
        kind, _, place = word.partition(":")
        seat = state.turn
        cup = int(place) if place else 0
        action: Action
        if kind == "lift":
            action = Lift(seat, cup)
        elif kind == "add":
            action = Add(seat, cup)
        elif kind == "keep":
            action = Keep(seat, cup)
        else:
            action = Stop(seat) if kind == "stop" else Again(seat)
        actions.append(action)
        state = apply(state, action)
    return actions


def _scripted(config: Config, cups: tuple[int, ...], script: str) -> tuple[Any, Any]:
    """The policy playing *script* after arranging *cups*, and the predicate firing on its
    last action."""
    state = new_game(config)
    plan: dict[State, Any] = {}
    actions = [Arrange(cups)]
    state_after = apply(state, actions[0])
    actions += _actions(state_after, script)
    for action in actions:
        plan[state] = action
        state = apply(state, action)
    length = len(actions)

    def policy(game: Any, position: State, rng: Any) -> Any:
        return plan.get(position)

    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return len(earlier) == length - 1

    return policy, fires


def _scenario(slug: str, description: str, rules: tuple[str, ...], config: Config,
              script: str, cups: tuple[int, ...] = STAIRS
              ) -> Scenario[State, Action, Config, Observation]:
    policy, fires = _scripted(config, cups, script)
    return Scenario(slug, description + f" (arrangement {list(cups)}, then: {script})",
                    rules, config, fires, seeds=range(1), policy=policy)


def _full_pair(before: State, action: Any) -> bool:
    return isinstance(action, Add) and all(
        before.cups[c] == before.config.max_beans for c in before.lifted)


def events(before: State, action: Any, after: State) -> frozenset[str]:
    """The rules one RONDA step exercises."""
    rules = {"RONDA-14", "RONDA-15"}
    if isinstance(action, Arrange):
        return frozenset(rules | {"RONDA-1", "RONDA-2", "RONDA-3", "RONDA-4"})
    rules.add("RONDA-4")
    if isinstance(action, Lift):
        rules.add("RONDA-5")
        if len(before.lifted) == 1:
            rules.add("RONDA-7" if after.phase is Phase.ADD else "RONDA-6")
            if after.black < before.black:
                rules.add("RONDA-11")
            if before.shown is None:
                rules.add("RONDA-8")
    elif isinstance(action, Add):
        rules.add("RONDA-7")
        if _full_pair(before, action):
            rules.add("RONDA-10")
            if not before.config.penalty_beans:
                rules.add("RONDA-18")
            elif before.black > 0:
                rules.add("RONDA-12")
            if before.config.max_beans == 4:
                rules.add("RONDA-17")
    elif isinstance(action, Stop):
        rules.add("RONDA-9")
    elif isinstance(action, Keep):
        rules.add("RONDA-8")
    elif isinstance(action, Again):
        rules.add("RONDA-16")
    if after.phase is Phase.OVER:
        rules.add("RONDA-13")
    return frozenset(rules)


def candidates(game: Any, state: State) -> Iterator[tuple[str, str, JSON]]:
    """RONDA's own candidate refusals: lifting a lifted cup or a place off the circle,
    adding to or keeping a cup that is not open, a wrong arrangement."""
    seat = state.turn
    if state.phase is Phase.SET_UP:
        yield ("arrangement-not-the-counts", "an arrangement of 0,0,1,1,2,2,3,3,4,5",
               {"type": "arrange", "cups": [0, 0, 1, 1, 2, 2, 3, 3, 4, 5]})
        yield ("arrangement-wrong-twenty", "twenty beans, but not 1,1,2,2,3,3,4,4,0,0",
               {"type": "arrange", "cups": [0, 0, 0, 2, 2, 2, 3, 3, 4, 4]})
        yield ("arrangement-nine-places", "an arrangement of nine places",
               {"type": "arrange", "cups": [0, 1, 1, 2, 2, 3, 3, 4, 4]})
        return
    if state.phase is Phase.OVER:
        return
    covered = next(c for c in range(PLACES) if c not in state.lifted)
    if state.phase is Phase.LIFT:
        if state.lifted:
            yield ("lift-lifted-cup", "the open cup lifted again",
                   {"type": "lift", "seat": seat, "cup": state.lifted[0]})
        yield ("lift-no-place", "a lift of place 10 (there are ten places, 0 to 9)",
               {"type": "lift", "seat": seat, "cup": PLACES})
    if state.phase is Phase.ADD:
        yield ("add-to-unmatched-cup", f"a bean added to the covered cup at {covered}",
               {"type": "add", "seat": seat, "cup": covered})
    if state.phase is Phase.CHOOSE and not state.config.relift_after_match:
        yield ("keep-covered-cup", f"the covered cup at {covered} kept open",
               {"type": "keep", "seat": seat, "cup": covered})
        yield ("again-without-simpler-rule-1", "both covered to lift two anew",
               {"type": "again", "seat": seat})
    if state.phase is Phase.CHOOSE and state.config.relift_after_match:
        yield ("keep-under-simpler-rule-1", "one group kept open under simpler rule 1",
               {"type": "keep", "seat": seat, "cup": state.lifted[0]})


RECORD: GameRecord[State, Action, Config, Observation] = GameRecord(
    game=GAME,
    random_games=(
        RandomGames("2p", DEFAULT, (12,)),
        RandomGames("3p", THREE, (49,)),
        RandomGames("4p", Config(players=4), (44,)),
        RandomGames("5p", Config(players=5), (23,)),
        RandomGames("2p-simpler-rules", SIMPLER, (1,)),
    ),
    whole_game_rules=("RONDA-1", "RONDA-2", "RONDA-3", "RONDA-4", "RONDA-5", "RONDA-6",
                      "RONDA-7", "RONDA-13", "RONDA-14", "RONDA-15"),
    scenarios=(
        _scenario("first-pair-mismatch", "Two different numbers: both covered, the turn "
                  "passes; the second count stays shown", ("RONDA-5", "RONDA-6", "RONDA-14"),
                  DEFAULT, "lift:0 lift:2"),
        _scenario("first-pair-match", "Two threes: the player adds a bean to one (four)",
                  ("RONDA-5", "RONDA-7"), DEFAULT, "lift:2 lift:3 add:2"),
        _scenario("empty-cups-match", "Two empty cups match (0 = 0): a bean goes onto one",
                  ("RONDA-7",), DEFAULT, "lift:8 lift:9 add:8"),
        _scenario("chain-of-matches", "The chain: keep the four, find a four, add; keep the "
                  "five, lift a three: the turn ends", ("RONDA-6", "RONDA-7", "RONDA-8"),
                  DEFAULT, "lift:2 lift:3 add:2 keep:2 lift:0 add:0 keep:0 lift:3"),
        _scenario("new-cup-just-covered", "The new cup may be the one just covered (it can "
                  "only mismatch)", ("RONDA-6", "RONDA-8"), DEFAULT,
                  "lift:2 lift:3 add:2 keep:2 lift:3"),
        _scenario("missing-a-go", "After adding, the player stops: both covered, the turn "
                  "passes", ("RONDA-9",), DEFAULT, "lift:2 lift:3 add:2 stop"),
        _scenario("two-fives-black-cup-empty", "Two groups of five: one and the added bean "
                  "(6) into the empty black cup; that place left empty; the turn ends",
                  ("RONDA-8", "RONDA-10"), DEFAULT, FIRST_FIVES),
        _scenario("penalty-bean", "A mismatch while the black cup holds beans: one penalty "
                  "bean to the player", ("RONDA-6", "RONDA-11"), DEFAULT, PENALTY),
        _scenario("penalty-bean-in-a-chain", "A mismatch later in a chain while the black "
                  "cup holds beans costs a penalty bean too (RONDA-Q5)",
                  ("RONDA-8", "RONDA-11"), DEFAULT,
                  FIRST_FIVES + " lift:6 lift:7 add:6 keep:6 lift:0"),
        _scenario("two-fives-black-cup-full", "Two groups of five while the black cup holds "
                  "beans: the six leave the game", ("RONDA-10", "RONDA-12"), DEFAULT, SIX_OUT),
        _scenario("the-end", "A player gives his last bean: he wins at once",
                  ("RONDA-11", "RONDA-13"), DEFAULT, THE_END),
        _scenario("nine-beans-each", "With nine beans each (RONDA-Q1)", ("RONDA-2",), NINE,
                  "lift:2 lift:3 add:2 stop"),
        _scenario("three-players-clockwise", "Three players take turns clockwise",
                  ("RONDA-4", "RONDA-6"), THREE, "lift:0 lift:2 lift:0 lift:2 lift:0 lift:2"),
        _scenario("simpler-rule-1-lift-two-again", "Simpler rule 1: after a match and the "
                  "bean, both covered and two lifted anew; then missing a go", ("RONDA-16",
                                                                               "RONDA-9"),
                  RELIFT, "lift:2 lift:3 add:2 again lift:8 lift:9 add:9 stop"),
        _scenario("simpler-rule-2-two-fours", "Simpler rule 2: two fours and the bean (5) "
                  "go to the black cup", ("RONDA-10", "RONDA-17"), MAX_FOUR,
                  "lift:0 lift:1 add:0"),
        _scenario("simpler-rule-2-penalty", "Simpler rule 2 with penalty beans: a mismatch "
                  "takes one of the five", ("RONDA-11", "RONDA-17"), MAX_FOUR,
                  "lift:0 lift:1 add:0 lift:1 lift:2"),
        _scenario("simpler-rule-3-no-penalty", "Simpler rule 3: two fives leave the game with "
                  "the bean; no penalty follows", ("RONDA-10", "RONDA-18"), NO_PENALTY,
                  FIRST_FIVES + " lift:0 lift:1"),
    ),
    counts=(
        CountSpec("after-arrangement", "The first lifts after the arrangement",
                  ("RONDA-5", "RONDA-6", "RONDA-7"), DEFAULT, 3,
                  lambda b, a, af, e: isinstance(a, Arrange), seeds=range(1)),
        CountSpec("match-pending", "A match pending: add, then stop or go on",
                  ("RONDA-7", "RONDA-8", "RONDA-9"), DEFAULT, 3,
                  lambda b, a, af, e: af.phase is Phase.ADD),
        CountSpec("match-pending-simpler-rule-1", "A match pending under simpler rule 1",
                  ("RONDA-16",), RELIFT, 3, lambda b, a, af, e: af.phase is Phase.ADD),
    ),
    events=events,
    check_public=check_public,
    candidates=candidates,
    rejection_games=3,
    rejections_per_rule=12,
    rules=RULES,
    view_rules=VIEW_RULES,
    readings=READINGS,
    catalogue=CATALOGUE,
    bad_configs=({"players": 1}, {"beans_per_player": 8}),
    diagnose=diagnose,
    config_rule=lambda _config: "RONDA-1",
    legal_rule=legal_rule,
)
"""RONDA's conformance record."""
