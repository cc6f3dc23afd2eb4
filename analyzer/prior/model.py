"""The discard prior: a small network that scores each discard the seat may make from its features
(policies.discard_features) and names the one strong players most likely discard there.

Score of a discard with features x (standardized by the training data's mean and scale):
    linear · x + out · relu(hidden · x + bias)
The discard with the highest score is the prior's answer; a softmax over the allowed discards is its probability.
Whether to declare riichi with a discard that leaves the hand ready is a second, logistic judgement
(analyzer.prior.riichi), kept in the same file.
The shipped weights (policies/human-discards.npz, package data of `policies`, whose riichi `expert` plays them
compiled: policies.discard_prior) were trained by `tsumolab prior train` on the games README names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

ARRAYS = ("mean", "scale", "hidden", "bias", "out", "linear", "riichi_mean", "riichi_scale", "riichi_weights")


class PriorError(ValueError):
    """A weights file that cannot be used: unreadable, or trained on other features."""


@dataclass(frozen=True)
class DiscardPrior:
    """The network's arrays (module doc): mean, scale [F]; hidden [F, H]; bias, out [H]; linear [F]; and the
    riichi judgement's: riichi_mean, riichi_scale [R], riichi_weights [R + 1]. `about` says what it was trained
    on (games, decisions, held-out agreement), as `tsumolab prior train` wrote it."""

    mean: np.ndarray
    scale: np.ndarray
    hidden: np.ndarray
    bias: np.ndarray
    out: np.ndarray
    linear: np.ndarray
    riichi_mean: np.ndarray
    riichi_scale: np.ndarray
    riichi_weights: np.ndarray
    version: int
    about: dict = field(default_factory=dict)

    def scores(self, rows: np.ndarray) -> np.ndarray:
        """Scores of feature rows [..., F] (the last axis the features)."""
        x = (rows - self.mean) / self.scale
        return x @ self.linear + np.maximum(x @ self.hidden + self.bias, 0.0) @ self.out

    def choose(self, obs: np.ndarray, tables: np.ndarray) -> int:
        """The kind the prior discards at the riichi observation `obs` (a turn of a seat not in riichi)."""
        return self.ranking(obs, tables)[0]

    def ranking(self, obs: np.ndarray, tables: np.ndarray) -> list[int]:
        """Every kind the seat may discard at `obs`, the likeliest first (equal scores, within
        policies.discard_prior.TIE: lower kind first)."""
        from tsumolab.policies.discard_features import N_FEATURES, discard_features
        from tsumolab.policies.discard_prior import TIE

        rows = np.zeros((34, N_FEATURES))
        allowed = np.zeros(34, np.uint8)
        if discard_features(obs, tables, rows, allowed) == 0:
            raise ValueError("the seat holds no tile it may discard")
        scores = self.scores(rows)
        kinds = np.flatnonzero(allowed == 1)
        return [int(k) for k in kinds[np.argsort(-np.round(scores[kinds] / TIE), kind="stable")]]

    def declares(self, obs: np.ndarray, tables: np.ndarray, kind: int) -> bool:
        """Whether strong players most likely declare riichi discarding `kind` at `obs`; False when the seat may
        not or that discard leaves the hand not ready."""
        from tsumolab.analyzer.prior.riichi import riichi_features

        row = riichi_features(obs, tables, kind)
        return row is not None and bool(self.riichi_chance(row) > 0.5)

    def riichi_chance(self, rows: np.ndarray) -> np.ndarray:
        """The riichi judgement's P(riichi) of feature rows [..., R] (analyzer.prior.riichi.RIICHI_FEATURES)."""
        from tsumolab.analyzer.prior.riichi import riichi_probability

        return riichi_probability(rows, self.riichi_mean, self.riichi_scale, self.riichi_weights)

    def save(self, path: Path) -> None:
        """Write the weights to `path` (.npz), atomically."""
        from tsumolab.analyzer.tables import replacing

        with replacing(path) as tmp:
            with open(tmp, "wb") as fh:
                np.savez(fh, version=np.int64(self.version), about=np.array(json.dumps(self.about)),
                         **{name: getattr(self, name) for name in ARRAYS})

    @classmethod
    def load(cls, path: Path) -> DiscardPrior:
        """The prior saved at `path`; PriorError when it cannot be read or its features are another version."""
        from tsumolab.analyzer.prior.riichi import N_RIICHI
        from tsumolab.policies.discard_features import N_FEATURES, VERSION

        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: np.asarray(data[name], np.float64) for name in ARRAYS}
                version = int(data["version"])
                about = json.loads(str(data["about"]))
        except (OSError, KeyError, ValueError) as exc:
            raise PriorError(f"cannot read the discard prior {path}: {exc}") from None
        if version != VERSION or arrays["mean"].shape != (N_FEATURES,) or arrays["riichi_mean"].shape != (N_RIICHI,):
            raise PriorError(f"the discard prior {path} was trained on features version {version}; this tsumolab "
                             f"computes version {VERSION}: train it again (tsumolab prior train)")
        return cls(version=version, about=about, **arrays)


@lru_cache(maxsize=1)
def shipped_prior() -> DiscardPrior:
    """The prior that ships with tsumolab (policies.discard_prior.WEIGHTS_FILE)."""
    from tsumolab.policies.discard_prior import weights_path

    return DiscardPrior.load(weights_path())
