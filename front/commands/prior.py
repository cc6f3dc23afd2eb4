"""`tsumolab prior`: the discard prior advise falls back on (analyzer.prior): train it on real games, or measure
how often it picks the discard players made."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.prior.train import EPOCHS, HIDDEN

LOGS = click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
JOBS = click.option("--jobs", "-j", type=int, default=1, show_default=True, help="Worker processes reading games.")
QUIET = click.option("--quiet", "-q", is_flag=True, help="No progress bar.")


def _share(same: int, of: int) -> str:
    return f"{same / of:.1%}" if of else "—"


@cli.group("prior")
def prior_group() -> None:
    """The discard prior: which tile strong players discard, and whether they declare riichi with it, learned from
    their games. advise, review and bench recommend its discard where the rollouts cannot tell the best discards
    apart."""


def _read(logs, jobs: int, quiet: bool):
    from tsumolab.analyzer.prior.extract import logs_discards

    if jobs < 1:
        raise InputError(f"--jobs must be at least 1, got {jobs}")
    if quiet:
        return logs_discards(list(logs), jobs)
    with click.progressbar(length=len(logs), label="games read", file=sys.stderr) as bar:
        return logs_discards(list(logs), jobs, lambda done, total: bar.update(done - bar.pos))


@prior_group.command("train")
@LOGS
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="The weights file to write (.npz); `tsumolab prior check --prior FILE` measures it.")
@click.option("--hidden", type=click.IntRange(1, 1024), default=HIDDEN, show_default=True, help="Hidden units.")
@click.option("--epochs", type=click.IntRange(1, 200), default=EPOCHS, show_default=True,
              help="Passes over the data.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the initial weights and the order.")
@JOBS
@QUIET
def train_command(logs, out, hidden, epochs, seed, jobs, quiet):
    """Train a discard prior on the own-turn discards of every seat of LOGS (riichi games: tenhou.net/6 JSON,
    Tenhou mjlog XML, mjai, Mahjong Soul records).

    \b
    Example:
      tsumolab prior train phoenix/*.mjlog --out my-prior.npz --jobs 2
    """
    from tsumolab.analyzer.prior.train import agreement, choices_of, fit, riichi_agreement, riichi_choices_of

    discards = _read(logs, jobs, quiet)
    choices, riichi = choices_of(discards), riichi_choices_of(discards)
    if len(choices.chosen) == 0:
        raise InputError("the games hold no discard to learn from")
    if quiet:
        prior = fit(choices, riichi, hidden, epochs, seed)
    else:
        with click.progressbar(length=epochs, label="epochs", file=sys.stderr) as bar:
            prior = fit(choices, riichi, hidden, epochs, seed, lambda done, total: bar.update(1))
    agrees, riichi_agrees = agreement(prior, choices), riichi_agreement(prior, riichi)
    about = {"games": len(logs), "discards": len(agrees), "hidden": hidden, "epochs": epochs, "seed": seed,
             "training_top1": round(float(agrees.mean()), 4), "riichi_decisions": len(riichi_agrees),
             "training_riichi": round(float(riichi_agrees.mean()), 4) if len(riichi_agrees) else None}
    prior = type(prior)(**{**prior.__dict__, "about": about})
    out.parent.mkdir(parents=True, exist_ok=True)
    prior.save(out)
    click.echo(f"{out}: trained on {len(agrees):,} discards of {len(logs)} games; it picks the player's "
               f"discard in {agrees.mean():.1%} of them, and the player's riichi or dama in "
               f"{_share(int(riichi_agrees.sum()), len(riichi_agrees))} of {len(riichi_agrees):,} ready discards "
               "that could declare")


@prior_group.command("check")
@LOGS
@click.option("--prior", "prior_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="A weights file of `tsumolab prior train` (default: the prior tsumolab ships).")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@JOBS
@QUIET
def check_command(logs, prior_file, as_json, jobs, quiet):
    """How often the prior picks the discard the players of LOGS made, overall and by the hand's shanten before
    the discard, and their riichi or dama where a discard left the hand ready. Give games it was not trained on.

    \b
    Example:
      tsumolab prior check tests/data/tenhou6/*.json
    """
    from tsumolab.analyzer.prior.model import DiscardPrior, PriorError, shipped_prior
    from tsumolab.analyzer.prior.train import agreement, best_shanten, choices_of, riichi_agreement, riichi_choices_of

    try:
        prior = shipped_prior() if prior_file is None else DiscardPrior.load(prior_file)
    except PriorError as exc:
        raise InputError(str(exc)) from None
    discards = _read(logs, jobs, quiet)
    choices = choices_of(discards)
    if len(choices.chosen) == 0:
        raise InputError("the games hold no discard to check")
    riichi_agrees = riichi_agreement(prior, riichi_choices_of(discards))
    agrees = agreement(prior, choices)
    shanten = best_shanten(choices)
    table = {"all": [int(agrees.sum()), len(agrees)]}
    for label, low, high in (("ready", 0, 0), ("one away", 1, 1), ("two away", 2, 2), ("three or more", 3, 99)):
        pick = (shanten >= low) & (shanten <= high)
        table[label] = [int(agrees[pick].sum()), int(pick.sum())]
    riichi = {"same": int(riichi_agrees.sum()), "of": len(riichi_agrees)}
    if as_json:
        click.echo(json.dumps({"games": len(logs), "agreement": {k: {"same": a, "of": n} for k, (a, n) in
                                                                 table.items()}, "riichi_or_dama": riichi},
                              indent=1))
        return
    for label, (same, of) in table.items():
        click.echo(f"{label:>14}: {_share(same, of):>6} of {of:,} discards")
    click.echo(f"{'riichi or dama':>14}: {_share(riichi['same'], riichi['of']):>6} of {riichi['of']:,} ready "
               "discards that could declare")
