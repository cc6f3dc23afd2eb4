"""The decision-level sections of a report (issue 16): read from DIR/decisions.parquet only.

Per claim: what was sampled, the share of situations where the claim's action is better and the mean difference
per situation (points, rank, gift box) overall and by field, the breakdown by each feature the claim names as a
table and a figure, and the sentence of the conditions under which the claim's action is better.

Used twice: inside the claims report (reports.html and reports.pdf add a section after each claim's
policy-level one when the study's directory holds decisions.parquet) and in the report of a decisions study
alone (reports.decisions_report: DIR/decisions.html, DIR/decisions.pdf; `tsumolab decisions`).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Callable

import numpy as np
import polars as pl
from matplotlib.figure import Figure

from tsumolab.analyzer.i18n import Translator
from tsumolab.reports.content import EN, FigureSpec, Table

TABLE = "decisions.parquet"


@lru_cache(maxsize=4)
def _read(path: str, mtime: float) -> pl.DataFrame:
    return pl.read_parquet(path)


def load_decisions(directory: Path | str) -> pl.DataFrame | None:
    """DIR/decisions.parquet, or None when the directory has none."""
    path = Path(directory) / TABLE
    if not path.is_file():
        return None
    return _read(str(path), path.stat().st_mtime)


def claim_rows(directory: Path | str, claim_id: str) -> pl.DataFrame | None:
    table = load_decisions(directory)
    if table is None:
        return None
    rows = table.filter(pl.col("claim") == claim_id)
    return rows if rows.height else None


def result_of(directory: Path | str, claim_id: str) -> dict:
    """analyzer.decisions.stats.claim_result of one claim's rows (computed once per table: the conditions search
    is the slow part)."""
    path = Path(directory) / TABLE
    return _result(str(path), path.stat().st_mtime, claim_id)


def _claims() -> dict:
    """analyzer.decisions.claims.CLAIMS, imported when a study has decisions (it loads the simulator's
    observations)."""
    from tsumolab.analyzer.decisions.claims import CLAIMS

    return CLAIMS


@lru_cache(maxsize=64)
def _result(path: str, mtime: float, claim_id: str) -> dict:
    from tsumolab.analyzer.decisions.stats import claim_result

    table = _read(path, mtime)
    return claim_result(table.filter(pl.col("claim") == claim_id), _claims()[claim_id])


# --- text and tables ------------------------------------------------------------------------------------------

def _ci(e, digits: int, tr: Translator) -> str:
    if math.isnan(e.mean):
        return tr("n/a")
    return f"{tr.signed(e.mean, digits)} [{tr.signed(e.low, digits)}, {tr.signed(e.high, digits)}]"


def _share(e, tr: Translator) -> str:
    if math.isnan(e.mean):
        return tr("n/a")
    return f"{tr.percent(e.mean, 0)} [{tr.percent(e.low, 0)}, {tr.percent(e.high, 0)}]"


def resample_of(directory: Path | str) -> str:
    """What the study's rollouts resampled (analyzer.decisions.situations.RESAMPLE), from the table's metadata."""
    import json

    from tsumolab.analyzer.tables import read_file_metadata

    spec = read_file_metadata(Path(directory) / TABLE).get("tsumolab_decisions_spec", "{}")
    return json.loads(spec).get("resample", "unseen")


def design_text(rows: pl.DataFrame, claim, tr: Translator = EN, resample: str = "unseen") -> str:
    rollouts = int(rows["rollouts"].min())
    fields = dict(n=rows.height, fields=tr(", ").join(rows["field"].unique(maintain_order=True).to_list()),
                  action=tr(claim.action), alternative=tr(claim.alternative), rollouts=rollouts)
    if resample == "hidden":
        return tr("{n} situations from simulated play ({fields}) where the claim's policy would “{action}” and the "
                  "alternative policy would “{alternative}”. At each, both answers were played out {rollouts} times "
                  "to the end of the match on the same samples of everything the seat cannot see, the other hands "
                  "dealt at random as `tsumolab advise` does; after its answer the seat plays on with the policy "
                  "that gave it.", **fields)
    return tr("{n} situations from simulated play ({fields}) where the claim's policy would “{action}” and the "
              "alternative policy would “{alternative}”. At each, both answers were played out {rollouts} times to "
              "the end of the match from the true state, on the same samples of what no seat knows yet (the wall's "
              "order, the policies' random streams, the later hands); after its answer the seat plays on with the "
              "policy that gave it.", **fields)


def summary_text(result: dict, claim, tr: Translator = EN) -> str:
    s = result["summary"]
    return tr("“{action}” is better in {share} of the situations on final points ({rank_share} on rank). Mean "
              "difference per situation: {points} points, {rank} in rank (lower is better), {gift} gift-box "
              "progress.", action=tr(claim.action), share=_share(s["share_points"], tr),
              rank_share=_share(s["share_rank"], tr), points=_ci(s["mean_points"], 0, tr),
              rank=_ci(s["mean_rank"], 3, tr), gift=_ci(s["mean_gift"], 1, tr))


def field_table(result: dict, tr: Translator = EN) -> Table:
    columns = [tr("Field"), tr("Situations"), tr("Share better (points)"), tr("Share better (rank)"),
               tr("Points difference"), tr("Rank difference"), tr("Gift-box difference")]
    rows = []
    for name, s in [*result["by_field"].items(), (tr("all fields"), result["summary"])]:
        rows.append([name, str(s["situations"]), _share(s["share_points"], tr), _share(s["share_rank"], tr),
                     _ci(s["mean_points"], 0, tr), _ci(s["mean_rank"], 3, tr), _ci(s["mean_gift"], 1, tr)])
    return Table(columns, rows)


def _bin_label(feature: str, low: float, high: float, tr: Translator) -> str:
    from tsumolab.analyzer.decisions.claims import FEATURE_CODES

    codes = FEATURE_CODES.get(feature)
    if codes and low == high and 0 <= int(low) < len(codes):
        return tr(codes[int(low)])
    return tr.number(low) if low == high else f"{tr.number(low)}–{tr.number(high)}"


def breakdown_table(result: dict, claim, tr: Translator = EN) -> Table:
    columns = [tr("Feature"), tr("Values"), tr("Situations"), tr("Share better (points)"),
               tr("Points difference"), tr("Rank difference")]
    rows = []
    for feature in claim.features:
        for i, b in enumerate(result["breakdown"][feature.name]):
            rows.append([tr(feature.words) if i == 0 else "", _bin_label(feature.name, b["low"], b["high"], tr),
                         str(b["situations"]),
                         _share(b["share_points"], tr), _ci(b["mean_points"], 0, tr), _ci(b["mean_rank"], 3, tr)])
    return Table(columns, rows)


def condition_texts(result: dict, claim, tr: Translator = EN) -> list[str]:
    from tsumolab.analyzer.decisions.stats import condition_sentence

    return [condition_sentence(result["conditions"]["points"], claim, tr),
            condition_sentence(result["conditions"]["rank"], claim, tr)]


def caveat_text(tr: Translator = EN) -> str:
    return tr("Conditions are the one or two feature thresholds with the most certain total gain; they are chosen "
              "from the same situations, so their intervals are optimistic: confirm one with another --seed.")


# --- figure ---------------------------------------------------------------------------------------------------

def breakdown_figure(result: dict, claim, tr: Translator = EN) -> Figure:
    """Mean point difference (claim's action − alternative) with its 95% interval per value of each feature."""
    from tsumolab.reports.figures import _number_axis

    features = claim.features
    cols = 2
    rows = math.ceil(len(features) / cols)
    fig = Figure(figsize=(7.0, 1.9 * rows + 0.5), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, cols)).ravel()
    for ax, feature in zip(axes, features):
        bins = result["breakdown"][feature.name]
        x = np.arange(len(bins))
        means = np.array([b["mean_points"].mean for b in bins])
        low = np.array([b["mean_points"].low for b in bins])
        high = np.array([b["mean_points"].high for b in bins])
        finite = np.isfinite(low) & np.isfinite(high)
        colours = ["#1a7f37" if lo > 0 else "#c62828" if hi < 0 else "#1f5fa8" for lo, hi in zip(low, high)]
        ax.axhline(0, color="#888888", lw=0.8)
        ax.errorbar(x[finite], means[finite], yerr=[means[finite] - low[finite], high[finite] - means[finite]],
                    fmt="none", ecolor="#999999", capsize=2, lw=1)
        ax.scatter(x, means, c=colours, s=18, zorder=3)
        ax.set_xticks(x, [f"{_bin_label(feature.name, b['low'], b['high'], tr)}\nn={b['situations']}" for b in bins],
                      fontsize=6.5)
        ax.set_title(tr(feature.words), fontsize=8.5)
        ax.tick_params(labelsize=6.5)
        ax.set_xlim(-0.5, len(bins) - 0.5)
        _number_axis(ax.yaxis, tr)
    for ax in axes[len(features):]:
        ax.axis("off")
    fig.suptitle(tr("{claim}: points difference per situation by feature (“{action}” − “{alternative}”)",
                    claim=claim.id, action=tr(claim.action), alternative=tr(claim.alternative)), fontsize=9.5)
    fig.supylabel(tr("final points per situation"), fontsize=8)
    return fig


# --- HTML -----------------------------------------------------------------------------------------------------

def figure_specs(directory: Path | str, claim_id: str, tr: Translator = EN) -> list[FigureSpec]:
    """The decision-level figure of one claim (none when DIR holds no situations of it)."""
    if claim_rows(directory, claim_id) is None or claim_id not in _claims():
        return []
    claim = _claims()[claim_id]
    return [FigureSpec(f"decisions-{claim_id}", tr("Points difference per situation by feature, with 95% "
                                                   "intervals; green: the claim's action is better, red: worse."),
                       tr(claim.features[0].words), partial(breakdown_figure, result_of(directory, claim_id), claim),
                       tr)]


def claim_section_html(directory: Path | str, claim_id: str, tr: Translator, table_html, figures_html) -> str:
    """The decision-level section of one claim, or "" when DIR holds no situations of it; `table_html(Table)` and
    `figures_html(group, specs, alt, tr)` are the HTML report's own (reports.html)."""
    rows = claim_rows(directory, claim_id)
    if rows is None or claim_id not in _claims():
        return ""
    e = html.escape
    claim = _claims()[claim_id]
    result = result_of(directory, claim_id)
    sentences = "".join(f'<p class="effect">{e(text)}</p>' for text in condition_texts(result, claim, tr))
    figures = figures_html(f"decisions-{claim_id}", figure_specs(directory, claim_id, tr), claim_id, tr)
    return (f'<section id="decisions-{e(claim_id)}" class="decisions">'
            f"<h2>{e(tr('{claim} decision by decision', claim=claim_id))}</h2>"
            f"<p>{e(design_text(rows, claim, tr, resample_of(directory)))}</p>"
            f"<p>{e(summary_text(result, claim, tr))}</p>"
            f"<h3>{e(tr('When it holds'))}</h3>{sentences}<p>{e(caveat_text(tr))}</p>"
            f"<h3>{e(tr('By field'))}</h3>{table_html(field_table(result, tr))}"
            f"<h3>{e(tr('By feature'))}</h3>{table_html(breakdown_table(result, claim, tr))}"
            f"{figures}</section>")


def overview_table(directory: Path | str, ids: list[str], tr: Translator = EN) -> Table:
    columns = [tr("Claim"), tr("Situations"), tr("Share better (points)"), tr("Points difference"),
               tr("Rank difference")]
    rows = []
    for cid in ids:
        s = result_of(directory, cid)["summary"]
        rows.append([cid, str(s["situations"]), _share(s["share_points"], tr), _ci(s["mean_points"], 0, tr),
                     _ci(s["mean_rank"], 3, tr)])
    return Table(columns, rows)


def overview_sentences(directory: Path | str, ids: list[str], tr: Translator = EN) -> list[tuple[str, str]]:
    """(claim id, its conditions sentence on points) of every claim."""
    from tsumolab.analyzer.decisions.stats import condition_sentence

    return [(cid, condition_sentence(result_of(directory, cid)["conditions"]["points"], _claims()[cid], tr))
            for cid in ids]


# --- PDF ------------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PdfLayout:
    """The PDF report's page helpers (reports.pdf), handed in so that this module does not import it."""

    A4: tuple
    axes: Callable
    page: Callable
    text_block: Callable
    draw_table: Callable


def claim_page(directory: Path | str, claim_id: str, tr: Translator, layout: PdfLayout) -> Figure | None:
    """The decision-level PDF page of one claim, or None when DIR holds no situations of it."""
    A4, _axes, _page, _text_block, draw_table = (layout.A4, layout.axes, layout.page, layout.text_block,
                                                 layout.draw_table)
    rows = claim_rows(directory, claim_id)
    if rows is None or claim_id not in _claims():
        return None
    claim = _claims()[claim_id]
    result = result_of(directory, claim_id)
    fig = _page()
    used = _text_block(fig, 0.4, [
        (tr("{claim} decision by decision", claim=claim_id), {"size": 15, "weight": "bold"}),
        (design_text(rows, claim, tr, resample_of(directory)), {"size": 8, "wrap": 125}),
        (summary_text(result, claim, tr), {"size": 8.5, "wrap": 118}),
        *[(text, {"size": 8.5, "wrap": 104, "weight": "bold"}) for text in condition_texts(result, claim, tr)],
        (caveat_text(tr), {"size": 7.5, "wrap": 130}),
    ])
    fields = field_table(result, tr)
    height = 0.3 + 0.25 * (len(fields.rows) + 1)
    draw_table(_axes(fig, 0.45, used + 0.05, A4[0] - 0.9, height), fields, size=7,
               widths=[12, 10, 18, 18, 25, 25, 21])
    top = used + height + 0.25
    breakdown = breakdown_table(result, claim, tr)
    plot_height = 3.3
    table_height = A4[1] - top - plot_height - 0.5
    draw_table(_axes(fig, 0.45, top, A4[0] - 0.9, table_height), breakdown, size=6.5,
               widths=[26, 15, 10, 17, 26, 26])
    plot = breakdown_figure(result, claim, tr)
    # the breakdown figure is drawn as an image at the bottom of the page
    import io

    from matplotlib.image import imread

    buffer = io.BytesIO()
    plot.savefig(buffer, format="png", dpi=160)
    buffer.seek(0)
    image = _axes(fig, 0.45, A4[1] - plot_height - 0.4, A4[0] - 0.9, plot_height)
    image.imshow(imread(buffer))
    image.axis("off")
    return fig


def decision_pages(directory: Path | str, claim_ids, tr: Translator, layout: PdfLayout) -> list[Figure]:
    return [page for page in (claim_page(directory, c, tr, layout) for c in claim_ids) if page is not None]
