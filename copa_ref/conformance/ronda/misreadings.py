"""The code of RONDA's misreadings: the functions and tables a misread copy of
:mod:`copa_ref.ronda.rules` is given in place of the reference's (see
:mod:`copa_ref.core.misreading`).

Each misreading is declared with its rule in ``rules.py``, which builds the catalogue: the
runner replays them to explain a failure ("your engine plays as if ..."), the kill-matrix
test uses them as mutants. What stays here is what those declarations refer to, and the
kill matrix's lists by mutant (:data:`UNNAMED`, :data:`RARE`).
"""

from __future__ import annotations

import attrs

from copa_ref.conformance.vocabulary import Rare
from copa_ref.ronda import rules as _rules
from copa_ref.ronda.state import (
    CIRCLE_BEANS,
    PLACES,
    Action,
    Add,
    Config,
    Lift,
    Observation,
    Phase,
    State,
    Stop,
)

__all__ = ["RARE", "UNNAMED"]


def empties_never_match(first: int, second: int) -> bool:
    """RONDA-7 misread: two empty cups are no match ("no beans to match")."""
    return first == second and first > 0


def penalty_first_pair_only(state: State) -> bool:
    """RONDA-11 misread: only the first pair of a turn is a mistake, not a chain's new cup
    (asked before the second lift: the first pair's open cup is the one the last lift
    showed; after ``keep`` nothing was shown)."""
    return state.black > 0 and state.shown is not None and state.shown[0] in state.lifted


def fives_without_the_bean(beans: int, supply: int, black: int, out: int, config: Config
                           ) -> tuple[int, int, int, int]:
    """RONDA-10 misread: the group of five goes to the middle without the added bean, which
    the player keeps."""
    if _rules.is_max_pair(beans, config):
        if _rules.goes_to_black(config, black):
            return 0, supply, black + beans, out
        return 0, supply, black, out + beans
    return beans + 1, supply - 1, black, out


def six_always_to_black(config: Config, black: int) -> bool:
    """RONDA-12 misread: every group of the maximum goes into the black cup, even while it
    holds beans."""
    return config.penalty_beans


def shown_only_while_lifted(state: State, seat: int | None = None) -> Observation:
    """RONDA-14 misread: a mismatched cup is covered before anyone reports what it showed."""
    seen = _rules.observe(state, seat)
    return attrs.evolve(seen, shown=None) if not state.lifted else seen


# -- The kill matrix's further mutants ------------------------------------------------------


def _circle_empty_before_arrangement(state: State) -> int:
    return sum(state.cups)


def _nine_beans(config: Config) -> int:
    return 9


def _ten_beans(config: Config) -> int:
    return 10


def _any_twenty(cups: object) -> str | None:
    error = _rules.arrangement_error(cups)
    assert isinstance(cups, tuple)
    if error is not None and len(cups) == PLACES and sum(cups) == CIRCLE_BEANS and max(
            cups) <= 4:
        return None
    return error


def _counter_clockwise(state: State) -> int:
    return (state.turn - 1) % len(state.supplies)


def _lift_lifted(lifted: tuple[int, ...], cup: int) -> str | None:
    return None if 0 <= cup < PLACES else "there is no cup there"


_LIFT_ANY = tuple(
    {lifted: tuple(Lift(seat, c) for c in range(PLACES))
     for lifted in [(), *((c,) for c in range(PLACES))]}
    for seat in range(5))
_ADDS_WITH_TWINS = tuple(
    {**table, **{(c, c): (Add(seat, c),) for c in range(PLACES)}}
    for seat, table in enumerate(_rules._ADDS))


_ADDS_OR_STOP = tuple(
    {pair: (*adds, Stop(seat)) for pair, adds in table.items()}
    for seat, table in enumerate(_rules._ADDS))


def _apply_optional_add(state: State, action: Action) -> State:
    if state.phase is Phase.ADD and type(action) is Stop and action.seat == state.turn:
        return _rules._stop(state)
    return _rules.apply(state, action)


def _mismatch_keeps_turn(state: State, cup: int, beans: int) -> State:
    after = _rules._mismatch(state, cup, beans)
    return attrs.evolve(after, turn=state.turn)


def _keep_covers_it(state: State, cup: int) -> State:
    other = next(c for c in state.lifted if c != cup)
    return attrs.evolve(_rules._keep(state, cup), lifted=(other,))


def _stop_keeps_turn(state: State) -> State:
    return attrs.evolve(_rules._stop(state), turn=state.turn)


def _never_a_penalty(state: State) -> bool:
    return False


def _never_wins(supply: int) -> bool:
    return supply < 0


def _circle_always_twenty(state: State) -> int:
    return CIRCLE_BEANS


def _again_keeps_one(state: State) -> State:
    return attrs.evolve(_rules._again(state), lifted=state.lifted[:1])


def _always_five(beans: int, config: Config) -> bool:
    return beans == 5


def _black_without_penalties(config: Config, black: int) -> bool:
    return black == 0


UNNAMED: dict[str, str] = {}
"""The failing cases of a mutant that cannot name its rule (``"<slug> <case id>"``, or a
slug for all of a mutant's), and why (the kill-matrix test,
``tests/conformance/test_kill_matrix.py``): none."""


# -- The kill matrix's lists by mutant -----------------------------------------------------


RARE: tuple[Rare, ...] = (
    Rare("mismatch-keeps-the-turn", (("players", 5), ("relift_after_match", True))),
    Rare("stop-keeps-the-turn", (("players", 3), ("max_beans", 4))),
    Rare("empty-cups-never-match", (("players", 4), ("beans_per_player", 9))),
)
"""The mutants (``mutants`` of ``rules.CATALOGUE``) that act only in a rare
situation (a combination of player count and options the corpus never plays): what an
exploration must find beyond the corpus."""


