"""The rollout policy's own answer at a position, as the samplers give it to advise's recommendation
(analyzer.advise.evaluate): its random stream started from advise's seed, and an exchange triple in the order the
options list it."""

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


def with_prior_discard(view, tables, answer: int) -> int:
    """A riichi-family turn `answer` of the seat's policy with its discard chosen by the discard prior
    (analyzer.prior, the weights tsumolab ships): the prior's kind, with riichi declared where the prior's riichi
    judgement declares it (R-4: the seat may declare and that kind leaves the hand ready). A tsumo, kan or nine
    terminals, and a riichi seat's turn, stay."""
    from tsumolab.analyzer.prior.answers import discarded_kind
    from tsumolab.analyzer.prior.model import shipped_prior
    from tsumolab.sims.decisions import RIICHI
    from tsumolab.sims.riichi.observation import ROBS

    if discarded_kind(view, answer) < 0 or view[ROBS.riichi + view[ROBS.seat]]:
        return answer
    prior = shipped_prior()
    kind = prior.choose(view, tables)
    return RIICHI + kind if prior.declares(view, tables, kind) else kind
