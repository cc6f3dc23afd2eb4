"""An exclusive lock on a run or study directory, so that two processes never write one directory at once.

The lock is `DIR/.tsumolab.lock`, held with flock(2) while a run writes DIR; the file names its holder (pid,
host, start time). The kernel releases a flock when its process dies, however it dies, so a lock file left by a
killed run is recognised as stale (nobody holds it) and taken over. The file is removed when the lock is released.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import socket
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from analyzer.errors import InputError, WriteError, os_error_text

LOCK_FILE = ".tsumolab.lock"


@contextlib.contextmanager
def locked(directory: Path | str) -> Iterator[None]:
    """Hold the lock of `directory` (created if needed); InputError naming the holder when another process has it."""
    directory = Path(directory)
    path = directory / LOCK_FILE
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd = _acquire(path, directory)
    except OSError as exc:
        raise WriteError(f"cannot lock {directory}: {os_error_text(exc)}") from None
    if fd is None:
        yield
        return
    try:
        stale = _holder(fd)
        if stale:
            print(f"tsumolab: taking over the lock of {directory}: {stale} no longer holds it (it was stopped "
                  "or killed)", file=sys.stderr)
        with contextlib.suppress(OSError):  # the flock is the lock; naming the holder is a courtesy (disk full)
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(_me()).encode(), 0)
        yield
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)  # after the unlink: whoever waits for this inode sees it is gone and retries


def holder(directory: Path | str) -> str | None:
    """"pid N on host H since T" when a live process holds the lock of `directory`, else None."""
    path = Path(directory) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _holder(fd) or "another process"
        except OSError:
            return None
        return None
    finally:
        os.close(fd)


def _acquire(path: Path, directory: Path) -> int | None:
    """The descriptor of the lock file, flocked; None when the file system has no locks."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            who = _holder(fd) or "another process"
            os.close(fd)
            raise InputError(f"{directory} is in use by another tsumolab process ({who}); wait for it to "
                             "finish or stop it, then repeat the command (with --resume to continue its run)") from None
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                print(f"tsumolab: warning: {directory} cannot be locked on this file system; make sure no other "
                      "process writes it at the same time", file=sys.stderr)
                return None
            raise
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the holder removed the file while this process waited for it: lock the new one


def _me() -> dict:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _holder(fd: int) -> str | None:
    """The holder named in the lock file, as "pid N on host H since T", or None when it names nobody."""
    try:
        info = json.loads(os.pread(fd, 4096, 0) or b"null")
        if not isinstance(info, dict):
            return None
        return f"pid {int(info['pid'])} on host {info['host']} since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return None
