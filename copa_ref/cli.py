"""The ``copa-ref`` command: demos of the reference playing, and the list of games."""

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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
