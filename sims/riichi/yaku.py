"""The riichi yaku table (RULES.md R-3): ids, names, han closed/open, yakuman multipliers.

Names are those of the `mahjong` package (MahjongRepository) so results compare name for name; the
package splits yakuhai winds into seat-wind and round-wind yaku per wind, and so do we (a double wind
triplet is two yaku of 1 han each). Dora, red fives and ura dora are listed as the pseudo-yaku
DORA / AKA_DORA / URA_DORA with their count as han; they are added only to a hand that has a yaku and
no yakuman.

HAN_CLOSED[id] / HAN_OPEN[id]: han of a regular yaku on a closed / open hand (HAN_OPEN 0 = closed only).
YAKUMAN_MULT[id]: 1 or 2 for a yakuman (2 = double yakuman, when the `double_yakuman` option is on), else 0.
A yakuman's entry in a result has han = 13 × its multiplier, as in the `mahjong` package.
"""

from __future__ import annotations

import numpy as np

# (name, han closed, han open, yakuman multiplier)
_TABLE = [
    ("Menzen Tsumo", 1, 0, 0),
    ("Riichi", 1, 0, 0),
    ("Double Riichi", 2, 0, 0),
    ("Ippatsu", 1, 0, 0),
    ("Chankan", 1, 1, 0),
    ("Rinshan Kaihou", 1, 1, 0),
    ("Haitei Raoyue", 1, 1, 0),
    ("Houtei Raoyui", 1, 1, 0),
    ("Pinfu", 1, 0, 0),
    ("Tanyao", 1, 1, 0),
    ("Iipeiko", 1, 0, 0),
    ("Yakuhai (haku)", 1, 1, 0),
    ("Yakuhai (hatsu)", 1, 1, 0),
    ("Yakuhai (chun)", 1, 1, 0),
    ("Yakuhai (seat wind east)", 1, 1, 0),
    ("Yakuhai (seat wind south)", 1, 1, 0),
    ("Yakuhai (seat wind west)", 1, 1, 0),
    ("Yakuhai (seat wind north)", 1, 1, 0),
    ("Yakuhai (round wind east)", 1, 1, 0),
    ("Yakuhai (round wind south)", 1, 1, 0),
    ("Yakuhai (round wind west)", 1, 1, 0),
    ("Yakuhai (round wind north)", 1, 1, 0),
    ("Sanshoku Doujun", 2, 1, 0),
    ("Ittsu", 2, 1, 0),
    ("Chantai", 2, 1, 0),
    ("Honroutou", 2, 2, 0),
    ("Toitoi", 2, 2, 0),
    ("San Ankou", 2, 2, 0),
    ("San Kantsu", 2, 2, 0),
    ("Sanshoku Doukou", 2, 2, 0),
    ("Chiitoitsu", 2, 0, 0),
    ("Shou Sangen", 2, 2, 0),
    ("Honitsu", 3, 2, 0),
    ("Junchan", 3, 2, 0),
    ("Ryanpeikou", 3, 0, 0),
    ("Chinitsu", 6, 5, 0),
    ("Kokushi Musou", 0, 0, 1),
    ("Kokushi Musou Juusanmen Matchi", 0, 0, 2),
    ("Suu Ankou", 0, 0, 1),
    ("Suu Ankou Tanki", 0, 0, 2),
    ("Daisangen", 0, 0, 1),
    ("Shousuushii", 0, 0, 1),
    ("Dai Suushii", 0, 0, 2),
    ("Tsuu Iisou", 0, 0, 1),
    ("Ryuuiisou", 0, 0, 1),
    ("Chinroutou", 0, 0, 1),
    ("Chuuren Poutou", 0, 0, 1),
    ("Daburu Chuuren Poutou", 0, 0, 2),
    ("Suu Kantsu", 0, 0, 1),
    ("Tenhou", 0, 0, 1),
    ("Chiihou", 0, 0, 1),
    ("Dora", 0, 0, 0),
    ("Aka Dora", 0, 0, 0),
    ("Ura Dora", 0, 0, 0),
]

YAKU_NAMES: tuple[str, ...] = tuple(row[0] for row in _TABLE)
YAKU_IDS: dict[str, int] = {name: i for i, name in enumerate(YAKU_NAMES)}
N_YAKU = len(_TABLE)
HAN_CLOSED = np.array([row[1] for row in _TABLE], np.int64)
HAN_OPEN = np.array([row[2] for row in _TABLE], np.int64)
YAKUMAN_MULT = np.array([row[3] for row in _TABLE], np.int64)

(MENZEN_TSUMO, RIICHI, DOUBLE_RIICHI, IPPATSU, CHANKAN, RINSHAN, HAITEI, HOUTEI, PINFU, TANYAO, IIPEIKO,
 HAKU, HATSU, CHUN, SEAT_WIND_EAST, SEAT_WIND_SOUTH, SEAT_WIND_WEST, SEAT_WIND_NORTH,
 ROUND_WIND_EAST, ROUND_WIND_SOUTH, ROUND_WIND_WEST, ROUND_WIND_NORTH,
 SANSHOKU, ITTSU, CHANTAI, HONROUTOU, TOITOI, SANANKOU, SANKANTSU, SANSHOKU_DOUKOU, CHIITOITSU,
 SHOUSANGEN, HONITSU, JUNCHAN, RYANPEIKOU, CHINITSU,
 KOKUSHI, KOKUSHI_13, SUUANKOU, SUUANKOU_TANKI, DAISANGEN, SHOUSUUSHII, DAISUUSHII, TSUUIISOU,
 RYUUIISOU, CHINROUTOU, CHUUREN, JUNSEI_CHUUREN, SUUKANTSU, TENHOU, CHIIHOU,
 DORA, AKA_DORA, URA_DORA) = range(N_YAKU)

MAX_RESULT_YAKU = 24
"""Room for yaku entries in a result (a regular hand has at most about 16, dora included)."""
