"""KALA's scenarios: the edge cases of ``specs/kala.md``, found by search over seeded games.

Rule IDs refer to ``specs/kala.md``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from copa_ref.conformance.kala.diagnosis import legal_rule
from copa_ref.conformance.kala.rules import CATALOGUE, READINGS, RULES, VIEW_RULES, diagnose
from copa_ref.conformance.predicates import step_into
from copa_ref.conformance.vocabulary import CountSpec, GameRecord, RandomGames, Scenario
from copa_ref.core import JSON
from copa_ref.kala import GAME, Action, Bonus, Config, Harvest, Phase, Place, Sow, State
from copa_ref.kala.paths import DIRECTIONS, PATHS, on_board, turns
from copa_ref.kala.state import BonusRule, EndCheck, HarvestRule

__all__ = ["RECORD"]

DEFAULT = Config()
PATHS_FROM = sorted({start for start, _ in PATHS})
MANDATORY_HARVEST = Config(harvest=HarvestRule.MANDATORY)
OPTIONAL_BONUS = Config(bonus=BonusRule.OPTIONAL)
START_OF_TURN = Config(end_check=EndCheck.START_OF_TURN)
SECOND_FIRST = Config(first_player=1)


def _bonus_sow(before: State, action: Any) -> bool:
    return isinstance(action, Sow) and before.phase is Phase.BONUS_SOW


def events(before: State, action: Any, after: State) -> frozenset[str]:
    """The rules one KALA step exercises."""
    rules = {"KALA-11", "KALA-18"}
    seat, other = before.turn, 1 - before.turn
    if isinstance(action, Sow):
        rules |= {"KALA-5", "KALA-6", "KALA-7"}
        rules.add("KALA-13" if before.phase is Phase.BONUS_SOW else "KALA-4")
        if before.cups[other] in action.path[1:]:
            rules.add("KALA-9")
        if action.path[-1] == before.cups[other]:
            rules.add("KALA-10")
        if after.cups[seat] != before.cups[seat]:
            rules.add("KALA-8")
        if _bonus_sow(before, action) and len(action.path) < before.cup_beans[seat]:
            rules.add("KALA-14")
        if after.phase in (Phase.BONUS, Phase.BONUS_SOW) or _bonus_sow(before, action):
            rules.add("KALA-12")
    if isinstance(action, Harvest):
        rules |= {"KALA-15", "KALA-16"}
    if isinstance(action, Place):
        rules |= {"KALA-8", "KALA-10"}
    if isinstance(action, Bonus):
        rules.add("KALA-12")
    if after.bank > before.bank:
        rules.add("KALA-15")
    if after.phase is Phase.OVER:
        rules.add("KALA-17")
    return frozenset(rules)


def _step(kind: type, test: Any = None) -> Any:
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return isinstance(action, kind) and (test is None or test(before, action, after, earlier))
    return fires


def _excess(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return _bonus_sow(before, action) and before.cup_beans[before.turn] > len(action.path)


def _bonus_of(n: int) -> Any:
    def test(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return _bonus_sow(before, action) and before.cup_beans[before.turn] == len(
            action.path) == n
    return test


def _turning_bonus_after_turning_sowing(before: State, action: Any, after: State,
                                         earlier: tuple[Any, ...]) -> bool:
    if not (_bonus_sow(before, action) and turns(action.path) == 1):
        return False
    regular = next(a for a in reversed(earlier) if isinstance(a, Sow))
    return turns(regular.path) == 1


def _opponent_cup_harvest(before: State, action: Any, after: State,
                          earlier: tuple[Any, ...]) -> bool:
    return action.take and before.last == before.cups[1 - before.turn]


def _field_harvest(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return action.take and before.last != before.cups[1 - before.turn]


def _declined(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return not action.take


def _over_opponent(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return before.cups[1 - before.turn] in action.path[1:-1]


def _into_opponent(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return action.path[-1] == before.cups[1 - before.turn] and after.phase is not Phase.PLACE


def _forced_harvest(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    return isinstance(action, Sow) and after.bank > before.bank


def _rescued(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
    # KALA-Q10 start_of_turn: a player under 4 beans is rescued by the opponent's bonus.
    seat, other = before.turn, 1 - before.turn
    return (after.phase is Phase.SOW and after.turn == other
            and before.stores[other] < 4 <= after.stores[other]) or (
        after.phase is Phase.SOW and after.turn == other and after.stores[seat] < 4)


def _ends_on(beans: int) -> Any:
    """The game ends with the player who cannot move holding exactly *beans*."""
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return after.phase is Phase.OVER and after.stores[after.turn] == beans
    return fires


def _plays_on_with(beans: int) -> Any:
    """A new turn starts with the player to move holding exactly *beans*."""
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return (after.phase is Phase.SOW and after.turn != before.turn
                and after.stores[after.turn] == beans)
    return fires


def _turn_ends_with(beans: int) -> Any:
    """A turn ends (the other player to move) with the mover holding exactly *beans*."""
    def fires(before: State, action: Any, after: State, earlier: tuple[Any, ...]) -> bool:
        return (after.phase is Phase.SOW and after.turn != before.turn
                and after.stores[before.turn] == beans)
    return fires


def candidates(game: Any, state: State) -> Iterator[tuple[str, str, JSON]]:
    """KALA's own candidate refusals: paths that turn twice, turn back, run off the field,
    start elsewhere or have the wrong length, and placements onto or away from the cup."""
    if state.phase not in (Phase.SOW, Phase.BONUS_SOW, Phase.PLACE):
        return
    seat = state.turn
    if state.phase is Phase.PLACE:
        assert state.last is not None
        row, col = state.last
        yield ("onto-opponent-cup", "the playing cup put onto the opponent's cup",
               {"type": "place", "seat": seat, "square": [row, col]})
        far = [(r, c) for r in range(4) for c in range(4) if abs(r - row) + abs(c - col) == 2]
        yield ("not-next-to-opponent-cup", "the playing cup put two squares away",
               {"type": "place", "seat": seat, "square": list(far[0])})
        return
    start = state.cups[seat]
    length = len(game.legal_actions(state, None)[0].path)

    def walk(path: tuple[tuple[int, int], ...], n: int) -> Iterator[tuple[tuple[int, int], ...]]:
        if len(path) == n:
            yield path
            return
        for dr, dc in DIRECTIONS:
            nxt = (path[-1][0] + dr, path[-1][1] + dc)
            if nxt not in path:
                yield from walk((*path, nxt), n)

    walks = list(walk((start,), length))
    twice = next((p for p in walks if turns(p) == 2 and all(on_board(s) for s in p)), None)
    if twice is not None:
        yield ("turns-twice", "a path that turns twice", {
            "type": "sow", "seat": seat, "path": [list(s) for s in twice]})
    off = next((p for p in walks if turns(p) <= 1 and not all(on_board(s) for s in p)), None)
    if off is not None:
        yield ("leaves-the-field", "a path that leaves the field", {
            "type": "sow", "seat": seat, "path": [list(s) for s in off]})
    if length >= 3:
        a, b = start, walks[0][1]
        yield ("turns-back", "a path that turns back on itself", {
            "type": "sow", "seat": seat, "path": [list(a), list(b), list(a)][:length]
            + [list(b)] * (length - 3)})
    for n, kind in ((length - 1, "one-square-short"), (length + 1, "one-square-long")):
        path = next((p for p in walk((start,), n) if turns(p) <= 1
                     and all(on_board(s) for s in p)), None) if n >= 1 else None
        if path is not None:
            yield (kind, f"a path of {n} squares", {
                "type": "sow", "seat": seat, "path": [list(s) for s in path]})
    other = state.cups[1 - seat]
    for square in (other, *sorted(PATHS_FROM)):
        found = PATHS.get((square, length), ())
        if square != start and found:
            yield ("starts-elsewhere", f"a path starting on {list(square)}, not on the own cup",
                   {"type": "sow", "seat": seat, "path": [list(s) for s in found[0]]})
            break


RECORD: GameRecord[State, Action, Config, State] = GameRecord(
    game=GAME,
    random_games=(
        RandomGames("default", DEFAULT, (1, 2, 3, 4, 5, 6)),
        RandomGames("harvest-mandatory", MANDATORY_HARVEST, (1, 2)),
        RandomGames("bonus-optional", OPTIONAL_BONUS, (1, 2)),
        RandomGames("end-start-of-turn", START_OF_TURN, (1, 2)),
        RandomGames("first-player-1", SECOND_FIRST, (1,)),
    ),
    whole_game_rules=("KALA-1", "KALA-2", "KALA-3", "KALA-4", "KALA-5", "KALA-6", "KALA-7",
                      "KALA-8", "KALA-11", "KALA-17", "KALA-18"),
    scenarios=(
        Scenario("sixth-bean-to-opponent",
                 "The bonus move from a playing cup holding more beans than the longest path "
                 "from its square: every bean a path holds is sown, the rest go to the "
                 "opponent's store, and the last bean sown counts as the last",
                 ("KALA-12", "KALA-13", "KALA-14"), DEFAULT, _step(Sow, _excess), extra=1),
        Scenario("bonus-of-five", "A bonus move of 5 beans, all sown",
                 ("KALA-12", "KALA-13"), DEFAULT, _step(Sow, _bonus_of(5))),
        Scenario("bonus-turns-after-turning-sowing",
                 "The regular sowing turns 90 degrees and the bonus sowing of the same turn "
                 "turns again: the turn is counted per sowing (KALA-Q5)",
                 ("KALA-7", "KALA-12"), DEFAULT,
                 _step(Sow, _turning_bonus_after_turning_sowing)),
        Scenario("harvest-opponent-cup",
                 "The last bean falls into the opponent's playing cup, which then holds 4 or "
                 "more: the player empties it and places his cup next to it",
                 ("KALA-10", "KALA-15", "KALA-16"), DEFAULT,
                 _step(Harvest, _opponent_cup_harvest), extra=1),
        Scenario("harvest-field-cup", "A field cup with 4 or more beans harvested: one bean "
                 "to the bank, the rest to the store, then the cup moves onto it",
                 ("KALA-15", "KALA-16", "KALA-8"), DEFAULT, _step(Harvest, _field_harvest)),
        Scenario("harvest-declined", "An optional harvest declined", ("KALA-15", "KALA-16"),
                 DEFAULT, _step(Harvest, _declined)),
        Scenario("harvest-mandatory", "With the harvest mandatory (KALA-Q7) the cup is "
                 "emptied without a decision", ("KALA-15",), MANDATORY_HARVEST,
                 _forced_harvest),
        Scenario("sow-over-opponent-cup", "A sowing passes over the opponent's playing cup: "
                 "the bean goes into that cup, not the field cup beneath",
                 ("KALA-9",), DEFAULT, _step(Sow, _over_opponent)),
        Scenario("last-bean-into-opponent-cup-place",
                 "The last bean falls into the opponent's playing cup: the player chooses a "
                 "neighbouring field cup for his own", ("KALA-10", "KALA-8"), DEFAULT,
                 _step(Place)),
        Scenario("last-bean-into-opponent-cup-corner",
                 "The last bean falls into the opponent's playing cup and no harvest or "
                 "choice follows", ("KALA-10",), DEFAULT, _step(Sow, _into_opponent)),
        Scenario("bonus-declined", "With the bonus optional (KALA-Q8) the bonus move is "
                 "declined", ("KALA-12",), OPTIONAL_BONUS,
                 _step(Bonus, lambda b, a, af, e: not a.take)),
        Scenario("bonus-taken-optional", "With the bonus optional (KALA-Q8) the bonus move "
                 "is taken", ("KALA-12",), OPTIONAL_BONUS,
                 _step(Bonus, lambda b, a, af, e: a.take), extra=1),
        Scenario("end-on-three", "A turn leaves the mover with exactly 3 beans: the game "
                 "ends at once and he loses", ("KALA-17",), DEFAULT, _ends_on(3)),
        Scenario("play-on-with-four", "A turn leaves the mover with exactly 4 beans: the game "
                 "goes on", ("KALA-17",), DEFAULT, _turn_ends_with(4), extra=1),
        Scenario("end-on-three-start-of-turn", "With the end checked at the start of a turn "
                 "(KALA-Q10) the player due to move holds exactly 3 beans: the game ends",
                 ("KALA-17",), START_OF_TURN, _ends_on(3)),
        Scenario("play-on-with-four-start-of-turn", "With the end checked at the start of a "
                 "turn (KALA-Q10) the player due to move holds exactly 4 beans and sows",
                 ("KALA-17",), START_OF_TURN, _plays_on_with(4), extra=1),
        Scenario("end-start-of-turn", "With the end checked at the start of a turn "
                 "(KALA-Q10) the game ends when the player due to move has fewer than 4 "
                 "beans", ("KALA-17",), START_OF_TURN, step_into(Phase.OVER)),
    ),
    counts=(
        CountSpec("initial", "The initial position", ("KALA-2", "KALA-4", "KALA-7"),
                  DEFAULT, 4),
        CountSpec("initial-first-player-1", "The initial position, seat 1 first",
                  ("KALA-3", "KALA-4"), SECOND_FIRST, 3),
        CountSpec("harvest-decision", "A harvest decision pending",
                  ("KALA-15", "KALA-16"), DEFAULT, 3, step_into(Phase.HARVEST)),
        CountSpec("placement-decision", "A placement next to the opponent's cup pending",
                  ("KALA-10",), DEFAULT, 3, step_into(Phase.PLACE)),
        CountSpec("bonus-sowing", "A bonus sowing pending", ("KALA-12", "KALA-13"),
                  DEFAULT, 3, step_into(Phase.BONUS_SOW)),
        CountSpec("bonus-decision", "An optional bonus decision pending", ("KALA-12",),
                  OPTIONAL_BONUS, 3, step_into(Phase.BONUS)),
    ),
    events=events,
    candidates=candidates,
    rejection_games=6,
    rules=RULES,
    view_rules=VIEW_RULES,
    readings=READINGS,
    catalogue=CATALOGUE,
    diagnose=diagnose,
    config_rule=lambda _config: "KALA-1",
    legal_rule=legal_rule,
    bad_configs=({"first_player": 2},),
)
"""KALA's conformance record."""
