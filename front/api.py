"""Python API for notebooks and scripts: the functions behind the `tsumolab` commands.

    from tsumolab import api
    hands, matches = api.run("riichi", "baseline", 200, seed=1)      # polars DataFrames, nothing on disk
    study = api.claims(only="B4", matches=200)                          # verdicts in study.claims
    api.hand("123m456p789s1122z")                                       # {"shanten": 0, "waits": [...], ...}

The command line calls these same functions, so both take the same arguments and reject bad ones with the
same one-line message, raised here as InputError (its text is what `tsumolab: error: …` prints). Nothing is
written unless `out` names a directory; a run without one is simulated in a temporary directory that is
removed once its tables are in memory.
"""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import polars as pl

from tsumolab.analyzer.claims.study import DEFAULT_CHUNK_SIZE as CLAIMS_CHUNK_SIZE
from tsumolab.analyzer.claims.study import ClaimsResult, run_experiments, with_overrides
from tsumolab.analyzer.errors import InputError, WriteError, os_error_text
from tsumolab.analyzer.claims.experiment import (
    Experiment, extra_experiment_ids, load_experiment, mode_experiments, select,
)
from tsumolab.analyzer.runs.options import RuleOptions, build_spec, cards_rule, parse_rule_options, require_whole_number
from tsumolab.analyzer.runs.runner import DEFAULT_CHUNK_SIZE, RunSpec, RunSummary, combined_tables, execute
from tsumolab.sims.modes import get_mode

__all__ = ["InputError", "claims", "decisions", "experiment", "hand", "report", "run", "run_spec", "settle",
           "simulate"]


def run_spec(variant: str = "bloodshed", seats: str | Sequence[str] = "baseline", matches: int = 1000,
             seed: int = 0, rules: RuleOptions = None, *, cards: str | None = None,
             chunk_size: int = DEFAULT_CHUNK_SIZE, policy_paths: Sequence[str] = ()) -> RunSpec:
    """The validated RunSpec of a run (`tsumolab run`'s options); InputError names the bad option."""
    if cards is not None:
        rules = cards_rule(variant, cards, rules)
    return build_spec(variant, seats, matches, seed, chunk_size, rules, tuple(policy_paths))


def _require_jobs(jobs: object) -> None:
    require_whole_number("--jobs", jobs)
    if jobs < 1 and jobs != -1:
        raise InputError(f"--jobs must be at least 1, or -1 for all cores; got {jobs}")


def simulate(spec: RunSpec, out: Path | str, *, jobs: int = 1, resume: bool = False, overwrite: bool = False,
             progress: bool = False, policy_paths: Sequence[str] = ()) -> RunSummary:
    """Simulate `spec` into the run directory `out` (hands/, matches/, run.json): `tsumolab run`."""
    _require_jobs(jobs)
    return execute(spec, out, jobs=jobs, resume=resume, progress=progress, overwrite=overwrite,
                   policy_paths=tuple(policy_paths))


def run(variant: str = "bloodshed", seats: str | Sequence[str] = "baseline", matches: int = 1000,
        seed: int = 0, jobs: int = 1, rules: RuleOptions = None, out: Path | str | None = None, *,
        cards: str | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE, resume: bool = False,
        overwrite: bool = False, policy_paths: Sequence[str] = (),
        progress: bool = False) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Simulate `matches` matches of `variant` and return its (hands, matches) tables.

    seats: one policy for all four seats or four ("baseline,random,baseline,baseline" or a list); rules: rule
    options as {key: value} or ["key=value", …]. Results depend only on (seed, match id), whatever `jobs`.
    With `out`, the run directory is kept there (as `tsumolab run --out`); without, nothing stays on disk."""
    spec = run_spec(variant, seats, matches, seed, rules, cards=cards, chunk_size=chunk_size,
                    policy_paths=policy_paths)
    with _directory(out) as directory:
        simulate(spec, directory, jobs=jobs, resume=resume, overwrite=overwrite, progress=progress,
                 policy_paths=policy_paths)
        return combined_tables(directory)


def select_claims(only: str | Sequence[str] | None = None, mode: str | None = None, extra: bool = False,
                  rules: RuleOptions = None) -> list[Experiment]:
    """The experiment files `tsumolab claims` runs: every mode's, or `mode`'s; `only` picks claim ids
    ("B1,B4" or a list); `extra` adds the beyond-the-sources files; `rules` (one mode's) needs `mode`."""
    if isinstance(only, (list, tuple)):
        only = ",".join(only)
    if rules and mode is None:
        raise InputError("--rule sets an option of one mode's rules; add --mode (e.g. --mode bloodshed)")
    if mode is not None:
        try:
            rules_cls = get_mode(mode).rules_class
        except ValueError as exc:
            raise InputError(str(exc)) from None
        overrides = parse_rule_options(rules_cls, rules)
    else:
        overrides = {}
    extras = [] if extra else extra_experiment_ids(mode)
    if only and not extra:
        named = sorted({s.strip() for s in only.split(",")} & set(extras))
        if named:
            raise InputError(f"--only: {', '.join(named)} {'is' if len(named) == 1 else 'are'} beyond the "
                             "sources (analyzer/experiments/extra/); add --extra")
    experiments = select(mode_experiments(mode, rule_overrides=overrides, extra=extra), only)
    if not experiments:
        hint = f" (its beyond-the-sources claims {', '.join(extras)} run with --extra)" if extras else ""
        raise InputError(f"no experiment files for mode {mode!r}{hint}")
    return experiments


def claims(only: str | Sequence[str] | None = None, mode: str | None = None, matches: int | None = None,
           seed: int | None = None, jobs: int = 1, rules: RuleOptions = None, out: Path | str | None = None, *,
           extra: bool = False, chunk_size: int = CLAIMS_CHUNK_SIZE, resume: bool = False,
           overwrite: bool = False, backend: str = "loky", scheduler: str | None = None,
           progress: bool = False) -> ClaimsResult:
    """Test the strategy claims (`tsumolab claims`): the result holds the claims, arms and ev tables.

    matches / seed: per claim (None keeps each experiment file's). Without `out` the cell runs live in a
    temporary directory and the result's out_dir is None; with it, the tables and runs stay there and
    `report(out)` renders them."""
    return _study(select_claims(only, mode, extra, rules), matches, seed, jobs, out, chunk_size=chunk_size,
                  resume=resume, overwrite=overwrite, backend=backend, scheduler=scheduler, progress=progress)


def experiment(file: Path | str, matches: int | None = None, seed: int | None = None, jobs: int = 1,
               rules: RuleOptions = None, out: Path | str | None = None, *, chunk_size: int = CLAIMS_CHUNK_SIZE,
               resume: bool = False, overwrite: bool = False, backend: str = "loky",
               scheduler: str | None = None, progress: bool = False) -> ClaimsResult:
    """Run one experiment file (`tsumolab experiment run FILE`); `rules` apply to the file's mode."""
    import tomllib

    try:
        mode_name = str(tomllib.loads(Path(file).read_text()).get("mode", "bloodshed"))
    except (OSError, ValueError, RecursionError, AttributeError):
        mode_name = "bloodshed"  # load_experiment reports the problem
    overrides = {}
    if rules:
        try:
            overrides = parse_rule_options(get_mode(mode_name).rules_class, rules)
        except ValueError as exc:
            raise InputError(str(exc)) from None
    return _study([load_experiment(file, overrides)], matches, seed, jobs, out, chunk_size=chunk_size,
                  resume=resume, overwrite=overwrite, backend=backend, scheduler=scheduler, progress=progress)


def _study(experiments: list[Experiment], matches: int | None, seed: int | None, jobs: int,
           out: Path | str | None, **options) -> ClaimsResult:
    for name, value in (("--matches", matches), ("--seed", seed)):
        if value is not None:
            require_whole_number(name, value)
    require_whole_number("--jobs", jobs)
    experiments = with_overrides(experiments, matches, seed)
    with _directory(out) as directory:
        result = run_experiments(experiments, directory, jobs=jobs, **options)
    return result if out is not None else replace(result, out_dir=None)


def report(directory: Path | str, lang: str = "en"):
    """Render the report of a claims study, experiment or run directory (`tsumolab report`) in `lang` (en, zh,
    ja): DIRECTORY/report.html and report.pdf for English, report.<lang>.html and .pdf otherwise; returns (html
    path, pdf path)."""
    return reports(directory, (lang,))[0]


def decisions(only: str | None = None, fields: Sequence[str] | None = None, situations: int | None = None,
              rollouts: int | None = None, seed: int | None = None, jobs: int = 1, rules: RuleOptions = None,
              out: Path | str | None = None, *, resample: str = "unseen", chunk_size: int | None = None,
              resume: bool = False, overwrite: bool = False, backend: str = "loky", scheduler: str | None = None,
              progress: bool = False, extra: bool = False) -> pl.DataFrame:
    """Test the decision claims decision by decision (`tsumolab decisions`): the decisions table, one row per
    situation (analyzer.decisions.stats.claim_result / format_summary summarize it). Without `only`, the claims
    from the sources, and with `extra` also the questions beyond them. Without `out` the study lives in a
    temporary directory."""
    from tsumolab.analyzer.decisions.study import DEFAULT_CHUNK_SIZE as DECISIONS_CHUNK_SIZE
    from tsumolab.analyzer.decisions.study import make_spec, run_decisions

    spec = make_spec(only, fields, seed, situations, rollouts, rules, resample, extra)
    with _directory(out) as directory:
        return run_decisions(spec, directory, jobs=jobs, chunk_size=chunk_size or DECISIONS_CHUNK_SIZE,
                             resume=resume, overwrite=overwrite, backend=backend, scheduler=scheduler,
                             progress=progress).table


def decision_reports(directory: Path | str, langs: Sequence[str] = ("en",)):
    """The decision-level report of DIRECTORY (decisions.html and decisions.pdf, `tsumolab decisions`) in each
    language of `langs`, and the claims report too when DIRECTORY also holds a claims study; a list of (html
    path, pdf path)."""
    from tsumolab.analyzer.i18n import check_language
    from tsumolab.analyzer.claims.record import STUDY_FILE
    from tsumolab.reports.decisions_report import render_decisions

    langs = tuple(check_language(lang) for lang in langs)
    try:
        written = render_decisions(directory, langs)
    except OSError as exc:
        raise WriteError(f"cannot write the report in {directory}: {os_error_text(exc)}") from None
    if (Path(directory) / STUDY_FILE).exists():
        written += reports(directory, langs)
    return written


def reports(directory: Path | str, langs: Sequence[str] = ("en",), jobs: int = 1, keep_garbage: bool = False):
    """The report of DIRECTORY in each language of `langs` (the data read and the example hands replayed once,
    the files rendered by up to `jobs` processes, -1 for every core); a list of (html path, pdf path).
    `keep_garbage`: for a process that ends right after (reports.render.without_cyclic_gc)."""
    from tsumolab.analyzer.i18n import check_language
    from tsumolab.reports.render import render_reports

    langs = tuple(check_language(lang) for lang in langs)
    _require_jobs(jobs)
    if not Path(directory).is_dir():
        raise InputError(f"{directory} is not a directory")
    try:
        return render_reports(directory, langs, jobs=jobs, keep_garbage=keep_garbage)
    except OSError as exc:
        raise WriteError(f"cannot write the report in {directory}: {os_error_text(exc)}") from None


def hand(hand: str, variant: str = "riichi", melds: Sequence[str] = (), win_tile: str | None = None,
         tsumo: bool = False, void: str | None = None, dealer: bool = False,
         flags: Sequence[str] = ()) -> dict:
    """Shanten, waits and (when complete) the win of one hand (`tsumolab hand`): {"shanten", "waits", "win"}."""
    from tsumolab.sims.analysis import VARIANTS, analyze

    if variant not in VARIANTS:
        raise InputError(f"--variant must be one of {', '.join(VARIANTS)}, got {variant!r}")
    request: dict = {"variant": variant, "hand": hand}
    if melds:
        request["melds"] = [melds] if isinstance(melds, str) else list(melds)
    if win_tile is not None:
        request["win_tile"] = win_tile
    if tsumo:
        request["tsumo"] = True
    if dealer:
        request["dealer"] = True
    if void is not None:
        request["void"] = void
    if flags:
        request["flags"] = [flags] if isinstance(flags, str) else list(flags)
    try:
        return analyze(request)
    except ValueError as exc:  # TileError is a ValueError
        raise InputError(str(exc)) from None


SETTLE_VARIANTS = ("bloodshed",)


def settle(request: Mapping, variant: str = "bloodshed") -> dict:
    """Settle an exhaustive draw (`tsumolab settle`): request {"players": [four seats' hand, melds, void, won,
    kan_income]} → {"deltas", "tenpai", "flower_pig", "max_value", "breakdown"}."""
    from tsumolab.sims.bloodshed.calculator import settle_request

    if variant not in SETTLE_VARIANTS:
        raise InputError(f"--variant must be one of {', '.join(SETTLE_VARIANTS)}, got {variant!r}")
    if not isinstance(request, Mapping):
        raise InputError(f"the settle request must be a JSON object, got {type(request).__name__}")
    request = dict(request)
    if "variant" not in request:
        request["variant"] = variant
    elif request["variant"] != variant:
        raise InputError(f"the request says variant {request['variant']!r} but --variant is {variant!r}")
    try:
        return settle_request(request)
    except ValueError as exc:  # TileError is a ValueError
        raise InputError(str(exc)) from None


@contextlib.contextmanager
def _directory(out: Path | str | None) -> Iterator[Path]:
    """`out`, or a temporary directory removed on exit (the caller reads what it needs before that)."""
    if out is not None:
        yield Path(out)
        return
    with tempfile.TemporaryDirectory(prefix="tsumolab-api-") as temp:
        yield Path(temp) / "run"
