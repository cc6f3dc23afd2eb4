"""Experiment files (TOML, one per claim) and the duplicate design they expand to.

An experiment pits a treatment policy against a control policy, one seat against a field of three. For every
wall seed (= match id) and field, the treatment sits in seat 0, 1, 2 and 3 in turn with the field in the other
seats, and the control plays the same walls in the same seats: 8 matches per wall seed and field. Because a
match depends only on (root seed, match id, seats), each (arm, subject seat) is one simulation cell over the
match ids 0..W-1. The format is documented in README.md, "Experiments and claims".
"""

from __future__ import annotations

import itertools
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.package_files import experiments_dir
from tsumolab.policies.registry import PolicyError, parse_seat
from tsumolab.policies.registry import get as get_policy
from tsumolab.sims.modes import get_mode

EXPERIMENTS_DIR = experiments_dir()
EXTRA_DIR_NAME = "extra"
"""subdirectory of EXPERIMENTS_DIR holding the "beyond the sources" experiments (tsumolab's own questions,
one per special mode), run by `tsumolab claims --extra`"""
BEYOND_SOURCES = "beyond the sources (tsumolab)"
"""the `source` of those experiments"""
TREATMENT_WORD = "treatment"
ARMS = ("treatment", "control")
SEATS = 4
MATCHES_PER_WALL_SEED = 2 * SEATS  # both arms, subject in each seat
HEADLINE_FIELD = "baseline"
_REQUIRED = ("id", "claim", "mode", "treatment", "control", "fields", "direction")
_OPTIONAL = ("source", "rules", "matches", "seed", "headline", "kind", "measure", "beyond_sources", "objective",
             "sweep")
KINDS = ("compare", "measure")
"""compare: treatment vs control (the duplicate design); measure: a fact measured on one field, no policy
comparison (treatment = control = the field's policy)"""
MEASURES = ("tsumo_loss",)
"""what a `measure` experiment measures: tsumo_loss = mean win value received by tsumo vs ron by earlier winners"""
OBJECTIVES = ("points", "placement")
"""what a claim's headline verdict is on: final points per match, or placement (average rank; gift-box progress
is reported beside it)"""
DEFAULT_MATCHES = 20_000
DEFAULT_SEED = 1


@dataclass(frozen=True)
class Field:
    """The three opponents of the subject seat. `label` is the file's text ("baseline", "treatment",
    "disconnected,baseline,baseline"); `opponents` are the resolved policy labels of the seats after the
    subject in turn order (subject seat + 1, + 2, + 3)."""

    label: str
    opponents: tuple[str, str, str]


@dataclass(frozen=True)
class Variant:
    """One treatment of a claim: the file's own, or one point of its `[sweep]` grid. `label` names the swept
    parameter values ("max_fan=2,until_winners=1"; "" without a sweep); `fields` are the experiment's fields
    with the word "treatment" resolved to this variant's treatment."""

    label: str
    treatment: str
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Experiment:
    id: str
    claim: str
    source: str
    mode: str
    rules: dict
    """full rule options of the mode (defaults made explicit)"""
    treatment: str
    control: str
    fields: tuple[Field, ...]
    direction: str
    matches: int
    seed: int
    headline: str
    """label of the field whose row is the claim's headline"""
    path: str = ""
    kind: str = "compare"
    measure: str = ""
    """name of the measurement of a `measure` experiment (one of MEASURES)"""
    beyond_sources: bool = False
    """tsumolab's own question, not a claim from the sources: the file's `beyond_sources` key, by default true
    for the files in experiments/extra/. Such claims form their own Holm family and report section."""
    objective: str = "points"
    """the objective of the headline verdict (one of OBJECTIVES), following the claim's wording"""
    variants: tuple[Variant, ...] = ()
    """every treatment tested (the `[sweep]` grid, or the file's treatment alone); `treatment` and `fields`
    above are those of the headline variant"""

    def __post_init__(self):
        if not self.variants:
            object.__setattr__(self, "variants", (Variant("", self.treatment, self.fields),))

    @property
    def headline_variant(self) -> str:
        return next(v.label for v in self.variants if v.treatment == self.treatment)


@dataclass(frozen=True)
class Cell:
    """One simulated seat configuration of an experiment: `arm`'s policy in `subject_seat`, the field elsewhere."""

    claim: str
    field_index: int
    arm: str
    subject_seat: int
    seats: tuple[str, str, str, str]
    variant: int = 0
    """index into Experiment.variants"""


def wall_seeds(matches: int, n_fields: int) -> int:
    """Wall seeds per field for a budget of `matches` matches over the whole experiment (rounded up); with a
    sweep `n_fields` counts every (variant, field) row."""
    if matches < 1:
        raise InputError(f"--matches must be at least 1, got {matches}")
    return math.ceil(matches / (MATCHES_PER_WALL_SEED * n_fields))


def experiment_wall_seeds(experiment: Experiment) -> int:
    """Wall seeds per field of an experiment. A `measure` has every seat play the field's policy, so its 8
    cells per wall seed are one and the same match: there `matches` counts distinct matches (= wall seeds)."""
    if experiment.kind == "measure":
        if experiment.matches < 1:
            raise InputError(f"--matches must be at least 1, got {experiment.matches}")
        return experiment.matches
    return wall_seeds(experiment.matches, len(experiment.fields) * len(experiment.variants))


def cells(experiment: Experiment) -> list[Cell]:
    """Every (variant, field, arm, subject seat) configuration, in a fixed order. Variants share the cells
    whose seats are the same (the control arm outside the "treatment" field)."""
    out = []
    for v, variant in enumerate(experiment.variants):
        for f, fld in enumerate(variant.fields):
            for arm in ARMS:
                subject = variant.treatment if arm == "treatment" else experiment.control
                for seat in range(SEATS):
                    seats = [""] * SEATS
                    seats[seat] = subject
                    for k, opponent in enumerate(fld.opponents, start=1):
                        seats[(seat + k) % SEATS] = opponent
                    out.append(Cell(experiment.id, f, arm, seat, tuple(seats), v))
    return out


def load_experiment(path: Path | str, rule_overrides: dict | None = None) -> Experiment:
    """Read and validate an experiment file; every problem is an InputError naming the file."""
    path = Path(path)
    data = read_toml(path)
    try:
        return _from_dict(data, str(path), rule_overrides or {})
    except (ValueError, TypeError, KeyError, ArithmeticError) as exc:
        raise InputError(f"{path}: {exc}") from None


def read_toml(path: Path) -> dict:
    """The TOML document in `path`; InputError when the file is missing, unreadable or not TOML."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"experiment file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not valid TOML (not UTF-8 text)") from None
    except RecursionError:
        raise InputError(f"{path}: not valid TOML (nested too deeply)") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def mode_experiments(mode: str | None = "bloodshed", directory: Path = EXPERIMENTS_DIR,
                     rule_overrides: dict | None = None, extra: bool = False) -> list[Experiment]:
    """Every experiment file of `mode` (None = of every mode) in `directory`, sorted by id; with `extra` also
    the "beyond the sources" files of `directory/extra/`, after the others (sorted by id too)."""
    paths = sorted(directory.glob("*.toml"))
    if extra:
        paths += sorted((directory / EXTRA_DIR_NAME).glob("*.toml"))
    found = []
    for path in paths:
        data = read_toml(path)
        if mode is None or data.get("mode") == mode:
            found.append(load_experiment(path, rule_overrides))
    return sorted(found, key=lambda e: (e.beyond_sources, e.id))


def extra_experiment_ids(mode: str | None = None, directory: Path = EXPERIMENTS_DIR) -> list[str]:
    """Ids of the "beyond the sources" files (of `mode`, None = every mode), read without validating them."""
    ids = []
    for path in sorted((directory / EXTRA_DIR_NAME).glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text())
        except tomllib.TOMLDecodeError:
            continue
        if mode is None or data.get("mode") == mode:
            ids.append(str(data.get("id", path.stem)))
    return ids


def select(experiments: list[Experiment], only: str | None) -> list[Experiment]:
    """The experiments named in `only` ("B1,B4"; None = all); an unknown id is an InputError."""
    if not only:
        return experiments
    wanted = [s.strip() for s in only.split(",") if s.strip()]
    known = {e.id: e for e in experiments}
    unknown = [w for w in wanted if w not in known]
    if unknown or not wanted:
        raise InputError(f"--only: unknown claim id(s) {', '.join(unknown) or repr(only)}; "
                         f"known: {', '.join(known)}")
    return [known[w] for w in dict.fromkeys(wanted)]


def _from_dict(data: dict, path: str, rule_overrides: dict) -> Experiment:
    kind = data.get("kind", "compare")
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, got {kind!r}")
    if kind == "measure":
        data = _measure_defaults(data)
    elif "measure" in data:
        raise ValueError("measure applies to kind = \"measure\" only")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"missing key(s) {', '.join(missing)}")
    unknown = set(data) - set(_REQUIRED) - set(_OPTIONAL)
    if unknown:
        raise ValueError(f"unknown key(s) {', '.join(sorted(unknown))}")
    mode = get_mode(str(data["mode"]))
    rules = mode.rules_class.from_dict({**dict(data.get("rules", {})), **rule_overrides}).as_dict()
    treatment = _policy_label(data["treatment"], "treatment")
    control = _policy_label(data["control"], "control")
    if not isinstance(data["fields"], list) or not data["fields"]:
        raise ValueError("fields must be a non-empty list")
    fields = tuple(_field(spec, treatment) for spec in data["fields"])
    variants = _variants(data, treatment)
    if not any(v.treatment == treatment for v in variants):
        treatment = variants[0].treatment
        fields = variants[0].fields
    labels = [f.label for f in fields]
    if len(set(labels)) != len(labels):
        raise ValueError(f"fields are listed twice: {labels}")
    direction = data["direction"]
    if direction not in ("greater", "less"):
        raise ValueError(f"direction must be 'greater' or 'less', got {direction!r}")
    headline = data.get("headline", HEADLINE_FIELD if HEADLINE_FIELD in labels else labels[0])
    if headline not in labels:
        raise ValueError(f"headline field {headline!r} is not one of the fields {labels}")
    beyond = data.get("beyond_sources", Path(path).parent.name == EXTRA_DIR_NAME)
    if not isinstance(beyond, bool):
        raise ValueError(f"beyond_sources must be true or false, got {beyond!r}")
    objective = data.get("objective", "points")
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}, got {objective!r}")
    matches, seed = int(data.get("matches", DEFAULT_MATCHES)), int(data.get("seed", DEFAULT_SEED))
    if matches < 1 or seed < 0:
        raise ValueError("matches must be at least 1 and seed at least 0")
    return Experiment(
        id=str(data["id"]), claim=str(data["claim"]), source=str(data.get("source", "")), mode=str(data["mode"]),
        rules=rules, treatment=treatment, control=control, fields=fields, direction=direction,
        matches=matches, seed=seed, headline=headline, path=path, kind=kind, measure=str(data.get("measure", "")),
        beyond_sources=beyond, objective=objective, variants=variants,
    )


def _variants(data: dict, treatment: str) -> tuple[Variant, ...]:
    """The treatment of every point of the file's `[sweep]` grid (parameter → list of values, the product
    of the lists in the file's order), each with its fields; without a sweep the file's treatment alone."""
    sweep = data.get("sweep", {})
    if not isinstance(sweep, dict):
        raise ValueError("sweep must be a table of treatment parameter = [values]")
    if not sweep:
        return (Variant("", treatment, tuple(_field(spec, treatment) for spec in data["fields"])),)
    if data.get("kind", "compare") != "compare":
        raise ValueError("a measure has no treatment to sweep")
    seat = parse_seat(treatment)
    declared = {p.name for p in get_policy(seat.name).params}
    for name, values in sweep.items():
        if name not in declared:
            raise ValueError(f"sweep: {seat.name} has no parameter {name!r} (it has {', '.join(sorted(declared))})")
        if not isinstance(values, list) or not values or len(set(map(repr, values))) != len(values):
            raise ValueError(f"sweep: {name} must be a non-empty list of distinct values, got {values!r}")
    out = []
    for point in itertools.product(*sweep.values()):
        params = {**seat.params, **dict(zip(sweep, point))}
        label = _policy_label(seat.name + "(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")", "sweep")
        out.append(Variant(",".join(f"{k}={v}" for k, v in zip(sweep, point)), label,
                           tuple(_field(spec, label) for spec in data["fields"])))
    return tuple(out)


def _measure_defaults(data: dict) -> dict:
    """A measure runs on one field of a single policy; treatment and control are that policy."""
    if data.get("measure") not in MEASURES:
        raise ValueError(f"measure must be one of {', '.join(MEASURES)}, got {data.get('measure')!r}")
    fields = data.get("fields")
    if not (isinstance(fields, list) and len(fields) == 1 and isinstance(fields[0], str)
            and fields[0].strip() != TREATMENT_WORD):
        raise ValueError("a measure takes exactly one field, a single policy spec (e.g. fields = [\"baseline\"])")
    given = [k for k in ("treatment", "control") if k in data and data[k] != fields[0]]
    if given:
        raise ValueError(f"a measure has no {' or '.join(given)} of its own (both are the field's policy)")
    return {**data, "treatment": fields[0], "control": fields[0]}


def _policy_label(spec: str, what: str) -> str:
    if not isinstance(spec, str):
        raise ValueError(f"{what} must be a policy spec string, got {spec!r}")
    try:
        return parse_seat(spec).label
    except PolicyError as exc:
        raise ValueError(f"{what}: {exc}") from None


def _field(spec, treatment: str) -> Field:
    if isinstance(spec, str):
        specs, label = [spec] * 3, spec
    elif isinstance(spec, list) and len(spec) == 3 and all(isinstance(s, str) for s in spec):
        specs, label = spec, ",".join(spec)
    else:
        raise ValueError(f"a field is a policy spec or a list of 3 specs, got {spec!r}")
    opponents = tuple(treatment if s.strip() == TREATMENT_WORD else _policy_label(s, "field") for s in specs)
    return Field(label, opponents)
