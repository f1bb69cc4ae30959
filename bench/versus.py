"""Interleaved A/B timing of two versions of copa-ref: a before/after ratio in one run (a
benchmark, not a test).

    .venv/bin/python bench/versus.py --base REV|DIR [--new DIR] [GAME ...]
        [--loop plain|steps|both] [--seconds S] [--rounds R] [--seed N] [--cap C]

``--base`` is a git revision of this checkout (``main``, ``HEAD~3``, a tag or a commit: it is
exported with ``git archive`` into a temporary folder, removed afterwards) or a folder that
holds a ``copa_ref`` package (another checkout or worktree). ``--new`` is a folder, by
default this checkout, uncommitted changes included. For example, what the work on a branch
gained against the main line::

    .venv/bin/python bench/versus.py --base main kopa copas --loop both

Each round runs, for every game, one subprocess per version (in the order ABBA: base, new;
new, base; ...), each importing that version's ``copa_ref`` (``PYTHONPATH``; the packages
it needs come from this interpreter) and playing, with the loops of this checkout's
``bench/playouts.py``, the same seeded random games for about *S* CPU seconds after a short
warm-up, and printing decisions per CPU second. Same seed and same rules: both versions
play the identical games (a change of the rules' behaviour changes the games too, and the
ratio then compares different work). Every game is cut at *C* decisions (a Kopa match
between random players need not end).

Loops: ``plain``, the public functions only (``to_move``, ``legal_actions``, ``joint``,
``sample_chance``, ``apply``, each checking its arguments), the loop every caller outside
the library writes; ``steps``, ``copa_ref.core.steps`` with ``uniform``. Reported per game
and loop: the median rates and the ratio new/base per round, min / median / max. The
machine's load moves both versions alike within a round; only the ratio is the figure.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""This checkout."""

GAMES = ("kala", "ronda", "hopper", "da_capo", "kopa", "copas")

CHILD = r'''
import functools, random, sys
bench, name, loop = sys.argv[1:4]
seconds, seed, cap = float(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
sys.path.insert(0, bench)
import copa_ref
import playouts
game = playouts.get_game(name)
loops = {"plain": playouts.plain, "steps": playouts.with_steps}
play = functools.partial(loops[loop], game, game.default_config(), cap)
playouts.rate(play, random.Random(seed), min(0.3, seconds / 4))
print(copa_ref.__file__)
print(playouts.rate(play, random.Random(seed), seconds)[0])
'''
"""The timed child: one game, one loop (this checkout's ``bench/playouts.py``, the same code
for both versions), one version of the rules (the one on its ``PYTHONPATH``)."""


def export(rev: str, into: Path) -> Path:
    """The tree of revision *rev* of this checkout, written below *into*."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev],
                             capture_output=True, check=False)
    if archive.returncode:
        msg = f"--base {rev}: neither a folder nor a revision of {ROOT}: "
        raise SystemExit(msg + archive.stderr.decode(errors="replace").strip())
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    return into


def rate(root: Path, name: str, loop: str, args: argparse.Namespace) -> float:
    """Decisions per CPU second of version *root* on game *name* through *loop*."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONHASHSEED="0")
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(ROOT / "bench"), name, loop, str(args.seconds),
         str(args.seed), str(args.cap)],
        cwd=root, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{root} {name}: {out.stderr[-2000:]}")
    where, figure = out.stdout.strip().splitlines()[-2:]
    if not Path(where).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"{root}: the child imported copa_ref from {where}, not from it")
    return float(figure)


def compare(base: Path, new: Path, args: argparse.Namespace) -> None:
    loops = ("plain", "steps") if args.loop == "both" else (args.loop,)
    print(f"base {args.base}, new {new}; {args.rounds} rounds x {args.seconds:g} CPU s, "
          f"seed {args.seed}, games cut at {args.cap:,} decisions; decisions per CPU second "
          "(medians) and new/base per round (min / median / max)")
    for loop in loops:
        for name in args.games or GAMES:
            ratios, news, bases = [], [], []
            for i in range(args.rounds):
                if i % 2 == 0:
                    b = rate(base, name, loop, args)
                    n = rate(new, name, loop, args)
                else:
                    n = rate(new, name, loop, args)
                    b = rate(base, name, loop, args)
                ratios.append(n / b)
                news.append(n)
                bases.append(b)
            print(f"{loop:5} {name:8} base {statistics.median(bases):>9,.0f}/s new "
                  f"{statistics.median(news):>9,.0f}/s  new/base {min(ratios):.2f} / "
                  f"{statistics.median(ratios):.2f} / {max(ratios):.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("games", nargs="*", help=f"games to time (default: all of {GAMES})")
    parser.add_argument("--base", required=True, help="a git revision or a folder")
    parser.add_argument("--new", type=Path, default=ROOT, help="a folder (default: this one)")
    parser.add_argument("--loop", choices=("plain", "steps", "both"), default="both")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds a run")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cap", type=int, default=2000, help="decisions before a game is cut")
    args = parser.parse_args()
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games {sorted(unknown)}; known: {list(GAMES)}")
    if not (args.new / "copa_ref").is_dir():
        parser.error(f"--new {args.new} holds no copa_ref package")
    given = Path(args.base)
    if (given / "copa_ref").is_dir():
        compare(given, args.new, args)
        return
    with tempfile.TemporaryDirectory(prefix="copa-ref-base-") as folder:
        compare(export(args.base, Path(folder)), args.new, args)


if __name__ == "__main__":
    main()
