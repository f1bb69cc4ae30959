"""The ``copa-ref`` command line: every subcommand explains itself with a description and an
example; ``demo`` takes a game, a seed and a table size; ``export`` writes the published
corpus; ``generate`` refuses to write into an installed package."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest

from copa_ref import cli
from copa_ref.cli import build_parser, main
from copa_ref.conformance import corpus as corpus_module
from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parent.parent


def subcommands(parser: argparse.ArgumentParser, path: str = "copa-ref"
                ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser under *parser*, by its command path."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield f"{path} {name}", child
                yield from subcommands(child, f"{path} {name}")


class TestHelp:
    def test_every_subcommand_has_a_description_and_an_example(self) -> None:
        """``--help`` of each subcommand says what it does and shows how to call it."""
        found = dict(subcommands(build_parser()))
        assert {"copa-ref demo", "copa-ref games", "copa-ref engine", "copa-ref conformance",
                "copa-ref conformance run", "copa-ref conformance export",
                "copa-ref conformance generate"} <= found.keys()
        for path, parser in found.items():
            assert parser.description and len(parser.description) > 40, path
            text = parser.format_help()
            assert "examples:\n  " in text and path in text.split("examples:")[1], path

    def test_top_level_names_only_the_registered_games(self) -> None:
        """The top-level help names every registered game and no other."""
        text = build_parser().format_help()
        assert all(game.title in text for game in GAMES.values())
        assert "Kopa" in text or "kopa" not in GAMES

    def test_help_exits_cleanly(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``copa-ref engine --help`` prints its description and exits 0."""
        with pytest.raises(SystemExit) as exit_:
            main(["engine", "--help"])
        assert exit_.value.code == 0
        assert "stdin" in capsys.readouterr().out


class TestDemo:
    @pytest.mark.parametrize("name", sorted(GAMES))
    def test_every_game_every_table(self, name: str) -> None:
        """``copa-ref demo GAME --seed N --players K`` plays for every allowed K, the same
        way every time."""
        game = GAMES[name]
        for players in range(game.facts.min_players, game.facts.max_players + 1):
            lines = cli.demo_lines(game, 2, players)
            assert lines == cli.demo_lines(game, 2, players)
            assert len(lines) > 5

    def test_refused_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        """A player count the game does not allow is refused with exit status 2."""
        assert main(["demo", "kala", "--players", "3"]) == 2
        assert "KALA is played by 2 players" in capsys.readouterr().err

    def test_players_needs_a_game(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``--players`` without a game is refused."""
        assert main(["demo", "--players", "3"]) == 2
        assert "--players needs a GAME" in capsys.readouterr().err


class TestCorpusCommands:
    def test_export(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """``conformance export DIR`` copies the published corpus, byte for byte."""
        assert main(["conformance", "export", str(tmp_path / "out")]) == 0
        corpus = ROOT / "conformance"
        for pattern in corpus_module.PUBLISHED:
            for path in corpus.glob(pattern):
                copy = tmp_path / "out" / path.relative_to(corpus)
                assert copy.read_bytes() == path.read_bytes()
        assert "files written" in capsys.readouterr().out

    def test_export_onto_itself_refused(self, capsys: pytest.CaptureFixture[str]) -> None:
        """Exporting onto the corpus folder itself is refused."""
        assert main(["conformance", "export", str(ROOT / "conformance")]) == 2
        assert "is the corpus itself" in capsys.readouterr().err

    def test_generate_refused_outside_a_checkout(
            self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        """Run from an installed package, ``generate`` without ``--out`` writes nothing and
        says why."""
        monkeypatch.setattr(corpus_module, "checkout_root", lambda: None)
        assert main(["conformance", "generate"]) == 2
        err = capsys.readouterr().err
        assert "not from a checkout" in err and "export" in err

    @pytest.mark.parametrize(("mode", "shown"), [("always", True), ("never", False),
                                                 ("auto", False)])
    def test_generate_progress(self, mode: str, shown: bool, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
        """``generate`` draws its progress on stderr on a terminal (or ``--progress
        always``) and stays quiet when piped; stdout gets the counts and the time."""
        from copa_ref.conformance import generate

        def fake(out: Path, *, progress: generate.Progress) -> dict[str, dict[str, int]]:
            for number, name in enumerate(("kala", "copas"), 1):
                progress(name, number, 2)
            return {"kala": {"trace": 1}}

        monkeypatch.setattr(generate, "write_corpus", fake)
        assert main(["conformance", "generate", "--out", str(tmp_path),
                     "--progress", mode]) == 0
        captured = capsys.readouterr()
        assert ("generating copas (2/2)" in captured.err) == shown
        assert captured.err == "" or shown
        assert "kala       1 traces" in captured.out and " s\n" in captured.out

