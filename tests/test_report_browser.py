"""The review report as a reader sees it (issue 29): the English, Chinese and Japanese HTML of a real game's review
laid out by headless Chromium at desktop (1,280 px) and phone (400 px) width, the PDF pages rendered as images.
At either width the page must not be wider than the window (wide tables scroll inside their own box), the
screenshot must show the report, and every PDF page must carry ink. Chromium and pdftoppm are Debian packages
(`.ci/system-packages` installs them in CI, where their absence fails the test instead of skipping it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
PDFTOPPM = shutil.which("pdftoppm")
GAME = Path(__file__).parent / "data" / "majsoul" / "ranked_south.json"
WIDTHS = (1280, 400)
# the page lays itself out in an iframe of each width; the title reports its content and window widths
PROBE = """<html><body>{frames}<script>window.onload = function () {{
  var out = [];
  for (const f of document.getElementsByTagName('iframe')) {{
    var d = f.contentDocument.documentElement; out.push(d.scrollWidth + '/' + d.clientWidth);
  }}
  document.title = 'widths ' + out.join(' ');
}};</script></body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    if not (CHROMIUM and PDFTOPPM):
        if os.environ.get("CI"):
            pytest.fail("Chromium or pdftoppm is missing in CI (.ci/system-packages installs them)")
        pytest.skip("Chromium or pdftoppm is not installed (Debian: apt-get install chromium poppler-utils)")
    out = tmp_path_factory.mktemp("review")
    from tsumolab.cli import main

    try:
        main(["review", str(GAME), "--seat", "0", "--kyoku", "E1,E2", "--rollouts", "30", "--jobs", "1",
              "--lang", "en,zh,ja", "--out", str(out / "r")])
    except SystemExit as exc:
        assert exc.code == 0
    return out / "r"


def _chromium(*args: str) -> str:
    done = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--disable-background-networking", "--disable-component-update", "--no-first-run",
                           "--allow-file-access-from-files", "--virtual-time-budget=5000", *args],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]
    return done.stdout


def page_widths(page: Path) -> list[tuple[int, int]]:
    """(content width, window width) of `page` laid out at each of WIDTHS."""
    frames = "".join(f'<iframe src="{page.name}" style="width:{w}px;height:900px;border:0"></iframe>' for w in WIDTHS)
    probe = page.with_name(f"probe-{page.stem}.html")
    probe.write_text(PROBE.format(frames=frames), encoding="utf-8")
    dom = _chromium("--window-size=1400,1000", "--dump-dom", probe.as_uri())
    found = re.search(r"<title>widths ([\d/ ]+)</title>", dom)
    assert found, dom[:300]
    return [tuple(int(x) for x in pair.split("/")) for pair in found.group(1).split()]


@pytest.mark.parametrize("name", ["review.html", "review.zh.html", "review.ja.html"])
def test_the_review_page_fits_desktop_and_phone_width(report, name):
    widths = page_widths(report / name)
    assert [w for _, w in widths] == list(WIDTHS)
    assert all(content <= window for content, window in widths), widths


def test_the_width_check_catches_a_page_wider_than_the_phone(report):
    """The check itself can fail: a copy of the report with one element wider than a phone overflows at 400 px."""
    wide = report / "wide.html"
    wide.write_text((report / "review.html").read_text(encoding="utf-8")
                    .replace("</body>", '<div style="width:900px">x</div></body>'), encoding="utf-8")
    (desktop, _), (phone, window) = page_widths(wide)
    assert desktop <= 1280 and phone > window == 400


@pytest.mark.parametrize("name", ["review.html", "review.ja.html"])
@pytest.mark.parametrize("width", WIDTHS)
def test_the_screenshot_shows_the_report(report, name, width):
    shot = report / f"{name}-{width}.png"
    _chromium(f"--window-size={width},1600", f"--screenshot={shot}", (report / name).as_uri())
    pixels = np.asarray(Image.open(shot).convert("L"))
    assert pixels.shape == (1600, width)
    dark = (pixels < 128).mean()          # text, table rules, the chart's line
    assert 0.005 < dark < 0.5, dark


@pytest.mark.parametrize("name", ["review.pdf", "review.zh.pdf", "review.ja.pdf"])
def test_every_pdf_page_renders_with_ink(report, name):
    subprocess.run([PDFTOPPM, "-png", "-r", "40", str(report / name), str(report / f"{name}-page")], check=True,
                   timeout=120)
    pages = sorted(report.glob(f"{name}-page-*.png"))
    assert len(pages) >= 2
    for page in pages:
        assert (np.asarray(Image.open(page).convert("L")) < 128).mean() > 0.001, page.name
