"""Riichi or dama on a ready discard, as strong players choose: a logistic judgement over a few numbers of the ready
hand and the table, trained with the discard prior (analyzer.prior.train) on the turns where the seat could declare
riichi and its discard left the hand ready (R-4).

P(riichi) = sigmoid(weights · x + bias), x the RIICHI_FEATURES standardized by the training data's mean and scale.
"""

from __future__ import annotations

import numpy as np

from tsumolab.policies.discard_prior import N_RIICHI, RIICHI_FEATURES  # noqa: F401  (their names, in order)

DECAY = 1e-3  # L2 weight of the fit


def riichi_features(view: np.ndarray, tables: np.ndarray, kind: int) -> np.ndarray | None:
    """The RIICHI_FEATURES of discarding `kind` at the riichi-family turn `view` (an observation, at least the
    common fields); None when the seat may not declare riichi or that discard leaves the hand not ready."""
    from tsumolab.policies.discard_prior import riichi_features as compiled_features
    from tsumolab.sims.riichi.observation import ROBS

    obs = np.zeros(ROBS.SIZE, np.int32)
    obs[:len(view)] = view
    row = np.empty(N_RIICHI)
    return row if compiled_features(obs, tables, kind, row) else None


def riichi_rows(views: np.ndarray, kinds: np.ndarray, tables: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(rows float64[m, N_RIICHI], index int64[m]): the features of the decisions among views/kinds where riichi
    could be declared with the kind discarded, and their places."""
    rows, index = [], []
    for i, (view, kind) in enumerate(zip(views, kinds)):
        x = riichi_features(view, tables, int(kind))
        if x is not None:
            rows.append(x)
            index.append(i)
    return np.array(rows, np.float64).reshape(-1, N_RIICHI), np.array(index, np.int64)


def fit_riichi(rows: np.ndarray, declared: np.ndarray) -> dict:
    """The judgement's arrays (riichi_mean, riichi_scale, riichi_weights with the bias last) fitted to `declared`
    by Newton's method on the L2-penalized log-likelihood: deterministic."""
    mean = rows.mean(axis=0) if len(rows) else np.zeros(N_RIICHI)
    scale = np.maximum(rows.std(axis=0), 1e-3) if len(rows) else np.ones(N_RIICHI)
    x = np.hstack([(rows - mean) / scale, np.ones((len(rows), 1))])
    y = declared.astype(np.float64)
    w = np.zeros(N_RIICHI + 1)
    penalty = DECAY * np.eye(N_RIICHI + 1)
    penalty[-1, -1] = 0.0
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        grad = x.T @ (p - y) + penalty @ w * len(y)
        hess = (x * (p * (1 - p))[:, None]).T @ x + penalty * len(y) + 1e-9 * np.eye(N_RIICHI + 1)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"riichi_mean": mean, "riichi_scale": scale, "riichi_weights": w}


def riichi_probability(rows: np.ndarray, riichi_mean: np.ndarray, riichi_scale: np.ndarray,
                       riichi_weights: np.ndarray) -> np.ndarray:
    """P(riichi) of feature rows [..., N_RIICHI] under the arrays of fit_riichi."""
    z = ((rows - riichi_mean) / riichi_scale) @ riichi_weights[:-1] + riichi_weights[-1]
    return 1.0 / (1.0 + np.exp(-z))
