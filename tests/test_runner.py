"""Chunked, parallel, resumable runs (analyzer.runs.runner) and the table conversion / Parquet I/O (analyzer.tables)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest

from tsumolab.analyzer import tables
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.runs.integrity import read_dataset
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs.runner import RunInterrupted, RunSpec, combined_tables, execute, read_run_record
from tsumolab.analyzer.tables import (
    columns_markdown,
    complete_chunks,
    hand_table,
    match_table,
    read_file_metadata,
    table_columns,
    write_parquet_atomic,
)
from tsumolab.sims.modes import MODES, get_mode
from tsumolab.sims.bloodshed.columns import HAND_COLUMNS, HC, MATCH_COLUMNS, MC, N_HAND_COLS, N_MATCH_COLS

MATCHES = 24
SEATS = ("baseline",) * 4
README = Path(__file__).resolve().parent.parent / "README.md"


def make_spec(matches: int = MATCHES, seed: int = 11, chunk_size: int = 5) -> RunSpec:
    return build_spec("bloodshed", SEATS, matches, seed, chunk_size)


def run(out: Path, jobs: int = 1, resume: bool = False, **spec_args):
    return execute(make_spec(**spec_args), out, jobs=jobs, resume=resume, progress=False)


def run_files(out: Path) -> list[str]:
    return sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())


def assert_same_dataset(a: Path, b: Path) -> None:
    hands_a, matches_a = combined_tables(a)
    hands_b, matches_b = combined_tables(b)
    assert hands_a.equals(hands_b)
    assert matches_a.equals(matches_b)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> Path:
    """An uninterrupted in-process run: 24 matches in chunks of 5 (the last chunk holds 4)."""
    out = tmp_path_factory.mktemp("reference")
    run(out)
    return out


# --- determinism: the dataset depends only on (seed, match ids) -------------------------------------

def test_jobs_do_not_change_the_dataset_nor_the_chunk_bytes(reference, tmp_path):
    summary = run(tmp_path, jobs=2)
    assert summary.jobs == 2 and summary.matches == MATCHES
    assert_same_dataset(reference, tmp_path)
    assert run_files(reference) == run_files(tmp_path)
    for name in run_files(reference):
        if name.endswith(".parquet"):
            assert (reference / name).read_bytes() == (tmp_path / name).read_bytes(), name


@pytest.mark.parametrize("chunk_size", [1, 7, 1000])
def test_chunk_size_does_not_change_the_dataset(reference, tmp_path, chunk_size):
    run(tmp_path, chunk_size=chunk_size)
    assert_same_dataset(reference, tmp_path)


def test_other_seed_gives_other_dataset(reference, tmp_path):
    run(tmp_path, seed=12)
    hands_a, _ = combined_tables(reference)
    hands_b, _ = combined_tables(tmp_path)
    assert hands_a.shape[1] == hands_b.shape[1]
    assert not hands_a.equals(hands_b)


def test_chunk_i_holds_match_ids_of_its_range(reference):
    matches_files = tables.chunk_files(reference, "matches")
    assert sorted(matches_files) == [0, 1, 2, 3, 4]
    for index, path in matches_files.items():
        ids = pl.read_parquet(path)["match_id"].unique().sort().to_list()
        assert ids == list(range(index * 5, min(index * 5 + 5, MATCHES)))


def test_dataset_covers_every_match_and_seat(reference):
    hands, matches = combined_tables(reference)
    assert matches.height == 4 * MATCHES
    assert matches.group_by("match_id").len()["len"].to_list() == [4] * MATCHES
    assert hands["match_id"].unique().sort().to_list() == list(range(MATCHES))
    assert set(hands["policy"].unique()) == {"baseline"}
    assert hands.columns == [c[0] for c in table_columns("hands")]


def test_summary_counts_match_the_tables(reference, tmp_path):
    summary = run(tmp_path)
    hands, _ = combined_tables(tmp_path)
    assert summary.matches == summary.simulated_matches == MATCHES
    assert summary.hand_rows == hands.height
    assert summary.hands == hands.select(["match_id", "hand"]).unique().height
    assert summary.chunks == 5 and summary.resumed_chunks == 0
    assert summary.seconds > 0 and summary.matches_per_s > 0


# --- output directory, run.json, metadata ---------------------------------------------------------------

def test_run_leaves_only_complete_files(reference):
    expected = ["run.json"] + [f"{t}/chunk-{i:06d}.parquet" for t in ("hands", "matches") for i in range(5)]
    assert run_files(reference) == sorted(expected)


def test_run_json_records_spec_code_version_and_timings(reference):
    record = read_run_record(reference)
    assert record["spec"] == make_spec().to_dict()
    assert record["status"] == "complete"
    assert record["code_version"]
    (session,) = record["sessions"]
    assert session["simulated_matches"] == MATCHES and session["seconds"] >= 0


def test_parquet_files_carry_spec_and_code_version(reference):
    record = read_run_record(reference)
    meta = read_file_metadata(reference / "hands" / "chunk-000003.parquet")
    assert json.loads(meta["tsumolab.run_spec"]) == make_spec().to_dict()
    assert meta["tsumolab.code_version"] == record["code_version"]
    assert meta["tsumolab.table"] == "hands"
    assert json.loads(meta["tsumolab.chunk"])["first_match"] == 15


SEATS_WITH_PARAMETERS = {"bloodshed": "search(rollouts=4,z=0.5),expert(pass_fan=3),disconnected(take_wins=1),fold",
                         "shura": "expert(pass_fan=3),baseline,disconnected(take_wins=1),baseline"}


@pytest.mark.parametrize("slug", list(MODES))
def test_stored_spec_reads_back_as_the_same_typed_spec(slug):
    """The one reader of a stored spec (run.json, chunk metadata) gives back the typed spec that wrote it: mode
    row, seat policies with their int and float parameters, rules dataclass."""
    spec = build_spec(slug, SEATS_WITH_PARAMETERS.get(slug, "expert(pass_fan=3),baseline,random,baseline"), 9, 4,
                      2, rules={"cards": "fuuki"} if slug == "fantasy" else None)
    stored = json.loads(json.dumps(spec.to_dict()))
    again = RunSpec.from_record(stored)
    assert again == spec and again.to_dict() == stored
    assert isinstance(again.rules, get_mode(slug).rules_class)


def test_a_run_parses_its_options_once(tmp_path, monkeypatch):
    """Seats and rules are parsed when the spec is built; execute and its workers use the typed objects."""
    from tsumolab.policies import registry

    spec = build_spec("bloodshed", "expert(pass_fan=3),baseline,fold,baseline", 4, 3, 2)

    def parsed_again(*args, **kwargs):
        raise AssertionError("a seat spec was parsed again")

    monkeypatch.setattr(registry, "parse_seats", parsed_again)
    monkeypatch.setattr(registry, "parse_seat", parsed_again)
    monkeypatch.setattr(get_mode("bloodshed").rules_class, "from_dict", parsed_again)
    execute(spec, tmp_path, jobs=1, progress=False)
    assert json.loads(pq.read_metadata(tmp_path / "hands" / "chunk-000000.parquet").metadata[
        b"tsumolab.run_spec"]) == spec.to_dict()


def test_compile_step_sends_each_engine_and_each_hook_once_to_the_workers(monkeypatch):
    """Issue 32: before the workers simulate, the kernels their matches run are compiled as separate pieces (the
    engine of each family, the extra functions, then every distinct hook) on as many workers as the run uses;
    a hook two seats or two policies share is one piece."""
    from tsumolab.analyzer.runs import runner

    sent = []

    class Recorder:
        def __init__(self, n_jobs, backend, batch_size, return_as):
            sent.append((n_jobs, backend))

        def __call__(self, pieces):
            pieces = list(pieces)
            sent.append([(fn.__name__, args) for fn, args, _ in pieces])
            return [fn(*args, **kwargs) for fn, args, kwargs in pieces]

    monkeypatch.setattr(runner, "Parallel", Recorder)
    specs = [build_spec("bloodshed", "fold,baseline,pon-happy,baseline", 4, 1, 2),
             build_spec("riichi", "baseline", 4, 1, 2), build_spec("bloodshed", "baseline", 4, 1, 2)]
    extra_ran = []
    runner.compile_kernels(specs, 2, extra=(lambda: extra_ran.append(1),))
    assert sent[0] == (2, "loky") and extra_ran == [1]
    names = [name for name, _ in sent[1]]
    assert names[:3] == ["_compile_engine", "_compile_engine", "<lambda>"]
    hooks = {id(fn) for spec in specs for seat in spec.seats for fn in seat.hook_functions(spec.mode.family.name)}
    assert names.count("_compile_hook") == len(hooks)
    assert all(fn.get_function_type() is not None for spec in specs for seat in spec.seats
               for fn in seat.hook_functions(spec.mode.family.name))


def test_compile_step_warms_a_searching_seat_here_and_the_rest_on_the_workers(monkeypatch):
    """A spec with a searching seat compiles by playing one match of it in this process (its rollout kernels
    compile on first call); the others go to compile_kernels, on one worker (this process) with Dask."""
    from tsumolab.analyzer.runs import runner
    from tsumolab.analyzer.search import play as search_play

    played, sent = [], []
    monkeypatch.setattr(search_play, "warm_up", lambda mode, seats: played.append(mode.slug))
    monkeypatch.setattr(runner, "compile_kernels",
                        lambda specs, n, backend, paths, progress: sent.append((len(specs), n, backend)))
    searching = build_spec("shura", "search(rollouts=2),baseline,baseline,baseline", 4, 1, 2)
    plain = build_spec("bloodshed", "baseline", 4, 1, 2)
    runner.compile_for([searching, plain], 2)
    runner.compile_for([plain], 2, backend="dask")
    assert played == ["shura"] and sent == [(1, 2, "loky"), (1, 1, "loky")]


def test_a_stored_label_that_tsumolab_would_not_write_is_refused():
    spec = make_spec().to_dict()
    with pytest.raises(ValueError, match="not a policy label"):
        RunSpec.from_record({**spec, "seats": ["expert(pass_fan=x)", *spec["seats"][1:]]})


def test_previous_run_needs_resume_or_overwrite(reference, tmp_path):
    run(tmp_path, matches=30)
    with pytest.raises(InputError, match="--resume.*--overwrite"):
        run(tmp_path)
    execute(make_spec(), tmp_path, jobs=1, resume=False, progress=False, overwrite=True)
    assert complete_chunks(tmp_path) == [0, 1, 2, 3, 4]  # the sixth chunk of the 30-match run is gone
    assert_same_dataset(reference, tmp_path)


def test_resume_refuses_a_different_spec(tmp_path):
    run(tmp_path)
    with pytest.raises(InputError, match="seed: 11 there, 12 now"):
        run(tmp_path, resume=True, seed=12)
    with pytest.raises(InputError, match="chunk_size"):
        run(tmp_path, resume=True, chunk_size=6)


def test_resume_and_overwrite_exclude_each_other(tmp_path):
    with pytest.raises(InputError):
        execute(make_spec(), tmp_path, resume=True, overwrite=True, progress=False)


# --- resume after an interruption -----------------------------------------------------------------------

def test_resume_redoes_an_incomplete_chunk(reference, tmp_path):
    run(tmp_path)
    (tmp_path / "matches" / "chunk-000002.parquet").unlink()  # hands written, matches not: incomplete
    assert complete_chunks(tmp_path) == [0, 1, 3, 4]
    summary = run(tmp_path, resume=True)
    assert summary.resumed_chunks == 4 and summary.simulated_matches == 5
    assert summary.matches == MATCHES
    assert_same_dataset(reference, tmp_path)
    assert [s["status"] for s in read_run_record(tmp_path)["sessions"]] == ["complete", "complete"]


def test_ctrl_c_keeps_complete_chunks_and_resume_finishes(reference, tmp_path, monkeypatch):
    mode = get_mode("bloodshed")

    def interrupted_at_chunk_2(root_seed, match_ids, seats, rules, *args, **kwargs):
        if int(match_ids[0]) == 10:
            raise KeyboardInterrupt
        return mode.family.play(root_seed, match_ids, seats, rules, *args, **kwargs)

    interrupted = dataclasses.replace(mode, family=dataclasses.replace(mode.family, play=interrupted_at_chunk_2))
    monkeypatch.setitem(MODES, "bloodshed", interrupted)
    with pytest.raises(RunInterrupted, match="--resume") as info:
        run(tmp_path)
    assert info.value.done_chunks == 2 and info.value.total_chunks == 5
    assert complete_chunks(tmp_path) == [0, 1]
    assert read_run_record(tmp_path)["status"] == "interrupted"

    monkeypatch.setitem(MODES, "bloodshed", mode)
    summary = run(tmp_path, resume=True)
    assert summary.resumed_chunks == 2 and summary.simulated_matches == MATCHES - 10
    assert_same_dataset(reference, tmp_path)
    assert run_files(reference) == run_files(tmp_path)


def test_interrupt_while_writing_leaves_no_partial_file(reference, tmp_path, monkeypatch):
    real_write = pq.write_table

    def write_then_interrupt(table, where, **kwargs):
        real_write(table, where, **kwargs)  # the temp file is on disk now
        if ".chunk-000001.parquet" in str(where) and "matches" in str(where):
            raise KeyboardInterrupt

    monkeypatch.setattr(tables.pq, "write_table", write_then_interrupt)
    with pytest.raises(RunInterrupted):
        run(tmp_path)
    files = run_files(tmp_path)
    assert not [f for f in files if Path(f).name.startswith(".")]
    # both files of a chunk are written before either is renamed into place: no half chunk either
    assert "hands/chunk-000001.parquet" not in files and "matches/chunk-000001.parquet" not in files
    assert complete_chunks(tmp_path) == [0]
    assert sorted(read_run_record(tmp_path)["files"]) == ["hands/chunk-000000.parquet", "matches/chunk-000000.parquet"]

    monkeypatch.setattr(tables.pq, "write_table", real_write)
    run(tmp_path, resume=True)
    assert_same_dataset(reference, tmp_path)


def test_resume_removes_temp_files_of_a_killed_run(reference, tmp_path):
    run(tmp_path)
    stale = tmp_path / "hands" / ".chunk-000004.parquet.999-abcd.tmp"
    stale.write_bytes(b"partial")
    (tmp_path / "matches" / "chunk-000004.parquet").unlink()
    run(tmp_path, resume=True)
    assert not stale.exists()
    assert run_files(reference) == run_files(tmp_path)


# --- tables: typed frames from int32 rows -----------------------------------------------------------------

def synthetic_hand_rows(n: int = 8) -> np.ndarray:
    rows = np.zeros((n, N_HAND_COLS), np.int32)
    rows[:, HC["match_id"]] = np.arange(n) // 4
    rows[:, HC["seat"]] = np.arange(n) % 4
    rows[:, HC["won"]] = [1, 0, 0, 0, 0, 1, 0, 0][:n]
    rows[:, HC["win_kind"]] = [2, 0, 0, 0, 0, 1, 0, 0][:n]
    rows[:, HC["void_suit"]] = [0, 1, 2, 0, 1, 2, 0, 1][:n]
    rows[:, HC["delta"]] = -70_000
    return rows


def test_hand_table_types_labels_and_policy_column():
    seats = ["a", "b(x=1)", "c", "d"]
    df = hand_table(synthetic_hand_rows(), seats)
    names = [c[0] for c in HAND_COLUMNS]
    assert df.columns == names[:3] + ["policy"] + names[3:]
    for name, dtype, _meaning, _labels in HAND_COLUMNS:
        assert df[name].dtype == getattr(pl, dtype), name
    assert df["policy"].to_list() == seats * 2
    assert df["win_kind"].to_list() == ["tsumo", "none", "none", "none", "none", "ron", "none", "none"]
    assert df["void_suit"].to_list() == ["m", "p", "s", "m", "p", "s", "m", "p"]
    assert df["won"].to_list() == [True, False, False, False, False, True, False, False]
    assert df["delta"].to_list() == [-70_000] * 8


def test_match_table_takes_seat_policy_objects():
    class Seat:
        def __init__(self, label):
            self.label = label

    rows = np.zeros((4, N_MATCH_COLS), np.int32)
    rows[:, MC["seat"]] = [3, 2, 1, 0]
    rows[:, MC["busted"]] = [0, 0, 1, 0]
    df = match_table(rows, [Seat(s) for s in "wxyz"])
    assert df.columns == ["match_id", "seat", "policy"] + [c[0] for c in MATCH_COLUMNS[2:]]
    assert df["policy"].to_list() == ["z", "y", "x", "w"]
    assert df["busted"].to_list() == [False, False, True, False]


def test_hand_table_rejects_codes_that_do_not_fit():
    rows = synthetic_hand_rows()
    rows[0, HC["win_kind"]] = 3
    with pytest.raises(ValueError, match="win_kind"):
        hand_table(rows, "abcd")
    rows = synthetic_hand_rows()
    rows[0, HC["hand"]] = 200  # Int8 column
    with pytest.raises(pl.exceptions.PolarsError):
        hand_table(rows, "abcd")
    with pytest.raises(ValueError, match="shape"):
        hand_table(np.zeros((4, N_HAND_COLS - 1), np.int32), "abcd")


def test_empty_rows_give_empty_typed_frames():
    df = hand_table(np.zeros((0, N_HAND_COLS), np.int32), "abcd")
    assert df.height == 0 and df["win_kind"].dtype == pl.Utf8 and df["won"].dtype == pl.Boolean


def test_write_parquet_atomic_round_trips_data_and_metadata(tmp_path):
    df = hand_table(synthetic_hand_rows(), "abcd")
    path = tmp_path / "x.parquet"
    write_parquet_atomic(df, path, {"tsumolab.run_spec": '{"a": 1}', "tsumolab.chunk": {"index": 3}})
    assert pl.read_parquet(path).equals(df)
    meta = read_file_metadata(path)
    assert meta["tsumolab.run_spec"] == '{"a": 1}' and json.loads(meta["tsumolab.chunk"]) == {"index": 3}
    assert [p.name for p in tmp_path.iterdir()] == ["x.parquet"]


def test_failed_write_keeps_the_old_file_and_no_temp(tmp_path, monkeypatch):
    df = hand_table(synthetic_hand_rows(), "abcd")
    path = tmp_path / "x.parquet"
    write_parquet_atomic(df, path, {})
    before = path.read_bytes()

    def broken_write(table, where, **kwargs):
        Path(where).write_bytes(b"half a file")
        raise OSError("disk full")

    monkeypatch.setattr(tables.pq, "write_table", broken_write)
    with pytest.raises(OSError):
        write_parquet_atomic(df.head(2), path, {})
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["x.parquet"]


def test_read_dataset_reads_only_committed_chunks(reference, tmp_path):
    run(tmp_path)
    record = read_run_record(tmp_path)
    for table in ("hands", "matches"):  # chunk 0 as an interrupted run leaves it: on disk, not committed
        del record["files"][f"{table}/chunk-000000.parquet"]
    (tmp_path / "run.json").write_text(json.dumps(record))
    matches = read_dataset(tmp_path, "matches")
    assert matches["match_id"].min() == 5 and matches.height == 4 * (MATCHES - 5)
    with pytest.raises(FileNotFoundError):
        read_dataset(tmp_path / "nothing", "hands")


def test_read_dataset_names_a_missing_committed_chunk(reference, tmp_path):
    run(tmp_path)
    (tmp_path / "hands" / "chunk-000000.parquet").unlink()
    with pytest.raises(InputError, match=r"hands/chunk-000000.parquet is missing.*tsumolab verify"):
        read_dataset(tmp_path, "hands")


# --- column reference for the README -----------------------------------------------------------------

def test_columns_markdown_lists_every_column_once_per_table():
    text = columns_markdown()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == len(HAND_COLUMNS) + len(MATCH_COLUMNS) + 2  # + policy in each table
    for name, *_ in HAND_COLUMNS + MATCH_COLUMNS:
        assert f"| `{name}` |" in text
    for line in rows:  # labels such as "none | ron | tsumo" must not split the row
        assert line.replace("\\|", "").count("|") == 4


@pytest.mark.skipif(not README.exists(), reason="README.md not written yet")
def test_readme_documents_every_table_column():
    text = README.read_text()
    missing = [name for t in tables.TABLES for name, *_ in table_columns(t) if f"`{name}`" not in text]
    assert not missing, f"README.md lacks columns {missing}; paste analyzer.tables.columns_markdown()"
