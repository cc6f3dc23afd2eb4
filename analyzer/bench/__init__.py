"""Speed measurements: whole-match hands per second, kernels, advise rollouts."""
