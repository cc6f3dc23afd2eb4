"""The error types the command line turns into one line, free of any CLI framework.

Library code (runner, experiments, claims, reports) raises `InputError` for bad input; the `tsumolab` command
line (tsumolab.cli) prints it as one line `tsumolab: error: …` and exits with code 2. `DamagedError`, an
InputError, says that a run or study directory no longer matches its record (a chunk truncated, altered or
missing); `WriteError` says that writing failed (disk full, no permission) and exits with code 1.
"""

from __future__ import annotations


class InputError(Exception):
    """Bad input from the user: printed as one line, exit code 2."""


class DamagedError(InputError):
    """A file of a run or study directory is missing or differs from the directory's record."""


class WriteError(Exception):
    """Writing a run or study failed (e.g. the disk is full); nothing partial was kept. Exit code 1."""


def os_error_text(exc: OSError) -> str:
    """A short reason for an OSError: its strerror, or the errno text pyarrow buries in its message."""
    import os
    import re

    if exc.strerror:
        return exc.strerror
    found = re.search(r"\[errno (\d+)\]", str(exc), re.IGNORECASE)
    if found:
        return os.strerror(int(found.group(1)))
    text = str(exc).strip().splitlines()
    return text[0][:160] if text else type(exc).__name__
