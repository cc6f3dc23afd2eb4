"""`tsumolab verify`: check a run, experiment or claims directory against its record.

For a run: every chunk file the record lists is present with its recorded size and checksum (else it is
missing, truncated, grown, zeroed or altered; an altered file with another recorded file's bytes is a
duplicate, one written for another run is foreign); its row count, schema and Parquet metadata (spec, code
version, table, chunk index) fit the record; its match ids are those of its chunk, so that across the run every
match id appears exactly once per seat. Chunk files the record lacks, other Parquet files and temporaries left by
an interrupted write are reported too. For a study (claims or experiment directory): its study.json, the
tables' checksums and metadata, and every run under runs/ as above.
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tsumolab.analyzer.runs.dir_lock import holder
from tsumolab.analyzer.errors import DamagedError, InputError
from tsumolab.analyzer.runs.integrity import (
    entry_problem, file_digest, index_ranges, parquet_info, read_arrow, stray_files, temp_files,
)
from tsumolab.analyzer.runs.record import (
    RUN_FILE, code_versions, entry_key, has_checksums, read_run_record, record_spec,
)
from tsumolab.analyzer.runs.spec import RunSpec
from tsumolab.analyzer.claims.record import STUDY_FILE, STUDY_TABLES, read_study_record
from tsumolab.analyzer.tables import TABLES, table_columns
from tsumolab.analyzer.decisions.verify import decisions_problems, has_decisions, repair_command

META_SPEC = "tsumolab.run_spec"
META_CODE = "tsumolab.code_version"
META_CHUNK = "tsumolab.chunk"
META_TABLE = "tsumolab.table"
ARROW_TYPES = {"Int8": "int8", "Int16": "int16", "Int32": "int32", "Int64": "int64", "Boolean": "bool",
               "Utf8": "large_string"}
"""the Arrow type of each column type name of analyzer.tables, as the chunk files store them"""


@dataclass(frozen=True)
class Problem:
    path: str
    """the file (or directory) concerned, as the user would type it"""
    kind: str
    """missing, truncated, grown, zeroed, altered, duplicate, foreign, unrecorded, unreadable, rows, schema,
    metadata, coverage, temp, record, incomplete"""
    detail: str

    def line(self) -> str:
        return f"{self.path}: {self.kind}: {self.detail}"


@dataclass
class Verification:
    directory: Path
    kind: str
    """"run", "study" or "decisions\""""
    problems: list[Problem] = field(default_factory=list)
    facts: dict = field(default_factory=dict)
    repair: str = ""
    """how to repair the directory (a command line or what to repeat)"""

    @property
    def clean(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        what = describe_facts(self.kind, self.facts)
        if self.clean:
            return f"{self.directory}: clean: {what}"
        count = len(self.problems)
        return (f"{self.directory}: damaged: {count} problem{'s' if count > 1 else ''} in {what}; "
                f"repair: {self.repair}")


def verify_directory(directory: Path | str) -> Verification:
    """Check `directory`; InputError when it is no run or study directory, its record is unusable, or a live
    process is writing it."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError(f"{directory} is not a directory")
    busy = holder(directory)
    if busy:
        raise InputError(f"{directory} is being written by {busy}; verify it once that process has finished")
    if (directory / STUDY_FILE).exists() or (directory / "claims.parquet").exists() or (directory / "runs").is_dir():
        return _with_decisions(_verify_study(directory))
    if has_decisions(directory):
        return _with_decisions(Verification(directory, "decisions"))
    if (directory / RUN_FILE).exists():
        result = Verification(directory, "run")
        record = read_run_record(directory)
        result.problems, result.facts = check_run(directory, record, str(directory))
        result.repair = resume_command(record_spec(record), directory)
        return result
    if any((directory / t).is_dir() for t in TABLES):
        raise InputError(f"{directory} has hands/ or matches/ but no {RUN_FILE}: there is no record to verify "
                         "it against; start the run again with --overwrite")
    raise InputError(f"{directory} holds neither a run ({RUN_FILE}) nor a claims study, experiment or decisions "
                     f"study ({STUDY_FILE}, claims.parquet, runs/, decisions.json)")


def _with_decisions(result: Verification) -> Verification:
    """The verification with the decisions study of its directory (tsumolab decisions) checked too, if any."""
    if not has_decisions(result.directory):
        return result
    problems, facts = decisions_problems(result.directory)
    result.facts["decisions"] = facts
    if problems:
        result.repair = "; ".join(x for x in (result.repair if result.problems else "",
                                              repair_command(result.directory)) if x)
    result.problems += [Problem(*p) for p in problems]
    return result


def check_run(out: Path, record: dict, shown: str) -> tuple[list[Problem], dict]:
    """Problems of the run directory `out` (shown to the user as `shown`) and facts about it."""
    spec = record_spec(record)
    problems: list[Problem] = []
    expected = _mode_schema(spec)
    files = record.get("files", {})
    checksums = has_checksums(record)
    if not checksums:
        problems.append(Problem(f"{shown}/{RUN_FILE}", "record", "written by an older tsumolab, without checksums; "
                                "--resume simulates the chunks again and records them"))
    if record["status"] != "complete":
        problems.append(Problem(f"{shown}/{RUN_FILE}", "incomplete",
                                f"the run did not finish (status {record['status']}); --resume completes it"))
    digests = {e["blake2b"]: k for k, e in files.items()}
    trusted: dict[str, tuple[int, str]] = {}
    never: dict[int, list[str]] = {}
    for i in range(spec.n_chunks):
        for table in TABLES:
            key = entry_key(table, i)
            path, entry = out / key, files.get(key)
            if entry is not None:
                problem = entry_problem(path, entry)
                if problem is None:
                    trusted[key] = (i, table)
                else:
                    problems.append(_damage(f"{shown}/{key}", path, problem, digests, spec))
            elif path.is_file():
                if checksums:
                    problems.append(Problem(f"{shown}/{key}", "unrecorded", "not in the run record (an interrupted "
                                            "write?); --resume simulates the chunk again"))
                else:
                    trusted[key] = (i, table)
            else:
                never.setdefault(i, []).append(table)
    if never:
        problems.append(Problem(f"{shown}/{RUN_FILE}", "missing",
                                f"{len(never)} of {spec.n_chunks} chunks were never committed: {index_ranges(never)}"))
    for table in TABLES:
        for path in stray_files(out, table, spec.n_chunks):
            problems.append(_stray(f"{shown}/{path.relative_to(out)}", path, digests))
    problems += [Problem(f"{shown}/{p.relative_to(out)}", "temp", "a temporary file left by an interrupted write")
                 for p in temp_files(out)]
    counts = np.zeros(spec.matches, np.int64)
    for key, (i, table) in trusted.items():
        problems += _check_chunk_file(out / key, f"{shown}/{key}", table, i, spec, record, files.get(key),
                                      expected, counts)
    bad = np.flatnonzero(counts != 4)
    if bad.size:
        problems.append(Problem(f"{shown}/matches", "coverage",
                                f"{bad.size:,} of {spec.matches:,} match ids are not in the verified chunks exactly "
                                f"once per seat: {index_ranges(int(x) for x in bad)}"))
    facts = {"matches": spec.matches, "chunks": spec.n_chunks, "files_verified": len(trusted), "variant": spec.variant,
             "seed": spec.seed, "seats": list(spec.labels), "code_version": record["code_version"],
             "status": record["status"]}
    return problems, facts


def resume_command(spec: RunSpec, out: Path) -> str:
    """The `tsumolab run … --resume` command that continues or repairs the run of `spec` in `out`."""
    seats = spec.labels[0] if len(set(spec.labels)) == 1 else ",".join(spec.labels)
    words = ["tsumolab", "run", "--variant", spec.variant, "--seats", seats, "--matches",
             str(spec.matches), "--seed", str(spec.seed), "--chunk-size", str(spec.chunk_size)]
    defaults = spec.mode.rules_class().as_dict()
    for key, value in sorted(spec.rules.as_dict().items()):
        if defaults[key] != value:
            text = value if isinstance(value, str) else json.dumps(value)
            words += ["--rule", f"{key}={'true' if value is True else 'false' if value is False else text}"]
    words += ["--out", str(out), "--resume"]
    command = " ".join(shlex.quote(w) for w in words)
    return command + _policy_path_note(spec)


def describe_facts(kind: str, facts: dict) -> str:
    decided = facts.get("decisions")
    decisions = (f"a decisions study of {decided.get('situations', 0):,} situations ({decided.get('claims', '')})"
                 if decided is not None else "")
    if kind == "decisions":
        return decisions or "a decisions study"
    if decisions:
        return f"{describe_facts(kind, {k: v for k, v in facts.items() if k != 'decisions'})} and {decisions}"
    if kind == "run":
        return (f"a run of {facts['matches']:,} matches in {facts['chunks']:,} chunks ({facts['variant']}, seed "
                f"{facts['seed']}, code version {facts['code_version']}), {facts['files_verified']:,} files verified")
    return (f"a study of {facts['experiments']} ({facts['runs']} runs, {facts['files_verified']:,} files "
            f"verified, code version {facts['code_version']})")


# ----------------------------------------------------------------------------- studies
def _verify_study(root: Path) -> Verification:
    result = Verification(root, "study")
    record = read_study_record(root)
    problems = result.problems
    listed: dict[str, dict] = {}
    verified = 0
    if record is None:
        problems.append(Problem(f"{root}/{STUDY_FILE}", "missing", "no study record (an older tsumolab, or the "
                                "study was stopped before it began); --resume writes one"))
        ids = "an unrecorded study"
    else:
        listed = record["runs"]
        ids = "claims " + ", ".join(e["id"] for e in record["experiments"]) if record["experiments"] else "no claim"
        if record["status"] != "complete":
            problems.append(Problem(f"{root}/{STUDY_FILE}", "incomplete", "the study did not finish (status "
                                    f"{record['status']}); --resume completes it"))
        else:
            for name in STUDY_TABLES:
                found = _check_table(root, name, record)
                problems += found
                verified += not found
    runs_dir = root / "runs"
    present = sorted(p for p in runs_dir.iterdir()) if runs_dir.is_dir() else []
    for key in sorted(listed):
        if not (root / key).is_dir():
            problems.append(Problem(f"{root}/{key}", "missing", "a run of the study is missing"))
    runs = 0
    for path in present:
        key = f"runs/{path.name}"
        if not path.is_dir() or not (path / RUN_FILE).exists():
            problems.append(Problem(f"{root}/{key}", "foreign", "not a run directory (no run.json)"))
            continue
        try:
            run_record = read_run_record(path)
        except InputError as exc:
            problems.append(Problem(f"{root}/{key}/{RUN_FILE}", "record", str(exc).split(f"{RUN_FILE} ", 1)[-1]))
            continue
        if key in listed and run_record["spec"] != listed[key]:
            problems.append(Problem(f"{root}/{key}/{RUN_FILE}", "foreign", "holds another run than the study records"))
            continue
        found, facts = check_run(path, run_record, f"{root}/{key}")
        problems += found
        verified += facts["files_verified"]
        runs += 1
    result.facts = {"experiments": ids, "runs": runs, "files_verified": verified,
                    "code_version": record["code_version"] if record else "unknown"}
    result.repair = (f"repeat the `tsumolab claims` or `tsumolab experiment run` command that wrote it ({ids}) "
                     f"with --resume --out {shlex.quote(str(root))}")
    return result


def _check_table(root: Path, name: str, record: dict) -> list[Problem]:
    path = root / f"{name}.parquet"
    shown = f"{root}/{path.name}"
    entry = record["files"].get(path.name)
    if entry is None:
        return [Problem(shown, "unrecorded", f"the study record lists no {path.name}")]
    problem = entry_problem(path, entry)
    if problem:
        return [Problem(shown, *problem)]
    info = parquet_info(path)
    if isinstance(info, str):
        return [Problem(shown, "unreadable", info)]
    rows, _schema, meta = info
    found = []
    if rows != entry["rows"]:
        found.append(Problem(shown, "rows", f"{rows:,} rows, {entry['rows']:,} recorded"))
    if meta.get(META_CODE) != record["code_version"]:
        found.append(Problem(shown, "metadata", f"code version {meta.get(META_CODE)!r}, the study record says "
                             f"{record['code_version']!r}"))
    if meta.get(META_TABLE) != name:
        found.append(Problem(shown, "metadata", f"holds the {meta.get(META_TABLE)!r} table"))
    return found


# ----------------------------------------------------------------------------- one chunk file
def _check_chunk_file(path: Path, shown: str, table: str, index: int, spec: RunSpec, record: dict,
                      entry: dict | None, expected: dict, counts: np.ndarray) -> list[Problem]:
    info = parquet_info(path)
    if isinstance(info, str):
        return [Problem(shown, "unreadable", info)]
    rows, schema, meta = info
    found = []
    if entry is not None and rows != entry["rows"]:
        found.append(Problem(shown, "rows", f"{rows:,} rows, {entry['rows']:,} recorded"))
    if schema != expected[table]:
        found.append(Problem(shown, "schema", _schema_difference(schema, expected[table])))
    found += _metadata_problems(shown, meta, table, index, spec, record)
    try:
        ids = read_arrow(path, path.parent.parent, ["match_id"]).column("match_id").to_numpy().astype(np.int64)
    except (DamagedError, KeyError, ValueError, TypeError) as exc:
        return found + [Problem(shown, "unreadable", f"its match_id column cannot be read ({type(exc).__name__})")]
    chunk_ids = spec.chunk_match_ids(index)
    if table == "matches":
        if not np.array_equal(np.sort(ids), np.repeat(chunk_ids, 4)):
            found.append(Problem(shown, "coverage", f"does not hold matches {chunk_ids[0]}..{chunk_ids[-1]} "
                                 "exactly once per seat"))
        inside = ids[(ids >= 0) & (ids < spec.matches)]
        np.add.at(counts, inside, 1)
    elif not np.array_equal(np.unique(ids), chunk_ids):
        found.append(Problem(shown, "coverage", f"its hands are not those of matches {chunk_ids[0]}..{chunk_ids[-1]}"))
    return found


def _metadata_problems(shown: str, meta: dict, table: str, index: int, spec: RunSpec, record: dict) -> list[Problem]:
    found = []
    try:
        stored_spec = json.loads(meta.get(META_SPEC, "null"))
        chunk = json.loads(meta.get(META_CHUNK, "null"))
    except ValueError:
        return [Problem(shown, "metadata", "its tsumolab metadata is not JSON")]
    if stored_spec != spec.to_dict():
        found.append(Problem(shown, "foreign", f"written for another run ({_spec_difference(stored_spec, spec)})"))
    if meta.get(META_CODE) not in code_versions(record):
        found.append(Problem(shown, "metadata", f"code version {meta.get(META_CODE)!r}; the record lists "
                             f"{', '.join(sorted(code_versions(record)))}"))
    if meta.get(META_TABLE) != table:
        found.append(Problem(shown, "metadata", f"holds the {meta.get(META_TABLE)!r} table, not {table!r}"))
    said = chunk.get("index") if isinstance(chunk, dict) else None
    if said != index:
        found.append(Problem(shown, "metadata", f"says it is chunk {said}, not {index}"))
    return found


def _damage(shown: str, path: Path, problem: tuple[str, str], digests: dict, spec: RunSpec) -> Problem:
    kind, detail = problem
    if kind in ("missing", "unreadable", "zeroed"):
        return Problem(shown, kind, detail)
    copy = _copy_of(path, digests)
    if copy:
        return Problem(shown, "duplicate", f"holds the bytes of {copy}, not its own")
    info = parquet_info(path)
    if not isinstance(info, str):
        try:
            stored = json.loads(info[2].get(META_SPEC, "null"))
        except ValueError:
            stored = None
        if isinstance(stored, dict) and stored != spec.to_dict():
            return Problem(shown, "foreign", f"written for another run ({_spec_difference(stored, spec)}; {detail})")
    return Problem(shown, kind, detail)


def _stray(shown: str, path: Path, digests: dict) -> Problem:
    copy = _copy_of(path, digests)
    if copy:
        return Problem(shown, "duplicate", f"a copy of {copy}; --resume removes it")
    return Problem(shown, "foreign", "not a chunk file of this run; --resume removes it")


def _copy_of(path: Path, digests: dict) -> str | None:
    try:
        return digests.get(file_digest(path)[1])
    except OSError:
        return None


def _mode_schema(spec: RunSpec) -> dict:
    """{table: expected schema} of the spec's mode."""
    return {t: {name: ARROW_TYPES[dtype] for name, dtype, *_ in table_columns(t, spec.mode)} for t in TABLES}


def _schema_difference(schema: dict, expected: dict) -> str:
    missing = [c for c in expected if c not in schema]
    extra = [c for c in schema if c not in expected]
    typed = [f"{c} is {schema[c]}, not {expected[c]}" for c in expected if c in schema and schema[c] != expected[c]]
    parts = ([f"lacks {', '.join(missing[:5])}"] if missing else []) + (
        [f"has extra {', '.join(extra[:5])}"] if extra else []) + typed[:3]
    return "; ".join(parts) or "columns in another order"


def _spec_difference(stored: object, spec: RunSpec) -> str:
    if not isinstance(stored, dict):
        return "no run spec in its metadata"
    wanted = spec.to_dict()
    keys = [k for k in sorted(set(stored) | set(wanted)) if stored.get(k) != wanted.get(k)]
    return "; ".join(f"{k} {json.dumps(stored.get(k))[:40]} instead of {json.dumps(wanted.get(k))[:40]}"
                     for k in keys[:3])


def _policy_path_note(spec: RunSpec) -> str:
    from tsumolab.policies.registry import PolicyError, get

    try:
        for seat in spec.seats:
            get(seat.name)
    except PolicyError:
        return " (with the --policy-path files the run was started with)"
    return ""
