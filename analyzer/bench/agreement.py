"""`tsumolab bench --agreement LOGS`: how often `advise` recommends what real players chose.

Every decision of every seat of the logs (read by analyzer.games.read; the decisions of analyzer.review) is a
candidate; SAMPLE of them are drawn with the seed and evaluated from what the seat saw, as `review` does. Per
decision: `top1` (advise's recommendation is the player's choice), `within` (the choice is the recommendation or
the interval of its loss against it reaches zero), `flagged` (a clear mistake by review's rule,
analyzer.review.game_review: the loss confirmed on fresh determinizations, at least review's floor). Shares are
given by decision kind, by the choice (discard, riichi, tsumo, ron, call, pass …) and, for own turns, by the
seat's shanten then; `wins taken` is the share of the players' wins (tsumo and ron) that advise recommends too.

A decision's determinizations are keyed by (seed, log, seat, hand, decision), so the figures do not depend on
--jobs or on the sample's order.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass, replace

import numpy as np
import polars as pl

from tsumolab.analyzer.bench.planted import plant_at, shanten_of
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.read import read_game
from tsumolab.analyzer.games.record import GameRecord
from tsumolab.analyzer.review.game_review import COLUMNS as COLUMNS_OF_REVIEW
from tsumolab.analyzer.review.game_review import (
    ReviewSpec, advise_decision, check_reviewable, decision_summary, decisions_of, option_rows,
)
from tsumolab.analyzer.review.seat_decisions import SeatDecision

WIN_CHOICES = ("tsumo", "ron")
CHOICE_KINDS = ("discard", "riichi", "tsumo", "ron", "pon", "chi", "kan", "pass", "exchange", "nine terminals")
COLUMNS = {"log": pl.Utf8, "seat": pl.Int32, "hand": pl.Int32, "decision": pl.Int32, "kind": pl.Utf8,
           "choice": pl.Utf8, "plant": pl.Utf8, "refused": pl.Utf8, "choice_kind": pl.Utf8,
           "recommended_option": pl.Utf8, "policy_choice": pl.Utf8, "shanten": pl.Int32, "options": pl.Int32,
           "top1": pl.Boolean, "within": pl.Boolean, "flagged": pl.Boolean, "loss": pl.Float64, "loss_ci95": pl.Float64,
           "rollouts": pl.Int32, "seconds": pl.Float64}


@dataclass(frozen=True)
class Candidate:
    """One decision of one seat of one log."""

    log: int
    seat: int
    hand: int        # 1-based
    index: int       # the decision's number in the seat's hand
    decision: SeatDecision
    plant: str = ""  # the blunder planted as the decision's choice (analyzer.bench.planted), if any


def choice_kind(choice: str) -> str:
    """The option's family: discard, riichi, tsumo, ron, pon, chi, kan, pass, exchange or nine terminals."""
    word = choice.split()[0]
    return "nine terminals" if word == "nine" else word


def candidates(records: list[GameRecord]) -> list[Candidate]:
    """Every decision of every seat of the reviewable logs, in log, seat, hand order."""
    out = []
    for i, record in enumerate(records):
        for seat in range(4):
            for h, events in enumerate(record.hands, start=1):
                for d, decision in enumerate(decisions_of(record, events, seat)):
                    out.append(Candidate(i, seat, h, d, decision))
    return out


def judge(record: GameRecord, spec: ReviewSpec, cand: Candidate, log_key: int) -> dict | None:
    """The agreement row of one candidate (a planted blunder's, analyzer.bench.planted, when it has one); None
    when the seat had nothing to choose there."""
    start = time.perf_counter()
    seed = zlib.crc32(f"{spec.seed}/{log_key}/{cand.seat}/{cand.hand}/{cand.index}".encode()) % (2 ** 31)
    events = record.hands[cand.hand - 1]
    decision, plant = cand.decision, cand.plant
    try:
        result = advise_decision(record, events, replace(spec, seat=cand.seat), decision, seed)
    except InputError as exc:  # a log the engine cannot replay there (review's known differences): counted apart
        return {"log": record.title, "seat": cand.seat, "hand": cand.hand, "decision": cand.index,
                "kind": decision.kind, "choice": decision.choice, "plant": plant, "refused": str(exc)}
    if result is None:
        return None
    table = pl.DataFrame(option_rows(result, decision, cand.hand, cand.index, events[0]), schema=COLUMNS_OF_REVIEW)
    verdict = decision_summary(table, spec.objective).row(0, named=True)
    return {"log": record.title, "seat": cand.seat, "hand": cand.hand, "decision": cand.index,
            "kind": decision.kind, "choice": decision.choice, "plant": plant, "refused": "",
            "choice_kind": choice_kind(decision.choice), "recommended_option": verdict["recommended_option"],
            "policy_choice": result["policy_choice"],
            "shanten": shanten_of(decision.tiles), "options": len(result["options"]),
            "top1": bool(verdict["agrees"]), "within": bool(verdict["within_noise"]),
            "flagged": bool(verdict["mistake"]), "loss": verdict["loss"], "loss_ci95": verdict["loss_ci95"],
            "rollouts": result["determinizations"], "seconds": round(time.perf_counter() - start, 3)}


def _judge_many(paths: list[str], spec: ReviewSpec, todo: list[Candidate]) -> list[dict | None]:
    records = {}
    out = []
    for cand in todo:
        if cand.log not in records:
            records[cand.log] = read_game(paths[cand.log])
        out.append(judge(records[cand.log], spec, cand, cand.log))
    return out


def _planted(records: list[GameRecord], pool: list[Candidate]) -> list[Candidate]:
    """The candidates where a blunder applies, each with the blunder as its choice."""
    out = []
    for c in pool:
        found = plant_at(records[c.log], records[c.log].hands[c.hand - 1], c.seat, c.decision)
        if found is not None:
            out.append(replace(c, decision=replace(c.decision, choice=found[1]), plant=found[0]))
    return out


def load_records(paths: list[str]) -> list[GameRecord]:
    """The logs read and checked reviewable (one-line errors)."""
    records = []
    for path in paths:
        record = read_game(path)
        check_reviewable(record)
        records.append(record)
    return records


def run_agreement(paths: list[str], spec: ReviewSpec, sample: int, jobs: int = 1, progress=None,
                  choices: tuple[str, ...] = (), planted: bool = False,
                  records: list[GameRecord] | None = None) -> pl.DataFrame:
    """One row per sampled decision (COLUMNS). `sample` ≤ 0 takes every decision; `choices` (choice kinds, e.g.
    tsumo, ron) keeps only the decisions where the player chose one of them; `planted` judges a planted blunder
    instead of the choice at every decision where one applies (the sample is drawn from those). `records`: the
    logs as load_records read them, when the caller has them already."""
    records = records if records is not None else load_records(paths)
    pool = candidates(records)
    if choices:
        pool = [c for c in pool if choice_kind(c.decision.choice) in choices]
    if planted:
        pool = _planted(records, pool)
    if 0 < sample < len(pool):
        pick = np.sort(np.random.default_rng(spec.seed).choice(len(pool), size=sample, replace=False))
        pool = [pool[i] for i in pick]
    batches = [pool[i:i + 4] for i in range(0, len(pool), 4)]
    rows: list[dict] = []
    if jobs > 1:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs, return_as="generator")(
            delayed(_judge_many)(paths, spec, batch) for batch in batches)
    else:
        results = (_judge_many(paths, spec, batch) for batch in batches)
    done = 0
    for batch, judged in zip(batches, results):
        rows.extend(r for r in judged if r is not None)
        done += len(batch)
        if progress is not None:
            progress(done, len(pool))
    return pl.DataFrame(rows, schema=COLUMNS)


def shares(rows: pl.DataFrame, by: str) -> list[dict]:
    """Per value of column `by`: decisions, top-1 and within-interval shares, flagged share, mean seconds."""
    if rows.height == 0:
        return []
    return (rows.group_by(by).agg(pl.len().alias("decisions"), pl.col("top1").mean().alias("top1"),
                                  pl.col("within").mean().alias("within"), pl.col("flagged").mean().alias("flagged"),
                                  pl.col("seconds").mean().alias("seconds"))
            .sort(by).to_dicts())


def _share(frame: pl.DataFrame, col: str) -> float | None:
    return round(float(frame[col].mean()), 4) if frame.height else None


def _policy_share(frame: pl.DataFrame) -> float | None:
    """The share of decisions where the seat's own answer alone (analyzer.advise.policy_answer: the rollout
    policy's, with the discard prior's tile on own turns unless --no-prior), without rollouts, picks the player's
    choice."""
    if not frame.height:
        return None
    return round(float((frame["policy_choice"] == frame["choice"]).fill_null(False).mean()), 4)


def summarize(rows: pl.DataFrame) -> dict:
    """The benchmark's figures: overall, own-turn discards (top-1 by shanten), wins taken, by kind and choice;
    decisions the engine refused to replay are counted apart (`refused`) and left out of every share; `policy_top1`
is the top-1 of the seat's own answer alone (the rollout policy's, with the discard prior's discards), for
comparison."""
    refused = rows.filter(pl.col("refused") != "")
    rows = rows.filter(pl.col("refused") == "")
    turns = rows.filter((pl.col("kind") == "turn") & pl.col("choice_kind").is_in(["discard", "riichi"]))
    wins = rows.filter(pl.col("choice_kind").is_in(WIN_CHOICES))
    return {
        "decisions": rows.height, "refused": refused.height,
        "top1": _share(rows, "top1"), "within": _share(rows, "within"), "flagged": _share(rows, "flagged"),
        "policy_top1": _policy_share(rows), "own_turn_discards": turns.height, "own_turn_top1": _share(turns, "top1"),
        "own_turn_policy_top1": _policy_share(turns),
        "wins_taken": wins.height, "wins_recommended": _share(wins, "top1"),
        "seconds_per_decision": _share(rows, "seconds"),
        "by_kind": shares(rows, "kind"), "by_choice": shares(rows, "choice_kind"),
        "own_turn_by_shanten": shares(turns.with_columns(pl.col("shanten").clip(upper_bound=3)), "shanten"),
        "by_plant": shares(rows.filter(pl.col("plant") != ""), "plant"),
    }
