"""HOPPER's conformance record: the rule that admits a config, the rule that makes a legal
action legal, and the diagnosis of a seat listed to shoot that its own report leaves with
nothing to shoot (``copa_ref.conformance.hopper.record``,
``copa_ref.conformance.hopper.diagnosis``)."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from copa_ref.conformance.hopper.diagnosis import config_rule, legal_rule
from copa_ref.conformance.hopper.rules import diagnose
from copa_ref.conformance.observables import observables
from copa_ref.conformance.vocabulary import Divergence, Report
from copa_ref.core import JSON
from copa_ref.hopper import (
    GAME,
    Action,
    Config,
    Ending,
    Land,
    Remainder,
    SeatAccuracy,
    Shoot,
    State,
)

from .positions import table, tray_of

END_2_3 = Config(players=3, ending=Ending.END_2)


@pytest.mark.parametrize(("config", "rule"), [
    (Config(), "HOPPER-1"),
    (Config(players=4), "HOPPER-1"),
    (Config(players=5, first_player=2), "HOPPER-4"),
    (Config(players=3, remainder=Remainder.LOOSE), "HOPPER-3"),
    (Config(total_beans=60), "HOPPER-3"),
    (Config(ending=Ending.END_2, players=3), "HOPPER-13"),
    (Config(aiming=False, ending=Ending.END_2), "HOPPER-5"),
    (Config(shot_model=SeatAccuracy((Fraction(1, 2),) * 2), aiming=False), "HOPPER-6"),
])
def test_config_rule(config: Config, rule: str) -> None:
    """The rule admitting a config is that of its least usual option off the default."""
    assert config_rule(config) == rule


def test_legal_rule() -> None:
    """HOPPER-6 for a landing, HOPPER-5 for an aim, HOPPER-10 for an empty-handed shooter
    with beans loose, HOPPER-15 or HOPPER-4 for an unaimed shot."""
    state = GAME.new_game(Config())
    assert legal_rule(state, Shoot(0, 3)) == "HOPPER-5"
    assert legal_rule(GAME.apply(state, Shoot(0, 3)), Land(None)) == "HOPPER-6"
    empty = table(Config(players=3), tray=tray_of(*(0,) * 16), hands=(0, 38, 38), loose=2)
    assert legal_rule(empty, Shoot(0, 3)) == "HOPPER-10"
    unaimed = table(Config(ending=Ending.END_2, aiming=False),
                    tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), turn=None)
    assert legal_rule(unaimed, Shoot(1, None)) == "HOPPER-15"


def divergence(state: State, seats: list[int], view: State,
               legal: list[JSON] | None = None) -> Divergence[State, Action, Config, State]:
    """The engine reports *view* with an ``any`` node of *seats* (and the *legal* shots),
    the reference *state*."""
    seen = observables(GAME, view)
    mover = {"kind": "any", "seats": seats}
    report = Report(to_move=mover, public=seen["public"], outcome=None,
                    legal={} if legal is None else {None: legal})
    return Divergence(config=state.config, step=5, before=state, action=None, expected=state,
                      reported=report, reported_before=None, reported_view=view,
                      differing=("to_move",) if legal is None else ("legal",))


def test_seat_listed_with_nothing_to_shoot() -> None:
    """HOPPER-11: the engine lists seat 1 in the shoot-out, which its own report leaves with
    no beans and none loose; with beans loose, no such finding (seat 1 may replenish)."""
    state = table(END_2_3, tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), hands=(40, 0, 38),
                  turn=None)
    found = [f.rule for f in diagnose(divergence(state, [0, 1, 2], state))]
    assert found[:1] == ["HOPPER-11"]
    loose = attrs.evolve(state, hands=(39, 0, 38), loose=1)
    assert "HOPPER-11" not in [f.rule for f in diagnose(divergence(loose, [0, 1, 2], loose))]


def test_aims_not_at_the_reported_tray() -> None:
    """HOPPER-5: the engine's legal shots leave out a cup of its own reported tray (the
    black cup); the same shots at exactly the tray's cups give no such finding."""
    state = table(END_2_3, tray=tray_of(0, 0, 0, 0, cups=(0, 1, 2, 16)), hands=(40, 0, 38),
                  turn=None)
    shots: list[JSON] = [{"type": "shoot", "seat": s, "aim": c} for s in (0, 2) for c in (0, 1, 2)]
    found = [f.rule for f in diagnose(divergence(state, [0, 2], state, shots))]
    assert found[:1] == ["HOPPER-5"]
    every: list[JSON] = [*shots, {"type": "shoot", "seat": 0, "aim": 16},
                         {"type": "shoot", "seat": 2, "aim": 16}]
    assert "HOPPER-5" not in [f.rule for f in diagnose(divergence(state, [0, 2], state, every))]
