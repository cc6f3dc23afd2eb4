"""Build the progress table of a riichi mode's field (sims.riichi.progress) from simulated play.

`python -m tsumolab.analyzer.advise.riichi_progress --mode riichi --policy baseline --matches 400` plays that many
matches with four seats of the policy, stops at every decision and counts the shanten of every seat that is not in
riichi, has not won and holds 13 − 3·melds tiles, then writes the counts (int64, sims.riichi.progress.TABLE_SHAPE)
to sims/riichi/progress-<mode>-<policy>.npy (temporary file, then renamed). The counts depend only on the mode, the
policy, the seed and the number of matches.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
import numpy as np
from tqdm import tqdm

from tsumolab.analyzer.advise.bloodshed_progress import write_table
from tsumolab.analyzer.advise.riichi_view import VARIANTS

DEFAULT_MATCHES, DEFAULT_SEED = 400, 1
MODES = VARIANTS


def count_matches(mode: str, policy: str, matches: int, seed: int, first_match: int = 1,
                  progress_bar: bool = False) -> np.ndarray:
    """Counts of the shanten by (wall bucket, melds) over `matches` matches of four `policy` seats."""
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.modes import get_mode
    from tsumolab.sims.riichi.positions import RiichiEngine
    from tsumolab.sims.riichi.progress import TABLE_SHAPE, count_progress

    table = RiichiEngine(parse_seats(policy), get_mode(mode).rules_class(), root_seed=seed)
    counts = np.zeros(TABLE_SHAPE, np.int64)
    for match_id in tqdm(range(first_match, first_match + matches), unit=" matches", file=sys.stderr,
                         disable=not progress_bar):
        for hand_no in range(1, 100):
            pos = table.at_decision(match_id, hand_no, 0)
            if pos is None:
                break
            while pos.pending:
                count_progress(pos.obs, table.tables, counts)
                table.advance(pos, None, pos.n_decisions + 1)
    return counts


@click.command()
@click.option("--mode", type=click.Choice(MODES), default="riichi", show_default=True, help="Mode played.")
@click.option("--policy", default="baseline", show_default=True, help="Field policy playing all four seats.")
@click.option("--matches", type=click.IntRange(1), default=DEFAULT_MATCHES, show_default=True,
              help="Matches played.")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Root seed of the walls.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Output .npy file [default: the package's sims/riichi/progress-<mode>-<policy>.npy].")
def main(mode, policy, matches, seed, out):
    """Count how far the hands of a field policy have progressed (shanten) by wall tiles left and melds, from
    simulated play of a riichi mode: the table the riichi progress determinization deals from."""
    from tsumolab.policies.registry import PolicyError
    from tsumolab.sims.riichi.progress import table_path

    try:
        counts = count_matches(mode, policy, matches, seed, progress_bar=True)
    except PolicyError as e:
        raise click.BadParameter(str(e), param_hint="--policy") from None
    path = out or Path(str(table_path(mode, policy)))
    write_table(counts, path)
    click.echo(f"{path}: {int(counts.sum()):,} hand observations from {matches:,} matches")


if __name__ == "__main__":
    main()
