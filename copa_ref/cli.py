"""The ``copa-ref`` command: demos of the reference playing, the list of games, the
reference as a conformance engine (``copa-ref engine``) and the conformance corpus
(``copa-ref conformance run`` / ``export`` / ``generate``).

Each subcommand is one ``_add`` call (name, what it does, examples) and one function taking
the parsed arguments and returning the exit status. Every refusal is one line on stderr,
``copa-ref COMMAND: error: ...``, and exit status 2, never a traceback; numbers are checked
as the command line is read (``--timeout -1`` is refused there), a rule ID against its
game's rules; a mistyped game, rule or option gets a close match ("did you mean
da_capo?"); Ctrl-C ends the command with status 130. The argument types and the refusal
(:class:`~copa_ref.arguments.CommandError`) are in :mod:`copa_ref.arguments`, which the
conformance subcommands share.
"""

from __future__ import annotations

import argparse
import enum
import inspect
import json
import os
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

import attrs

from copa_ref import __version__
from copa_ref.arguments import (
    SECONDS,
    CommandError,
    game_name,
    number,
    rule_id,
    suggest,
)
from copa_ref.games import GAMES, AnyGame, get_game

__all__ = ["CommandError", "build_parser", "demo_lines", "main", "parse_options"]

Command = Callable[[argparse.Namespace], int]


class _Formatter(argparse.HelpFormatter):
    """Wraps each paragraph of a description; keeps indented lines (the examples) as they are."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(line if not line or line.startswith("  ")
                         else textwrap.fill(line, width, initial_indent=indent,
                                            subsequent_indent=indent)
                         for line in text.splitlines())


class _Parser(argparse.ArgumentParser):
    """An argument parser whose refusals are one line: the command, the error and where to
    read more (exit status 2), not the whole usage."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


def _value_text(value: object) -> str:
    return value.value if isinstance(value, enum.Enum) else json.dumps(value)


def parse_options(game: AnyGame, options: Sequence[str]) -> Any:
    """The config of *game* with *options* (``field=value`` each; the value read as JSON,
    else as text) set on its default reading.

    :raises CommandError: for an option that is not ``field=value``, a field the config does
        not have (with the closest), a value of the wrong kind (with the allowed ones), or a
        config the game refuses (with its rule).
    """
    from copa_ref.core import InvalidStateError, MalformedInputError

    config_type = game.config_type
    attrs.resolve_types(config_type)
    fields = {f.name: f for f in attrs.fields(config_type)}
    data = game.converter.unstructure(game.default_config())
    for option in options:
        name, sep, text = option.partition("=")
        name = name.strip()
        if not sep or not name:
            msg = f"--option {option!r}: expected field=value, e.g. --option players=3"
            raise CommandError(msg)
        if name not in fields:
            msg = (f"{game.title} has no option {name!r}{suggest(name, sorted(fields))} "
                   f"(its options: {', '.join(sorted(fields))})")
            raise CommandError(msg)
        kind = fields[name].type
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            allowed = [member.value for member in kind]
            if text not in allowed:
                msg = (f"{game.title}'s option {name} is one of {', '.join(map(str, allowed))}"
                       f", not {text!r}{suggest(text, [str(a) for a in allowed])}")
                raise CommandError(msg)
            data[name] = text
            continue
        try:
            data[name] = json.loads(text)
        except ValueError:
            data[name] = text
    try:
        config = game.converter.structure(data, config_type)
        game.new_game(config)
    except (InvalidStateError, MalformedInputError, ValueError, TypeError) as exc:
        shown = ", ".join(f"{k}={_value_text(v) if not isinstance(v, str) else v}"
                          for k, v in data.items() if k in {o.partition("=")[0].strip()
                                                            for o in options})
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if hasattr(exc, "exceptions") and exc.exceptions:
            inner = exc.exceptions[0]
            reason = f"{type(inner).__name__}: {inner}"
        msg = f"{game.title} refuses the options {shown}: {reason}"
        raise CommandError(msg) from None
    return config


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
    if args.option and args.game is None:
        msg = "--option needs a GAME: copa-ref demo kala --option harvest=mandatory"
        raise CommandError(msg)
    if args.rounds is not None and args.rounds < 0:
        msg = f"--rounds {args.rounds}: give a number of rounds, or 0 for the whole match"
        raise CommandError(msg)
    names = [args.game] if args.game else sorted(GAMES)
    for name in names:
        game = get_game(name)
        config = parse_options(game, args.option) if args.option else None
        rounds = args.rounds if args.game or _plays_rounds(game) else None
        for line in demo_lines(game, args.seed, args.players, config, rounds):
            print(line)
        print()
    return 0


def _play(args: argparse.Namespace) -> int:
    from copa_ref.play import play_game

    game = get_game(args.game)
    options = list(args.option)
    if args.players is not None:
        facts = game.facts
        if not facts.min_players <= args.players <= facts.max_players:
            msg = f"{game.title} is played by {_players(game)} players, not {args.players}"
            raise CommandError(msg)
        if "players" in {f.name for f in attrs.fields(game.config_type)}:
            options.append(f"players={args.players}")
    config = parse_options(game, options) if options else game.default_config()
    seats = game.num_players(config)
    chosen = args.seat or [0]
    for seat in chosen:
        if not 0 <= seat < seats:
            msg = f"--seat {seat}: this {game.title} table has seats 0 to {seats - 1}"
            raise CommandError(msg)
    return play_game(game, chosen, seed=args.seed, config=config, lines=iter(sys.stdin),
                     out=sys.stdout)


def _plays_rounds(game: AnyGame) -> bool:
    """Whether *game*'s demo plays a match of rounds (and takes ``rounds``)."""
    return "rounds" in inspect.signature(game.demo).parameters


def demo_lines(game: AnyGame, seed: int, players: int | None = None,
               config: Any = None, rounds: int | None = None) -> list[str]:
    """The lines of *game*'s demo for *seed* (and *players* seats, where the demo lets the
    table size be chosen; the options of *config*, default the demo's own; and, for a game
    played as a match of rounds, the first *rounds* rounds, 0 the whole match, default the
    demo's own: one).

    :raises CommandError: for a player count the game or its demo does not allow, or
        *rounds* for a game that is not played in rounds.
    """
    demo: Any = game.demo
    extra: dict[str, Any] = {} if config is None else {"config": config}
    if rounds is not None:
        if not _plays_rounds(game):
            matches = " and ".join(sorted(n for n, g in GAMES.items() if _plays_rounds(g)))
            msg = (f"the {game.title} demo plays one game, not a match of rounds; --rounds is "
                   f"for {matches}")
            raise CommandError(msg)
        extra["rounds"] = rounds
    if players is None:
        return list(demo(seed, **extra))
    facts = game.facts
    if not facts.min_players <= players <= facts.max_players:
        msg = f"{game.title} is played by {_players(game)} players, not {players}"
        raise CommandError(msg)
    if "players" not in inspect.signature(demo).parameters:
        if players == game.num_players(game.default_config()):
            return list(demo(seed, **extra))
        msg = f"the {game.title} demo plays a fixed table; --players is not supported"
        raise CommandError(msg)
    return list(demo(seed, players=players, **extra))


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
    if out.exists() and not out.is_dir():
        msg = f"cannot write the corpus into {out}: it is a file, not a folder"
        raise CommandError(msg)
    show = _shows_progress(args)
    started = time.perf_counter()

    def progress(game: str, number: int, of: int) -> None:
        if show:
            sys.stderr.write(f"\rgenerating {game} ({number}/{of}), "
                             f"{time.perf_counter() - started:.1f} s ")
            sys.stderr.flush()

    try:
        counts = write_corpus(out, progress=progress)
    except OSError as exc:
        msg = f"cannot write the corpus into {out}: {exc.strerror or exc}"
        raise CommandError(msg) from None
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
    if dest.exists() and not dest.is_dir():
        msg = f"cannot export: {dest}: it is a file, not a folder"
        raise CommandError(msg)
    try:
        written = export_corpus(dest, source)
    except ExportError as exc:
        raise CommandError(f"cannot export: {clip(str(exc))}") from None
    except OSError as exc:
        where = exc.filename or dest
        msg = f"cannot export: {dest}: {exc.strerror or exc} ({where})"
        raise CommandError(clip(msg)) from None
    version = (source / "VERSION").read_text().strip()
    print(f"corpus {version}: {len(written)} files written to {dest}")
    return 0


def _list(args: argparse.Namespace) -> int:
    from copa_ref.conformance.corpus import CORPUS_DIR, Filters, load_corpus, select

    corpus = Path(args.corpus) if args.corpus else CORPUS_DIR
    if not (corpus / "VERSION").is_file() or not (corpus / "cases").is_dir():
        msg = f"no conformance corpus at {corpus} (it needs VERSION and cases/)"
        raise CommandError(msg)
    try:
        cases = load_corpus(corpus)
    except (OSError, ValueError, KeyError) as exc:
        msg = f"the corpus at {corpus} cannot be read: {type(exc).__name__}: {exc}"
        raise CommandError(msg) from None
    filters = Filters(game=args.game, case=args.case, rule=args.rule, kind=args.kind)
    chosen = select(cases, filters)
    if not chosen:
        shown = " ".join(f"--{k} {v}" for k, v in filters.as_json().items())
        msg = f"no case selected by {shown or 'no filter'}"
        raise CommandError(msg)
    for case in chosen:
        print(f"{case['id']}  [{case['kind']}; {', '.join(case.get('rules') or [])}]  "
              f"{case.get('description', '')}")
    print(f"{len(chosen)} of {len(cases)} cases", file=sys.stderr)
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
        name, help=summary, description=description, allow_abbrev=False,
        epilog="examples:\n" + "\n".join(f"  {e}" for e in examples),
        formatter_class=_Formatter)
    parser.set_defaults(func=func, prog=parser.prog)
    return parser


def _add_progress(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                        help="the progress line on stderr (default: when stderr is a terminal)")


def _add_run_options(run: argparse.ArgumentParser) -> None:
    run.add_argument("--engine", required=True,
                     help='the engine command, e.g. "copa-ref engine" or "./my-engine --json"')
    run.add_argument("--corpus", metavar="DIR",
                     help="another corpus folder (default: the corpus this copy carries)")
    run.add_argument("--game", type=game_name, help="only this game")
    run.add_argument("--case", help="only this case ID (or a glob pattern: 'kala/trace/*')")
    run.add_argument("--rule", type=rule_id,
                     help="only cases covering this rule ID (any case: kala-7 is KALA-7)")
    run.add_argument("--kind", choices=("trace", "rejection", "count", "config"),
                     help="only this kind")
    run.add_argument("--report", help="write the JSON-lines report to this file ('-': stdout)")
    run.add_argument("--failures-only", action="store_true",
                     help="show only failed and errored cases, and the totals")
    run.add_argument("--timeout", type=SECONDS, default=10.0,
                     help="seconds to wait for each answer (default 10)")
    _add_progress(run)
    run.add_argument("--validate", action="store_true",
                     help="validate the corpus files against their JSON Schema first")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``copa-ref`` command."""
    from copa_ref.conformance.corpus import corpus_dir
    from copa_ref.conformance.observables import PROTOCOL_VERSION

    try:
        corpus = (corpus_dir() / "VERSION").read_text().strip()
    except OSError:
        corpus = "missing"
    parser = _Parser(
        prog="copa-ref", allow_abbrev=False,
        description=f"The formally specified reference rules of {_titles()}: watch them "
        "play, serve them as a conformance engine, or run the conformance corpus against "
        "your own engine.",
        epilog="examples:\n  copa-ref demo kala\n  copa-ref conformance run --engine "
        '"./my-engine"\n\n"copa-ref COMMAND --help" describes each command.',
        formatter_class=_Formatter)
    parser.add_argument("--version", action="version",
                        version=f"copa-ref {__version__} (corpus {corpus}, protocol "
                        f"{PROTOCOL_VERSION})")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = _add(
        sub, "demo", _demo, "watch the reference play a seeded game",
        "Play a seeded game between simple players and tell it move by move in plain words: "
        "a picture of the position with its legend, one line for each rule that fires, and "
        "the result with its reason. The same seed always plays the same game. Copas and "
        "Kopa, played as a match of rounds, show the first round unless --rounds asks for "
        "more.",
        ["copa-ref demo kala", "copa-ref demo da_capo --seed 7 --players 4",
         "copa-ref demo copas --rounds 3",
         "copa-ref demo kopa --rounds 0     (the whole match)",
         "copa-ref demo kala --option harvest=mandatory",
         "copa-ref demo hopper --option ending=end_2 --option players=4",
         "copa-ref demo          (every game in turn)"])
    demo.add_argument("game", nargs="?", type=game_name, metavar="GAME",
                      help=f"the game, one of {', '.join(sorted(GAMES))} (default: every "
                      "game in turn)")
    demo.add_argument("--seed", type=int, default=1, help="the seed of the players (default 1)")
    demo.add_argument("--rounds", type=int, metavar="N",
                      help="for the games played as a match of rounds (Copas, Kopa): play "
                           "the first N rounds (default 1); 0 plays the whole match")
    demo.add_argument("--players", type=int, metavar="K",
                      help="how many players (default: the demo's own choice)")
    demo.add_argument("--option", action="append", default=[], metavar="FIELD=VALUE",
                      help="set an option of the game's Config on its default reading (the "
                      "value as JSON, else as text; repeatable), e.g. harvest=mandatory")

    play = _add(
        sub, "play", _play, "play a game in the terminal against the demo's players",
        "Play one or more seats of a game in the terminal against the demo's simple players: "
        "the board as the demo draws it (what your seat may see), your legal moves "
        "numbered; answer with a number, u to undo your last move, q to quit, ? for help, "
        "or type a move in words (play 4o) to have an illegal one explained with its rule. "
        "The same seed and answers play the same game.",
        ["copa-ref play kala", "copa-ref play copas --seat 0 --seat 2 --seed 7",
         "copa-ref play da_capo --players 4", "copa-ref play kala --option harvest=mandatory"])
    play.add_argument("game", type=game_name, metavar="GAME",
                      help=f"the game, one of {', '.join(sorted(GAMES))}")
    play.add_argument("--seat", type=number(int, 0, "a seat number, 0 or more"),
                      action="append", default=[], metavar="N",
                      help="a seat you play (repeatable; default 0)")
    play.add_argument("--seed", type=int, default=1,
                      help="the seed of chance and the other players (default 1)")
    play.add_argument("--players", type=int, metavar="K",
                      help="how many players (default: the game's default reading)")
    play.add_argument("--option", action="append", default=[], metavar="FIELD=VALUE",
                      help="set an option of the game's Config (as for demo; repeatable)")

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
        "when any failed or errored; Ctrl-C ends the run with the summary of the cases run "
        "so far and a complete report (its footer marked interrupted), exit status 130. "
        "Works from any installed copy: the corpus ships inside the package.",
        ['copa-ref conformance run --engine "copa-ref engine"',
         'copa-ref conformance run --engine "./my-engine" --game kala --failures-only',
         'copa-ref conformance run --engine "./my-engine" --rule COPAS-9 --report out.jsonl'])
    _add_run_options(run)

    listing = _add(
        csub, "list", _list, "list the corpus's cases with their descriptions",
        "List the cases of the corpus this copy carries (or --corpus DIR), one a line: its "
        "ID, kind and rules, and its description; the same filters as run select them. The "
        "count goes to stderr.",
        ["copa-ref conformance list --game kala --kind config",
         "copa-ref conformance list --rule copas-17", "copa-ref conformance list | grep bonus"])
    listing.add_argument("--corpus", metavar="DIR",
                         help="another corpus folder (default: the corpus this copy carries)")
    listing.add_argument("--game", type=game_name, help="only this game")
    listing.add_argument("--case", help="only this case ID (or a glob pattern: 'kala/trace/*')")
    listing.add_argument("--rule", type=rule_id,
                         help="only cases covering this rule ID (any case: kala-7 is KALA-7)")
    listing.add_argument("--kind", choices=("trace", "rejection", "count", "config"),
                         help="only this kind")

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
    from copa_ref.conformance.cli import add_explore_parsers

    add_explore_parsers(csub, _add, _add_progress)
    return parser


INTERRUPTED = 130
"""The exit status after Ctrl-C (128 + SIGINT, as shells report it)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status: 2 for a refused request (one line on
    stderr, never a traceback), 130 after Ctrl-C."""
    prog = "copa-ref"
    try:
        parser = build_parser()
        args, extra = parser.parse_known_args(argv)
        prog = getattr(args, "prog", prog)
        if extra:   # named by the subcommand that was given them, as every other refusal
            print(f"{prog}: error: unrecognized arguments: {' '.join(extra)} "
                  f"(see '{prog} --help')", file=sys.stderr)
            return 2
        status: int = args.func(args)
    except CommandError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader stopped early (``copa-ref demo | head``): no traceback on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("\ncopa-ref: interrupted", file=sys.stderr)
        return INTERRUPTED
    except OSError as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
