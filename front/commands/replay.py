"""`tsumolab replay`: re-simulate one match and show every event, to check play and payments by hand."""

from __future__ import annotations

import json
from pathlib import Path

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.writers import FORMATS as GAME_FORMATS, check_format, game_log, write_game
from tsumolab.analyzer.replay.match import decoder_for, replay_match
from tsumolab.analyzer.runs.options import build_spec
from tsumolab.analyzer.runs.record import read_run_record, record_spec
from tsumolab.analyzer.runs.spec import RunSpec
from tsumolab.policies.registry import check_mode, load_path

OUTPUT_FORMATS = ("text", "json", *GAME_FORMATS)


@cli.command("replay")
@click.option("--variant", default="bloodshed", show_default=True, metavar="MODE", help="Mode of the match.")
@click.option("--seed", type=int, default=None, help="Root seed of the run (default 0, or the run's with --run).")
@click.option("--match", "match_id", type=int, required=True, help="Match id to replay (0-based).")
@click.option("--hand", "hand_no", type=int, default=None, help="Show only this hand (1-based).")
@click.option("--seats", default=None, help="Seat policies as for `tsumolab run` (default baseline).")
@click.option("--run", "run_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Take variant, seed, seats and rules from this run directory's run.json.")
@click.option("--rule", "rules", multiple=True, metavar="KEY=VALUE", help="Rule option (repeatable).")
@click.option("--policy-path", "policy_paths", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="Python file with extra policies (repeatable).")
@click.option("--format", "fmt", type=click.Choice(OUTPUT_FORMATS), default=None,
              help="What to print: text (default), json (the JSON lines of every event, mjai words where they exist "
                   "and the extensions: payments, passed wins, the wall), or a game log the readers of `tsumolab "
                   "review` take: mjai (JSON lines), tenhou6 (tenhou.net/6 JSON, riichi only) or majsoul (a decoded "
                   "Mahjong Soul record). The game logs are written for riichi, shura, the special riichi modes advise "
                   "supports and bloodshed (a 川麻 chuanma record); other modes are refused.")
@click.option("--json", "as_json", is_flag=True,
              help="Short for --format json (as before --format); with another --format it is refused.")
@click.option("--advise", "decision", type=int, default=None, metavar="N",
              help="Instead of the events, print the position (JSON, input of `tsumolab advise`) of the hand's "
                   "decision number N (0-based, every seat's decisions counted) from the deciding seat's view "
                   "(riichi-family modes: its mjai events up to the decision, analyzer/advise/riichi_position.py).")
def replay(variant, seed, match_id, hand_no, seats, run_dir, rules, policy_paths, fmt, as_json, decision):
    """Re-simulate one match from its seed and print every event: deal, exchange, voids, draws, discards,
    calls, passed wins, wins with pattern and fan, every payment, the exhaustive-draw settlement and the
    points after each hand. The same seed, match id and seats always give the same match. The riichi-based
    modes (every mode but bloodshed) add riichi declarations, dora indicators, han/fu, draws and riichi-stick
    payments.

    \b
    Examples:
      tsumolab replay --seed 7 --match 12
      tsumolab replay --run runs/example --match 3 --hand 2 --json
      tsumolab replay --variant riichi --seed 7 --match 0 --format tenhou6 > game.json
      tsumolab replay --variant shura --seed 3 --match 0 --format majsoul > game.json
      tsumolab replay --seed 3 --match 0 --format majsoul > bloodshed.json
      tsumolab replay --variant shura --seed 3 --match 0 --hand 1
      tsumolab replay --seed 7 --match 0 --hand 1 --advise 20 > position.json
      tsumolab replay --variant shura --seed 3 --match 0 --hand 2 --advise 30 > position.json
    """
    if match_id < 0:
        raise InputError(f"--match must be at least 0, got {match_id}")
    if as_json and fmt not in (None, "json"):
        raise InputError(f"--json is short for --format json: give --format {fmt} alone")
    fmt = "json" if as_json else fmt
    if decision is not None and fmt is not None:
        raise InputError("--advise prints a position document (JSON); it takes no --format or --json")
    spec = _replay_spec(run_dir, variant, seed, seats, rules, policy_paths, match_id)
    if decision is not None:
        click.echo(json.dumps(_position(spec, match_id, hand_no, decision)))
        return
    if fmt in GAME_FORMATS:
        check_format(fmt, spec.variant)
    events, labels, hand_rows, _ = replay_match(spec, match_id)
    played = int(hand_rows[:, 1].max())
    if hand_no is not None:
        if not 1 <= hand_no <= played:
            raise InputError(f"match {match_id} has hands 1..{played}; no hand {hand_no}")
        events = [e for e in _hand_slice(events, hand_no)]
    if fmt in GAME_FORMATS:
        click.echo(write_game(fmt, game_log(spec, match_id, events, labels)), nl=False)
        return
    if fmt == "json":
        for event in events:
            click.echo(json.dumps(event, ensure_ascii=False))
        return
    click.echo("seats: " + ", ".join(f"S{i} {label}" for i, label in enumerate(labels)))
    for line in decoder_for(spec.variant).to_text(events, labels):
        click.echo(line)


def _replay_spec(run_dir, variant, seed, seats, rules, policy_paths, match_id) -> RunSpec:
    """The run whose match is replayed: the options, or the run in `run_dir` with the options given over it."""
    if run_dir is None:
        return build_spec(variant, seats or "baseline", match_id + 1, 0 if seed is None else seed, 1, rules,
                          policy_paths)
    record = read_run_record(run_dir)
    if record is None:
        raise InputError(f"no run.json in {run_dir}")
    stored = record_spec(record)
    if not 0 <= match_id < stored.matches:
        raise InputError(f"match {match_id} is outside the run (matches 0..{stored.matches - 1})")
    if seats or rules or seed is not None:
        return build_spec(stored.variant, seats or list(stored.labels), stored.matches,
                          stored.seed if seed is None else seed, 1, rules or stored.rules.as_dict(), policy_paths)
    try:
        for path in policy_paths:
            load_path(path)
        check_mode(list(stored.seats), stored.variant)
    except ValueError as exc:
        raise InputError(str(exc)) from None
    return stored


def _position(spec: RunSpec, match_id: int, hand_no: int | None, decision: int) -> dict:
    from tsumolab.analyzer.advise.bloodshed_sampler import Sampler, stopped_state
    from tsumolab.analyzer.advise.position_advice import check_variant
    from tsumolab.analyzer.advise.bloodshed_position import position_of
    from tsumolab.analyzer.advise.riichi_position import VARIANTS, simulated_document

    if spec.variant not in VARIANTS:
        check_variant(spec.variant)
    if hand_no is None:
        raise InputError("--advise needs --hand")
    if decision < 0:
        raise InputError(f"--advise must be at least 0, got {decision}")
    if spec.variant in VARIANTS:
        position = simulated_document(spec, match_id, hand_no, decision)
    else:
        sampler = Sampler(",".join(spec.labels), spec.rules.as_dict())
        try:
            S = stopped_state(sampler, spec.seed, match_id, hand_no, decision)
        except ValueError as exc:
            raise InputError(str(exc)) from None
        position = None if S is None else position_of(S, sampler.pending_view(S), spec.variant)
    if position is None:
        raise InputError(f"hand {hand_no} of match {match_id} has fewer than {decision + 1} decisions")
    position["source"] = {"seed": spec.seed, "match": match_id, "hand": hand_no, "decision": decision,
                          "seats": list(spec.labels)}
    return position


def _hand_slice(events: list[dict], hand_no: int):
    current = None
    for event in events:
        if event["type"] == "start_kyoku":
            current = event["hand"]
        if current == hand_no:
            yield event
