"""The report of a review (`tsumolab review`): DIR/review.html and DIR/review.pdf (review.<lang>.* for zh, ja).

It reads only the review directory (analyzer.review.study): the summary, a chart of the points lost through the
game, then per hand each decision with the player's tiles, the choice, the best option and the loss with its
interval; the table at each decision (every seat's river and melds, the dora indicators, the tile decided on) and
every option of it in a fold-out (in the PDF: a timeline of the rivers under each hand's decisions)."""

from __future__ import annotations

import html
import json
from functools import partial
from pathlib import Path

import polars as pl
from matplotlib.figure import Figure

from tsumolab.analyzer.i18n import DEFAULT_LANGUAGE, Translator
from tsumolab.reports.content import FigureSpec, Table



def load_review(directory: Path | str) -> tuple[dict, pl.DataFrame, pl.DataFrame]:
    """(summary, option rows, decision rows) of a review directory."""
    from tsumolab.analyzer.review.game_review import decision_summary

    out = Path(directory)
    record = json.loads((out / "review.json").read_text(encoding="utf-8"))
    table = pl.read_parquet(out / "review.parquet")
    summary = record["summary"]
    return summary, table, decision_summary(table, objective_of(summary))


def objective_of(summary: dict) -> str:
    return summary["spec"].get("objective", "points")


def value_digits(summary: dict) -> int:
    """Decimals of the values shown: whole points, or hundredths of the values counted in thousands."""
    return 0 if objective_of(summary) == "points" else 2


def _option_words(tr: Translator) -> dict[str, str]:
    return {"nine terminals": tr.p("option", "nine terminals"), "chi middle": tr.p("option", "chi middle"),
            "chi low": tr.p("option", "chi low"), "chi high": tr.p("option", "chi high"),
            "exchange": tr.p("option", "exchange"), "discard": tr.p("option", "discard"),
            "riichi": tr.p("option", "riichi"), "tsumo": tr.p("option", "tsumo"), "ron": tr.p("option", "ron"),
            "pass": tr.p("option", "pass"), "pon": tr.p("option", "pon"), "kan": tr.p("option", "kan"),
            "take": tr.p("option", "take"), "open": tr.p("option", "open"), "decline": tr.p("option", "decline"),
            "lock": tr.p("option", "lock")}


def option_text(label: str, tr: Translator) -> str:
    """An advise option label ("discard 5m", "chi low"; A "take 3p (dead wall)", D "riichi 5p face down") in the
    report's language; tiles stay as written."""
    if label.endswith(" face down"):
        return option_text(label.removesuffix(" face down"), tr) + " " + tr.p("option", "face down")
    if label.endswith(" (dead wall)"):
        return option_text(label.removesuffix(" (dead wall)"), tr) + f" ({tr.p('option', 'dead wall')})"
    for word, text in _option_words(tr).items():
        if label == word or label.startswith(word + " "):
            return text + label[len(word):]
    return label


def decision_text(kind: str, tr: Translator) -> str:
    return {"turn": tr.p("decision", "turn"), "react": tr.p("decision", "react"), "rob": tr.p("decision", "rob"),
            "exchange": tr.p("decision", "exchange"), "pick": tr.p("decision", "pick"),
            "open": tr.p("decision", "open"), "lock": tr.p("decision", "lock")}.get(kind, kind)


def player_name(summary: dict, tr: Translator) -> str:
    seat = summary["spec"]["seat"]
    return summary["game"]["names"][seat] or tr("seat {seat}", seat=seat)


def verdict_text(row: dict, tr: Translator) -> str:
    if not row["expressible"]:
        return tr("not evaluated")
    if row["agrees"]:
        return tr("best")
    if row["mistake"]:
        return tr("clear mistake")
    return tr("within noise") if row["within_noise"] else tr("worse")


def summary_text(summary: dict, tr: Translator) -> str:
    return tr("{judged} decisions judged: {agree} agree with the best option, {noise} are within noise of it, "
              "{mistakes} are clear mistakes. Points lost in all: {loss}. Game rating: {rating} (100 = every "
              "choice the best).", judged=tr.number(summary["judged"]), agree=tr.number(summary["agree"]),
              noise=tr.number(summary["within_noise"]), mistakes=tr.number(summary["mistakes"]),
              loss=tr.number(summary["total_loss"], value_digits(summary)),
              rating=tr("n/a") if summary["rating"] is None else tr.number(summary["rating"], 1))


def method_text(summary: dict, tr: Translator) -> str:
    spec = summary["spec"]
    return tr("Each decision is evaluated from what the player saw then, by {rollouts} paired rollouts per option "
              "(value: {value}). The best option is the seat's preferred answer when the rollouts cannot tell it "
              "from the highest mean (measured again on {rollouts} fresh rollouts before it is set aside), else the "
              "highest mean; the preferred answer is strong players' in the riichi modes (a win, else the tile the "
              "discard prior picks) and the rollout policy's own choice otherwise. A choice's loss against it is "
              "measured again on {rollouts} fresh rollouts; the choice is a clear mistake when both measurements put "
              "its loss above zero with 95% confidence and the loss is at least 300 points.",
              rollouts=tr.number(spec["rollouts"]), value=value_name(objective_of(summary), spec["horizon"], tr))


def value_name(objective: str, horizon: str, tr: Translator) -> str:
    if objective == "uma":
        return tr("final points in thousands plus uma")
    if objective == "rank-points":
        return tr("ranked rank points")
    return tr("points to the end of the hand") if horizon == "hand" else tr("final points")


def decisions_table(decisions: pl.DataFrame, tr: Translator, digits: int = 0) -> Table:
    rows = []
    for r in decisions.iter_rows(named=True):
        loss = tr("n/a") if r["loss"] is None else tr.number(r["loss"], digits)
        ci = tr("n/a") if r["loss_ci95"] is None else tr.number(r["loss_ci95"], digits)
        rows.append([str(r["decision"] + 1), decision_text(r["kind"], tr), r["tiles"], option_text(r["choice"], tr),
                     option_text(r["recommended_option"], tr), loss, ci, verdict_text(r, tr)])
    return Table([tr("#"), tr("decision"), tr("tiles"), tr("choice"), tr("best option"), tr("loss"), tr("±95%"),
                  tr("verdict")], rows)


def table_at(row: dict, seat: int, tr: Translator) -> Table:
    """The table at one decision: a line per seat (the reviewed one marked) with its river and melds, then the
    dora indicators and the tile decided on."""
    rivers, melds = row.get("rivers") or [""] * 4, row.get("melds") or [""] * 4
    rows = [[tr("seat {seat}", seat=p) + (" ◀" if p == seat else ""), rivers[p] or "—", melds[p] or "—"]
            for p in range(4)]
    rows.append([tr("dora indicators"), row.get("dora") or "—", ""])
    if row.get("tile"):
        rows.append([tr("tile decided on"), row["tile"], ""])
    return Table([tr("seat"), tr("river (* riichi)"), tr("melds")], rows)


def timeline_table(decisions: pl.DataFrame, tr: Translator) -> Table:
    """Per decision of a hand: its number, the tile decided on and every seat's river (the PDF's timeline)."""
    rows = [[str(r["decision"] + 1), r.get("tile") or "—", *((r.get("rivers") or [""] * 4))]
            for r in decisions.iter_rows(named=True)]
    return Table([tr("#"), tr("tile"), *(tr("river of seat {seat}", seat=p) for p in range(4))], rows)


def options_table(options: pl.DataFrame, tr: Translator, digits: int = 0) -> Table:
    rows = [[option_text(r["option"], tr) + (" ◀" if r["chosen"] else ""), tr.signed(r["mean"], digits),
             tr.number(r["ci95"], digits), tr.signed(r["diff_to_best"], digits), tr.number(r["diff_ci95"], digits),
             tr.percent(r["win_rate"]),
             tr.percent(r["deal_in_rate"])] for r in options.iter_rows(named=True)]
    return Table([tr("option"), tr("EV"), tr("±95%"), tr("vs best"), tr("±95%"), tr("win"), tr("deal-in")], rows)


def loss_figure(decisions: pl.DataFrame, tr: Translator) -> Figure:
    fig = Figure(figsize=(8, 3), layout="constrained")
    draw_loss(fig.add_subplot(), decisions, tr)
    return fig


def draw_loss(ax, decisions: pl.DataFrame, tr: Translator) -> None:
    """Points lost, summed decision by decision through the game; a tick at each hand's first decision."""
    judged = decisions.filter(pl.col("expressible"))
    losses = judged["loss"].fill_null(0).cum_sum().to_list()
    ax.step(range(1, len(losses) + 1), losses, where="post", color="#c62828")
    firsts = judged.with_row_index("i").group_by("hand", maintain_order=True).agg(pl.first("i"), pl.first("round"),
                                                                                 pl.first("honba"))
    ax.set_xticks([i + 1 for i in firsts["i"].to_list()],
                  [f"{r}.{h}" for r, h in zip(firsts["round"].to_list(), firsts["honba"].to_list())], fontsize=7)
    ax.set_xlabel(tr("decisions, hand by hand"))
    ax.set_ylabel(tr("points lost (sum)"))
    ax.set_title(loss_title(tr))
    ax.grid(alpha=0.3)


def loss_title(tr: Translator) -> str:
    return tr("Points lost through the game")


def _options_of(table: pl.DataFrame, hand: int, decision: int) -> pl.DataFrame:
    return table.filter((pl.col("hand") == hand) & (pl.col("decision") == decision))


def review_html(directory: Path | str, tr: Translator) -> str:
    from tsumolab.reports.html import _figure, _table, page_html

    e = html.escape
    summary, table, decisions = load_review(directory)
    digits = value_digits(summary)
    name = player_name(summary, tr)
    title = tr("tsumolab: review of {player}", player=name)
    figure = FigureSpec("review-loss", tr("Each step is one decision's loss against the best option."),
                        loss_title(tr), partial(loss_figure, decisions), tr)
    sections = [f'<section id="summary"><h2>{e(tr("Summary"))}</h2><p class="lead">{e(summary_text(summary, tr))}'
                f"</p><p>{e(method_text(summary, tr))}</p>{_figure(figure, tr('review'), tr)}</section>"]
    for hand in decisions["hand"].unique(maintain_order=True).to_list():
        rows = decisions.filter(pl.col("hand") == hand)
        head = rows.row(0, named=True)
        seat = summary["spec"]["seat"]
        folds = "".join(
            f"<details><summary>{e(tr('table and options of decision {n}', n=r['decision'] + 1))}</summary>"
            f"{_table(table_at(r, seat, tr))}"
            f"{_table(options_table(_options_of(table, hand, r['decision']), tr, digits))}"
            "</details>" for r in rows.iter_rows(named=True))
        heading = tr("{round}, {honba} honba", round=head["round"], honba=head["honba"])
        sections.append(f'<section id="hand-{hand}"><h2>{e(heading)}</h2>{_table(decisions_table(rows, tr, digits))}'
                        f'{folds}'
                        "</section>")
    body = f"<header><h1>{e(title)}</h1><p>{e(summary['game']['title'])}</p></header>" + "".join(sections)
    return page_html(title, body, tr)


def review_pages(directory: Path | str, tr: Translator) -> list[Figure]:
    """The PDF pages: the summary with the chart, then the decisions of each hand, a page each."""
    from tsumolab.reports.pdf import A4, _axes, _page, _text_block, draw_table

    summary, _table, decisions = load_review(directory)
    name = player_name(summary, tr)
    first = _page()
    used = _text_block(first, 0.4, [(tr("tsumolab: review of {player}", player=name), {"size": 15, "weight": "bold"}),
                                    (summary_text(summary, tr), {"size": 9, "wrap": 110}),
                                    (method_text(summary, tr), {"size": 8, "wrap": 125})])
    draw_loss(_axes(first, 1.1, used + 0.3, A4[0] - 1.7, 3.2), decisions, tr)  # room for the y label
    pages = [first]
    for hand in decisions["hand"].unique(maintain_order=True).to_list():
        rows = decisions.filter(pl.col("hand") == hand)
        head = rows.row(0, named=True)
        page = _page()
        top = _text_block(page, 0.4, [(tr("{round}, {honba} honba", round=head["round"], honba=head["honba"]),
                                        {"size": 13, "weight": "bold"})])
        height = (A4[1] - top - 0.6) / 2
        draw_table(_axes(page, 0.4, top + 0.1, A4[0] - 0.8, height - 0.2),
                   decisions_table(rows, tr, value_digits(summary)), size=7, widths=[3, 8, 18, 14, 14, 7, 6, 12])
        draw_table(_axes(page, 0.4, top + 0.1 + height, A4[0] - 0.8, height - 0.2), timeline_table(rows, tr),
                   size=5.5, widths=[3, 4, 23, 23, 23, 23])
        pages.append(page)
    return pages


def render_review(directory: Path | str, langs=(DEFAULT_LANGUAGE,)) -> list:
    """DIR/review.html and DIR/review.pdf (review.<lang>.* for other languages), written atomically; a list of
    (html path, pdf path)."""
    from tsumolab.reports.render import pdf_of_pages, write_reports

    out = Path(directory)
    return write_reports(out, "review", tuple(langs), lambda tr: review_html(out, tr),
                         pdf_of_pages(lambda tr: review_pages(out, tr)))
