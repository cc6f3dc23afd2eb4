"""Claims studies: experiment files, the duplicate design, claims/arms/EV tables, verdicts."""
