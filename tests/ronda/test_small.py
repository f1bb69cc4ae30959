"""RONDA-V1, the solver variant: fewer beans each (``Config.solver_beans``), a game small
enough for exact solvers, and the JSON that leaves the option out at its default (P-8)."""

from __future__ import annotations

import pytest

from copa_ref.core import InvalidStateError, MalformedInputError, MoverKind
from copa_ref.ronda import GAME, Config, Phase, State, check_state, new_game, outcome
from copa_ref.ronda.rules import total_beans
from tests.ronda.helpers import arranged, play


def positions(state: State) -> int:
    """The distinct positions reachable from *state* (a RONDA game can loop, RONDA-Q14)."""
    seen, stack = {GAME.dumps(state)}, [state]
    while stack:
        node = stack.pop()
        if GAME.to_move(node).kind is MoverKind.NOBODY:
            continue
        for action in GAME.legal_actions(node, None):
            child = GAME.apply(node, action)
            key = GAME.dumps(child)
            if key not in seen:
                seen.add(key)
                stack.append(child)
    return len(seen)


@pytest.mark.rule("RONDA-2", "RONDA-15")
class TestFewerBeans:
    def test_solver_beans_replace_the_supply(self) -> None:
        """RONDA-2 (RONDA-V1): every player receives ``solver_beans`` beans, and the beans
        conserved are the circle's 20 plus those."""
        state = new_game(Config(players=3, solver_beans=2))
        assert state.supplies == (2, 2, 2)
        assert total_beans(state) == 26
        check_state(state)

    @pytest.mark.parametrize("beans", [0, -1, 9, 10])
    def test_invalid_solver_beans(self, beans: int) -> None:
        """RONDA-2: the solver variant gives 1 to 8 beans; 9 and 10 are ``beans_per_player``'s."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(solver_beans=beans))
        assert info.value.rule == "RONDA-2"

    def test_text_sizes_unchanged(self) -> None:
        """RONDA-2: ``beans_per_player`` stays 9 or 10; 8 is refused as before."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(beans_per_player=8))
        assert info.value.rule == "RONDA-2"

    def test_solver_beans_not_an_integer(self) -> None:
        """A size that is no integer is malformed, naming the option."""
        with pytest.raises(MalformedInputError, match="solver_beans"):
            new_game(Config(solver_beans=True))

    def test_one_bean_wins_at_the_first_match(self) -> None:
        """RONDA-13 under RONDA-V1: with one bean each, the first match ends the game."""
        state = play(arranged(Config(solver_beans=1)), "lift:4 lift:5 add:4")
        assert state.phase is Phase.OVER
        result = outcome(state)
        assert result is not None and result.winners == (0,)


class TestJson:
    def test_default_left_out(self) -> None:
        """P-8: the config JSON leaves the solver variant out at its default."""
        assert "solver_beans" not in GAME.to_json(Config())
        assert GAME.config_from_json(GAME.to_json(Config())) == Config()
        small = Config(solver_beans=2)
        assert GAME.config_from_json(GAME.to_json(small)) == small


class TestExactSolving:
    def test_positions_after_one_arrangement(self) -> None:
        """RONDA-V1: two players with one bean each reach 81 distinct positions after the
        arrangement 1,1,2,2,3,3,4,4,0,0 (docs/small-configs.md)."""
        assert positions(arranged(Config(solver_beans=1), (1, 1, 2, 2, 3, 3, 4, 4, 0, 0))) == 81
