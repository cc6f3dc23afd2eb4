"""Run a set of experiments end to end: simulate their cells, analyse, write claims/arms/ev Parquet tables.

Outputs in the experiment directory DIR: `claims.parquet` (one row per claim and field, verdicts with a Holm
correction across every row of the invocation), `arms.parquet` (the subject's per-match metrics by arm),
`ev.parquet` (EV by policy and seat), and the raw cell runs under `DIR/runs/`. Run metadata (code version,
rule options, seeds, matches, wall seeds) is stored in each table's Parquet file metadata; `DIR/study.json`
(analyzer.claims.record) lists the cell runs and the tables' checksums. The study holds DIR's lock throughout.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import polars as pl

from tsumolab.analyzer.claims import tables as claims_tables
from tsumolab.analyzer.runs.dir_lock import locked
from tsumolab.analyzer.errors import DamagedError, InputError, WriteError, os_error_text
from tsumolab.analyzer.claims.experiment import Experiment, cells, experiment_wall_seeds
from tsumolab.analyzer.claims.experiment_run import ExecutionSummary, cell_dir, check_cells, execute_cells
from tsumolab.analyzer.runs.integrity import repair_advice
from tsumolab.analyzer.claims.measures import format_tsumo_loss
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs import runner
from tsumolab.analyzer.runs.runner import MAX_SEED
from tsumolab.analyzer.stats import ALPHA
from tsumolab.analyzer.claims.record import finish_study_record, start_study_record, verified_table
from tsumolab.analyzer.tables import read_file_metadata, replacing, write_parquet_atomic
from tsumolab.analyzer.version import code_version

DEFAULT_CHUNK_SIZE = 500
META_EXPERIMENTS = "tsumolab.experiments"
META_CODE = "tsumolab.code_version"
META_ALPHA = "tsumolab.alpha"
META_EXECUTION = "tsumolab.execution"
EXECUTION_FILE = "execution.json"
OUTPUT_TABLES = ("claims", "arms", "ev")


@dataclass(frozen=True)
class ClaimsResult:
    out_dir: Path
    experiments: list[Experiment]
    claims: pl.DataFrame
    arms: pl.DataFrame
    ev: pl.DataFrame
    execution: ExecutionSummary

    def table_path(self, name: str) -> Path:
        return self.out_dir / f"{name}.parquet"


def with_overrides(experiments: list[Experiment], matches: int | None, seed: int | None) -> list[Experiment]:
    """The experiments with --matches / --seed applied (None keeps each file's own value)."""
    if matches is not None and matches < 1:
        raise InputError(f"--matches must be at least 1, got {matches}")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise InputError(f"--seed must be in 0..{MAX_SEED}, got {seed}")
    return [replace(e, matches=matches if matches is not None else e.matches,
                    seed=seed if seed is not None else e.seed) for e in experiments]


def cell_specs(experiments: list[Experiment], chunk_size: int = DEFAULT_CHUNK_SIZE) -> dict:
    """(claim id, Cell) → RunSpec of that cell: its seats over the wall seeds 0..W-1."""
    if chunk_size < 1:
        raise InputError(f"--chunk-size must be at least 1, got {chunk_size}")
    specs = {}
    for exp in experiments:
        n = experiment_wall_seeds(exp)
        for cell in cells(exp):
            specs[(exp.id, cell)] = build_spec(exp.mode, cell.seats, n, exp.seed, chunk_size, exp.rules)
    return specs


def compile_study(experiments: list[Experiment], jobs: int = 1, extra: tuple = (), progress: bool = False) -> None:
    """Compile (or load from the kernel cache) the engines and policy hooks a study of `experiments` plays, and
    run the module-level functions `extra`, side by side on the `jobs` worker processes that then run the study
    (runner.compile_kernels); in this process with one job."""
    runner.compile_kernels(list(cell_specs(experiments).values()), runner._resolve_jobs(jobs), extra=extra,
                           progress=progress)


def run_experiments(experiments: list[Experiment], out_dir: Path | str, *, jobs: int = 1,
                    chunk_size: int = DEFAULT_CHUNK_SIZE, resume: bool = False, overwrite: bool = False,
                    progress: bool = True, backend: str = "loky", scheduler: str | None = None,
                    client=None) -> ClaimsResult:
    """Simulate and analyse `experiments` (already carrying their matches and seeds) into `out_dir`."""
    if not experiments:
        raise InputError("no experiments to run")
    ids = [e.id for e in experiments]
    if len(set(ids)) != len(ids):
        raise InputError(f"experiment ids must be unique, got {ids}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    specs = cell_specs(experiments, chunk_size)
    check_cells(list(specs.values()), out, jobs=jobs, resume=resume, overwrite=overwrite, backend=backend,
                scheduler=scheduler, client=client)
    with locked(out):
        return _run_locked(experiments, out, specs, jobs=jobs, resume=resume, overwrite=overwrite,
                           progress=progress, backend=backend, scheduler=scheduler, client=client)


def _run_locked(experiments: list[Experiment], out: Path, specs: dict, **options) -> ClaimsResult:
    dirs = {key: cell_dir(out, spec) for key, spec in specs.items()}
    runs = {str(d.relative_to(out)): specs[key] for key, d in dirs.items()}
    try:
        record = start_study_record(out, experiments, runs, code_version())
    except OSError as exc:
        raise WriteError(f"cannot write {out}: {os_error_text(exc)}") from None
    execution = execute_cells(list(specs.values()), out, **options)
    data = claims_tables.read_cells(experiments, specs, dirs)
    claims = claims_tables.claims_table(experiments, specs, dirs, data)
    arms = claims_tables.arms_table(experiments, specs, dirs, data)
    ev = claims_tables.ev_table(experiments, specs, dirs, data)
    metadata = run_metadata(experiments)
    tables = {"claims": claims, "arms": arms, "ev": ev}
    try:
        for name, df in tables.items():
            write_parquet_atomic(df, out / f"{name}.parquet", {**metadata, "tsumolab.table": name})
        # timings vary run to run, so they live beside the tables rather than in them
        with replacing(out / EXECUTION_FILE) as tmp:
            tmp.write_text(json.dumps(asdict(execution), indent=1))
        finish_study_record(out, record, {name: df.height for name, df in tables.items()})
    except OSError as exc:
        raise WriteError(f"cannot write the tables in {out}: {os_error_text(exc)}; the simulated runs are kept, "
                         "so once the problem is fixed the same command with --resume only writes the tables") from None
    return ClaimsResult(out, experiments, claims, arms, ev, execution)


def run_metadata(experiments: list[Experiment]) -> dict:
    """What the tables' Parquet metadata records: code version, alpha, and per experiment its design."""
    described = [{
        "id": e.id, "mode": e.mode, "treatment": e.treatment, "control": e.control, "direction": e.direction,
        "fields": [{"label": f.label, "opponents": list(f.opponents)} for f in e.fields], "headline": e.headline,
        "rules": e.rules, "seed": e.seed, "matches": e.matches, "wall_seeds": experiment_wall_seeds(e),
        "file": Path(e.path).name, **({"kind": e.kind, "measure": e.measure} if e.kind != "compare" else {}),
        "beyond_sources": e.beyond_sources, "objective": e.objective,
        "variants": [{"label": v.label, "treatment": v.treatment,
                      "fields": [{"label": f.label, "opponents": list(f.opponents)} for f in v.fields]}
                     for v in e.variants],
    } for e in experiments]
    return {META_CODE: code_version(), META_ALPHA: ALPHA, META_EXPERIMENTS: described}


def read_run_metadata(out_dir: Path | str, record: dict | None = None) -> dict:
    """The metadata stored in DIR/claims.parquet (experiments decoded from JSON), plus the timings of the
    last execution under META_EXECUTION when DIR/execution.json exists. DamagedError when claims.parquet
    differs from the study record or its metadata cannot be read. `record`: the study record, when the caller
    has read it already (verified_table)."""
    path = verified_table(out_dir, "claims", record)
    try:
        raw = read_file_metadata(path)
        meta = {**raw, META_EXPERIMENTS: json.loads(raw[META_EXPERIMENTS])}
        if not isinstance(meta[META_EXPERIMENTS], list):
            raise ValueError(f"{META_EXPERIMENTS} is not a list")
    except FileNotFoundError:
        raise
    except Exception as exc:  # pyarrow raises several types for a damaged file
        raise DamagedError(f"{path} holds no readable study metadata ({type(exc).__name__}); "
                           f"{repair_advice(out_dir)}") from None
    execution = Path(out_dir) / EXECUTION_FILE
    if execution.is_file():
        try:
            meta[META_EXECUTION] = json.loads(execution.read_bytes())
        except (OSError, ValueError, RecursionError):
            pass  # timings only: the report shows none
    return meta


def format_verdicts(claims: pl.DataFrame) -> str:
    """Fixed-width verdict table; `*` marks each claim's headline row. Verdicts on both objectives (points,
    placement = average rank); per claim a line with its claim-level verdict on its headline objective over the
    variants tested and its robustness across fields."""
    lines = [f"{'claim':<5} {'variant · field':<34} {'points':<12} {'effect':>8} {'Holm 95% interval':>21} "
             f"{'placement':<12} {'rank':>6} {'gift':>6} {'matches':>8} {'VR':>5}"]
    beyond_heading = False
    for claim_id in claims["claim"].unique(maintain_order=True).to_list():
        rows = claims.filter(pl.col("claim") == claim_id)
        first = rows.row(0, named=True)
        if first.get("beyond_sources") and not beyond_heading:
            beyond_heading = True
            lines.append("beyond the sources: tsumolab's own questions, not claims from the sources "
                         "(their own Holm family)")
        for r in rows.iter_rows(named=True):
            lines.append(_verdict_line(r))
        if first.get("kind") != "measure":
            lines.append(f"      → {claim_line(first)}")
    lines.append("effect = treatment − control final points per match (paired over the same walls and seats); "
                 "rank, gift = paired differences; VR = unpaired/paired variance; * = headline row")
    if "kind" in claims.columns and (claims["kind"] == "measure").any():
        lines.append("measure rows: effect = mean tsumo − mean ron win value received with ≥1 earlier winner "
                     "(points per win, all seats of every match; matches = distinct matches)")
        for r in claims.filter(pl.col("kind") == "measure").iter_rows(named=True):
            lines.append(format_tsumo_loss(r))
    return "\n".join(lines)


def _verdict_line(r: dict) -> str:
    mark = "*" if r["headline"] else " "
    where = " · ".join(x for x in (r.get("variant") or "", r["field"]) if x)
    where = where if len(where) <= 33 else where[:32] + "…"
    measured = r.get("kind") == "measure"
    points = r["points_verdict"]
    placement = "-" if measured else r["placement_verdict"]
    rank = "-" if measured else f"{r['rank_diff']:>+6.3f}"
    gift = "-" if measured else f"{r['giftbox_diff']:>+6.1f}"
    return (f"{r['claim']:<5} {mark}{where:<33} {points:<12} {r['effect']:>+8.0f} "
            f"[{r['ci_low']:>+8.0f}, {r['ci_high']:>+8.0f}] {placement:<12} {rank:>6} {gift:>6} "
            f"{r['matches']:>8,} {_vr(r['variance_reduction']):>5}")


def claim_line(row: dict) -> str:
    """"claim: supported on points (best variant max_fan=2); robustness across fields: depends" (English)."""
    text = f"claim {row['claim_verdict']} on {row['objective']}"
    if row.get("best_variant"):
        text += f" (best variant {row['best_variant']})"
    return f"{text}; across fields: {row['robustness']}"


def format_summary(result: ClaimsResult) -> str:
    ex = result.execution
    matches = sum(r["matches"] for r in result.claims.iter_rows(named=True))
    lines = [format_verdicts(result.claims), ""]
    if ex.simulated_matches:
        lines.append(f"simulated {ex.simulated_matches:,} matches in {ex.seconds:.1f} s "
                     f"({ex.matches_per_s:,.0f} matches/s, {ex.backend}, jobs={ex.jobs}, warm-up "
                     f"{ex.warm_up_seconds:.1f} s); the claims count {matches:,} matches "
                     "(cells shared between claims are simulated once)")
    if ex.resumed_chunks:
        lines.append(f"resumed: {ex.resumed_chunks} of {ex.chunks} chunks were already complete")
    lines.append("tables: " + ", ".join(str(result.table_path(n)) for n in OUTPUT_TABLES))
    return "\n".join(lines)


def _vr(v: float) -> str:
    return "-" if math.isnan(v) else ("inf" if math.isinf(v) else f"{v:.1f}")
