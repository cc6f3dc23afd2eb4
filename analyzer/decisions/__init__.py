"""Decision-level claims: situations found in simulated play, paired rollouts, verdicts."""
