"""Decision analysis in every riichi-family mode (issue 31): the determinization keeps each mode's public facts
(sims.riichi.public_tiles) and deals the rest uniformly, advice does not depend on how the hidden tiles lie, and
`advise` answers a simulated position of each mode."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tsumolab.analyzer.advise.riichi_sampler import RiichiSampler, riichi_options
from tsumolab.analyzer.advise.riichi_view import VARIANTS
from tsumolab.policies.registry import parse_seats
from tsumolab.sims.decisions import D_PICK, D_REACT, D_TURN
from tsumolab.sims.layout import describe
from tsumolab.sims.modes import get_mode
from tsumolab.sims.riichi.astrology_pool import A_KIND, A_N
from tsumolab.sims.riichi.determinize import determinize, hidden_tiles
from tsumolab.sims.riichi.hand_state import HS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.riichi.positions import RiichiEngine
from tsumolab.sims.riichi.progress import UNIFORM
from tsumolab.sims.riichi.public_tiles import RED, public_tiles
from tsumolab.sims.riichi.tableau import ST_RED_HAND, is_red
from tsumolab.sims.shanten_tables import lookup_tables
from tests.cli_run import run_cli
from tests.sampling import assert_follows_the_pool, assert_public_fields_kept, positions

TABLES = lookup_tables()
SHOWING = ("fate", "open-deal", "mirror", "astrology")  # modes that show some of the riichi view's hidden tiles
MODES = sorted(set(VARIANTS) - {"riichi", "shura"} | set(SHOWING))
POOL_BLOCK = next(slice(lo, lo + width) for name, lo, width, _ in describe(ROBS) if name == "astrology")  # A


def _kinds_and_reds(pos, seat, public):
    ids = hidden_tiles(pos.hs, pos.obs, pos.st, pos.wall, seat, public)
    return sorted((ids // 4).tolist()), int(sum(is_red(i) for i in ids))


@pytest.mark.parametrize("slug", MODES)
def test_determinization_never_moves_a_public_fact(slug):
    """Issue 31 (DF, C, SS, F, OD, M, A …): in 1,000 determinizations per mode every public field of every seat's
    observation stays (indicators, chant runs, strike turns, cards, the eye, fate's open tiles, the open deals,
    mirror's transparent copies in hands and wall, astrology's pool …), the seat's own tiles stay, every tile the
    mode shows stays where it is (fate's open deal tiles, open-deal's starting tiles and astrology's picks still
    held, mirror's transparent copies in their hands and their wall slots, the candidates in theirs), and the
    hidden tiles are the same multiset."""
    samples = shown = 0
    for table, pos in positions(slug, seed=31, n_matches=6):
        seat = pos.seat
        public = public_tiles(pos, seat, table.topts)
        kept, kept_wall = public
        shown += int(kept.sum() + kept_wall[pos.hs[HS.pos]:].sum())
        for p in range(4):  # the true state itself satisfies what the view says
            assert (pos.obs[p, ROBS.hand:ROBS.hand + 34] >= kept[p, :34]).all()
            assert (pos.st[ST_RED_HAND + p, :3] >= kept[p, RED:RED + 3]).all()
        before = _kinds_and_reds(pos, seat, public)
        for j in range(25):
            d = pos.copy()
            assert determinize(d.hs, d.obs, d.st, d.wall, seat, 3, j, TABLES, UNIFORM, public) >= 0
            assert_public_fields_kept(d, pos)
            mine = np.arange(ROBS.SIZE) != ROBS.rng  # the seats' policy streams are keyed per sample
            assert np.array_equal(d.obs[seat, mine], pos.obs[seat, mine])
            assert np.array_equal(d.st[ST_RED_HAND + seat, :3], pos.st[ST_RED_HAND + seat, :3])
            for p in range(4):
                hand = d.obs[p, ROBS.hand:ROBS.hand + 34]
                assert hand.sum() == pos.obs[p, ROBS.hand:ROBS.hand + 34].sum()
                assert (hand >= kept[p, :34]).all()
                assert (d.st[ST_RED_HAND + p, :3] >= kept[p, RED:RED + 3]).all()
            assert np.array_equal(d.wall[kept_wall == 1], pos.wall[kept_wall == 1])
            assert _kinds_and_reds(d, seat, public) == before
            samples += 1
        if samples >= 1_000:
            break
    assert samples >= 1_000
    assert (shown > 0) == (slug in SHOWING)


@pytest.mark.parametrize("slug", MODES)
def test_determinized_wall_is_uniform_given_the_view(slug):
    """Issue 31: the first hidden live-wall slot of a late position is each hidden kind with probability
    proportional to its hidden copies (chi-square, 3,000 samples, p > 0.001); a slot the mode shows (mirror's
    transparent copies) never changes."""
    table, pos = next(positions(slug, seed=5, n_matches=20, per_hand=1,
                                want=lambda p: p.obs[0, ROBS.riichi:ROBS.riichi + 4].sum() == 0
                                and p.obs[0, ROBS.wall_left] < 40))
    seat = pos.seat
    public = public_tiles(pos, seat, table.topts)
    slot = next(i for i in range(int(pos.hs[HS.pos]), pos.wall.size) if public[1][i] == 0)
    pool = np.bincount(hidden_tiles(pos.hs, pos.obs, pos.st, pos.wall, seat, public) // 4, minlength=34)
    n = 3_000
    first = np.zeros(34, np.int64)
    for k in range(n):
        d = pos.copy()
        determinize(d.hs, d.obs, d.st, d.wall, seat, 1, k, TABLES, UNIFORM, public)
        first[d.wall[slot] // 4] += 1
    assert_follows_the_pool(first, pool)


def test_astrology_candidates_and_picks_stay_at_pick_decisions():
    """A: at pick decisions the candidates are public in their wall slots, which the mode keeps (kept_wall marks
    exactly as many slots as the pool holds, holding the pool's tiles), and the tiles other seats picked and have
    not given up since stay in their hands (some seat keeps some); 50 determinizations of each change neither the
    pool block nor those slots."""
    picks = held = 0
    for table, pos in positions("astrology", seed=13, n_matches=4, per_hand=6, want=lambda p: p.decision == D_PICK):
        kept, kept_wall = public_tiles(pos, pos.seat, table.topts)
        slots = np.nonzero(kept_wall)[0]
        pool = pos.view[ROBS.astrology + A_KIND:ROBS.astrology + A_KIND + int(pos.view[ROBS.astrology + A_N])]
        assert sorted((pos.wall[slots] // 4).tolist()) == sorted(pool.tolist())
        held += int(kept.sum())
        for j in range(50):
            d = pos.copy()
            assert determinize(d.hs, d.obs, d.st, d.wall, pos.seat, 6, j, TABLES, UNIFORM, (kept, kept_wall)) >= 0
            np.testing.assert_array_equal(d.wall[slots], pos.wall[slots])
            np.testing.assert_array_equal(d.obs[:, POOL_BLOCK], pos.obs[:, POOL_BLOCK])
            for p in range(4):
                assert (d.obs[p, ROBS.hand:ROBS.hand + 34] >= kept[p, :34]).all()
        picks += 1
    assert picks >= 20 and held > 0


def _dark(hs, p):
    """D: seat p's face-down discards hidden from the others, per kind (sims.riichi.hand_state HS dark_river)."""
    return hs[HS.dark_river + 34 * p:HS.dark_river + 34 * p + 34]


def _hidden_elsewhere(pos) -> bool:
    """Another seat than the deciding one has a face-down discard hidden from it (D)."""
    return any(_dark(pos.hs, p).sum() > 0 for p in range(4) if p != pos.seat)


@pytest.mark.slow
def test_darkness_face_down_kinds_are_dealt_again():
    """D: a face-down tile's kind is known to its discarder alone (unless opened and not locked). In 1,000
    determinizations at decisions of `shadow-player` darkness hands where other seats have such tiles (open
    decisions among them): every public field of every seat stays, the seat's own tiles and its own face-down
    kinds stay, each other seat keeps the number of its hidden face-down tiles and its face-up river, the hidden
    tiles are the same multiset, and the hidden face-down kinds are dealt again (most samples change them; at an
    open decision the tile under decision is one of its discarder's hidden kinds, and changes too)."""
    from tsumolab.sims.decisions import D_DARK_OPEN
    from tsumolab.sims.riichi.tableau import ST_RIVER

    samples = changed = opens = open_changed = 0
    for table, pos in positions("darkness", seed=7, n_matches=30, per_hand=12, want=_hidden_elsewhere,
                                spec="shadow-player"):
        seat = pos.seat
        public = public_tiles(pos, seat, table.topts)
        before = _kinds_and_reds(pos, seat, public)
        for j in range(10):
            d = pos.copy()
            assert determinize(d.hs, d.obs, d.st, d.wall, seat, 3, j, TABLES, UNIFORM, public) >= 0
            assert_public_fields_kept(d, pos)
            assert np.array_equal(d.obs[seat, ROBS.hand:ROBS.hand + 34], pos.obs[seat, ROBS.hand:ROBS.hand + 34])
            assert np.array_equal(_dark(d.hs, seat), _dark(pos.hs, seat))
            moved = False
            for p in range(4):
                assert _dark(d.hs, p).sum() == _dark(pos.hs, p).sum()
                face_up = d.st[ST_RIVER + p] - _dark(d.hs, p)
                assert np.array_equal(face_up, pos.st[ST_RIVER + p] - _dark(pos.hs, p))
                moved |= not np.array_equal(_dark(d.hs, p), _dark(pos.hs, p))
            assert _kinds_and_reds(d, seat, public) == before
            changed += moved
            if pos.decision == D_DARK_OPEN:
                cur = int(pos.hs[HS.cur])
                assert _dark(d.hs, cur)[d.hs[HS.tile]] > 0
                opens += 1
                open_changed += d.hs[HS.tile] != pos.hs[HS.tile]
            samples += 1
        if samples >= 1_000:
            break
    assert samples >= 1_000
    assert changed > 0.8 * samples and opens >= 50 and open_changed > 0.7 * opens, (changed, opens, open_changed)


def test_darkness_tile_under_an_open_decision_is_uniform_given_the_view():
    """D: at an open decision the kind of the face-down tile is each hidden kind with probability proportional to
    its hidden copies (chi-square, 3,000 samples, p > 0.001; no seat in riichi, whose tenpai hands would bend the
    pool): the seat learns nothing of it but what it cannot see."""
    from tsumolab.sims.decisions import D_DARK_OPEN

    table, pos = next(positions("darkness", seed=7, n_matches=8, per_hand=40, spec="shadow-player",
                                want=lambda p: p.decision == D_DARK_OPEN
                                and p.obs[0, ROBS.riichi:ROBS.riichi + 4].sum() == 0))
    seat = pos.seat
    public = public_tiles(pos, seat, table.topts)
    pool = np.bincount(hidden_tiles(pos.hs, pos.obs, pos.st, pos.wall, seat, public) // 4, minlength=34)
    n = 3_000
    seen = np.zeros(34, np.int64)
    for k in range(n):
        d = pos.copy()
        determinize(d.hs, d.obs, d.st, d.wall, seat, 2, k, TABLES, UNIFORM, public)
        seen[d.hs[HS.tile]] += 1
    assert_follows_the_pool(seen, pool)


def test_dragon_eye_placements_to_come_are_dealt_again():
    """DE: the eye's holder and counter are public and stay; where the next eyes go is not, so each sample keys
    the eye's stream again (two samples differ, the same sample repeats)."""
    table, pos = next(positions("dragon-eye", seed=2, n_matches=2, per_hand=1))
    public = public_tiles(pos, pos.seat, table.topts)
    streams = []
    for j in (0, 1, 0):
        d = pos.copy()
        determinize(d.hs, d.obs, d.st, d.wall, pos.seat, 4, j, TABLES, UNIFORM, public)
        streams.append(int(d.hs[HS.eye_rng]))
    assert streams[0] == streams[2] != streams[1] and pos.hs[HS.eye_rng] not in streams


@pytest.mark.slow
@pytest.mark.parametrize("slug", MODES)
def test_advice_ignores_how_the_hidden_tiles_lie_in_every_mode(slug):
    """Issue 31: rearranging the hidden tiles of the source state consistently with the view (a determinization
    with another seed, public tiles kept) leaves every rollout value identical for the same seed (D: the other
    seats' hidden face-down kinds rearranged too, at turns, reactions and open decisions of shadow-player
    hands)."""
    from tsumolab.sims.decisions import D_DARK_OPEN

    sampler = RiichiSampler("baseline", slug, {}, "uniform")
    compared = 0
    dark = slug == "darkness"
    kinds = (D_TURN, D_REACT, D_DARK_OPEN) if dark else (D_TURN, D_REACT)
    for _, pos in positions(slug, seed=4, n_matches=12 if dark else 3, per_hand=4 if dark else 1,
                            want=lambda p: p.decision in kinds and (not dark or _hidden_elsewhere(p)),
                            spec="shadow-player" if dark else "baseline"):
        answers = [a for _, a in riichi_options(pos.view, TABLES)][:3]
        moved = pos.copy()
        public = sampler.public(pos, pos.seat)
        assert determinize(moved.hs, moved.obs, moved.st, moved.wall, pos.seat, 99, 0, TABLES, UNIFORM, public) >= 0
        dealt = moved.hs.copy()
        moved.hs[:] = pos.hs
        for lo, hi in ((HS.dark_river, HS.dark_red + 12), (HS.tile, HS.tile + 1), (HS.red, HS.red + 1)):
            moved.hs[lo:hi] = dealt[lo:hi]  # D: the face-down kinds are hidden tiles too, rearranged with the rest
        moved.obs[:, ROBS.rng] = pos.obs[:, ROBS.rng]
        a = sampler.rollouts(pos, pos.seat, answers, 5, 0, 8, False)
        b = sampler.rollouts(moved, pos.seat, answers, 5, 0, 8, False)
        for x, y in zip(a, b):
            np.testing.assert_array_equal(x, y)
        compared += 1
        if compared == 4:
            break
    assert compared == 4


@pytest.mark.parametrize("slug", sorted(set(VARIANTS) - {"riichi", "shura"}))
def test_advise_answers_a_simulated_position_of_every_mode(slug, tmp_path, capsys):
    """Issue 31: `replay --advise` writes a position of the mode and `advise` rolls its options out (JSON
    output: every option valued from the same samples)."""
    code, out, err = run_cli(["replay", "--variant", slug, "--seed", "3", "--match", "0", "--hand", "1",
                              "--advise", "12"], capsys)
    assert code == 0, err
    doc = tmp_path / "position.json"
    doc.write_text(out)
    code, out, err = run_cli(["advise", str(doc), "--rollouts", "60", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert len(result["options"]) >= 2
    assert result["determinizations"] == 60 and all(o["rollouts"] == 60 for o in result["options"])


def test_advise_answers_an_astrology_pick(tmp_path, capsys):
    """A: `replay --advise` writes a pick decision (the pool shown by its candidate events) and `advise` values one
    option per candidate, `take` and the tile, on the same samples; the table names the decision a pick."""
    code, out, err = run_cli(["replay", "--variant", "astrology", "--seed", "3", "--match", "0", "--hand", "1",
                              "--advise", "3"], capsys)
    assert code == 0, err
    document = json.loads(out)
    assert document["decision"] == "pick"
    pool = [e["pai"] for e in document["events"] if e["type"] == "candidate"]
    picked = [e["pai"] for e in document["events"] if e["type"] == "tsumo" and "pick" in e]
    doc = tmp_path / "pick.json"
    doc.write_text(out)
    code, out, err = run_cli(["advise", str(doc), "--rollouts", "60", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["decision"] == "pick" and result["determinizations"] == 60
    labels = sorted(o["option"] for o in result["options"])
    left = list(pool)
    for tile in picked:
        left.remove(tile)
    assert labels == sorted(f"take {tile}" for tile in set(left)) and len(labels) == 3
    code, out, err = run_cli(["advise", str(doc), "--rollouts", "60"], capsys)
    assert code == 0 and out.startswith(f"seat {document['seat']} pick decision")


@pytest.mark.parametrize("example, best, worse", [("fate-keep", "discard 4s", "discard 1p"),
                                                  ("chant-run", "discard 3p", "discard 6p"),
                                                  ("astrology-pick", "take 9m", "take 5mr"),
                                                  ("darkness-open", "decline", "open")])
def test_readme_mode_examples(example, best, worse):
    """README worked examples 5 (F: keep the open 1p), 6 (C: keep the tsumogiri run), 7 (A: pick the candidate
    that makes the hand ready over the red five) and 8 (D: decline to open the face-down tile, alone in riichi on a
    5m kanchan with nothing in the pot): the recommended option beats the next one beyond the paired
    interval."""
    from pathlib import Path

    from tsumolab.commands.advise import run_advice

    path = Path(__file__).resolve().parent.parent / "examples" / "positions" / f"{example}.json"
    result = run_advice(json.loads(path.read_text()), rollouts=1000, horizon="hand", seat_policies="baseline",
                        seed=0, jobs=1)
    first, second = result["options"][:2]
    assert (first["option"], second["option"]) == (best, worse)
    assert second["diff_to_best"] + second["diff_ci95"] < 0


def _first_decision(slug: str, spec: str, seed: int, wanted) -> tuple[int, int]:
    """(hand, decision number) of the first decision of match 0 of a simulated run for which wanted(pos)."""
    table = RiichiEngine(parse_seats(spec), get_mode(slug).rules_class(), root_seed=seed)
    for hand_no in range(1, 9):
        full = table.play_hand(0, hand_no)
        if full is None:
            break
        for k in range(full.n_decisions):
            if wanted(table.at_decision(0, hand_no, k)):
                return hand_no, k
    raise AssertionError("no such decision in match 0")


def test_darkness_turn_options_add_face_down_discards():
    """D: at a darkness turn every discard and riichi also goes face down (FACE_DOWN + the answer) when the seat's
    points allow it (1000; 2000 with riichi), and not below; other modes have no such option."""
    from tsumolab.sims.decisions import FACE_DOWN

    _, pos = next(positions("darkness", seed=3, n_matches=2, per_hand=2, want=lambda p: p.decision == D_TURN))
    options = dict(riichi_options(pos.view, TABLES))
    plain = [label for label in options if label.startswith(("discard", "riichi")) and "face down" not in label]
    assert plain and all(options[f"{label} face down"] == FACE_DOWN + options[label] for label in plain)
    poor = pos.view.copy()
    poor[ROBS.points + pos.seat] = 999
    assert not any("face down" in label for label, _ in riichi_options(poor, TABLES))
    _, other = next(positions("riichi", seed=3, n_matches=1, per_hand=2, want=lambda p: p.decision == D_TURN))
    assert not any("face down" in label for label, _ in riichi_options(other.view, TABLES))


def test_advise_answers_a_darkness_open_position(tmp_path, capsys):
    """D: `replay --advise` writes another seat's face-down discard under an open decision ("pai": "?"), and
    `advise` rolls out its two options, open (pay 2000) and decline, from the same samples."""
    from tsumolab.sims.decisions import D_DARK_OPEN

    spec = "shadow-player(open_factor=100,reserve=0)"
    hand_no, k = _first_decision("darkness", spec, 3, lambda p: p.decision == D_DARK_OPEN)
    code, out, err = run_cli(["replay", "--variant", "darkness", "--seats", spec, "--seed", "3", "--match", "0",
                              "--hand", str(hand_no), "--advise", str(k)], capsys)
    assert code == 0, err
    document = json.loads(out)
    assert document["decision"] == "open"
    assert document["events"][-1]["reason"] == "face_down" and document["events"][-2]["pai"] == "?"
    path = tmp_path / "open.json"
    path.write_text(out)
    code, out, err = run_cli(["advise", str(path), "--rollouts", "60", "--json"], capsys)
    assert code == 0, err
    result = json.loads(out)
    assert result["decision"] == "open"
    assert {o["option"] for o in result["options"]} == {"open", "decline"}
    assert all(o["rollouts"] == 60 for o in result["options"])


def test_fate_bound_leaves_out_open_tiles_melded_in_the_positions_replay_advises():
    """F: the engine whose positions `replay --advise` and the decision claims analyse (analyzer.engines
    .riichi_engine) keeps the hand's log, so an open tile an opponent has melded is no longer kept concealed:
    at every fifth decision of two fate hands with such melds, no kept count exceeds a concealed hand. Without the
    log, public_tiles refuses a fate position rather than keep melded tiles concealed."""
    from tsumolab.analyzer.engines import riichi_engine
    from tsumolab.sims.riichi.public_tiles import own_melded

    table = riichi_engine("fate", "baseline", 3, "{}")
    melded = 0
    for hand_no in (1, 2):
        for k in range(0, table.play_hand(0, hand_no).n_decisions, 5):
            pos = table.at_decision(0, hand_no, k)
            kept, _ = public_tiles(pos, pos.seat, table.topts)
            for p in range(4):
                assert (kept[p, :34] <= pos.obs[p, ROBS.hand:ROBS.hand + 34]).all()
            fate_open = pos.obs[0, ROBS.fate_open:ROBS.fate_open + 4 * 34].reshape(4, 34)
            melded += int(((own_melded(pos.logged()) > 0) & (fate_open > 0)).any())
    assert melded > 0
    unlogged = RiichiEngine(parse_seats("baseline"), get_mode("fate").rules_class(), root_seed=3)
    pos = unlogged.at_decision(0, 1, 0)
    with pytest.raises(ValueError, match="a fate position needs its event log"):
        public_tiles(pos, pos.seat, unlogged.topts)
