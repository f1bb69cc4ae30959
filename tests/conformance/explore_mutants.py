"""Wrong engines only an exploration finds: the reference with a rule misread in a rare
situation (a combination of player count and option the corpus never plays), and engines
with two or three such bugs of different rules.

Each rare mutant is a one-rule mutant of the kill matrix (the game's catalogue,
``copa_ref/conformance/<game>/misreadings.py``, found by its slug) that acts only where its
``when`` holds; elsewhere the engine is the reference. The proof tests
(``tests/conformance/test_explore_proof.py``) check that every one passes the whole corpus
and that ``explore`` finds it and names its rule within a bounded budget.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs

from copa_ref.conformance.engine import ProtocolError, ReferenceEngine
from copa_ref.core import JSON, misread
from copa_ref.games import GAMES

When = Callable[[Any], bool]
"""Whether the misreading acts in a state (of the reference's state type)."""


def _config(**wanted: object) -> When:
    """The misreading acts when the state's config has every one of these values (an enum
    option compared by its JSON value)."""

    def when(state: Any) -> bool:
        config = state.config
        for key, value in wanted.items():
            got = getattr(config, key)
            got = getattr(got, "value", got)
            if got != value:
                return False
        return True

    return when


@attrs.frozen
class Rare:
    """A rule misread in one situation only."""

    game: str
    base: str
    """The slug of the kill-matrix mutant misread there."""
    rule: str
    situation: str
    when: When

    @property
    def label(self) -> str:
        return f"{self.game}:{self.base}@{self.situation}"


def _base(game: str, slug: str) -> Any:
    from copa_ref.conformance.registry import record_of

    record = record_of(game)
    assert record is not None
    for mutant in record.catalogue.mutants:
        if mutant.slug == slug:
            return mutant
    msg = f"{game} has no mutant {slug!r}"
    raise KeyError(msg)


@functools.cache
def wrong_game(rare: Rare) -> Any:
    """The misread game of *rare* (built once)."""
    return misread(GAMES[rare.game], _base(rare.game, rare.base))


def conditional(bugs: tuple[Rare, ...]) -> Any:
    """The reference game with each bug's misreading acting where its ``when`` holds (the
    first that holds wins)."""
    ref = GAMES[bugs[0].game]

    def pick(state: Any) -> Any:
        for bug in bugs:
            if bug.when(state):
                return wrong_game(bug)
        return ref

    def new_game(config: Any) -> Any:
        state = ref.new_game(config)
        return pick(state).new_game(config)

    changes: dict[str, Any] = {
        "new_game": new_game,
        "to_move": lambda s: pick(s).to_move(s),
        "legal_actions": lambda s, seat: pick(s).legal_actions(s, seat),
        "apply": lambda s, a: pick(s).apply(s, a),
        "outcome": lambda s: pick(s).outcome(s),
        "observe": lambda s, seat: pick(s).observe(s, seat),
        "sample_chance": lambda s, rng: pick(s).sample_chance(s, rng),
    }
    if ref.chance_outcomes is not None:
        changes["chance_outcomes"] = lambda s: pick(s).chance_outcomes(s)
    if ref.joint is not None:
        changes["joint"] = lambda s, parts: pick(s).joint(s, parts)
    return attrs.evolve(ref, **changes)


class BuggyEngine(ReferenceEngine):
    """The reference engine playing one game with the given bugs; ``load_state`` among its
    features when *load_state* (it then starts a game from a state given in full)."""

    def __init__(self, game: Any, *, load_state: bool = False) -> None:
        super().__init__()
        self.wrong = game
        self.loads = load_state

    def hello(self) -> dict[str, JSON]:
        answer = super().hello()
        features: Any = answer["features"]
        if not self.loads:
            answer["features"] = [f for f in features if f != "load_state"]
        return {**answer, "name": "buggy"}

    def load_state(self, game: str, config: JSON, state: JSON) -> None:
        if not self.loads:
            raise ProtocolError("load_state is not supported")
        super().load_state(game, config, state)
        if game == self.wrong.name:
            self.game = self.wrong

    def new_game(self, game: str, config: JSON) -> None:
        super().new_game(game, config)
        if game == self.wrong.name:
            self.game = self.wrong
            try:
                self.state = self.wrong.new_game(self.wrong.config_from_json(config))
            except ValueError as exc:
                raise ProtocolError(f"bad config: {exc}") from None


RARE: tuple[Rare, ...] = (
    # KALA: two players only; the rare situations are combinations of its options.
    Rare("kala", "harvest-all-to-store", "KALA-15", "harvest=mandatory,first_player=1",
         _config(harvest="mandatory", first_player=1)),
    Rare("kala", "bonus-above-four", "KALA-12",
         "bonus=optional,end_check=start_of_turn,harvest=optional",
         _config(bonus="optional", end_check="start_of_turn", harvest="optional")),
    Rare("kala", "sower-keeps-excess", "KALA-14", "harvest=mandatory,bonus=optional,"
         "first_player=0", _config(harvest="mandatory", bonus="optional", first_player=0)),
    # DA CAPO
    Rare("da_capo", "losing-bids-returned", "DACAPO-10", "players=4,tie_resolution=two_level",
         _config(players=4, tie_resolution="two_level")),
    Rare("da_capo", "last-step-one-too-many-to-box", "DACAPO-14",
         "players=4,target_reached_when=line_full",
         _config(players=4, target_reached_when="line_full")),
    Rare("da_capo", "bids-above-reserve-listed", "DACAPO-7", "players=5,tie_break=beans_spent",
         _config(players=5, tie_break="beans_spent")),
    # Copas
    Rare("copas", "clockwise", "COPAS-9", "players=5,copas_lead=broken",
         _config(players=5, copas_lead="broken")),
    Rare("copas", "dealer-leads", "COPAS-8", "players=3,bonus_other_ten=book",
         _config(players=3, bonus_other_ten="book")),
    Rare("copas", "discard-can-win", "COPAS-13", "players=5,end_when_copas_out=true",
         _config(players=5, end_when_copas_out=True)),
    # HOPPER
    Rare("hopper", "no-shoot-out", "HOPPER-15", "players=4,ending=end_2,remainder=loose",
         _config(players=4, ending="end_2", remainder="loose")),
    Rare("hopper", "empty-cup-bounces", "HOPPER-7", "players=5,aiming=false",
         _config(players=5, aiming=False)),
    Rare("hopper", "replenish-one-bean", "HOPPER-10", "players=3,total_beans=50",
         _config(players=3, total_beans=50)),
    # RONDA
    Rare("ronda", "mismatch-keeps-the-turn", "RONDA-6", "players=5,relift_after_match=true",
         _config(players=5, relift_after_match=True)),
    Rare("ronda", "stop-keeps-the-turn", "RONDA-9", "players=3,max_beans=4",
         _config(players=3, max_beans=4)),
    Rare("ronda", "empty-cups-never-match", "RONDA-7", "players=4,beans_per_player=9",
         _config(players=4, beans_per_player=9)),
    # Kopa
    Rare("kopa", "drawn-card-kept", "KOPA-18", "players=2,false_pass=refused",
         _config(players=2, false_pass="refused")),
    Rare("kopa", "skipping-up", "KOPA-12", "players=5,target=30",
         _config(players=5, target=30)),
    Rare("kopa", "eight-on-seven-or-nine", "KOPA-13", "players=4,declined_draw=free",
         _config(players=4, declined_draw="free")),
)
"""The rare-situation mutants, three a game."""


def rare_of(game: str) -> tuple[Rare, ...]:
    """The game's rare-situation mutants."""
    return tuple(r for r in RARE if r.game == game)


MULTI: dict[str, tuple[tuple[Rare, ...], ...]] = {
    game: (rare_of(game)[:2], rare_of(game)) for game in sorted({r.game for r in RARE})
}
"""Per game two engines with bugs of different rules: the first two rare mutants, and all
three (an exploration that names all three bugs of the second in one run finds each rare
mutant too)."""


def engine_for(labels: list[str], *, load_state: bool = False) -> BuggyEngine:
    """The engine with the bugs named by their labels (one game)."""
    bugs = tuple(r for label in labels for r in RARE if r.label == label)
    if len(bugs) != len(labels) or len({b.game for b in bugs}) != 1:
        msg = f"unknown or mixed labels: {labels}"
        raise KeyError(msg)
    return BuggyEngine(conditional(bugs), load_state=load_state)


if __name__ == "__main__":  # python tests/conformance/explore_mutants.py [--load-state] LABEL...
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from copa_ref.conformance.engine import serve
    from tests.conformance.explore_mutants import engine_for as _engine_for

    arguments = sys.argv[1:]
    loads = "--load-state" in arguments
    sys.exit(serve(_engine_for([a for a in arguments if a != "--load-state"],
                               load_state=loads)))
