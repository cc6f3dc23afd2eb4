"""`tsumolab hand`: shanten, waits and the win of one hand, or of a JSON-lines batch.

One hand:   tsumolab hand 123m456p789s1122z [--variant bloodshed] [--melds "pon 555p"] [--win-tile 5p] ...
Batch:      tsumolab hand --batch hands.jsonl [--output results.jsonl]

Batch format: one request object per line (keys as in `sims.analysis`); each line without "variant" uses
`--variant` (default riichi). Output has one JSON object per non-blank input line, in input order; blank
lines are skipped and produce no output line. A line that is not valid JSON or not a valid hand gives
``{"error": "…"}`` on its output line and the run goes on; the exit code is then 2.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import click

from tsumolab.cli import cli
from tsumolab.analyzer.errors import InputError
from tsumolab.sims.analysis import VARIANTS


def write_atomically(path: str, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder, so readers never see half a file."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tsumolab-", suffix=".tmp", dir=folder)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp makes 0600; give the file the usual permissions
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _emit(text: str, output: str | None) -> None:
    if output is None or output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        try:
            write_atomically(output, text)
        except OSError as exc:
            raise InputError(f"cannot write {output}: {exc.strerror or exc}") from None


def _read_source(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        with open(source, "rb") as f:
            return f.read()
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None


def _pretty(request: dict, result: dict) -> str:
    shanten = result["shanten"]
    state = {-1: "complete", 0: "tenpai"}.get(shanten, f"{shanten} away from tenpai")
    melds = "".join(f" + [{m}]" for m in request.get("melds", []))
    lines = [
        f"hand     {request['hand']}{melds}  ({request.get('variant')})",
        f"shanten  {shanten} ({state})",
        f"waits    {' '.join(result['waits']) or '-'}",
    ]
    win = result["win"]
    if win is None:
        lines.append(f"win      - ({result['reason']})" if "reason" in result else "win      -")
    elif "fan" in win:
        bonuses = "".join(f" +{name}" + (f"×{n}" if n > 1 else "") for name, n in win.get("bonuses", {}).items())
        line = f"win      {win['pattern']}{bonuses}: {win['fan']} fan = {win['value']}"
        if "tsumo_payment" in win:
            line += f" (tsumo: {win['tsumo_payment']} from each payer)"
        lines.append(line)
    else:
        lines.append("win      " + ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in win.items()))
    return "\n".join(lines) + "\n"


def _run_batch(source: str, variant: str, output: str | None) -> None:
    from tsumolab.sims.analysis import analyze_batch

    line_numbers: list[int] = []
    requests: list = []
    loads = json.loads
    for number, line in enumerate(_read_source(source).removeprefix(b"\xef\xbb\xbf").splitlines(), 1):
        if not line.strip():
            continue
        line_numbers.append(number)
        try:
            requests.append(loads(line))
        except json.JSONDecodeError as exc:
            requests.append(ValueError(f"invalid JSON: {exc.msg} at column {exc.colno}"))
        except UnicodeDecodeError:
            requests.append(ValueError("invalid JSON: the line is not UTF-8 text"))
        except RecursionError:
            requests.append(ValueError("invalid JSON: nested too deeply"))
    results = analyze_batch(requests, variant)
    dumps = json.JSONEncoder(ensure_ascii=False).encode
    out = [dumps(r) for r in results]
    _emit("\n".join(out) + "\n" if out else "", output)
    failed = [i for i, r in enumerate(results) if "error" in r]
    if failed:
        first = failed[0]
        raise InputError(
            f"{len(failed)} of {len(results)} request(s) failed; "
            f"first at line {line_numbers[first]}: {results[first]['error']}"
        )


@cli.command("hand")
@click.argument("hand", required=False)
@click.option("--variant", type=click.Choice(VARIANTS), default="riichi", show_default=True,
              help="Rule variant (in batch mode: for lines without a \"variant\" key).")
@click.option("--melds", "melds", multiple=True, metavar="MELD",
              help="A declared meld, e.g. 'pon 555p', 'kan 5555p', 'ankan 5555p', 'kakan 5555p', 'chi 345m'. "
                   "Repeatable.")
@click.option("--win-tile", help="The winning tile, which HAND includes (14 tiles).")
@click.option("--tsumo", is_flag=True, help="The win is a tsumo (default: ron).")
@click.option("--void", type=click.Choice(list("mps")), help="Bloodshed: the declared void suit (B-7).")
@click.option("--dealer", is_flag=True, help="The player is the dealer.")
@click.option("--flag", "flags", multiple=True,
              help="Bloodshed: a situational flag for the scorer (kan_draw, kan_discard, robbed_kan, last_tile, "
                   "first_draw). Repeatable.")
@click.option("--pretty", is_flag=True, help="Print a few readable lines instead of JSON (one hand only).")
@click.option("--batch", "batch", metavar="FILE", help="JSON-lines file of requests ('-' = stdin).")
@click.option("--output", "-o", metavar="FILE",
              help="Write the result to FILE (atomically; '-' = stdout) instead of stdout.")
def hand_command(hand, variant, melds, win_tile, tsumo, void, dealer, flags, pretty, batch, output) -> None:
    """Shanten, waits and (when complete) the win of HAND, or of every line of a --batch file.

    HAND is the concealed tiles in mpsz notation (e.g. 123m456p789s1122z), the winning tile included when
    there is one; melds go in --melds. Concealed + 3 x melds must be 13 or 14 tiles. Prints
    {"shanten": n, "waits": [...], "win": null | {...}}; for 14 tiles the waits are those of the hand
    without --win-tile ([] when it is not given).

    \b
    --batch FILE: one JSON object per line, e.g.
      {"variant": "bloodshed", "hand": "1111p335577p99s2s", "void": "m"}
    gives one JSON line per non-blank input line, in order (blank lines are skipped). A bad line gives
    {"error": "..."} and the run goes on; the exit code is then 2.
    """
    if batch is not None:
        given = (("HAND", hand), ("--melds", melds), ("--win-tile", win_tile), ("--tsumo", tsumo), ("--void", void),
                 ("--dealer", dealer), ("--flag", flags), ("--pretty", pretty))
        extra = [name for name, value in given if value]
        if extra:
            raise InputError(f"{', '.join(extra)} cannot be used with --batch (put them in each line's object)")
        _run_batch(batch, variant, output)
        return
    if hand is None:
        raise InputError("give a HAND (e.g. 123m456p789s1122z) or --batch FILE")

    from tsumolab import api

    result = api.hand(hand, variant, melds, win_tile, tsumo, void, dealer, flags)
    request = {"variant": variant, "hand": hand, "melds": list(melds)}
    text = _pretty(request, result) if pretty else json.dumps(result, ensure_ascii=False) + "\n"
    _emit(text, output)
