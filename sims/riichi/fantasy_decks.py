"""FL fantasy 幻境传说: the names of the three card decks and the parser of the `cards` option."""

from __future__ import annotations

# The three decks, each card as (ASCII slug, simplified name, traditional name of source 001).
# Card code in the observation and the records = index + 1 (0 = no card: not fantasy).
FANTASY_DECKS = (
    ("dealer", (("fuuki", "风纪", "風紀"), ("eternal-night", "永夜", "永夜"), ("confiscate", "没收", "沒收"),
                ("hype", "炒作", "炒作"), ("giveaway", "赠品", "贈品"))),
    ("chance", (("otherworld", "里世界", "裡世界"), ("triple-speed", "三倍速", "三倍速"),
                ("golden", "金闪闪", "金閃閃"), ("super-tanyao", "超断幺", "超斷幺"),
                ("showdown", "胜负手", "勝負手"))),
    ("fate", (("exaggeration", "夸大其词", "誇大其詞"), ("over-prepared", "过度准备", "過度準備"),
              ("hourglass", "厄运沙漏", "厄運沙漏"), ("shady-deal", "暗中交易", "暗中交易"),
              ("love-price", "爱的代价", "愛的代價"))),
)
FANTASY_SLUGS = tuple(tuple(card[0] for card in deck) for _name, deck in FANTASY_DECKS)


def parse_fantasy_cards(text: str) -> tuple[int, int, int]:
    """FL: `cards` ("" or up to three card names, comma-separated, any order, at most one per deck; slugs,
    simplified or traditional Chinese names) → (dealer, chance, fate) card index, -1 = drawn per match."""
    chosen = [-1, -1, -1]
    if not text.strip():
        return tuple(chosen)
    lookup = {}
    for d, (_deck, cards) in enumerate(FANTASY_DECKS):
        for i, names in enumerate(cards):
            for name in names:
                lookup[name.lower()] = (d, i)
    for raw in text.split(","):
        name = raw.strip().lower()
        if name in ("", "*", "-", "random"):
            continue
        if name not in lookup:
            known = "; ".join(f"{deck}: " + ", ".join(f"{c[0]} ({c[1]})" for c in cards)
                              for deck, cards in FANTASY_DECKS)
            raise ValueError(f"unknown fantasy card {raw.strip()!r} (known cards: {known})")
        d, i = lookup[name]
        if chosen[d] >= 0 and chosen[d] != i:
            raise ValueError(f"cards names two {FANTASY_DECKS[d][0]} cards ({FANTASY_SLUGS[d][chosen[d]]}, "
                             f"{FANTASY_SLUGS[d][i]}): one card per deck")
        chosen[d] = i
    return tuple(chosen)
