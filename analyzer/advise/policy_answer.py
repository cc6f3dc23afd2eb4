"""The answers advise's recommendation prefers at a position (analyzer.advise.evaluate), as the samplers give them:
the rollout policy's own, its random stream started from advise's seed and an exchange triple in the order the
options list it; in the riichi modes, strong players' order."""

from __future__ import annotations

from tsumolab.sims.decisions import D_EXCHANGE


def policy_stream(seed: int) -> int:
    """A policy's random state (policies.common.rand_below_at: a nonzero int32) for advise's `seed`: what the seat
    draws at random, such as a tie it splits, then depends on the seed, not on a stream the position hides."""
    return seed % (2 ** 31 - 1) + 1


def in_option_order(decision: int, answer: int) -> int:
    """`answer` as the options encode it: an exchange (S-2, B-3) packs its three kinds lowest first
    (policies.api.pack_exchange); a policy may pack them in any order."""
    if decision != D_EXCHANGE:
        return answer
    low, mid, high = sorted((answer & 0xFF, (answer >> 8) & 0xFF, (answer >> 16) & 0xFF))
    return low | (mid << 8) | (high << 16)


def strong_players_order(view, tables, answer: int) -> tuple[int, ...]:
    """The riichi-family answers at `view` in the order strong players would choose them, after `answer`, the
    seat's policy's: a win the seat may take (tsumo, ron) first, as players take nearly all of theirs; on a turn,
    then the discard prior's order (with_prior_discards); at any other decision, `answer`."""
    from tsumolab.sims.decisions import D_REACT, D_ROB, D_TURN, RON, TSUMO
    from tsumolab.sims.riichi.observation import ROBS

    decision = int(view[ROBS.decision])
    order = with_prior_discards(view, tables, answer) if decision == D_TURN else (answer,)
    if decision in (D_TURN, D_REACT, D_ROB) and view[ROBS.can_win]:
        win = TSUMO if decision == D_TURN else RON
        order = (win,) + tuple(a for a in order if a != win)
    return order


def with_prior_discards(view, tables, answer: int) -> tuple[int, ...]:
    """A riichi-family turn in the discard prior's order (analyzer.prior, the weights tsumolab ships) where the
    seat's policy answered with a discard: every kind the seat may discard, the likeliest first, each with riichi
    declared first where the prior's riichi judgement declares it (R-4: the seat may declare and that kind leaves
    the hand ready), else after. A tsumo, kan or nine terminals, and a riichi seat's turn, stay `answer` alone."""
    from tsumolab.analyzer.prior.answers import discarded_kind
    from tsumolab.analyzer.prior.model import shipped_prior
    from tsumolab.sims.decisions import RIICHI
    from tsumolab.sims.riichi.observation import ROBS

    if discarded_kind(view, answer) < 0 or view[ROBS.riichi + view[ROBS.seat]]:
        return (answer,)
    prior = shipped_prior()
    preference = []
    for kind in prior.ranking(view, tables):
        pair = (RIICHI + kind, kind) if prior.declares(view, tables, kind) else (kind, RIICHI + kind)
        preference.extend(pair)
    return tuple(preference)
