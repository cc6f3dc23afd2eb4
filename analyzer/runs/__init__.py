"""Simulation runs: validated specs, chunked parallel resumable execution, run records."""
