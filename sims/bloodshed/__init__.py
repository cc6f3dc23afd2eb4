"""Bloodshed Skirmish (赤羽之战): the compiled engine of the Bloodshed family (sims.bloodshed.family).

Rules: rules.py (options) and sims/RULES.md B-1 … B-25; scoring: scoring.py; exhaustive-draw settlement:
settlement.py; the match kernel: engine.py, played through play.py.
"""
