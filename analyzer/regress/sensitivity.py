"""`tsumolab regress --sensitivity`: measured detection power of regress per rule option, and its false-alarm rate.

For one mode and a size of m matches per check:
- false alarms: one default run of 2·N·m_null matches is cut into 2N disjoint blocks of m_null matches (match i
  depends only on (seed, i), so blocks are independent runs); block 2k plays the baseline and block 2k+1 the
  rerun, and the rate is the share of the N pairs in which any metric differs;
- power: one default run of R·m matches (R baseline blocks) and, per option change, one run of R·m matches with
  the option changed (another seed); pair k compares block k of each, and the detection probability is the share
  of the R pairs in which regress fails (observed k/R); beside it, a model estimate from the distances
  (`shift_estimate`): the most-moved metric's mean signed shift δ in combined SEs over the R pairs, and
  P = Φ(δ − T) + Φ(−δ − T), the probability that this metric alone crosses the threshold T — a lower bound on
  detecting the change — at the run's size and scaled to the check's (δ grows as √(n_check / m)).
Only the economy metrics are compared (bloodshed's claim metrics would add detections, not remove them).
"""

from __future__ import annotations

import json
import math
import tempfile
import time
from pathlib import Path
from statistics import NormalDist

import click
import polars as pl

from tsumolab.analyzer.regress import check as regress
from tsumolab.analyzer.mode_options import mode_listing
from tsumolab.analyzer.regress.economy import economy_metrics
from tsumolab.sims.modes import get_mode

ALTERNATIVES = {
    "start_points": {25000: 30000, 50000: 40000, 40000: 30000},
    "n_hands": 8, "initial_dora": {1: 2, 3: 2}, "astrology_floor": 0, "strike_turns": 4, "overload_han": 1,
    "strike_riichi_han": 1, "strike_double_riichi_han": 2, "hype_max": 2, "eye_counter": 3, "eye_multiplier": 3,
    "winners_to_end": 2, "tsumo_bonus": "fan", "noten_rule": "each", "strike_count": "draws",
    "love_pot": "discarder",
}
"""the changed value tried for a non-boolean option (booleans are flipped); options missing here are skipped"""
SKIPPED = {"cards": "cards are drawn per match from the seed; a fixed set is a different sample, not a rule change"}


def _owner(help_text: str) -> str | None:
    """The rule id an option's help starts with ("SS: …", "FL 炒作: …", "S-6 (bloodbath only): …"), if any."""
    words = help_text.split()
    token = words[0].rstrip(":") if words else ""
    return token if token in _special_ids() else None


def _special_ids() -> set[str]:
    return {i for mode in mode_listing() if mode["changed_from_riichi"] is not None for i in mode["rule_ids"]
            if not i.startswith("R-")}


def option_changes(mode: str) -> list[tuple[str, object]]:
    """(option, changed value) for every option of the mode's rules. Riichi-based modes: the options of the
    riichi core (citing R-*) and of the mode's own rule (help starting with one of its rule ids), and those the
    mode sets differently from riichi; options of other special modes (no effect here) are left out."""
    listing = mode_listing([mode])[0]
    ids = set(listing["rule_ids"])
    defaults = get_mode(mode).rules_class().as_dict()
    changes = []
    for option in listing["options"]:
        name = option["name"]
        if listing["changed_from_riichi"] is not None:  # a riichi-based mode
            owner = _owner(option["help"])
            mine = owner in ids if owner else bool(set(option["rule_ids"]) & ids)
            if not (mine or option.get("changed")):
                continue
        if name in SKIPPED:
            continue
        default = defaults[name]
        if isinstance(default, bool):
            changes.append((name, not default))
            continue
        alt = ALTERNATIVES.get(name)
        if isinstance(alt, dict):
            alt = alt.get(default)
        if alt is None or alt == default:
            continue
        changes.append((name, alt))
    return changes


def _simulate(mode: str, seed: int, matches: int, rules: dict, jobs: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    from tsumolab.analyzer.runs.options import build_spec
    from tsumolab.analyzer.runs.runner import combined_tables, execute

    spec = build_spec(mode, regress.field_policy(mode), matches, seed, 1000, rules)
    with tempfile.TemporaryDirectory(prefix="tsumolab-sensitivity-") as temp:
        execute(spec, Path(temp) / "run", jobs=jobs, progress=False, overwrite=True)
        return combined_tables(Path(temp) / "run")


def block_metrics(mode: str, hands: pl.DataFrame, matches: pl.DataFrame, block: int, n_blocks: int,
                  rules: dict) -> list[dict[str, dict]]:
    """Economy metrics of each block of `block` consecutive match ids."""
    start = regress.start_points(mode, rules)
    hands = hands.with_columns((pl.col("match_id") // block).alias("_block"))
    matches = matches.with_columns((pl.col("match_id") // block).alias("_block"))
    out = []
    for k in range(n_blocks):
        out.append(economy_metrics(hands.filter(pl.col("_block") == k).drop("_block"),
                                   matches.filter(pl.col("_block") == k).drop("_block"),
                                   get_mode(mode).family, start))
    return out


def _fails(stored: dict, new: dict, threshold: float) -> list[regress.Comparison]:
    return [c for c in regress.compare(stored, new, threshold) if c.failed]


def false_alarms(mode: str, seed: int, m: int, pairs: int, threshold: float, jobs: int) -> tuple[int, int]:
    hands, matches = _simulate(mode, seed, 2 * pairs * m, {}, jobs)
    blocks = block_metrics(mode, hands, matches, m, 2 * pairs, {})
    return sum(bool(_fails(blocks[2 * k], blocks[2 * k + 1], threshold)) for k in range(pairs)), pairs


def detection_probability(shift: float, threshold: float) -> float:
    """P(|Z + shift| > threshold) for Z standard normal: the chance that a metric whose mean distance from the
    baseline is `shift` combined SEs (signed) falls beyond ±threshold in one check."""
    if math.isinf(shift):
        return 1.0
    normal = NormalDist()
    return normal.cdf(shift - threshold) + normal.cdf(-shift - threshold)


def shift_estimate(comparisons: list[list[regress.Comparison]]) -> tuple[str, float]:
    """(metric, δ): the metric whose signed distance (new − stored, in combined SEs) has the largest mean
    |over the R pairs|, and that mean. Metrics left out of a pair (too few events) count as 0 there."""
    totals: dict[str, float] = {}
    for pair in comparisons:
        for c in pair:
            signed = math.copysign(c.distance, c.new - c.stored) if c.distance else 0.0
            totals[c.key] = totals.get(c.key, 0.0) + signed
    if not totals:
        return "", 0.0
    key = max(totals, key=lambda k: abs(totals[k]))
    return key, totals[key] / len(comparisons)


def scaled_shift(shift: float, run_matches: int, check_matches: int) -> float:
    """The shift at another size: both samples' SEs shrink as 1/√n, so the distance grows as √n."""
    return shift * math.sqrt(check_matches / run_matches)


def power(mode: str, seed: int, m: int, repeats: int, threshold: float, jobs: int, changes, echo) -> list[dict]:
    hands, matches = _simulate(mode, seed, repeats * m, {}, jobs)
    base = block_metrics(mode, hands, matches, m, repeats, {})
    rows = []
    for name, value in changes:
        began = time.monotonic()
        rules = {name: value}
        try:
            hands, matches = _simulate(mode, seed + 1, repeats * m, rules, jobs)
        except Exception as exc:  # a combination the engine refuses: recorded, not hidden
            rows.append({"mode": mode, "option": name, "value": value, "error": str(exc).splitlines()[0]})
            echo(f"{mode} {name}={value}: error {exc}")
            continue
        changed = block_metrics(mode, hands, matches, m, repeats, rules)
        comparisons = [regress.compare(b, c, threshold) for b, c in zip(base, changed)]
        fails = [[c for c in pair if c.failed] for pair in comparisons]
        largest = min(max((c.distance for c in pair), default=0.0) for pair in comparisons)
        counts = sorted(len(f) for f in fails)
        top = {}
        for f in fails:
            for c in f:
                top[c.key] = top.get(c.key, 0) + 1
        shift_metric, shift = shift_estimate(comparisons)
        check = regress.mode_matches(mode)
        row = {"mode": mode, "option": name, "value": value, "detected": sum(bool(f) for f in fails),
               "repeats": repeats, "median_metrics": counts[len(counts) // 2],
               "top_metric": max(top, key=top.get) if top else "", "seconds": time.monotonic() - began,
               "largest": largest, "shift_metric": shift_metric, "shift": shift, "matches": m,
               "check_matches": check, "p_run": detection_probability(shift, threshold),
               "p_check": detection_probability(scaled_shift(shift, m, check), threshold)}
        rows.append(row)
        echo(f"{mode} {name}={value}: detected {row['detected']}/{repeats}, median {row['median_metrics']} "
             f"metrics, top {row['top_metric']}, largest distance {largest:.1f} SE, shift {shift:+.1f} SE of "
             f"{shift_metric}: P {row['p_run']:.2f} at {m}, {row['p_check']:.2f} at {check} "
             f"({row['seconds']:.0f} s)")
    return rows


def markdown(rows: list[dict], nulls: list[dict], settings: str) -> str:
    lines = [settings, "", "| mode | option | changed to | detected | mean shift (SE) of the most-moved metric | "
             "P(detect) at the run's size | P(detect) at the check's size | metrics moved (median) | "
             "largest distance, smallest over seeds (SE) | most often moved |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['mode']} | `{r['option']}` | `{r['value']}` | error: {r['error']} | | | | | | |")
            continue
        value = str(r["value"]).lower() if isinstance(r["value"], bool) else r["value"]
        largest = f"{r['largest']:.1f}" if "largest" in r else "–"
        if "shift" in r:
            shift = f"{abs(r['shift']):.1f} ({r['shift_metric'].removeprefix('econ/')})" if r["shift_metric"] else "0"
            p_run = f"{r['p_run']:.2f} ({r['matches']:,})"
            p_check = (f"**{r['p_check']:.2f}** (scaled to {r['check_matches']:,})"
                       if r["check_matches"] != r["matches"] else f"{r['p_check']:.2f}")
        else:
            shift = p_run = p_check = "–"
        lines.append(f"| {r['mode']} | `{r['option']}` | `{value}` | {r['detected']}/{r['repeats']} | {shift} | "
                     f"{p_run} | {p_check} | {r['median_metrics']} | {largest} | "
                     f"{r['top_metric'].removeprefix('econ/')} |")
    lines += ["", "| mode | false alarms at the defaults | rate | 95% upper bound |", "| --- | --- | --- | --- |"]
    for n in nulls:
        lines.append(f"| {n['mode']} | {n['alarms']}/{n['pairs']} | {n['alarms'] / n['pairs']:.3f} | "
                     f"{_upper(n['alarms'], n['pairs']):.3f} |")
    return "\n".join(lines) + "\n"


def _upper(k: int, n: int) -> float:
    """One-sided 95% upper confidence bound of a binomial rate (Clopper–Pearson; exact for k = 0: 1 − 0.05^(1/n))."""
    if k == 0:
        return 1 - 0.05 ** (1 / n)
    lo, hi = k / n, 1.0
    for _ in range(60):  # bisection on P(X <= k; p) = 0.05
        mid = (lo + hi) / 2
        cdf = sum(math.comb(n, i) * mid ** i * (1 - mid) ** (n - i) for i in range(k + 1))
        lo, hi = (mid, hi) if cdf > 0.05 else (lo, mid)
    return hi


def sensitivity_command(mode: str, matches: int | None, repeats: int, null_repeats: int, threshold: float,
                        jobs: int, table_path: Path | None, null_matches: int | None = None,
                        only_options: tuple[str, ...] = ()) -> None:
    rows, nulls = [], []
    for name in regress.modes_for(mode):
        m = matches or regress.mode_matches(name)
        began = time.monotonic()
        if null_repeats:
            alarms, pairs = false_alarms(name, 7_000_000, null_matches or m, null_repeats, threshold, jobs)
            nulls.append({"mode": name, "alarms": alarms, "pairs": pairs})
            click.echo(f"{name}: false alarms {alarms}/{pairs} ({time.monotonic() - began:.0f} s)")
        if repeats:
            changes = [c for c in option_changes(name) if not only_options or c[0] in only_options]
            rows += power(name, 8_000_000, m, repeats, threshold, jobs, changes, click.echo)
    settings = (f"Settings: threshold {threshold:g} combined SEs; power at {matches or 'the default'} matches per "
                f"check × {repeats} seeds per option; false alarms over {null_repeats} disjoint default pairs of "
                f"{null_matches or matches or 'the default'} matches each.")
    text = markdown(rows, nulls, settings)
    click.echo(text)
    if table_path:
        Path(table_path).write_text(text)
        Path(table_path).with_suffix(".json").write_text(json.dumps({"rows": rows, "nulls": nulls}, indent=1,
                                                                    default=str) + "\n")
