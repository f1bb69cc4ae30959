"""KALA: the Copa strategy game for two (perfect information, no chance, turn by turn).

Pure functions over immutable states (:mod:`copa_ref.kala.rules`), the values they work on
(:mod:`copa_ref.kala.state`), the sowing paths (:mod:`copa_ref.kala.paths`) and the
executable invariants (:mod:`copa_ref.kala.invariants`); :data:`GAME` gathers them.
"""

from __future__ import annotations

from copa_ref.core import FactSheet, Game, Trusted, make_converter, register_union
from copa_ref.kala.demo import demo, render
from copa_ref.kala.invariants import STEP_INVARIANTS
from copa_ref.kala.rules import (
    _apply,
    _legal_actions,
    _to_move,
    apply,
    check_state,
    is_legal,
    legal_actions,
    new_game,
    num_players,
    observe,
    outcome,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.kala.state import (
    Action,
    Bonus,
    BonusRule,
    Config,
    EndCheck,
    Harvest,
    HarvestRule,
    Phase,
    Place,
    Sow,
    State,
)
from copa_ref.kala.svg import svg

__all__ = [
    "GAME",
    "Action",
    "Bonus",
    "BonusRule",
    "Config",
    "EndCheck",
    "Harvest",
    "HarvestRule",
    "Phase",
    "Place",
    "Sow",
    "State",
    "apply",
    "check_state",
    "is_legal",
    "legal_actions",
    "new_game",
    "observe",
    "outcome",
    "svg",
    "to_move",
    "well_formed",
]

_converter = make_converter()
register_union(_converter, Action)

GAME: Game[State, Action, Config, State] = Game(
    name="kala",
    title="KALA",
    prefix="KALA",
    facts=FactSheet(
        min_players=2,
        max_players=2,
        chance=False,
        hidden_information=False,
        simultaneous=False,
        max_decisions=None,
    ),
    config_type=Config,
    state_type=State,
    action_type=Action,
    observation_type=State,
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
    step_invariants=STEP_INVARIANTS,
    render=render,
    demo=demo,
    svg=svg,
    trusted=Trusted(to_move=_to_move, legal_actions=_legal_actions, apply=_apply),
)
"""KALA as a :class:`~copa_ref.core.game.Game`."""
