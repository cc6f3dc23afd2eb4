"""Event logs of simulated matches as mjai-style JSON and readable text."""
