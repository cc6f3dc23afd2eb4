"""`tsumolab hand`: shanten and waits of known hands, B-10 seven pairs, every bad-input class, and batches."""

from __future__ import annotations

import json
import random
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import tsumolab.commands.hand  # noqa: F401  (registers `hand` on the group)
from tsumolab.cli import cli, main

ROOT = Path(__file__).resolve().parents[1]
TSUMOLAB = str(ROOT / ".venv" / "bin" / "tsumolab")  # the installed console script (tsumolab.cli:main)
ALL_MANZU = [f"{r}m" for r in range(1, 10)]
ORPHANS = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def run(args: list[str], stdin: str | None = None):
    return CliRunner().invoke(cli, ["hand", *args], input=stdin)


def hand_json(args: list[str]) -> dict:
    res = run(args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def main_exit(args: list[str], capsys) -> tuple[int, str, str]:
    """Run the real console entry point; returns (exit code, stdout, stderr)."""
    with pytest.raises(SystemExit) as stop:
        main(["hand", *args])
    out, err = capsys.readouterr()
    return stop.value.code, out, err


# --- known hands ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "args, shanten, waits",
    [
        (["123m456p789s1122z"], 0, ["1z", "2z"]),                       # shanpon on two honor pairs
        (["1112345678999m"], 0, ALL_MANZU),                             # nine gates: all nine manzu
        (["19m19p19s1234567z"], 0, ORPHANS),                            # thirteen orphans, 13-sided
        (["123m456p789s1234z"], 2, []),                                 # 2-shanten: waits only for tenpai
        (["147m258p369s1234z"], 6, []),
        (["23m567p789p55s", "--melds", "pon 999s"], 0, ["1m", "4m"]),   # ryanmen with a pon
        (["123m456p789s1122z", "--variant", "riichi"], 0, ["1z", "2z"]),
    ],
)
def test_known_shanten_and_waits(args, shanten, waits):
    out = hand_json(args)
    assert out["shanten"] == shanten
    assert out["waits"] == waits
    assert out["win"] is None


def test_wait_held_four_times_is_no_wait_b20():
    """B-20: a kind held four times (hand + melds) is not a winning tile; an open kan of 4m removes 4m."""
    assert hand_json(["23m567p789p55s", "--variant", "bloodshed", "--melds", "pon 999s"])["waits"] == ["1m", "4m"]
    out = hand_json(["23m567p789p55s", "--variant", "bloodshed", "--melds", "kan 4444m"])
    assert out == {"shanten": 0, "waits": ["1m"], "win": None}
    # Single wait on a kind whose other three copies sit in a pon: shape tenpai, no wait left.
    out = hand_json(["1m234p567p789s", "--melds", "pon 111m"])
    assert out == {"shanten": 0, "waits": [], "win": None}
    assert hand_json(["1111m234p567p789s"])["waits"] == []  # all four in hand: the tanki needs a fifth 1m


def test_seven_pairs_with_four_of_a_kind_b10():
    """B-10: in bloodshed four of a kind is two pairs (complete 龙七对 shape); riichi needs seven distinct pairs."""
    bloodshed = hand_json(["1111p335577p99s22s", "--variant", "bloodshed", "--win-tile", "2s"])
    riichi = hand_json(["1111p335577p99s22s", "--variant", "riichi", "--win-tile", "2s"])
    assert bloodshed["shanten"] == -1
    # B-19a/B-19b: 龙七对 4 fan = 8000; its one four-of-a-kind is not also counted as a 根.
    assert (bloodshed["win"]["pattern"], bloodshed["win"]["fan"], bloodshed["win"]["value"]) == ("龙七对", 4, 8000)
    assert riichi["shanten"] == 1 and riichi["win"] is None
    # The 13-tile hand before the win: bloodshed tenpai on 2s; riichi two away (five distinct pairs).
    assert hand_json(["1111p335577p99s2s", "--variant", "bloodshed"]) == {"shanten": 0, "waits": ["2s"], "win": None}
    assert hand_json(["1111p335577p99s2s", "--variant", "riichi"])["shanten"] == 2


def test_fourteen_tiles_waits_come_from_the_hand_without_the_winning_tile():
    out = hand_json(["123m456p789s11222z", "--win-tile", "2z"])
    assert (out["shanten"], out["waits"]) == (-1, ["1z", "2z"])
    # non-dealer (seat South, round East) ron on 2z: South triplet is a yaku (1 han); fu 20 + 10 closed
    # ron + 2 East (round wind) pair + 4 ronned honor triplet = 36 -> 40; 1 han 40 fu = 1300.
    win = out["win"]
    assert (win["han"], win["fu"], win["total"], win["yaku"]) == (1, 40, 1300, [["Yakuhai (seat wind south)", 1]])
    out = hand_json(["123m456p789s11222z"])  # no win tile: no waits guessed; the best winning tile is scored
    assert (out["shanten"], out["waits"]) == (-1, [])
    # best reading: an edge/closed/pair wait (+2) with the South triplet closed (8): 42 -> 50 fu = 1600
    assert (out["win"]["fu"], out["win"]["total"]) == (50, 1600)
    out = hand_json(["123m456p789s12345z"])
    assert out["shanten"] == 2 and out["waits"] == [] and out["win"] is None


def test_riichi_accepts_red_fives_chi_and_honors():
    out = hand_json(["406m789p5s", "--melds", "chi 123s", "--melds", "pon 777z"])
    assert out == {"shanten": 0, "waits": ["5s"], "win": None}


def test_bloodshed_complete_hand_is_scored_and_void_tile_voids_it_b7():
    """B-19: a two-suit hand with no pattern is 底和, 1 fan = 1000; tsumo adds 1000 per payer. B-7: void tile, no
    win."""
    base = ["123m456m789m123p55p", "--variant", "bloodshed", "--win-tile", "5p"]
    scored = hand_json(base)  # no --void: scored as if s (untouched) were the void suit
    assert scored["shanten"] == -1
    assert (scored["win"]["fan"], scored["win"]["value"]) == (1, 1000)
    assert hand_json([*base, "--void", "s"])["win"] == scored["win"]
    assert hand_json([*base, "--void", "s", "--tsumo"])["win"]["tsumo_payment"] == 2000
    voided = hand_json([*base, "--void", "p"])
    assert voided == {"shanten": -1, "waits": ["5p"], "win": None, "reason": "void"}
    # Same answer when the scorer has flags to check first.
    flagged = hand_json([*base, "--void", "p", "--flag", "last_tile"])
    assert flagged["win"] is None and flagged["reason"] == "void"


def test_bloodshed_hand_touching_three_suits_cannot_win_b7():
    out = hand_json(["123m456p789s11122s", "--variant", "bloodshed"])
    assert out == {"shanten": -1, "waits": [], "win": None, "reason": "void"}


def test_bloodshed_one_suit_hand_b19a():
    """B-19a: 清一色 3 fan = 4000 (no 根: no kind held four times)."""
    out = hand_json(["11123456789995m", "--variant", "bloodshed", "--win-tile", "5m", "--void", "p"])
    assert out["shanten"] == -1
    assert out["waits"] == ALL_MANZU  # nine gates minus the 5m: waits on every manzu
    assert (out["win"]["pattern"], out["win"]["fan"], out["win"]["value"]) == ("清一色", 3, 4000)
    pretty = run(["11123456789995m", "--variant", "bloodshed", "--win-tile", "5m", "--void", "p", "--pretty"])
    assert "清一色" in pretty.output and "4000" in pretty.output


def test_pretty_output_is_a_few_readable_lines():
    res = run(["123m456p789s1122z", "--pretty"])
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert 3 <= len(lines) <= 6
    assert any("tenpai" in line for line in lines)
    assert any("1z 2z" in line for line in lines)


def test_output_file_is_written(tmp_path):
    target = tmp_path / "one.json"
    res = run(["123m456p789s1122z", "--output", str(target)])
    assert res.exit_code == 0 and res.output == ""
    assert json.loads(target.read_text())["waits"] == ["1z", "2z"]
    assert [p.name for p in tmp_path.iterdir()] == ["one.json"]  # no temporary file left behind


# --- bad input: one line on stderr, exit code 2 --------------------------------------------------------

BAD_INPUTS = [
    (["123m456p789s1122z", "--variant", "shura"], "shura"),                              # unknown variant
    (["123m456p789s112z"], "12 tiles"),                                                 # too few
    (["123m456p789s112233z"], "15 tiles"),                                              # too many
    (["123m456p789s11z", "--melds", "pon 111z"], "more than four copies of 1z"),        # 5 copies with a meld
    (["11111m"], "more than four copies"),                                              # 5 copies in hand
    (["456p789s1122s", "--melds", "chi 123m", "--variant", "bloodshed"], "no chi"),     # chi in bloodshed
    (["123m456p789s1122z", "--variant", "bloodshed"], "honor"),                         # honors in bloodshed
    (["123m406p789s11223s", "--variant", "bloodshed"], "red five"),                     # red five in bloodshed
    (["123m456p789s11222z", "--win-tile", "3z"], "not in the hand"),                    # win tile not held
    (["123m456p789s1122z", "--win-tile", "1z"], "13-tile hand"),                        # win tile on 13 tiles
    (["123m456p789s11x22z"], "bad character"),                                          # unparsable tiles
    (["123m456p789s1122z", "--melds", "pon 123m"], "not a pon"),                        # bad meld
    (["123m456p789s1122z", "--void", "m"], "bloodshed rule"),                           # void in riichi
    (["123m456p789s1122z", "--flag", "last_tile"], "bloodshed scorer"),                 # flags in riichi
    (["123m456m789m123p55p", "--variant", "bloodshed", "--flag", "kan_draw"], "kan_draw"),  # scorer rejects
    (["123m456m789m123p55p", "--variant", "bloodshed", "--flag", "nope"], "unknown flag"),
    ([], "give a HAND"),                                                                # nothing to analyze
    (["123m456p789s1122z", "--batch", "-"], "cannot be used with --batch"),
]


@pytest.mark.parametrize("args, message", BAD_INPUTS)
def test_bad_input_is_one_line_and_exit_2(args, message, capsys):
    code, out, err = main_exit(args, capsys)
    assert code == 2
    assert out == ""
    assert err.startswith("tsumolab: error: ") and err.count("\n") == 1, err
    assert message in err
    assert "Traceback" not in err


def test_unknown_key_in_a_request_is_rejected():
    from tsumolab.sims.analysis import analyze

    with pytest.raises(ValueError, match="unknown key"):
        analyze({"hand": "123m456p789s1122z", "colour": "red"})
    with pytest.raises(ValueError, match="missing key 'hand'"):
        analyze({"variant": "riichi"})


def test_subprocess_error_contract():
    proc = subprocess.run([TSUMOLAB, "hand", "123m456p789s11z"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("tsumolab: error: ") and proc.stderr.count("\n") == 1
    assert "11 tiles" in proc.stderr


# --- batch ---------------------------------------------------------------------------------------------

SUITED = [f"{r}{s}" for s in "mps" for r in range(1, 10)]
HONORS = [f"{r}z" for r in range(1, 8)]


def _compact(tiles: list[str]) -> str:
    by_suit = {s: sorted(t[0] for t in tiles if t[1] == s) for s in "mpsz"}
    return "".join("".join(d) + s for s, d in by_suit.items() if d)


def _complete_tiles(rng: random.Random, kinds: list[str]) -> list[str]:
    """Four sets and a pair, never a fifth copy."""
    while True:
        tiles: list[str] = []
        for _ in range(4):
            base = rng.choice(kinds)
            if base[1] != "z" and int(base[0]) <= 7 and rng.random() < 0.6:
                tiles += [f"{int(base[0]) + i}{base[1]}" for i in range(3)]
            else:
                tiles += [base] * 3
        tiles += [rng.choice(kinds)] * 2
        if max(tiles.count(t) for t in tiles) <= 4:
            return tiles


def make_batch(n: int, seed: int) -> list[str]:
    """A seeded mix of 13/14-tile bloodshed and riichi requests (about 1 in 5 complete, 1 in 50 bad)."""
    rng = random.Random(seed)
    wall_b = SUITED * 4
    wall_r = (SUITED + HONORS) * 4
    lines = []
    for _ in range(n):
        variant = rng.choice(("bloodshed", "riichi"))
        kinds = SUITED if variant == "bloodshed" else SUITED + HONORS
        r = rng.random()
        obj: dict = {"variant": variant}
        if r < 0.2:
            tiles = _complete_tiles(rng, kinds)
            obj["win_tile"] = rng.choice(tiles)
            obj["tsumo"] = rng.random() < 0.5
            if variant == "bloodshed":
                absent = [s for s in "mps" if not any(t[1] == s for t in tiles)]
                obj["void"] = rng.choice(absent) if absent and rng.random() < 0.8 else rng.choice("mps")
        elif r < 0.98:
            tiles = rng.sample(wall_b if variant == "bloodshed" else wall_r, rng.choice((13, 14)))
        else:
            lines.append(rng.choice(['{"hand": "123m"', '{"variant": "bloodshed", "hand": "1234z"}', '[1, 2]']))
            continue
        obj["hand"] = _compact(tiles)
        lines.append(json.dumps(obj))
    return lines


def test_batch_keeps_order_reports_line_errors_and_exits_2(tmp_path, capsys):
    lines = make_batch(2000, seed=7)
    lines[5] = "not json at all"
    lines[17] = json.dumps({"variant": "bloodshed", "hand": "123m456p789s1122z"})
    lines[40] = json.dumps({"hand": "123m456p789s1122z", "extra": 1})
    src = tmp_path / "in.jsonl"
    src.write_text("\n".join(lines[:1000]) + "\n\n   \n" + "\n".join(lines[1000:]) + "\n")
    dst = tmp_path / "out.jsonl"
    code, out, err = main_exit(["--batch", str(src), "--output", str(dst)], capsys)
    assert code == 2 and out == ""
    assert err.startswith("tsumolab: error: ") and err.count("\n") == 1 and "line 6" in err
    results = [json.loads(line) for line in dst.read_text().splitlines()]
    assert len(results) == 2000  # the two blank lines give no output line
    assert "invalid JSON" in results[5]["error"]
    assert "honor" in results[17]["error"]
    assert "unknown key" in results[40]["error"]
    # Order: each good output matches the same request analyzed alone.
    from tsumolab.sims.analysis import analyze

    for i in range(0, 2000, 97):
        try:
            expected = analyze(json.loads(lines[i]))
        except ValueError:
            assert "error" in results[i]
            continue
        assert results[i] == expected, (i, lines[i])
    assert sum("error" in r for r in results) >= 3
    assert sum(r.get("shanten") == -1 for r in results) > 200


def test_batch_from_stdin_all_good_exits_0():
    stdin = "\n".join([json.dumps({"hand": "123m456p789s1122z"}),
                       json.dumps({"variant": "bloodshed", "hand": "1111p335577p99s2s"}),
                       json.dumps({"hand": "1111p335577p99s2s"})]) + "\n"
    res = run(["--batch", "-"], stdin=stdin)
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines()]
    assert [r["waits"] for r in rows] == [["1z", "2z"], ["2s"], []]
    assert [r["shanten"] for r in rows] == [0, 0, 2]


def test_batch_variant_option_is_the_default_for_lines_without_one():
    stdin = json.dumps({"hand": "1111p335577p99s2s"}) + "\n"
    res = run(["--batch", "-", "--variant", "bloodshed"], stdin=stdin)
    assert res.exit_code == 0
    assert json.loads(res.output)["waits"] == ["2s"]


@pytest.mark.slow
def test_batch_of_100k_lines_under_10_seconds(tmp_path):
    """Acceptance: 100,000 lines including start-up in under 10 s (numba kernels loaded from cache)."""
    src = tmp_path / "big.jsonl"
    src.write_text("\n".join(make_batch(100_000, seed=2024)) + "\n")
    dst = tmp_path / "big.out.jsonl"
    cmd = [TSUMOLAB, "hand", "--batch", str(src), "--output", str(dst)]
    subprocess.run(cmd, cwd=ROOT, capture_output=True, timeout=600)  # warm the caches
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    elapsed = time.perf_counter() - start
    assert proc.returncode == 2 and "request(s) failed" in proc.stderr  # the mix holds a few bad lines on purpose
    assert sum(1 for _ in dst.open()) == 100_000
    assert elapsed < 10.0, f"{elapsed:.2f} s"


def test_kan_counts_as_three_tiles_and_its_four_copies_give_a_gen_b19b():
    """A closed kan fills 3 of the 14 places; B-19b: its four copies are one 根, so 底和 1 + 1 = 2 fan = 2000."""
    out = hand_json(["123m456m789m55p", "--variant", "bloodshed", "--melds", "ankan 1111p", "--win-tile", "5p"])
    assert out["shanten"] == -1 and out["waits"] == ["5p"]
    assert (out["win"]["fan"], out["win"]["value"]) == (2, 2000)


def test_red_five_win_tile_is_a_different_tile_from_a_plain_five():
    assert hand_json(["123m406p789s11222z", "--win-tile", "0p"])["waits"] == ["5p"]
    assert run(["123m406p789s11222z", "--win-tile", "5p"]).exit_code == 2  # only the red 5p is held
    assert run(["123m456p789s11222z", "--win-tile", "0p"]).exit_code == 2


def test_riichi_batch_agrees_with_the_mahjong_package():
    """Independent oracle: riichi shanten and waits (no melds) of 400 seeded hands against `mahjong`:
    half random 13-tile hands, half a complete hand with one tile taken out (tenpai, many waits)."""
    from mahjong.shanten import Shanten

    rng = random.Random(11)
    wall = (SUITED + HONORS) * 4
    names = SUITED + HONORS  # kind order
    hands = []
    while len(hands) < 400:
        if len(hands) % 2:
            tiles = rng.sample(wall, 13)
        else:
            tiles = _complete_tiles(rng, names)
            tiles.remove(rng.choice(tiles))
        counts = [tiles.count(name) for name in names]
        if max(counts) < 4:  # four copies in hand: the two libraries define the tanki on the 5th copy differently
            hands.append((_compact(tiles), counts))
    res = run(["--batch", "-"], stdin="".join(json.dumps({"hand": h}) + "\n" for h, _ in hands))
    assert res.exit_code == 0
    n_tenpai = 0
    for (hand, counts), line in zip(hands, res.output.splitlines()):
        out = json.loads(line)
        assert out["shanten"] == Shanten.calculate_shanten(counts), hand
        expected = []
        for k in range(34):
            counts[k] += 1
            if Shanten.calculate_shanten(counts) == -1:
                expected.append(names[k])
            counts[k] -= 1
        assert out["waits"] == expected, hand
        n_tenpai += out["shanten"] == 0
    assert n_tenpai >= 150
