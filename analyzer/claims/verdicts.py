"""What a claim's rows say together: the claim-level verdict over its sweep, its robustness across fields, and
whether its two objectives agree.

A claims table has one row per (claim, variant, field) with a Holm-adjusted verdict on each objective (points,
placement) and `verdict` on the claim's headline objective. Columns added to every row:

- `claim_verdict`: over the variants at the headline field. Supported when some tested variant is supported,
  refuted only when every tested variant is refuted, else inconclusive (a claim is not refuted because one
  threshold of it fails). Without a sweep it is the headline row's verdict.
- `best_variant`: the variant with the largest effect in the claimed direction at the headline field ("" without
  a sweep).
- `robustness`: the headline variant's verdicts across fields: `holds` (supported in every field), `fails`
  (refuted in every field), `unsettled` (inconclusive in every field) or `depends` (they differ).
- `points_side`, `placement_side`: +1 when the row's Holm interval shows the treatment better on that objective
  (more points; a lower average rank), −1 worse, 0 neither; `objectives_disagree` when one is +1 and the other −1.
"""

from __future__ import annotations

import polars as pl

_BY_VERDICT = {"supported": "holds", "refuted": "fails", "inconclusive": "unsettled"}


def claim_level(claims: pl.DataFrame) -> pl.DataFrame:
    """The claims table with the claim-level columns of the module doc."""
    sides = claims.with_columns(
        _side(pl.col("ci_low"), pl.col("ci_high")).alias("points_side"),
        _side(-pl.col("placement_ci_high"), -pl.col("placement_ci_low")).alias("placement_side")
        if "placement_ci_low" in claims.columns else pl.lit(0, pl.Int8).alias("placement_side"),
    ).with_columns(
        ((pl.col("points_side") * pl.col("placement_side")) < 0).alias("objectives_disagree"))
    per_claim = [_claim_summary(sides.filter(pl.col("claim") == c))
                 for c in sides["claim"].unique(maintain_order=True).to_list()]
    return sides.join(pl.from_dicts(per_claim), on="claim", how="left", maintain_order="left")


def _side(low: pl.Expr, high: pl.Expr) -> pl.Expr:
    return (pl.when(low > 0).then(1).when(high < 0).then(-1).otherwise(0)
            .fill_null(0).cast(pl.Int8))


def _claim_summary(rows: pl.DataFrame) -> dict:
    headline = rows.filter(pl.col("headline"))
    headline = headline if headline.height else rows.head(1)
    field, variant = headline["field"][0], headline["variant"][0]
    at_field = rows.filter(pl.col("field") == field)
    verdicts = at_field["verdict"].to_list()
    if "supported" in verdicts:
        claim_verdict = "supported"
    elif all(v == "refuted" for v in verdicts):
        claim_verdict = "refuted"
    else:
        claim_verdict = "inconclusive"
    best = ""
    if at_field.height > 1:
        sign = 1 if headline["direction"][0] == "greater" else -1
        objective = headline["objective"][0]
        # placement is average rank: better is lower
        score = sign * (at_field["effect"] if objective == "points" else -at_field["rank_diff"])
        best = at_field["variant"][int(score.arg_max())]
    across = set(rows.filter(pl.col("variant") == variant)["verdict"].to_list())
    robustness = _BY_VERDICT[across.pop()] if len(across) == 1 else "depends"
    return {"claim": rows["claim"][0], "claim_verdict": claim_verdict, "best_variant": best,
            "robustness": robustness}
