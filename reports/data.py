"""What a report shows, read from a directory: a claims study / experiment (claims.parquet, arms.parquet,
ev.parquet and runs/<hash>/) or a plain `tsumolab run` directory (hands/, matches/, run.json).

For a study, every claim's cells (field × arm × subject seat) are matched to their run directories by spec, and
the subject seat's matches and hands are gathered into one frame per claim, keyed by field, arm and seat.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import polars as pl
import pyarrow as pa

from tsumolab.analyzer.errors import InputError

STUDY_TABLES = ("claims", "arms", "ev")
HAND_KEYS = ["field", "arm", "policy", "subject_seat", "match_id"]


@dataclass
class Cell:
    field: str
    arm: str
    policy: str
    subject_seat: int
    seats: tuple[str, ...]
    run_dir: Path
    checksummed: bool = False
    """its run record holds the size and checksum of each of its files (checked before they are read)"""


@dataclass
class ClaimData:
    id: str
    experiment: dict
    """the experiment as stored in the Parquet metadata (treatment, control, fields, rules, seed, …)"""
    all_rows: pl.DataFrame
    """claims.parquet rows of this claim, one per (variant, field)"""
    all_arms: pl.DataFrame
    ev: pl.DataFrame
    cells: list[Cell]
    matches: pl.DataFrame
    """the subject seat's matches: field, arm, policy, subject_seat, match_id, points, rank"""
    hands: pl.DataFrame
    """the subject seat's hands, with the same keys"""

    @cached_property
    def rows(self) -> pl.DataFrame:
        """the rows of the headline variant (the experiment file's own treatment), one per field"""
        return _headline_variant(self.all_rows)

    @cached_property
    def arms(self) -> pl.DataFrame:
        return _headline_variant(self.all_arms, self.all_rows)

    @property
    def swept(self) -> bool:
        """the experiment tests several variants of its treatment (a `[sweep]`)"""
        return len(self.experiment.get("variants", ())) > 1

    @property
    def text(self) -> str:
        return str(self.rows["claim_text"][0])

    @property
    def source(self) -> str:
        return str(self.rows["source"][0])

    @property
    def beyond_sources(self) -> bool:
        """tsumolab's own question (experiments/extra/), not a claim from the sources."""
        return bool(self.experiment.get("beyond_sources", False))

    @cached_property
    def headline(self) -> dict:
        rows = self.rows.filter(pl.col("headline"))
        return (rows if rows.height else self.rows).row(0, named=True)

    @property
    def measure(self) -> bool:
        """a measured fact (experiment kind "measure", e.g. S1): no treatment/control comparison"""
        return self.experiment.get("kind") == "measure"

    @cached_property
    def plot_numbers(self):
        """the numbers its figures draw (reports.plot_data), taken from its frames once for every language"""
        from tsumolab.reports.plot_data import claim_numbers

        return claim_numbers(self, self.measure)

    def without_frames(self) -> ClaimData:
        """A copy without its matches and hands (empty frames), its figures' numbers taken first."""
        _ = self.plot_numbers, self.variant_rows
        slim = copy.copy(self)
        slim.matches, slim.hands = self.matches.clear(), self.hands.clear()
        return slim

    @cached_property
    def variant_rows(self) -> dict[tuple[str, str], dict]:
        """(variant, field) → its (first) claims.parquet row (the sweep's table and figure)"""
        out: dict[tuple[str, str], dict] = {}
        for row in self.all_rows.iter_rows(named=True):
            out.setdefault((row["variant"], row["field"]), row)
        return out


def _headline_variant(frame: pl.DataFrame, claims: pl.DataFrame | None = None) -> pl.DataFrame:
    """The rows of `frame` of the headline variant (tables written before sweeps existed have one variant)."""
    claims = frame if claims is None else claims
    if "headline_variant" not in claims.columns:
        return frame
    labels = claims.filter(pl.col("headline_variant"))["variant"].unique().to_list()
    return frame.filter(pl.col("variant").is_in(labels))


@dataclass
class ReportData:
    kind: str
    """"study" (claims study or experiment) or "run" (a plain tsumolab run)"""
    directory: Path
    mode: str
    start_points: int
    code_version: str
    claims: list[ClaimData] = field(default_factory=list)
    claims_table: pl.DataFrame | None = None
    metadata: dict = field(default_factory=dict)
    run_records: list[dict] = field(default_factory=list)
    """run.json of every simulated run (one for a plain run, one per cell run of a study)"""
    matches: pl.DataFrame | None = None
    """plain run: every seat's matches with `points` (final − start)"""
    hands: pl.DataFrame | None = None
    """plain run: every seat's hands"""

    @property
    def source_claims(self) -> list[ClaimData]:
        """the claims from the sources (CLAIMS.md), in table order"""
        return [c for c in self.claims if not c.beyond_sources]

    @property
    def beyond_claims(self) -> list[ClaimData]:
        """tsumolab's own questions beyond the sources (`claims --extra`), in table order"""
        return [c for c in self.claims if c.beyond_sources]

    @cached_property
    def plot_numbers(self):
        """plain run: the numbers its figures draw (reports.plot_data), one series per policy"""
        from tsumolab.reports.plot_data import run_numbers

        return run_numbers(self.matches, self.hands)

    def without_frames(self) -> ReportData:
        """A copy without the per-match and per-hand frames (empty frames), every figure's numbers taken from them
        first: what the processes rendering the report's files are sent (the example hands, found from the frames,
        are sent apart)."""
        if self.kind == "run":
            _ = self.plot_numbers
        slim = copy.copy(self)
        slim.claims = [claim.without_frames() for claim in self.claims]
        if self.kind == "run":
            slim.matches, slim.hands = self.matches.clear(), self.hands.clear()
        return slim


def load_report_data(directory: Path | str) -> ReportData:
    """Read a study or run directory; InputError when it is neither."""
    directory = Path(directory)
    if not directory.is_dir():
        raise InputError(f"{directory} is not a directory")
    try:
        if (directory / "claims.parquet").is_file():
            return _load_study(directory)
        if (directory / "run.json").is_file() and (directory / "matches").is_dir():
            return _load_run(directory)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OSError, pl.exceptions.PolarsError,
            pa.ArrowException) as exc:
        # files checked against their record never get here; older directories without checksums may
        raise InputError(f"cannot read {directory} ({type(exc).__name__}: {str(exc)[:160]}); run `tsumolab "
                         f"verify {directory}` to see what is damaged") from None
    raise InputError(f"{directory} holds neither a claims study (claims.parquet) nor a run (run.json, matches/)")


def _load_study(directory: Path) -> ReportData:
    from tsumolab.analyzer.claims.study import META_EXPERIMENTS, read_run_metadata
    from tsumolab.analyzer.runs.integrity import read_chunks
    from tsumolab.analyzer.claims.record import read_study_record, verified_table

    missing = [t for t in STUDY_TABLES if not (directory / f"{t}.parquet").is_file()]
    if missing:
        raise InputError(f"{directory} lacks {', '.join(t + '.parquet' for t in missing)}")
    record = read_study_record(directory)  # read and checked once for the metadata and the three tables
    metadata = read_run_metadata(directory, record)
    tables = {t: read_chunks([verified_table(directory, t, record)], directory) for t in STUDY_TABLES}
    experiments = {e["id"]: e for e in metadata[META_EXPERIMENTS]}
    runs = _run_index(directory / "runs")
    modes = list(dict.fromkeys(e["mode"] for e in experiments.values()))
    mode = ", ".join(modes) if modes else "bloodshed"
    first = next(iter(experiments.values()), {"mode": "bloodshed"})
    start = _start_points(first["mode"], first.get("rules"))
    claims = []
    for claim_id in tables["claims"]["claim"].unique(maintain_order=True).to_list():
        exp = experiments.get(claim_id)
        if exp is None:
            raise InputError(f"claims.parquet names claim {claim_id} but its metadata does not describe it")
        cells = _claim_cells(exp, runs)
        matches, hands = _subject_frames(cells, _start_points(exp["mode"], exp.get("rules")))
        claims.append(ClaimData(
            id=claim_id, experiment=exp, all_rows=tables["claims"].filter(pl.col("claim") == claim_id),
            all_arms=tables["arms"].filter(pl.col("claim") == claim_id),
            ev=tables["ev"].filter(pl.col("claim") == claim_id), cells=cells, matches=matches, hands=hands))
    records = [rec for _key, (_dir, rec) in sorted(runs.items())]
    return ReportData(kind="study", directory=directory, mode=mode, start_points=start,
                      code_version=str(metadata.get("tsumolab.code_version", "unknown")), claims=claims,
                      claims_table=tables["claims"], metadata=metadata, run_records=records)


def _load_run(directory: Path) -> ReportData:
    from tsumolab.analyzer.runs.record import record_spec
    from tsumolab.analyzer.runs.runner import combined_tables, read_run_record
    from tsumolab.sims.modes import DEFAULT_MODE

    record = read_run_record(directory) or {}
    spec = record_spec(record) if record else None
    mode = spec.variant if spec else DEFAULT_MODE
    start = spec.mode.family.start_points(spec.rules) if spec else _start_points(mode)
    try:
        hands, matches = combined_tables(directory)
    except (FileNotFoundError, OSError) as exc:
        raise InputError(f"cannot read the run in {directory}: {exc}") from None
    matches = matches.with_columns((pl.col("final_points") - start).alias("points"))
    return ReportData(kind="run", directory=directory, mode=mode, start_points=start,
                      code_version=str(record.get("code_version", "unknown")), run_records=[record],
                      matches=matches, hands=hands)


def _start_points(mode: str, rules: dict | None = None) -> int:
    from tsumolab.analyzer.claims.tables import start_points

    try:
        return start_points(mode, rules)
    except (ValueError, TypeError, AttributeError, ImportError):
        raise InputError(f"unknown mode {mode!r}") from None


def _run_index(runs_dir: Path) -> dict:
    """(seats, seed, matches, rules JSON) → (run dir, run.json) of every cell run of a study."""
    index = {}
    for path in sorted(runs_dir.glob("*/run.json")):
        try:
            record = json.loads(path.read_text())
            spec = record["spec"]
            key = (tuple(spec["seats"]), int(spec["seed"]), int(spec["matches"]),
                   json.dumps(spec.get("rules", {}), sort_keys=True))
        except (OSError, ValueError, KeyError, TypeError):
            continue
        index[key] = (path.parent, record)
    return index


def _claim_cells(exp: dict, runs: dict) -> list[Cell]:
    from tsumolab.analyzer.claims.experiment import Experiment, Field, cells
    from tsumolab.analyzer.runs.record import has_checksums

    experiment = Experiment(
        id=exp["id"], claim="", source="", mode=exp["mode"], rules=exp["rules"], treatment=exp["treatment"],
        control=exp["control"], fields=tuple(Field(f["label"], tuple(f["opponents"])) for f in exp["fields"]),
        direction=exp["direction"], matches=exp["matches"], seed=exp["seed"], headline=exp["headline"])
    rules = json.dumps(exp["rules"], sort_keys=True)
    out = []
    for cell in cells(experiment):
        key = (cell.seats, int(exp["seed"]), int(exp["wall_seeds"]), rules)
        if key not in runs:
            raise InputError(f"the run of claim {exp['id']} with seats {', '.join(cell.seats)} is missing "
                             "from runs/; rerun the study with --resume")
        run_dir, record = runs[key]
        out.append(Cell(field=exp["fields"][cell.field_index]["label"], arm=cell.arm,
                        policy=cell.seats[cell.subject_seat], subject_seat=cell.subject_seat, seats=cell.seats,
                        run_dir=run_dir, checksummed=has_checksums(record)))
    return out


def _subject_frames(cells: list[Cell], start: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The subject seat's matches (with `points`, final − `start`) and hands of every cell run of a claim, with the
    cell's field, arm, policy and seat, in one polars query (which reads the files in parallel)."""
    frames = [_cell_frames(cell, start) for cell in cells]
    matches, hands = pl.collect_all([pl.concat([m for m, _h in frames]).sort(HAND_KEYS),
                                     pl.concat([h for _m, h in frames], how="diagonal_relaxed")
                                     .sort([*HAND_KEYS, "hand"])])
    return matches, hands


def _cell_frames(cell: Cell, start: int) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """One cell run's subject-seat matches and hands (_subject_frames). A run whose record holds its files'
    checksums is scanned by polars once they are checked (they are the files that were written); an older run's
    files are read through pyarrow, which reports a malformed file where polars may abort."""
    from tsumolab.analyzer.runs.integrity import read_dataset, scan_dataset
    from tsumolab.analyzer.runs.record import read_run_record

    record = read_run_record(cell.run_dir)  # read and checked once for both tables

    def table(name: str) -> pl.LazyFrame:
        if cell.checksummed:
            return scan_dataset(cell.run_dir, name, record)
        return read_dataset(cell.run_dir, name, record).lazy()

    keys = [pl.lit(cell.field).alias("field"), pl.lit(cell.arm).alias("arm"),
            pl.lit(cell.policy).alias("policy"), pl.lit(cell.subject_seat).cast(pl.Int8).alias("subject_seat")]
    m = table("matches").filter(pl.col("seat") == cell.subject_seat)
    h = table("hands").filter(pl.col("seat") == cell.subject_seat)
    return (m.select(*keys, "match_id", (pl.col("final_points") - start).alias("points"), "rank"),
            h.drop("policy").with_columns(keys))
