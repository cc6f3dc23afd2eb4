"""How close advise's estimates come to the true-state values, by how the hidden hands are dealt (issue 30).

A position stopped in simulated play has a true state. At own-turn decisions of a riichi-mode field (or
at decisions that may win), each option
is valued by advise's rollouts from determinizations (what the seat can know; `uniform` or `progress` deal,
sims.riichi.determinize) and by rollouts from the true state with only the unseen wall resampled
(analyzer.decisions.rollouts, the oracle), both to the end of the hand. The oracle's rollouts come in two
independent halves, so that the noise of the one that judges does not favour the one that chooses. Per deal:
- `value`: the oracle's value (second half) of the option the deal recommends, averaged over the positions, and
  `vs uniform`, its paired difference to the uniform deal's with a 95% interval: the points per decision that
  the deal's recommendations gain in the true state;
- `rmse`: the root mean square of (estimate − oracle, first half) of each option's difference to the first
  option, a measure of how far the estimates are from the true-state values;
- `top1`: how often the deal recommends the oracle's best option (first half).

`python -m tsumolab.analyzer.advise.deal_check --mode riichi --positions 40` prints the table.
"""

from __future__ import annotations

import sys

import click
import numpy as np

DEALS = ("uniform", "progress")


def positions_of(mode: str, n: int, seed: int, kind: str = "turns", wall_range=(20, 50)):
    """Up to n positions of a baseline field, one per hand: own turns mid-hand (`turns`), or the first decision
    that may win (`wins`: tsumo or ron, any wall count)."""
    from tsumolab.analyzer.engines import riichi_engine
    from tsumolab.sims.decisions import D_TURN
    from tsumolab.sims.riichi.observation import ROBS

    def mid_hand_turn(pos) -> bool:
        return pos.decision == D_TURN and wall_range[0] <= pos.view[ROBS.wall_left] <= wall_range[1]

    table = riichi_engine(mode, "baseline", seed, "{}")
    pick = np.random.default_rng(seed)
    out = []
    for match_id in range(10 * n):
        for hand_no in range(1, 9):
            full = table.play_hand(match_id, hand_no)
            if full is None:
                break
            if kind == "wins":
                pos = _first_win_decision(table, match_id, hand_no)
                if pos is not None:
                    out.append(pos)
            else:
                for k in pick.permutation(full.n_decisions)[:6]:
                    pos = table.at_decision(match_id, hand_no, int(k))
                    if pos is not None and mid_hand_turn(pos):
                        out.append(pos)
                        break
            if len(out) >= n:
                return out
    return out


def _first_win_decision(table, match_id: int, hand_no: int):
    """The hand's first decision where a seat may win (tsumo or ron), or None."""
    from tsumolab.sims.decisions import D_REACT, D_TURN
    from tsumolab.sims.riichi.observation import ROBS

    pos = table.at_decision(match_id, hand_no, 0)
    while pos is not None and pos.pending:
        if pos.decision in (D_TURN, D_REACT) and pos.view[ROBS.can_win] == 1:
            return pos
        table.advance(pos, None, pos.n_decisions + 1)
    return None


def compare(mode: str = "riichi", positions: int = 40, samples: int = 200, seed: int = 1,
            kind: str = "turns") -> dict:
    """{deal: {positions, value, vs_uniform, vs_uniform_ci95, rmse, top1}} over `positions` own turns (module
    doc), `samples` rollouts per option and deal (and twice that for the oracle)."""
    from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler, riichi_options
    from tsumolab.analyzer.decisions.rollouts import riichi_state_rollouts

    samplers = {deal: RiichiSampler("baseline", mode, {}, deal) for deal in DEALS}
    value = {deal: [] for deal in DEALS}
    errors = {deal: [] for deal in DEALS}
    top1 = {deal: [] for deal in DEALS}
    s = samplers["uniform"]
    for i, pos in enumerate(positions_of(mode, positions, seed, kind)):
        options = riichi_options(pos.view, s.tables)
        if len(options) < 2:
            continue
        answers = np.array([a for _, a in options], np.int64)
        halves = []
        for half in range(2):
            true = np.zeros((answers.size, samples))
            ranks = np.zeros((answers.size, samples), np.int32)
            if riichi_state_rollouts(pos.play_state(), pos.seat, answers, seed + i, half * samples, samples,
                                     s.seating, s.rule_arrays, s.public(pos, pos.seat)[1], true, ranks,
                                     False) < 0:
                break
            halves.append(true.mean(axis=1))
        if len(halves) < 2:
            continue
        judge, oracle = halves
        for deal, sampler in samplers.items():
            est = sampler.rollouts(pos, pos.seat, list(answers), seed + 1000 + i, 0, samples, False)[0].mean(axis=1)
            chosen = int(np.argmax(est))
            value[deal].append(oracle[chosen])
            errors[deal] += list(((est - est[0]) - (judge - judge[0]))[1:])
            top1[deal].append(chosen == int(np.argmax(judge)))
    out = {}
    for deal in DEALS:
        gain = np.array(value[deal]) - np.array(value["uniform"])
        out[deal] = {"positions": len(value[deal]), "value": round(float(np.mean(value[deal])), 1),
                     "vs_uniform": round(float(gain.mean()), 1),
                     "vs_uniform_ci95": round(float(1.96 * gain.std(ddof=1) / np.sqrt(gain.size)), 1),
                     "rmse": round(float(np.sqrt(np.mean(np.square(errors[deal])))), 1),
                     "top1": round(float(np.mean(top1[deal])), 3)}
    return out


@click.command()
@click.option("--mode", type=click.Choice(["riichi", "shura"]), default="riichi", show_default=True)
@click.option("--positions", type=click.IntRange(1), default=40, show_default=True)
@click.option("--samples", type=click.IntRange(2), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--kind", type=click.Choice(["turns", "wins"]), default="turns", show_default=True,
              help="Own turns mid-hand, or the first decision of each hand where a seat may win.")
def main(mode, positions, samples, seed, kind):
    """Print how close advise's estimates come to the true-state values with each deal (module doc)."""
    result = compare(mode, positions, samples, seed, kind)
    click.echo(f"{'deal':10s} {'positions':>9s} {'value':>8s} {'vs uniform':>16s} {'rmse':>8s} {'top-1':>7s}")
    for deal, r in result.items():
        gain = f"{r['vs_uniform']:+.0f} ± {r['vs_uniform_ci95']:.0f}"
        click.echo(f"{deal:10s} {r['positions']:9d} {r['value']:8.0f} {gain:>16s} {r['rmse']:8.0f} {r['top1']:7.1%}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
