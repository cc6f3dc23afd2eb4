"""Statistical regression check of every mode: rerun on fresh walls and compare with a stored baseline.

One check of a mode simulates `matches` matches of four seats (the mode's field: the baseline policy, in
darkness shadow-player; or `--policy` at seat 0 against three field seats) and reduces the hands and matches
tables to the economy metrics of analyzer.regress.economy: spread of hand deltas, points per win by kind and by
order of winning, deal-in and tsumo-payer costs, bust and draw rates, draw settlement flows, kans and kan
income, riichi sticks, the special modes' own columns, placement. Bloodshed's default check also reruns claims
B1, B4 and B5 (paired effects and per-arm means of analyzer.claims.tables).

The rerun uses a fresh seed (the baseline's seed + 1 unless given), so it plays different walls: a metric
"differs" when |new − stored| exceeds THRESHOLD combined standard errors, sqrt(se_stored² + se_new²). Every
standard error is match-clustered (or per wall seed for the claims) and floored at one unit step of its metric
over the sample, so metrics constant in one sample do not fail on a single event. The threshold and sizes are
chosen from the measured false-alarm rate and detection power (`tsumolab regress --sensitivity`, README).
"""

from __future__ import annotations

import json
import math
import tempfile
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path

import polars as pl

from tsumolab.analyzer.claims.study import ClaimsResult, run_experiments, with_overrides
from tsumolab.analyzer.claims.tables import ARM_METRICS, PAIRED_METRICS
from tsumolab.analyzer.errors import InputError, WriteError, os_error_text
from tsumolab.analyzer.claims.experiment import mode_experiments, select
from tsumolab.analyzer.regress.economy import MIN_EVENTS, economy_metrics
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs.spec import MAX_SEED
from tsumolab.analyzer.stats import combined_se_distance
from tsumolab.analyzer.tables import replacing
from tsumolab.analyzer.version import code_version
from tsumolab.sims.modes import MODES, get_mode

REGRESS_CLAIMS = {"bloodshed": ("B1", "B4", "B5")}
"""the claims a mode's check reruns, by mode (bloodshed: tsumo/ron passing and scoring, kans and their payments,
void tiles and the draw settlement); a mode not listed is checked on its economy alone"""
REGRESS_MATCHES = 4000
"""matches of each bloodshed claim"""
MODE_MATCHES = {"bloodshed": 8000}
"""matches of the economy run per mode (DEFAULT_MODE_MATCHES for the others): sized so that `--mode all`
takes a few minutes on 2 cores (README, Regression)"""
DEFAULT_MODE_MATCHES = 10000
DEFAULT_SEED = 1000
THRESHOLD = 4.5
FORMAT = 2
POLICY = "baseline"
MODE_POLICY = {"darkness": "shadow-player"}
"""the field of a mode whose rules `baseline` never plays (D: it never discards face down, opens or locks, so a
darkness check of baseline seats would be riichi's); POLICY elsewhere"""
_UNIT = {"effect": 1000.0, "points": 1000.0, "kan_income": 1000.0, "giftbox": 35.0, "giftbox_diff": 35.0}
"""claims: smallest natural step of a metric (points move in 1000s, gift-box progress in steps of 35); default 1"""


@dataclass(frozen=True)
class Comparison:
    key: str
    stored: float
    new: float
    distance: float
    """|new − stored| in combined standard errors"""
    threshold: float = THRESHOLD

    @property
    def failed(self) -> bool:
        return self.distance > self.threshold


def mode_matches(mode: str) -> int:
    return MODE_MATCHES.get(mode, DEFAULT_MODE_MATCHES)


def modes_for(mode: str) -> list[str]:
    """`all` → every mode of sims.modes (riichi first, then the registry order); else the one mode."""
    if mode == "all":
        return list(MODES)
    if mode not in MODES:
        raise InputError(f"unknown mode {mode!r} (known: all, {', '.join(sorted(MODES))})")
    return [mode]


def start_points(mode: str, rules: dict) -> int:
    """Points of each seat at the start (bloodshed: B-2's fixed 50,000; riichi modes: the start_points option)."""
    from tsumolab.analyzer.claims.tables import start_points as mode_start_points

    return mode_start_points(mode, rules)


def rule_keys(mode: str) -> set[str]:
    from dataclasses import fields

    return {f.name for f in fields(get_mode(mode).rules_class)}


def claim_metrics(result: ClaimsResult) -> dict[str, dict]:
    """`claims/claim/field/metric` (paired differences) and `claims/claim/field/arm/metric` (per-arm means) of a
    run with one variant per claim (ValueError otherwise: the names would collide)."""
    variants = result.claims.group_by("claim").agg(pl.col("variant").n_unique().alias("n")).filter(pl.col("n") > 1)
    if len(variants):
        raise ValueError(f"claims {', '.join(variants['claim'])} have several variants; regress takes one each")
    metrics = {}
    for row in result.claims.iter_rows(named=True):
        floor_n = row["wall_seeds"]
        for name in PAIRED_METRICS:
            se = row["effect_se"] if name == "effect" else row[f"{name}_se"]
            metrics[f"claims/{row['claim']}/{row['field']}/{name}"] = _entry(row[name], se, name, floor_n)
    wall = {(r["claim"], r["field"]): r["wall_seeds"] for r in result.claims.iter_rows(named=True)}
    for row in result.arms.iter_rows(named=True):
        floor_n = wall[(row["claim"], row["field"])]
        for name in ARM_METRICS:
            metrics[f"claims/{row['claim']}/{row['field']}/{row['arm']}/{name}"] = _entry(
                row[name], row[f"{name}_se"], name, floor_n)
    return metrics


def compare(stored: dict[str, dict], new: dict[str, dict], threshold: float = THRESHOLD) -> list[Comparison]:
    """One Comparison per metric of the stored baseline; a metric missing from `new` is an InputError. A metric
    with fewer than MIN_EVENTS events (its `n`) in either sample gets distance 0 (not compared)."""
    missing = sorted(set(stored) - set(new))
    if missing:
        raise InputError(f"the rerun lacks baseline metrics {', '.join(missing[:5])}…; refresh with --update")
    return [Comparison(key, s["value"], new[key]["value"],
                       combined_se_distance(s["value"], s["se"], new[key]["value"], new[key]["se"])
                       if min(s.get("n", MIN_EVENTS), new[key].get("n", MIN_EVENTS)) >= MIN_EVENTS else 0.0,
                       threshold)
            for key, s in stored.items()]


def field_policy(mode: str) -> str:
    return MODE_POLICY.get(mode, POLICY)


def seats_of(mode: str, policy: str | None) -> str:
    """The check's seats: the mode's field, or `policy` at seat 0 against three field seats."""
    field = field_policy(mode)
    return field if not policy else f"{policy},{field},{field},{field}"


def run_mode(mode: str, seed: int, *, matches: int | None = None, rules: dict | None = None,
             policy: str | None = None, policy_paths: tuple[str, ...] = (), jobs: int = 1,
             out_dir: Path | None = None, claims: bool | None = None, progress: bool = False) -> dict[str, dict]:
    """Simulate one mode's check and return its metrics (economy, and the mode's REGRESS_CLAIMS when `claims`;
    by default when it has some and no `policy` is checked)."""
    from tsumolab.analyzer.runs.runner import combined_tables, execute

    matches = mode_matches(mode) if matches is None else matches
    rules = rules or {}
    spec = build_spec(mode, seats_of(mode, policy), matches, seed, 1000, rules, policy_paths)
    with tempfile.TemporaryDirectory(prefix="tsumolab-regress-") as temp:
        base = Path(out_dir) if out_dir is not None else Path(temp)
        run_dir = base / mode
        execute(spec, run_dir, jobs=jobs, progress=progress, overwrite=True, policy_paths=policy_paths)
        hands, match_rows = combined_tables(run_dir)
        metrics = economy_metrics(hands, match_rows, spec.mode.family, spec.mode.family.start_points(spec.rules))
        if claims if claims is not None else (mode in REGRESS_CLAIMS and not policy):
            result = run_claims(mode, base / "claims", seed, rule_overrides=rules, jobs=jobs, progress=progress,
                                matches=round(REGRESS_MATCHES * matches / mode_matches(mode)))
            metrics.update(claim_metrics(result))
    return metrics


def run_claims(mode: str, out_dir: Path, seed: int, *, rule_overrides: dict | None = None, jobs: int = 1,
               progress: bool = False, claims: tuple[str, ...] | None = None,
               matches: int | None = None) -> ClaimsResult:
    """Run the mode's regression claims (REGRESS_CLAIMS at REGRESS_MATCHES matches each) into `out_dir`."""
    experiments = regression_experiments(mode, rule_overrides or {}, claims or REGRESS_CLAIMS[mode])
    experiments = with_overrides(experiments, REGRESS_MATCHES if matches is None else max(matches, 2), seed)
    return run_experiments(experiments, out_dir, jobs=jobs, resume=False, overwrite=True, progress=progress)


def regression_experiments(mode: str, rule_overrides: dict, claims: tuple[str, ...]) -> list:
    """The claims' experiments reduced to their headline variant: a `[sweep]` grid studies the claim, the
    regression check follows the economy through one treatment (and keeps its metric names free of variants)."""
    experiments = select(mode_experiments(mode, rule_overrides=rule_overrides), ",".join(claims))
    return [replace(e, variants=tuple(v for v in e.variants if v.treatment == e.treatment))
            for e in experiments]


def read_baseline(path: Path) -> dict:
    """The baseline document in `path`, checked: InputError when it is missing or not a baseline."""
    from tsumolab.analyzer.json_input import read_json

    if not Path(path).exists():
        raise InputError(f"baseline file not found: {path} (create it with --update --reason TEXT)")
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
    if not isinstance(data.get("mode"), str) or data["mode"] not in MODES:
        return "no mode"
    matches = data.get("matches")
    if isinstance(matches, bool) or not isinstance(matches, int) or matches < 1:
        return "its matches is not a count"
    if not isinstance(data.get("history", []), list):
        return "its history is not a list"
    metrics = data.get("metrics")
    if not isinstance(metrics, dict) or not metrics:
        return "no metrics"
    for key, entry in metrics.items():
        if not (isinstance(entry, dict) and all(isinstance(entry.get(k), (int, float))
                                                and not isinstance(entry.get(k), bool) for k in ("value", "se"))
                and isinstance(entry.get("n", 0), (int, float)) and not isinstance(entry.get("n", 0), bool)):
            return f"metric {key!r} is not {{value, se, n}}"
    return None


def baseline_document(mode: str, metrics: dict[str, dict], seed: int, matches: int, rules: dict,
                      policy: str | None, reason: str, previous: dict | None = None) -> dict:
    """The baseline of one mode; `history` keeps every update's date, seed, code version and reason."""
    entry = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), "seed": seed,
             "code_version": code_version(), "reason": reason}
    history = list((previous or {}).get("history", []))[-49:] + [entry]
    return {
        "format": FORMAT,
        "mode": mode,
        "seats": seats_of(mode, policy),
        "matches": matches,
        "seed": seed,
        "rules": rules,
        "code_version": code_version(),
        "threshold_se": THRESHOLD,
        "reason": reason,
        "history": history,
        "metrics": metrics,
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
    """A claim metric; its `n` is the number of wall seeds (the clusters of its standard error), so a check too
    small for a trustworthy cluster SE (fewer than MIN_EVENTS seeds) leaves it uncompared."""
    floor = _UNIT.get(name, 1.0) / wall_seeds
    se = floor if se is None or math.isnan(se) else max(se, floor)
    return {"value": float(value), "se": float(se), "n": int(wall_seeds)}
