"""The discard prior (analyzer.prior) at compiled speed: the discard strong players most likely make on their turn,
and whether they declare riichi with it, from the weights that ship with tsumolab (WEIGHTS_FILE).

The weights are read when this module is imported and frozen into the kernels below as constants (numba compiles
global arrays into the machine code), so the kernel cache must change with them: sims.compile_cache hashes
WEIGHTS_FILE with the sources. The network is analyzer.prior.model's, its standardization folded into the
weights (the same scores up to rounding); the riichi judgement is analyzer.prior.riichi's logistic one.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

import numba as nb
import numpy as np

from tsumolab.policies.discard_features import N_FEATURES
from tsumolab.policies.riichi_api import ROBS
from tsumolab.policies.riichi_common import live_waits_after
from tsumolab.policies.win_value import ready_value

WEIGHTS_FILE = "human-discards.npz"
"""package data of tsumolab.policies, written by `tsumolab prior train` (analyzer.prior.model.DiscardPrior.save)"""
TIE = 1e-9  # scores closer than this are equal (kinds of the same features score the same up to rounding)
N_SITUATION = 14  # the last columns of a feature row describe the seat's situation, the same on every row
RIICHI_FEATURES = (
    "ron points without riichi (thousands; 0 for a wait without a yaku)",
    "ron points with riichi (thousands)",
    "share of the live winning tiles that give a yaku without riichi",
    "live winning tiles",
    "tiles left in the wall",
    "dealer",
    "other seats in riichi",
    "other seats with open melds",
    "points behind the leader (thousands)",
    "rank (1 first)",
    "South round",
)
"""the riichi judgement's inputs (riichi_features), as analyzer.prior.riichi learns from them"""
N_RIICHI = len(RIICHI_FEATURES)


def weights_path() -> Path:
    """The file system path of the shipped weights."""
    return Path(str(files("tsumolab.policies").joinpath(WEIGHTS_FILE)))


def _folded_weights():
    with np.load(weights_path(), allow_pickle=False) as data:
        w = {name: np.asarray(data[name], np.float64) for name in data.files if name not in ("about", "version")}
    if w["mean"].shape != (N_FEATURES,) or w["riichi_mean"].shape != (N_RIICHI,):
        raise RuntimeError(f"{weights_path()} was trained on other features; train it again (tsumolab prior train)")
    shift = w["mean"] / w["scale"]
    return (np.ascontiguousarray(w["hidden"] / w["scale"][:, None]), w["bias"] - shift @ w["hidden"],
            w["linear"] / w["scale"], -float(shift @ w["linear"]), np.ascontiguousarray(w["out"]),
            w["riichi_mean"], w["riichi_scale"], w["riichi_weights"])


HIDDEN, BIAS, LINEAR, LINEAR_BIAS, OUT, RIICHI_MEAN, RIICHI_SCALE, RIICHI_WEIGHTS = _folded_weights()
N_HIDDEN = HIDDEN.shape[1]
N_OWN = N_FEATURES - N_SITUATION


@nb.njit(cache=True)
def likeliest_discard(rows, allowed):
    """The allowed kind (allowed uint8[34]) of the highest score, rows float64[34, N_FEATURES] as
    policies.discard_features fills them; the lower kind on equal scores (within TIE). Jit-compiled."""
    first = 0
    while not allowed[first]:
        first += 1
    base = BIAS.copy()  # the hidden units' input from the situation, shared by every row
    base_score = LINEAR_BIAS
    for f in range(N_OWN, N_FEATURES):
        v = rows[first, f]
        if v != 0.0:
            for h in range(N_HIDDEN):
                base[h] += v * HIDDEN[f, h]
            base_score += v * LINEAR[f]
    units = np.empty(N_HIDDEN)
    choice, choice_score = -1, -np.inf
    for k in range(first, 34):
        if not allowed[k]:
            continue
        units[:] = base
        score = base_score
        for f in range(N_OWN):
            v = rows[k, f]
            if v != 0.0:  # most columns are 0/1 flags
                for h in range(N_HIDDEN):
                    units[h] += v * HIDDEN[f, h]
                score += v * LINEAR[f]
        for h in range(N_HIDDEN):
            if units[h] > 0.0:
                score += units[h] * OUT[h]
        if score > choice_score + TIE:
            choice, choice_score = k, score
    return choice


@nb.njit(cache=True)
def riichi_features(obs, tables, kind, x):
    """x (float64[N_RIICHI]) gets the RIICHI_FEATURES of discarding `kind` at the turn `obs`;
    returns False (x untouched) when the seat may not declare riichi or the discard leaves the hand not ready.
    Jit-compiled."""
    if not obs[ROBS.can_riichi] or not obs[ROBS.hand + kind]:
        return False
    waits = np.zeros(34, np.int64)
    live_waits_after(obs, tables, kind, waits)
    if not waits.any():
        return False
    hand = obs[ROBS.hand:ROBS.hand + 34].copy()
    hand[kind] -= 1
    dama, with_yaku, live = ready_value(obs, hand, waits, 0)
    riichi = ready_value(obs, hand, waits, 1)[0]
    seat = obs[ROBS.seat]
    own = obs[ROBS.points + seat]
    others_riichi, others_open, lead, rank = 0, 0, own, 1
    for p in range(4):
        points = obs[ROBS.points + p]
        lead = max(lead, points)
        if points > own or (points == own and p < seat):  # ties by seat order, as sims.table_state.rank_of
            rank += 1
        if p != seat:
            others_riichi += 1 if obs[ROBS.riichi + p] > 0 else 0
            others_open += obs[ROBS.open + p]
    x[0] = dama / 1000
    x[1] = riichi / 1000
    x[2] = with_yaku / live if live else 0.0
    x[3] = live
    x[4] = obs[ROBS.wall_left]
    x[5] = 1.0 if seat == obs[ROBS.dealer] else 0.0
    x[6] = others_riichi
    x[7] = others_open
    x[8] = (lead - own) / 1000
    x[9] = rank
    x[10] = 1.0 if obs[ROBS.round] >= 4 else 0.0
    return True


@nb.njit(cache=True)
def declares_riichi(obs, tables, kind):
    """Whether strong players most likely declare riichi discarding `kind` (the judgement's P(riichi) > 1/2);
    False when they may not. Jit-compiled."""
    x = np.empty(N_RIICHI)
    if not riichi_features(obs, tables, kind, x):
        return False
    z = RIICHI_WEIGHTS[N_RIICHI]
    for i in range(N_RIICHI):
        z += (x[i] - RIICHI_MEAN[i]) / RIICHI_SCALE[i] * RIICHI_WEIGHTS[i]
    return z > 0.0
