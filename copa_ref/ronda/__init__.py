"""RONDA: the Copa memory game for 2 to 5 players (hidden from every player, chance, turn by
turn).

Pure functions over immutable states (:mod:`copa_ref.ronda.rules`), the values they work
on (:mod:`copa_ref.ronda.state`) and the executable invariants
(:mod:`copa_ref.ronda.invariants`); :data:`GAME` gathers them. See ``specs/ronda.md``.
"""

from __future__ import annotations

from copa_ref.core import FactSheet, Game, Trusted, make_converter, register_union
from copa_ref.ronda import rules as _rules
from copa_ref.ronda.demo import demo, render
from copa_ref.ronda.invariants import STEP_INVARIANTS
from copa_ref.ronda.rules import (
    action_space,
    apply,
    chance_step,
    check_state,
    is_legal,
    legal_actions,
    new_game,
    num_players,
    observe,
    outcome,
    remember,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.ronda.state import (
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
from copa_ref.ronda.svg import svg

__all__ = [
    "FACTS",
    "GAME",
    "Action",
    "Add",
    "Again",
    "Arrange",
    "Config",
    "Keep",
    "Lift",
    "Observation",
    "Phase",
    "State",
    "Stop",
    "action_space",
    "apply",
    "chance_step",
    "check_state",
    "is_legal",
    "legal_actions",
    "new_game",
    "num_players",
    "observe",
    "outcome",
    "remember",
    "render",
    "sample_chance",
    "svg",
    "to_move",
    "well_formed",
]

_converter = make_converter()
register_union(_converter, Action)

FACTS = FactSheet(
    min_players=2,
    max_players=5,
    chance=True,
    hidden_information=True,
    simultaneous=False,
    max_decisions=None,  # mismatches can repeat without end (RONDA-Q14)
)
"""RONDA's fact sheet."""

GAME: Game[State, Action, Config, Observation] = Game(
    name="ronda",
    title="RONDA",
    prefix="RONDA",
    facts=FACTS,
    config_type=Config,
    state_type=State,
    action_type=Action,
    observation_type=Observation,
    converter=_converter,
    new_game=new_game,
    num_players=num_players,
    to_move=to_move,
    legal_actions=legal_actions,
    apply=apply,
    outcome=outcome,
    observe=observe,
    sample_chance=sample_chance,
    well_formed=well_formed,
    check_state=check_state,
    trusted=Trusted(to_move=_rules._to_move, legal_actions=_rules._legal_actions,
                    apply=_rules._apply),
    step_invariants=STEP_INVARIANTS,
    render=render,
    demo=demo,
    svg=svg,
)
"""RONDA as a :class:`~copa_ref.core.game.Game`."""
