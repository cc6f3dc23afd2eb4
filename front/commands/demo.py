"""`tsumolab demo`: the main job on built-in defaults — example hands, then a small claims study and its report."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tsumolab import api
from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.commands.report import lang_option

EXAMPLE_HANDS = (
    {"variant": "bloodshed", "hand": "11223344556677s", "void": "m", "tsumo": True},
    {"variant": "bloodshed", "hand": "1112345678999p", "void": "s"},
    {"variant": "riichi", "hand": "123m456p789s1122z"},
)
DEMO_MATCHES = 1600
DEMO_SEED = 2026


@cli.command("demo")
@click.option("--matches", type=int, default=DEMO_MATCHES, show_default=True,
              help="Matches per claim (both arms, 4 seat rotations and every field).")
@click.option("--only", default=None, metavar="IDS", help="Claim ids to run (default: every Bloodshed claim).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=Path), default="demo-out",
              show_default=True, help="Directory for the tables, the runs and the report (replaced).")
@click.option("--jobs", type=int, default=-1, show_default=True, help="Worker processes (-1 = all cores).")
@lang_option
def demo(matches: int, only: str | None, out_dir: Path, jobs: int, langs: tuple[str, ...]) -> None:
    """Analyze example hands, then run a small study of every Bloodshed claim (tsumolab claims) and write
    its report: OUT/report.html and OUT/report.pdf (with --lang zh or ja, OUT/report.zh.html … in that
    language; --lang en,zh,ja writes all three). A few minutes on two cores; a real study uses
    `tsumolab claims --matches 20000` or more."""
    from tsumolab.analyzer.claims.study import compile_study, format_summary

    clock = _Clock()
    if out_dir.exists() and not out_dir.is_dir():
        raise InputError(f"--out {out_dir} exists and is not a directory")
    experiments = api.select_claims(only, "bloodshed")
    clock.lap("start-up")
    click.echo("Compiling the engine, the policies and the hand analysis (or loading them from the kernel cache) …")
    compile_study(experiments, jobs, extra=(_example_hands,), progress=True)
    clock.lap("compile or load")
    click.echo("Example hands (tsumolab hand):")
    for request, answer in zip(EXAMPLE_HANDS, _example_hands()):
        click.echo(f"  {json.dumps(request, ensure_ascii=False)}\n"
                   f"    → {json.dumps(answer, ensure_ascii=False)}")
    clock.lap("example hands")
    click.echo(f"\nClaims study: {len(experiments)} claims × {matches:,} matches (tsumolab claims "
               f"--matches {matches} --seed {DEMO_SEED} --out {out_dir}) …")
    result = api.claims([e.id for e in experiments], "bloodshed", matches, DEMO_SEED, jobs, out=out_dir,
                        overwrite=True, progress=True)
    clock.lap("simulation")
    click.echo(format_summary(result))
    for html_path, pdf_path in api.reports(out_dir, langs, jobs):
        click.echo(f"\nReport written to {html_path.resolve()}")
        click.echo(f"             and {pdf_path.resolve()}")
    clock.lap("reports")
    click.echo(f"\n{clock}")


class _Clock:
    """Where the demo's time went (its last line), so that a slower first run shows."""

    def __init__(self):
        import time

        import tsumolab

        self._now = time.perf_counter
        self._start = self._last = tsumolab.IMPORTED_AT
        self.laps: list[tuple[str, float]] = []

    def lap(self, name: str) -> None:
        now = self._now()
        self.laps.append((name, now - self._last))
        self._last = now

    def __str__(self) -> str:
        from tsumolab.sims.prebuilt_kernels import status

        parts = ", ".join(f"{name} {seconds:.1f} s" for name, seconds in self.laps)
        return f"Time: {self._last - self._start:.1f} s ({parts}); kernels {status()}"


def _example_hands() -> list[dict]:
    """`tsumolab hand` of each of EXAMPLE_HANDS."""
    return [api.hand(**request) for request in EXAMPLE_HANDS]
