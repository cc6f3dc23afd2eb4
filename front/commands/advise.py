"""`tsumolab advise`: evaluate every option of a position (bloodshed, riichi, shura) by paired Monte Carlo
rollouts."""

from __future__ import annotations

import json

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError

PROGRESS_FROM = 5_000  # rollouts (options × determinizations) from which a progress bar is shown
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


def check_variant(variant: str) -> None:
    from tsumolab.sims.modes import MODES

    if not isinstance(variant, str) or variant not in MODES:
        raise InputError(f"unknown mode {variant!r} (modes: {', '.join(MODES)})")
    from tsumolab.analyzer.engines import advise_modes

    if variant not in advise_modes():
        raise InputError(f"advise does not support mode {variant!r} yet (supported: {', '.join(advise_modes())})")


def run_advice(position: dict, rollouts: int, horizon: str, seat_policies: str, seed: int, jobs: int,
               show_progress: bool = False, options_filter=None, deal: str = "progress") -> dict:
    """Validate the position, enumerate its options, roll them out; the result dict of analyzer.advise.evaluate."""
    from tsumolab.analyzer.advise.evaluate import advise
    from tsumolab.analyzer.advise.bloodshed_position import PositionError
    from tsumolab.policies.registry import PolicyError

    try:
        tools = _tools(position)
        state, seat, sampler_of, decision = tools.read_position(position, deal)
    except PositionError as exc:
        raise InputError(f"bad position: {exc}") from None
    except (TypeError, ValueError, KeyError, IndexError, OverflowError) as exc:  # a shape the checks did not foresee
        raise InputError(f"bad position: {type(exc).__name__}: {exc}") from None
    try:
        sampler = sampler_of(seat_policies)
    except (PolicyError, KeyError, ValueError) as exc:
        raise InputError(f"--seat-policies: {exc}") from None
    options = tools.options(sampler, state)
    wanted = options_filter if options_filter is not None else position.get("options")
    if wanted is not None and not (isinstance(wanted, list) and all(isinstance(w, str) for w in wanted)):
        raise InputError("bad position: options must be a list of option labels such as \"discard 5m\"")
    if wanted is not None:
        labels = dict(options)
        unknown = [w for w in wanted if w not in labels]
        if unknown:
            raise InputError(f"illegal option {unknown[0]!r} here (legal: {', '.join(labels)})")
        options = [(w, labels[w]) for w in dict.fromkeys(wanted)]
    try:
        sampler.rollouts(state, seat, [options[0][1]], seed, 0, 1, False)
    except ValueError:
        raise InputError("bad position: the hidden tiles cannot be dealt consistently with the view") from None
    parallel = None
    if jobs > 1:
        from joblib import Parallel

        parallel = Parallel(n_jobs=jobs)
    total = rollouts
    if show_progress and rollouts * len(options) >= PROGRESS_FROM:
        with click.progressbar(length=total, label="rollouts", file=click.get_text_stream("stderr")) as bar:
            state_of_bar = {"done": 0}

            def progress(done, _total):
                bar.update(done - state_of_bar["done"])
                state_of_bar["done"] = done

            result = advise(state, seat, options, sampler, rollouts, horizon, seed, jobs, progress, parallel)
    else:
        result = advise(state, seat, options, sampler, rollouts, horizon, seed, jobs, None, parallel)
    result["seat"] = seat
    result["decision"] = decision
    result["seed"] = seed
    result["seat_policies"] = seat_policies
    return result


def _tools(position: dict):
    from tsumolab.analyzer.engines import tools_for
    from tsumolab.sims.modes import DEFAULT_MODE

    return tools_for(position.get("variant", DEFAULT_MODE))


def format_table(result: dict) -> str:
    """A short readable table, recommended option first."""
    unit = "final points" if result["horizon"] == "match" else "points to hand end"
    lines = [f"seat {result['seat']} {result['decision']} decision: {result['determinizations']} determinizations"
             f"{' (stopped early: one option clearly best)' if result['stopped_early'] else ''}; value = {unit}",
             f"{'option':16s} {'EV':>9s} {'±95%':>7s} {'vs best':>9s} {'±95%':>7s} {'win':>6s} {'deal-in':>7s} "
             f"{'drawn':>6s}" + ("  rank" if result["horizon"] == "match" else "")]
    for i, r in enumerate(result["options"]):
        lines.append(f"{r['option']:16s} {r['mean']:9.0f} {r['ci95']:7.0f} {r['diff_to_best']:9.0f} "
                     f"{r['diff_ci95']:7.0f} {r['win_rate']:6.1%} {r['deal_in_rate']:7.1%} "
                     f"{r['exhaustive_draw_rate']:6.1%}" + (f"  {r['mean_rank']:.2f}" if "mean_rank" in r else "")
                     + ("  <- recommended" if i == 0 else ""))
    return "\n".join(lines)


@cli.command("advise")
@click.argument("position_file", metavar="POSITION")
@click.option("--variant", default=None, metavar="MODE", help="Mode of the position (default: the position's "
              "`variant`, else bloodshed): bloodshed, riichi or shura.")
@click.option("--rollouts", type=int, default=1000, show_default=True,
              help="Budget of determinizations; every option is played once on each.")
@click.option("--horizon", type=click.Choice(["hand", "match"]), default="hand", show_default=True,
              help="Value: points gained to the end of the hand, or final points (and rank) of the match.")
@click.option("--seat-policies", default="baseline", show_default=True, metavar="SPEC",
              help="Rollout policy of the four seats, as for `tsumolab run --seats`.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the determinizations.")
@click.option("--deal", type=click.Choice(DEALS), default="progress", show_default=True,
              help="Bloodshed: how the other hands are dealt back. progress = each to a progress (void tiles "
                   "held, shanten) drawn from the baseline field's play at this wall count and meld count; "
                   "uniform = uniformly among all consistent arrangements (far from winning: overvalues "
                   "waiting). Riichi modes always walk riichi seats to tenpai and deal the rest uniformly.")
@click.option("--jobs", type=int, default=1, show_default=True, help="Worker processes.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object instead of the table.")
def advise_command(position_file, variant, rollouts, horizon, seat_policies, seed, deal, jobs, as_json):
    """Evaluate every option of one seat's decision by paired Monte Carlo rollouts: the hidden tiles are
    resampled consistently with what the seat sees, each option is played out on the same samples with
    the same random streams, and the options are compared sample by sample (mean, 95% interval,
    difference to the best, win / deal-in / exhaustive-draw rates). Stops early when one option is
    clearly best. POSITION is a JSON file or `-` (format: analyzer/advise/bloodshed_position.py, README "advise");
    `tsumolab replay --hand H --advise N` writes one from any simulated hand.

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
    result = run_advice(position, rollouts, horizon, seat_policies, seed, jobs, show_progress=not as_json, deal=deal)
    click.echo(json.dumps(result, ensure_ascii=False) if as_json else format_table(result))
