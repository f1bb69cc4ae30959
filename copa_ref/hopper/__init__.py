"""HOPPER: the Copa skill game for 2–5 players (perfect information, chance, and under
End 2 a shoot-out where any seat may shoot next).

Pure functions over immutable states (:mod:`copa_ref.hopper.rules`), the values they work
on (:mod:`copa_ref.hopper.state`), the JSON codec with exact probabilities
(:mod:`copa_ref.hopper.codec`), the executable invariants
(:mod:`copa_ref.hopper.invariants`) and a demo (:mod:`copa_ref.hopper.demo`); :data:`GAME`
gathers them.
"""

from __future__ import annotations

from copa_ref.core import FactSheet, Game, Trusted
from copa_ref.hopper import rules as _rules
from copa_ref.hopper.codec import converter
from copa_ref.hopper.demo import demo, render
from copa_ref.hopper.invariants import STEP_INVARIANTS
from copa_ref.hopper.rules import (
    action_space,
    apply,
    chance_outcomes,
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
from copa_ref.hopper.state import (
    Action,
    AimedShot,
    Config,
    Ending,
    Land,
    Phase,
    Remainder,
    SeatAccuracy,
    Shoot,
    ShotModel,
    State,
)
from copa_ref.hopper.svg import svg

__all__ = [
    "GAME",
    "Action",
    "AimedShot",
    "Config",
    "Ending",
    "Land",
    "Phase",
    "Remainder",
    "SeatAccuracy",
    "Shoot",
    "ShotModel",
    "State",
    "action_space",
    "apply",
    "chance_outcomes",
    "check_state",
    "is_legal",
    "legal_actions",
    "new_game",
    "observe",
    "outcome",
    "sample_chance",
    "to_move",
    "well_formed",
]

GAME: Game[State, Action, Config, State] = Game(
    name="hopper",
    title="HOPPER",
    prefix="HOPPER",
    facts=FactSheet(
        min_players=2,
        max_players=5,
        # Where every bean lands (HOPPER-6), with exact probabilities (chance_outcomes).
        chance=True,
        # Perfect information: every bean is in sight; observe is the whole state (HOPPER-18).
        hidden_information=False,
        # End 2's shoot-out: any seat with beans may shoot next (HOPPER-15).
        simultaneous=True,
        # No bound: misses can repeat without end under either ending (HOPPER-Q9), though
        # End 1 always has a winner once enough cups are claimed (16 > 3 x 5). So the state
        # machine caps a run at 40 steps of at most 30 actions, the whole-game tests at
        # 100,000 actions, the benchmark at 100,000 actions a game (a cut game is
        # reported); with the default shot model a game takes about 120-300 actions.
        max_decisions=None,
    ),
    config_type=Config,
    state_type=State,
    action_type=Action,
    observation_type=State,
    converter=converter,
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
    chance_outcomes=chance_outcomes,
    svg=svg,
)
"""HOPPER as a :class:`~copa_ref.core.game.Game`."""
