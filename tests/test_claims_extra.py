"""`tsumolab claims --extra`: the "beyond the sources" experiments (analyzer/experiments/extra/, one per special
mode), their own Holm family, the `beyond_sources` column and the report's "Beyond the sources" section."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from pypdf import PdfReader

import tsumolab.commands.claims  # noqa: F401  (registers `claims`)
from tsumolab.cli import cli, main
from tsumolab.analyzer.claims.experiment import (
    BEYOND_SOURCES, EXPERIMENTS_DIR, EXTRA_DIR_NAME, load_experiment, mode_experiments,
)
from tsumolab.analyzer.stats import holm
from tsumolab.policies.registry import check_mode, parse_seats
from tsumolab.reports import pdf
from tsumolab.reports.data import load_report_data
from tsumolab.sims.modes import MODES

EXTRA_DIR = EXPERIMENTS_DIR / EXTRA_DIR_NAME
BUILT = {"dora-fever": ("DF1", "dora-keeper"), "open-deal": ("OD1", "deal-reader"), "fate": ("F1", "fate-keeper"),
         "chant": ("C1", "chanter"), "astrology": ("A1", "star-picker"), "darkness": ("D1", "shadow-player"),
         "mirror": ("M1", "mirror-reader"), "soul-strike": ("SS1", "strike-timer"), "fantasy": ("FL1", "card-reader"),
         "dragon-eye": ("DE1", "eye-pusher")}
MATCHES = "48"  # B4: 3 fields -> 2 wall seeds each; an extra claim: 1 field -> 6 wall seeds


def claims(*args: str):
    return CliRunner().invoke(cli, ["claims", *args])


@pytest.fixture(scope="module")
def study(tmp_path_factory) -> Path:
    """B4 (a source claim) and DF1 (beyond the sources) in one study, with its report."""
    out = tmp_path_factory.mktemp("extra-study")
    result = claims("--extra", "--only", "B4,DF1", "--matches", MATCHES, "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def test_extra_files_are_one_per_mode_in_the_shared_format():
    """One file named after each special mode that has claims of its own (BUILT: the ten event modes; more per
    mode may follow as `<mode>-<topic>.toml`)."""
    files = sorted(EXTRA_DIR.glob("*.toml"))
    assert {f.stem for f in files} >= set(BUILT)
    assert len(BUILT) == 10 and set(BUILT) <= set(MODES) - {"bloodshed", "riichi", "shura"}
    ids = []
    for path in files:
        data = tomllib.loads(path.read_text())
        assert data["mode"] in MODES and (path.stem == data["mode"] or path.stem.startswith(data["mode"] + "-"))
        assert data["source"] == BEYOND_SOURCES
        assert data["control"] == "baseline" and data["fields"] == ["baseline"] and data["direction"] == "greater"
        assert len(data["claim"]) > 30 and data["matches"] >= 1000
        experiment = load_experiment(path)
        assert experiment.beyond_sources
        check_mode(parse_seats(experiment.treatment), experiment.mode)  # the treatment plays the mode
        ids.append(experiment.id)
    assert len(set(ids)) == len(ids)
    for mode, (claim_id, treatment) in BUILT.items():
        experiment = load_experiment(EXTRA_DIR / f"{mode}.toml")
        assert (experiment.id, experiment.treatment.split("(")[0]) == (claim_id, treatment)


def test_extra_experiments_load_only_with_extra_and_after_the_source_claims():
    plain = mode_experiments(None)
    assert plain and not any(e.beyond_sources for e in plain)
    both = mode_experiments(None, extra=True)
    extras = [e for e in both if e.beyond_sources]
    assert [e.id for e in both[:len(plain)]] == [e.id for e in plain]
    assert {e.id for e in extras} >= {claim_id for claim_id, _ in BUILT.values()}
    assert [e.id for e in mode_experiments("fate", extra=True)] == ["F1"]
    assert mode_experiments("fate") == []


def test_a_new_extra_file_is_picked_up_without_code_changes(tmp_path):
    """The other helpers add astrology.toml, darkness.toml, … to extra/: a copy under a new id shows up."""
    shutil.copytree(EXPERIMENTS_DIR, tmp_path / "experiments")
    extra = tmp_path / "experiments" / EXTRA_DIR_NAME
    text = (extra / "chant.toml").read_text().replace('id = "C1"', 'id = "ZZ1"').replace('"chant"', '"riichi"')
    (extra / "riichi.toml").write_text(text)
    found = mode_experiments("riichi", directory=tmp_path / "experiments", extra=True)
    assert [(e.id, e.beyond_sources, e.treatment) for e in found] == [("ZZ1", True, "chanter")]
    # an explicit key wins over the directory
    (tmp_path / "experiments" / "own.toml").write_text(text.replace('"ZZ1"', '"ZZ2"') + "")
    data = (tmp_path / "experiments" / "own.toml").read_text().replace("[rules]", "beyond_sources = true\n\n[rules]")
    (tmp_path / "experiments" / "own.toml").write_text(data)
    assert load_experiment(tmp_path / "experiments" / "own.toml").beyond_sources


@pytest.mark.slow
def test_claims_extra_combines_with_only_and_mode(study, tmp_path, report_page):
    table = pl.read_parquet(study / "claims.parquet")
    assert table["claim"].unique(maintain_order=True).to_list() == ["B4", "DF1"]
    assert dict(table.select("claim", "beyond_sources").unique().iter_rows()) == {"B4": False, "DF1": True}
    result = claims("--extra", "--mode", "fate", "--matches", "16", "--out", str(tmp_path / "f"), "-q")
    assert result.exit_code == 0, result.output
    fate = pl.read_parquet(tmp_path / "f" / "claims.parquet")
    assert fate["claim"].to_list() == ["F1"] and fate["beyond_sources"].to_list() == [True]
    # a study of questions beyond the sources only: the report says there is no source claim
    page = report_page(tmp_path / "f" / "report.html")
    assert "No claim from the sources" in " ".join(page.sections["summary"]) and "claim-F1" in page.sections
    data = load_report_data(tmp_path / "f")
    assert len(PdfReader(tmp_path / "f" / "report.pdf").pages) == len(pdf.summary_pages(data)) + 1 + 1


def test_claims_extra_text_separates_the_questions_beyond_the_sources(tmp_path):
    result = claims("--extra", "--only", "B4,DF1", "--matches", MATCHES, "--seed", "3", "--out", str(tmp_path),
                    "--resume", "--no-report")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    heading = next(i for i, line in enumerate(lines) if line.startswith("beyond the sources"))
    assert any(line.startswith("B4 ") for line in lines[:heading])
    assert any(line.startswith("DF1 ") for line in lines[heading:])


def test_extra_claims_do_not_run_without_extra(capsys, tmp_path):
    for args, hint in ((("--only", "DF1"), "add --extra"), (("--mode", "fate"), "F1 run with --extra")):
        with pytest.raises(SystemExit) as info:
            main(["claims", *args, "--matches", "16", "--out", str(tmp_path)])
        err = capsys.readouterr().err
        assert info.value.code == 2 and hint in err and err.count("\n") == 1, err
    assert not (tmp_path / "claims.parquet").exists()


def test_source_claims_keep_their_verdicts_when_extra_claims_join(study, tmp_path):
    """Two Holm families: adding the questions beyond the sources leaves the source claims' rows unchanged."""
    result = claims("--only", "B4", "--matches", MATCHES, "--seed", "3", "--out", str(tmp_path), "-q", "--no-report")
    assert result.exit_code == 0, result.output
    alone = pl.read_parquet(tmp_path / "claims.parquet")
    joined = pl.read_parquet(study / "claims.parquet").filter(pl.col("claim") == "B4")
    for column in ("effect", "p_value", "p_holm", "ci_low", "ci_high", "verdict"):
        assert alone[column].to_list() == joined[column].to_list(), column
    df1 = pl.read_parquet(study / "claims.parquet").filter(pl.col("claim") == "DF1").row(0, named=True)
    # alone in its family with its own two objectives: Holm over those two p-values only
    expected, _ = holm([df1["p_value"], df1["placement_p_value"]])
    assert [df1["p_holm"], df1["placement_p_holm"]] == pytest.approx(list(expected))


def test_report_has_a_separate_beyond_the_sources_section(study, report_page):
    page = report_page(study / "report.html")
    assert "beyond-sources" in page.sections and "claim-DF1" in page.sections and "claim-B4" in page.sections
    beyond = " ".join(page.sections["beyond-sources"])
    summary = " ".join(page.sections["summary"])
    assert "Beyond the sources" in beyond and "not claims from the sources" in beyond
    assert "DF1" in beyond and "DF1" not in summary and "B4" in summary and "B4" not in beyond
    assert len(page.section_imgs["beyond-sources"]) == 1  # its forest plot
    df1 = " ".join(page.sections["claim-DF1"])
    assert "tsumolab's own question" in df1 and "In dora fever" in df1 and BEYOND_SOURCES in df1
    assert "tsumolab's own question" not in " ".join(page.sections["claim-B4"])
    anchors = [attrs.get("href") for tag, attrs in page.tags if tag == "a"]
    assert anchors.index("#claim-B4") < anchors.index("#beyond-sources") < anchors.index("#claim-DF1")
    data = load_report_data(study)
    assert [c.id for c in data.beyond_claims] == ["DF1"] and [c.id for c in data.source_claims] == ["B4"]
    reader = PdfReader(study / "report.pdf")
    assert len(reader.pages) == len(pdf.summary_pages(data)) + len(pdf.beyond_pages(data)) + 2
    texts = [p.extract_text() for p in reader.pages]
    beyond_page = [i for i, t in enumerate(texts) if "not claims from the sources" in t]
    assert beyond_page == [len(texts) - 2]  # after the source claims' pages, before DF1's page
    assert "In dora fever" in texts[-1] and "tsumolab's own question" in texts[-1]
    assert "tsumolab's own question" not in texts[-3]
