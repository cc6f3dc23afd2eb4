"""Build the progress table of a field policy (sims.bloodshed.progress) from simulated Bloodshed play.

`python -m tsumolab.analyzer.advise.bloodshed_progress --policy baseline --matches 400` plays that many matches
with four seats of the policy, stops at every decision and counts the progress of every seat that has declared its
void, has not won and holds 13 - 3·melds tiles, then writes the counts (int64, sims.bloodshed.progress.TABLE_SHAPE) to
sims/bloodshed/progress-<policy>.npy (temporary file, then renamed). The counts depend only on the policy, the
seed and the number of matches.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
import numpy as np
from tqdm import tqdm

DEFAULT_MATCHES, DEFAULT_SEED = 400, 1


def count_matches(policy: str, matches: int, seed: int, first_match: int = 1, progress_bar: bool = False):
    """Counts of (v, s) by (wall bucket, melds) over `matches` matches of four `policy` seats."""
    from tsumolab.analyzer.advise.bloodshed_sampler import match_hands
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.bloodshed import engine
    from tsumolab.sims.shanten_tables import lookup_tables
    from tsumolab.sims.bloodshed.progress import TABLE_SHAPE, count_progress
    from tsumolab.sims.bloodshed.resume import N_WALL, stop_at_decision
    from tsumolab.sims.bloodshed.rules import BloodshedRules
    from tsumolab.sims.bloodshed.state import ST, obs_of
    from tsumolab.sims.events import N_EVENT_COLS
    from tsumolab.sims.seating import seat_hooks

    hooks, params = seat_hooks(parse_seats(",".join([policy] * 4)))
    play = (*hooks, params, BloodshedRules().to_array(), lookup_tables())
    tables = play[-1]
    counts = np.zeros(TABLE_SHAPE, np.int64)
    counters = np.zeros(engine.N_COUNTERS, np.int64)
    events = np.zeros((0, N_EVENT_COLS), np.int32)
    ev = np.zeros(3, np.int64)
    S = np.zeros(ST.SIZE, np.int32)
    obs = obs_of(S)
    for match_id in tqdm(range(first_match, first_match + matches), unit=" matches", file=sys.stderr,
                         disable=not progress_bar):
        for _hand in match_hands(S, seed, match_id):
            n = 0
            while stop_at_decision(S, n, *play, counters, events, ev):
                count_progress(obs, N_WALL - S[ST.pos], tables, counts)
                n += 1
    return counts


def write_table(counts: np.ndarray, path: Path) -> None:
    from tsumolab.analyzer.tables import replacing

    with replacing(path) as temp, open(temp, "wb") as f:
        np.save(f, counts)


@click.command()
@click.option("--policy", default="baseline", show_default=True, help="Field policy playing all four seats.")
@click.option("--matches", type=click.IntRange(1), default=DEFAULT_MATCHES, show_default=True,
              help="Matches played (four hands each unless a seat busts).")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Root seed of the walls.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Output .npy file [default: the package's sims/bloodshed/progress-<policy>.npy].")
def main(policy, matches, seed, out):
    """Count how far the hands of a field policy have progressed (void tiles held, shanten of the rest) by wall
    tiles left and melds, from simulated Bloodshed play: the table the progress determinization deals from."""
    from tsumolab.policies.registry import PolicyError
    from tsumolab.sims.bloodshed.progress import table_path

    try:
        counts = count_matches(policy, matches, seed, progress_bar=True)
    except PolicyError as e:
        raise click.BadParameter(str(e), param_hint="--policy") from None
    path = out or Path(str(table_path(policy)))
    write_table(counts, path)
    click.echo(f"{path}: {int(counts.sum()):,} hand observations from {matches:,} matches")


if __name__ == "__main__":
    main()
