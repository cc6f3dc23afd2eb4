"""Economy metrics of one run for `tsumolab regress`: what the hands and matches tables say about payments.

Every metric is a ratio of two sums over the run, Σ numerator / Σ denominator (a per-win mean is Σ points over
wins / Σ wins, a rate is Σ events / Σ seat-hands). The sampling unit is the match: match i is played on its own
walls drawn from (seed, i) alone, so the per-match sums are independent and the standard error is the cluster
(delta-method) one of a ratio estimator,

    se(r) = sqrt( n/(n−1) · Σ_i (num_i − r · den_i)² ) / Σ_i den_i,

which keeps the correlation between the four seats and between the hands of one match. A metric named with a
`_rms` suffix is the square root of its ratio (spread of hand deltas) and carries the matching delta-method se.

A metric over fewer than MIN_EVENTS events (a per-win mean of the third winner's tsumos in a mode without the
bloodbath) is not compared: its se is not trustworthy, and the rate of those events is a metric of its own.
Each metric's se is floored at one `unit` (its natural step: 100 points, one event) over Σ denominator, so a metric
that happened to be constant in a sample (no pao at all) is not failed by one event in the other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from tsumolab.sims.family import EngineFamily

_c = pl.col
ONE = pl.lit(1)
MIN_EVENTS = 30
ROW = pl.col("seat") >= 0
"""true on every row: Σ over a match counts its rows"""


@dataclass(frozen=True)
class Metric:
    name: str
    num: pl.Expr
    den: pl.Expr
    unit: float = 1.0
    sqrt: bool = False
    table: str = "hands"
    help: str = ""


def _f(expr: pl.Expr) -> pl.Expr:
    return expr.cast(pl.Float64)


def _where(cond: pl.Expr, value: pl.Expr) -> pl.Expr:
    return pl.when(cond).then(_f(value)).otherwise(0.0)


def _per_win(name: str, column: pl.Expr, cond: pl.Expr, unit: float, help_: str) -> Metric:
    return Metric(name, _where(cond, column), _f(cond), unit, help=help_)


WON = _c("won")
RON = _c("win_kind") == "ron"
TSUMO = _c("win_kind") == "tsumo"
EXHAUSTIVE = _c("hand_end") == "exhaustive"
FIRST_ROW = _c("seat") == 0
"""one row per hand (seat 0's) for per-hand quantities such as the stick pile"""


def _common(points_unit: float) -> list[Metric]:
    """Metrics every mode's tables hold (hands: delta, wins, win_points, value, dealt_in, winners, hand_end)."""
    u = points_unit
    payer = ~WON & (_c("dealt_in") == 0) & (_c("winners") > 0)
    return [
        Metric("hands_per_match", _f(FIRST_ROW), ONE.cast(pl.Float64), 1, help="hands played per match"),
        Metric("delta_rms", _f(_c("delta")) ** 2, _f(ROW), u * u, sqrt=True,
               help="spread of hand deltas: root mean square of delta over seat-hands"),
        Metric("delta_abs", _f(_c("delta").abs()), _f(ROW), u, help="mean |delta| per seat-hand"),
        Metric("dealer_delta", _where(_c("dealer"), _c("delta")), _f(_c("dealer")), u,
               help="mean delta of the dealer per hand"),
        Metric("win_rate", _f(WON), _f(ROW), 1, help="wins per seat-hand"),
        Metric("tsumo_share", _f(TSUMO), _f(WON), 1, help="share of wins by tsumo"),
        _per_win("ron_points", _c("win_points"), RON, u, "points received per ron win (all payments for it)"),
        _per_win("tsumo_points", _c("win_points"), TSUMO, u, "points received per tsumo win"),
        _per_win("ron_value", _c("value"), RON, u, "value of a ron win"),
        _per_win("tsumo_value", _c("value"), TSUMO, u, "value of a tsumo win"),
        _per_win("dealer_win_points", _c("win_points"), WON & _c("dealer"), u, "points per win by the dealer"),
        Metric("dealin_rate", _f(_c("dealt_in")), _f(ROW), 1,
               help="deal-ins (winners paid by discarding) per seat-hand"),
        _per_win("dealin_cost", -_c("delta"), _c("dealt_in") > 0, u,
                 "net loss of a seat-hand with a deal-in (minus its delta)"),
        _per_win("tsumo_payer_cost", -_c("delta"), payer, u,
                 "net loss of a seat-hand that neither won nor dealt in, in a hand with a winner (tsumo payments)"),
        Metric("exhaustive_rate", _where(FIRST_ROW, EXHAUSTIVE), _f(FIRST_ROW), 1, help="hands ending exhaustive"),
        Metric("bust_end_rate", _where(FIRST_ROW, _c("hand_end") == "bust"), _f(FIRST_ROW), 1,
               help="hands ending with a bust"),
        _per_win("tenpai_at_draw", _c("tenpai_at_draw"), EXHAUSTIVE & ~WON, 1,
                 "tenpai share of non-winners at an exhaustive draw"),
        Metric("winners_per_hand", _where(FIRST_ROW, _c("winners")), _f(FIRST_ROW), 1, help="winners per hand"),
        Metric("passed_wins", _f(_c("passed_wins")), _f(ROW), 1, help="wins passed per seat-hand"),
    ] + [_per_win(f"win_points_order{k}", _c("win_points"), _c("win_order") == k, u,
                  f"points per win of the hand's winner number {k} (bloodbath: after {k - 1} earlier winners)")
         for k in (1, 2, 3)]


def _bloodshed() -> list[Metric]:
    u = 1000.0
    return _common(u) + [
        _per_win("ron_fan", _c("fan"), RON, 1, "fan of a ron win"),
        _per_win("tsumo_fan", _c("fan"), TSUMO, 1, "fan of a tsumo win"),
        *[_per_win(f"tsumo_points_order{k}", _c("win_points"), TSUMO & (_c("win_order") == k), u,
                   f"points per tsumo of winner number {k}") for k in (1, 2, 3)],
        *[_per_win(f"ron_points_order{k}", _c("win_points"), RON & (_c("win_order") == k), u,
                   f"points per ron of winner number {k}") for k in (1, 2, 3)],
        Metric("kans", _f(_c("kans")), _f(ROW), 1, help="kans per seat-hand"),
        Metric("kan_income_abs", _f(_c("kan_income").abs()), _f(ROW), u, help="mean |net kan payments| per seat-hand"),
        Metric("kan_paid", _f(_c("kan_paid")), _f(ROW), u, help="kan payments made per seat-hand"),
        _per_win("kan_income_per_kan", _c("kan_income"), _c("kans") > 0, u,
                 "net kan income of a seat-hand that declared a kan"),
        Metric("refund_abs", _f(_c("refund").abs()), _f(ROW), u, help="mean |退税 refund| per seat-hand (B-21)"),
        _per_win("draw_settlement_abs", _c("draw_settlement").abs(), EXHAUSTIVE, u,
                 "mean |查花猪 + 查大叫| per seat at an exhaustive draw (B-22, B-23)"),
        _per_win("draw_settlement_tenpai", _c("draw_settlement"), EXHAUSTIVE & _c("tenpai_at_draw"), u,
                 "net draw settlement of a tenpai seat at an exhaustive draw (B-23)"),
        _per_win("flower_pig", _c("flower_pig"), EXHAUSTIVE & ~WON, 1, "flower pigs per non-winner at a draw"),
    ]


def _riichi() -> list[Metric]:
    u = 100.0
    stick_change = _c("sticks_after").cast(pl.Int32) - _c("sticks_before").cast(pl.Int32)
    return _common(u) + [
        _per_win("ron_han", _c("han"), RON, 1, "han of a ron win"),
        _per_win("tsumo_han", _c("han"), TSUMO, 1, "han of a tsumo win"),
        _per_win("fu", _c("fu"), WON & (_c("yakuman") == 0), 1, "fu of a non-yakuman win"),
        _per_win("dora", _c("dora"), WON, 1, "dora per win"),
        _per_win("yakuman_share", _c("yakuman") > 0, WON, 1, "share of wins that are yakuman"),
        Metric("riichi_rate", _f(_c("riichi") != "none"), _f(ROW), 1, help="riichi declarations per seat-hand"),
        _per_win("sticks_won", _c("sticks_won"), WON, 1, "riichi sticks taken per win"),
        Metric("stick_flow", _where(FIRST_ROW, stick_change), _f(FIRST_ROW), 1,
               help="change of the riichi-stick pile per hand"),
        Metric("honba", _where(FIRST_ROW, _c("honba")), _f(FIRST_ROW), 1, help="honba counters per hand"),
        Metric("multi_ron_rate", _where(FIRST_ROW, _c("winners") >= 2), _f(FIRST_ROW), 1,
               help="hands with two or more winners (a multiple ron; none under mirror's head bump, M)"),
        *[_per_win(f"honba_bonus_order{k}", _c("win_points") - _c("value") - _c("sticks_won").cast(pl.Int32) * 1000,
                   WON & (_c("win_order") == k) & (_c("honba") > 0), u,
                   f"win points beyond the value and the sticks (the honba bonus) of winner number {k} in a hand "
                   f"with honba (R-3: on a multiple ron only the first winner gets it)") for k in (1, 2)],
        Metric("calls", _f(_c("calls")), _f(ROW), 1, help="calls per seat-hand"),
        Metric("kans", _f(_c("kans")), _f(ROW), 1, help="kans per seat-hand"),
        Metric("pao_paid", _f(_c("pao_paid")), _f(ROW), u, help="pao payments per seat-hand"),
        _per_win("noten_flow_abs", _c("noten_payment").abs(), EXHAUSTIVE, u,
                 "mean |noten payment| per seat at an exhaustive draw (R-6, S-6)"),
        _per_win("noten_tenpai", _c("noten_payment"), EXHAUSTIVE & _c("tenpai_at_draw"), u,
                 "noten payment received by a tenpai seat at an exhaustive draw"),
        Metric("nagashi", _f(_c("nagashi")), _f(ROW), 1, help="nagashi mangan per seat-hand"),
        Metric("abortive_rate", _where(FIRST_ROW, _c("hand_end").is_in(
            ["nine_terminals", "four_winds", "four_riichi", "four_kans"])), _f(FIRST_ROW), 1,
               help="hands ending in an abortive draw"),
        # the special modes' own columns (neutral elsewhere: a rule turning a mode on moves them)
        _per_win("fate_multiplier", _c("multiplier"), WON, 1, "fate (F): multiplier of a win"),
        Metric("chant_han", _f(_c("chant_han")), _f(ROW), 1, help="chant (C): bonus han per seat-hand"),
        Metric("overloaded", _f(_c("overloaded")), _f(ROW), 1, help="soul strike (SS): overloaded seat-hands"),
        _per_win("strike_han", _c("strike_han"), WON, 1, "soul strike (SS): han the mode added per win"),
        Metric("card_points_abs", _f(_c("card_points").abs()), _f(ROW), u,
               help="fantasy (FL): mean |card payments| per seat-hand"),
        Metric("card_points_dealer", _where(_c("dealer"), _c("card_points")), _f(_c("dealer")), u,
               help="fantasy (FL): card payments of the dealer per hand"),
        Metric("pot_after", _where(FIRST_ROW, _c("pot_after")), _f(FIRST_ROW), u,
               help="darkness (D): points in the pot at the end of a hand"),
        Metric("dark_paid", _f(_c("dark_paid")), _f(ROW), u, help="darkness (D): pot payments per seat-hand"),
        _per_win("pot_won", _c("pot_won"), WON, u, "darkness (D): pot taken per win"),
        Metric("face_down", _f(_c("face_down")), _f(ROW), 1, help="darkness (D): face-down discards per seat-hand"),
        Metric("dark_opens", _f(_c("dark_opens")), _f(ROW), 1, help="darkness (D): openings per seat-hand"),
        Metric("dark_locks", _f(_c("dark_locks")), _f(ROW), 1, help="darkness (D): locks per seat-hand"),
    ] + [_per_win(f"tsumo_points_order{k}", _c("win_points"), TSUMO & (_c("win_order") == k), u,
                  f"points per tsumo of winner number {k}") for k in (1, 2, 3)] + _value_cells(u) + _noten_cells(u) \
        + _card_cells(u)


FANTASY_CARDS = {"card_dealer": ("fuuki", "eternal-night", "confiscate", "hype", "giveaway"),
                 "card_chance": ("otherworld", "triple-speed", "golden", "super-tanyao", "showdown"),
                 "card_fate": ("exaggeration", "over-prepared", "hourglass", "shady-deal", "love-price")}
"""fantasy (FL): a card rules only the matches that drew it (one in five per deck), so its payments are read in
those matches alone; in the other modes every card column is `none` and these metrics have no events"""


def _card_cells(u: float) -> list[Metric]:
    out = []
    for column, cards in FANTASY_CARDS.items():
        for card in cards:
            held = _c(column) == card
            out.append(_per_win(f"card_{card}_abs", _c("card_points").abs(), held, u,
                                f"fantasy (FL): mean |card payments| per seat-hand in matches with {card}"))
            out.append(_per_win(f"card_{card}_received", _c("card_points").clip(0), held, u,
                                f"fantasy (FL): card payments received per seat-hand in matches with {card}"))
    return out


NOTEN_CELLS = ((4, 1), (4, 2), (4, 3), (3, 1), (3, 2))
"""(players still in the hand, tenpai among them) at an exhaustive draw: the noten payment a tenpai seat receives
is fixed by R-6 / S-6 in each cell (4 in, 2 tenpai: 1500 each under `split`, 2000 under `each`)"""


def _noten_cells(u: float) -> list[Metric]:
    out = []
    for still_in, tenpai in NOTEN_CELLS:
        cell = EXHAUSTIVE & _c("tenpai_at_draw") & (_c("_in_hand") == still_in) & (_c("_tenpai") == tenpai)
        out.append(_per_win(f"noten_received_{still_in}in_{tenpai}tenpai", _c("noten_payment"), cell, u,
                            f"noten payment received by a tenpai seat at an exhaustive draw with {still_in} "
                            f"players not won, {tenpai} of them tenpai (R-6, S-6)"))
    return out


def _hand_counts(hands: pl.DataFrame) -> pl.DataFrame:
    """Per row: players of its hand who have not won (`_in_hand`) and tenpai ones among them (`_tenpai`)."""
    by_hand = ["match_id", "hand"]
    return hands.with_columns((~_c("won")).cast(pl.Int32).sum().over(by_hand).alias("_in_hand"),
                              (_c("tenpai_at_draw") & ~_c("won")).cast(pl.Int32).sum().over(by_hand).alias("_tenpai"))


VALUE_CELLS = ((1, 30), (2, 30), (3, 30), (4, 30), (2, 40), (3, 40), (3, 60), (4, 40), (5, 30), (6, 30))
"""(han, fu) of the commonest wins: the value of a win in one cell, divided by fate's multiplier (F: the value
is the table's times 1 + open tiles held; 1 in other modes), is fixed by R-3's table, so a change of the payment
table (kiriage mangan moves 4 han 30 fu from 7700 to 8000) moves it by many standard errors even when it touches
a few percent of the wins"""


def _value_cells(u: float) -> list[Metric]:
    out = []
    table_value = _c("value") / _c("multiplier").clip(1)
    for han, fu in VALUE_CELLS:
        for who, cond in (("child", ~_c("dealer")), ("dealer", _c("dealer"))):
            cell = RON & cond & (_c("han") == han) & (_c("fu") == fu) & (_c("yakuman") == 0)
            out.append(_per_win(f"ron_value_{who}_{han}h{fu}fu", table_value, cell, u,
                                f"value of a {who} ron at {han} han {fu} fu before fate's multiplier (R-3)"))
        cell = TSUMO & ~_c("dealer") & (_c("han") == han) & (_c("fu") == fu) & (_c("yakuman") == 0)
        received = _c("win_points") - _c("sticks_won").cast(pl.Int32) * 1000
        out.append(_per_win(f"tsumo_points_child_{han}h{fu}fu", received, cell, u,
                            f"points received by a child tsumo at {han} han {fu} fu, sticks excluded"))
    high = WON & (_c("yakuman") == 0) & (_c("han") >= 13)
    out.append(_per_win("value_13han", table_value, high, u,
                        "value of a non-yakuman win of 13 han or more before fate's multiplier"))
    out.append(_per_win("yakuman_value", table_value / _c("yakuman").clip(1), WON & (_c("yakuman") > 0), u,
                        "value of a yakuman win per yakuman multiple before fate's multiplier"))
    return out


def _matches(points_unit: float) -> list[Metric]:
    u = points_unit
    m = [Metric("busted", _f(_c("busted")), _f(ROW), 1, table="matches", help="share of seats that bust"),
         Metric("final_rms", (_f(_c("final_points")) - _c("start")) ** 2, _f(ROW), u * u, sqrt=True,
                table="matches", help="spread of final points around the start points"),
         Metric("hands_played", _where(_c("seat") == 0, _c("hands_played")), _f(_c("seat") == 0), 1,
                table="matches", help="hands played per match")]
    for rank in (1, 4):
        m.append(Metric(f"rank{rank}_points", _where(_c("rank") == rank, _c("final_points")),
                        _f(_c("rank") == rank), u, table="matches", help=f"final points of the rank-{rank} seat"))
    return m


def _focal(points_unit: float) -> list[Metric]:
    """Seat 0's own numbers: the seat a user's policy (`--policy`) plays; with four equal seats, seat order."""
    u = points_unit
    s0 = _c("seat") == 0
    return [
        Metric("seat0/points", _where(s0, _c("final_points")), _f(s0), u, table="matches",
               help="seat 0: final points per match"),
        Metric("seat0/rank", _where(s0, _c("rank")), _f(s0), 1, table="matches", help="seat 0: mean final rank"),
        Metric("seat0/first", _where(s0, _c("rank") == 1), _f(s0), 1, table="matches",
               help="seat 0: share of first places"),
        Metric("seat0/delta", _where(s0, _c("delta")), _f(s0), u, help="seat 0: mean hand delta"),
        Metric("seat0/win_rate", _where(s0, WON), _f(s0), 1, help="seat 0: wins per hand"),
        Metric("seat0/dealin_rate", _where(s0, _c("dealt_in")), _f(s0), 1, help="seat 0: deal-ins per hand"),
        _per_win("seat0/win_points", _c("win_points"), s0 & WON, u, "seat 0: points per win"),
    ]


FAMILY_METRICS = {"bloodshed": (_bloodshed, None), "riichi": (_riichi, _hand_counts)}
"""the hand metrics of each engine family (sims.family), by the family's name, and the columns they need added
to the `hands` table"""


def metric_specs(family: EngineFamily) -> list[Metric]:
    """Every metric of the modes an engine family plays, in units of its smallest payment."""
    unit = float(family.points_unit)
    return FAMILY_METRICS[family.name][0]() + _matches(unit) + _focal(unit)


def _ratio(num: np.ndarray, den: np.ndarray, unit: float, sqrt: bool) -> dict:
    """{value, se, n}: n = Σ den (the events a per-event mean is over; regress compares a metric only when both
    samples have at least MIN_EVENTS of them)."""
    total = float(den.sum())
    n = num.size
    if total <= 0 or n < 2:
        return {"value": 0.0, "se": float(unit if not sqrt else math.sqrt(unit)), "n": max(total, 0.0)}
    r = num.sum() / total
    se = math.sqrt(n / (n - 1) * float(((num - r * den) ** 2).sum())) / total
    se = max(se, unit / total)
    if sqrt:
        root = math.sqrt(max(r, 0.0))
        return {"value": root, "se": se / (2 * root) if root > 0 else math.sqrt(se), "n": total}
    return {"value": float(r), "se": float(se), "n": total}


def economy_metrics(hands: pl.DataFrame, matches: pl.DataFrame, family: EngineFamily,
                    start_points: int) -> dict[str, dict]:
    """`econ/<metric>` → {value, se} over the run's tables (match-clustered standard errors)."""
    specs = metric_specs(family)
    added_columns = FAMILY_METRICS[family.name][1]
    if added_columns is not None:
        hands = added_columns(hands)
    frames = {"hands": hands, "matches": matches.with_columns(pl.lit(float(start_points)).alias("start"))}
    out = {}
    for table, frame in frames.items():
        chosen = [m for m in specs if m.table == table]
        if not chosen:
            continue
        sums = frame.group_by("match_id").agg(
            [m.num.sum().alias(f"n{i}") for i, m in enumerate(chosen)]
            + [m.den.sum().alias(f"d{i}") for i, m in enumerate(chosen)])
        for i, m in enumerate(chosen):
            out[f"econ/{m.name}"] = _ratio(sums[f"n{i}"].to_numpy().astype(np.float64),
                                           sums[f"d{i}"].to_numpy().astype(np.float64), m.unit, m.sqrt)
    return out
