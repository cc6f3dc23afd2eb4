"""Riichi scoring rule options (RULES.md R-3), Mahjong Soul ranked defaults.

Options are a frozen dataclass (never mutated by evaluation); kernels receive them packed as an int64
array by `ScoringRules.to_array()`, indexed by the OPT_* constants below.

Fixed, not options: a hand needs a yaku to win and dora (incl. red fives and ura) never make a yaku, so red
fives count only on a hand that has one (R-3); renhou is not a yaku (Mahjong Soul has none).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

OPT_KAZOE_YAKUMAN = 0
OPT_KIRIAGE_MANGAN = 1
OPT_OPEN_TANYAO = 2
OPT_DOUBLE_YAKUMAN = 3
OPT_YAKUMAN_STACKING = 4
OPT_RED_FIVES = 5
N_OPTIONS = 6


@dataclass(frozen=True)
class ScoringRules:
    """Rule options of riichi scoring; the defaults are Mahjong Soul ranked play (R-3)."""

    kazoe_yakuman: bool = True
    """13 or more han without a yakuman score as a yakuman (off: capped at sanbaiman)."""
    kiriage_mangan: bool = False
    """4 han 30 fu and 3 han 60 fu round up to mangan."""
    open_tanyao: bool = True
    """Tanyao counts on an open hand (kuitan)."""
    double_yakuman: bool = True
    """Suuankou tanki, kokushi 13-sided wait, junsei chuuren and daisuushii are worth two yakuman."""
    yakuman_stacking: bool = True
    """Several yakuman in one hand add up (off: only the most valuable one counts)."""
    red_fives: bool = True
    """Each red five held (hand or melds) is one dora."""

    def to_array(self) -> np.ndarray:
        arr = np.zeros(N_OPTIONS, np.int64)
        arr[OPT_KAZOE_YAKUMAN] = int(self.kazoe_yakuman)
        arr[OPT_KIRIAGE_MANGAN] = int(self.kiriage_mangan)
        arr[OPT_OPEN_TANYAO] = int(self.open_tanyao)
        arr[OPT_DOUBLE_YAKUMAN] = int(self.double_yakuman)
        arr[OPT_YAKUMAN_STACKING] = int(self.yakuman_stacking)
        arr[OPT_RED_FIVES] = int(self.red_fives)
        return arr

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict) -> "ScoringRules":
        reject_unknown_options(cls, values, "riichi rule")
        bad = [k for k, v in values.items() if not isinstance(v, bool)]
        if bad:
            raise ValueError(f"riichi rule option(s) {', '.join(sorted(bad))} must be true or false")
        return cls(**values)


def reject_unknown_options(options: type, values: dict, what: str) -> None:
    """ValueError naming the keys of `values` that are no field of the options dataclass (`what`: its name)."""
    known = {f.name for f in fields(options)}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"unknown {what} option(s): {', '.join(sorted(unknown))} "
                         f"(known: {', '.join(sorted(known))})")
