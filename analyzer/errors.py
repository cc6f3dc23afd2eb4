"""The one error type for bad user input, free of any CLI framework.

Library code (runner, experiments, claims, reports) raises `InputError`; the `tsumolab` command line
(analyzer.cli) prints it as one line `tsumolab: error: …` and exits with code 2.
"""

from __future__ import annotations


class InputError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""
