"""Statistical regression check: rerun a small experiment set and compare it with a stored baseline.

The rerun uses a fresh seed (the baseline's seed + 1 unless given), so it plays different walls: a metric
"differs" when |new − stored| exceeds THRESHOLD combined standard errors, sqrt(se_stored² + se_new²). Each
standard error is floored at one unit step of its metric spread over the wall seeds (UNIT / wall seeds), so
metrics that happened to be constant in one sample (e.g. no flower pig at all) do not fail on a single event.
With about 160 metrics at 4 standard errors, a correct build fails by chance in roughly 1% of runs.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from analyzer.claims import ClaimsResult, run_experiments, with_overrides
from analyzer.run_spec import MAX_SEED
from analyzer.claims_tables import ARM_METRICS, PAIRED_METRICS
from analyzer.errors import InputError, WriteError, os_error_text
from analyzer.experiment import mode_experiments, select
from analyzer.stats import combined_se_distance
from analyzer.tables import replacing
from analyzer.version import code_version

REGRESS_CLAIMS = ("B1", "B4", "B5")
"""tsumo/ron passing and scoring, kans and their payments, void tiles and the draw settlement"""
REGRESS_MATCHES = 4000
DEFAULT_SEED = 1000
THRESHOLD = 4.0
FORMAT = 1
_UNIT = {"effect": 1000.0, "points": 1000.0, "kan_income": 1000.0, "giftbox": 35.0, "giftbox_diff": 35.0}
"""smallest natural step of a metric (points move in 1000s, gift-box progress in steps of 35); default 1"""


@dataclass(frozen=True)
class Comparison:
    key: str
    stored: float
    new: float
    distance: float
    """|new − stored| in combined standard errors"""

    @property
    def failed(self) -> bool:
        return self.distance > THRESHOLD


def regress_metrics(result: ClaimsResult) -> dict[str, dict]:
    """`claim/field/metric` (paired differences) and `claim/field/arm/metric` (per-arm means) → value, se."""
    metrics = {}
    for row in result.claims.iter_rows(named=True):
        floor_n = row["wall_seeds"]
        for name in PAIRED_METRICS:
            se = row["effect_se"] if name == "effect" else row[f"{name}_se"]
            metrics[f"{row['claim']}/{row['field']}/{name}"] = _entry(row[name], se, name, floor_n)
    wall = {(r["claim"], r["field"]): r["wall_seeds"] for r in result.claims.iter_rows(named=True)}
    for row in result.arms.iter_rows(named=True):
        floor_n = wall[(row["claim"], row["field"])]
        for name in ARM_METRICS:
            metrics[f"{row['claim']}/{row['field']}/{row['arm']}/{name}"] = _entry(
                row[name], row[f"{name}_se"], name, floor_n)
    return metrics


def compare(stored: dict[str, dict], new: dict[str, dict]) -> list[Comparison]:
    """One Comparison per metric of the stored baseline; a metric missing from `new` is an InputError."""
    missing = sorted(set(stored) - set(new))
    if missing:
        raise InputError(f"the rerun lacks baseline metrics {', '.join(missing[:5])}…; refresh with --update")
    return [Comparison(key, s["value"], new[key]["value"],
                       combined_se_distance(s["value"], s["se"], new[key]["value"], new[key]["se"]))
            for key, s in stored.items()]


def run_regress(out_dir: Path, seed: int, *, rule_overrides: dict | None = None, jobs: int = 1,
                resume: bool = False, progress: bool = False, claims: tuple[str, ...] | None = None,
                matches: int | None = None) -> ClaimsResult:
    """Run the regression claims (default REGRESS_CLAIMS at REGRESS_MATCHES matches each) into `out_dir`."""
    claims = claims or REGRESS_CLAIMS
    experiments = select(mode_experiments("bloodshed", rule_overrides=rule_overrides or {}), ",".join(claims))
    experiments = with_overrides(experiments, REGRESS_MATCHES if matches is None else matches, seed)
    return run_experiments(experiments, out_dir, jobs=jobs, resume=resume, overwrite=not resume,
                           progress=progress)


def read_baseline(path: Path) -> dict:
    """The baseline document in `path`, checked: InputError when it is missing or not a baseline."""
    from analyzer.json_input import read_json

    if not Path(path).exists():
        raise InputError(f"baseline file not found: {path} (create it with --update)")
    data = read_json(str(path), "regress baseline")
    problem = _baseline_problem(data)
    if problem:
        raise InputError(f"{path}: not a tsumolab regress baseline (format {FORMAT}): {problem}")
    return data


def _baseline_problem(data: object) -> str | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "no format number"
    seed = data.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        return "its seed is not a seed"
    metrics = data.get("metrics")
    if not isinstance(metrics, dict) or not metrics:
        return "no metrics"
    for key, entry in metrics.items():
        if not (isinstance(entry, dict) and all(isinstance(entry.get(k), (int, float))
                                                and not isinstance(entry.get(k), bool) for k in ("value", "se"))):
            return f"metric {key!r} is not {{value, se}}"
    return None


def baseline_document(result: ClaimsResult, seed: int, rule_overrides: dict) -> dict:
    return {
        "format": FORMAT,
        "claims": [e.id for e in result.experiments],
        "matches": result.experiments[0].matches,
        "seed": seed,
        "rules": rule_overrides,
        "code_version": code_version(),
        "threshold_se": THRESHOLD,
        "metrics": regress_metrics(result),
    }


def write_baseline(path: Path, document: dict) -> None:
    """Write the baseline atomically; WriteError (one line) when it cannot be written."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with replacing(path) as temp:
            temp.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
    except OSError as exc:
        raise WriteError(f"cannot write {path}: {os_error_text(exc)}") from None


def _entry(value: float, se: float, name: str, wall_seeds: int) -> dict:
    floor = _UNIT.get(name, 1.0) / wall_seeds
    se = floor if se is None or math.isnan(se) else max(se, floor)
    return {"value": float(value), "se": float(se)}
