"""`tsumolab advise`: evaluate every option of a position (Bloodshed or a riichi-family mode) by paired Monte
Carlo rollouts."""

from __future__ import annotations

import json
import sys

import click

from tsumolab.cli import cli
from tsumolab.analyzer.advise.position_advice import advise_position, check_variant
from tsumolab.analyzer.advise.objectives import OBJECTIVES, horizon_for
from tsumolab.analyzer.errors import InputError

PROGRESS_FROM = 1_000  # determinizations from which a progress bar is shown
DEALS = ("progress", "uniform")
"""how a Bloodshed determinization deals the other hands (analyzer.advise.bloodshed_sampler.Sampler): to a progress
drawn from the baseline field's play (sims.bloodshed.progress), or uniformly (sims.bloodshed.determinize)"""


def load_position(source: str) -> dict:
    """The JSON object in file `source` (or stdin for `-`)."""
    from tsumolab.analyzer.json_input import read_json

    position = read_json(source, "JSON position")
    if not isinstance(position, dict):
        raise InputError(f"{source}: a position is a JSON object")
    return position


PRIOR = click.option("--prior/--no-prior", default=True, show_default=True,
                     help="Riichi modes: among the options the rollouts cannot tell apart, recommend the discard "
                          "strong players most likely make (the discard prior, `tsumolab prior`) rather than the "
                          "rollout policy's.")


def run_advice(position: dict, rollouts: int, horizon: str, seat_policies: str | None, seed: int, jobs: int,
               show_progress: bool = False, options_filter=None, deal: str = "progress",
               objective: str = "points", prior: bool = True) -> dict:
    """analyzer.advise.position_advice.advise_position, with a progress bar on stderr for long analyses."""
    if not (show_progress and rollouts >= PROGRESS_FROM):
        return advise_position(position, rollouts, horizon, seat_policies, seed, jobs, None, options_filter, deal,
                               objective, prior=prior)
    with click.progressbar(length=rollouts, label="rollouts", file=sys.stderr) as bar:
        shown = {"done": 0}

        def progress(done, _total):
            bar.update(done - shown["done"])
            shown["done"] = done

        return advise_position(position, rollouts, horizon, seat_policies, seed, jobs, progress, options_filter,
                               deal, objective, prior=prior)


def _value_text(result: dict) -> str:
    if result.get("objective", "points") != "points":
        return result["value"]
    return "final points" if result["horizon"] == "match" else "points to hand end"


def format_table(result: dict) -> str:
    """A short readable table, best mean first, the recommended option marked; `n` is each option's samples
    (racing drops the clearly worse early)."""
    f = ".0f" if result.get("objective", "points") == "points" else ".2f"
    lines = [f"seat {result['seat']} {result['decision']} decision: {result['determinizations']} determinizations"
             f"{' (stopped early: one option clearly best)' if result['stopped_early'] else ''}; "
             f"value = {_value_text(result)}",
             f"{'option':16s} {'EV':>9s} {'±95%':>7s} {'vs best':>9s} {'±95%':>7s} {'win':>6s} {'deal-in':>7s} "
             f"{'drawn':>6s} {'n':>5s}" + ("  rank" if result["horizon"] == "match" else "")]
    for r in result["options"]:
        lines.append(f"{r['option']:16s} {r['mean']:9{f}} {r['ci95']:7{f}} {r['diff_to_best']:9{f}} "
                     f"{r['diff_ci95']:7{f}} {r['win_rate']:6.1%} {r['deal_in_rate']:7.1%} "
                     f"{r['exhaustive_draw_rate']:6.1%} {r['rollouts']:5d}"
                     + (f"  {r['mean_rank']:.2f}" if "mean_rank" in r else "")
                     + ("  <- recommended" if r["option"] == result["recommended"] else ""))
    if result["recommended"] != result["options"][0]["option"]:
        check = result.get("first_choice_confirmation")
        again = (f"; measured again on {check['rollouts']} fresh determinizations: {check['loss']:{f}} ± "
                 f"{check['ci95']:{f}} behind it" if check and result["recommended"] == result["policy_choice"] else "")
        lines.append(f"recommended: {result['recommended']}: the rollouts cannot tell it from the best mean and strong "
                     f"players (or the rollout policy) prefer it{again}")
    return "\n".join(lines)


@cli.command("advise")
@click.argument("position_file", metavar="POSITION")
@click.option("--variant", default=None, metavar="MODE", help="Mode of the position (default: the position's "
              "`variant`, else bloodshed); `tsumolab variants` lists the modes.")
@click.option("--rollouts", type=int, default=1000, show_default=True,
              help="Budget of determinizations; every option is played once on each.")
@click.option("--horizon", type=click.Choice(["hand", "match"]), default=None,
              help="Play out to the end of the hand or of the match (default: hand for --value points, else match).")
@click.option("--value", "objective", type=click.Choice(OBJECTIVES), default="points", show_default=True,
              help="What an outcome is worth: points (gained to the hand's end, or final points with --horizon "
                   "match); uma = final points in thousands + 15/5/-5/-15 by rank; rank-points = Mahjong Soul "
                   "ranked Throne room rank points (fourth place weighs most); tenhou-dan = Tenhou Phoenix dan points "
                   "(rank only). README \"advise\".")
@click.option("--seat-policies", default=None, metavar="SPEC",
              help="Rollout policy of the four seats, as for `tsumolab run --seats` (default: fast-expert in "
                   "the riichi modes, baseline in bloodshed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the determinizations.")
@click.option("--deal", type=click.Choice(DEALS), default="progress", show_default=True,
              help="Bloodshed: how the other hands are dealt back. progress = each to a progress (void tiles "
                   "held, shanten) drawn from the baseline field's play at this wall count and meld count; "
                   "uniform = uniformly among all consistent arrangements (far from winning: overvalues "
                   "waiting). Riichi modes: riichi seats are always dealt tenpai; with progress the others get "
                   "the shanten of the field's hands at this wall count and meld count (sims/riichi/progress.py).")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
@PRIOR
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of the table.")
def advise_command(position_file, variant, rollouts, horizon, objective, seat_policies, seed, deal, jobs, prior,
                   as_json):
    """Evaluate every option of one seat's decision by paired Monte Carlo rollouts: the hidden tiles are
    resampled consistently with what the seat sees, each option is played out on the same samples with
    the same random streams, and the options are compared sample by sample (mean, 95% interval,
    difference to the best, win / deal-in / exhaustive-draw rates). Stops early when one option is
    clearly best. Recommends the rollout policy's own choice (in the riichi modes, the discard prior's tile for
    a discard) when the rollouts cannot tell it from the best mean, else the best mean. POSITION is a JSON file
    or `-` (format: analyzer/advise/bloodshed_position.py, README "advise"); `tsumolab replay --hand H --advise
    N` writes one from any simulated hand.

    \b
    Examples:
      tsumolab advise examples/positions/b1-ron.json
      tsumolab replay --seed 7 --match 0 --hand 1 --advise 20 | tsumolab advise - --json
    """
    position = load_position(position_file)
    variant = variant or position.get("variant", "bloodshed")
    check_variant(variant)
    if position.get("variant", variant) != variant:
        raise InputError(f"--variant {variant} but the position is {position.get('variant')!r}")
    if rollouts < 1:
        raise InputError(f"--rollouts must be at least 1, got {rollouts}")
    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    try:
        horizon = horizon_for(objective, horizon)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    result = run_advice(position, rollouts, horizon, seat_policies, seed, jobs, show_progress=not as_json, deal=deal,
                        objective=objective, prior=prior)
    click.echo(json.dumps(result, ensure_ascii=False) if as_json else format_table(result))
