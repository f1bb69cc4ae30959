"""Kopa's diagnosis hooks: the rule that admits a config, and the rule that makes an action
legal (the runner names them when an engine refuses what the rules allow; the kill matrix,
``tests/conformance/test_kill_matrix.py``, checks the whole diagnosis against the mutants)."""

from __future__ import annotations

import random

from copa_ref.conformance.kopa.diagnosis import config_rule, legal_rule
from copa_ref.kopa import GAME, Card, Config, Pass, Play, new_game
from tests.kopa.helpers import dealt, play_script


def test_config_rule() -> None:
    """KOPA-2, KOPA-3, KOPA-22: the player count admits a config; for three players the
    target or the first dealer, when that is what differs from the default."""
    assert config_rule(Config()) == "KOPA-2"
    assert config_rule(Config(players=2, target=30)) == "KOPA-2"
    assert config_rule(Config(target=30)) == "KOPA-22"
    assert config_rule(Config(first_dealer=0)) == "KOPA-3"


def test_legal_rule() -> None:
    """KOPA-4, KOPA-17: a deal's shape; KOPA-8 to KOPA-10 and KOPA-13: the pile a card
    continues; KOPA-15, KOPA-16: a pass without or with a playable card."""
    for players, rule in ((2, "KOPA-17"), (3, "KOPA-4"), (5, "KOPA-4")):
        state = new_game(Config(players=players))
        assert legal_rule(state, GAME.sample_chance(state, random.Random(1))) == rule
    state = dealt()
    assert legal_rule(state, Play(0, Card("S1"))) == "KOPA-8"
    assert legal_rule(state, Pass(0)) == "KOPA-16"
    later = play_script(state, "S1 S15 O1 S2 S14 O2")
    assert legal_rule(later, Play(0, Card("S3"))) == "KOPA-9"
    assert legal_rule(later, Play(0, Card("S13"))) == "KOPA-10"
    assert legal_rule(later, Play(0, Card("S8"))) == "KOPA-13"
