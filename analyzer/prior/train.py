"""Train the discard prior (analyzer.prior.model) on real games: the own-turn discards of every seat
(analyzer.prior.extract) as feature rows (policies.discard_features), fitted by gradient descent (Adam) on the
log-likelihood of the discards the players made among those they could make; and its riichi judgement
(analyzer.prior.riichi) on the turns where a discard left the hand ready and riichi could be declared.

The same games, options and seed give the same weights up to the rounding of the machine's linear algebra."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tsumolab.analyzer.prior.extract import Discards
from tsumolab.analyzer.prior.model import DiscardPrior

HIDDEN, EPOCHS, BATCH, RATE, DECAY = 128, 10, 1024, 2e-3, 1e-5  # the shipped prior's (README)


@dataclass
class Choices:
    """The discard decisions as the network sees them: rows float32[n, MAX_OPTIONS, F], the features of each
    kind the seat could discard (policies.discard_features.features_of_views); kinds int8[n, MAX_OPTIONS], those
    kinds (-1 past the last); chosen int64[n], the place in them of the kind discarded."""

    rows: np.ndarray
    kinds: np.ndarray
    chosen: np.ndarray

    @property
    def allowed(self) -> np.ndarray:
        return self.kinds >= 0


def choices_of(discards: Discards) -> Choices:
    """The discards' decisions as Choices; a decision whose discarded kind was not allowed (none in a readable
    log) is dropped."""
    from tsumolab.policies.discard_features import MAX_OPTIONS, N_FEATURES, features_of_views
    from tsumolab.sims.riichi.observation import ROBS
    from tsumolab.sims.shanten_tables import lookup_tables

    n = len(discards)
    rows = np.zeros((n, MAX_OPTIONS, N_FEATURES), np.float32)
    kinds = np.zeros((n, MAX_OPTIONS), np.int8)
    features_of_views(discards.views, lookup_tables(), ROBS.SIZE, rows, kinds)
    hit = kinds == discards.kinds[:, None].astype(np.int8)
    keep = hit.any(axis=1)
    return Choices(rows[keep], kinds[keep], hit[keep].argmax(axis=1))


def agreement(prior: DiscardPrior, choices: Choices) -> np.ndarray:
    """Per decision, whether the prior's answer is the kind discarded."""
    out = np.zeros(len(choices.chosen), bool)
    for start in range(0, len(out), 8192):
        part = slice(start, start + 8192)
        scores = np.where(choices.allowed[part], prior.scores(choices.rows[part]), -np.inf)
        out[part] = scores.argmax(axis=1) == choices.chosen[part]
    return out


@dataclass
class RiichiChoices:
    """The riichi-or-dama decisions: rows float64[m, N_RIICHI] (analyzer.prior.riichi.RIICHI_FEATURES), declared
    bool[m]."""

    rows: np.ndarray
    declared: np.ndarray


def riichi_choices_of(discards: Discards) -> RiichiChoices:
    """The discards after which the hand was ready and riichi could be declared, as RiichiChoices."""
    from tsumolab.analyzer.prior.riichi import riichi_rows
    from tsumolab.sims.shanten_tables import lookup_tables

    rows, index = riichi_rows(discards.views, discards.kinds, lookup_tables())
    return RiichiChoices(rows, discards.riichi[index])


def riichi_agreement(prior: DiscardPrior, choices: RiichiChoices) -> np.ndarray:
    """Per decision, whether the prior's judgement is the player's riichi or dama."""
    return (prior.riichi_chance(choices.rows) > 0.5) == choices.declared


def fit(choices: Choices, riichi: RiichiChoices, hidden: int = HIDDEN, epochs: int = EPOCHS, seed: int = 0,
        progress=None) -> DiscardPrior:
    """The prior fitted to make the chosen discards and the riichi decisions; `progress(epoch, epochs)` after each
    epoch of the discards."""
    from tsumolab.analyzer.prior.riichi import fit_riichi

    from tsumolab.policies.discard_features import VERSION

    rows, allowed, chosen = choices.rows, choices.allowed, choices.chosen
    if len(chosen) == 0:
        raise ValueError("no discards to train on")
    n, _, n_feat = rows.shape
    held = rows[allowed]
    mean = held.mean(axis=0)
    scale = np.maximum(held.std(axis=0), 1e-3)
    del held
    rng = np.random.default_rng(seed)
    params = {"hidden": rng.normal(0.0, 1.0 / np.sqrt(n_feat), (n_feat, hidden)), "bias": np.zeros(hidden),
              "out": rng.normal(0.0, 1.0 / np.sqrt(hidden), hidden), "linear": np.zeros(n_feat)}
    params = {k: v.astype(np.float32) for k, v in params.items()}
    adam = Adam(params)
    mean32, scale32 = mean.astype(np.float32), scale.astype(np.float32)
    for epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, BATCH):
            batch = order[start:start + BATCH]
            x = (rows[batch] - mean32) / scale32
            adam.step(gradients(params, x, allowed[batch], chosen[batch]))
        if progress is not None:
            progress(epoch + 1, epochs)
    return DiscardPrior(mean=mean, scale=scale, version=VERSION, **fit_riichi(riichi.rows, riichi.declared),
                        **{k: v.astype(np.float64) for k, v in params.items()})


def gradients(params: dict, x: np.ndarray, allowed: np.ndarray, chosen: np.ndarray) -> dict:
    """The gradient of the batch's mean negative log-likelihood (plus DECAY · |weights|²) by each array."""
    b, k, f = x.shape
    pre = x @ params["hidden"] + params["bias"]
    act = np.maximum(pre, 0.0)
    scores = x @ params["linear"] + act @ params["out"]
    scores = np.where(allowed, scores, -np.inf)
    scores -= scores.max(axis=1, keepdims=True)
    prob = np.exp(scores)
    prob /= prob.sum(axis=1, keepdims=True)
    prob[np.arange(b), chosen] -= 1.0
    d_score = prob / b
    d_act = d_score[..., None] * params["out"] * (pre > 0)
    flat_x = x.reshape(-1, f)
    flat_score = d_score.reshape(-1)
    return {"linear": flat_score @ flat_x + DECAY * params["linear"],
            "out": flat_score @ act.reshape(b * k, -1) + DECAY * params["out"],
            "hidden": flat_x.T @ d_act.reshape(b * k, -1) + DECAY * params["hidden"],
            "bias": d_act.sum(axis=(0, 1))}


class Adam:
    """Adam's update of `params` in place (rate RATE, the usual 0.9 / 0.999 averages)."""

    def __init__(self, params: dict):
        self.params = params
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, grads: dict) -> None:
        self.t += 1
        fix1, fix2 = 1 - 0.9 ** self.t, 1 - 0.999 ** self.t
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            self.params[k] -= (RATE * (self.m[k] / fix1) / (np.sqrt(self.v[k] / fix2) + 1e-8)).astype(np.float32)


def best_shanten(choices: Choices) -> np.ndarray:
    """The lowest shanten a discard leaves, per decision, read back from the situation columns of its rows."""
    from tsumolab.policies.discard_features import FEATURES

    first = FEATURES.index("best shanten 0")
    return choices.rows[:, 0, first:first + 4].argmax(axis=1)
