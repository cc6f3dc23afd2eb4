"""`tsumolab decisions` over the riichi-family modes' own questions (analyzer/experiments/extra/): C1 (chant),
DF1 (dora-fever), F1 (fate), OD1 (open-deal), DE1 (dragon-eye), SS1 (soul-strike) and the fantasy claims FL1,
FL-<card>. Each claim finds situations in simulated play where its two policies answer differently, both
answers legal; the claim's own condition holds there; a small end-to-end run writes the table and the report
in en/zh/ja."""

from __future__ import annotations

import json

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from tsumolab.analyzer.advise.riichi_sampler import riichi_options
from tsumolab.analyzer.decisions import riichi_features as rf
from tsumolab.analyzer.decisions.claims import CATEGORICAL, CLAIMS, FEATURE_CODES
from tsumolab.analyzer.decisions.scan import _Hooks, _riichi_hook_index, listed_answer
from tsumolab.analyzer.decisions.situations import claim_arms, scan_matches
from tsumolab.analyzer.decisions.stats import best_condition, condition_sentence
from tsumolab.analyzer.decisions.study import default_claims, make_spec
from tsumolab.analyzer.engines import tools_for
from tsumolab.analyzer.i18n import translator
from tsumolab.sims.decisions import D_DARK_LOCK, D_DARK_OPEN, D_PICK, D_REACT, D_TURN, FACE_DOWN, PASS
from tsumolab.sims.riichi.fantasy_decks import FANTASY_SLUGS
from tsumolab.sims.riichi.observation import ROBS
from tsumolab.sims.shanten_tables import lookup_tables

EXTRA = ("C1", "DF1", "F1", "OD1", "DE1", "SS1", "A1", "D1", "M1", "FL1", "FL-hourglass", "FL-love-price",
         "FL-over-prepared", "FL-shady-deal", "FL-showdown", "FL-super-tanyao")
MATCHES = {"SS1": 12, "FL-hourglass": 12, "FL-over-prepared": 12, "DE1": 6}
"""matches scanned per claim (2 unless named): the rarer situations need more"""
SEED = 1
FIXED_CARD = {"FL-hourglass": (rf.FATE_DECK, "hourglass"), "FL-love-price": (rf.FATE_DECK, "love-price"),
              "FL-over-prepared": (rf.FATE_DECK, "over-prepared"), "FL-shady-deal": (rf.FATE_DECK, "shady-deal"),
              "FL-showdown": (rf.CHANCE_DECK, "showdown"), "FL-super-tanyao": (rf.CHANCE_DECK, "super-tanyao")}


def test_the_extra_claims_come_from_their_experiment_files_and_run_with_extra_or_only():
    """Each claim's arms and rules are its extra/*.toml file's (an FL-<card> file fixes its card, rule FL); the
    default study keeps the sources' claims, --extra adds these, --only names any of them in any case."""
    arms = {a.claim.id: a for a in claim_arms(list(EXTRA))}
    assert set(EXTRA) <= set(CLAIMS) and all(arms[c].beyond_sources for c in EXTRA)
    assert arms["C1"].treatment == "chanter" and arms["SS1"].treatment.startswith("strike-timer")
    assert {arms[c].control for c in EXTRA} == {"baseline"}
    for cid, (_deck, card) in FIXED_CARD.items():
        assert arms[cid].rules["cards"] == card and CLAIMS[cid].mode == "fantasy"
    assert arms["FL1"].rules["cards"] == ""
    assert not set(EXTRA) & set(default_claims()) and set(default_claims(extra=True)) == set(CLAIMS)
    assert make_spec(only="fl-hourglass,c1").claims == ("FL-hourglass", "C1")
    assert make_spec(extra=True).claims == tuple(default_claims(extra=True))


def _situations(cid):
    arms = claim_arms([cid])
    return arms[0], scan_matches(CLAIMS[cid].mode, "baseline", arms, SEED, range(MATCHES.get(cid, 2)))


@pytest.mark.parametrize("cid", EXTRA)
@pytest.mark.slow
def test_each_extra_claim_finds_situations_where_its_two_answers_are_legal_and_differ(cid):
    """At every situation found the hand is stopped again at the same decision (rules C, DF, F, OD, DE, SS, FL
    as the claim's mode plays them): the view's options list both answers, they differ, the treatment and
    control policies give them there, and the claim's own condition holds."""
    arm, found = _situations(cid)
    claim = CLAIMS[cid]
    assert found, f"{cid}: no situation in {MATCHES.get(cid, 2)} baseline matches"
    tools = tools_for(claim.mode)
    treat, ctrl = _Hooks(arm.treatment, "riichi"), _Hooks(arm.control, "riichi")
    for s in found:
        pos = tools.stopped_state(claim.mode, "baseline", SEED, arm.rules, s.match, s.hand, s.decision)
        view = pos.view
        assert pos.seat == s.seat and pos.decision == s.kind and s.kind in claim.kinds
        table = lookup_tables()
        options = {code: label for label, code in riichi_options(view, table)}
        assert s.treatment != s.control and s.treatment in options and s.control in options
        assert (options[s.treatment], options[s.control]) == (s.treatment_label, s.control_label)
        index = _riichi_hook_index(s.kind)
        assert listed_answer(view, treat.answer(index, view, table), options) == s.treatment
        assert listed_answer(view, ctrl.answer(index, view, table), options) == s.control
        assert claim.condition is None or claim.condition(view, s.treatment, s.control, table)
        features = dict(s.features)
        assert list(features) == [f.name for f in claim.features]
        assert all(np.isfinite(v) for v in features.values())
        _claim_facts(cid, view, s, features)


def _claim_facts(cid, view, s, features):
    """What each claim's wording says of its situations."""
    if cid == "C1":  # C: the treatment's discard extends the longer current run
        assert rf.is_tsumogiri(view, s.treatment) == (features["tsumogiri_run"] >= features["hand_run"])
        assert features["tsumogiri_run"] + features["hand_run"] >= 1
    elif cid == "DF1":  # DF: fewer dora given up at the same shanten
        assert features["dora_saved"] >= 1 and features["indicators"] >= 3
    elif cid == "F1":  # F: the alternative gives up an open deal tile, so the multiplier is at least 2
        assert features["multiplier"] >= 2 and rf.loses_open_tile(view, s.control)
    elif cid == "OD1":  # OD: a riichi opponent's shown shape is completed by the alternative only
        assert features["riichi_opponents"] >= 1 and features["danger"] >= 1
    elif cid == "DE1":  # DE: the seat holds the eye or faces the holder's riichi
        assert features["eye_role"] in (rf.EYE_HELD, rf.EYE_RIICHI)
    elif cid == "SS1":  # SS: riichi or dama, or a call breaking a strike with 4+ turns left
        assert features["choice"] == rf.CHOICE_RIICHI or (s.kind == D_REACT and features["strike_left"] >= 4)
    elif cid == "A1":  # A: two different candidates of the pool
        from tsumolab.sims.riichi.astrology_pool import A_N

        assert s.kind == D_PICK and s.treatment != s.control
        assert 0 <= min(s.treatment, s.control) <= max(s.treatment, s.control) < view[ROBS.astrology + A_N]
    elif cid == "D1":  # D: a face-down discard against a face-up one, or an open or lock decision
        assert s.kind in (D_DARK_OPEN, D_DARK_LOCK) or (s.treatment >= FACE_DOWN) != (s.control >= FACE_DOWN)
        assert features["decision"] == s.kind
    elif cid == "M1":  # M: the transparent tiles are in view
        from tsumolab.sims.riichi.mirror_tiles import MIR_SIZE

        assert s.kind in (D_TURN, D_REACT) and view[ROBS.mirror:ROBS.mirror + MIR_SIZE].max() > 0
    elif cid in FIXED_CARD:  # FL: the file's card is the match's card
        deck, card = FIXED_CARD[cid]
        assert int(view[ROBS.fantasy + deck]) == FANTASY_SLUGS[deck].index(card) + 1
        if cid in ("FL-hourglass", "FL-over-prepared"):
            assert features["own_yaku"] == 1 and rf.declares_riichi(s.control) and s.kind == D_TURN
        elif cid == "FL-super-tanyao":
            assert rf.toward_tanyao(view, s.treatment, s.control)
        else:
            assert s.treatment == PASS and rf.is_call(s.control)
    else:  # FL1: the three cards are drawn per match
        assert all(0 <= features[f] < 5 for f in ("card_dealer", "card_chance", "card_fate"))


def test_a_condition_on_a_card_says_which_card_in_every_language():
    """Categorical features (the FL cards, the part of a claim) are split by "is" / "is not", never by a
    threshold on their codes, and the sentence names the card in the report's language."""
    rng = np.random.default_rng(0)
    n = 300
    fate = rng.integers(0, 5, n).astype(float)
    points = np.where(fate == 2, 2000.0, -800.0) + rng.normal(0, 600, n)
    rows = pl.DataFrame({"f_card_fate": fate, "f_wall": rng.integers(0, 60, n).astype(float),
                         "diff_points": points, "diff_rank": -points / 5000, "diff_gift": points / 100})
    cond = best_condition(rows, ["card_fate", "wall"], "points")
    assert "card_fate" in CATEGORICAL and cond.supported
    assert cond.terms[0] == ("card_fate", "==", 2.0)
    claim = CLAIMS["FL1"]
    assert "the fate card is 厄运沙漏" in condition_sentence(cond, claim, translator("en"))
    assert "命运卡为“厄运沙漏”" in condition_sentence(cond, claim, translator("zh"))
    assert "運命カードが「厄運の砂時計」" in condition_sentence(cond, claim, translator("ja"))
    assert len(FEATURE_CODES["card_fate"]) == len(FANTASY_SLUGS[rf.FATE_DECK])


def test_decisions_help_lists_every_claim_of_the_table():
    from tsumolab.cli import cli

    result = CliRunner().invoke(cli, ["decisions", "--help"])
    assert result.exit_code == 0
    text = "".join(result.output.split())  # the help wraps lines at any hyphen
    for cid in CLAIMS:
        assert cid in text, cid
    assert "with--extraalsoC1" in text


@pytest.mark.slow
def test_a_small_decisions_run_over_two_extra_claims_writes_the_table_and_the_reports(tmp_path):
    """C1 and FL-hourglass end to end: each claim is scanned under its own rules (fantasy with the hourglass
    card fixed), evaluated by paired rollouts, summarized and reported in en, zh and ja."""
    from tsumolab.cli import cli

    out = tmp_path / "x"
    result = CliRunner().invoke(cli, ["decisions", "--only", "C1,FL-hourglass", "--field", "baseline",
                                      "--situations", "2", "--rollouts", "3", "--out", str(out),
                                      "--lang", "en,zh,ja"])
    assert result.exit_code == 0, result.output
    table = pl.read_parquet(out / "decisions.parquet")
    assert table.group_by("claim").len().sort("claim").rows() == [("C1", 2), ("FL-hourglass", 2)]
    c1, hourglass = (table.filter(pl.col("claim") == c) for c in ("C1", "FL-hourglass"))
    assert c1["f_tsumogiri_run"].is_not_null().all() and c1["f_own_yaku"].is_null().all()
    assert hourglass["f_own_yaku"].is_not_null().all() and (hourglass["control_answer"].str.starts_with("riichi")).all()
    scanned = json.loads((out / "decisions.json").read_text(encoding="utf-8"))["scanned_matches"]
    assert set(scanned) == {"chant/baseline", "fantasy[cards=hourglass]/baseline"}
    assert "FL-hourglass" in result.output and "keep the longer discard run" in result.output
    html = {lang: (out / name).read_text(encoding="utf-8")
            for lang, name in (("en", "decisions.html"), ("zh", "decisions.zh.html"), ("ja", "decisions.ja.html"))}
    assert 'id="decisions-FL-hourglass"' in html["en"] and "dama with a yaku" in html["en"]
    assert "有役时默听" in html["zh"] and "役があればダマ" in html["ja"]
