"""What every registered game promises alike: its fact sheet holds, its demo runs, its JSON
round-trips, and the command line reaches it through the registry."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from copa_ref.cli import main
from copa_ref.conformance.registry import record_of
from copa_ref.core import MoverKind
from copa_ref.games import GAMES, get_game
from tests.support import play_random

NAMES = sorted(GAMES)


def test_registry() -> None:
    """Every game is listed by its name; an unknown name says which ones exist."""
    for name, game in GAMES.items():
        assert game.name == name and get_game(name) is game
    with pytest.raises(KeyError, match="known games"):
        get_game("chess")


@pytest.mark.parametrize("name", NAMES)
def test_fact_sheet_holds(name: str) -> None:
    """The declared facts match what random games show (chance, simultaneity, hidden
    information, players, length), under the default config and the corpus's configs."""
    game = get_game(name)
    facts = game.facts
    seen_kinds: set[MoverKind] = set()
    hidden = False
    longest = 0
    # The default config, and each config the corpus plays whole games under (a fact may
    # hold only under another reading: HOPPER's shoot-out exists under End 2 alone).
    found = record_of(name)
    others = [] if found is None else [b.config for b in found.random_games
                                       if b.config != game.default_config()]
    runs = [(game.default_config(), seed) for seed in range(8)]
    runs += [(config, seed) for config in others for seed in range(2)]
    for config, seed in runs:
        steps = play_random(game, config, random.Random(seed), check=False)
        decisions = 0
        for state, _ in steps:
            mover = game.to_move(state)
            seen_kinds.add(mover.kind)
            decisions += mover.kind is not MoverKind.CHANCE
            if mover.seats and game.observe(state, mover.seats[0]) != game.observe(state, None):
                hidden = True
        longest = max(longest, decisions)
    assert (MoverKind.CHANCE in seen_kinds) == facts.chance
    assert bool(seen_kinds & {MoverKind.JOINT, MoverKind.ANY}) == facts.simultaneous
    assert hidden == facts.hidden_information
    if facts.max_decisions is not None:
        assert longest <= facts.max_decisions
    players = game.num_players(game.default_config())
    assert facts.min_players <= players <= facts.max_players


@pytest.mark.parametrize("name", NAMES)
def test_demo_runs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref demo <game>`` plays a whole seeded game and shows how it ended."""
    assert main(["demo", name, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) > 5
    again = list(get_game(name).demo(3))
    assert "\n".join(again) in out  # seeded: the same game twice


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trip_along_a_game(name: str) -> None:
    """P-8: every state, action and observation of a game survives canonical JSON."""
    game: Any = get_game(name)
    for state, action in play_random(game, game.default_config(), random.Random(5),
                                     check=False):
        assert game.state_from_json(game.to_json(state)) == state
        assert game.action_from_json(game.to_json(action)) == action
        assert game.dumps(game.state_from_json(game.to_json(state))) == game.dumps(state)


def test_games_command(capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref games`` lists every game."""
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in NAMES)


class _Hostile:
    """A value whose every special method raises: no message may quote it by ``repr``."""

    def __repr__(self) -> str:
        raise RuntimeError("repr")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __len__(self) -> int:
        raise RuntimeError("len")


HOSTILE_FIELDS = ("x" * 100_000, 2.5, 10**5000, (None,), _Hostile())
"""Values no field of any game's state may hold (a 100 KB string, a float, a 5,000-digit
integer, a tuple of ``None``, a value that raises at every touch)."""

CHECKED = sorted(GAMES)
"""The games whose entry points check a state as it enters (``copa_ref.core.entry``)."""


def _entry_points(game: Any, state: Any, action: Any) -> dict[str, Any]:
    calls = {
        "to_move": lambda: game.to_move(state),
        "legal_actions": lambda: game.legal_actions(state, None),
        "legal_actions(seat)": lambda: game.legal_actions(state, 0),
        "observe": lambda: game.observe(state, None),
        "observe(seat)": lambda: game.observe(state, 0),
        "outcome": lambda: game.outcome(state),
        "apply": lambda: game.apply(state, action),
        "sample_chance": lambda: game.sample_chance(state, random.Random(0)),
        "check_state": lambda: game.check_state(state),
        "svg": lambda: game.svg(state, None),
    }
    if game.joint is not None:
        calls["joint"] = lambda: game.joint(state, ())
    return calls


@pytest.mark.parametrize("name", CHECKED)
def test_a_state_with_one_ill_typed_field_is_malformed_everywhere(name: str) -> None:
    """P-8: a state of the right class with one field of a wrong type or out of the codec's
    bounds is a ``MalformedInputError`` at every entry point, with a bounded message, never
    a bare exception; ``is_legal`` and ``well_formed`` say no without raising."""
    from copa_ref.core import MalformedInputError

    game: Any = get_game(name)
    played = play_random(game, game.default_config(), random.Random(2), check=False)
    for state, action in played[:: max(1, len(played) // 6)]:
        for field in attrs.fields(type(state)):
            for value in HOSTILE_FIELDS:
                bad = attrs.evolve(state, **{field.name: value})
                for entry, call in _entry_points(game, bad, action).items():
                    with pytest.raises(MalformedInputError) as caught:
                        call()
                    assert len(str(caught.value)) < 1000, (entry, field.name)
                assert game.is_legal(bad, action) is False
                assert game.well_formed(bad) is False


@pytest.mark.parametrize("name", CHECKED)
def test_hostile_seats_and_generators(name: str) -> None:
    """P-8: a seat that is not one at the table is refused by ``svg`` (as by ``observe``),
    and a generator that is not a ``random.Random`` by ``sample_chance``, with
    ``MalformedInputError``, not an ``AttributeError`` from deep inside."""
    from copa_ref.core import MalformedInputError

    game: Any = get_game(name)
    state = game.new_game(game.default_config())
    for seat in (7, -1, True, 1.0, "0", 10**5000, _Hostile()):
        with pytest.raises(MalformedInputError):
            game.svg(state, seat)
        with pytest.raises(MalformedInputError):
            game.observe(state, seat)
    for rng in (None, 7, "seed", random, _Hostile()):
        with pytest.raises(MalformedInputError, match=r"random\.Random"):
            game.sample_chance(state, rng)


@pytest.mark.parametrize("name", CHECKED)
def test_a_checked_state_is_checked_once(name: str) -> None:
    """Validated once: a state built by the rules, or one that entered and passed its
    checks, is not checked again at the next entry (``copa_ref.core.entry``)."""
    from copa_ref.core.entry import CHECKED as MARK

    game: Any = get_game(name)
    state = game.new_game(game.default_config())
    mark = getattr(state, MARK)
    assert mark is not None
    copy = attrs.evolve(state)
    assert getattr(copy, MARK, None) is None and copy == state
    game.to_move(copy)
    assert getattr(copy, MARK) is mark
    decoded = game.state_from_json(game.to_json(state))
    assert decoded == state and game.dumps(decoded) == game.dumps(state)
