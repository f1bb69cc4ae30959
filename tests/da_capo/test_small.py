"""DACAPO-V1, the solver variant: fewer beans each (``Config.beans``), a game tree small
enough for exact solvers, and the JSON that leaves the option out at its default (P-8)."""

from __future__ import annotations

import pytest

from copa_ref.core import InvalidStateError, MalformedInputError, MoverKind
from copa_ref.da_capo import GAME, Bid, Config, State, new_game
from copa_ref.da_capo.rules import check_state


def tree_size(state: State) -> int:
    """Every node of the game tree below *state*, itself included (a joint round of bids is
    one action; positions not merged)."""
    mover = GAME.to_move(state)
    if mover.kind is MoverKind.NOBODY:
        return 1
    assert GAME.joint is not None
    combos: list[tuple[Bid, ...]] = [()]
    for seat in mover.seats:
        combos = [(*c, b) for c in combos for b in GAME.legal_actions(state, seat)]
    return 1 + sum([tree_size(GAME.apply(state, GAME.joint(state, c))) for c in combos])


@pytest.mark.rule("DACAPO-3")
class TestFewerBeans:
    def test_beans_fill_every_reserve(self) -> None:
        """DACAPO-3 (DACAPO-V1): every reserve starts with ``Config.beans``."""
        state = new_game(Config(players=3, beans=4))
        assert state.reserves == (4, 4, 4)
        check_state(state)

    @pytest.mark.parametrize("beans", [0, -1, 17, 32])
    def test_invalid_beans(self, beans: int) -> None:
        """DACAPO-3: a player receives 1 to 16 beans; anything else is refused."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(beans=beans))
        assert info.value.rule == "DACAPO-3"

    def test_beans_not_an_integer(self) -> None:
        """Beans that are no integer are malformed, naming the option."""
        with pytest.raises(MalformedInputError, match="beans"):
            new_game(Config(beans="4"))  # type: ignore[arg-type]

    def test_conservation_counts_the_config(self) -> None:
        """DACAPO-3 (DACAPO-V1): a small game's state claiming 16 beans a reserve is
        refused."""
        state = new_game(Config(beans=4))
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json({**GAME.to_json(state), "reserves": [16, 16]})
        assert info.value.rule == "DACAPO-3"


class TestJson:
    def test_default_beans_left_out(self) -> None:
        """P-8: the config JSON leaves the solver variant out at its default."""
        assert "beans" not in GAME.to_json(Config())
        assert GAME.config_from_json(GAME.to_json(Config())) == Config()
        assert GAME.config_from_json(GAME.to_json(Config(beans=3))) == Config(beans=3)


class TestExactSolving:
    @pytest.mark.parametrize(("beans", "nodes"), [(1, 2), (4, 70), (6, 913)])
    def test_tree_size(self, beans: int, nodes: int) -> None:
        """DACAPO-V1: the whole two-player tree (docs/small-configs.md)."""
        assert tree_size(new_game(Config(beans=beans))) == nodes
