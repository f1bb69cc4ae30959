"""KALA-V1, the solver variant: smaller stores (``Config.store``), a game tree small enough
for exact solvers, and the JSON that leaves the option out at its default (P-8)."""

from __future__ import annotations

import pytest

from copa_ref.core import InvalidStateError, MalformedInputError, MoverKind
from copa_ref.kala import GAME, Config, Phase, Sow, State, new_game
from copa_ref.kala.rules import apply, check_state, total_beans


def tree_size(state: State) -> int:
    """Every node of the game tree below *state*, itself included (positions not merged)."""
    mover = GAME.to_move(state)
    if mover.kind is MoverKind.NOBODY:
        return 1
    return 1 + sum([tree_size(GAME.apply(state, a)) for a in GAME.legal_actions(state, None)])


@pytest.mark.rule("KALA-1", "KALA-18")
class TestSmallerStores:
    def test_store_sets_both_stores(self) -> None:
        """KALA-1 (KALA-V1): each store starts with ``Config.store`` beans, and the beans
        conserved are twice the store."""
        state = new_game(Config(store=8))
        assert state.stores == (8, 8)
        assert total_beans(state) == 16
        check_state(state)

    @pytest.mark.parametrize("store", [3, 0, -1, 29, 56])
    def test_invalid_store(self, store: int) -> None:
        """KALA-1: a store holds 4 to 28 beans; anything else is refused by ``new_game``."""
        with pytest.raises(InvalidStateError) as info:
            new_game(Config(store=store))
        assert info.value.rule == "KALA-1"

    def test_store_not_an_integer(self) -> None:
        """A store that is no integer is malformed, naming the option."""
        with pytest.raises(MalformedInputError, match="store"):
            new_game(Config(store=True))

    def test_conservation_counts_the_small_store(self) -> None:
        """KALA-18 (KALA-V1): a state of the small game holding 56 beans is refused."""
        state = new_game(Config(store=8))
        forged = GAME.state_from_json({**GAME.to_json(state), "stores": [8, 8]})
        assert forged == state
        with pytest.raises(InvalidStateError) as info:
            GAME.state_from_json({**GAME.to_json(state), "stores": [28, 28]})
        assert info.value.rule == "KALA-18"

    def test_four_beans_lose_at_once(self) -> None:
        """KALA-17 under KALA-V1: with 4 beans a store the first sowing empties the mover's
        store, and he loses."""
        state = new_game(Config(store=4))
        after = apply(state, Sow(0, ((0, 0), (0, 1), (0, 2), (0, 3))))
        assert after.phase is Phase.OVER
        outcome = GAME.outcome(after)
        assert outcome is not None and outcome.losers == (0,)


class TestJson:
    def test_default_store_left_out(self) -> None:
        """P-8: the config JSON leaves the solver variant out at its default, and a config
        without it has the default."""
        assert "store" not in GAME.to_json(Config())
        assert GAME.config_from_json(GAME.to_json(Config())) == Config()

    def test_small_store_round_trips(self) -> None:
        """P-8: a small store is written and read back."""
        data = GAME.to_json(Config(store=8))
        assert data["store"] == 8
        assert GAME.config_from_json(data) == Config(store=8)

    def test_unknown_key_still_refused(self) -> None:
        """P-8: only the solver variant may be absent; other keys stay exact."""
        with pytest.raises(MalformedInputError):
            GAME.config_from_json({**GAME.to_json(Config()), "stores": 8})
        data = GAME.to_json(Config())
        del data["harvest"]
        with pytest.raises(MalformedInputError, match="harvest"):
            GAME.config_from_json(data)


class TestExactSolving:
    def test_tree_size(self) -> None:
        """KALA-V1: the whole tree of the 8-bean game has 547 nodes (docs/small-configs.md)."""
        assert tree_size(new_game(Config(store=8))) == 547

    def test_alpha_beta_solves_the_small_game(self) -> None:
        """OpenSpiel's alpha-beta search plays the 8-bean game to its end: the first player
        loses with best play."""
        pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed")
        from open_spiel.python.algorithms import minimax

        from copa_ref.adapters import openspiel

        openspiel.register()
        game = pyspiel.load_game("copa_ref_kala", {"store": 8})
        value, _ = minimax.alpha_beta_search(game, maximizing_player_id=0)
        assert value == -1.0
