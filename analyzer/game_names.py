"""The one table of the game's own names, as Mahjong Soul writes them in English, Chinese and Japanese: modes,
Bloodshed base patterns and bonuses, and the Bloodshed draw settlements.

Chinese names are the simplified ones of the Chinese client and of sources 000 and 002 (001 writes the same
names in traditional characters); Japanese names follow the Japanese client where a source shows it (001: 赤血の戦,
闇夜の戦; 003: 赤血の戦, 修羅の戦, 清一色, 清対, 対々和, 七対子, 根, 槍槓) and the same pattern elsewhere (Xの戦, the
Chinese pattern names in Japanese kanji). English names follow the English client where a source shows it
(001: Bloodshed Skirmish, Battle of Darkness) and tsumolab's rule book otherwise. Reports, `tsumolab rules` and
the tables' stored pattern names (the Chinese ones, sims.bloodshed.scoring) all go through this table.

The modes' names are the modes table's (sims.modes), read when a mode's name is first asked for: importing that
table loads the simulator, which a report's figures and pages do not otherwise need.
"""

from __future__ import annotations

from functools import lru_cache

_PATTERN_NAMES: dict[tuple[str, str], tuple[str, str, str]] = {
    # (kind, key): (English, Chinese, Japanese); key = the stored (Chinese) pattern / bonus / settlement name
    # Bloodshed base patterns (B-19a), in priority order
    ("pattern", "地和"): ("Earthly Hand", "地和", "地和"),
    ("pattern", "天和"): ("Heavenly Hand", "天和", "天和"),
    ("pattern", "清十八罗汉"): ("Pure Eighteen Arhats", "清十八罗汉", "清十八羅漢"),
    ("pattern", "十八罗汉"): ("Eighteen Arhats", "十八罗汉", "十八羅漢"),
    ("pattern", "清龙七对"): ("Pure Dragon Seven Pairs", "清龙七对", "清龍七対"),
    ("pattern", "清幺九"): ("Pure Terminal Sets", "清幺九", "清幺九"),
    ("pattern", "清金钩钓"): ("Pure Golden Hook", "清金钩钓", "清金鈎釣"),
    ("pattern", "清七对"): ("Pure Seven Pairs", "清七对", "清七対"),
    ("pattern", "龙七对"): ("Dragon Seven Pairs", "龙七对", "龍七対"),
    ("pattern", "将对"): ("2-5-8 All Triplets", "将对", "将対"),
    ("pattern", "清对"): ("Pure All Triplets", "清对", "清対"),
    ("pattern", "金钩钓"): ("Golden Hook", "金钩钓", "金鈎釣"),
    ("pattern", "带幺九"): ("Terminal Sets", "带幺九", "帯幺九"),
    ("pattern", "七对子"): ("Seven Pairs", "七对子", "七対子"),
    ("pattern", "清一色"): ("Full Flush", "清一色", "清一色"),
    ("pattern", "对对和"): ("All Triplets", "对对和", "対々和"),
    ("pattern", "底和"): ("Basic Hand", "底和", "底和"),
    # Bloodshed bonuses (B-19b), +1 fan each
    ("bonus", "根"): ("Root", "根", "根"),
    ("bonus", "杠上花"): ("Win on a Kan Draw", "杠上花", "槓上開花"),
    ("bonus", "杠上炮"): ("Win on a Kan Discard", "杠上炮", "槓上砲"),
    ("bonus", "抢杠"): ("Robbing a Kan", "抢杠", "槍槓"),
    ("bonus", "海底捞月"): ("Last Tile", "海底捞月", "海底撈月"),
    # Bloodshed exhaustive-draw settlements (B-21 … B-23)
    ("settlement", "退税"): ("kan refund", "退税", "槓収入の返還"),
    ("settlement", "查花猪"): ("flower-pig check", "查花猪", "宣言牌罰符"),
    ("settlement", "查大叫"): ("not-ready check", "查大叫", "不聴罰符"),
}
_COLUMN = {"en": 0, "zh": 1, "ja": 2}


@lru_cache(maxsize=1)
def _names() -> dict[tuple[str, str], tuple[str, str, str]]:
    from tsumolab.sims.modes import MODES

    return {**{("mode", slug): mode.names for slug, mode in MODES.items()}, **_PATTERN_NAMES}


def __getattr__(attribute: str):
    """NAMES: (kind, key) → (English, Chinese, Japanese) of every mode (key = slug), pattern, bonus and
    settlement."""
    if attribute == "NAMES":
        return _names()
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def name(kind: str, key: str, lang: str) -> str:
    """The game's name of a mode (key = slug), pattern, bonus or settlement (key = its Chinese name) in `lang`;
    an unknown key is returned as it is (a mode or pattern added later still shows, untranslated)."""
    entry = (_names() if kind == "mode" else _PATTERN_NAMES).get((kind, key))
    return key if entry is None else entry[_COLUMN[lang]]


def mode_name(slug: str, lang: str) -> str:
    return name("mode", slug, lang)


def pattern_name(stored: str, lang: str) -> str:
    """A base pattern as the tables store it (Chinese, e.g. 清一色) in `lang`."""
    return name("pattern", stored, lang)


def keys(kind: str) -> list[str]:
    return [key for k, key in _names() if k == kind]
