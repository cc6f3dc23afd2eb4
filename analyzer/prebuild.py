"""`make wheel`: a wheel that carries its compiled kernels, so that a fresh install starts at once.

`python -m tsumolab.analyzer.prebuild WHEEL [--out DIR]` compiles every kernel the commands run (compile_group,
compile_rest) into a fresh numba cache for the portable CPU target of sims.prebuilt_kernels, in two processes
(one per engine family) and then a third, and writes DIR/tsumolab-<version>-<py>-<py>-<platform>.whl: the files
of WHEEL (the plain wheel of the same sources) plus tsumolab/kernels/ (that cache and its manifest), tagged for
this Python and platform. The test warm-up (tests/warm_up.py) compiles the same groups for the host CPU.
"""

from __future__ import annotations

import base64
import hashlib
import importlib
import json
import os
import pkgutil
import platform
import sys
import sysconfig
import tempfile
import zipfile
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import numpy as np

GROUPS = ("riichi", "bloodshed")


def import_all(package: str, skip: str = "") -> None:
    """Every module of `package` (but those under `skip`): kernels with an explicit signature (the engines)
    compile or load when their module is imported."""
    root = importlib.import_module(package)
    for info in pkgutil.walk_packages(root.__path__, f"{package}."):
        if not (skip and info.name.startswith(skip)):
            importlib.import_module(info.name)


def simulate_every_mode() -> None:
    """The kernels compiled on first call: one match of every mode, with and without its event log."""
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.modes import MODES, get_mode

    seats = parse_seats("baseline,random,majsoul-cpu,disconnected")
    for slug in sorted(MODES):
        mode = get_mode(slug)
        mode.warm_up(seats)
        if hasattr(mode, "simulate_events"):
            mode.simulate_events(0, np.zeros(1, np.int64), seats)


def analyze_hands() -> None:
    """The scorers and shanten of `tsumolab hand`, both families."""
    from tsumolab.sims.analysis import analyze

    analyze({"variant": "riichi", "hand": "123m456p789s11222z", "win_tile": "2z", "tsumo": True})
    analyze({"variant": "bloodshed", "hand": "11223344556677s", "void": "m", "tsumo": True})


def search_riichi() -> None:
    """The riichi rollout kernels compiled on first call (`search` seats, `advise` and `review` of a riichi
    position): one shura match with a searching seat."""
    from tsumolab.analyzer.search import play as search_play
    from tsumolab.policies.registry import parse_seats
    from tsumolab.sims.modes import get_mode

    seats = parse_seats("search(rollouts=2,z=inf),baseline,baseline,random")
    search_play.simulate(get_mode("shura"), 0, np.arange(1), seats)


def bloodshed_decisions() -> None:
    """The kernels of `tsumolab decisions` on Bloodshed compiled on first call: one situation of claim B1 played
    out from its true state."""
    from tsumolab.analyzer.decisions.situations import claim_arms, evaluate, scan_matches

    arms = claim_arms(["B1"])
    situation = scan_matches("bloodshed", "baseline", arms, 3, range(0, 6))[0]
    evaluate("bloodshed", arms[0], situation, 3, 2)


def discard_prior() -> None:
    """The discard prior's features and its riichi judgement's (advise's recommendation in the riichi modes,
    analyzer.prior), compiled on first call: one own turn of a hand of 14 tiles, ready once the 3z goes."""
    from tsumolab.analyzer.prior.model import shipped_prior
    from tsumolab.sims.riichi.observation import ROBS
    from tsumolab.sims.shanten_tables import lookup_tables
    from tsumolab.sims.tiles import parse_tiles

    obs = np.zeros(ROBS.SIZE, np.int32)
    obs[ROBS.hand:ROBS.hand + 34] = parse_tiles("123m456p789s11223z")[0]
    obs[ROBS.dora:ROBS.dora + 5] = -1
    obs[ROBS.points:ROBS.points + 4] = 25_000
    obs[ROBS.can_riichi] = 1
    shipped_prior().choose(obs, lookup_tables())
    shipped_prior().declares(obs, lookup_tables(), int(np.flatnonzero(parse_tiles("3z")[0])[0]))


def compile_hooks(modules: tuple[str, ...] = ()) -> None:
    """Every registered policy's hooks, both families, and the hooks defined in `modules` (policies.api.hook
    compiles a hook when a seat first plays it)."""
    from inspect import signature

    from numba.core.dispatcher import Dispatcher

    from tsumolab.policies.api import compiled_hook
    from tsumolab.policies.registry import all_policies

    hooks = [fn for policy in all_policies() for fn in (*policy.hooks.values(), *policy.riichi_hooks.values())]
    for name in modules:
        hooks += [value for value in vars(importlib.import_module(name)).values() if isinstance(value, Dispatcher)
                  and list(signature(value.py_func).parameters) == ["obs", "params", "tables"]]
    for fn in hooks:
        compiled_hook(fn)


def compile_group(group: str) -> None:
    """One of two halves of the compile work, about equal on a cold cache: "riichi" (the riichi engine and
    modules, hand analysis, the riichi rollouts and last the Bloodshed decisions rollouts, whose engine the other
    half has cached by then) or "bloodshed" (the Bloodshed engine, the policy hooks, the discard prior, the
    shanten tables and the other modules)."""
    if group == "riichi":
        importlib.import_module("tsumolab.sims.riichi.engine")
        import_all("tsumolab.sims.riichi")
        analyze_hands()
        search_riichi()
        bloodshed_decisions()
    else:
        importlib.import_module("tsumolab.sims.shanten_tables").build_tables()  # its builder runs once per machine
        importlib.import_module("tsumolab.sims.bloodshed.engine")
        import_all("tsumolab.policies")
        compile_hooks()
        discard_prior()
        import_all("tsumolab.sims", skip="tsumolab.sims.riichi")


def compile_rest() -> None:
    """After both groups: every module, one match of every mode and the hand analysis (mostly loads)."""
    import_all("tsumolab.sims")
    import_all("tsumolab.policies")
    simulate_every_mode()
    analyze_hands()


def compile_all(cache_dir: Path) -> None:
    """Every shipped kernel compiled into `cache_dir` for the portable CPU target, in fresh processes."""
    from tsumolab.sims.prebuilt_kernels import PORTABLE_CPU

    os.environ.update(NUMBA_CACHE_DIR=str(cache_dir), NUMBA_CPU_NAME=PORTABLE_CPU, NUMBA_CPU_FEATURES="",
                      TSUMOLAB_KERNELS="host")
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        list(pool.map(compile_group, GROUPS))
        pool.submit(compile_rest).result()


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def platform_tag() -> str:
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def add_kernels(wheel: Path, kernels: dict[str, bytes], out_dir: Path) -> Path:
    """A copy of `wheel` in `out_dir` with the files `kernels` (path in the wheel → bytes) added, tagged for this
    Python and platform, its RECORD rewritten; returns its path."""
    from tsumolab.sims.prebuilt_kernels import python_tag

    name, version = wheel.name.split("-")[:2]
    tag = f"{python_tag()}-{python_tag()}-{platform_tag()}"
    target = out_dir / f"{name}-{version}-{tag}.whl"
    with zipfile.ZipFile(wheel) as source:
        files = {info.filename: source.read(info) for info in source.infolist() if not info.is_dir()}
    dist_info = next(path.split("/")[0] for path in files if path.endswith(".dist-info/WHEEL"))
    wheel_meta = files[f"{dist_info}/WHEEL"].decode()
    files[f"{dist_info}/WHEEL"] = "".join(
        line for line in wheel_meta.splitlines(keepends=True) if not line.startswith("Tag:")
    ).rstrip("\n").encode() + f"\nTag: {tag}\n".encode()
    files.pop(f"{dist_info}/RECORD")
    files.update(kernels)
    record = "".join(_record_line(path, data) + "\n" for path, data in files.items())
    files[f"{dist_info}/RECORD"] = (record + f"{dist_info}/RECORD,,\n").encode()
    out_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as out:
        for path, data in files.items():
            out.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data,
                         compress_type=zipfile.ZIP_DEFLATED)
    partial.replace(target)
    return target


def kernel_sources_differ(wheel: Path) -> list[str]:
    """The kernel sources (sims and policies) that differ between `wheel` and the sources this process imports,
    or are in only one of them."""
    from tsumolab.sims.compile_cache import kernel_sources

    here = {name: path.read_bytes() for name, path in kernel_sources().items()}
    with zipfile.ZipFile(wheel) as source:
        shipped = {name: source.read(name) for name in source.namelist()
                   if name.startswith(("tsumolab/sims/", "tsumolab/policies/")) and name.endswith((".py", ".npz"))}
    return sorted(name for name in here.keys() | shipped.keys() if here.get(name) != shipped.get(name))


def prebuilt_wheel(wheel: Path, out_dir: Path) -> Path:
    """The wheel with kernels of the plain `wheel` (built from the sources this process imports)."""
    from tsumolab.sims.compile_cache import source_digest
    from tsumolab.sims.prebuilt_kernels import CACHE, MANIFEST, this_installation

    if platform.machine() not in ("x86_64", "AMD64"):
        raise SystemExit(f"prebuild: kernels are prebuilt for x86-64 only, this machine is {platform.machine()}")
    differ = kernel_sources_differ(wheel)
    if differ:
        raise SystemExit(f"prebuild: {wheel} holds other kernel sources than these ({', '.join(differ[:3])})")
    with tempfile.TemporaryDirectory(prefix="tsumolab-kernels-") as temp:
        compile_all(Path(temp))
        cache_files = [path for path in sorted(Path(temp).rglob("*"))
                       if path.is_file() and path.parent.name.startswith("tsumolab.")]
        kernels = {f"tsumolab/kernels/{CACHE}/{path.relative_to(temp).as_posix()}": path.read_bytes()
                   for path in cache_files}
    manifest = json.dumps(this_installation(source_digest()), indent=1, sort_keys=True) + "\n"
    kernels[f"tsumolab/kernels/{MANIFEST}"] = manifest.encode()
    return add_kernels(wheel, kernels, out_dir)


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tsumolab.analyzer.prebuild", description=__doc__.split("\n")[0])
    parser.add_argument("wheel", type=Path, help="the plain wheel of these sources (pip wheel --no-deps .)")
    parser.add_argument("--out", type=Path, default=None, help="where to write the new wheel (default: beside it)")
    args = parser.parse_args(argv)
    if not args.wheel.is_file():
        raise SystemExit(f"prebuild: {args.wheel} is not a file")
    target = prebuilt_wheel(args.wheel, args.out or args.wheel.parent)
    print(f"prebuild: {target} ({target.stat().st_size / 1e6:.0f} MB)")


if __name__ == "__main__":
    main(sys.argv[1:])
