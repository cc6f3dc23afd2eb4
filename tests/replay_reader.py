"""A minimal reader of `tsumolab replay --json` logs, independent of the engine: it re-plays each hand from the
log alone (tile names, no tsumolab code) and returns its end state, so tests can check that the log determines
the hand. Riichi-based logs carry a `wall` event (live wall, replacement tiles, indicators); Bloodshed logs are
read from their deal and draws.
"""

from __future__ import annotations

from collections import Counter


class LogError(AssertionError):
    pass


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise LogError(what)


def _take(hand: Counter, tile: str, who: str) -> None:
    _need(hand[tile] > 0, f"{who} does not hold {tile}")
    hand[tile] -= 1


def _kind(tile: str) -> str:
    return "5" + tile[1] if tile.endswith("r") else tile


def is_complete(tiles: list[str]) -> bool:
    """14 concealed-equivalent tiles (melds as their 3 tiles) form 4 sets and a pair, 7 pairs or 13 orphans."""
    c = Counter(_kind(t) for t in tiles)
    if len(tiles) == 14 and all(v % 2 == 0 for v in c.values()):  # seven pairs (Bloodshed's may hold a quad)
        return True
    orphans = {f"{n}{s}" for s in "mps" for n in "19"} | {f"{n}z" for n in range(1, 8)}
    if len(tiles) == 14 and set(c) == orphans:
        return True

    def sets(c: Counter) -> bool:
        left = sorted(k for k, v in c.items() if v)
        if not left:
            return True
        t = min(left, key=lambda k: (k[1], k[0]))
        if c[t] >= 3:
            c[t] -= 3
            if sets(c):
                return True
            c[t] += 3
        n, s = int(t[0]), t[1]
        nxt = [f"{n + 1}{s}", f"{n + 2}{s}"]
        if s != "z" and n <= 7 and all(c[x] for x in nxt):
            for x in [t, *nxt]:
                c[x] -= 1
            ok = sets(c)
            for x in [t, *nxt]:
                c[x] += 1
            return ok
        return False

    for pair in [k for k, v in c.items() if v >= 2]:
        c[pair] -= 2
        if sets(c):
            return True
        c[pair] += 2
    return False


def read_hand(events: list[dict]) -> dict:
    """Re-play one hand's events (from its start_kyoku to its end_kyoku) → {hands, melds, rivers, live_used,
    rinshan_used, winners, pool (astrology candidates left)}; raises LogError when an event is impossible from
    what the log showed before."""
    start = events[0]
    _need(start["type"] == "start_kyoku", "a hand starts with start_kyoku")
    hands = [Counter(tiles_of(h)) for h in start["tehais"]]
    _need(all(sum(h.values()) == 13 for h in hands), "13 tiles dealt to every seat")
    wall = next((e for e in events if e["type"] == "wall"), None)
    live = list(wall["live"]) if wall else None
    rinshan = list(wall["rinshan"]) if wall else None
    pool: list[str] = []
    melds: list[list[list[str]]] = [[] for _ in range(4)]
    rivers: list[list[str]] = [[] for _ in range(4)]
    last_given: tuple[int, str] | None = None  # (seat, tile) a ron or a call may take
    used = {"live": 0, "rinshan": 0}
    winners, drew = [], [False] * 4
    candidates_shown = False  # astrology (A): draws are picks from the candidates from then on
    for e in events[1:]:
        t = e["type"]
        if t == "exchange":
            for p in e["pais"]:
                _take(hands[e["actor"]], p, f"seat {e['actor']}")
                hands[e["target"]][p] += 1
        elif t == "candidate":  # astrology (A): the next live tile, or the next replacement tile, is revealed
            candidates_shown = True
            source, which = (rinshan, "rinshan") if e["dead_wall"] else (live, "live")
            name = source[used[which]] if source is not None else e["pai"]
            _need(_kind(name) == _kind(e["pai"]), f"candidate {e['pai']} is the next {which} tile {name}")
            used[which] += 1
            pool.append(name)
        elif t == "tsumo":
            seat, pai = e["actor"], e["pai"]
            if candidates_shown:
                _need(pai in pool, f"astrology draw {pai} is a candidate {pool}")
                pool.remove(pai)
            elif e.get("rinshan") and rinshan is not None:
                _need(rinshan[used["rinshan"]] == pai, f"replacement draw {pai} is the next replacement tile")
                used["rinshan"] += 1
            elif live is not None:
                _need(live[used["live"]] == pai, f"draw {pai} is the next live tile {live[used['live']]}")
                used["live"] += 1
            else:
                used["live"] += 1
            hands[seat][pai] += 1
            drew[seat] = True
        elif t == "dahai":
            seat = e["actor"]
            _take(hands[seat], e["pai"], f"seat {seat}")
            rivers[seat].append(e["pai"])
            last_given = (seat, e["pai"])
        elif t in ("chi", "pon", "daiminkan"):
            _need(last_given == (e["target"], e["pai"]), f"{t} takes the last discard of seat {e['target']}")
            for p in e.get("consumed", [e["pai"]] * (2 if t == "pon" else 3)):
                _take(hands[e["actor"]], p, f"seat {e['actor']}")
            melds[e["actor"]].append([e["pai"], *e.get("consumed", [e["pai"]] * (2 if t == "pon" else 3))])
            rivers[e["target"]].pop()
            last_given = None
        elif t == "ankan":
            for p in e.get("consumed", [e["pai"]] * 4):
                _take(hands[e["actor"]], p, f"seat {e['actor']}")
            melds[e["actor"]].append(list(e.get("consumed", [e["pai"]] * 4)))
        elif t == "kakan":
            seat = e["actor"]
            _take(hands[seat], e["pai"], f"seat {seat}")
            pon = next((m for m in melds[seat] if len(m) == 3 and {_kind(x) for x in m} == {_kind(e["pai"])}), None)
            _need(pon is not None, f"seat {seat} adds {e['pai']} to a pon it has")
            pon.append(e["pai"])
            last_given = (seat, e["pai"])
        elif t == "hora":
            seat, target, pai = e["actor"], e.get("target", e["actor"]), e["pai"]
            if target != seat:
                _need(last_given is not None and last_given[0] == target and _kind(last_given[1]) == _kind(pai),
                      f"ron on {pai} takes seat {target}'s last tile")
                tiles = [*hands[seat].elements(), pai]
            else:
                tiles = list(hands[seat].elements())
            meld_tiles = [m[:3] for m in melds[seat]]
            _need(is_complete(tiles + [x for m in meld_tiles for x in m]), f"seat {seat} wins with a complete hand")
            winners.append(seat)
    return {"hands": [dict(+h) for h in hands], "melds": melds, "rivers": rivers, "live_used": used["live"],
            "rinshan_used": used["rinshan"], "winners": winners, "pool": pool}


def tiles_of(tehai) -> list[str]:
    """A deal as a list of names, or as an mpsz string (Bloodshed's `tehais`)."""
    if isinstance(tehai, list):
        return list(tehai)
    out, digits = [], ""
    for ch in tehai:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def hands_of(events: list[dict]) -> list[list[dict]]:
    """A match's events split into hands (start_kyoku … end_kyoku)."""
    out: list[list[dict]] = []
    for e in events:
        if e["type"] == "start_kyoku":
            out.append([])
        if out:
            out[-1].append(e)
    return out
