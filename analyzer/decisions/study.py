"""`tsumolab decisions`: the decision-level study of every decision claim, written to DIR/decisions.parquet.

Two steps (analyzer.decisions.situations does the work):
1. scan: per mode and field, matches 0, 1, 2, … (root seed) are played in blocks of SCAN_BLOCK; each claim keeps
   the first `situations` situations in (match, hand) order, scanning stops when every claim of the mode has them
   or after max(SCAN_MIN_MATCHES, `situations` × SCAN_MATCHES_PER_SITUATION) matches (a rare situation may
   so have fewer). The list goes to DIR/situations.parquet.
2. evaluate: the situations, in (claim, field, order found), are cut into chunks of `chunk_size`; each chunk is
   evaluated (paired rollouts) and written to DIR/chunks/chunk-NNNNN.parquet atomically, with the study's
   spec in its metadata. --resume keeps every chunk whose file matches the spec and evaluates the rest.
Finally the chunks are joined into DIR/decisions.parquet (atomic). Every number depends only on the spec
(claims, fields, seed, situations, rollouts, rules, resample) and the claims' experiment files (their policies
and rules): not on --jobs, --chunk-size, the backend or resuming. Claims of one mode under the same rules are
scanned together (`scan_groups`: the fantasy card claims each fix their own card).
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl
from tqdm import tqdm

from tsumolab.analyzer.decisions.claims import ALL_FEATURES, CLAIMS
from tsumolab.analyzer.decisions.situations import RESAMPLE, Situation, claim_arms, evaluate, scan_matches
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.tables import read_file_metadata, remove_temp_files, write_parquet_atomic
from tsumolab.analyzer.version import code_version
from tsumolab.sims.modes import MODES

TABLE = "decisions.parquet"
SITUATIONS = "situations.parquet"
RECORD = "decisions.json"
CHUNKS = "chunks"
FORMAT = "tsumolab-decisions/1"
DEFAULT_FIELDS = ("baseline", "majsoul-cpu", "expert")
DEFAULT_SEED = 1
DEFAULT_CHUNK_SIZE = 8
SCAN_BLOCK = 4                    # matches per scan task
SCAN_MATCHES_PER_SITUATION = 2    # scanning gives up after max(SCAN_MIN_MATCHES, situations × this) matches
SCAN_MIN_MATCHES = 24
DEFAULT_SITUATIONS = 200          # per claim and field: the default run of every claim fits 30 min on 2 cores
DEFAULT_ROLLOUTS = 200            # per option and situation


@dataclass(frozen=True)
class DecisionsSpec:
    claims: tuple[str, ...]
    fields: tuple[str, ...]
    seed: int
    situations: dict
    """claim → situations per field"""
    rollouts: dict
    """claim → rollouts per option"""
    rules: dict
    resample: str = "unseen"
    """analyzer.decisions.situations.RESAMPLE"""

    def to_dict(self) -> dict:
        return {"format": FORMAT, "claims": list(self.claims), "fields": list(self.fields), "seed": self.seed,
                "situations": self.situations, "rollouts": self.rollouts, "rules": self.rules,
                "resample": self.resample}

    def key(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)


@dataclass(frozen=True)
class DecisionsResult:
    out_dir: Path
    table: pl.DataFrame
    scanned_matches: dict
    seconds: float
    evaluated_chunks: int
    resumed_chunks: int


def default_claims(extra: bool = False) -> list[str]:
    """The claims a study runs without --only: those from the sources, and with `extra` also the questions
    beyond the sources (their experiment files are in analyzer/experiments/extra/)."""
    from tsumolab.analyzer.decisions.situations import claim_arms

    return [a.claim.id for a in claim_arms(list(CLAIMS)) if extra or not a.beyond_sources]


def _claim_ids(only: str | None, extra: bool) -> list[str]:
    """The claims of --only (any case: fl-hourglass is FL-hourglass), in the order given, or the default ones."""
    if not only:
        return default_claims(extra)
    known = {c.upper(): c for c in CLAIMS}
    wanted = [c.strip() for c in only.split(",") if c.strip()]
    unknown = [c for c in wanted if c.upper() not in known]
    if unknown or not wanted:
        raise InputError(f"--only: {', '.join(unknown) or only!r} is no decision claim (decision claims: "
                         f"{', '.join(CLAIMS)})")
    return list(dict.fromkeys(known[c.upper()] for c in wanted))


def make_spec(only: str | None = None, fields=None, seed: int | None = None, situations: int | None = None,
              rollouts: int | None = None, rules=None, resample: str = "unseen", extra: bool = False
              ) -> DecisionsSpec:
    """The study's spec from the command's options; InputError for anything it cannot run."""
    from tsumolab.policies.registry import PolicyError, check_mode, parse_seats

    ids = _claim_ids(only, extra)
    if situations is not None and situations < 2:
        raise InputError(f"--situations must be at least 2, got {situations}")
    if rollouts is not None and rollouts < 2:
        raise InputError(f"--rollouts must be at least 2, got {rollouts}")
    if resample not in RESAMPLE:
        raise InputError(f"--resample must be one of {', '.join(RESAMPLE)}, got {resample!r}")
    fields = tuple(fields) if fields else DEFAULT_FIELDS
    for field in fields:
        for mode in sorted({CLAIMS[c].mode for c in ids}):
            try:
                check_mode(parse_seats(field), mode)
            except (PolicyError, ValueError, KeyError) as exc:
                raise InputError(f"--field {field}: {exc}") from None
    if rules:
        modes = {CLAIMS[c].mode for c in ids}
        if len(modes) > 1:
            raise InputError("--rule options belong to one mode: add --only with claims of that mode")
        rules = _rule_values(modes.pop(), rules)
    return DecisionsSpec(tuple(ids), fields, DEFAULT_SEED if seed is None else int(seed),
                         {c: situations or DEFAULT_SITUATIONS for c in ids},
                         {c: rollouts or DEFAULT_ROLLOUTS for c in ids}, rules or {}, resample)


def _rule_values(mode: str, rules) -> dict:
    from tsumolab.analyzer.runs.options import parse_rule_options
    from tsumolab.sims.modes import get_mode

    rules_cls = get_mode(mode).rules_class
    values = parse_rule_options(rules_cls, rules)
    try:
        rules_cls.from_dict(values)
    except (ValueError, KeyError, TypeError) as exc:
        raise InputError(f"--rule: {exc}") from None
    return values


def run_decisions(spec: DecisionsSpec, out_dir: Path | str, *, jobs: int = 1, chunk_size: int = DEFAULT_CHUNK_SIZE,
                  resume: bool = False, overwrite: bool = False, backend: str = "loky",
                  scheduler: str | None = None, client=None, progress: bool = True) -> DecisionsResult:
    """Scan, evaluate and write the study of `spec` into `out_dir` (see the module doc)."""
    from tsumolab.analyzer.runs.dir_lock import locked
    from tsumolab.analyzer.claims.experiment_run import check_execution

    if chunk_size < 1:
        raise InputError(f"--chunk-size must be at least 1, got {chunk_size}")
    n_jobs = check_execution(jobs=jobs, resume=resume, overwrite=overwrite, backend=backend, scheduler=scheduler,
                             client=client)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    with locked(out):
        return _run_locked(spec, out, n_jobs, chunk_size, resume, overwrite, backend, scheduler, client, progress)


def _run_locked(spec, out, n_jobs, chunk_size, resume, overwrite, backend, scheduler, client, progress):
    start = time.perf_counter()
    record_path = out / RECORD
    previous = _read_record(record_path)
    if previous is not None and not resume and not overwrite:
        raise InputError(f"{out} already holds a decisions study; add --resume to continue it or --overwrite "
                         "to replace it")
    if previous and resume and previous.get("spec") != spec.to_dict():  # an unreadable record: the chunks decide
        raise InputError(f"{out} holds a decisions study with other options; repeat its options to resume it "
                         "or use --overwrite")
    if overwrite:
        for path in [out / TABLE, out / SITUATIONS, record_path, *sorted((out / CHUNKS).glob("*.parquet"))]:
            path.unlink(missing_ok=True)
    (out / CHUNKS).mkdir(parents=True, exist_ok=True)
    remove_temp_files(out)
    remove_temp_files(out / CHUNKS)
    record = {"spec": spec.to_dict(), "code_version": code_version(), "status": "running"}
    _write_record(record_path, record)
    arms = {a.claim.id: a for a in claim_arms(spec.claims, spec.rules)}
    cpu_seconds = {"scan": 0.0, "evaluate": 0.0, "this process": time.process_time()}
    situations, scanned = _situations(spec, arms, out, n_jobs, backend, scheduler, client, progress, cpu_seconds)
    record["scanned_matches"] = scanned
    tasks = _chunk_tasks(spec, arms, situations, out, chunk_size)
    wanted = {Path(t["path"]).name for t in tasks}
    for stale in (out / CHUNKS).glob("*.parquet"):  # chunks of an earlier --chunk-size
        if stale.name not in wanted:
            stale.unlink()
    todo = [t for t in tasks if not _chunk_done(t)]
    _warm_up(spec, arms, todo)
    try:
        with tqdm(total=len(situations), initial=sum(len(t["situations"]) for t in tasks if t not in todo),
                  unit=" situations", desc="evaluating", file=sys.stderr, delay=1.0, dynamic_ncols=True,
                  disable=not progress or not sys.stderr.isatty()) as bar:
            for n, cpu in _map(evaluate_chunk, todo, n_jobs, backend, scheduler, client):
                bar.update(n)
                cpu_seconds["evaluate"] += cpu
    except KeyboardInterrupt:
        from tsumolab.analyzer.runs.runner import RunInterrupted

        remove_temp_files(out / CHUNKS)
        record["status"] = "interrupted"
        _write_record(record_path, record)
        raise RunInterrupted(out, sum(_chunk_done(t) for t in tasks), len(tasks)) from None
    frames = [pl.read_parquet(t["path"]) for t in tasks]
    table = pl.concat(frames, how="diagonal_relaxed") if frames else empty_table()
    table = _with_all_features(table)
    write_parquet_atomic(table, out / TABLE, {"tsumolab_decisions_spec": spec.key(),
                                              "tsumolab_code_version": code_version()})
    seconds = time.perf_counter() - start
    cpu_seconds["this process"] = time.process_time() - cpu_seconds["this process"]
    record.update(cpu_seconds={k: round(v, 1) for k, v in cpu_seconds.items()})
    record.update(status="complete", situations=table.height, chunks=len(tasks), resumed_chunks=len(tasks) - len(todo),
                  seconds=round(seconds, 1), jobs=n_jobs, backend=backend)
    _write_record(record_path, record)
    return DecisionsResult(out, table, scanned, seconds, len(todo), len(tasks) - len(todo))


def _read_record(path: Path) -> dict | None:
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write_record(path: Path, record: dict) -> None:
    from tsumolab.analyzer.tables import replacing

    with replacing(path) as temp:
        temp.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


# ----------------------------------------------------------------------------- scanning
def _situations(spec, arms, out, n_jobs, backend, scheduler, client, progress, cpu_seconds):
    """Every claim's situations per field (read back from DIR/situations.parquet when it matches the spec)."""
    path = out / SITUATIONS
    if path.exists() and read_file_metadata(path).get("tsumolab_decisions_spec") == spec.key():
        frame = pl.read_parquet(path)
        scanned = json.loads(read_file_metadata(path)["tsumolab_scanned_matches"])
        return [_situation_of(r) for r in frame.iter_rows(named=True)], scanned
    found, scanned = [], {}
    groups = scan_groups(spec, arms)
    with tqdm(total=len(groups) * len(spec.fields), unit=" fields", desc="finding situations", file=sys.stderr,
              delay=1.0, disable=not progress or not sys.stderr.isatty()) as bar:
        for (mode, name), group in groups.items():
            for field in spec.fields:
                got, matches = _scan_field(spec, mode, field, group, n_jobs, backend, scheduler, client,
                                           cpu_seconds)
                scanned[f"{name}/{field}"] = matches
                found += got
                bar.update(1)
    order = {c: i for i, c in enumerate(spec.claims)}
    fields = {f: i for i, f in enumerate(spec.fields)}
    found.sort(key=lambda s: (order[s.claim], fields[s.field], s.match, s.hand))
    write_parquet_atomic(_situations_frame(found), path, {"tsumolab_decisions_spec": spec.key(),
                                                          "tsumolab_scanned_matches": json.dumps(scanned)})
    return found, scanned


def scan_groups(spec: DecisionsSpec, arms: dict) -> dict:
    """The claims scanned together: those of one mode under the same rules, in the modes table's order, keyed
    by (mode, name) where the name is the mode, followed by the options that differ from the mode's defaults
    when a claim's file sets some ("fantasy[cards=hourglass]")."""
    from tsumolab.sims.modes import get_mode

    groups: dict = {}
    for mode in [m for m in MODES if m in {CLAIMS[c].mode for c in spec.claims}]:
        defaults = get_mode(mode).rules_class.from_dict(spec.rules).as_dict()
        for cid in [c for c in spec.claims if CLAIMS[c].mode == mode]:
            own = {k: v for k, v in arms[cid].rules.items() if defaults.get(k) != v}
            name = mode + ("[" + ",".join(f"{k}={v}" for k, v in sorted(own.items())) + "]" if own else "")
            groups.setdefault((mode, name), []).append(arms[cid])
    return groups


def _scan_field(spec, mode, field, arms, n_jobs, backend, scheduler, client, cpu_seconds):
    """The first `situations` situations of each claim in `arms` on `field`, and the matches scanned."""
    need = {a.claim.id: spec.situations[a.claim.id] for a in arms}
    cap = max(SCAN_MIN_MATCHES, max(need.values()) * SCAN_MATCHES_PER_SITUATION)
    per_claim = {c: [] for c in need}
    first = 0
    while first < cap and any(len(per_claim[c]) < need[c] for c in need):
        wave = [range(m, min(m + SCAN_BLOCK, cap)) for m in range(first, min(first + SCAN_BLOCK * n_jobs, cap),
                                                                    SCAN_BLOCK)]
        tasks = [(mode, field, arms, spec.seed, block, arms[0].rules) for block in wave]
        results = list(_map(_scan_task, tasks, n_jobs, backend, scheduler, client, ordered=True))
        cpu_seconds["scan"] += sum(cpu for _got, cpu in results)
        for block, (got, _cpu) in zip(wave, results):
            if all(len(per_claim[c]) >= need[c] for c in need):
                break
            for s in got:
                if len(per_claim[s.claim]) < need[s.claim]:
                    per_claim[s.claim].append(s)
            first = block.stop
    return [s for c in need for s in per_claim[c]], first


def _scan_task(task):
    """(situations, CPU seconds) of one block of matches."""
    start = time.process_time()
    mode, field, arms, seed, block, rules = task
    return scan_matches(mode, field, arms, seed, block, rules), time.process_time() - start


def _situations_frame(found: list[Situation]) -> pl.DataFrame:
    return pl.DataFrame(
        [{"claim": s.claim, "field": s.field, "match": s.match, "hand": s.hand, "decision": s.decision,
          "seat": s.seat, "kind": s.kind, "treatment": s.treatment, "control": s.control,
          "treatment_label": s.treatment_label, "control_label": s.control_label,
          "features": json.dumps(dict(s.features))} for s in found],
        schema={"claim": pl.Utf8, "field": pl.Utf8, "match": pl.Int64, "hand": pl.Int64, "decision": pl.Int64,
                "seat": pl.Int64, "kind": pl.Int64, "treatment": pl.Int64, "control": pl.Int64,
                "treatment_label": pl.Utf8, "control_label": pl.Utf8, "features": pl.Utf8})


def _situation_of(row: dict) -> Situation:
    return Situation(row["claim"], row["field"], row["match"], row["hand"], row["decision"], row["seat"],
                     row["kind"], row["treatment"], row["control"], row["treatment_label"], row["control_label"],
                     tuple(json.loads(row["features"]).items()))


# ----------------------------------------------------------------------------- evaluating
def _chunk_tasks(spec, arms, situations, out, chunk_size) -> list[dict]:
    tasks = []
    for i in range(0, len(situations), chunk_size):
        part = situations[i:i + chunk_size]
        index = i // chunk_size
        tasks.append({"index": index, "path": str(out / CHUNKS / f"chunk-{index:05d}.parquet"),
                      "situations": part, "arms": arms, "spec": spec,
                      "keys": [_situation_key(s) for s in part]})
    return tasks


def _situation_key(s: Situation) -> str:
    return f"{s.claim}/{s.field}/{s.match}/{s.hand}/{s.decision}"


def _chunk_done(task: dict) -> bool:
    """Whether the chunk's file is there, complete and of this spec (else it is evaluated again)."""
    path = Path(task["path"])
    if not path.exists():
        return False
    try:
        meta = read_file_metadata(path)
        return (meta.get("tsumolab_decisions_spec") == task["spec"].key()
                and json.loads(meta.get("tsumolab_situations", "[]")) == task["keys"]
                and pl.read_parquet(path).height == len(task["keys"]))
    except (OSError, ValueError):
        return False


def evaluate_chunk(task: dict) -> tuple[int, float]:
    """Evaluate one chunk's situations and write its file; returns (situations, CPU seconds)."""
    start = time.process_time()
    spec: DecisionsSpec = task["spec"]
    rows = [evaluate(CLAIMS[s.claim].mode, task["arms"][s.claim], s, spec.seed, spec.rollouts[s.claim],
                     resample=spec.resample) for s in task["situations"]]
    frame = _with_all_features(pl.DataFrame(rows))
    write_parquet_atomic(frame, task["path"], {"tsumolab_decisions_spec": spec.key(),
                                               "tsumolab_situations": json.dumps(task["keys"]),
                                               "tsumolab_code_version": code_version(),
                                               "tsumolab_writer_pid": str(os.getpid())})
    return len(rows), time.process_time() - start


def _with_all_features(frame: pl.DataFrame) -> pl.DataFrame:
    """Every feature column (null where the claim has no such feature), in a fixed column order."""
    missing = [pl.lit(None, pl.Float64).alias(f"f_{f}") for f in ALL_FEATURES if f"f_{f}" not in frame.columns]
    frame = frame.with_columns(missing) if missing else frame
    return frame.select(COLUMNS)


COLUMNS = (["claim", "mode", "field", "seed", "match", "hand", "decision", "seat", "kind", "treatment_answer",
            "control_answer"] + [f"f_{f}" for f in ALL_FEATURES]
           + [f"{arm}_{what}{ci}" for what in ("points", "rank", "gift") for arm in ("treatment", "control", "diff")
              for ci in ("", "_ci")] + ["rollouts"])


def empty_table() -> pl.DataFrame:
    return pl.DataFrame(schema={c: (pl.Utf8 if c in ("claim", "mode", "field", "treatment_answer", "control_answer")
                                    else pl.Float64) for c in COLUMNS})


def _warm_up(spec, arms, tasks) -> None:
    """Compile (or load) the rollout kernels of each mode once, here, before workers fan out: one rollout of the
    first situation of each mode still to evaluate."""
    first = {}
    for task in tasks:
        for s in task["situations"]:
            first.setdefault(CLAIMS[s.claim].mode, s)
    for mode, s in first.items():
        evaluate(mode, arms[s.claim], s, spec.seed, 2, resample=spec.resample)


def _map(work, tasks, n_jobs, backend, scheduler, client, ordered=False):
    """Results of `work` over `tasks`: in this process, in local worker processes or on a Dask cluster."""
    from tsumolab.analyzer.claims.experiment_run import parallel_results

    yield from parallel_results(work, tasks, n_jobs, backend, scheduler, client, ordered)
