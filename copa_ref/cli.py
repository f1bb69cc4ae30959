"""The ``copa-ref`` command: demos of the reference playing, the list of games, the
reference as a conformance engine (``copa-ref engine``) and the conformance corpus
(``copa-ref conformance generate`` / ``run``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from copa_ref.games import GAMES, get_game

__all__ = ["main"]


def _demo(args: argparse.Namespace) -> int:
    names = [args.game] if args.game else sorted(GAMES)
    for name in names:
        game = get_game(name)
        for line in game.demo(args.seed):
            print(line)
        print()
    return 0


def _games(args: argparse.Namespace) -> int:
    for name, game in sorted(GAMES.items()):
        facts = game.facts
        players = (f"{facts.min_players}" if facts.min_players == facts.max_players
                   else f"{facts.min_players}-{facts.max_players}")
        traits = [t for t, on in (("chance", facts.chance),
                                  ("hidden information", facts.hidden_information),
                                  ("simultaneous moves", facts.simultaneous)) if on]
        print(f"{name:10} {game.title:10} rules {game.prefix}-n, {players} players"
              + (f", {', '.join(traits)}" if traits else ""))
    return 0


def _engine(args: argparse.Namespace) -> int:
    from copa_ref.conformance.engine import ReferenceEngine, serve

    return serve(ReferenceEngine())


def _generate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from copa_ref.conformance.generate import write_corpus
    from copa_ref.conformance.observables import CORPUS_DIR

    out = Path(args.out) if args.out else CORPUS_DIR
    counts = write_corpus(out)
    for game, kinds in counts.items():
        print(f"{game:10} " + ", ".join(f"{n} {kind}s" for kind, n in kinds.items()))
    print(f"written to {out}")
    return 0


def _run(args: argparse.Namespace) -> int:
    from copa_ref.conformance.cli import run

    return run(args)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``copa-ref`` command."""
    parser = argparse.ArgumentParser(
        prog="copa-ref", description="The formally specified reference for the Copa games, "
        "Kopa and Copas.")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="watch the reference play a seeded game")
    demo.add_argument("game", nargs="?", choices=sorted(GAMES),
                      help="the game (default: every game in turn)")
    demo.add_argument("--seed", type=int, default=1, help="the seed of the players (default 1)")
    demo.set_defaults(func=_demo)

    games = sub.add_parser("games", help="list the games the reference implements")
    games.set_defaults(func=_games)

    engine = sub.add_parser("engine", help="serve the reference as a conformance engine "
                            "(one JSON object a line on stdin/stdout)")
    engine.set_defaults(func=_engine)

    conformance = sub.add_parser("conformance", help="the conformance corpus")
    csub = conformance.add_subparsers(dest="conformance_command", required=True)
    generate = csub.add_parser("generate", help="regenerate the corpus from the reference")
    generate.add_argument("--out", help="the corpus folder (default: conformance/)")
    generate.set_defaults(func=_generate)
    run = csub.add_parser("run", help="run the corpus against an engine")
    run.add_argument("--engine", required=True,
                     help='the engine command, e.g. "copa-ref engine" or "./my-engine --json"')
    run.add_argument("--corpus", help="the corpus folder (default: conformance/)")
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
    run.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                     help="the progress line on stderr (default: when stderr is a terminal)")
    run.add_argument("--validate", action="store_true",
                     help="validate the corpus files against their JSON Schema first")
    run.set_defaults(func=_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
