"""A review directory: one Parquet chunk per reviewed hand, the combined table and the record that checks them.

    OUT/review.json           the game (source, title, digest of its events), the ReviewSpec, each hand chunk's
                              size and checksum, and the summary (analyzer.review.game_review.game_summary)
    OUT/hands/hand-NNN.parquet  the option rows of hand NNN (analyzer.review.game_review.COLUMNS)
    OUT/review.parquet        every hand's rows, in order

Every file is written atomically; review.json is rewritten after each hand, so an interrupted review resumes
(--resume) from the hands it recorded, after checking their checksums: a damaged chunk is reviewed again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.record import GameRecord
from tsumolab.analyzer.review.game_review import (
    COLUMNS, ReviewSpec, decision_summary, game_summary, hands_to_review, review_hand,
)
from tsumolab.analyzer.runs.dir_lock import locked
from tsumolab.analyzer.runs.integrity import entry_problem, file_entry
from tsumolab.analyzer.tables import remove_temp_files, replacing, write_parquet_atomic

RECORD_FILE = "review.json"
TABLE_FILE = "review.parquet"
FORMAT = "tsumolab-review/2"


@dataclass(frozen=True)
class ReviewResult:
    table: pl.DataFrame        # option rows
    decisions: pl.DataFrame    # one row per decision (decision_summary)
    summary: dict              # game_summary plus the game and the spec
    out: Path


def game_digest(record: GameRecord) -> str:
    text = json.dumps([list(h) for h in record.hands], sort_keys=True, ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def chunk_path(out: Path, hand: int) -> Path:
    return out / "hands" / f"hand-{hand:03d}.parquet"


def run_review(record: GameRecord, spec: ReviewSpec, out: Path | str, jobs: int = 1, resume: bool = False,
               overwrite: bool = False, progress=None) -> ReviewResult:
    """Review `spec.seat` of `record` into `out`; `progress(done, total)` after each hand."""
    out = Path(out)
    if resume and overwrite:
        raise InputError("--resume and --overwrite exclude each other")
    hands = hands_to_review(record, spec)
    game = {"source": record.source, "title": record.title, "variant": record.variant, "digest": game_digest(record),
            "names": list(record.names)}
    with locked(out):
        remove_temp_files(out)
        remove_temp_files(out / "hands")
        done = _reusable(out, game, spec, resume, overwrite)
        todo = [h for h in hands if h not in done]
        if progress is not None:
            progress(len(hands) - len(todo), len(hands))
        for hand, table in _reviewed(record, spec, todo, jobs):
            path = chunk_path(out, hand)
            path.parent.mkdir(exist_ok=True)
            write_parquet_atomic(table, path, {"format": FORMAT, "hand": hand})
            done[hand] = file_entry(path, table.height)
            _write_record(out, game, spec, done, None)
            if progress is not None:
                progress(sum(h in done for h in hands), len(hands))
        table = pl.concat([pl.read_parquet(chunk_path(out, h)) for h in hands], how="vertical") if hands else \
            pl.DataFrame(schema=COLUMNS)
        write_parquet_atomic(table, out / TABLE_FILE, {"format": FORMAT, "game": game, "spec": spec.as_dict()})
        decisions = decision_summary(table, spec.objective)
        summary = {"game": game, "spec": spec.as_dict(), **game_summary(decisions, spec.objective)}
        _write_record(out, game, spec, done, summary)
    return ReviewResult(table, decisions, summary, out)


def _reviewed(record: GameRecord, spec: ReviewSpec, todo: list[int], jobs: int):
    """(hand, table) of each hand in `todo` as they finish; hands run in parallel on `jobs` processes."""
    if jobs <= 1 or len(todo) <= 1:
        for hand in todo:
            yield hand, review_hand(record, spec, hand)
        return
    from joblib import Parallel, delayed

    tables = Parallel(n_jobs=jobs, return_as="generator")(delayed(review_hand)(record, spec, h) for h in todo)
    yield from zip(todo, tables)


def _reusable(out: Path, game: dict, spec: ReviewSpec, resume: bool, overwrite: bool) -> dict[int, dict]:
    """{hand: chunk entry} of the recorded hands --resume may keep (checksums checked)."""
    path = out / RECORD_FILE
    if not path.exists():
        if resume:
            raise InputError(f"--resume: {out} holds no review to resume ({RECORD_FILE} is missing)")
        return {}
    if overwrite:
        for chunk in (out / "hands").glob("hand-*.parquet"):
            chunk.unlink()
        return {}
    if not resume:
        raise InputError(f"{out} already holds a review: pass --resume to continue it or --overwrite to replace it")
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
        same = recorded["format"] == FORMAT and recorded["game"]["digest"] == game["digest"] \
            and recorded["spec"] == spec.as_dict()
        entries = {int(h): e for h, e in recorded["hands"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"--resume: {path} is not a review record ({exc})") from None
    if not same:
        raise InputError(f"--resume: {out} holds a review of another game or with other options")
    return {h: e for h, e in entries.items() if entry_problem(chunk_path(out, h), e) is None}


def _write_record(out: Path, game: dict, spec: ReviewSpec, done: dict[int, dict], summary: dict | None) -> None:
    record = {"format": FORMAT, "game": game, "spec": spec.as_dict(),
              "hands": {str(h): done[h] for h in sorted(done)}, "summary": summary}
    with replacing(out / RECORD_FILE) as temp:
        temp.write_text(json.dumps(record, indent=1, ensure_ascii=False), encoding="utf-8")
