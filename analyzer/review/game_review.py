"""Review one seat of a real game: every decision (analyzer.review.seat_decisions; in Bloodshed
analyzer.review.bloodshed_decisions) evaluated with advise (analyzer.advise.position_advice) from what the seat saw,
the player's choice set against advise's recommended option (analyzer.advise.evaluate: the rollout policy's own
choice when the rollouts cannot tell it from the best mean, else the best mean).

Per decision: the loss of the choice = recommended mean − chosen mean (in the units of the review's value,
analyzer.advise.objectives: points to the end of the hand, final points with --horizon match, or rank points) with
the 95% interval of the paired difference, measured on fresh determinizations (advise's confirmation: the race's
own difference overstates it). A decision is a *clear mistake* when the race's interval of the choice against the
best mean and the confirmation's interval both lie above zero and the loss is at least MISTAKE_FLOOR points (0.3
for the values counted in thousands); the choice *agrees* when it is the recommended option and is *within noise*
when the confirmation's interval reaches zero.
Game rating = 100 · exp(−mean loss per decision / RATING_SCALE): 100 for a game of best choices, 37 when each
decision gave up RATING_SCALE points (1 in thousands) on average.

Each decision's determinizations are keyed by (seed, hand, decision), so the numbers do not depend on --jobs,
on the order hands are reviewed in, or on --resume.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import polars as pl

from tsumolab.analyzer.advise.objectives import UNIT
from tsumolab.analyzer.advise.position_advice import NotADecision, advise_position
from tsumolab.analyzer.advise.riichi_view import VARIANTS
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.record import GameRecord
from tsumolab.analyzer.review.seat_decisions import SeatDecision, position_at, seat_decisions

MISTAKE_FLOOR = 300
RATING_SCALE = 1000
HORIZONS = ("hand", "match")
COLUMNS = {
    "hand": pl.Int32, "round": pl.Utf8, "honba": pl.Int32, "decision": pl.Int32, "kind": pl.Utf8,
    "tiles": pl.Utf8, "choice": pl.Utf8, "option": pl.Utf8, "chosen": pl.Boolean, "recommended": pl.Boolean,
    "mean": pl.Float64, "ci95": pl.Float64, "diff_to_best": pl.Float64, "diff_ci95": pl.Float64, "win_rate": pl.Float64,
    "deal_in_rate": pl.Float64, "rollouts": pl.Int32, "confirmed_loss": pl.Float64, "confirmed_ci95": pl.Float64,
    "tile": pl.Utf8, "dora": pl.Utf8, "rivers": pl.List(pl.Utf8), "melds": pl.List(pl.Utf8),
}
"""One row per option of every decision; `choice` is the player's option, `diff_to_best` each option's race
difference to the best mean, `confirmed_loss` / `confirmed_ci95` the choice's confirmed loss against the
recommended option (null when the choice is the recommended one or no option), and the table at the decision
(`tile`, `dora`, each seat's `rivers` and `melds`: analyzer.review.seat_decisions.TableAt) are repeated on each
row."""


@dataclass(frozen=True)
class ReviewSpec:
    """What is reviewed and how: the seat, the hands (1-based; None = all), advise's budget and field."""

    seat: int
    hands: tuple[int, ...] | None = None
    rollouts: int = 300
    horizon: str = "hand"
    seat_policies: str | None = None
    """the rollout field; None: the mode's (analyzer.advise.position_advice.default_rollout_field)"""
    seed: int = 0
    objective: str = "points"
    deal: str = "progress"
    prior: bool = True
    """recommend the discard prior's discard where the rollouts cannot tell discards apart (riichi modes)"""

    def as_dict(self) -> dict:
        return {"seat": self.seat, "hands": list(self.hands) if self.hands else None, "rollouts": self.rollouts,
                "horizon": self.horizon, "seat_policies": self.seat_policies, "seed": self.seed,
                "objective": self.objective, "deal": self.deal, "prior": self.prior}


def round_label(start: dict) -> str:
    return f"{start.get('bakaze', 'E')}{start.get('kyoku', 1)}"


REVIEWED = (*VARIANTS, "bloodshed")


def check_reviewable(record: GameRecord) -> None:
    if record.variant not in REVIEWED:
        raise InputError(f"review reads {record.variant} games but reviews only {' and '.join(REVIEWED)} games so far")


def decisions_of(record: GameRecord, events, seat: int) -> list[SeatDecision]:
    """The seat's decisions in one hand: Bloodshed's (analyzer.review.bloodshed_decisions) or a riichi mode's."""
    if record.variant == "bloodshed":
        from tsumolab.analyzer.review.bloodshed_decisions import bloodshed_decisions

        return bloodshed_decisions(events, seat)
    return seat_decisions(events, seat, record.variant)


def position_of_decision(record: GameRecord, events, seat: int, decision: SeatDecision) -> dict:
    """The position document advise reads at `decision`, from what the seat saw."""
    if record.variant == "bloodshed":
        from tsumolab.analyzer.review.bloodshed_decisions import bloodshed_position_at

        return bloodshed_position_at(events, seat, decision)
    return position_at(record.variant, events, seat, decision, game_rules(record))


def hands_to_review(record: GameRecord, spec: ReviewSpec) -> list[int]:
    check_reviewable(record)
    wanted = range(1, record.n_hands + 1) if spec.hands is None else spec.hands
    for h in wanted:
        if not 1 <= h <= record.n_hands:
            raise InputError(f"the game has hands 1..{record.n_hands}, not {h}")
    return list(wanted)


def game_rules(record: GameRecord) -> dict:
    """The rule options the game's positions are advised under: the record's, and a South game's length (R-2) in
    the riichi modes but shura, whose game the record's length does not change."""
    rules = dict(record.rules)
    if record.variant != "shura" and record.length == "south":
        rules.setdefault("n_hands", 8)
    return rules


def decision_seed(seed: int, hand: int, decision: int) -> int:
    return (seed * 1_000_003 + hand * 1_009 + decision) % (2 ** 31)


def review_hand(record: GameRecord, spec: ReviewSpec, hand: int) -> pl.DataFrame:
    """The option rows of every decision of the seat in hand `hand` (1-based)."""
    events = record.hands[hand - 1]
    start = events[0]
    rows = []
    for d, decision in enumerate(decisions_of(record, events, spec.seat)):
        result = advise_decision(record, events, spec, decision, decision_seed(spec.seed, hand, d))
        if result is None:
            continue
        rows += option_rows(result, decision, hand, d, start)
    return pl.DataFrame(rows, schema=COLUMNS)


def option_rows(result: dict, decision: SeatDecision, hand: int, d: int, start: dict) -> list[dict]:
    """The COLUMNS rows of advise's `result` at decision number `d` of hand `hand` (its start event `start`)."""
    confirmed = result.get("confirmation") or {}
    at = decision.table
    table = {"tile": at.tile if at else "", "dora": at.dora if at else "",
             "rivers": list(at.rivers) if at else [""] * 4, "melds": list(at.melds) if at else [""] * 4}
    return [{"hand": hand, "round": round_label(start), "honba": int(start.get("honba", 0)), "decision": d,
             "kind": decision.kind, "tiles": decision.tiles, "choice": decision.choice, "option": r["option"],
             "chosen": r["option"] == decision.choice, "recommended": r["option"] == result["recommended"],
             "mean": r["mean"], "ci95": r["ci95"], "diff_to_best": r["diff_to_best"], "diff_ci95": r["diff_ci95"],
             "win_rate": r["win_rate"], "deal_in_rate": r["deal_in_rate"], "rollouts": r["rollouts"],
             "confirmed_loss": confirmed.get("loss"), "confirmed_ci95": confirmed.get("ci95"), **table}
            for r in result["options"]]


def advise_decision(record: GameRecord, events, spec: ReviewSpec, decision: SeatDecision, seed: int):
    """advise's result at `decision`, or None when the seat has nothing to choose there."""
    position = position_of_decision(record, events, spec.seat, decision)
    try:
        result = advise_position(position, spec.rollouts, spec.horizon, spec.seat_policies, seed, jobs=1,
                                 deal=spec.deal, objective=spec.objective, confirm_choice=decision.choice,
                                 prior=spec.prior)
    except NotADecision:
        return None
    except InputError as exc:
        raise InputError(f"hand {round_label(events[0])}, event {decision.at + 1}: {exc}") from None
    if len(result["options"]) < 2:
        return None
    return result


def decision_summary(table: pl.DataFrame, objective: str = "points") -> pl.DataFrame:
    """One row per decision: the choice's loss against the recommended option with its interval, and its verdict
    (module doc)."""
    floor = MISTAKE_FLOOR / UNIT[objective]
    chosen = table.filter(pl.col("chosen")).select(
        "hand", "decision", pl.when(pl.col("recommended")).then(0.0).otherwise(pl.col("confirmed_loss")).alias("loss"),
        pl.when(pl.col("recommended")).then(0.0).otherwise(pl.col("confirmed_ci95")).alias("loss_ci95"),
        (-pl.col("diff_to_best") - pl.col("diff_ci95") > 0).alias("race_says_worse"))
    recommended = table.filter(pl.col("recommended")).select(
        "hand", "decision", pl.col("option").alias("recommended_option"), pl.col("mean").alias("recommended_mean"))
    heads = table.group_by("hand", "decision", maintain_order=True).agg(
        pl.first("round"), pl.first("honba"), pl.first("kind"), pl.first("tiles"), pl.first("choice"),
        *[pl.first(c) for c in ("tile", "dora", "rivers", "melds") if c in table.columns], pl.len().alias("options"))
    out = heads.join(recommended, on=["hand", "decision"]).join(chosen, on=["hand", "decision"], how="left")
    return out.with_columns(
        pl.col("loss").is_not_null().alias("expressible"),
        (pl.col("choice") == pl.col("recommended_option")).alias("agrees"),
        (pl.col("loss") - pl.col("loss_ci95") <= 0).alias("within_noise"),
        (pl.col("race_says_worse") & (pl.col("loss") - pl.col("loss_ci95") > 0) & (pl.col("loss") >= floor))
        .alias("mistake"),
    ).drop("race_says_worse").sort("hand", "decision")


def game_summary(decisions: pl.DataFrame, objective: str = "points") -> dict:
    """Totals of the reviewed decisions: losses, agreement, mistakes and the game rating (module docstring)."""
    judged = decisions.filter(pl.col("expressible"))
    n = judged.height
    total = float(judged["loss"].sum()) if n else 0.0
    per_hand = (judged.group_by("hand", "round", "honba", maintain_order=True)
                .agg(pl.len().alias("decisions"), pl.col("loss").sum().alias("loss"),
                     pl.col("mistake").sum().alias("mistakes")).sort("hand"))
    return {
        "decisions": decisions.height,
        "judged": n,
        "not_expressible": decisions.height - n,
        "agree": int(judged["agrees"].sum()) if n else 0,
        "within_noise": int(judged["within_noise"].sum()) if n else 0,
        "mistakes": int(judged["mistake"].sum()) if n else 0,
        "total_loss": round(total, 1),
        "rating": round(100 * math.exp(-total / n / (RATING_SCALE / UNIT[objective])), 1) if n else None,
        "hands": per_hand.to_dicts(),
    }
