"""exactdp: exact differential-privacy verdicts for small finite interactive mechanisms.

Decides (ε, δ)-DP of finite interactive mechanisms against every adaptive adversary, exactly
in rational arithmetic, with witnesses.  See README.md for a tour.

Randomized response with e^ε = 3, written as in a case file:

>>> import exactdp
>>> M = exactdp.rr(eps="log(3)")
>>> str(exactdp.privloss(M, 0))
'log(3)'

Comparisons are exact, also with floats:

>>> exactdp.privloss(M, 0) > 1.0986
True
"""

__version__ = "0.2.0.dev0"

from typing import TYPE_CHECKING

from .lazy import attach

if TYPE_CHECKING:  # the package face, declared once: type checkers read these imports, and
    # exactdp.lazy.attach reads them to import each name's module when the name is first used
    # (start-up: `import exactdp.cli` or `exactdp --help` need none of the engines)
    from . import theorems
    from .analysis import Engine, EnumeratorEngine, Profile, ProfileEngine, Witness, enumerator, make_engine
    from .analysis import profile as profile_engine
    from .analysis.bounded_range import br_range
    from .analysis.gdp import check_gdp
    from .analysis.profile import delta_at, is_dp, privloss, profile, witness
    from .analysis.renyi import RenyiCurve, RenyiResult, renyi, renyi_curve
    from .analysis.renyi_real import CertifiedRenyi, certified_renyi, renyi_any, renyi_witness
    from .analysis.tradeoff import Tradeoff, dominating_pair, envelope_tradeoff, pair_tradeoffs, tensor
    from .analysis.tradeoff_points import TradeoffPoint, tradeoff_point, vertex_tests
    from .analysis.zcdp import ZCDPResult, check_zcdp
    from .builders import (
        SVT,
        ask,
        bounded_discrete_laplace,
        choose,
        compose,
        concomp,
        discrete_gaussian,
        discrete_laplace,
        finite_noise,
        geometric_noise,
        grr,
        grr_menu,
        krr,
        lyu_variant,
        mechanism,
        nonadaptive,
        permute_and_flip,
        repeat,
        report_noisy_max,
        respond,
        rr_delta,
        sparse_vector,
        truncated_geometric,
    )
    from .builders.composition import concomp_ordered, concomp_sequential, null_extension, postprocess
    from .builders.exponential import exponential  # the function (exactdp.builders.exponential is also a module)
    from .builders.rr import rr  # the function, as above
    from .caseio import Case, load_case, parse_case
    from .claims import Analysis, Status, Verdict
    from .deprecation import ExactDPDeprecationWarning
    from .errors import (
        ArgumentError,
        ArgumentTypeError,
        CaseError,
        ExactDPError,
        InexactValueError,
        InvalidGameError,
        InvalidMechanismError,
        LimitExceededError,
        UnsupportedMechanismError,
        VerificationError,
    )
    from .model import END, Ask, Chance, Mechanism
    from .model.nonadaptive import nonadaptive_game
    from .numbers import INF, LogLinear, LogQt, LogReal, Q, QtElement, exact, real_str
    from .numbers.expr import public_eval_text as eval_text  # its errors are ExactDPErrors
    from .report.plotapi import plot_profile, plot_renyi, plot_tradeoff
    from .simulation.simulate import simulate
    from .verify import Options, verify_file, verify_paths

__getattr__, __dir__ = attach(__name__, __file__)

__all__ = [
    "__version__",
    # beyond (eps, delta): Renyi DP, f-DP, Gaussian DP, dominating pairs
    "renyi",
    "RenyiResult",
    "renyi_curve",
    "RenyiCurve",
    "Tradeoff",
    "envelope_tradeoff",
    "pair_tradeoffs",
    "dominating_pair",
    "tensor",
    "check_gdp",
    "LogLinear",
    "renyi_any",
    "certified_renyi",
    "CertifiedRenyi",
    "renyi_witness",
    "check_zcdp",
    "ZCDPResult",
    "tradeoff_point",
    "TradeoffPoint",
    "vertex_tests",
    "nonadaptive_game",
    # model and builders
    "Mechanism",
    "Ask",
    "Chance",
    "END",
    "ask",
    "respond",
    "mechanism",
    "rr",
    "rr_delta",
    "compose",
    "repeat",
    "concomp",
    "choose",
    "exponential",
    "grr",
    "grr_menu",
    "nonadaptive",
    "krr",
    "truncated_geometric",
    "report_noisy_max",
    "finite_noise",
    "geometric_noise",
    "discrete_laplace",
    "bounded_discrete_laplace",
    "discrete_gaussian",
    "permute_and_flip",
    "SVT",
    "sparse_vector",
    "lyu_variant",
    "concomp_ordered",
    "concomp_sequential",
    "null_extension",
    "postprocess",
    # plots (the optional extra exactdp[plot])
    "plot_profile",
    "plot_tradeoff",
    "plot_renyi",
    # composition theorems (exact)
    "theorems",
    # analysis (profile engine by default; `enumerator` is the reference)
    "profile",
    "privloss",
    "delta_at",
    "is_dp",
    "witness",
    "simulate",
    "br_range",
    "profile_engine",
    "enumerator",
    "Profile",
    "Witness",
    "Engine",
    "ProfileEngine",
    "EnumeratorEngine",
    "make_engine",
    # numbers
    "Q",
    "INF",
    "LogReal",
    "LogQt",
    "QtElement",
    "exact",
    "eval_text",
    "real_str",
    # cases
    "Case",
    "load_case",
    "parse_case",
    "Analysis",
    "Verdict",
    "Status",
    "Options",
    "verify_file",
    "verify_paths",
    # errors
    "ExactDPError",
    "CaseError",
    "InvalidMechanismError",
    "InvalidGameError",
    "InexactValueError",
    "UnsupportedMechanismError",
    "LimitExceededError",
    "VerificationError",
    "ArgumentError",
    "ArgumentTypeError",
    "ExactDPDeprecationWarning",
]
