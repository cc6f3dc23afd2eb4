"""How close advise's estimates come to the true-state values, by how the hidden hands are dealt (issue 30).

A position stopped in simulated play has a true state. At own-turn decisions of a riichi-mode field, each option
is valued twice over: by advise's rollouts from determinizations (what the seat can know; `uniform` or `progress`
deal, sims.riichi.determinize) and by rollouts from the true state with only the unseen wall resampled
(analyzer.decisions.rollouts, the oracle), both to the end of the hand. Reported per deal:
- `bias`: the mean over positions and options of (estimate − true value) of each option's difference to the
  true best option (a deal that makes waiting pay shows here);
- `rmse` of the same differences;
- `regret`: the true value given up by taking the estimate's best option instead of the true best (points per
  decision), and `top1`, how often both pick the same option.

`python -m tsumolab.analyzer.advise.deal_check --mode riichi --positions 40` prints the table.
"""

from __future__ import annotations

import sys

import click
import numpy as np

DEALS = ("uniform", "progress")


def own_turns(mode: str, n: int, seed: int, wall_range=(20, 50)):
    """Up to n own-turn positions (at least two options) of a baseline field, one per hand, mid-hand."""
    from tsumolab.analyzer.engines import riichi_engine
    from tsumolab.sims.decisions import D_TURN
    from tsumolab.sims.riichi.observation import ROBS

    table = riichi_engine(mode, "baseline", seed, "{}")
    pick = np.random.default_rng(seed)
    out = []
    for match_id in range(10 * n):
        for hand_no in range(1, 9):
            full = table.play_hand(match_id, hand_no)
            if full is None:
                break
            for k in pick.permutation(full.n_decisions)[:6]:
                pos = table.at_decision(match_id, hand_no, int(k))
                if pos is not None and pos.decision == D_TURN and \
                        wall_range[0] <= pos.view[ROBS.wall_left] <= wall_range[1]:
                    out.append(pos)
                    break
            if len(out) >= n:
                return out
    return out


def compare(mode: str = "riichi", positions: int = 40, samples: int = 200, seed: int = 1) -> dict:
    """{deal: {bias, rmse, regret, top1}} over `positions` own turns (module doc), `samples` rollouts each."""
    from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler, riichi_options
    from tsumolab.analyzer.decisions.rollouts import riichi_state_rollouts

    samplers = {deal: RiichiSampler("baseline", mode, {}, deal) for deal in DEALS}
    errors = {deal: [] for deal in DEALS}
    regret = {deal: [] for deal in DEALS}
    top1 = {deal: [] for deal in DEALS}
    found = own_turns(mode, positions, seed)
    for i, pos in enumerate(found):
        options = riichi_options(pos.view, samplers["uniform"].tables)
        if len(options) < 2:
            continue
        answers = np.array([a for _, a in options], np.int64)
        true = np.zeros((answers.size, samples))
        ranks = np.zeros((answers.size, samples), np.int32)
        s = samplers["uniform"]
        if riichi_state_rollouts(pos.play_state(), pos.seat, answers, seed + i, 0, samples, s.seating,
                                 s.rule_arrays, true, ranks, False) < 0:
            continue
        t = true.mean(axis=1)
        best = int(np.argmax(t))
        for deal, sampler in samplers.items():
            est = sampler.rollouts(pos, pos.seat, list(answers), seed + 1000 + i, 0, samples, False)[0].mean(axis=1)
            errors[deal] += list(np.delete((est - est[best]) - (t - t[best]), best))
            chosen = int(np.argmax(est))
            regret[deal].append(t[best] - t[chosen])
            top1[deal].append(chosen == best)
    return {deal: {"positions": len(regret[deal]), "bias": round(float(np.mean(errors[deal])), 1),
                   "rmse": round(float(np.sqrt(np.mean(np.square(errors[deal])))), 1),
                   "regret": round(float(np.mean(regret[deal])), 1), "top1": round(float(np.mean(top1[deal])), 3)}
            for deal in DEALS}


@click.command()
@click.option("--mode", type=click.Choice(["riichi", "shura"]), default="riichi", show_default=True)
@click.option("--positions", type=click.IntRange(1), default=40, show_default=True)
@click.option("--samples", type=click.IntRange(2), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
def main(mode, positions, samples, seed):
    """Print how close advise's estimates come to the true-state values with each deal (module doc)."""
    result = compare(mode, positions, samples, seed)
    click.echo(f"{'deal':10s} {'positions':>9s} {'bias':>8s} {'rmse':>8s} {'regret':>8s} {'top-1':>7s}")
    for deal, r in result.items():
        click.echo(f"{deal:10s} {r['positions']:9d} {r['bias']:8.1f} {r['rmse']:8.1f} {r['regret']:8.1f} "
                   f"{r['top1']:7.1%}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
