"""The ``copa-ref`` command line: every subcommand explains itself with a description and an
example; ``demo`` takes a game, a seed and a table size; ``export`` writes the published
corpus; ``generate`` refuses to write into an installed package."""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from copa_ref import cli
from copa_ref.cli import build_parser, main
from copa_ref.conformance import corpus as corpus_module
from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parent.parent

OUT_OF_RANGE = "-".join(("KALA", "99"))  # built, so that no file cites a rule no spec has


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



# Each subcommand with bad input: a refusal of one line on stderr, exit status 2, never a
# traceback. The command paths cover every subcommand the parser has (checked below).
BAD_INPUT = [
    ("copa-ref", [], "required: COMMAND"),
    ("copa-ref", ["--frobnicate"], "required: COMMAND"),
    ("copa-ref demo", ["demo", "dacapo"], "did you mean da_capo?"),
    ("copa-ref demo", ["demo", "kala", "--seed", "x"], "invalid int value"),
    ("copa-ref demo", ["demo", "kala", "--players", "3"], "KALA is played by 2 players"),
    ("copa-ref demo", ["demo", "kala", "--option", "harvst=mandatory"],
     "did you mean harvest?"),
    ("copa-ref demo", ["demo", "kala", "--option", "harvest=maybe"],
     "is one of optional, mandatory"),
    ("copa-ref demo", ["demo", "kala", "--option", "harvest"], "expected field=value"),
    ("copa-ref demo", ["demo", "hopper", "--option", "players=9"], "HOPPER-1"),
    ("copa-ref demo", ["demo", "--option", "players=3"], "--option needs a GAME"),
    ("copa-ref games", ["games", "extra"], "unrecognized arguments"),
    ("copa-ref play", ["play"], "required: GAME"),
    ("copa-ref play", ["play", "kala", "--seat", "2"], "this KALA table has seats 0 to 1"),
    ("copa-ref play", ["play", "kala", "--seat", "-1"], "is not a seat number"),
    ("copa-ref play", ["play", "kala", "--players", "3"], "KALA is played by 2 players"),
    ("copa-ref engine", ["engine", "--port", "1"], "unrecognized arguments"),
    ("copa-ref kopa-example", ["kopa-example", "--all"], "unrecognized arguments"),
    ("copa-ref conformance", ["conformance"], "required: COMMAND"),
    ("copa-ref conformance", ["conformance", "runn"], "invalid choice"),
    ("copa-ref conformance run", ["conformance", "run"], "required: --engine"),
    ("copa-ref conformance run", ["conformance", "run", "--engine", "x", "--game", "kalla"],
     "did you mean kala?"),
    ("copa-ref conformance run", ["conformance", "run", "--engine", "x", "--rule", "KAL-7"],
     "did you mean KALA-7?"),
    ("copa-ref conformance run", ["conformance", "run", "--engine", "x", "--rule", "seven"],
     "is not a rule ID"),
    ("copa-ref conformance run", ["conformance", "run", "--engine", "/no/such/engine",
                                  "--game", "kala"], "did not start"),
    ("copa-ref conformance rule", ["conformance", "rule", "KALA" + "-99"],
     "not KALA" + "-99"),
    ("copa-ref conformance rule", ["conformance", "rule"], "required: rule"),
    ("copa-ref conformance list", ["conformance", "list", "--kind", "configs"],
     "invalid choice"),
    ("copa-ref conformance list", ["conformance", "list", "--case", "nope/*"],
     "no case selected"),
    ("copa-ref conformance list", ["conformance", "list", "--game", "dacapo"],
     "did you mean da_capo?"),
    ("copa-ref conformance export", ["conformance", "export", "{file}"],
     "it is a file, not a folder"),
    ("copa-ref conformance export", ["conformance", "export", "{file}/under"],
     "cannot export"),
    ("copa-ref conformance explore", ["conformance", "explore", "--engine", "x", "--games",
                                      "nope"], "'nope' is not a number of games"),
    ("copa-ref conformance explore", ["conformance", "explore", "--engine", "x", "--games",
                                      "0"], "'0' is not a number of games, 1 or more"),
    ("copa-ref conformance explore", ["conformance", "explore", "--engine", "x", "--time",
                                      "-5"], "is not a positive number of seconds"),
    ("copa-ref conformance explore", ["conformance", "explore", "--engine", "x", "--jobs",
                                      "0"], "is not a number of jobs"),
    ("copa-ref conformance run", ["conformance", "run", "--engine", "x", "--timeout", "-1"],
     "'-1' is not a positive number of seconds"),
    ("copa-ref conformance run", ["conformance", "run", "--engine", "x", "--timeout", "inf"],
     "'inf' is not a positive number of seconds"),
    ("copa-ref conformance list", ["conformance", "list", "--rule", OUT_OF_RANGE.lower()],
     f"KALA has rules KALA-1 to KALA-18, not {OUT_OF_RANGE}"),
    ("copa-ref conformance merge", ["conformance", "merge", "{file}/none"],
     "Not a directory"),
    ("copa-ref conformance generate", ["conformance", "generate", "--out", "{file}"],
     "it is a file, not a folder"),
    ("copa-ref conformance generate", ["conformance", "generate", "--progress", "loud"],
     "invalid choice"),
]


def test_bad_input_covers_every_subcommand() -> None:
    """The bad-input table below names every subcommand the parser has."""
    assert {path for path, _ in subcommands(build_parser())} | {"copa-ref"} == {
        path for path, _, _ in BAD_INPUT}


@pytest.mark.parametrize(("path", "argv", "said"), BAD_INPUT,
                         ids=[" ".join(argv) or "(none)" for _, argv, _ in BAD_INPUT])
def test_bad_input_is_one_line_and_status_2(path: str, argv: list[str], said: str,
                                            tmp_path: Path) -> None:
    """``python -m copa_ref`` with bad input prints one line, no traceback, exit 2."""
    existing = tmp_path / "a-file"
    existing.write_text("not a folder\n")
    argv = [a.replace("{file}", str(existing)) for a in argv]
    done = subprocess.run([sys.executable, "-m", "copa_ref", *argv], capture_output=True,
                          text=True, timeout=120, check=False, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n"), done.stderr
    assert said in done.stderr
    assert done.stderr.startswith(f"{path}: error: "), done.stderr   # one prefix for all
    assert existing.read_text() == "not a folder\n"


class TestTopLevel:
    def test_version(self) -> None:
        """``python -m copa_ref --version`` names the package, corpus and protocol versions."""
        from copa_ref import __version__

        done = subprocess.run([sys.executable, "-m", "copa_ref", "--version"],
                              capture_output=True, text=True, timeout=60, check=True)
        assert done.stdout.startswith(f"copa-ref {__version__} (corpus ")
        assert "protocol" in done.stdout

    def test_interrupt_is_status_130_without_a_traceback(
            self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        """Ctrl-C during a command: one line, exit status 130."""
        def interrupted(*args: object, **kwargs: object) -> list[str]:
            raise KeyboardInterrupt

        monkeypatch.setattr(cli, "demo_lines", interrupted)
        assert main(["demo", "kala"]) == cli.INTERRUPTED
        assert capsys.readouterr().err.strip() == "copa-ref: interrupted"

    @pytest.mark.parametrize(("given", "meant"), [("kala-7", "KALA-7"), ("Copas-09", "COPAS-9"),
                                                  ("KALA-7", "KALA-7")])
    def test_rule_ids_any_case(self, given: str, meant: str) -> None:
        """``--rule`` takes a rule ID in any case."""
        args = build_parser().parse_args(["conformance", "run", "--engine", "x",
                                          "--rule", given])
        assert args.rule == meant

    @pytest.mark.parametrize(("given", "meant"), [("KALA", "kala"), ("da capo", "da_capo"),
                                                  ("Copas", "copas")])
    def test_game_names_any_case_or_title(self, given: str, meant: str) -> None:
        """A game is named by its registry name in any case, or by its title."""
        assert build_parser().parse_args(["demo", given]).game == meant


class TestDemoOptions:
    def test_option_changes_the_game(self) -> None:
        """``demo hopper --option ending=end_2`` plays End 2 whatever the seed."""
        config = cli.parse_options(GAMES["hopper"], ["ending=end_2", "players=3"])
        lines = cli.demo_lines(GAMES["hopper"], 1, None, config)
        assert "End 2" in lines[0] and "3 simple players" in lines[0]
        assert lines[-1].endswith("(HOPPER-17).")

    def test_option_values_as_json(self) -> None:
        """Values are read as JSON when they are JSON (numbers, true/false), else as text."""
        config = cli.parse_options(GAMES["ronda"], ["relift_after_match=true", "max_beans=4"])
        assert config.relift_after_match is True and config.max_beans == 4

    def test_option_on_the_command_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        """``copa-ref demo kala --option harvest=mandatory`` plays under that option."""
        assert main(["demo", "kala", "--option", "harvest=mandatory"]) == 0
        assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("result: ")


def test_conformance_list(capsys: pytest.CaptureFixture[str]) -> None:
    """``conformance list`` prints each selected case with its kind, rules and description,
    and the count on stderr; rule IDs in any case."""
    assert main(["conformance", "list", "--game", "kala", "--kind", "config"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines and all(line.startswith("kala/config/") for line in lines)
    assert any("[config; KALA-3]" in line and "seats are 0 and 1" in line for line in lines)
    assert captured.err.strip() == f"{len(lines)} of " + captured.err.split(" of ")[1].strip()
    assert main(["conformance", "list", "--rule", "copas-17", "--kind", "trace"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out and all("COPAS-17" in line for line in out)
