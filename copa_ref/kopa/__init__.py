"""Kopa, the 60-card building game: whole matches with hidden hands and dealt rounds.

Imperfect information (each seat sees only its own hand; with two players the stock is
hidden too), chance (the deal of every round), 2 to 5 players acting one at a time clockwise
(seat + 1). See ``specs/kopa.md``.
"""

from __future__ import annotations

from copa_ref.core import FactSheet, Game, Trusted
from copa_ref.kopa import fast as _fast
from copa_ref.kopa import rules as _rules
from copa_ref.kopa.codec import converter
from copa_ref.kopa.demo import demo
from copa_ref.kopa.invariants import STEP_INVARIANTS
from copa_ref.kopa.rules import (
    action_space,
    apply,
    chance_step,
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
from copa_ref.kopa.state import (
    Action,
    Card,
    Config,
    Deal,
    DeclinedDraw,
    FalsePass,
    Observation,
    Pass,
    Phase,
    Play,
    State,
    Suit,
)
from copa_ref.kopa.svg import svg

__all__ = [
    "GAME",
    "Action",
    "Card",
    "Config",
    "Deal",
    "DeclinedDraw",
    "FalsePass",
    "Observation",
    "Pass",
    "Phase",
    "Play",
    "State",
    "Suit",
    "action_space",
    "apply",
    "chance_step",
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
    min_players=2,
    max_players=5,
    chance=True,
    hidden_information=True,
    simultaneous=False,
    # A pass is always allowed, so a round can go on without end, and penalties can outweigh
    # the rounds' gains, so a match need not end: random players' matches do not, nor do two
    # players' who always play a legal card; three to five such players' do (KOPA-Q14).
    max_decisions=None,
)

_fast.install()  # the speed layer over the plain rule functions (copa_ref.kopa.fast)

GAME: Game[State, Action, Config, Observation] = Game(
    name="kopa",
    title="Kopa",
    prefix="KOPA",
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
    trusted=Trusted(to_move=_rules._to_move, legal_actions=_rules._legal_actions,
                    apply=_rules._apply),
    step_invariants=STEP_INVARIANTS,
    render=render,
    demo=demo,
    svg=svg,
    random_play_ends=False,
)
"""The Kopa record for the registry."""
