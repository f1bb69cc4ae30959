"""The verdict of a count case: the engine's game tree, counted node by node.

A count (perft) walks the tree below the case's prefix to its depth through the
:class:`~copa_ref.conformance.session.Session` and checks, at every node, who moves and the
legal actions the engine lists against the reference; going back up uses ``undo`` where the
engine declares it, else a replay from the start. The per-move totals of the first level
are compared with the case's ``breakdown``. A node's requests are planned (written ahead,
:meth:`~copa_ref.conformance.session.Session.plan`) from the reference's node: an engine
that differs there fails the count at that node, before any answer it was not asked for
in turn is used; with ``undo``, the whole last level below a node at once.

    failure = count(run)     # a Failure, or None: the verdict, like the other kinds'
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import attrs

from copa_ref.conformance import naming
from copa_ref.conformance.checks import shown
from copa_ref.conformance.failure import Failure, Stop, legal_lines
from copa_ref.conformance.observables import observables
from copa_ref.conformance.session import (
    Message,
    apply_request,
    legal_request,
    observe_request,
    undo_request,
)
from copa_ref.conformance.vocabulary import Report
from copa_ref.core import JSON, Seat, canonical_json
from copa_ref.core.replay import replay
from copa_ref.games import GAMES

if TYPE_CHECKING:
    from copa_ref.conformance.verdicts import CaseRun

__all__ = ["count"]


class _Tree:
    """The walk of one count's tree: the path from the prefix's position to the node."""

    def __init__(self, run: CaseRun) -> None:
        self.run = run
        self.game: Any = GAMES[run.case["game"]]
        self.prefix: list[JSON] = run.case["prefix"]
        self.undo = "undo" in run.session.features
        self.path: list[JSON] = []

    def fail_at_node(self, lines: list[str], differing: list[str],
                     extra: dict[int | None, list[str]], report: Report) -> None:
        """Fail the count at the current node inside its tree, naming the rule there."""
        actions = self.prefix + self.path
        step = len(actions)
        self.run.reports[step] = report
        where = f" after {canonical_json(self.path)}" if self.path else ""
        self.run.fail(step, actions, f"the engine differs at the count's node{where}", lines,
                      differing, extra)

    def node_requests(self, node: Any) -> list[Message]:
        """The requests :meth:`children` sends at *node* when the engine reports the
        reference's mover there (else the count fails at the node)."""
        mover = self.game.to_move(node)
        if mover.kind.value in ("seat", "any", "nobody"):
            return [observe_request(), legal_request(None)]
        if mover.kind.value == "joint":
            return [observe_request(), *[legal_request(int(part)) for part in mover.seats]]
        return [observe_request()]

    def children(self, node: Any) -> list[JSON]:
        """The engine's actions at the current node, checked against the reference's."""
        game, session = self.game, self.run.session
        mover = game.to_move(node)
        seen = session.observe()
        kind = seen.to_move["kind"]
        report = Report(to_move=seen.to_move, public=seen.public, outcome=seen.outcome)
        view, differing = self.run.view_lines(report, json.loads(json.dumps(
            observables(game, node))))
        if view:
            self.fail_at_node(view, differing, {}, report)
        legal: dict[int | None, list[JSON]] = {}
        if kind in ("seat", "any", "nobody"):
            legal[None] = session.legal(None)
        elif kind == "joint":
            for part in mover.seats:
                legal[int(part)] = session.legal(int(part))
        report = attrs.evolve(report, legal=legal)
        lines: list[str] = []
        extra: dict[int | None, list[str]] = {}
        for seat, listed in legal.items():
            legal_lines(seat, listed, [game.to_json(a) for a in game.legal_actions(
                node, None if seat is None else Seat(seat))], lines, extra)
        if lines:
            self.fail_at_node(lines, ["legal"], extra, report)
        if kind == "joint":
            return [game.to_json(a) for a in naming.joint_children(game, node)]
        return legal.get(None, [])

    def back(self) -> None:
        """Back to the parent node."""
        if self.undo:
            self.run.session.undo()
        else:
            self.run.walk_quietly(self.prefix + self.path)

    def perft(self, node: Any, left: int) -> int:
        """The number of leaves *left* levels below *node*."""
        moves = self.children(node)
        if left == 1:
            return len(moves)
        return sum(self.descents(node, moves, left))

    def descents(self, node: Any, moves: list[JSON], left: int) -> Iterator[int]:
        """The leaves below each of *moves* at *node* (*left* levels below it), in order,
        counted one after the other; the requests of each are planned."""
        game = self.game
        after = [game.apply(node, game.action_from_json(move)) for move in moves]
        whole = left == 2 and self.undo
        if whole:  # every child a leaf's parent: apply, its node's requests, undo
            self.run.session.plan([apply_request(move), *self.node_requests(child),
                                   undo_request()] for move, child in zip(moves, after,
                                                                          strict=True))
        for move, child in zip(moves, after, strict=True):
            yield self.descend(move, child, left, planned=whole)

    def descend(self, move: JSON, child: Any, left: int, planned: bool = False) -> int:
        """Play *move* to *child*, count below it, and come back (*planned*: its requests
        are planned already)."""
        session = self.run.session
        if not planned:
            session.plan([[apply_request(move), *self.node_requests(child)]])
        answer = session.apply(move)
        if not answer.accepted:
            raise Stop(Failure(step=len(self.prefix),
                               reason=f"refused {canonical_json(move)}, which it listed as "
                                      f"legal, after {canonical_json(self.path)}",
                               diff=f"engine names {shown(answer.rule)}: "
                                    f"{shown(answer.message, bare=True)}", action=move))
        self.path.append(move)
        total = self.perft(child, left - 1)
        self.path.pop()
        self.back()
        return total


def _count(run: CaseRun) -> None:
    case = run.case
    prefix = case["prefix"]
    run.walk(prefix, run.expectations(len(prefix)))
    tree = _Tree(run)
    game = tree.game
    state = replay(game, game.config_from_json(case["config"]), prefix)[-1]
    depth = case["depth"]
    breakdown: dict[str, int] = {}
    run.session.plan([tree.node_requests(state)])
    moves = tree.children(state)
    counts = iter(()) if depth == 1 else tree.descents(state, moves, depth)
    for move in moves:
        key = canonical_json(move)
        breakdown[key] = breakdown.get(key, 0) + (1 if depth == 1 else next(counts))
    expected = {canonical_json(e["action"]): e["count"] for e in case["breakdown"]}
    if breakdown != expected:
        lines = [f"{key}: expected {expected.get(key, '(not legal)')}, "
                 f"got {breakdown.get(key, '(not listed)')}"
                 for key in sorted(set(expected) | set(breakdown))
                 if expected.get(key) != breakdown.get(key)]
        raise Stop(Failure(step=len(prefix),
                           reason=f"{case['counts']} to depth {depth}: expected "
                                  f"{case['total']}, got {sum(breakdown.values())}",
                           diff="\n".join(lines[:12])))


def count(run: CaseRun) -> Failure | None:
    """A count case: the engine's tree below the prefix, node by node, and its totals."""
    try:
        _count(run)
    except Stop as stop:
        return stop.failure
    return None
