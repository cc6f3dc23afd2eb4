"""`tsumolab review`: the decisions of one seat of a game, judged from that seat's view only (issue: review a real
game). Games here are simulated matches read back through the mjai reader; the real logs are in
tests/test_games_*.py."""

from __future__ import annotations

import json
import math
import random

import polars as pl
import pytest
from click.testing import CliRunner

import tsumolab.commands.review  # noqa: F401  (registers `review`)
from tests.replayed import replayed
from tsumolab.analyzer.errors import InputError
from tsumolab.analyzer.games.mjai import read_mjai
from tsumolab.analyzer.review.game_review import ReviewSpec, review_hand
from tsumolab.analyzer.review.seat_decisions import position_at, seat_decisions
from tsumolab.analyzer.review.study import run_review
from tsumolab.cli import cli

ROLLOUTS = 24


@pytest.fixture(scope="module")
def game():
    """Match 0 of seed 3 in riichi (baseline seats), as an mjai log read back."""
    return read_mjai(replayed("riichi", 3, 0)[0], title="riichi seed 3 match 0")


@pytest.fixture(scope="module")
def shura_game():
    return read_mjai(replayed("shura", 3, 0)[0], title="shura seed 3 match 0")


@pytest.mark.slow
def test_every_choice_of_a_simulated_seat_is_one_of_advise_options(game):
    """The decisions found in the log are the engine's own (they rebuild), and each choice is a legal option."""
    table = review_hand(game, ReviewSpec(seat=1, rollouts=ROLLOUTS), 1)
    per_decision = table.group_by("decision").agg(pl.col("chosen").sum())
    assert per_decision.height >= 8
    assert per_decision["chosen"].to_list() == [1] * per_decision.height


@pytest.mark.slow
def test_shura_exchange_and_turns_are_reviewed(shura_game):
    """S-2: the exchange of three is the first decision of a shura hand; its choice names the three tiles."""
    decisions = seat_decisions(shura_game.hands[0], 0, "shura")
    assert decisions[0].kind == "exchange" and decisions[0].choice.startswith("exchange ")
    assert len(decisions[0].choice.split()) == 4
    table = review_hand(shura_game, ReviewSpec(seat=0, rollouts=ROLLOUTS), 1)
    assert set(table["kind"].to_list()) >= {"turn"}
    assert table.group_by("decision").agg(pl.col("chosen").sum())["chosen"].max() == 1


def _hide_otherwise(game, seat: int, rng: random.Random):
    """The game with every tile `seat` never sees changed: the other seats' start tiles and draws replaced by
    other tiles (the log no longer adds up for them, which the seat cannot notice either)."""
    names = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]
    hands = []
    for events in game.hands:
        out = []
        for e in events:
            e = dict(e)
            if e["type"] == "start_kyoku":
                e["tehais"] = [h if s == seat else [rng.choice(names) for _ in h] for s, h in enumerate(e["tehais"])]
            elif e["type"] == "tsumo" and e["actor"] != seat:
                e["pai"] = rng.choice(names)
            out.append(e)
        hands.append(tuple(out))
    return type(game)(game.source, game.variant, tuple(hands), game.names, game.rules, game.length, game.title)


@pytest.mark.slow
def test_review_uses_only_what_the_seat_saw(game):
    """Changing everything seat 2 could not see leaves its decisions, their positions and its review identical."""
    other = _hide_otherwise(game, 2, random.Random(5))
    for h in range(game.n_hands):
        ours, theirs = seat_decisions(game.hands[h], 2, "riichi"), seat_decisions(other.hands[h], 2, "riichi")
        assert ours == theirs
        assert [position_at("riichi", game.hands[h], 2, d) for d in ours] == \
            [position_at("riichi", other.hands[h], 2, d) for d in theirs]
    spec = ReviewSpec(seat=2, rollouts=ROLLOUTS)
    assert review_hand(game, spec, 1).equals(review_hand(other, spec, 1))


@pytest.mark.slow
def test_results_do_not_depend_on_jobs_or_resume(game, tmp_path):
    spec = ReviewSpec(seat=0, hands=(1, 2), rollouts=ROLLOUTS, seed=4)
    one = run_review(game, spec, tmp_path / "one")
    two = run_review(game, spec, tmp_path / "two", jobs=2)
    assert one.table.equals(two.table) and one.summary == two.summary
    chunk = tmp_path / "one" / "hands" / "hand-002.parquet"
    chunk.write_bytes(chunk.read_bytes()[:100])  # damaged: reviewed again on --resume
    with pytest.raises(InputError, match="--resume"):
        run_review(game, spec, tmp_path / "one")
    resumed = run_review(game, spec, tmp_path / "one", resume=True)
    assert resumed.table.equals(one.table)
    with pytest.raises(InputError, match="other options"):
        run_review(game, ReviewSpec(seat=1, hands=(1, 2), rollouts=ROLLOUTS), tmp_path / "one", resume=True)


def test_summary_counts_and_flags(game, tmp_path):
    """The verdicts follow their definitions: a mistake's whole interval is above zero and its loss ≥ 300."""
    result = run_review(game, ReviewSpec(seat=3, hands=(1,), rollouts=ROLLOUTS), tmp_path / "r")
    d = result.decisions
    assert result.summary["judged"] == d.height
    assert result.summary["agree"] == int((d["choice"] == d["recommended_option"]).sum())
    flagged = d.filter(pl.col("mistake"))
    assert (flagged["loss"] - flagged["loss_ci95"] > 0).all() and (flagged["loss"] >= 300).all()
    agreeing = d.filter(pl.col("agrees"))["loss"].to_list()
    assert agreeing == [0.0] * int(d["agrees"].sum())
    assert all(math.copysign(1.0, loss) > 0 for loss in agreeing), "a best choice loses 0, never -0"


def _decision(choice_diff, choice_ci, confirmed_loss, confirmed_ci, recommended="discard 5p", choice="discard 1m"):
    """The option rows of one decision: the recommended option (the best mean) and the player's choice."""
    from tsumolab.analyzer.review.game_review import COLUMNS

    common = {"hand": 1, "round": "E1", "honba": 0, "decision": 0, "kind": "turn", "tiles": "", "choice": choice,
              "ci95": 100.0, "win_rate": 0.2, "deal_in_rate": 0.1, "rollouts": 300, "tile": "", "dora": "",
              "rivers": [""] * 4, "melds": [""] * 4}
    mine = choice == recommended
    rows = [{**common, "option": recommended, "chosen": mine, "recommended": True, "mean": 1000.0,
             "diff_to_best": 0.0, "diff_ci95": 0.0, "confirmed_loss": None, "confirmed_ci95": None}]
    if not mine:
        rows.append({**common, "option": choice, "chosen": True, "recommended": False, "mean": 1000.0 + choice_diff,
                     "diff_to_best": choice_diff, "diff_ci95": choice_ci, "confirmed_loss": confirmed_loss,
                     "confirmed_ci95": confirmed_ci})
    return pl.DataFrame(rows, schema=COLUMNS)


@pytest.mark.parametrize("race, confirmed, mistake, within", [
    ((-900.0, 300.0), (800.0, 300.0), True, False),     # both intervals above zero: a clear mistake
    ((-900.0, 300.0), (150.0, 300.0), False, True),     # the fresh samples do not confirm the race's shortfall
    ((-200.0, 300.0), (800.0, 300.0), False, False),    # the race could not tell the choice from the best
    ((-900.0, 300.0), (250.0, 200.0), False, False),    # confirmed, but below the 300-point floor
])
def test_a_clear_mistake_needs_the_race_and_the_confirmation(race, confirmed, mistake, within):
    """The verdict's loss and interval are the confirmation's (fresh determinizations); a clear mistake needs the
    race's interval and the confirmation's above zero and a loss of at least 300."""
    from tsumolab.analyzer.review.game_review import decision_summary

    row = decision_summary(_decision(*race, *confirmed)).row(0, named=True)
    assert (row["loss"], row["loss_ci95"]) == confirmed
    assert (row["mistake"], row["within_noise"], row["agrees"]) == (mistake, within, False)


def test_the_recommended_choice_loses_nothing():
    from tsumolab.analyzer.review.game_review import decision_summary

    row = decision_summary(_decision(0.0, 0.0, None, None, choice="discard 5p")).row(0, named=True)
    assert row["agrees"] and row["loss"] == 0.0 and row["within_noise"] and not row["mistake"]


@pytest.mark.slow
def test_command_writes_tables_and_report_in_each_language(game, tmp_path):
    log = tmp_path / "game.mjson"
    log.write_text("\n".join(json.dumps(e) for e in replayed("riichi", 3, 0)[0]) + "\n")
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["review", str(log), "--seat", "1", "--kyoku", "E1", "--rollouts", str(ROLLOUTS),
                                   "--out", str(out), "--lang", "en,zh,ja"])
    assert res.exit_code == 0, res.output
    assert "decisions judged" in res.output
    for name in ("review.parquet", "review.json", "review.html", "review.pdf", "review.zh.html", "review.ja.pdf"):
        assert (out / name).stat().st_size > 0
    assert "<html lang=\"ja\"" in (out / "review.ja.html").read_text(encoding="utf-8")
    again = CliRunner().invoke(cli, ["review", str(log), "--seat", "1", "--out", str(out)])
    assert again.exit_code == 2 and "--resume" in again.output


@pytest.mark.parametrize("args, message", [
    (["--seat", "4"], "--seat must be 0..3"),
    ([], "give the player"),
    (["--player", "nobody"], "no player"),
    (["--seat", "0", "--kyoku", "X9"], "not a round"),
    (["--seat", "0", "--kyoku", "S4"], "no hand S4"),
])
def test_command_refuses_bad_options_in_one_line(tmp_path, args, message):
    log = tmp_path / "game.json"
    log.write_text(json.dumps(replayed("riichi", 3, 0)[0][:200]))
    res = CliRunner().invoke(cli, ["review", str(log), "--out", str(tmp_path / "o"), *args])
    assert res.exit_code == 2 and message in res.output
    assert not (tmp_path / "o").exists()


def test_command_refuses_what_is_not_a_game(tmp_path):
    bad = tmp_path / "x.json"
    bad.write_text('{"hello": 1}')
    res = CliRunner().invoke(cli, ["review", str(bad), "--seat", "0"])
    assert res.exit_code == 2 and "not a game log" in res.output


def test_a_west_round_hand_is_advised_with_the_west_round_wind(game):
    """R-2: a South game that no one finished above 30,000 goes on into West; its hands read (bakaze W) and the
    round wind is West (round index 8..11)."""
    from tsumolab.analyzer.advise.position_advice import read_position

    decision = seat_decisions(game.hands[0], 0, "riichi")[3]
    doc = position_at("riichi", game.hands[0], 0, decision)
    doc["events"][0] = dict(doc["events"][0], bakaze="W")
    _tools, state, seat, _sampler, kind = read_position(doc)
    from tsumolab.sims.riichi.hand_state import HS

    assert (seat, kind) == (0, "turn") and int(state.hs[HS.round_wind]) == 2
    doc["events"][0]["bakaze"] = "N"
    with pytest.raises(InputError, match="bakaze must be E, S or W"):
        read_position(doc)


def _swap_unplayed_tiles(doc: dict, record, seat: int) -> dict:
    """The Mahjong Soul record with, in every hand, one start tile of each of two other seats exchanged between
    them (tiles neither seat ever plays, nor a fate record shows with its mark t), and the wall (paishan)
    reversed — but mirror's, whose transparent copies (marked t) everyone sees where they lie (M): nothing `seat`
    could see."""
    import copy

    doc = copy.deepcopy(doc)
    starts = [a["result"]["data"] for a in _record_actions(doc) if a["result"]["name"].endswith("RecordNewRound")]
    for data, events in zip(starts, record.hands):
        played = {s: set() for s in range(4)}
        for e in events:
            if e.get("actor") is not None and e["type"] in ("dahai", "chi", "pon", "daiminkan", "ankan", "kakan"):
                played[e["actor"]] |= {p.rstrip("r")[:2] for p in [e.get("pai", ""), *e.get("consumed", [])] if p}
        others = [s for s in range(4) if s != seat]
        for q1, q2 in ((others[0], others[1]), (others[0], others[2]), (others[1], others[2])):
            a = next((t for t in data[f"tiles{q1}"] if t not in played[q1] and t not in data[f"tiles{q2}"]
                      and t[0] != "0" and len(t) == 2), None)
            b = next((t for t in data[f"tiles{q2}"] if t not in played[q2] and t not in data[f"tiles{q1}"]
                      and t[0] != "0" and len(t) == 2), None)
            if a and b:
                data[f"tiles{q1}"][data[f"tiles{q1}"].index(a)] = b
                data[f"tiles{q2}"][data[f"tiles{q2}"].index(b)] = a
                break
        if "paishan" in data and "t" not in data["paishan"]:   # tsumolab's own records write none but mirror's
            tiles = [data["paishan"][i:i + 2] for i in range(0, len(data["paishan"]), 2)]
            data["paishan"] = "".join(reversed(tiles))
    return doc


def _record_actions(doc: dict) -> list[dict]:
    data = doc["data"]
    while "actions" not in data:
        data = data["data"]
    return [a for a in data["actions"] if a.get("type") == 1]


def test_review_of_a_mahjong_soul_record_uses_only_what_the_seat_saw(tmp_path):
    """A Mahjong Soul record holds every hand and the wall: changing what seat 0 could not see (other seats'
    unplayed start tiles, the wall) leaves every position of its decisions, and its review, identical."""
    from pathlib import Path

    from tsumolab.analyzer.games.read import read_game

    path = Path(__file__).parent / "data" / "majsoul" / "ranked_south.json"
    record = read_game(path)
    changed_doc = _swap_unplayed_tiles(json.loads(path.read_text(encoding="utf-8")), record, 0)
    other = tmp_path / "changed.json"
    other.write_text(json.dumps(changed_doc), encoding="utf-8")
    changed = read_game(other)
    assert changed.hands != record.hands
    for h in range(record.n_hands):
        ours = seat_decisions(record.hands[h], 0, "riichi")
        assert ours == seat_decisions(changed.hands[h], 0, "riichi")
        assert [position_at("riichi", record.hands[h], 0, d) for d in ours] == \
            [position_at("riichi", changed.hands[h], 0, d) for d in ours]
    spec = ReviewSpec(seat=0, rollouts=ROLLOUTS)
    assert review_hand(record, spec, 2).equals(review_hand(changed, spec, 2))


@pytest.mark.slow
def test_an_mjai_log_of_the_seat_own_view_reviews_the_same(game):
    """A player's own mjai log hides the other seats' tiles ("?"): its review is the full log's review."""
    from tsumolab.analyzer.review.seat_decisions import seat_view

    own = read_mjai([e for h in game.hands for e in seat_view(h, 2)])
    spec = ReviewSpec(seat=2, rollouts=ROLLOUTS)
    assert review_hand(own, spec, 1).equals(review_hand(game, spec, 1))


def test_each_decision_carries_the_table_everyone_saw(game):
    """The review's timeline (issue 29): at every decision of seat 1, each seat's river holds exactly the tiles the
    engine counts as its discards minus those called away, its melds are as many as the engine's, the dora
    indicators are the engine's, and a turn's tile is the seat's draw — on the position rebuilt from the log."""
    import numpy as np

    from tsumolab.analyzer.advise.riichi_position import build_position
    from tsumolab.sims.riichi.observation import ROBS
    from tsumolab.sims.tiles import parse_tile, parse_tiles

    checked = marked = 0
    for events in game.hands[:3]:
        for decision in seat_decisions(events, 1, "riichi"):
            table = decision.table
            _, _, _, pos = build_position(position_at("riichi", events, 1, decision))
            obs = pos.obs[1]
            seen = events[:decision.at + 1]
            for p in range(4):
                called = sum(1 for e in seen if e["type"] in ("chi", "pon", "daiminkan") and e["target"] == p)
                river = parse_tiles(table.rivers[p].replace("*", ""))[0] if table.rivers[p] else np.zeros(34, int)
                assert (river <= obs[ROBS.discarded + 34 * p:ROBS.discarded + 34 * p + 34]).all()
                assert river.sum() == obs[ROBS.n_discards + p] - called
                assert table.rivers[p].count("*") <= int(obs[ROBS.riichi + p] > 0)
                marked += table.rivers[p].count("*")
                assert len([m for m in table.melds[p].split(", ") if m]) == obs[ROBS.n_melds + p]
            dora = [parse_tile(table.dora[i:i + 2])[0] for i in range(0, len(table.dora), 2)]
            assert dora == list(obs[ROBS.dora:ROBS.dora + obs[ROBS.n_dora]])
            if decision.kind == "turn" and seen[-1]["type"] == "tsumo":
                assert table.tile == seen[-1]["pai"].rstrip("r")
            checked += 1
    assert checked >= 20 and marked > 0
