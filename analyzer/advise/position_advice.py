"""Advice on one position document: read it through its engine family's tools (analyzer.engines), list the
legal options and roll them out (analyzer.advise.evaluate). Shared by `tsumolab advise` and `tsumolab review`."""

from __future__ import annotations

import zlib

from tsumolab.analyzer.errors import InputError


class NotADecision(InputError):
    """The position is valid but its seat has nothing to decide there (see bloodshed_position.NoDecision)."""


def check_variant(variant: str) -> None:
    """Refuse, in one line, a mode that does not exist or that advise does not support yet."""
    from tsumolab.analyzer.engines import advise_modes
    from tsumolab.sims.modes import MODES

    if not isinstance(variant, str) or variant not in MODES:
        raise InputError(f"unknown mode {variant!r} (modes: {', '.join(MODES)})")
    if variant not in advise_modes():
        raise InputError(f"advise does not support mode {variant!r} yet (supported: {', '.join(advise_modes())})")


def default_rollout_field(variant: str) -> str:
    """The rollout policy of every seat when none is given: `fast-expert` in the riichi modes, whose rollouts fold
    and judge and whose recommendations and verdicts agree with real players' choices more than `baseline`'s
    (README, `tsumolab bench --agreement`) at four times `expert`'s speed; `baseline` in Bloodshed."""
    return "baseline" if variant == "bloodshed" else "fast-expert"


def read_position(position: dict, deal: str = "progress"):
    """(tools, state, seat, sampler_of, decision name) of a position document; InputError when it is refused."""
    from tsumolab.analyzer.advise.position_errors import NoDecision, PositionError
    from tsumolab.analyzer.engines import tools_for
    from tsumolab.sims.modes import DEFAULT_MODE

    try:
        tools = tools_for(position.get("variant", DEFAULT_MODE))
        state, seat, sampler_of, decision = tools.read_position(position, deal)
    except NoDecision as exc:
        raise NotADecision(f"bad position: {exc}") from None
    except PositionError as exc:
        raise InputError(f"bad position: {exc}") from None
    except (TypeError, ValueError, KeyError, IndexError, OverflowError) as exc:  # a shape the checks did not foresee
        raise InputError(f"bad position: {type(exc).__name__}: {exc}") from None
    return tools, state, seat, sampler_of, decision


def advise_position(position: dict, rollouts: int, horizon: str, seat_policies: str | None, seed: int, jobs: int,
                    progress=None, options_filter=None, deal: str = "progress", objective: str = "points",
                    confirm_choice: str | None = None, prior: bool = True) -> dict:
    """Validate the position, enumerate its options, roll them out; the result dict of
    analyzer.advise.evaluate.summarize plus seat, decision, seed and seat_policies (None: the mode's
    default_rollout_field). `progress(done, total)` is called after every batch of determinizations. `prior`: a
    riichi-mode discard recommended among the options the rollouts cannot tell apart is the one the discard prior
    finds likeliest (analyzer.advise.policy_answer).

    When the race puts the first preferred answer (`policy_choice`) outside the interval of the best mean, its
    shortfall is measured again on `rollouts` fresh determinizations (analyzer.advise.evaluate.confirm_first_choice;
    seeded by confirm_seed). With `confirm_choice` (an option other than the recommended one) the result also holds
    `confirmation`: its shortfall against the recommended option, measured the same way."""
    from tsumolab.analyzer.advise.evaluate import advise, confirm, confirm_first_choice
    from tsumolab.analyzer.advise.objectives import check_objective
    from tsumolab.policies.registry import PolicyError
    from tsumolab.sims.modes import DEFAULT_MODE

    try:
        check_objective(objective, horizon)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    tools, state, seat, sampler_of, decision = read_position(position, deal)
    seat_policies = seat_policies or default_rollout_field(position.get("variant", DEFAULT_MODE))
    try:
        sampler = sampler_of(seat_policies)
    except (PolicyError, KeyError, ValueError) as exc:
        raise InputError(f"--seat-policies: {exc}") from None
    options = tools.options(sampler, state)
    wanted = options_filter if options_filter is not None else position.get("options")
    if wanted is not None and not (isinstance(wanted, list) and wanted and all(isinstance(w, str) for w in wanted)):
        raise InputError("bad position: options must be a non-empty list of option labels such as \"discard 5m\"")
    if wanted is not None:
        labels = dict(options)
        unknown = [w for w in wanted if w not in labels]
        if unknown:
            raise InputError(f"illegal option {unknown[0]!r} here (legal: {', '.join(labels)})")
        options = [(w, labels[w]) for w in dict.fromkeys(wanted)]
    try:
        sampler.rollouts(state, seat, [options[0][1]], seed, 0, 1, False)
    except ValueError:
        raise InputError("bad position: the hidden tiles cannot be dealt consistently with the view") from None
    parallel = None
    if jobs > 1:
        from joblib import Parallel

        parallel = Parallel(n_jobs=jobs)
    result = advise(state, seat, options, sampler, rollouts, horizon, seed, jobs, progress, parallel,
                    objective=objective, prior=prior)
    result.update(seat=seat, decision=decision, seed=seed, seat_policies=seat_policies)
    labels = dict(options)

    measured: dict[tuple[str, str], dict] = {}

    def shortfall(choice: str, reference: str) -> dict:
        if (choice, reference) not in measured:
            measured[choice, reference] = confirm(state, seat, (reference, labels[reference]), (choice, labels[choice]),
                                                  sampler, rollouts, horizon, confirm_seed(seed), objective)
        return measured[choice, reference]

    confirm_first_choice(result, shortfall)
    if confirm_choice in labels and confirm_choice != result["recommended"]:
        result["confirmation"] = shortfall(confirm_choice, result["recommended"])
    return result


def confirm_seed(seed: int) -> int:
    """The seed of a confirmation's determinizations: other than the race's, fixed by it."""
    return zlib.crc32(f"confirm/{seed}".encode()) % (2 ** 31)
