"""Malformed input files for every command that reads one (issue 17): no traceback, no partial output, one line
and exit code 2 (`verify` says "damaged" with exit code 1 when the record is sound and a chunk is not).

Inputs are generated with hypothesis from real files: positions, settle requests, batch lines, experiment TOML,
run.json, Parquet chunks and tables, the regress baseline, Tenhou mjlog game logs (review); each is cut,
bit-flipped, spliced or has a value replaced by a random one (valid inputs are discarded). The fast suite runs a
few hundred; the slow suite over ten thousand.
"""

from __future__ import annotations

import copy
import gzip
import json
import re
import shutil
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.claims.experiment import EXPERIMENTS_DIR
from tsumolab.analyzer.package_files import regress_baseline_path
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
FAST, SLOW = 40, 1300
"""examples per target in the fast suite (9 targets: 360) and in the slow suite (11,700)"""
RAN = Counter()

POSITIONS = sorted((ROOT / "examples" / "positions").glob("*.json"))
SETTLE_REQUEST = {"players": [{"hand": "1122335577994m", "void": "p"}, {"hand": "1234p123456789p", "void": "m"},
                              {"hand": "13579m13579s135s", "void": "p"},
                              {"hand": "224466889s6688p", "void": "s", "kan_income": [{"from": 0, "amount": 2000}]}]}
BATCH_LINES = [{"variant": "bloodshed", "hand": "1111p335577p99s2s", "void": "m"},
               {"hand": "123m456p789s11222z", "win_tile": "2z", "tsumo": True},
               {"variant": "riichi", "hand": "123m456p789s1122z", "melds": ["pon 555p"]}]
EXPERIMENTS = sorted(EXPERIMENTS_DIR.rglob("*.toml"))
MJLOGS = sorted(p for p in (ROOT / "tests" / "data" / "tenhou_xml").iterdir() if p.suffix in (".mjlog", ".xml"))
MJLOG_VALUES = st.text(max_size=12) | st.integers(-2**40, 2**40).map(str) | st.lists(
    st.integers(-5, 70000), max_size=9).map(lambda v: ",".join(map(str, v)))


# --- generators ------------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
toml_values = st.recursive(
    st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10)


@st.composite
def byte_mutations(draw, seed: bytes) -> bytes:
    """`seed` cut, bit-flipped, overwritten, spliced or with bytes inserted or deleted (1 to 4 times)."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        op = draw(st.sampled_from(["cut", "flip", "overwrite", "insert", "delete", "repeat"]))
        if op == "cut":
            del data[at:]
        elif op == "flip" and data:
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=16))
            data[at:at + len(chunk)] = chunk
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 64))]
        else:
            data[at:at] = data[at:at + draw(st.integers(1, 64))]
    return bytes(data)


def paths(doc, prefix=()):
    """Every path to a value inside a JSON-like document (the root is ())."""
    yield prefix
    children = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    for key, value in children:
        yield from paths(value, (*prefix, key))


@st.composite
def value_mutations(draw, doc, values=json_values):
    """`doc` with 1 to 3 values replaced by random ones, deleted, or given a random sibling."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths(doc))))
        if not path:
            doc = draw(values)
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        op = draw(st.sampled_from(["replace", "delete", "add"]))
        if op == "replace":
            parent[path[-1]] = draw(values)
        elif op == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(values)
        else:
            parent.append(draw(values))
    return doc


def json_inputs(docs: list) -> st.SearchStrategy[bytes]:
    texts = [json.dumps(d).encode() for d in docs]
    return st.one_of(
        st.sampled_from(texts).flatmap(byte_mutations),
        st.sampled_from(docs).flatmap(value_mutations).map(lambda d: json.dumps(d).encode()),
        json_values.map(lambda d: json.dumps(d).encode()),
        st.binary(max_size=200),
        st.integers(1000, 200_000).map(lambda n: b"[" * n + b"]" * n),
    )


@st.composite
def xml_value_mutations(draw, seed: bytes) -> bytes:
    """`seed` (XML) with 1 to 3 attribute values or element numbers (the tile of <T52/>) replaced by random ones."""
    data = seed
    for _ in range(draw(st.integers(1, 3))):
        spots = [m.span(1) for pattern in (rb'="([^"]*)"', rb"<[A-Z]+([0-9]+)") for m in re.finditer(pattern, data)]
        start, end = draw(st.sampled_from(spots))
        value = draw(MJLOG_VALUES).encode("utf-8", "surrogatepass").replace(b'"', b"").replace(b"<", b"")
        data = data[:start] + value + data[end:]
    return data


def mjlog_inputs() -> st.SearchStrategy[bytes]:
    seeds = [p.read_bytes() for p in MJLOGS]
    return st.one_of(
        st.sampled_from(seeds).flatmap(byte_mutations),
        st.sampled_from(seeds).flatmap(xml_value_mutations),
        st.sampled_from(seeds).flatmap(xml_value_mutations).map(gzip.compress),
        st.sampled_from(seeds).map(gzip.compress).flatmap(byte_mutations),
        st.binary(max_size=200).map(lambda b: b'<mjloggm ver="2.3">' + b),
    )


def toml_text(doc: dict) -> str:
    """A small TOML writer (keys quoted, tables inline) for mutated experiment files."""
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "nan" if v != v else ("inf" if v == float("inf") else "-inf" if v == -float("inf") else repr(v))
        if isinstance(v, (int, str)):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        return "{" + ", ".join(f"{json.dumps(str(k))} = {value(x)}" for k, x in v.items()) + "}"
    if not isinstance(doc, dict):
        return f'"value" = {value(doc)}\n'
    return "".join(f"{json.dumps(str(k))} = {value(v)}\n" for k, v in doc.items())


def toml_inputs() -> st.SearchStrategy[bytes]:
    texts = [p.read_bytes() for p in EXPERIMENTS]
    docs = [tomllib.loads(t.decode()) for t in texts]
    return st.one_of(
        st.sampled_from(texts).flatmap(byte_mutations),
        st.sampled_from(docs).flatmap(lambda d: value_mutations(d, toml_values)).map(lambda d: toml_text(d).encode()),
        st.binary(max_size=200),
    )


# --- running one input -------------------------------------------------------------------------------------

def fails_cleanly(args, capsys, code=2) -> None:
    """The command exits with `code`, prints nothing on stdout and one line `tsumolab: error: …` on stderr."""
    got, out, err = run_cli(args, capsys)
    assert got == code, (args, got, err[-2000:])
    assert "Traceback" not in err
    if code == 2:
        assert out == "" and len(err.splitlines()) == 1 and err.startswith("tsumolab: error: "), err


def snapshot(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def fuzz(target: str, examples: int, strategy, check) -> None:
    """Run `check(input)` on `examples` generated inputs (check discards valid ones with assume)."""
    before = RAN[target]

    @settings(max_examples=examples, deadline=None, database=None, derandomize=examples <= FAST,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def one(data):
        check(data)
        RAN[target] += 1

    one()
    assert RAN[target] - before >= examples


# --- the targets -------------------------------------------------------------------------------------------------

def position_target(tmp_path, capsys):
    docs = [json.loads(p.read_text()) for p in POSITIONS]
    path = tmp_path / "position.json"

    def check(data):
        path.write_bytes(data)
        got, out, err = run_cli(["advise", str(path), "--rollouts", "1", "--json"], capsys)
        assume(got != 0)  # a valid position: not malformed
        assert got == 2 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return json_inputs(docs), check


def settle_target(tmp_path, capsys):
    path = tmp_path / "draw.json"

    def check(data):
        path.write_bytes(data)
        got, out, err = run_cli(["settle", "--variant", "bloodshed", str(path)], capsys)
        assume(got != 0)
        assert got == 2 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
    return json_inputs([SETTLE_REQUEST]), check


def batch_target(tmp_path, capsys):
    source, output = tmp_path / "hands.jsonl", tmp_path / "results.jsonl"
    line = json_inputs(BATCH_LINES).map(lambda b: b.replace(b"\n", b" ").replace(b"\r", b" "))
    lines = st.lists(line | st.sampled_from([json.dumps(x).encode() for x in BATCH_LINES]), min_size=1, max_size=6)

    def check(chosen):
        data = b"\n".join(chosen)
        source.write_bytes(data)
        output.unlink(missing_ok=True)
        got, out, err = run_cli(["hand", "--batch", str(source), "--output", str(output)], capsys)
        assume(got != 0)
        assert got == 2 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
        if output.exists():  # the documented batch output: one line per non-blank input line, never a part
            expected = [x for x in data.removeprefix(b"\xef\xbb\xbf").splitlines() if x.strip()]
            assert len(output.read_text(encoding="utf-8").splitlines()) == len(expected)
    return lines, check


def experiment_target(tmp_path, capsys):
    from tsumolab.analyzer.claims.experiment import load_experiment

    path, out = tmp_path / "experiment.toml", tmp_path / "out"

    def check(data):
        path.write_bytes(data)
        try:
            load_experiment(path)
        except InputError:
            pass
        else:
            assume(False)  # a valid experiment file
        fails_cleanly(["experiment", "run", str(path), "--out", str(out), "--matches", "8", "--no-report", "-q"],
                      capsys)
        assert not out.exists()
    return toml_inputs(), check


def run_record_target(tmp_path, capsys, tiny_run):
    from tsumolab.analyzer.runs.record import damaged_record_reason

    out = tiny_run.copy(tmp_path / "run")
    original = (out / "run.json").read_bytes()
    before = {k: v for k, v in snapshot(out).items() if k != "run.json"}

    def check(data):
        (out / "run.json").write_bytes(data)
        assume(damaged_record_reason(out) is not None)
        for args in (["verify", str(out)], ["report", str(out)], ["replay", "--run", str(out), "--match", "1"],
                     ["run", *tiny_run.args, "--out", str(out), "--resume", "-q"]):
            fails_cleanly(args, capsys)
            assert {k: v for k, v in snapshot(out).items() if k != "run.json"} == before
            assert (out / "run.json").read_bytes() == data
    return json_inputs([json.loads(original)]), check


def chunk_target(tmp_path, capsys, tiny_run):
    """A chunk of a run with checksums: report exits 2 naming it, verify exits 1 (damaged)."""
    out = tiny_run.copy(tmp_path / "run")
    files = sorted(out.glob("*/chunk-*.parquet"))
    originals = {p: p.read_bytes() for p in files}
    before = snapshot(out)

    def check(choice):
        index, data = choice
        path = files[index % len(files)]
        assume(data != originals[path])
        path.write_bytes(data)
        try:
            fails_cleanly(["report", str(out)], capsys)
            fails_cleanly(["verify", str(out)], capsys, code=1)
        finally:
            path.write_bytes(originals[path])
        assert snapshot(out) == before
    chunks = st.tuples(st.integers(0, 7), st.sampled_from(list(originals.values())).flatmap(byte_mutations))
    return chunks, check


def unchecked_parquet_target(tmp_path, capsys, tiny_run, study):
    """Parquet the parser sees itself: chunks of a run without checksums (older record format) and the tables of
    a study without study.json. The readers raise InputError or read; verify exits 1 (damaged) and never
    crashes; report on a study with its record exits 2."""
    from tsumolab.reports.data import load_report_data

    legacy = tiny_run.copy(tmp_path / "legacy")
    record = json.loads((legacy / "run.json").read_text())
    del record["record_format"], record["files"]
    (legacy / "run.json").write_text(json.dumps(record))
    recorded = tmp_path / "study"
    shutil.copytree(study, recorded)
    unrecorded = tmp_path / "study-unrecorded"
    shutil.copytree(study, unrecorded)
    (unrecorded / "study.json").unlink()
    targets = sorted(legacy.glob("*/chunk-*.parquet")) + [unrecorded / "claims.parquet", unrecorded / "ev.parquet",
                                                         recorded / "claims.parquet", recorded / "arms.parquet"]
    originals = {p: p.read_bytes() for p in targets}

    def check(choice):
        index, data = choice
        path = targets[index % len(targets)]
        assume(data != originals[path])
        root = path.parent.parent if path.parent.name in ("hands", "matches") else path.parent
        path.write_bytes(data)
        try:
            if root == recorded:
                fails_cleanly(["report", str(root)], capsys)
            else:
                try:
                    load_report_data(root)
                except InputError as exc:
                    assert "\n" not in str(exc)
            fails_cleanly(["verify", str(root)], capsys, code=1)
        finally:
            path.write_bytes(originals[path])
    seeds = list(originals.values())
    return st.tuples(st.integers(0, 11), st.sampled_from(seeds).flatmap(byte_mutations) | st.binary(max_size=64)), check


def baseline_target(tmp_path, capsys):
    from tsumolab.analyzer.regress import check as regress

    path = tmp_path / "baseline.json"
    seed = json.loads(regress_baseline_path().read_text())
    seed = {**seed, "metrics": dict(list(seed["metrics"].items())[:6])}  # mutations reach every part of it

    def check(data):
        path.write_bytes(data)
        try:
            regress.read_baseline(path)
        except InputError:
            pass
        else:
            assume(False)  # a usable baseline: regress would run its claims
        fails_cleanly(["regress", "--mode", "bloodshed", "--baseline", str(path)], capsys)
        assert path.read_bytes() == data
    return json_inputs([seed]), check


def mjlog_target(tmp_path, capsys):
    """A Tenhou mjlog that does not read: review exits 2 in one line before writing anything."""
    from tsumolab.analyzer.games.read import read_game

    path, out = tmp_path / "game.mjlog", tmp_path / "review"

    def check(data):
        path.write_bytes(data)
        try:
            read_game(path)
        except InputError:
            pass
        else:
            assume(False)  # a log that reads: review would review it
        fails_cleanly(["review", str(path), "--seat", "0", "--out", str(out), "--no-report"], capsys)
        assert not out.exists()
    return mjlog_inputs(), check


TARGETS = {
    "position": (position_target, ()), "settle": (settle_target, ()), "batch": (batch_target, ()),
    "experiment": (experiment_target, ()), "run-record": (run_record_target, ("tiny_run",)),
    "chunk": (chunk_target, ("tiny_run",)), "unchecked-parquet": (unchecked_parquet_target, ("tiny_run", "study")),
    "baseline": (baseline_target, ()), "mjlog": (mjlog_target, ()),
}
"""target → (maker(tmp_path, capsys, *fixtures) → (strategy, check), the fixtures it needs)"""


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz-study") / "b4"
    code = run_cli_quiet(["experiment", "run", str(EXPERIMENTS_DIR / "b4.toml"), "--matches", "16", "--no-report",
                          "-q", "--out", str(out)])
    assert code == 0
    return out


def run_cli_quiet(args):
    from tsumolab.cli import main

    try:
        main(args)
    except SystemExit as exc:
        return exc.code
    return None


def build(target, tmp_path, capsys, request):
    maker, fixtures = TARGETS[target]
    return maker(tmp_path, capsys, *(request.getfixturevalue(name) for name in fixtures))


@pytest.mark.parametrize("target", list(TARGETS))
def test_malformed_inputs_fail_cleanly(target, tmp_path, capsys, request):
    strategy, check = build(target, tmp_path, capsys, request)
    fuzz(target, FAST, strategy, check)


@pytest.mark.slow
@pytest.mark.parametrize("target", list(TARGETS))
def test_malformed_inputs_fail_cleanly_many(target, tmp_path, capsys, request):
    strategy, check = build(target, tmp_path, capsys, request)
    fuzz(target, SLOW, strategy, check)
