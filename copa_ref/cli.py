"""The ``copa-ref`` command: demos of the reference playing, the list of games, the
reference as a conformance engine (``copa-ref engine``) and the conformance corpus
(``copa-ref conformance run`` / ``export`` / ``generate``).

Each subcommand is one ``_add`` call (name, what it does, examples) and one function taking
the parsed arguments and returning the exit status.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from copa_ref.games import GAMES, AnyGame, get_game

__all__ = ["build_parser", "main"]

Command = Callable[[argparse.Namespace], int]


class _Formatter(argparse.HelpFormatter):
    """Wraps each paragraph of a description; keeps indented lines (the examples) as they are."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(line if not line or line.startswith("  ")
                         else textwrap.fill(line, width, initial_indent=indent,
                                            subsequent_indent=indent)
                         for line in text.splitlines())


class CommandError(Exception):
    """A request the command refuses, with the message the user sees (exit status 2)."""


def _titles() -> str:
    titles = [game.title for _, game in sorted(GAMES.items())]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]


def _players(game: AnyGame) -> str:
    facts = game.facts
    return (f"{facts.min_players}" if facts.min_players == facts.max_players
            else f"{facts.min_players}-{facts.max_players}")


# -- demo, games, engine -------------------------------------------------------------------

def _demo(args: argparse.Namespace) -> int:
    if args.players is not None and args.game is None:
        msg = "--players needs a GAME: copa-ref demo da_capo --players 4"
        raise CommandError(msg)
    names = [args.game] if args.game else sorted(GAMES)
    for name in names:
        for line in demo_lines(get_game(name), args.seed, args.players):
            print(line)
        print()
    return 0


def demo_lines(game: AnyGame, seed: int, players: int | None = None) -> list[str]:
    """The lines of *game*'s demo for *seed* (and *players* seats, where the demo lets the
    table size be chosen).

    :raises CommandError: for a player count the game or its demo does not allow.
    """
    if players is None:
        return list(game.demo(seed))
    facts = game.facts
    if not facts.min_players <= players <= facts.max_players:
        msg = f"{game.title} is played by {_players(game)} players, not {players}"
        raise CommandError(msg)
    demo: Any = game.demo
    if "players" not in inspect.signature(demo).parameters:
        if players == game.num_players(game.default_config()):
            return list(demo(seed))
        msg = f"the {game.title} demo plays a fixed table; --players is not supported"
        raise CommandError(msg)
    return list(demo(seed, players=players))


def _games(args: argparse.Namespace) -> int:
    for name, game in sorted(GAMES.items()):
        facts = game.facts
        traits = [t for t, on in (("chance", facts.chance),
                                  ("hidden information", facts.hidden_information),
                                  ("simultaneous moves", facts.simultaneous)) if on]
        print(f"{name:10} {game.title:10} rules {game.prefix}-n, {_players(game)} players"
              + (f", {', '.join(traits)}" if traits else ""))
    return 0


def _engine(args: argparse.Namespace) -> int:
    from copa_ref.conformance.engine import MemoEngine, serve

    return serve(MemoEngine())


# -- the corpus ----------------------------------------------------------------------------

def _generate(args: argparse.Namespace) -> int:
    from copa_ref.conformance.corpus import NoCheckoutError, checkout_corpus
    from copa_ref.conformance.generate import write_corpus

    try:
        out = Path(args.out) if args.out else checkout_corpus()
    except NoCheckoutError as exc:
        raise CommandError(str(exc)) from None
    show = _shows_progress(args)
    started = time.perf_counter()

    def progress(game: str, number: int, of: int) -> None:
        if show:
            sys.stderr.write(f"\rgenerating {game} ({number}/{of}), "
                             f"{time.perf_counter() - started:.1f} s ")
            sys.stderr.flush()

    counts = write_corpus(out, progress=progress)
    if show:
        sys.stderr.write("\n")
    for game, kinds in counts.items():
        print(f"{game:10} " + ", ".join(f"{n} {kind}s" for kind, n in kinds.items()))
    print(f"written to {out} in {time.perf_counter() - started:.1f} s")
    return 0


def _shows_progress(args: argparse.Namespace) -> bool:
    """Whether to draw a progress line on stderr (``--progress``; auto: on a terminal)."""
    return bool(args.progress == "always"
                or (args.progress == "auto" and sys.stderr.isatty()))


def _export(args: argparse.Namespace) -> int:
    from copa_ref.conformance.corpus import ExportError, corpus_dir, export_corpus
    from copa_ref.core.codec import clip

    source = corpus_dir()
    dest = Path(args.dir)
    if dest.resolve() == source.resolve():
        msg = f"{dest} is the corpus itself; export writes a copy elsewhere"
        raise CommandError(msg)
    try:
        written = export_corpus(dest, source)
    except (ExportError, OSError) as exc:
        raise CommandError(f"cannot export: {clip(str(exc))}") from None
    version = (source / "VERSION").read_text().strip()
    print(f"corpus {version}: {len(written)} files written to {dest}")
    return 0


def _kopa_example(args: argparse.Namespace) -> int:
    from copa_ref.kopa.example import diagnose, report

    for line in report(diagnose()):
        print(line)
    return 0


def _run(args: argparse.Namespace) -> int:
    from copa_ref.conformance.cli import run

    return run(args)


# -- the parser ----------------------------------------------------------------------------

def _add(sub: Any, name: str, func: Command, summary: str, description: str,
         examples: Sequence[str]) -> argparse.ArgumentParser:
    """Add subcommand *name*: its one-line *summary* (in the parent's list), *description*
    and *examples* (in its own ``--help``)."""
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=summary, description=description,
        epilog="examples:\n" + "\n".join(f"  {e}" for e in examples),
        formatter_class=_Formatter)
    parser.set_defaults(func=func)
    return parser


def _add_progress(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                        help="the progress line on stderr (default: when stderr is a terminal)")


def _add_run_options(run: argparse.ArgumentParser) -> None:
    run.add_argument("--engine", required=True,
                     help='the engine command, e.g. "copa-ref engine" or "./my-engine --json"')
    run.add_argument("--corpus", metavar="DIR",
                     help="another corpus folder (default: the corpus this copy carries)")
    run.add_argument("--game", help="only this game")
    run.add_argument("--case", help="only this case ID (or a glob pattern: 'kala/trace/*')")
    run.add_argument("--rule", help="only cases covering this rule ID")
    run.add_argument("--kind", choices=("trace", "rejection", "count", "config"),
                     help="only this kind")
    run.add_argument("--report", help="write the JSON-lines report to this file ('-': stdout)")
    run.add_argument("--failures-only", action="store_true",
                     help="show only failed and errored cases, and the totals")
    run.add_argument("--timeout", type=float, default=10.0,
                     help="seconds to wait for each answer (default 10)")
    _add_progress(run)
    run.add_argument("--validate", action="store_true",
                     help="validate the corpus files against their JSON Schema first")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``copa-ref`` command."""
    from copa_ref.conformance.observables import PROTOCOL_VERSION

    parser = argparse.ArgumentParser(
        prog="copa-ref",
        description=f"The formally specified reference rules of {_titles()}: watch them "
        "play, serve them as a conformance engine, or run the conformance corpus against "
        "your own engine.",
        epilog="examples:\n  copa-ref demo kala\n  copa-ref conformance run --engine "
        '"./my-engine"\n\n"copa-ref COMMAND --help" describes each command.',
        formatter_class=_Formatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = _add(
        sub, "demo", _demo, "watch the reference play a seeded game",
        "Play a seeded game between simple players and tell it move by move in plain words: "
        "a picture of the position with its legend, one line for each rule that fires, and "
        "the result with its reason. The same seed always plays the same game.",
        ["copa-ref demo kala", "copa-ref demo da_capo --seed 7 --players 4",
         "copa-ref demo          (every game in turn)"])
    demo.add_argument("game", nargs="?", choices=sorted(GAMES), metavar="GAME",
                      help=f"the game, one of {', '.join(sorted(GAMES))} (default: every "
                      "game in turn)")
    demo.add_argument("--seed", type=int, default=1, help="the seed of the players (default 1)")
    demo.add_argument("--players", type=int, metavar="K",
                      help="how many players (default: the demo's own choice)")

    _add(sub, "games", _games, "list the games the reference implements",
         "List every game of the reference: its registry name (used by the other commands), "
         "its title, its rule-ID prefix, how many play and what kind of game it is.",
         ["copa-ref games"])

    _add(sub, "engine", _engine, "serve the reference as a conformance engine",
         "Serve the reference as a conformance engine: one JSON request a line on stdin, one "
         "JSON answer a line on stdout (the engine protocol of conformance/README.md). It "
         "passes every case of the corpus; use it to try the runner, or as a model for your "
         "own engine's adapter.",
         ['copa-ref conformance run --engine "copa-ref engine"',
          f"echo '{{\"op\":\"start\",\"protocol\":\"{PROTOCOL_VERSION}\"}}' | copa-ref engine"])

    _add(sub, "kopa-example", _kopa_example, "diagnose the Kopa text's worked example",
         "Replay the Kopa text's worked example (its moves read from a data file) against the "
         "rules and list every violation with its rule ID and a one-line reason.",
         ["copa-ref kopa-example"])

    conformance = _add(
        sub, "conformance", lambda args: 0, "run, export or regenerate the conformance corpus",
        "The conformance corpus: language-neutral JSON cases (traces, rejections, counts) "
        "that tell an engine, case by case, which rule it breaks.",
        ['copa-ref conformance run --engine "./my-engine"', "copa-ref conformance export corpus/"])
    csub = conformance.add_subparsers(dest="conformance_command", required=True,
                                      metavar="COMMAND")

    run = _add(
        csub, "run", _run, "run the corpus against an engine",
        "Start the engine, run every selected case of the corpus against it and report each "
        "as passed, failed (with a diff and the rule), errored or skipped; exit status 1 "
        "when any failed or errored. Works from any installed copy: the corpus ships inside "
        "the package.",
        ['copa-ref conformance run --engine "copa-ref engine"',
         'copa-ref conformance run --engine "./my-engine" --game kala --failures-only',
         'copa-ref conformance run --engine "./my-engine" --rule COPAS-9 --report out.jsonl'])
    _add_run_options(run)

    export = _add(
        csub, "export", _export, "write the published corpus out as files",
        "Copy the published corpus (VERSION, README.md, schema/, cases/<game>/) that this "
        "copy of copa-ref carries into DIR, for engine authors who read the files directly.",
        ["copa-ref conformance export corpus/"])
    export.add_argument("dir", metavar="DIR", help="the folder to write (created if missing)")

    generate = _add(
        csub, "generate", _generate, "regenerate the corpus from the reference (in a checkout)",
        "Regenerate every case of the corpus from the reference, deterministically, into the "
        "checkout's conformance/ folder (after changing a rule), with a progress line on a "
        "terminal. Refuses to run from an installed package unless --out says where to "
        "write.",
        ["copa-ref conformance generate", "copa-ref conformance generate --out /tmp/corpus"])
    generate.add_argument("--out", metavar="DIR",
                          help="the corpus folder (default: the checkout's conformance/)")
    _add_progress(generate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
    except CommandError as exc:
        print(f"copa-ref: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped early (``copa-ref demo | head``): no traceback on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
