"""`tsumolab review GAME`: every decision of one player of a real game, evaluated with advise."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from tsumolab.cli import cli
from tsumolab.analyzer.advise.objectives import OBJECTIVES
from tsumolab.analyzer.errors import InputError
from tsumolab.commands.advise import DEALS, PRIOR
from tsumolab.commands.report import lang_option

ROUND_PATTERN = re.compile(r"([ESWN])([1-4])(?:\.(\d+))?")
TOP = 5  # costliest decisions listed


def _hands(record, kyoku: str | None) -> tuple[int, ...] | None:
    """The 1-based hands named by --kyoku (E2 = every E2 hand, E2.1 = E2 with one honba)."""
    if kyoku is None:
        return None
    wanted = []
    for word in (w.strip() for w in kyoku.split(",") if w.strip()):
        m = ROUND_PATTERN.fullmatch(word)
        if m is None:
            raise InputError(f"--kyoku: {word!r} is not a round such as E2 or E2.1 (E2 with one honba)")
        found = [i for i, h in enumerate(record.hands, 1)
                 if h[0].get("bakaze") == m[1] and h[0].get("kyoku") == int(m[2])
                 and (m[3] is None or h[0].get("honba", 0) == int(m[3]))]
        if not found:
            raise InputError(f"--kyoku: the game has no hand {word}")
        wanted += found
    return tuple(sorted(set(wanted)))


def _seat(record, seat: int | None, player: str | None) -> int:
    if seat is not None and player is not None:
        raise InputError("give --seat or --player, not both")
    if player is not None:
        if player not in record.names:
            raise InputError(f"--player: no player {player!r} in the game (players: {', '.join(record.names)})")
        return record.names.index(player)
    if seat is None:
        raise InputError("give the player to review: --seat N (0 = the first dealer) or --player NAME")
    if not 0 <= seat <= 3:
        raise InputError(f"--seat must be 0..3, got {seat}")
    return seat


def _text(result) -> str:
    import polars as pl

    s = result.summary
    objective = s["spec"].get("objective", "points")
    f = ".0f" if objective == "points" else ".2f"
    unit = "points" if objective == "points" else objective
    lines = [f"review of seat {s['spec']['seat']} ({s['game']['title'] or s['game']['source']}): {s['judged']} "
             f"decisions judged, {s['agree']} agree with the recommended option, {s['within_noise']} within noise, "
             f"{s['mistakes']} clear mistakes; loss {s['total_loss']:{f}} {unit}; rating {s['rating']}"]
    if s["not_expressible"]:
        lines.append(f"{s['not_expressible']} decision(s) whose choice the engine cannot express")
    lines.append(f"{'hand':6s} {'decisions':>9s} {'loss':>8s} {'mistakes':>8s}")
    for h in s["hands"]:
        lines.append(f"{h['round']}.{h['honba']:<3d} {h['decisions']:9d} {h['loss']:8{f}} {h['mistakes']:8d}")
    worst = result.decisions.filter(pl.col("expressible")).sort("loss", descending=True).head(TOP)
    if worst.height:
        lines.append("costliest decisions:")
        for r in worst.iter_rows(named=True):
            lines.append(f"  {r['round']}.{r['honba']} #{r['decision']:<3d} {r['kind']:8s} chose {r['choice']!r}, "
                         f"recommended {r['recommended_option']!r}: loss {r['loss']:{f}} ± {r['loss_ci95']:{f}}"
                         + ("  MISTAKE" if r["mistake"] else ""))
    lines.append(f"tables: {result.out / 'review.parquet'}, {result.out / 'review.json'}")
    return "\n".join(lines)


@cli.command("review")
@click.argument("game", metavar="GAME")
@click.option("--seat", type=int, default=None, help="Seat to review: 0..3, 0 = the first dealer.")
@click.option("--player", default=None, metavar="NAME", help="Player to review, by name (instead of --seat).")
@click.option("--kyoku", default=None, metavar="ROUNDS", help="Only these hands, e.g. E2,S3.1 (S3 with one honba).")
@click.option("--rollouts", type=int, default=300, show_default=True,
              help="advise's budget of determinizations per decision.")
@click.option("--horizon", type=click.Choice(["hand", "match"]), default=None,
              help="Play out to the end of the hand or of the game (default: hand for --value points, else match).")
@click.option("--value", "objective", type=click.Choice(OBJECTIVES), default="points", show_default=True,
              help="What an outcome is worth, as for `tsumolab advise --value`: points, uma, rank-points or "
                   "tenhou-dan.")
@click.option("--deal", type=click.Choice(DEALS), default="progress", show_default=True,
              help="How the hidden hands are dealt, as for `tsumolab advise --deal`.")
@click.option("--seat-policies", default=None, metavar="SPEC",
              help="Rollout policy of the four seats, as for `tsumolab run --seats` (default: fast-expert in "
                   "the riichi modes, baseline in bloodshed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the determinizations.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes (hands run in parallel).")
@click.option("--out", type=click.Path(path_type=Path), default=Path("review-out"), show_default=True,
              help="Directory for review.parquet and review.json.")
@click.option("--resume", is_flag=True, help="Continue an interrupted review in --out.")
@click.option("--overwrite", is_flag=True, help="Replace the review in --out.")
@click.option("--no-report", is_flag=True, help="Skip the HTML and PDF report.")
@PRIOR
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def review_command(game, seat, player, kyoku, rollouts, horizon, objective, deal, seat_policies, seed, jobs, out,
                   resume, overwrite, no_report, prior, langs, as_json):
    """Review every decision of one player of GAME: a Mahjong Soul record (decoded JSON with head and data), a
    tenhou.net/6 JSON log, Tenhou's mjlog XML (.mjlog, .xml) or an mjai log (JSON lines or array), any of them
    plain or gzip. Each decision is evaluated with `tsumolab advise`
    from what the player saw then; the player's choice is set against the best option with the 95% interval of
    the difference, and flagged a clear mistake only when that interval excludes zero and the loss is at least
    300 points (README, "review"). Writes OUT/review.parquet (one row per option of every decision), OUT/review.json
    and the report OUT/review.html and OUT/review.pdf.

    \b
    Examples:
      tsumolab review game.json --seat 0
      tsumolab review game.json --player Alice --kyoku E3,S1 --rollouts 1000 --jobs 2 --out review-alice
    """
    from tsumolab.analyzer.advise.objectives import horizon_for
    from tsumolab.analyzer.advise.position_advice import default_rollout_field
    from tsumolab.analyzer.games.read import read_game
    from tsumolab.analyzer.review.game_review import ReviewSpec, check_reviewable
    from tsumolab.analyzer.review.study import run_review

    record = read_game(game)
    check_reviewable(record)  # before the progress bar shows (run_review checks again for the Python API)
    if rollouts < 1:
        raise InputError(f"--rollouts must be at least 1, got {rollouts}")
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    try:
        horizon = horizon_for(objective, horizon)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    seat_policies = seat_policies or default_rollout_field(record.variant)
    spec = ReviewSpec(_seat(record, seat, player), _hands(record, kyoku), rollouts, horizon, seat_policies, seed,
                      objective, deal, prior)
    with click.progressbar(length=1, label="hands reviewed", file=sys.stderr) as bar:
        def progress(done, total):
            bar.length = total
            bar.update(done - bar.pos)

        result = run_review(record, spec, out, jobs, resume, overwrite, progress)
    click.echo(json.dumps(result.summary, ensure_ascii=False) if as_json else _text(result))
    if not no_report:
        from tsumolab.reports.review import render_review

        for paths in render_review(out, langs):
            for path in paths:
                click.echo(f"report: {path}", err=as_json)
