"""An exclusive lock on a run or study directory, so that two processes never write one directory at once.

The lock is `DIR/.tsumolab.lock`, held with flock(2) (on Windows, msvcrt.locking) while a run writes DIR; the
file names its holder (pid, host, start time). The operating system releases the lock when its process dies,
however it dies, so a lock file left by a killed run is recognised as stale (nobody holds it) and taken over.
The file is removed when the lock is released.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import socket
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

from tsumolab.analyzer.errors import InputError, WriteError, os_error_text

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt

LOCK_FILE = ".tsumolab.lock"
_WINDOWS_BYTE = 1 << 20
"""on Windows the lock covers one byte this far into the file, so the holder's name stays readable"""


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
        with contextlib.suppress(OSError):  # the lock is what counts; naming the holder is a courtesy (disk full)
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, json.dumps(_me()).encode())
        yield
    finally:
        _release(fd, path)


def holder(directory: Path | str) -> str | None:
    """"pid N on host H since T" when a live process holds the lock of `directory`, else None."""
    path = Path(directory) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDWR)
    except OSError:
        return None
    try:
        if _try_lock(fd, shared=True):
            _unlock(fd)
            return None
        return _holder(fd) or "another process"
    except OSError:
        return None
    finally:
        os.close(fd)


def _acquire(path: Path, directory: Path) -> int | None:
    """The descriptor of the lock file, locked; None when the file system has no locks."""
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            acquired = _try_lock(fd)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                print(f"tsumolab: warning: {directory} cannot be locked on this file system; make sure no other "
                      "process writes it at the same time", file=sys.stderr)
                return None
            raise
        if not acquired:
            who = _holder(fd) or "another process"
            os.close(fd)
            raise InputError(f"{directory} is in use by another tsumolab process ({who}); wait for it to "
                             "finish or stop it, then repeat the command (with --resume to continue its run)")
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the holder removed the file while this process waited for it: lock the new one


def _try_lock(fd: int, shared: bool = False) -> bool:
    """Lock `fd` without waiting; False when another process holds the lock."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    os.lseek(fd, _WINDOWS_BYTE, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EDEADLK):
            return False
        raise
    return True


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:
        os.lseek(fd, _WINDOWS_BYTE, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def _release(fd: int, path: Path) -> None:
    if fcntl is not None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        os.close(fd)  # after the unlink: whoever waits for this inode sees it is gone and retries
        return
    _unlock(fd)
    os.close(fd)  # Windows removes no open file
    with contextlib.suppress(OSError):
        os.unlink(path)


def _me() -> dict:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "since": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def _holder(fd: int) -> str | None:
    """The holder named in the lock file, as "pid N on host H since T", or None when it names nobody."""
    try:
        os.lseek(fd, 0, os.SEEK_SET)
        info = json.loads(os.read(fd, 4096) or b"null")
        if not isinstance(info, dict):
            return None
        return f"pid {int(info['pid'])} on host {info['host']} since {info['since']}"
    except (OSError, ValueError, KeyError, TypeError):
        return None
