"""The one source of the game writers: a simulated match's events (`tsumolab replay --json`,
analyzer.replay.riichi_events) cut into hands in the words of analyzer.games.record.

What the writers need and the replay spreads over extension events is folded in here once:
- the `payment` events become `deltas` (each seat's points gained or lost) on the `hora` they pay for and on the
  exhaustive `ryukyoku` (noten and nagashi payments); the riichi sticks a winner collects count for the winner,
  the stick a seat puts down does not (it is its `reach_accepted`), as in Mahjong Soul's and tenhou's deltas;
- a riichi winner's `hora` gets the ura indicators under the dora indicators shown (`ura_markers`, from the
  replay's `wall` event);
- an added kan names the pon it completes (`consumed`, the pon's three tiles), as mjai's kakan does;
- fantasy's card payments (FL) go where they are paid: 赠品 and 厄运沙漏 on the win's deltas, 没收 on the draw's,
  暗中交易 and 爱的代价 as `fees` (each seat's points, `pot` the part paid to the table) on the call that costs them;
- `pass_win`, `payment` and the `wall` itself are left out (the wall stays on the hand for whoever wants it).

What the special modes show is kept in the words of the position documents (analyzer.advise.riichi_position):
dragon-eye's `eye` events (DE), fate's `fate_open` on start_kyoku and `open_tile` on the discards giving one up
(F, analyzer.advise.riichi_shown), fantasy's `cards` on start_kyoku (FL); dora-fever's and dragon-eye's first
indicators are the `dora` events right after start_kyoku (DF, DE). Chant's runs (C) and soul strike's turns (SS)
follow from the discards and riichi alone; open-deal (OD) shows the start hands every log holds anyway. Mirror's
start_kyoku gets `mirror_tehais` and `mirror_wall` (M, analyzer.advise.riichi_mirror, from the hand's wall);
astrology keeps its `candidate` events and each picked `tsumo`'s `pick` (A); darkness keeps its face-down
discards (`"face_down": true` on the dahai) and their payments into the pot (`payment` face_down, dark_open,
dark_lock, each naming its `pai`), and start_kyoku gets `pot`, the pot carried into the hand (D); the pot a winner
collects counts in its win's deltas, as the sticks do.

Each hand is its start_kyoku and its events up to and including end_kyoku (scores after the hand).
Only the modes in WRITTEN are written; `check_format` refuses the others in one line. Bloodshed's replay events are
cut into hands by analyzer.games.writers.bloodshed_log (analyzer.games.writers.game_log picks it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tsumolab.analyzer.errors import InputError

FORMATS = ("mjai", "tenhou6", "majsoul")
SIGHT = ("mirror", "astrology", "darkness")   # the modes of what the table sees: transparent tiles, the pool, face down
SPECIAL = ("dora-fever", "chant", "soul-strike", "fate", "open-deal", "dragon-eye", "fantasy", *SIGHT)
WRITTEN = {"mjai": ("riichi", "shura", *SPECIAL, "bloodshed"), "tenhou6": ("riichi",),
           "majsoul": ("riichi", "shura", *SPECIAL, "bloodshed")}  # modes written per format
TABLE = -1  # the riichi-stick pile in payment events
WIN_REASONS = frozenset({"ron", "tsumo", "honba", "sticks", "pao", "pot", "fl_giveaway", "fl_hourglass"})
DRAW_REASONS = frozenset({"noten", "nagashi", "fl_confiscate"})
FEE_REASONS = frozenset({"fl_shady_deal", "fl_love_price"})   # FL: paid on a call, during the hand
DARK_REASONS = ("face_down", "dark_open", "dark_lock")          # D: paid into the pot, kept as events
START_KEYS = ("bakaze", "kyoku", "honba", "kyotaku", "oya", "scores", "dora_marker", "tehais", "cards")
PLAY_KEYS = {
    "exchange": ("actor", "target", "pais"),
    "tsumo": ("actor", "pai", "rinshan", "pick"),
    "dahai": ("actor", "pai", "tsumogiri", "open_tile"),
    "chi": ("actor", "target", "pai", "consumed"),
    "pon": ("actor", "target", "pai", "consumed"),
    "daiminkan": ("actor", "target", "pai", "consumed"),
    "ankan": ("actor", "consumed"),
    "kakan": ("actor", "pai", "consumed"),
    "reach": ("actor", "double"),
    "reach_accepted": ("actor",),
    "dora": ("dora_marker",),
    "hora": ("actor", "target", "pai", "han", "fu"),
    "ryukyoku": ("reason", "abortive", "actor"),
    "end_kyoku": ("scores", "deltas"),
    "eye": ("actor", "counter"),
    "candidate": ("pai", "dead_wall", "pool", "wall_index"),
}


@dataclass
class Hand:
    """One hand: start_kyoku (with exchange_direction in shura), its events in play order, the replay's wall."""

    start: dict
    events: list[dict] = field(default_factory=list)
    wall: dict | None = None


@dataclass
class MatchLog:
    """A simulated match ready to be written: mode, seat names, rule options that differ from the mode's
    defaults, the rules' number of hands (4 East, 8 South) and every hand."""

    variant: str
    names: list[str]
    hands: list[Hand]
    rules: dict = field(default_factory=dict)
    n_hands: int = 4
    title: str = ""

    @property
    def final_scores(self) -> list[int]:
        return list(self.hands[-1].events[-1]["scores"]) if self.hands else [0] * 4

    @property
    def red_fives(self) -> bool:
        return bool(self.rules.get("red_fives", True))


def check_format(fmt: str, variant: str) -> None:
    """InputError (one line) when format `fmt` does not write mode `variant` (yet)."""
    if fmt == "tenhou6" and variant == "shura":
        raise InputError("replay --format tenhou6: a tenhou.net/6 log cannot hold shura's exchange of three and "
                         "play after wins; write shura as mjai or majsoul")
    if fmt == "tenhou6" and variant == "bloodshed":
        raise InputError("replay --format tenhou6: a tenhou.net/6 log cannot hold Bloodshed's exchange, voids and "
                         "play after wins; write bloodshed as majsoul")
    if fmt == "tenhou6" and variant in SPECIAL:
        raise InputError(f"replay --format tenhou6: a tenhou.net/6 log cannot name mode {variant} nor hold what it "
                         "shows; write it as mjai or majsoul")
    if variant not in WRITTEN[fmt]:
        raise InputError(f"replay --format {fmt}: mode {variant} is not written yet "
                         f"(written: {', '.join(WRITTEN[fmt])})")


def match_log(events: list[dict], names, variant: str, rules: dict | None = None, n_hands: int = 4,
              title: str = "") -> MatchLog:
    """The replay's JSON events of one match (riichi-based modes) → MatchLog."""
    hands = _hands(events, variant)
    for hand in hands:
        if variant == "fate":
            _show_fate(hand)
        elif variant == "mirror":
            _show_mirror(hand)
    return MatchLog(variant, [str(n) for n in names], hands, dict(rules or {}), n_hands, title)


def _hands(events: list[dict], variant: str) -> list[Hand]:
    """The replay's events cut into hands in the writers' words (the module docstring)."""
    hands: list[Hand] = []
    draw = [0] * 4
    win: dict | None = None   # the latest hora, whose payments follow it
    riichi: set[int] = set()
    shown, nagashi = 0, False
    pons: dict[tuple[int, str], list[str]] = {}   # (seat, kind) → the pon's tiles, for its added kan
    pot = 0   # D: the points in the pot
    for e in events:
        kind = e["type"]
        if kind == "start_kyoku":
            start = {"type": kind, **{k: e[k] for k in START_KEYS if k in e}}
            if variant == "shura":
                start["exchange_direction"] = e.get("exchange_direction", "none")
            if variant == "darkness":
                start["pot"] = pot
            hands.append(Hand(start))
            draw, win, riichi, shown, nagashi, pons = [0] * 4, None, set(), 1, False, {}
            continue
        if not hands:
            continue
        hand = hands[-1]
        if kind == "wall":
            hand.wall = e
            continue
        if kind == "payment":
            reason, payer, payee, amount = e["reason"], e["from"], e["to"], e["amount"]
            pot += amount if reason in DARK_REASONS else -amount if reason == "pot" else 0
            if reason in DARK_REASONS:
                _add_dark_payment(hand.events, e)
                continue
            if reason in FEE_REASONS:
                _add_fee(hand.events[-1], payer, payee, amount)
                continue
            target = win["deltas"] if reason in WIN_REASONS and win is not None else \
                draw if reason in DRAW_REASONS else None
            if target is not None:
                if payer != TABLE:
                    target[payer] -= amount
                if payee != TABLE:
                    target[payee] += amount
            nagashi |= reason == "nagashi"
            continue
        if kind not in PLAY_KEYS:
            continue   # pass_win and the other modes' extensions
        out = {"type": kind, **{k: e[k] for k in PLAY_KEYS[kind] if k in e}}
        if kind not in ("reach_accepted", "dora"):
            win = None   # a win's payments come right after it
        if kind == "reach_accepted":
            riichi.add(e["actor"])
        elif kind == "pon":
            pons[e["actor"], e["pai"].rstrip("r")] = [e["pai"], *e["consumed"]]
        elif kind == "kakan":
            out["consumed"] = pons.pop((e["actor"], e["pai"].rstrip("r")))
        elif kind == "dora":
            shown += 1
        elif kind == "hora":
            out["deltas"] = [0] * 4
            if e["actor"] in riichi and hand.wall is not None:
                out["ura_markers"] = hand.wall["ura_markers"][:shown]
            win = out
        elif kind == "ryukyoku" and not e.get("abortive"):
            out["deltas"] = draw
            out["nagashi"] = nagashi
        hand.events.append(out)
    return hands


def _add_fee(call: dict, payer: int, payee: int, amount: int) -> None:
    """FL: a fee paid on the call `call` (暗中交易 to the discarder, 爱的代价 to the table's pot)."""
    fees = call.setdefault("fees", {"deltas": [0] * 4, "pot": 0})
    for seat, sign in ((payer, -1), (payee, 1)):
        if seat == TABLE:
            fees["pot"] += sign * amount
        else:
            fees["deltas"][seat] += sign * amount


def _add_dark_payment(events: list[dict], payment: dict) -> None:
    """D: a payment into the pot for a face-down tile, kept as an event; its face_down payment marks the dahai
    right before it `"face_down": true`."""
    if payment["reason"] == "face_down":
        events[-1]["face_down"] = True
    events.append({k: payment[k] for k in ("type", "from", "to", "amount", "reason", "pai")})


def _show_mirror(hand: Hand) -> None:
    """M: start_kyoku's `mirror_tehais` and `mirror_wall` (the transparent copies, from the wall's tile ids)."""
    import numpy as np

    from tsumolab.analyzer.advise.riichi_mirror import mirror_start

    hand.start.update(mirror_start(np.asarray(hand.wall["ids"]), hand.start["oya"]))


def _show_fate(hand: Hand) -> None:
    """F: start_kyoku's `fate_open` (each seat's first 4 dealt tiles in deal order, from the wall's deal: 13
    tiles to each seat from the dealer on) and `open_tile` on the discards giving one up."""
    from tsumolab.analyzer.advise.riichi_shown import mark_open_tiles
    from tsumolab.sims.riichi.fate_tiles import OPEN_DEAL_TILES
    from tsumolab.sims.riichi.rules import DEAL_SIZE

    deal, oya = hand.wall["deal"], hand.start["oya"]
    first = [DEAL_SIZE * ((s - oya) % 4) for s in range(4)]
    shown = [deal[at:at + OPEN_DEAL_TILES] for at in first]
    hand.start["fate_open"] = shown
    mark_open_tiles([hand.start, *hand.events], shown)


def changed_rules(spec) -> dict:
    """The rule options of the run `spec` that differ from its mode's defaults."""
    defaults = spec.mode.rules_class().as_dict()
    return {k: v for k, v in spec.rules.as_dict().items() if defaults.get(k) != v}


def game_log(spec, match_id: int, events: list[dict], labels) -> MatchLog:
    """The MatchLog of the replay events `events` (analyzer.replay.match.replay_match, all or some hands) of
    match `match_id` of the run `spec` (analyzer.runs.spec.RunSpec), a riichi-based mode (Bloodshed's:
    analyzer.games.writers.game_log)."""
    changed = changed_rules(spec)
    values = spec.rules.as_dict()
    return match_log(events, labels, spec.variant, changed, int(values.get("n_hands", 4)),
                     f"tsumolab {spec.variant} seed {spec.seed} match {match_id}")
