"""The rule book's own Sphinx extension: rule IDs as links, pictures from the corpus, and a
viewer page per corpus case.

- **Rule anchors and links.** Every section headed by a rule ID (``KALA-14 The sixth bean
  …``, ``KALA-Q7 …``, ``P-7. Outcome``) gets the anchor ``kala-14``. The role
  ``{rule}`KALA-14``` links to it, and so does every bare rule ID in running text (outside
  code and headings). A citation of an ID that no heading carries fails the build.
- **Pictures pinned to the corpus.** ``{position} <case id>`` draws a position of a corpus
  case with the game's ``Game.svg``, at ``:rule: KALA-14`` (the first step where that rule
  fires, :func:`firing_steps`: the step whose own action a misreading of the rule resolves
  differently; ``:misreading: <slug>`` names the misreading whose effect the prose shows) or
  ``:step: start`` / ``end``, never at a step number; the case ID and step appear under the
  picture, linked to the case viewer. An unknown case, or a rule that does not fire in it,
  fails the build.
- **The config cases.** ``{config-cases} <game>`` lists the game's ``config`` cases (the
  configs ``new_game`` must refuse), each with its anchor, the config, the rule that
  refuses it and why.
- **Rule-book order.** A game's spec (``specs/<game>.md``) reads preamble, data sections
  (encoding, state, refusal order), numbered rules, conformance. As an ``{include}`` reads
  it, :func:`mark_spec_parts` puts a marker before each part (:data:`SPEC_PARTS`), so that
  the rule page shows the numbered rules first and the data in its appendix
  (``:start-after:`` / ``:end-before:`` a marker), with no text moved in the spec.
- **What a package exports.** ``{exports} copa_ref.copas`` lists the names of a game
  package's ``__all__``, each with what it is and one example computed by the build from a
  game played with the package's own functions (:func:`export_rows`).
- **The case viewer.** At the start of each build a page is written for every case found in
  ``conformance/cases/`` (``docs/cases/<case id>.md``, not kept in git) and an index of
  them; ``{case-viewer} <case id>`` renders a case as positions a reader steps through.
"""

from __future__ import annotations

import enum
import html
import importlib
import inspect
import json
import math
import random
import re
import types
import typing
from pathlib import Path
from typing import Any

import attrs
from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.domains import Domain
from sphinx.errors import ExtensionError
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective, SphinxRole

from copa_ref.conformance.registry import record_of
from copa_ref.conformance.viewer import (
    Frame,
    action_words,
    frames,
    load_cases,
    viewer_path,
)
from copa_ref.core import MoverKind, canonical_json, misread
from copa_ref.core.svg import STYLE
from copa_ref.games import GAMES

logger = logging.getLogger(__name__)

RULE_ID = re.compile(r"\b(?:(?:" + "|".join(sorted(game.prefix for game in GAMES.values()))
                     + r")-Q?\d+|P-\d+)\b")
"""A rule ID, a register entry ID or a protocol section ID (the prefixes are the
registry's)."""
_HEADING = re.compile(r"^(" + RULE_ID.pattern + r")\.?\s")

PICTURE_EVERY = 100
"""A case with more positions than this is pictured at every ``k``-th step only (and at its
last), ``k`` chosen so that about this many pictures remain; every step keeps its words."""

_ROOT = Path(__file__).resolve().parents[2]
_CASES: dict[str, dict[str, Any]] = {}
_CONFIG_CASES: dict[str, dict[str, Any]] = {}
_FRAMES: dict[str, list[Frame]] = {}
_FIRES: dict[tuple[str, str, str | None], tuple[int, ...]] = {}
_MISREAD: dict[tuple[str, str, str], Any] = {}

CHANCE_WORDS = {
    "copas": "a uniform shuffle of the deck: every deal is equally likely",
    "kopa": "a uniform shuffle of the deck: every deal is equally likely",
    "ronda": "a uniform shuffle of the ten cups: each of the 113,400 arrangements has "
             "probability 1/113,400",
}
"""What chance does, for a game that lists no outcome probabilities (``chance_outcomes``):
each of these draws with ``sample_chance`` from a uniform shuffle."""


# -- the corpus ---------------------------------------------------------------------------------


def _corpus() -> dict[str, dict[str, Any]]:
    if not _CASES:
        _CASES.update({case["id"]: case for case in load_cases(_ROOT / "conformance")})
    return _CASES


def _config_cases() -> dict[str, dict[str, Any]]:
    """The ``config`` cases (the viewer's loader leaves them out: they have no position)."""
    if not _CONFIG_CASES:
        for path in sorted((_ROOT / "conformance" / "cases").glob("*/*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            for case in data.get("cases", []) if isinstance(data, dict) else []:
                if isinstance(case, dict) and case.get("kind") == "config":
                    _CONFIG_CASES[case["id"]] = case
    return _CONFIG_CASES


CONFIG_SECTION = "configs-the-rules-refuse"
"""The anchor of the section "Configs the rules refuse" on each game's rule page, where its
``{config-cases}`` list is."""


def config_anchor(case_id: str) -> str:
    """The anchor of a config case on its game's rule page: ``config-kala-unknown-option``."""
    return "config-" + re.sub(r"[^a-z0-9]+", "-", case_id.lower().replace("/config/", "-"))


def _case_frames(case_id: str) -> list[Frame]:
    if case_id not in _FRAMES:
        case = _corpus()[case_id]
        _FRAMES[case_id] = frames(GAMES[case["game"]], case)
    return _FRAMES[case_id]


def _misreadings(game_name: str) -> list[Any]:
    """Every misreading known for a game: its catalogue's (the rule book's own, the common
    misreadings, the kill-matrix mutants)."""
    record = record_of(game_name)
    return [] if record is None else list(record.catalogue.everything())


def _actions(case: dict[str, Any]) -> list[Any]:
    if isinstance(case.get("steps"), list):
        return [step["action"] for step in case["steps"]]
    return list(case.get("prefix") or [])


def _fires_at(game: Any, misreading: Any, steps: list[Frame], actions: list[Any]
              ) -> tuple[int, ...]:
    """The steps whose own action *misreading* resolves differently: applied by the misread
    game to the reference's position one step earlier, it reaches another position, or is
    refused (a difference in the legal actions alone is no event of the rule there)."""
    key = (game.name, misreading.rule, misreading.slug)
    if key not in _MISREAD:
        _MISREAD[key] = misread(game, misreading)
    game_misread = _MISREAD[key]
    found = []
    for k in range(1, len(steps)):
        try:
            after = game_misread.apply(steps[k - 1].state,
                                       game_misread.action_from_json(actions[k - 1]))
            differs = after != steps[k].state
        except Exception:  # a misread game may fail in any way: that is a difference
            differs = True
        if differs:
            found.append(k)
    return tuple(found)


def firing_steps(game: Any, case: dict[str, Any], rule: str, slug: str | None = None
                 ) -> tuple[int, ...]:
    """The steps of *case* where *rule* fires, in order: where a rejection case's action is
    refused under it; the first step whose outcome names it (an ending rule); every step
    whose own action a misreading of it (the one named *slug*, else any the game knows:
    its catalogue: the rule book's own, the common misreadings, the kill-matrix mutants)
    resolves differently from the reference: the steps whose events include the rule.

    :raises ValueError: for a *slug* no misreading of *rule* has.
    """
    key = (case["id"], rule, slug)
    if key in _FIRES:
        return _FIRES[key]
    steps = _case_frames(case["id"])
    found: set[int] = set()
    if slug is None:
        if case.get("kind") == "rejection" and case.get("rule") == rule:
            found.add(steps[-1].step)
        for frame in steps:
            outcome = frame.observed.get("outcome")
            if isinstance(outcome, dict) and outcome.get("rule") == rule:
                found.add(frame.step)
                break
    chosen = [m for m in _misreadings(game.name) if m.rule == rule
              and (slug is None or m.slug == slug)]
    if slug is not None and not chosen:
        known = sorted({m.slug for m in _misreadings(game.name) if m.rule == rule})
        msg = f"no misreading {slug!r} of {rule} (known: {', '.join(known) or 'none'})"
        raise ValueError(msg)
    actions = _actions(case)
    for misreading in chosen:
        found.update(_fires_at(game, misreading, steps, actions))
    _FIRES[key] = tuple(sorted(found))
    return _FIRES[key]


def _picture_seat(game: Any, frame: Frame) -> int | None:
    """The seat whose view the viewer shows: the one to move, in a game with hidden
    information; else the public view."""
    mover = game.to_move(frame.state)
    if game.facts.hidden_information and mover.kind is MoverKind.SEAT:
        return int(mover.seats[0])
    return None


_PICTURES: dict[tuple[str, Any, int | None], str] = {}


def _svg(game: Any, frame: Frame, seat: int | None) -> str:
    """The picture without its style sheet (the viewer page carries it once); a position
    met again (the prefix of a rejection replays a trace) is drawn once."""
    key = (game.name, frame.state, seat)
    if key not in _PICTURES:
        picture = str(game.svg(frame.state, seat))
        _PICTURES[key] = picture.replace(f"<style>{html.escape(STYLE, quote=False)}</style>", "")
    return _PICTURES[key]


# -- rule anchors and links --------------------------------------------------------------------


class RuleDomain(Domain):
    """Rule IDs: the sections they head, and references to them."""

    name = "copa"
    label = "copa-ref rules"
    initial_data: dict[str, dict[str, tuple[str, str]]] = {"rules": {}}  # noqa: RUF012
    dangling_warnings = {"rule": "unknown rule ID %(target)s"}  # noqa: RUF012

    @property
    def rules(self) -> dict[str, tuple[str, str]]:
        return self.data["rules"]  # type: ignore[no-any-return]

    def clear_doc(self, docname: str) -> None:
        for key, (doc, _) in list(self.rules.items()):
            if doc == docname:
                del self.rules[key]

    def merge_domaindata(self, docnames: Any, otherdata: dict[str, Any]) -> None:
        for key, value in otherdata["rules"].items():
            if value[0] in docnames:
                self.rules[key] = value

    def resolve_xref(self, env: Any, fromdocname: str, builder: Any, typ: str, target: str,
                     node: Any, contnode: nodes.Element) -> nodes.reference | None:
        if target not in self.rules:
            return None
        docname, anchor = self.rules[target]
        uri = builder.get_relative_uri(fromdocname, docname) + "#" + anchor
        reference = nodes.reference("", "", internal=True, refuri=uri, reftitle=target,
                                    classes=["copa-rule"])
        reference.append(contnode)
        return reference

    def resolve_any_xref(self, *args: Any) -> list[Any]:
        return []


def _rule_xref(rule: str, rawtext: str = "") -> addnodes.pending_xref:
    ref = addnodes.pending_xref(rawtext or rule, refdomain="copa", reftype="rule",
                                reftarget=rule, refwarn=True, refexplicit=True)
    ref += nodes.inline(rule, rule)
    return ref


class RuleRole(SphinxRole):
    """``{rule}`KALA-14```: a link to the rule's heading; an unknown ID fails the build."""

    def run(self) -> tuple[list[nodes.Node], list[nodes.system_message]]:
        rule = self.text.strip()
        if not RULE_ID.fullmatch(rule):
            msg = self.inliner.reporter.error(f"not a rule ID: {rule!r}", line=self.lineno)
            return [], [msg]
        ref = _rule_xref(rule, self.rawtext)
        self.set_source_info(ref)
        return [ref], []


_SKIP = (nodes.literal, nodes.literal_block, nodes.title, nodes.reference, nodes.raw,
         addnodes.pending_xref, nodes.target, nodes.comment, addnodes.desc_signature,
         nodes.system_message)


def _link_rules(app: Sphinx, doctree: nodes.document) -> None:
    """Anchor every rule heading, and link every bare rule ID in running text."""
    domain = app.env.get_domain("copa")
    assert isinstance(domain, RuleDomain)
    for section in doctree.findall(nodes.section):
        title = section.next_node(nodes.title)
        match = _HEADING.match(title.astext()) if title is not None else None
        if match:
            rule = match.group(1)
            anchor = rule.lower()
            if anchor not in section["ids"]:
                section["ids"].insert(0, anchor)
                doctree.ids[anchor] = section
            domain.rules[rule] = (app.env.docname, anchor)
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(a, _SKIP) for a in _ancestors(text)):
            continue
        value = str(text)
        pieces = RULE_ID.split(value)
        if len(pieces) == 1:
            continue
        found = RULE_ID.findall(value)
        new: list[nodes.Node] = []
        for i, piece in enumerate(pieces):
            if piece:
                new.append(nodes.Text(piece))
            if i < len(found):
                ref = _rule_xref(found[i])
                ref.source, ref.line = parent.source, parent.line
                new.append(ref)
        parent.replace(text, new)


_SPEC_FILE = re.compile(r"^(?:\.\./)*(specs/[a-z_]+\.md|conformance/README\.md)$")
_SPEC_PAGES = {"specs/ambiguities.md": "ambiguities", "specs/protocol.md": "protocol",
               "conformance/README.md": "conformance"}


def _link_spec_files(app: Sphinx, doctree: nodes.document) -> None:
    """A file name of the rule text (``specs/kala.md``) in running text links to its page."""
    for literal in list(doctree.findall(nodes.literal)):
        match = _SPEC_FILE.match(literal.astext())
        if not match or isinstance(literal.parent, nodes.reference | addnodes.pending_xref):
            continue
        name = match.group(1)
        page = _SPEC_PAGES.get(name) or f"rules/{Path(name).stem}"
        if page not in app.env.found_docs:
            continue
        ref = addnodes.pending_xref("", refdomain="std", reftype="doc", reftarget=f"/{page}",
                                    refexplicit=True, refwarn=True)
        ref.source, ref.line = literal.source, literal.line
        literal.replace_self(ref)
        ref += literal


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    found = []
    while node.parent is not None:
        node = node.parent
        found.append(node)
    return found


# -- pictures pinned to corpus cases ------------------------------------------------------------


def _case_or_fail(directive: SphinxDirective, case_id: str) -> dict[str, Any]:
    case = _corpus().get(case_id)
    if case is None:
        msg = f"unknown corpus case {case_id!r}"
        raise directive.error(msg)
    # The page is read again when its game's corpus files change.
    for path in sorted((_ROOT / "conformance" / "cases" / str(case["game"])).glob("*.json")):
        directive.env.note_dependency(str(path))
    game = GAMES.get(case["game"])
    if game is None or game.svg is None:
        msg = f"case {case_id!r}: its game {case['game']!r} draws no pictures (Game.svg)"
        raise directive.error(msg)
    return case


def _viewer_uri(directive: SphinxDirective, case_id: str, step: int) -> str:
    here = directive.env.docname
    depth = here.count("/")
    return "../" * depth + viewer_path(case_id, step)


class PositionDirective(SphinxDirective):
    """``{position} <case id>`` with ``:rule: <ID>`` (and ``:misreading: <slug>``, the
    misreading whose effect the prose shows) or ``:step: start|end``; optionally
    ``:before:`` (the position one step earlier: the move that makes the rule fire is then
    the next), ``:seat: <n>`` (or ``mover``) for that seat's view, and ``:caption:``. The
    position, drawn by the reference, with the case ID and step under it."""

    required_arguments = 1
    option_spec = {  # noqa: RUF012
        "rule": directives.unchanged_required,
        "misreading": directives.unchanged_required,
        "step": lambda value: directives.choice(value, ("start", "end")),
        "before": directives.flag,
        "seat": lambda value: value if value == "mover" else directives.nonnegative_int(value),
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        case_id = self.arguments[0]
        case = _case_or_fail(self, case_id)
        game = GAMES[case["game"]]
        steps = _case_frames(case_id)
        rule = self.options.get("rule")
        if rule is not None:
            if not RULE_ID.fullmatch(rule):
                raise self.error(f"not a rule ID: {rule!r}")
            try:
                fired = firing_steps(game, case, rule, self.options.get("misreading"))
            except ValueError as exc:
                raise self.error(str(exc)) from None
            if not fired:
                msg = f"rule {rule} does not fire in case {case_id!r}"
                raise self.error(msg)
            step = fired[0]
            where = "where "
        else:
            point = self.options.get("step")
            if point is None:
                raise self.error("name the step: :rule: <rule ID> or :step: start|end")
            step = 0 if point == "start" else steps[-1].step
            where = ""
        before = "before" in self.options
        if before:
            if step == 0:
                raise self.error(f"{case_id!r} has no step before step 0")
            step -= 1
            where = "before the step where "
        frame = steps[step]
        seat = self.options.get("seat")
        if seat == "mover":
            mover = game.to_move(frame.state)
            if mover.kind is not MoverKind.SEAT:
                raise self.error(f"nobody is the one seat to move at step {step} of {case_id!r}")
            seat = int(mover.seats[0])
        picture = str(game.svg(frame.state, seat))
        uri = _viewer_uri(self, case_id, step)
        figure = nodes.container(classes=["copa-position"])
        figure += nodes.raw("", f'<div class="copa-picture">{picture}</div>', format="html")
        caption = nodes.paragraph(classes=["copa-caption"])
        if self.options.get("caption"):
            caption += nodes.Text(self.options["caption"] + " ")
        caption += nodes.Text("Case ")
        caption += nodes.reference("", "", nodes.literal(case_id, case_id), refuri=uri)
        caption += nodes.Text(f", step {step}")
        if rule is not None:
            caption += nodes.Text(f" ({where}")
            caption += _rule_xref(rule)
            caption += nodes.Text(" fires)")
        if before:
            caption += nodes.Text(f"; next: {action_words(steps[step + 1].action)}")
        elif frame.action is not None and frame.refused is None:
            caption += nodes.Text(f"; the action that led here: {action_words(frame.action)}")
        if frame.refused is not None:
            caption += nodes.Text(f"; refused here: {action_words(frame.refused)}")
        caption += nodes.Text(".")
        figure += caption
        return [figure]


# -- what a package exports ---------------------------------------------------------------------

EXAMPLES: dict[str, tuple[str, ...]] = {
    "GAME": ("GAME.name",),
    "FACTS": ("FACTS.hidden_information",),
    "new_game": ("new_game(Config())",),
    "apply": ("apply(state, legal_actions(state)[0])",
              "apply(state, joint(state, (legal_actions(state, 0)[0], "
              "legal_actions(state, 1)[0])))"),
    "legal_actions": ("legal_actions(state)[:2] or legal_actions(state, 0)[:2]",),
    "is_legal": ("is_legal(state, legal_actions(state)[0])",
                 "is_legal(state, joint(state, (legal_actions(state, 0)[0], "
                 "legal_actions(state, 1)[0])))"),
    "to_move": ("to_move(state)",),
    "observe": ("observe(state, 0)",),
    "outcome": ("outcome(state)",),
    "check_state": ("check_state(state)",),
    "well_formed": ("well_formed(state)",),
    "num_players": ("num_players(state.config)",),
    "render": ("render(state).splitlines()[0]",),
    "svg": ("svg(state).startswith('<svg')",),
    "sample_chance": ("sample_chance(new_game(Config()), random.Random(1))",
                      "sample_chance(apply(state, legal_actions(state)[0]), random.Random(1))"),
    "chance_outcomes": ("chance_outcomes(apply(state, legal_actions(state)[0]))[0]",),
    "action_space": ("len(action_space(Config()))",),
    "joint": ("joint(state, (legal_actions(state, 0)[0], legal_actions(state, 1)[0]))",),
    "round_winner": ("round_winner((3, 5), TieResolution.CASCADE)",),
    "chance_step": ("chance_step(new_game(Config()), ())[:2]",),
}
"""The example of each function name a game package may export, evaluated by the build with
the package's names, ``random``, and ``state``: the first position where a seat decides."""

_SHOWN = 78


def _short(value: str) -> str:
    return value if len(value) <= _SHOWN else value[:_SHOWN - 1] + "…"


def _first_sentence(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    paragraph = doc.split("\n\n")[0].replace("\n", " ").strip()
    match = re.match(r"(.+?\.)(\s+[A-Z(`*]|$)", paragraph)
    sentence = match.group(1) if match else paragraph
    sentence = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?([^`]+)`", r"\1", sentence)
    sentence = re.sub(r"\*(\w+)\*", r"\1", sentence.replace("``", ""))
    return _short(sentence) or "–"


def _instances(value: Any, found: dict[type, Any], depth: int = 0) -> None:
    """Record the first instance of each attrs class met inside *value*."""
    if depth > 6:
        return
    if attrs.has(type(value)):
        found.setdefault(type(value), value)
        for field in attrs.fields(type(value)):
            _instances(getattr(value, field.name), found, depth + 1)
    elif isinstance(value, tuple | list | frozenset):
        for item in list(value)[:8]:
            _instances(item, found, depth + 1)


def export_rows(package_name: str) -> list[tuple[str, str, str, str]]:
    """For each name of the package's ``__all__``, functions first, then classes,
    enumerations, types and constants: the name, what it is, its docstring's first sentence
    and an example: an
    expression with its value for a function (:data:`EXAMPLES`), an instance met in a game
    for a class, a member for an enumeration."""
    package = importlib.import_module(package_name)
    rng = random.Random(1)
    game = package.GAME
    state = game.new_game(package.Config())
    found: dict[type, Any] = {}
    played = state
    for _ in range(400):
        _instances(played, found)
        if game.outcome(played) is not None:
            break
        mover = game.to_move(played)
        if mover.kind is MoverKind.CHANCE:
            action = game.sample_chance(played, rng)
        elif mover.kind is MoverKind.JOINT and game.joint is not None:
            parts = tuple(rng.choice(game.legal_actions(played, seat)) for seat in mover.seats)
            _instances(parts, found)
            action = game.joint(played, parts)
        else:
            legal = game.legal_actions(played, None)
            if not legal:
                break
            action = rng.choice(legal)
        _instances(action, found)
        for seat in range(game.num_players(played.config)):
            _instances(game.observe(played, seat), found)
        played = game.apply(played, action)
    for _ in range(20):
        if game.to_move(state).kind is not MoverKind.CHANCE:
            break
        state = game.apply(state, game.sample_chance(state, random.Random(1)))
    namespace = {name: getattr(package, name) for name in package.__all__}
    namespace.update(random=random, state=state)
    rows = []
    for name in package.__all__:
        obj = getattr(package, name)
        if inspect.isclass(obj) and issubclass(obj, enum.Enum):
            members = list(obj)
            kind = "enumeration"
            example = f"{name}.{members[0].name}" + (f" (one of {len(members)})"
                                                     if len(members) > 1 else "")
        elif inspect.isclass(obj):
            kind = "class"
            fields = ", ".join(inspect.signature(obj).parameters)
            example = _short(repr(found[obj])) if obj in found else f"{name}({fields})"
        elif isinstance(obj, types.UnionType):
            kind = "type"
            example = " | ".join(t.__name__ for t in typing.get_args(obj))
        elif inspect.isroutine(obj):
            kind = "function"
            example = f"{name}{inspect.signature(obj)}"  # where no example runs
            for expression in EXAMPLES.get(name, ()):
                try:
                    value = eval(expression, dict(namespace))
                except Exception:
                    continue
                example = f"{expression}  # {_short(repr(value))}"
                break
        else:
            kind = "constant"
            example = f"{name}  # {type(obj).__name__}"
            for constant in EXAMPLES.get(name, ())[:1]:
                example = f"{constant}  # {_short(repr(eval(constant, dict(namespace))))}"
        summary = (_first_sentence(obj) if kind != "type"
                   else "a value of any one of the classes in the example.")
        rows.append((name, kind, summary, _short(example) if kind != "function" else example))
    order = ("function", "class", "enumeration", "type", "constant")
    return sorted(rows, key=lambda row: order.index(row[1]))


class ExportsDirective(SphinxDirective):
    """``{exports} <package>``: the table of :func:`export_rows`, each name linked to its
    entry (documented under the package's name)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        package_name = self.arguments[0]
        try:
            rows = export_rows(package_name)
        except Exception as exc:
            raise self.error(f"{package_name}: no export table: {exc!r}") from None
        table = nodes.table(classes=["copa-exports"])
        group = nodes.tgroup(cols=3)
        table += group
        for width in (18, 40, 42):
            group += nodes.colspec(colwidth=width)
        head = nodes.thead()
        group += head
        row = nodes.row()
        for title in ("name", "what it is", "example"):
            row += nodes.entry("", nodes.paragraph(text=title))
        head += row
        body = nodes.tbody()
        group += body
        for name, kind, summary, example in rows:
            row = nodes.row()
            ref = addnodes.pending_xref("", refdomain="py", reftype="obj",
                                        reftarget=f"{package_name}.{name}", refexplicit=True,
                                        refwarn=True)
            ref += nodes.literal(name, name)
            row += nodes.entry("", nodes.paragraph("", "", ref))
            row += nodes.entry("", nodes.paragraph(text=f"{kind}: {summary}"))
            row += nodes.entry("", nodes.paragraph("", "", nodes.literal(example, example)))
            body += row
        return [table]


def _alias_exported_functions(app: Sphinx, doctree: nodes.document) -> None:
    """A function documented under the name users import (``copa_ref.copas.apply``) answers
    to its defining module's name too (``copa_ref.copas.rules.apply``), as autodoc's
    ``:canonical:`` does for a class: a reference to either name finds the one entry."""
    domain: Any = app.env.get_domain("py")
    for desc in doctree.findall(addnodes.desc):
        if desc.get("domain") != "py" or desc.get("objtype") != "function":
            continue
        for signature in desc.findall(addnodes.desc_signature):
            module, name = signature.get("module"), signature.get("fullname")
            if not module or not name or not signature["ids"]:
                continue
            try:
                obj = getattr(importlib.import_module(module), name)
            except (ImportError, AttributeError):
                continue
            canonical = f"{getattr(obj, '__module__', module)}.{getattr(obj, '__qualname__', name)}"
            if canonical != f"{module}.{name}" and canonical not in domain.objects:
                domain.note_object(canonical, "function", signature["ids"][0], aliased=True,
                                   location=signature)


def _resolve_in_defining_module(app: Sphinx, env: Any, node: Any,
                                contnode: nodes.Element) -> nodes.Element | None:
    """A Python name left unresolved where a package documents what its modules define (a
    function's docstring citing ``check_config`` read as ``copa_ref.hopper.new_game``, the
    export table's ``copa_ref.copas.Action``) is looked up in the package's modules: the one
    object documented there under that name."""
    if node.get("refdomain") != "py" or not node.get("reftarget"):
        return None
    target = str(node["reftarget"]).lstrip("~.")
    module = node.get("py:module")
    base, _, last = (f"{module}.{target}" if module else target).rpartition(".")
    if not base.startswith("copa_ref."):
        return None
    domain: Any = env.get_domain("py")
    found = [name for name in domain.objects
             if name.startswith(base + ".") and name.endswith("." + last)
             and name.count(".") == base.count(".") + 2]
    if len(found) != 1:
        return None
    result: nodes.Element | None = domain.resolve_xref(env, node["refdoc"], app.builder,
                                                       node["reftype"], found[0], node,
                                                       contnode)
    return result


# -- rule-book order: the parts of a spec -------------------------------------------------------

SPEC_PARTS = {
    "sections": "<!-- spec: sections -->",
    "rules": "<!-- spec: rules -->",
    "appendix": "<!-- spec: appendix -->",
}
"""The markers :func:`mark_spec_parts` puts into a game's spec as it is included: before its
first section (after the preamble), before the section that holds the first numbered rule,
and before the first section after the rules that is for engine writers (``Conformance``,
``State invariant``; at the end where there is none)."""

_SPEC_RULE = re.compile(r"^### [A-Z]+-\d+ ")
_APPENDIX_SECTIONS = ("## Conformance", "## State invariant")


def mark_spec_parts(text: str) -> str:
    """*text* (a game's spec) with the :data:`SPEC_PARTS` markers on lines of their own; a
    text with no numbered rule is returned as it is."""
    lines = text.split("\n")
    sections = [i for i, line in enumerate(lines) if line.startswith("## ")]
    rules = [i for i, line in enumerate(lines) if _SPEC_RULE.match(line)]
    if not sections or not rules:
        return text
    first_rules = max((i for i in sections if i < rules[0]), default=rules[0])
    appendix = next((i for i in sections if i > rules[-1]
                     and lines[i].strip() in _APPENDIX_SECTIONS), len(lines))
    for index, _, part in sorted([(sections[0], 0, "sections"), (first_rules, 1, "rules"),
                                  (appendix, 2, "appendix")], reverse=True):
        lines[index:index] = [SPEC_PARTS[part], ""]
    return "\n".join(lines)


def _mark_included_spec(app: Sphinx, relative_path: Path, parent_docname: str,
                        content: list[str]) -> None:
    """The ``include-read`` event: a game's spec, included by a page, gets its markers."""
    if relative_path.parent.name == "specs" and relative_path.stem in GAMES:
        content[0] = mark_spec_parts(content[0])


# -- the case viewer -----------------------------------------------------------------------------


def _legal(observed: dict[str, Any]) -> list[str]:
    if observed.get("legal") is not None:
        return [canonical_json(a) for a in observed["legal"]]
    if observed.get("legal_by_seat") is not None:
        return [f"seat {part['seat']}: " + " | ".join(canonical_json(a) for a in part["actions"])
                for part in observed["legal_by_seat"]]
    return []


def _mover_words(to_move: Any) -> str:
    if not isinstance(to_move, dict):
        return "–"
    kind, seats = to_move.get("kind"), to_move.get("seats") or []
    names = ", ".join(f"seat {s}" for s in seats)
    return {
        "seat": names,
        "chance": "chance",
        "joint": f"{names}, at once",
        "any": f"any of {names}",
        "nobody": "nobody: the game is over",
    }.get(str(kind), f"{kind} {names}")


def _outcome_words(outcome: Any) -> str:
    if not isinstance(outcome, dict):
        return "the game goes on"
    winners = ", ".join(f"seat {s}" for s in outcome.get("winners") or []) or "nobody"
    parts = [f"won by {winners}"]
    if outcome.get("losers"):
        parts.append(f"lost by {', '.join(f'seat {s}' for s in outcome['losers'])}")
    if outcome.get("scores"):
        parts.append(f"scores {', '.join(map(str, outcome['scores']))}")
    if outcome.get("rule"):
        parts.append(f"by {outcome['rule']}")
    return "; ".join(parts)


def _chance_words(game: Any, frame: Frame) -> list[str] | None:
    """At a chance node, its outcomes with their probabilities (``land 3 — 1/4``), or what
    chance does when the game lists none; ``None`` elsewhere."""
    to_move = frame.observed.get("to_move")
    if not isinstance(to_move, dict) or to_move.get("kind") != "chance":
        return None
    if game.chance_outcomes is not None:
        return [f"{action_words(game.to_json(action))} — {probability}"
                for action, probability in game.chance_outcomes(frame.state)]
    return [CHANCE_WORDS.get(game.name, "chance draws the outcome (sample_chance)")]


def _step_fires(game: Any, case: dict[str, Any]) -> dict[int, list[str]]:
    """For each step, the rules of the case (its ``rules``) that fire there."""
    marks: dict[int, list[str]] = {}
    for rule in case.get("rules") or []:
        for step in firing_steps(game, case, rule):
            marks.setdefault(step, []).append(rule)
    return marks


_JSON_SPAN = re.compile(r"\{[^{}]*\}|\[[^\[\]]*\]")


def description_nodes(text: str) -> list[nodes.Node]:
    """A case's description as text, its JSON (``{"ok": false, ...}``) as literals, so that
    it keeps its straight quotes and can be copied."""
    result: list[nodes.Node] = []
    at = 0
    for match in _JSON_SPAN.finditer(text):
        if '"' not in match.group(0):
            continue
        result.append(nodes.Text(text[at:match.start()]))
        result.append(nodes.literal(match.group(0), match.group(0)))
        at = match.end()
    result.append(nodes.Text(text[at:]))
    return result


def _markdown_description(text: str) -> str:
    """A description for a Markdown table cell: JSON in backticks, pipes escaped."""
    out = _JSON_SPAN.sub(lambda m: f"`{m.group(0)}`" if '"' in m.group(0) else m.group(0),
                         text)
    return out.replace("|", "\\|").replace("\n", " ")


def _picture_every(positions: int) -> int:
    return 1 if positions <= PICTURE_EVERY else math.ceil(positions / PICTURE_EVERY)


def viewer_data(case: dict[str, Any]) -> dict[str, Any]:
    """What the viewer page of *case* shows, step by step, as JSON."""
    game = GAMES[case["game"]]
    steps = _case_frames(case["id"])
    every = _picture_every(len(steps))
    pictures: list[str] = []
    shown: list[dict[str, Any]] = []
    marks = _step_fires(game, case)
    for frame in steps:
        picture = None
        if frame.step % every == 0 or frame.step == steps[-1].step:
            pictures.append(_svg(game, frame, _picture_seat(game, frame)))
            picture = len(pictures) - 1
        shown.append({
            "step": frame.step,
            "picture": picture,
            "action": None if frame.action is None else canonical_json(frame.action),
            "words": None if frame.action is None else action_words(frame.action),
            "mover": _mover_words(frame.observed.get("to_move")),
            "legal": _legal(frame.observed),
            "outcome": _outcome_words(frame.observed.get("outcome")),
            "refused": None if frame.refused is None else canonical_json(frame.refused),
            "refused_words": None if frame.refused is None else action_words(frame.refused),
            "rule": frame.rule,
            "fires": marks.get(frame.step, []),
            "chance": _chance_words(game, frame),
        })
    return {"id": case["id"], "every": every, "pictures": pictures, "frames": shown}


class CaseViewerDirective(SphinxDirective):
    """``{case-viewer} <case id>``: the case's description, rules and options, and its
    positions to step through (forward, back, the arrow keys)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        case_id = self.arguments[0]
        case = _case_or_fail(self, case_id)
        result: list[nodes.Node] = []
        facts = nodes.bullet_list()
        for label, value in (("Kind", case.get("kind", "?")),
                             ("Options", ", ".join(case.get("options") or []) or "the defaults"),
                             ("Features", ", ".join(case.get("features") or []) or "none")):
            item = nodes.list_item()
            item += nodes.paragraph("", f"{label}: {value}")
            facts += item
        item = nodes.list_item()
        para = nodes.paragraph("", "Rules covered: ")
        for i, rule in enumerate(case.get("rules") or []):
            if i:
                para += nodes.Text(", ")
            para += _rule_xref(rule)
        item += para
        facts += item
        if case.get("kind") == "rejection":
            item = nodes.list_item()
            if case.get("rule") is None:
                para = nodes.paragraph("", "Refused as malformed, under no rule (")
                para += _rule_xref("P-9")
                para += nodes.Text(")")
            else:
                para = nodes.paragraph("", "Refused under ")
                para += _rule_xref(str(case["rule"]))
            para += nodes.Text(f": {canonical_json(case.get('action'))}")
            item += para
            facts += item
        if case.get("kind") == "count":
            item = nodes.list_item()
            item += nodes.paragraph("", f"Counts {case.get('counts', '?')} of depth "
                                        f"{case.get('depth')}: {case.get('total')} in all.")
            facts += item
        description = nodes.paragraph()
        description += description_nodes(str(case.get("description", "")))
        result.append(description)
        result.append(facts)
        every = _picture_every(len(_case_frames(case_id)))
        if every > 1:
            result.append(nodes.paragraph("", f"A long trace: every {every}th step and "
                                              "the last are pictured; every step keeps its "
                                              "words, its action and its legal actions."))
        result.append(viewer_node(case_id=case_id))
        return result


class ConfigCasesDirective(SphinxDirective):
    """``{config-cases} <game>``: the game's config cases as a list, each with its anchor
    (:func:`config_anchor`), the config as JSON, the rule that refuses it (or "malformed",
    P-8) and the reason."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        name = self.arguments[0]
        if name not in GAMES:
            raise self.error(f"unknown game {name!r}")
        cases = [c for c in _config_cases().values() if c["game"] == name]
        if not cases:
            raise self.error(f"the corpus has no config case of {name!r}")
        for path in sorted((_ROOT / "conformance" / "cases" / name).glob("*.json")):
            self.env.note_dependency(str(path))
        listing = nodes.bullet_list(classes=["copa-config-cases"])
        for case in cases:
            item = nodes.list_item(ids=[config_anchor(case["id"])])
            head = nodes.paragraph()
            head += nodes.literal(case["id"], case["id"])
            head += nodes.Text(": refused ")
            if case.get("rule") is None:
                head += nodes.Text("as malformed, under no rule (")
                head += _rule_xref("P-8")
                head += nodes.Text(")")
            else:
                head += nodes.Text("under ")
                head += _rule_xref(str(case["rule"]))
            head += nodes.Text(". ")
            head += description_nodes(str(case.get("description", "")))
            item += head
            config = canonical_json(case.get("config"))
            item += nodes.literal_block(config, config, language="json")
            listing += item
        return [listing]


class viewer_node(nodes.General, nodes.Element):
    """Where a case's viewer goes; its data is computed when the page is written (so that the
    pickled doctrees stay small)."""


def _visit_viewer(translator: Any, node: viewer_node) -> None:
    data = viewer_data(_corpus()[node["case_id"]])
    payload = json.dumps(data, separators=(",", ":"), sort_keys=True).replace("</", "<\\/")
    translator.body.append(_VIEWER.format(payload=payload))
    raise nodes.SkipNode


def _skip(translator: Any, node: nodes.Node) -> None:
    raise nodes.SkipNode


_VIEWER = """<style>{style}</style>
<div class="copa-viewer" tabindex="0" aria-label="case viewer: use the arrow keys to step">
<div class="copa-viewer-controls">
<button type="button" data-go="first" title="first step (Home)">« first</button>
<button type="button" data-go="back" title="back (←)">◀ back</button>
<span class="copa-viewer-step" aria-live="polite"></span>
<button type="button" data-go="forward" title="forward (→)">forward ▶</button>
<button type="button" data-go="last" title="last step (End)">last »</button>
</div>
<p class="copa-viewer-note"></p>
<div class="copa-viewer-picture"></div>
<dl class="copa-viewer-facts">
<dt>Action that led here</dt><dd class="copa-viewer-words"></dd>
<dt>As JSON</dt><dd><code class="copa-viewer-json"></code></dd>
<dt>Refused here</dt><dd class="copa-viewer-refused"></dd>
<dt>Rules that fire here</dt><dd class="copa-viewer-fires"></dd>
<dt>Who moves</dt><dd class="copa-viewer-mover"></dd>
<dt>Outcome</dt><dd class="copa-viewer-outcome"></dd>
<dt>Legal actions</dt><dd><details><summary class="copa-viewer-count"></summary>
<ul class="copa-viewer-legal"></ul></details></dd>
</dl>
<script type="application/json" class="copa-viewer-data">{payload}</script>
</div>""".replace("{style}", STYLE.replace("{", "{{").replace("}", "}}"))


# -- the generated pages ---------------------------------------------------------------------------


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _generate_pages(app: Sphinx) -> None:
    """Write ``cases/<case id>.md`` for every case of a game that draws, and the index."""
    out = Path(app.srcdir) / "cases"
    cases = [c for c in _corpus().values() if getattr(GAMES.get(c["game"]), "svg", None)]
    wanted = {out / f"{c['id']}.md" for c in cases} | {out / "index.md"}
    if out.exists():
        for old in out.rglob("*.md"):
            if old not in wanted:
                old.unlink()
    lines = [
        "# The case viewer",
        "",
        "Every case of the conformance corpus, position by position: the picture, the action",
        "in words and in JSON, the rules that fire at the step, who moves, the legal actions",
        "(at a chance node, the outcomes and their probabilities) and the outcome. The config",
        "cases (configs `new_game` must refuse) have no position: they are listed on their",
        "game's rule page, with what is refused and why. A failure reported",
        "by `copa-ref conformance run` names the page and the step where the expected position",
        "is shown. Step through with the buttons or the arrow keys (Home and End jump to the",
        "first and the last step).",
    ]
    by_game: dict[str, list[dict[str, Any]]] = {}
    for case in cases:
        by_game.setdefault(case["game"], []).append(case)
    configs: dict[str, list[dict[str, Any]]] = {}
    for case in _config_cases().values():
        configs.setdefault(case["game"], []).append(case)
    for name in sorted(by_game):
        lines += ["", f"## {GAMES[name].title}", "",
                  "| case | kind | rules | steps | description |", "|---|---|---|---|---|"]
        for case in by_game[name]:
            count = len(case.get("steps") or case.get("prefix") or [])
            rules = ", ".join(case.get("rules") or [])
            lines.append(f"| [`{case['id']}`]({case['id']}.md) | {case['kind']} | {rules} | "
                         f"{count} | {_markdown_description(str(case.get('description', '')))} |")
        for case in configs.get(name, []):
            rules = ", ".join(case.get("rules") or [])
            lines.append(f"| [`{case['id']}`](../rules/{name}.md#{CONFIG_SECTION}) "
                         f"| config | {rules} | 0 | "
                         f"{_markdown_description(str(case.get('description', '')))} |")
    _write(out / "index.md", "\n".join(lines) + "\n")
    for case in cases:
        title = case["id"]
        _write(out / f"{case['id']}.md",
               f"---\norphan: true\n---\n\n# `{title}`\n\n```{{case-viewer}} {title}\n```\n")


_TOCTREES: dict[tuple[int, str], str] = {}


def _shared_navigation(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                       doctree: Any) -> None:
    """The viewer pages are in no toctree, so their navigation differs only by their depth:
    compute it once per depth instead of once per page (it is most of a page's write time)."""
    if not pagename.startswith("cases/") or pagename == "cases/index" or (
            "toctree" not in context):
        return
    compute = context["toctree"]
    depth = pagename.count("/")

    def toctree(**options: Any) -> str:
        key = (depth, repr(sorted(options.items())))
        if key not in _TOCTREES:
            _TOCTREES[key] = compute(**options)
        return _TOCTREES[key]

    context["toctree"] = toctree


def _check_corpus(app: Sphinx) -> None:
    try:
        _corpus()
    except (OSError, ValueError) as err:
        msg = f"cannot read the corpus: {err}"
        raise ExtensionError(msg) from err
    if app.config.rulebook_case_pages:
        _generate_pages(app)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("rulebook_case_pages", True, "env", bool)
    app.add_domain(RuleDomain)
    app.add_role("rule", RuleRole())
    app.add_directive("position", PositionDirective)
    app.add_directive("case-viewer", CaseViewerDirective)
    app.add_directive("config-cases", ConfigCasesDirective)
    app.add_directive("exports", ExportsDirective)
    app.add_node(viewer_node, html=(_visit_viewer, None), text=(_skip, None),
                 latex=(_skip, None), man=(_skip, None), texinfo=(_skip, None))
    app.connect("builder-inited", _check_corpus)
    app.connect("include-read", _mark_included_spec)
    app.connect("doctree-read", _link_rules)
    app.connect("doctree-read", _link_spec_files)
    app.connect("doctree-read", _alias_exported_functions)
    app.connect("missing-reference", _resolve_in_defining_module)
    app.connect("html-page-context", _shared_navigation, priority=400)
    app.add_js_file("viewer.js")
    app.add_css_file("rulebook.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
