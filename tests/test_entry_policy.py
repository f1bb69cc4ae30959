"""The one entry policy of every game in the registry (``copa_ref.core.entry``).

A state entering any public function is checked by the game's whole ``check_state``, or
carries a mark that only that game's own reference checks could have written. So a
hand-made state of any game (fields of reachable states mixed, counts perturbed) is either
refused with a rule ID (``RuleViolation``) or a ``MalformedInputError`` at every public
function, or answered by every public function without any other exception; and a state
a misread copy of the rules built is checked by the reference as an equal fresh object is.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from copa_ref.core import MalformedInputError, Misreading, RuleViolation, misread
from copa_ref.core.entry import CHECKED
from copa_ref.core.loop import steps, uniform
from copa_ref.games import GAMES

REFUSALS = (RuleViolation, MalformedInputError)
"""What a public function may raise on a state: a rule's refusal or malformed input."""

NAMES = sorted(GAMES)


def _played(game: Any, seed: int, games: int = 2, cut: int = 400) -> list[tuple[Any, Any]]:
    """The (state, action) steps of a few random games (each cut at *cut* steps)."""
    rng = random.Random(seed)
    played: list[tuple[Any, Any]] = []
    for _ in range(games):
        played += [(step.before, step.action)
                   for step in steps(game, uniform, rng, max_steps=cut)]
    return played


def _calls(game: Any, state: Any, action: Any) -> dict[str, Callable[[], object]]:
    """Every public function of *game* that takes a state, on *state*."""
    calls: dict[str, Callable[[], object]] = {
        "to_move": lambda: game.to_move(state),
        "legal_actions": lambda: game.legal_actions(state, None),
        "legal_actions(0)": lambda: game.legal_actions(state, 0),
        "observe": lambda: game.observe(state, None),
        "observe(0)": lambda: game.observe(state, 0),
        "outcome": lambda: game.outcome(state),
        "apply": lambda: game.apply(state, action),
        "sample_chance": lambda: game.sample_chance(state, random.Random(0)),
    }
    if game.chance_outcomes is not None:
        calls["chance_outcomes"] = lambda: game.chance_outcomes(state)
    if game.joint is not None:
        calls["joint"] = lambda: game.joint(state, ())
    if game.svg is not None:
        calls["svg"] = lambda: game.svg(state, None)
    return calls


def _escapes(game: Any, state: Any, action: Any) -> list[str]:
    """The public functions that raise anything but a refusal on *state*; when the game
    refuses *state* (``check_state``), every function must refuse it, not answer."""
    sound = game.well_formed(state)
    found: list[str] = []
    for name, call in _calls(game, state, action).items():
        try:
            call()
        except REFUSALS as error:
            if not sound and not isinstance(error, MalformedInputError) and not (
                    getattr(error, "rule", None)):
                found.append(f"{name}: a refusal without a rule ID: {error!r}")
        except Exception as error:
            found.append(f"{name}: {type(error).__name__}: {error}")
        else:
            if not sound:
                found.append(f"{name} answered a state check_state refuses")
    return found


def _perturbed(value: object) -> Iterator[object]:
    """Values near *value* of the same type: integers moved, an item of a tuple moved."""
    if type(value) is int:
        yield from (value + 1, value - 1, -5, 0)
    elif type(value) is tuple and value:
        first = value[0]
        if type(first) is int:
            yield (first + 1, *value[1:])
            yield (-5, *value[1:])
        yield value[1:]
        yield value[:-1] + value[-1:] * 2


def _mixed(steps: list[tuple[Any, Any]], rng: random.Random, count: int) -> Iterator[Any]:
    """Hand-made states: one field of a reachable state taken from another reachable
    state, or moved a little."""
    states = [state for state, _ in steps]
    for _ in range(count):
        state = rng.choice(states)
        field = rng.choice(attrs.fields(type(state))).name
        if rng.random() < 0.5:
            yield attrs.evolve(state, **{field: getattr(rng.choice(states), field)})
        else:
            for value in _perturbed(getattr(state, field)):
                yield attrs.evolve(state, **{field: value})


@pytest.mark.parametrize("name", NAMES)
def test_hand_made_states_are_refused_or_answered(name: str) -> None:
    """Mixed and perturbed states of every game: refused with a rule ID (or as malformed)
    by every public function, or answered by every one of them."""
    game: Any = GAMES[name]
    steps = _played(game, seed=31)
    actions = [action for _, action in steps]
    rng = random.Random(131)
    escapes: list[str] = []
    for state in _mixed(steps, rng, 300):
        escapes += [f"{game.dumps(state)[:300]}: {e}"
                    for e in _escapes(game, state, rng.choice(actions))]
    assert not escapes, "\n".join(escapes[:10])


@pytest.mark.parametrize("name", NAMES)
def test_a_state_built_by_a_misread_copy_is_checked_by_the_reference(name: str) -> None:
    """The mark is the reference checker's own: a faithful misread copy of the rules
    module builds states the reference checks in full at their first entry (and marks as
    its own), as it checks an equal fresh object."""
    game: Any = GAMES[name]
    reference = game.new_game(game.default_config())
    copy = misread(game, Misreading(rule="-", slug="copy", description="a faithful copy",
                                    replacements={"__doc__": "a copy"}))
    built = copy.new_game(copy.default_config())
    assert built == reference
    mark = getattr(reference, CHECKED)
    assert mark is not None
    assert getattr(built, CHECKED) is not mark
    for step in steps(copy, uniform, random.Random(5), max_steps=30):
        state = step.after
        assert getattr(state, CHECKED, None) is not mark
        game.to_move(state)
        assert getattr(state, CHECKED) is mark


def test_a_misread_kala_state_is_refused_as_a_fresh_one() -> None:
    """A state of the KALA copy whose stores start with 14 beans each breaks KALA-18 in the
    reference: the reference refuses it at its entry, as it refuses an equal fresh object."""
    from copa_ref.conformance.kala.rules import CATALOGUE

    kala: Any = GAMES["kala"]
    mutant = misread(kala, CATALOGUE.mutant("stores-of-14"))
    state = mutant.new_game(mutant.default_config())
    mutant.to_move(state)  # checked, and marked, by the misread copy
    for entering in (attrs.evolve(state), state):
        with pytest.raises(RuleViolation) as refused:
            kala.to_move(entering)
        assert refused.value.rule == "KALA-18"


def _first(game: Any, found: Callable[[Any], bool]) -> Any:
    for seed in range(20):
        for state, _ in _played(game, seed, games=1):
            if found(state):
                return state
    msg = "no such state in 20 random games"
    raise AssertionError(msg)


def test_ronda_states_the_rules_cannot_reach() -> None:
    """RONDA: the adding phase right after the arrangement, and a negative count of black
    beans, are refused with a rule ID by every public function (not a bare ``KeyError``,
    not an answer)."""
    from copa_ref.ronda.state import Phase

    ronda: Any = GAMES["ronda"]
    arranged = _first(ronda, lambda s: s.phase is not Phase.SET_UP)
    for state in (attrs.evolve(arranged, phase=Phase.ADD), attrs.evolve(arranged, black=-5)):
        assert not ronda.well_formed(state)
        for call in _calls(ronda, state, None).values():
            with pytest.raises(RuleViolation):
                call()


def test_hopper_a_landing_with_no_cup_to_land_in() -> None:
    """HOPPER: a bean in the air over an empty tray is refused with a rule ID by
    ``sample_chance`` and ``chance_outcomes`` (not a ``ZeroDivisionError``)."""
    from copa_ref.hopper.state import Phase

    hopper: Any = GAMES["hopper"]
    landing = _first(hopper, lambda s: s.phase is Phase.LAND)
    for state in (attrs.evolve(landing, tray=()), attrs.evolve(landing, tray=(), aim=None)):
        with pytest.raises(RuleViolation):
            hopper.sample_chance(state, random.Random(0))
        with pytest.raises(RuleViolation):
            hopper.chance_outcomes(state)
