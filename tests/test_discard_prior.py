"""The discard prior (analyzer.prior): its features (policies.discard_features) on views written by hand, the
training data read from real games, training, the weights file, the shipped prior against real players' discards,
and advise's use of it."""

from __future__ import annotations

import numpy as np
import pytest

from tests.riichi_views import declare_riichi, kind, view
from tsumolab.analyzer.prior.answers import discarded_kind
from tsumolab.analyzer.prior.extract import game_discards, path_discards
from tsumolab.analyzer.prior.model import DiscardPrior, PriorError, shipped_prior
from tsumolab.analyzer.prior.riichi import RIICHI_FEATURES, fit_riichi, riichi_features, riichi_probability
from tsumolab.analyzer.prior.train import (
    agreement, best_shanten, choices_of, fit, riichi_agreement, riichi_choices_of,
)
from tsumolab.policies.discard_features import FEATURES, MAX_OPTIONS, N_FEATURES, discard_features
from tsumolab.policies.riichi_api import D_REACT, PASS, RIICHI, RON, ROBS, TSUMO, TSUMOGIRI
from tsumolab.sims.shanten_tables import lookup_tables

F = {name: i for i, name in enumerate(FEATURES)}
HAND = "2349m456p789s1157z"   # 1-shanten: 234m 456p 789s, the 1z pair (the round wind), 9m 5z 7z floating
REAL_GAME = "tests/data/tenhou_xml/2016052515gm-00a9-0000-c4d72066.mjlog"
HUMAN_LOGS = ["tests/data/tenhou6/ranked_game.json", "tests/data/majsoul/ranked_south.json",
              *(f"tests/data/tenhou_xml/{name}" for name in ("2011020415gm-00a9-0000-e037b629.mjlog",
                                                            "2016052515gm-00a9-0000-c4d72066.mjlog",
                                                            "2023053016gm-0029-0000-e54b3b98.xml"))]


def _features(obs):
    rows = np.zeros((34, N_FEATURES))
    allowed = np.zeros(34, np.uint8)
    discard_features(obs, lookup_tables(), rows, allowed)
    return rows, allowed


def test_features_say_which_discards_keep_the_shanten_and_what_they_give_up():
    """The floating 9m, 5z and 7z keep the hand one away; a tile of a set does not. Honors, yakuhai (the round
    wind 1z, a dragon), the yakuhai pair broken and the tile just drawn are marked."""
    obs = view(HAND, tile="7z")
    rows, allowed = _features(obs)
    assert sorted(np.flatnonzero(allowed)) == sorted(kind(t) for t in ("2m", "3m", "4m", "9m", "4p", "5p", "6p",
                                                                     "7s", "8s", "9s", "1z", "5z", "7z"))
    keeps = {t for t in ("2m", "3m", "4m", "9m", "4p", "1z", "5z", "7z")
             if rows[kind(t), F["keeps the lowest shanten"]]}
    assert keeps == {"9m", "5z", "7z"}
    assert rows[kind("5z"), F["yakuhai"]] == 1 and rows[kind("1z"), F["a yakuhai pair broken"]] == 1
    assert rows[kind("9m"), F["honor"]] == 0 and rows[kind("9m"), F["terminal"]] == 1
    assert rows[kind("7z"), F["the tile just drawn"]] == 1 and rows[kind("5z"), F["the tile just drawn"]] == 0
    assert rows[kind("2m"), F["best shanten 1"]] == 1 and rows[kind("2m"), F["threatened"]] == 0


def test_features_read_the_threat_a_riichi_makes():
    """R-4: against seat 2's riichi with 9m in its river, 9m is genbutsu and costs nothing; 5p has no safety."""
    obs = view(HAND, tile="7z")
    declare_riichi(obs, 2, "9m")
    rows, _ = _features(obs)
    assert rows[kind("9m"), F["genbutsu against every threat"]] == 1 and rows[kind("9m"), F["deal-in cost / 8000"]] == 0
    assert rows[kind("5p"), F["no safety against a threat"]] == 1 and rows[kind("5p"), F["deal-in cost / 8000"]] > 0
    assert rows[kind("5p"), F["threatened"]] == 1 and rows[kind("5p"), F["riichi threats"]] == 1


def test_a_kind_swap_calling_forbids_is_not_allowed():
    """After its own chi or pon the seat may not discard the kinds obs[forbid_a] / obs[forbid_b]."""
    obs = view(HAND, tile="7z")
    obs[ROBS.after_call], obs[ROBS.forbid_a] = 1, kind("9m")
    _, allowed = _features(obs)
    assert allowed[kind("9m")] == 0 and allowed[kind("5z")] == 1


def test_discarded_kind_reads_every_discard_answer():
    obs = view(HAND, tile="7z")
    assert discarded_kind(obs, kind("5z")) == kind("5z")
    assert discarded_kind(obs, TSUMOGIRI) == kind("7z")
    assert discarded_kind(obs, RIICHI + kind("9m")) == kind("9m")
    assert discarded_kind(obs, RIICHI + TSUMOGIRI) == kind("7z")
    assert discarded_kind(obs, TSUMO) == -1


@pytest.fixture(scope="module")
def real_discards():
    from tsumolab.analyzer.games.read import read_game

    return game_discards(read_game(REAL_GAME))


@pytest.mark.slow
def test_one_replay_per_hand_gives_the_views_review_rebuilds(real_discards):
    """Each discard's observation, from one replay of its hand with every tile known, is the one review builds
    from the seat's own view of that decision (the random state aside); its kind is the player's choice. Three
    hands of a real game."""
    from tsumolab.analyzer.advise.position_advice import read_position
    from tsumolab.analyzer.games.read import read_game
    from tsumolab.analyzer.review.game_review import decisions_of, position_of_decision
    from tsumolab.sims.tiles import tile_name

    record = read_game(REAL_GAME)
    by_turn = {(int(h), int(s), int(v[ROBS.n_discards + s])): (v, int(k)) for v, k, h, s in
               zip(real_discards.views, real_discards.kinds, real_discards.hands, real_discards.seats)}
    compared = 0
    for hand in (1, 2, 4):
        events = record.hands[hand - 1]
        for seat in range(4):
            for decision in decisions_of(record, events, seat):
                words = decision.choice.split()
                if decision.kind != "turn" or words[0] not in ("discard", "riichi"):
                    continue
                _, state, _, _, _ = read_position(position_of_decision(record, events, seat, decision))
                key = (hand, seat, int(state.view[ROBS.n_discards + seat]))
                if key not in by_turn:  # the last turn of the hand, where the replay stops
                    continue
                view_, kind_ = by_turn[key]
                same = view_ == state.view[:view_.shape[0]]
                same[ROBS.rng] = True
                assert same.all(), (key, np.flatnonzero(~same))
                assert tile_name(kind_) == words[1]
                compared += 1
    assert compared >= 100


def test_packed_rows_are_the_features_of_each_allowed_kind(real_discards):
    choices = choices_of(real_discards)
    assert choices.rows.shape == (len(real_discards), MAX_OPTIONS, N_FEATURES)
    obs = np.zeros(ROBS.SIZE, np.int32)
    for i in (0, 57, len(real_discards) - 1):
        obs[:real_discards.views.shape[1]] = real_discards.views[i]
        rows, allowed = _features(obs)
        kinds = np.flatnonzero(allowed)
        assert list(choices.kinds[i][:len(kinds)]) == list(kinds) and (choices.kinds[i][len(kinds):] == -1).all()
        assert np.allclose(choices.rows[i, :len(kinds)], rows[kinds], atol=1e-6)
        assert choices.kinds[i][choices.chosen[i]] == real_discards.kinds[i]


@pytest.mark.slow
def test_training_learns_a_rule_and_repeats_itself(real_discards):
    """A prior trained to discard the kind a fixed linear score of the features ranks first learns it; the same
    seed gives the same weights."""
    choices = choices_of(real_discards)
    weights = np.random.default_rng(0).normal(size=N_FEATURES)
    choices.chosen = np.where(choices.allowed, choices.rows @ weights, -np.inf).argmax(axis=1)
    riichi = riichi_choices_of(real_discards)
    first = fit(choices, riichi, hidden=8, epochs=200, seed=3)
    assert agreement(first, choices).mean() >= 0.9
    again = fit(choices, riichi, hidden=8, epochs=200, seed=3)
    assert np.array_equal(first.hidden, again.hidden) and np.array_equal(first.linear, again.linear)


def test_a_saved_prior_loads_and_another_feature_version_is_refused(tmp_path):
    prior = shipped_prior()
    path = tmp_path / "p.npz"
    prior.save(path)
    loaded = DiscardPrior.load(path)
    assert np.array_equal(loaded.hidden, prior.hidden) and loaded.about == prior.about
    old = DiscardPrior(**{**prior.__dict__, "version": prior.version - 1})
    old.save(path)
    with pytest.raises(PriorError, match="version"):
        DiscardPrior.load(path)
    path.write_bytes(b"not a weights file")
    with pytest.raises(PriorError, match="cannot read"):
        DiscardPrior.load(path)


@pytest.mark.slow
def test_the_shipped_prior_picks_most_discards_of_real_players():
    """On real human games it was not trained on (tests/data; README, Agreement with real players) the shipped
    prior picks the player's discard in at least 60% of own turns, and in most ready and one-away turns."""
    discards = [path_discards(p) for p in HUMAN_LOGS]
    choices = [choices_of(d) for d in discards]
    agrees = np.concatenate([agreement(shipped_prior(), c) for c in choices])
    shanten = np.concatenate([best_shanten(c) for c in choices])
    assert len(agrees) > 1500
    assert agrees.mean() >= 0.60
    assert agrees[shanten <= 1].mean() >= 0.65


def test_advice_takes_the_prior_discard_and_its_riichi_judgement():
    """The recommendation's preferred answers (analyzer.advise.policy_answer): a discard gives way to the prior's
    order, every kind the seat holds once with and once without riichi, the likeliest first, and riichi first
    exactly where the prior's judgement declares it, whatever the policy chose (R-4): on a wait without a yaku
    with 40 tiles left, riichi; on a tanyao-dora mangan dama with 12 left, dama. A tsumo and a riichi seat's
    turn stay alone."""
    from tsumolab.analyzer.advise.policy_answer import with_prior_discards

    def with_prior_discard(obs, tables, answer):
        return with_prior_discards(obs, tables, answer)[0]

    tables = lookup_tables()
    prior = shipped_prior()
    obs = view(HAND, tile="7z")
    preference = with_prior_discards(obs, tables, kind("2m"))
    ranking = prior.ranking(obs, tables)
    assert ranking[0] == prior.choose(obs, tables)
    assert sorted(ranking) == [k for k in range(34) if obs[ROBS.hand + k]]
    assert [a for a in preference if a < RIICHI] == ranking and len(preference) == 2 * len(ranking)
    assert with_prior_discard(obs, tables, TSUMO) == TSUMO
    no_yaku = view("123m456p789s23s557z", tile="7z")          # ready on 1s-4s once the drawn 7z goes
    mangan = view("234m456p345s2366s7z", tile="7z", dora="5s", wall=12)
    for ready, declared in ((no_yaku, True), (mangan, False)):
        assert prior.choose(ready, tables) == kind("7z")
        assert prior.declares(ready, tables, kind("7z")) == declared
        judged = RIICHI + kind("7z") if declared else kind("7z")
        assert with_prior_discard(ready, tables, kind("5z")) == judged
        assert with_prior_discard(ready, tables, RIICHI + kind("5z")) == judged
    declare_riichi(no_yaku, 0, "1m")
    assert with_prior_discards(no_yaku, tables, kind("5z")) == (kind("5z"),)


def test_strong_players_take_a_win_first():
    """Strong players' order (analyzer.advise.policy_answer): a tsumo the seat may declare comes before the
    prior's discards, whatever the policy answered; a ron it may call before the policy's pass; without a win,
    the order is the prior's discards, or the policy's answer alone."""
    from tsumolab.analyzer.advise.policy_answer import strong_players_order, with_prior_discards

    tables = lookup_tables()
    turn = view("123m456p789s23s557z", tile="7z")
    assert strong_players_order(turn, tables, kind("5z")) == with_prior_discards(turn, tables, kind("5z"))
    turn[ROBS.can_win] = 1
    order = strong_players_order(turn, tables, kind("5z"))
    assert order == (TSUMO,) + with_prior_discards(turn, tables, kind("5z"))
    assert strong_players_order(turn, tables, TSUMO) == (TSUMO,)
    react = view("123m456p789s23s55z", decision=D_REACT, tile="4s")
    assert strong_players_order(react, tables, PASS) == (PASS,)
    react[ROBS.can_win] = 1
    assert strong_players_order(react, tables, PASS) == (RON, PASS)


def test_riichi_features_read_the_ready_hand():
    """R-4: a discard that leaves the hand ready and may declare riichi has features; one that does not, or a
    seat that may not declare, has none. A wait without a yaku is worth nothing dama (tsumo aside) and more with
    riichi; with tanyao (R: all simples) every winning tile gives a yaku without riichi."""
    tables = lookup_tables()
    f = {name: i for i, name in enumerate(RIICHI_FEATURES)}
    no_yaku = view("123m456p789s23s557z", tile="7z")
    x = riichi_features(no_yaku, tables, kind("7z"))
    assert x[f["ron points without riichi (thousands; 0 for a wait without a yaku)"]] == 0
    assert x[f["ron points with riichi (thousands)"]] >= 1
    assert x[f["share of the live winning tiles that give a yaku without riichi"]] == 0
    assert x[f["live winning tiles"]] == 8 and x[f["tiles left in the wall"]] == 40
    assert riichi_features(no_yaku, tables, kind("1m")) is None
    tanyao = view("234m456p345s2366s7z", tile="7z")
    x = riichi_features(tanyao, tables, kind("7z"))
    assert x[f["share of the live winning tiles that give a yaku without riichi"]] == 1
    assert x[f["ron points without riichi (thousands; 0 for a wait without a yaku)"]] >= 1
    tanyao[ROBS.can_riichi] = 0
    assert riichi_features(tanyao, tables, kind("7z")) is None


@pytest.mark.slow
def test_the_riichi_judgement_learns_a_rule_and_real_players_choices():
    """The logistic fit learns a rule of its features (declare when the wall is long and the wait has no yaku);
    the shipped judgement makes the real players' riichi-or-dama choice on ready discards of human games it was
    not trained on (tests/data) more often than always declaring or never would."""
    rng = np.random.default_rng(1)
    rows = rng.normal(size=(2000, len(RIICHI_FEATURES)))
    declared = rows[:, 4] - rows[:, 2] > 0
    arrays = fit_riichi(rows, declared)
    assert ((riichi_probability(rows, **arrays) > 0.5) == declared).mean() >= 0.95
    riichi = [riichi_choices_of(path_discards(p)) for p in HUMAN_LOGS]
    declared = np.concatenate([r.declared for r in riichi])
    agrees = np.concatenate([riichi_agreement(shipped_prior(), r) for r in riichi])
    assert len(agrees) >= 40
    assert agrees.mean() > max(declared.mean(), 1 - declared.mean())


def test_prior_commands_train_check_and_refuse_bad_input(tmp_path, capsys):
    """`tsumolab prior train` writes weights `prior check --prior` reads; a file that is no game, or weights of
    other features, is refused in one line with exit code 2 and nothing written."""
    import json

    from tests.cli_run import run_cli

    out = tmp_path / "mine.npz"
    code, text, _ = run_cli(["prior", "train", REAL_GAME, "--out", str(out), "--hidden", "4", "--epochs", "2",
                             "-q"], capsys)
    assert code == 0 and out.exists() and "trained on" in text
    assert DiscardPrior.load(out).about["games"] == 1
    code, text, _ = run_cli(["prior", "check", HUMAN_LOGS[0], "--prior", str(out), "--json", "-q"], capsys)
    report = json.loads(text)
    assert code == 0 and report["agreement"]["all"]["of"] > 100
    assert sum(report["agreement"][k]["of"] for k in ("ready", "one away", "two away", "three or more")) == \
        report["agreement"]["all"]["of"]
    code, _, err = run_cli(["prior", "train", "pyproject.toml", "--out", str(tmp_path / "no.npz"), "-q"], capsys)
    assert code == 2 and err.startswith("tsumolab: error:") and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "no.npz").exists()
    old = DiscardPrior.load(out)
    DiscardPrior(**{**old.__dict__, "version": old.version + 1}).save(out)
    code, _, err = run_cli(["prior", "check", HUMAN_LOGS[0], "--prior", str(out), "-q"], capsys)
    assert code == 2 and "version" in err
