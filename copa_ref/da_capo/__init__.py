"""DA CAPO: the Copa bluff game for 2–5 players (simultaneous sealed bids, no chance).

Every round is one joint action holding every active seat's bid; the bids are revealed by
applying it, so every state is public (perfect information between rounds). Pure functions
over immutable states (:mod:`copa_ref.da_capo.rules`), the values they work on
(:mod:`copa_ref.da_capo.state`), the executable invariants
(:mod:`copa_ref.da_capo.invariants`) and a demo (:mod:`copa_ref.da_capo.demo`);
:data:`GAME` gathers them.
"""

from __future__ import annotations

from copa_ref.core import FactSheet, Game, Trusted, make_converter, register_union
from copa_ref.da_capo.demo import demo, render
from copa_ref.da_capo.invariants import STEP_INVARIANTS
from copa_ref.da_capo.rules import (
    _apply,
    _joint,
    _legal_actions,
    _to_move,
    apply,
    check_state,
    is_legal,
    joint,
    legal_actions,
    new_game,
    num_players,
    observe,
    outcome,
    round_winner,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.da_capo.state import (
    Action,
    Bid,
    Bids,
    Config,
    LastStep,
    Round,
    State,
    TargetReached,
    TieBreak,
    TieResolution,
)
from copa_ref.da_capo.svg import svg

__all__ = [
    "GAME",
    "Action",
    "Bid",
    "Bids",
    "Config",
    "LastStep",
    "Round",
    "State",
    "TargetReached",
    "TieBreak",
    "TieResolution",
    "apply",
    "check_state",
    "is_legal",
    "joint",
    "legal_actions",
    "new_game",
    "observe",
    "outcome",
    "round_winner",
    "svg",
    "to_move",
    "well_formed",
]

_converter = make_converter()
register_union(_converter, Action)

GAME: Game[State, Action, Config, State] = Game(
    name="da_capo",
    title="DA CAPO",
    prefix="DACAPO",
    facts=FactSheet(
        min_players=2,
        max_players=5,
        chance=False,
        # Sealed bids exist only inside the joint action that reveals them (DACAPO-Q8).
        hidden_information=False,
        simultaneous=True,
        # Every round takes a bean from every bidder, and needs two bidders: 16 rounds.
        max_decisions=16,
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
    joint=joint,
    svg=svg,
    trusted=Trusted(to_move=_to_move, legal_actions=_legal_actions, apply=_apply,
                    joint=_joint),
)
"""DA CAPO as a :class:`~copa_ref.core.game.Game`."""
