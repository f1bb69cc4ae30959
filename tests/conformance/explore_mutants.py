"""Wrong engines only an exploration finds: the reference with a rule misread in a rare
situation (a combination of player count and option the corpus never plays), and engines
with two or three such bugs of different rules.

The rare misreadings are game knowledge: each game's catalogue lists them
(``Catalogue.rare`` in ``copa_ref/conformance/<game>/misreadings.py``), each a one-rule
mutant of the kill matrix (by its slug) with the config values under which it acts;
elsewhere the engine is the reference. This module is the test machinery around them: the
engines acting on a condition, the multi-bug engines composed of several, and a command
that serves one. The proof tests (``tests/conformance/test_explore_proof.py``) check that
every one passes the whole corpus and that ``explore`` finds it and names its rule within a
bounded budget.
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from copa_ref.conformance.engine import ProtocolError, ReferenceEngine
from copa_ref.conformance.registry import record_of
from copa_ref.conformance.vocabulary import Catalogue
from copa_ref.conformance.vocabulary import Rare as RareEntry
from copa_ref.core import JSON, Misreading, misread
from copa_ref.games import GAMES


def _catalogue(game: str) -> Catalogue:
    record = record_of(game)
    assert record is not None, f"{game} has no conformance record"
    return record.catalogue


@attrs.frozen
class Rare:
    """A rule misread in one situation only: a game's catalogue entry, with its game."""

    game: str
    entry: RareEntry

    @property
    def base(self) -> str:
        """The slug of the kill-matrix mutant misread there."""
        return self.entry.mutant

    @property
    def mutant(self) -> Misreading:
        return _catalogue(self.game).mutant(self.base)

    @property
    def rule(self) -> str:
        return self.mutant.rule

    @property
    def situation(self) -> str:
        return self.entry.label

    @property
    def label(self) -> str:
        return f"{self.game}:{self.base}@{self.situation}"

    def when(self, state: Any) -> bool:
        """Whether the misreading acts in *state* (a state of the reference's type)."""
        return _acts(self, state.config)


@functools.cache
def _acts(rare: Rare, config: Any) -> bool:
    """Whether *rare* acts under *config* (asked at every step: computed once a config)."""
    data = GAMES[rare.game].to_json(config)
    return isinstance(data, dict) and rare.entry.acts(data)


@functools.cache
def wrong_game(rare: Rare) -> Any:
    """The misread game of *rare* (built once)."""
    return misread(GAMES[rare.game], rare.mutant)


def conditional(bugs: tuple[Rare, ...]) -> Any:
    """The reference game with each bug's misreading acting where its ``when`` holds (the
    first that holds wins)."""
    ref = GAMES[bugs[0].game]

    def pick(state: Any) -> Any:
        for bug in bugs:
            if bug.when(state):
                return wrong_game(bug)
        return ref

    return dispatched(ref, pick)


def dispatched(ref: Any, pick: Any) -> Any:
    """The game *ref* whose every function is the one of the game ``pick(state)`` names."""

    def new_game(config: Any) -> Any:
        return pick(ref.new_game(config)).new_game(config)

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


RARE: tuple[Rare, ...] = tuple(
    Rare(game, entry) for game in sorted(GAMES) for entry in _catalogue(game).rare)
"""The rare-situation mutants of every game's catalogue, three a game."""


def rare_of(game: str) -> tuple[Rare, ...]:
    """The game's rare-situation mutants."""
    return tuple(r for r in RARE if r.game == game)


MULTI: dict[str, tuple[tuple[Rare, ...], ...]] = {
    game: (rare_of(game)[:2], rare_of(game)) for game in sorted({r.game for r in RARE})
}
"""Per game two engines with bugs of different rules: the first two rare mutants, and all
three (an exploration that names all three bugs of the second in one run finds each rare
mutant too)."""


def merged(game: str, mutants: tuple[Misreading, ...]) -> Misreading:
    """One misreading acting as all of *mutants* at once (their replacements in one copy
    of the game's rules module; they must replace different names)."""
    modules = {m.module_name(game) for m in mutants}
    replacements: dict[str, object] = {}
    for mutant in mutants:
        theirs = dict(mutant.replacements)
        clash = set(replacements) & set(theirs)
        assert len(modules) == 1 and not clash, (game, [m.slug for m in mutants], clash)
        replacements.update(theirs)
    return Misreading(rule=mutants[0].rule, slug="+".join(m.slug for m in mutants),
                      description="; ".join(m.description for m in mutants),
                      replacements=replacements, module=mutants[0].module)


@attrs.frozen
class Several:
    """An engine with bugs of different rules at once: mutants of the kill matrix acting
    in every game (*always*, the first on every game's path) and a rare-situation mutant
    acting under its config only."""

    game: str
    always: tuple[str, ...]
    """Slugs of kill-matrix mutants acting everywhere."""
    rare: str
    """The label-free slug of one of the game's rare-situation mutants."""

    @property
    def mutants(self) -> tuple[Misreading, ...]:
        catalogue = _catalogue(self.game)
        return tuple(catalogue.mutant(slug) for slug in self.always)

    @property
    def rare_bug(self) -> Rare:
        return next(r for r in rare_of(self.game) if r.base == self.rare)

    @property
    def rules(self) -> tuple[str, ...]:
        return (*(m.rule for m in self.mutants), self.rare_bug.rule)

    def wrong(self) -> Any:
        """The wrong game: the *always* mutants everywhere, the rare one too under its
        config."""
        ref = GAMES[self.game]
        everywhere = misread(ref, merged(self.game, self.mutants))
        rare = self.rare_bug
        there = misread(ref, merged(self.game, (*self.mutants, rare.mutant)))

        def pick(state: Any) -> Any:
            return there if rare.when(state) else everywhere

        return dispatched(ref, pick)


SEVERAL: dict[str, Several] = {
    "copas": Several("copas", ("revoke-allowed", "copas-must-be-broken"), "clockwise"),
    "da_capo": Several("da_capo", ("bid-of-zero", "out-seat-still-to-move"),
                       "losing-bids-returned"),
    "hopper": Several("hopper", ("claimed-beans-to-box", "five-cups-win"), "no-shoot-out"),
    "kala": Several("kala", ("two-turns", "placed-diagonally"), "harvest-all-to-store"),
    "kopa": Several("kopa", ("any-card-starts-a-pile", "eight-on-seven-or-nine"),
                    "drawn-card-kept"),
    "ronda": Several("ronda", ("mismatch-not-shown", "no-penalty-beans"),
                     "stop-keeps-the-turn"),
}
"""Per game an engine with three bugs of different rules at once: the first on every
game's path (a difference every game meets, that leaves the positions in step), the second
common, the third rare. Only lockstep names all three without ``load_state``."""


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
