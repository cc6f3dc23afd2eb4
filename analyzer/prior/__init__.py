"""The human discard prior: which tile strong players discard, learned from their games (extract → train →
model). advise's recommendation falls back on it where the rollouts cannot tell the best discards apart."""
