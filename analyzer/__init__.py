"""The analysis layer: one subpackage per capability over the engines (sims) and the policies.

runs (simulation runs to Parquet), claims (claims studies), decisions (decision-level claims),
advise (positions, determinization, paired rollouts), search (search seats), regress (the EV
regression check), replay (event logs), bench (speed); engines is the analysis side of the
engine-family interface; the modules at the top are shared by several capabilities."""
