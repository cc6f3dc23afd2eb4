"""Standard Mahjong Soul riichi (RULES.md R-1 … R-6): the base of every riichi-based mode.

So far: rule options (rules.py), the yaku table (yaku.py), the compiled scorer (scoring.py) and its Python
edge for `tsumolab hand` (calculator.py). The match engine comes later.
"""
