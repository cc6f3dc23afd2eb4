"""`search`: decides the decisions of the kinds it searches by paired rollouts, plays its base policy elsewhere.

At a searched decision the seat's candidate answers (its base policy's answer first, then the alternatives of
each searched kind present, see analyzer.search.options) are each played out `rollouts` times on the same
determinizations of what the seat cannot see (sims.bloodshed.determinize: by default each Bloodshed opponent
is dealt a hand as far along as the field's hands are at that wall count, sims.bloodshed.progress;
sims.riichi.determinize, which leaves in place the tiles the mode shows, sims.riichi.public_tiles) with the same
random streams, every seat playing the rollout policy, to the end of the hand. The seat plays the option with the
best mean point change, but leaves its base answer only when that option beats it by more than `z` paired
standard errors. Samples are keyed by (root seed, match id, hand, decision number), so a run depends only on its
seed and match ids, as every run does.

A decision cannot be searched from inside the compiled kernel (a hook cannot call the kernel that called it),
so matches with a `search` seat are played by analyzer.search.play: it stops the kernel at every decision,
searches the searching seat's, and resumes with the chosen answer forced (the seat's base hook still runs, so
every random stream moves as in uninterrupted play). The hooks declared here are the base's (baseline);
`base` names another base for the driver.
"""

from tsumolab.policies import riichi_baseline
from tsumolab.policies.baseline import POLICY as BASELINE
from tsumolab.policies.registry import Param, Policy, PolicyError, get

RON, KAN, CALLS, PUSH_FOLD, EXCHANGE, VOID, RIICHI = 1, 2, 4, 8, 16, 32, 64
"""bits of `kinds`: ron/pass (also tsumo/pass and robbing a kan), kans, pon and chi, push/fold against a threat
(the base discard or the safest discard), the exchange (S-2, B-6), the void suit (B-7), riichi or dama"""
PICK, HIDE, OPEN_LOCK = 128, 256, 512
"""bits of `kinds` for the modes' own decisions: astrology's pick among the candidates (A), darkness's discard or
riichi face up or face down (D), darkness's opening of another seat's face-down discard and locking of one's own
opened one (D)"""
DEFAULT_KINDS = RON | KAN | CALLS | PUSH_FOLD | RIICHI | PICK | HIDE | OPEN_LOCK
MODES = ("bloodshed", "riichi", "shura", "dora-fever", "open-deal", "fate", "chant", "astrology", "darkness",
         "mirror", "soul-strike", "fantasy", "dragon-eye")
"""the modes a `search` seat plays: Bloodshed and every riichi-family mode `advise` analyses (its
determinization keeps what each mode shows, sims.riichi.public_tiles)"""
PLAYERS = ("baseline", "expert")
"""policies `rollout` and `base` may name, by index; looked up in the registry when a match starts"""


def player(index: float, role: str) -> str:
    """The registered policy name a `rollout` or `base` parameter value selects (PolicyError if unknown)."""
    i = int(index)
    if not 0 <= i < len(PLAYERS) or i != index:
        raise PolicyError(f"search: {role}={index:g} names no policy; choose "
                          + ", ".join(f"{k} = {name}" for k, name in enumerate(PLAYERS)))
    get(PLAYERS[i])  # registered in this installation, else PolicyError
    return PLAYERS[i]


POLICY = Policy(
    name="search",
    description="Decides ron/pass, kans, calls, push/fold, riichi and the modes' own decisions (astrology's pick, "
                "darkness's face-down discard, open and lock; choice of `kinds`) by paired rollouts of each option "
                "to the end of the hand; plays its base policy elsewhere.",
    params=(
        Param("rollouts", int, 24, "rollouts per option at a searched decision (determinizations of what the "
                                   "seat cannot see, the same for every option)"),
        Param("kinds", int, DEFAULT_KINDS, "decision kinds searched, a sum of bits: 1 ron/pass (and tsumo), "
                                          "2 kan, 4 pon/chi, 8 push/fold against a visible threat, 16 exchange, "
                                          "32 void, 64 riichi/dama, 128 astrology pick, 256 darkness face "
                                          "down, 512 darkness open/lock"),
        Param("top_k", int, 0, "also search the own-turn discard among the k best by shanten then acceptance "
                               "(0 = off)"),
        Param("z", float, 1.0, "leave the base answer only for an option better by more than z paired "
                               "standard errors (0 = take the best mean)"),
        Param("rollout", int, 0, "policy of all four seats inside the rollouts: 0 = baseline, 1 = expert"),
        Param("base", int, 0, "policy played at the decisions not searched: 0 = baseline, 1 = expert"),
        Param("deal", int, 0, "Bloodshed: how each rollout deals the other hands back: 0 = each to a progress "
                              "(void tiles held, shanten) drawn from the baseline field's play, 1 = uniformly"),
    ),
    modes=MODES,
    hooks=dict(BASELINE.hooks),
    riichi_hooks=dict(riichi_baseline.HOOKS),
    driven=True,
)
