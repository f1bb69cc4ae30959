"""Copas, the Portuguese trick-taking game: whole matches with hidden hands and dealt rounds.

Imperfect information (each seat sees only its own hand), chance (the deal of every round),
3 to 5 players acting one at a time counter-clockwise (seat + 1). See ``specs/copas.md``.
"""

from __future__ import annotations

from copa_ref.copas.codec import converter
from copa_ref.copas.demo import demo
from copa_ref.copas.invariants import STEP_INVARIANTS
from copa_ref.copas.rules import (
    _apply,
    _legal_actions,
    _to_move,
    apply,
    check_state,
    legal_actions,
    new_game,
    num_players,
    observe,
    outcome,
    render,
    sample_chance,
    to_move,
    well_formed,
)
from copa_ref.copas.state import (
    Action,
    AllCards,
    BonusAllCards,
    BonusOtherTen,
    Card,
    Config,
    CopasLead,
    Deal,
    Observation,
    Phase,
    Play,
    RankOrder,
    State,
    Suit,
    Trick,
)
from copa_ref.copas.svg import svg
from copa_ref.core import FactSheet, Game, Trusted

__all__ = [
    "GAME",
    "Action",
    "AllCards",
    "BonusAllCards",
    "BonusOtherTen",
    "Card",
    "Config",
    "CopasLead",
    "Deal",
    "Observation",
    "Phase",
    "Play",
    "RankOrder",
    "State",
    "Suit",
    "Trick",
    "apply",
    "check_state",
    "legal_actions",
    "new_game",
    "num_players",
    "observe",
    "outcome",
    "render",
    "sample_chance",
    "svg",
    "to_move",
    "well_formed",
]

FACTS = FactSheet(
    min_players=3,
    max_players=5,
    chance=True,
    hidden_information=True,
    simultaneous=False,
    max_decisions=None,  # bonus rounds may follow one another without end (COPAS-Q5)
)

GAME: Game[State, Action, Config, Observation] = Game(
    name="copas",
    title="Copas",
    prefix="COPAS",
    facts=FACTS,
    config_type=Config,
    state_type=State,
    action_type=Action,
    observation_type=Observation,
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
    step_invariants=STEP_INVARIANTS,
    render=render,
    demo=demo,
    svg=svg,
    trusted=Trusted(to_move=_to_move, legal_actions=_legal_actions, apply=_apply),
)
"""The Copas record for the registry."""
