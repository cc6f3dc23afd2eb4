"""Faults while a run writes (issue 17): kill -9 at random moments, two writers on one directory, a stale lock, a
full disk. Each is a real fault where the machine allows it: real processes killed with SIGKILL, a real
size-capped tmpfs (in a private mount namespace) for ENOSPC; the injected OSError covers machines without one
and the failed write of run.json itself.
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tsumolab import api
from tsumolab.analyzer import tables
from tsumolab.analyzer.runs.dir_lock import LOCK_FILE
from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parent.parent
KILL_ARGS = ["--matches", "80", "--chunk-size", "5", "--seed", "9"]


@pytest.fixture(scope="module")
def kill_reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("kill") / "reference"
    api.simulate(api.run_spec(matches=80, seed=9, chunk_size=5), out)
    return out


def start_run(out: Path, args: list[str]) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tsumolab", "run", *args, "--out", str(out), "-q"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def kill_at_a_chunk_write(proc: subprocess.Popen, out: Path, timeout: float = 120) -> bool:
    """SIGKILL `proc` as soon as a chunk's temporary file shows up; True when one was seen."""
    dirs = [out / "hands", out / "matches"]
    end = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < end:
        for d in dirs:
            try:
                if any(e.name.endswith(".tmp") for e in os.scandir(d)):
                    proc.send_signal(signal.SIGKILL)
                    proc.wait()
                    return True
            except FileNotFoundError:
                pass
    proc.kill()
    proc.wait()
    return False


def run_seconds(tmp_path: Path) -> float:
    """Wall time of a whole run in a fresh process (start-up included), on this machine now: the shortest of
    three, so that a moment drawn below it finds the run still alive when the machine is busy at times."""
    times = []
    for i in range(3):
        start = time.monotonic()
        proc = start_run(tmp_path / f"timed-{i}", KILL_ARGS)
        assert proc.wait(timeout=600) == 0, proc.stderr.read()
        times.append(time.monotonic() - start)
    return min(times)


def kill_trials(tmp_path: Path, reference: Path, capsys, trials: int, seed: int) -> dict:
    """Kill runs with SIGKILL (half as a chunk is being written, half at a random moment of the run's life),
    resume each in this process and check the tables against the uninterrupted reference; returns counts of
    what happened."""
    from tests.conftest import TinyRun

    rng = random.Random(seed)
    lifetime = run_seconds(tmp_path) if trials > 1 else 0.0
    seen = {"killed": 0, "temp_left": 0, "finished_first": 0}
    for trial in range(trials):
        out = tmp_path / f"trial-{trial}"
        proc = start_run(out, KILL_ARGS)
        if trial % 2 == 0:
            kill_at_a_chunk_write(proc, out)
        else:
            time.sleep(rng.uniform(0.02, 0.9) * lifetime)
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        seen["killed" if proc.returncode == -signal.SIGKILL else "finished_first"] += 1
        seen["temp_left"] += any(out.glob("*/.*.tmp"))
        code, _, err = run_cli(["run", *KILL_ARGS, "--out", str(out), "--resume", "-q"], capsys)
        assert code == 0, (trial, err)
        assert run_cli(["verify", str(out)], capsys)[0] == 0, trial
        TinyRun(reference, KILL_ARGS).assert_same(out)
    return seen


@pytest.mark.slow
def test_kill_9_during_a_chunk_write_then_resume_gives_the_uninterrupted_tables(kill_reference, tmp_path, capsys):
    seen = kill_trials(tmp_path, kill_reference, capsys, trials=1, seed=1)
    assert seen["killed"] == 1


@pytest.mark.slow
def test_kill_9_at_random_moments_many_times(kill_reference, tmp_path, capsys):
    seen = kill_trials(tmp_path, kill_reference, capsys, trials=24, seed=2)
    assert seen["killed"] >= 20 and seen["temp_left"] >= 1, seen


# --- two writers ---------------------------------------------------------------------------------------------

def wait_for_holder(out: Path, proc: subprocess.Popen, timeout: float = 120) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end and proc.poll() is None:
        try:
            return json.loads((out / LOCK_FILE).read_text())
        except (FileNotFoundError, ValueError):
            time.sleep(0.001)
    raise AssertionError(f"the first run never held the lock: {proc.communicate()[1]}")


@pytest.mark.slow
def test_a_second_writer_gets_one_line_naming_the_holder(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["--matches", "600", "--chunk-size", "10", "--seed", "3"]
    api.run_spec(matches=600, seed=3, chunk_size=10)  # load the policies here first: the second run asks at once
    first = start_run(out, args)
    holder = wait_for_holder(out, first)
    assert holder["pid"] == first.pid
    code, text, err = run_cli(["run", *args, "--out", str(out), "-q"], capsys)
    assert first.wait(timeout=300) == 0, first.stderr.read()
    assert code == 2 and text == ""
    (line,) = err.splitlines()
    assert f"is in use by another tsumolab process (pid {first.pid} on host {socket.gethostname()}" in line
    assert run_cli(["verify", str(out)], capsys)[0] == 0
    assert not (out / LOCK_FILE).exists()


@pytest.mark.slow
def test_two_runs_started_together_exactly_one_proceeds(tmp_path, capsys):
    args = ["--matches", "400", "--chunk-size", "10", "--seed", "4"]
    for trial in range(4):
        out = tmp_path / f"run-{trial}"
        procs = [start_run(out, args) for _ in range(2)]
        codes = [p.wait(timeout=600) for p in procs]
        errors = [p.stderr.read() for p in procs]
        assert sorted(codes) == [0, 2], errors
        loser = errors[codes.index(2)]
        assert "is in use by another tsumolab process" in loser or "already holds a run" in loser
        assert run_cli(["verify", str(out)], capsys)[0] == 0


def test_a_stale_lock_of_a_killed_run_is_taken_over(tiny_run, tmp_path, capsys):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(gone.stdout)
    out = tmp_path / "run"
    out.mkdir()
    (out / LOCK_FILE).write_text(json.dumps({"pid": dead_pid, "host": socket.gethostname(), "since": "earlier"}))
    code, _, err = run_cli(["run", *tiny_run.args, "--out", str(out), "-q"], capsys)
    assert code == 0
    (line,) = err.splitlines()
    assert f"taking over the lock of {out}: pid {dead_pid} on host" in line
    tiny_run.assert_same(out)


# --- a full disk ---------------------------------------------------------------------------------------------

ENOSPC_SCRIPT = """
set -u
mount -t tmpfs -o size=40k tmpfs "$CAP" || exit 97
"$PY" -m tsumolab run $ARGS --out "$CAP/r" -q 2> "$OUT/first.err"; echo $? > "$OUT/first.code"
cp -a "$CAP/r" "$OUT/after-failure"
mount -o remount,size=8m "$CAP"
"$PY" -m tsumolab run $ARGS --out "$CAP/r" -q --resume 2> "$OUT/second.err"; echo $? > "$OUT/second.code"
cp -a "$CAP/r" "$OUT/resumed"
"""


def size_capped_mount_command() -> list[str] | None:
    """How to run a shell in a private mount namespace where tmpfs can be mounted, or None."""
    if shutil.which("unshare") is None:
        return None
    for command in (["unshare", "-rm"], ["unshare", "-m"]):
        probe = subprocess.run([*command, "sh", "-c", "mount -t tmpfs -o size=8k tmpfs /mnt && echo ok"],
                               capture_output=True, text=True)
        if probe.stdout.strip() == "ok":
            return command
    return None


def assert_failed_cleanly(out: Path, err: str) -> None:
    """One line; no temporary and no partial chunk left; every chunk file on disk is recorded and matches."""
    from tsumolab.analyzer.runs.integrity import entry_problem
    from tsumolab.analyzer.runs.record import read_run_record

    (line,) = err.splitlines()
    assert line.startswith("tsumolab: error: cannot write ") and "No space left on device" in line
    assert "run the same command with --resume" in line
    assert not list(out.rglob(".*.tmp"))
    record = read_run_record(out)
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.glob("*/*.parquet"))
    assert on_disk == sorted(record["files"])
    assert all(entry_problem(out / name, record["files"][name]) is None for name in on_disk)
    assert record["status"] in ("failed", "running")


@pytest.mark.slow
def test_disk_full_on_a_size_capped_file_system(tiny_run, tmp_path):
    command = size_capped_mount_command()
    if command is None:
        pytest.skip("no private mount namespace for a size-capped tmpfs here; the injected ENOSPC test covers it")
    cap = tmp_path / "cap"
    cap.mkdir()
    env = {**os.environ, "CAP": str(cap), "OUT": str(tmp_path), "PY": sys.executable, "ARGS": " ".join(tiny_run.args)}
    done = subprocess.run([*command, "bash", "-c", ENOSPC_SCRIPT], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "first.code").read_text().strip() == "1"
    assert_failed_cleanly(tmp_path / "after-failure", (tmp_path / "first.err").read_text())
    assert (tmp_path / "second.code").read_text().strip() == "0", (tmp_path / "second.err").read_text()
    tiny_run.assert_same(tmp_path / "resumed")


def test_disk_full_injected_while_writing_a_chunk(tiny_run, tmp_path, capsys, monkeypatch):
    real_write = tables.pq.write_table

    def full_disk(table, where, **kwargs):
        if "chunk-000002" in str(where) and "matches" in str(where):
            Path(where).write_bytes(b"PAR1 half a file")
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_write(table, where, **kwargs)

    monkeypatch.setattr(tables.pq, "write_table", full_disk)
    out = tmp_path / "run"
    code, _, err = run_cli(["run", *tiny_run.args, "--out", str(out), "-q"], capsys)
    assert code == 1
    assert_failed_cleanly(out, err)
    assert "2 of 4 chunks are complete" in err
    monkeypatch.setattr(tables.pq, "write_table", real_write)
    assert run_cli(["run", *tiny_run.args, "--out", str(out), "--resume", "-q"], capsys)[0] == 0
    tiny_run.assert_same(out)


def test_disk_full_injected_while_writing_the_record(tiny_run, tmp_path, capsys, monkeypatch):
    """The chunk is in place but its record entry cannot be written: the chunk is not trusted later."""
    real_write_text = Path.write_text
    writes = {"run.json": 0}

    def full_disk(self, *args, **kwargs):
        if self.name.startswith(".run.json."):
            writes["run.json"] += 1
            if writes["run.json"] == 5:  # opening, the session, chunks 0 and 1: the record of chunk 2 fails
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(self))
        return real_write_text(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    out = tmp_path / "run"
    code, _, err = run_cli(["run", *tiny_run.args, "--out", str(out), "-q"], capsys)
    monkeypatch.setattr(Path, "write_text", real_write_text)
    assert code == 1 and len(err.splitlines()) == 1 and "run.json: No space left on device" in err
    assert sorted(json.loads((out / "run.json").read_text())["files"]) == [
        f"{t}/chunk-00000{i}.parquet" for t in ("hands", "matches") for i in (0, 1)]
    code, _, err = run_cli(["run", *tiny_run.args, "--out", str(out), "--resume", "-q"], capsys)
    assert code == 0 and "chunk-000002.parquet is not in the run record" in err
    tiny_run.assert_same(out)
