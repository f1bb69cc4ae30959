"""The corpus itself: shape, versions, IDs, rule coverage, freshness."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from copa_ref.conformance.corpus import CORPUS_DIR, load_corpus
from copa_ref.conformance.generate import corpus_file, generate
from copa_ref.conformance.observables import CORPUS_VERSION
from copa_ref.games import GAMES

ROOT = Path(__file__).resolve().parents[2]
RULE = re.compile(r"\b(KALA|RONDA|HOPPER|DACAPO|KOPA|COPAS)-\d+\b")
SEMVER = re.compile(r"^\d+\.\d+\.\d+$")


def spec_rules() -> set[str]:
    """Every rule ID in a heading of specs/*.md."""
    found: set[str] = set()
    for path in sorted((ROOT / "specs").glob("*.md")):
        for line in path.read_text().splitlines():
            if line.startswith("#"):
                found |= {m.group(0) for m in RULE.finditer(line)}
    return found


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return load_corpus(CORPUS_DIR)


class TestShape:
    def test_every_file_validates_against_the_schema(self) -> None:
        """Every corpus file is valid under conformance/schema/corpus.schema.json."""
        schema = json.loads((CORPUS_DIR / "schema" / "corpus.schema.json").read_text())
        validator = jsonschema.Draft202012Validator(schema)
        files = sorted((CORPUS_DIR / "cases").glob("*/*.json"))
        assert files
        for path in files:
            errors = list(validator.iter_errors(json.loads(path.read_text())))
            assert not errors, f"{path}: {errors[0].message}"

    def test_schemas_are_valid_json_schemas(self) -> None:
        """The three shipped schemas are themselves valid draft 2020-12 schemas."""
        for name in ("corpus", "messages", "report"):
            schema = json.loads((CORPUS_DIR / "schema" / f"{name}.schema.json").read_text())
            jsonschema.Draft202012Validator.check_schema(schema)

    def test_version_is_semver_and_carried_by_every_case(self, cases: list[dict]) -> None:
        """VERSION is semver, equals the generator's, and every case carries it."""
        version = (CORPUS_DIR / "VERSION").read_text().strip()
        assert SEMVER.match(version)
        assert version == CORPUS_VERSION
        assert {c["corpus_version"] for c in cases} == {version}

    def test_ids_are_unique_and_meaningful(self, cases: list[dict]) -> None:
        """Case IDs are unique, start with game/kind/, and are not bare sequence numbers."""
        ids = [c["id"] for c in cases]
        assert len(ids) == len(set(ids))
        for case in cases:
            assert case["id"].startswith(f"{case['game']}/{case['kind']}/")
            assert not re.fullmatch(r"[0-9]+", case["id"].rsplit("/", 1)[-1])

    def test_options_match_the_config(self, cases: list[dict]) -> None:
        """A case's options are exactly its config fields that differ from the default."""
        from copa_ref.conformance.observables import options_of

        for case in cases:
            if case["kind"] == "config":  # a config new_game refuses: no options to need
                assert case["options"] == [], case["id"]
                continue
            game = GAMES[case["game"]]
            config = game.config_from_json(case["config"])
            assert case["options"] == options_of(game, config), case["id"]

    def test_every_registered_game_has_every_kind(self, cases: list[dict]) -> None:
        """Each registered game has traces, rejections and counts."""
        kinds = {(c["game"], c["kind"]) for c in cases}
        for name in GAMES:
            for kind in ("trace", "rejection", "count", "config"):
                assert (name, kind) in kinds, f"{name} has no {kind} case"


class TestCoverage:
    def test_every_spec_rule_is_covered(self, cases: list[dict]) -> None:
        """Every rule ID in a heading of specs/*.md is covered by at least one case."""
        covered = {rule for case in cases for rule in case["rules"]}
        missing = sorted(spec_rules() - covered)
        assert not missing, f"rules no corpus case covers: {missing}"

    def test_cases_cite_only_spec_rules(self, cases: list[dict]) -> None:
        """No case cites a rule ID that the specs do not define (a malformed action cites
        the protocol's section on errors, P-9; a malformed config canonical JSON, P-8)."""
        known = spec_rules() | {"P-8", "P-9"}
        cited = {rule for case in cases for rule in case["rules"]}
        assert cited <= known, sorted(cited - known)

    def test_prefixes_follow_their_trace(self, cases: list[dict]) -> None:
        """A rejection's or a count's prefix is the start of the trace it names, whose
        observables are checked along it."""
        traces = {c["id"]: c for c in cases if c["kind"] == "trace"}
        for case in cases:
            if case["kind"] in ("trace", "config"):
                continue
            if not case["prefix"] and case["kind"] == "count":
                assert case["trace"] is None
                continue
            trace = traces[case["trace"]]
            steps = trace["steps"][:len(case["prefix"])]
            assert [s["action"] for s in steps] == case["prefix"], case["id"]
            last = steps[-1]["expect"] if steps else trace["initial"]
            assert last == case["position"], case["id"]

    def test_bad_configs_are_refused_by_the_reference(self, cases: list[dict]) -> None:
        """Each game has config cases, malformed and excluded by a rule, and the reference
        refuses each under its rule (a malformed one with no rule)."""
        from copa_ref.conformance.registry import record_of
        from copa_ref.core import RuleViolation

        for name, game in GAMES.items():
            mine = [c for c in cases if c["game"] == name and c["kind"] == "config"]
            record = record_of(name)
            assert any(c["rule"] is None for c in mine), name
            assert any(c["rule"] for c in mine) or not (record and record.bad_configs), name
            for case in mine:
                try:
                    game.new_game(game.config_from_json(case["config"]))
                except RuleViolation as exc:
                    assert exc.rule == case["rule"], case["id"]
                except ValueError:
                    assert case["rule"] is None, case["id"]
                else:
                    raise AssertionError(case["id"])

    def test_each_game_pins_its_refusal_order_and_malformed_actions(
            self, cases: list[dict]) -> None:
        """Every game has a malformed-action case (refused naming no rule), and the cases
        pin the refusal orders: KALA's game over before seat before phase and path; DA
        CAPO's every adjacent pair of its list that one action can break together (the end
        before a lone bid and before the list's length, the length before the bids, seat by
        seat, a seat out before its bid's value, the value before the reserve)."""
        for name in GAMES:
            assert any(c["kind"] == "rejection" and c["rule"] is None and c["game"] == name
                       for c in cases), name

        def kinds(game: str) -> dict[str, str]:
            return {c["id"].split("/")[3]: c["rule"] for c in cases
                    if c["game"] == game and c["kind"] == "rejection" and c["rule"]}

        assert {"order-over-before-seat", "order-seat-before-phase",
                "order-seat-before-value"} <= set(kinds("kala"))
        pinned = {k: v for k, v in kinds("da_capo").items() if k.startswith("order-")}
        assert pinned == {"order-over-before-lone-bid": "DACAPO-16",
                          "order-over-before-length": "DACAPO-16",
                          "order-length-before-bids": "DACAPO-5",
                          "order-earlier-seat-first": "DACAPO-6",
                          "order-out-before-value": "DACAPO-13",
                          "order-value-before-reserve": "DACAPO-6"}

    def test_rejections_name_their_rule(self, cases: list[dict]) -> None:
        """A rejection's rule is among the rules it covers, and the reference refuses the
        action under exactly that rule."""
        from copa_ref.conformance.checks import reference_refusal

        for case in cases:
            if case["kind"] == "rejection":
                assert case["rule"] in case["rules"] or (case["rule"] is None
                                                         and case["rules"] == ["P-9"])
                game = GAMES[case["game"]]
                got = reference_refusal(game, case["config"], case["prefix"], case["action"])
                assert got == case["rule"], case["id"]

    def test_counts_add_up(self, cases: list[dict]) -> None:
        """A count's total is the sum of its breakdown, which is sorted and distinct."""
        from copa_ref.core import canonical_json

        for case in cases:
            if case["kind"] == "count":
                keys = [canonical_json(e["action"]) for e in case["breakdown"]]
                assert keys == sorted(set(keys))
                assert case["total"] == sum(e["count"] for e in case["breakdown"])


class TestFreshness:
    def test_corpus_is_what_the_reference_generates(self) -> None:
        """Regenerating the corpus from the reference gives the committed files, byte for
        byte (run `copa-ref conformance generate` after changing a rule)."""
        corpus = generate()
        expected_files = set()
        for game, kinds in corpus.items():
            if not any(kinds.values()):
                continue
            for kind, found in kinds.items():
                path = CORPUS_DIR / "cases" / game / f"{kind}s.json"
                expected_files.add(path)
                assert path.exists(), f"missing {path}"
                assert path.read_text() == corpus_file(game, kind, found), (
                    f"{path} is stale: run `copa-ref conformance generate`")
        assert set((CORPUS_DIR / "cases").glob("*/*.json")) == expected_files
        assert (CORPUS_DIR / "VERSION").read_text() == CORPUS_VERSION + "\n"
