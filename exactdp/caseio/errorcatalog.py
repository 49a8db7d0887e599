"""The catalogue of case-file errors, each with a small example, for ``docs/errors.md``.

The document is generated from the reader's real output, so it cannot go stale silently: a
test regenerates it and compares.  Regenerate with ``python -m exactdp.caseio.errorcatalog --write``.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import CaseError, LimitExceededError
from ..limits import DEFAULT, READING, memory_limit_error, size_text, time_limit_error, using
from .case import load_case, parse_case
from .yamlsafe import YamlLimits

_MAX_BYTES = YamlLimits().max_bytes

__all__ = ["CATALOGUE", "HOSTILE", "render", "DOC_PATH"]

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "errors.md"

_OK = "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(3)}}]\n"
_HEAD = "exactdp: 1\nname: demo\n"

# (section, title, explanation, example text)
CATALOGUE: list[tuple[str, str, str, str]] = [
    # --- reading the file -------------------------------------------------------------------
    (
        "File",
        "Not YAML",
        "The file does not parse as YAML; the message gives the place.",
        _HEAD + "mechanism: {rr: {eps: log(3)}\n",
    ),
    ("File", "Empty file", "", ""),
    ("File", "Not a mapping", "A case file is a mapping at the top level.", "- exactdp: 1\n"),
    ("File", "Several documents", "A case file is one YAML document.", _HEAD + _OK + "---\n" + _HEAD + _OK),
    (
        "File",
        "Tags are refused",
        "Only plain data is read; a tag such as `!!python/object` is refused before anything is built, so nothing can run.",
        _HEAD + "mechanism: !!python/object/apply:os.system ['echo hi']\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "File",
        "Recursive alias",
        "Anchors may share sub-trees but not contain themselves.",
        _HEAD + "mechanism: &m {compose: [*m]}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    ("File", "Undefined alias", "", _HEAD + "mechanism: *nothing\nclaims: [{dp: {eps: 1}}]\n"),
    (
        "File",
        "Alias bomb",
        "Aliases are counted as if expanded; beyond `--max-yaml-nodes` (default 1,000,000) the file is refused, fast and in bounded memory.",
        _HEAD
        + "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        + "".join(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 7)),
    ),
    ("File", "Duplicate key", "YAML would silently keep the last one; exactdp refuses.", _HEAD + _OK + "claims: []\n"),
    # --- top level --------------------------------------------------------------------------
    ("Top level", "Missing version", "", "name: demo\n" + _OK),
    ("Top level", "Unsupported version", "", "exactdp: 2\nname: demo\n" + _OK),
    ("Top level", "Missing or malformed name", "", "exactdp: 1\nname: My Case\n" + _OK),
    (
        "Top level",
        "Unknown key (a typo)",
        "Unknown keys are errors, with the closest known key suggested.",
        _HEAD + _OK + "refrence: Vadhan-Wang\n",
    ),
    ("Top level", "No mechanism", "", _HEAD + "claims: [{dp: {eps: 1}}]\n"),
    ("Top level", "No claims", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\n"),
    # --- datasets ---------------------------------------------------------------------------
    ("Datasets", "Unknown dataset in adjacent", "", _HEAD + "datasets: [a, b]\nadjacent: [[a, c]]\n" + _OK),
    ("Datasets", "A dataset adjacent to itself", "", _HEAD + "adjacent: [[x0, x0]]\n" + _OK),
    ("Datasets", "Dataset listed twice", "", _HEAD + "datasets: [a, a]\n" + _OK),
    # --- mechanisms -------------------------------------------------------------------------
    ("Mechanisms", "Unknown form", "", _HEAD + "mechanism: {rrr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n"),
    (
        "Mechanisms",
        "Unknown key in a form (a typo)",
        "",
        _HEAD + "mechanism: {rr: {eps: log(3), detla: 1/10}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "Missing field",
        "",
        _HEAD + "mechanism: {repeat: {mechanism: {rr: {eps: log(3)}}}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "Two forms in one mapping",
        "",
        _HEAD + "mechanism: {rr: {eps: log(3)}, choose: []}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "Undefined mechanism",
        "",
        _HEAD + "mechanisms:\n  M: {compose: [A, B]}\n  A: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "Cyclic reference",
        "A mechanism must be a finite game.",
        _HEAD + "mechanisms:\n  M: {compose: [N]}\n  N: {choose: [M]}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "RR on more than two datasets",
        "RR's input bit is known only for the first adjacent pair; give the others with `bits:`.",
        _HEAD + "datasets: [a, b, c]\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Mechanisms",
        "Decimal eps too fine for exact arithmetic",
        "A decimal eps is exact: e^0.1 is kept in the field Q(e^(1/L)). A huge power of e^(1/L) is refused rather than approximated.",
        _HEAD + "mechanism: {rr: {eps: 1234.56789}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    # --- distributions ----------------------------------------------------------------------
    (
        "Distributions",
        "Does not sum to 1",
        "Every answer distribution sums to exactly 1 under every dataset.",
        _HEAD + "mechanism: {respond: {a: [1/2, 1/3], b: [1/2, 1/3]}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Distributions",
        "Rounded decimals",
        "Decimals are exact, so 0.333 is 333/1000; the hint suggests fractions.",
        _HEAD + "mechanism: {respond: {a: [0.333, 1/2], b: [0.333, 1/2], c: [0.333, 0]}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Distributions",
        "Negative probability",
        "",
        _HEAD + "mechanism: {respond: {a: [-1/2, 1/2], b: [3/2, 1/2]}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Distributions",
        "Wrong number of probabilities",
        "One probability per dataset.",
        _HEAD + "mechanism: {respond: {a: [1, 1, 0], b: [0, 0, 1]}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Distributions",
        "Unknown or missing dataset in a map",
        "",
        _HEAD + "mechanism: {respond: {a: {p: {x0: 1, y: 1}}}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    ("Distributions", "Empty distribution", "", _HEAD + "mechanism: {respond: {}}\nclaims: [{dp: {eps: 1}}]\n"),
    # --- numbers ----------------------------------------------------------------------------
    (
        "Numbers",
        "Log of a non-positive number",
        "",
        _HEAD + "mechanism: {rr: {eps: log(0)}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    ("Numbers", "Division by zero", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1/0}}]\n"),
    (
        "Numbers",
        "No exact representation",
        "exactdp never rounds: an irrational value is refused.",
        _HEAD + "mechanism: {rr: {eps: log(2^(1/2))}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Numbers",
        "Unknown name",
        "Names are the case's `params`; the closest one is suggested.",
        _HEAD + "params: {eps: log(3)}\nmechanism: {rr: {eps: esp}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Numbers",
        "Code is not a number",
        "The grammar has numbers, + - * / ^, log, exp and names: nothing else, nothing runs.",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: \"__import__('os').system('ls')\"}}]\n",
    ),
    ("Numbers", "Unknown function", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: sqrt(2)}}]\n"),
    ("Numbers", "Parameter defined in terms of itself", "", _HEAD + "params: {a: 2*b, b: a}\n" + _OK),
    ("Numbers", "Out of range", "", _HEAD + "mechanism: {rr: {eps: log(1/2)}}\nclaims: [{dp: {eps: 1, delta: 3/2}}]\n"),
    (
        "Numbers",
        "Exponent too large",
        "Powers are bounded (`--max-exponent`).",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(10^99999)}}]\n",
    ),
    # --- claims -----------------------------------------------------------------------------
    (
        "Claims",
        "Unknown claim kind",
        "",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{privlos: {delta: 0, equals: log(3)}}]\n",
    ),
    ("Claims", "Missing field", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{delta: {eps: 0}}]\n"),
    ("Claims", "equals or at_most", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{privloss: {delta: 0}}]\n"),
    (
        "Claims",
        "Several kinds in one claim",
        "",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}, not_dp: {eps: 0}}]\n",
    ),
    (
        "Claims",
        "About an undefined mechanism",
        "",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1, of: N}}]\n",
    ),
    (
        "Claims",
        "Renyi order at most 1 that is not 1",
        "`renyi:` takes alpha = 1 (KL), any real order > 1 (3/2 gives a certified enclosure) or inf.",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{renyi: {alpha: 1/2, equals: log(2)}}]\n",
    ),
    (
        "Claims",
        "Renyi order that is not a whole number where only whole ones apply",
        "The Renyi composition theorem takes alpha = 1, 2, 3, ... or inf.",
        _HEAD
        + "mechanisms: {A: {rr: {eps: log(3)}}, B: {rr: {eps: log(2)}}}\n"
        + "claims: [{composition: {components: [A, B], theorem: renyi, alpha: 3/2}}]\n",
    ),
    (
        "Claims",
        "probability outside the field Q(e^(1/L))",
        "A probability is a rational or an element of Q(e^(1/L)): exp of rationals with + - * /, never log(...).",
        _HEAD + "mechanism: {respond: {a: [log(2)/2, 1/2], b: [1 - log(2)/2, 1/2]}}\nclaims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Claims",
        "probabilities in Q(e^(1/L)) that do not sum to 1",
        "Sums are exact in the field: a distribution written with exp(...) must sum to exactly 1.",
        _HEAD
        + "mechanism: {respond: {a: [exp(-1/2)/(1 + exp(-1/2)), 1/2], b: [1/(1 + exp(-1/3)), 1/2]}}\n"
        + "claims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Claims",
        "a zcdp claim needs a positive rho",
        "`zcdp: {rho: X}` with X > 0 (Bun-Steinke 2016, Def. 1.1).",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{zcdp: {rho: 0}}]\n",
    ),
    (
        "Claims",
        "a named composition bound without its slack",
        "advanced, kov-3.4 and the KOV slides' theorems need `slack:` (their delta~).",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{composition: {components: [M], theorem: kov-3.4}}]\n",
    ),
    (
        "Mechanisms",
        "the discrete Gaussian clamped at the bounds",
        "Its tails are infinite series with no exact form in Q(e^(1/L)): use truncation: renormalize.",
        _HEAD
        + "mechanism: {discrete_gaussian: {sigma2: 4, bounds: [-8, 8], data: [0, 1], truncation: clamp}}\n"
        + "claims: [{dp: {eps: 1}}]\n",
    ),
    (
        "Claims",
        "Renyi value that is not a divergence",
        "A claimed D_alpha is an exact real such as log(7/3), log(61/9)/2 or inf.",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{renyi: {alpha: 2, equals: exp(1/2)}}]\n",
    ),
    (
        "Claims",
        "f-DP against an undefined mechanism",
        "",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{fdp: {f: R}}]\n",
    ),
    ("Claims", "Negative GDP parameter", "", _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{gdp: {mu: -1}}]\n"),
    (
        "Claims",
        "alpha without theorem: renyi",
        "The Renyi composition theorem needs an order; other theorems take none.",
        _HEAD
        + "mechanisms: {A: {rr: {eps: log(2)}}}\nclaims: [{composition: {components: [A, A], theorem: fdp, alpha: 2}}]\n",
    ),
]

# --- hostile input: examples that need a file on disk or a lowered limit ----------------------
# (title, explanation, how, example text, limits as flags).  how: "text" (the case is read),
# "file:<kind>" (a file made on disk), or "cli:<arguments>" (exactdp run in a process of its own,
# in a temporary directory holding the example text as demo.yaml and, for a "cli" entry, the
# files named in limits["files"]).
_AUTOMATON = (
    _HEAD + "mechanism:\n  automaton:\n    states: [s0, s1]\n    initial: s0\n    horizon: 100000\n"
    "    transitions:\n"
    '      s0: {"0": {"0": {p: [3/4, 1/4], next: s0}, "1": {p: [1/4, 3/4], next: s1}}}\n'
    '      s1: {"0": {"0": {p: [3/4, 1/4], next: s0}, "1": {p: [1/4, 3/4], next: s1}}}\n'
    "claims: [{privloss: {delta: 0, at_most: inf}}]\n"
)
_SWEEP = (
    _HEAD + "params: {k: 1}\nsweep: {k: [1, 2]}\nmechanism: {repeat: {mechanism: {rr: {eps: log(3)}}, times: k}}\n"
    "claims: [{privloss: {delta: 0, equals: k*log(3)}}]\n"
)
HOSTILE: list[tuple[str, str, str, str, dict]] = [
    (
        "A symbolic link",
        "Symbolic links are not followed, neither given on the command line nor met in a directory: a case file "
        "from a stranger could point at a secret. The link is named, never read, and its target is not shown.",
        "file:symlink",
        "",
        {},
    ),
    (
        "A symbolic link leaving the tree",
        "With `--follow-symlinks`, a link is followed only if its target stays inside the tree being verified (the "
        "directory given on the command line, or the one holding a file given there).",
        "file:symlink-out",
        "",
        {"follow_symlinks": True},
    ),
    (
        "Not a regular file",
        "Only regular files are read. The type is checked before the file is opened, so a FIFO, a device such as "
        "`/dev/zero`, a socket or a directory named `*.yaml` is refused at once: nothing blocks.",
        "file:fifo",
        "",
        {},
    ),
    ("A device", "", "file:device", "", {}),
    (
        "A file too large",
        f"The size limit (`--max-file-bytes`, default {_MAX_BYTES:,}) is enforced while reading: at most one byte "
        "more than the limit is ever read, whatever the file says its size is.",
        "file:large",
        "",
        {},
    ),
    (
        "A value is quoted only as an excerpt",
        "No message repeats more than about 60 characters of a value read from a file, on one line, with the cut "
        "marked and the full length given (here the file is one long line of text).",
        "text",
        "SECRET-" + "x" * 300 + "\n",
        {},
    ),
    (
        "Too many datasets",
        "Shown with `--max-datasets 3` (default 1,000). The datasets are refused before anything proportional to "
        "their number of pairs is built.",
        "text",
        _HEAD + "datasets: [a, b, c, d]\nmechanism: {respond: {x: [1, 1, 1, 1]}}\nclaims: [{dp: {eps: 1}}]\n",
        {"max_datasets": 3},
    ),
    (
        "Too many adjacent pairs",
        "Shown with `--max-pairs 5` (default 20,000). Without `adjacent:`, every two datasets are adjacent: "
        "n datasets make n(n-1)/2 pairs.",
        "text",
        _HEAD + "datasets: [a, b, c, d]\nmechanism: {respond: {x: [1, 1, 1, 1]}}\nclaims: [{dp: {eps: 1}}]\n",
        {"max_pairs": 5},
    ),
    (
        "An irrational power, however small",
        "A root is exact only if the number is a perfect power, which is decided at once from its size: "
        "no power of the exponent's size is ever formed.",
        "text",
        _HEAD + "mechanism: {rr: {eps: log(2^(1/10^30))}}\nclaims: [{dp: {eps: 1}}]\n",
        {},
    ),
    (
        "A number too large",
        "Every intermediate result computed from a case's numbers (sums, products, powers, parameters defined by "
        "other parameters) is bounded in size (`--max-bits`, default 1,000,000 bits), so that no single "
        "operation is long or huge: here a chain of squares is refused at its first square over the limit.",
        "text",
        _HEAD + "params: {a0: 2^10000, " + ", ".join(f"a{k}: a{k - 1}*a{k - 1}" for k in range(1, 8)) + "}\n" + _OK,
        {},
    ),
    (
        "A symbolic power too large",
        "With `symbols:`, a symbol may only be raised to an integer power, and the degree of every rational "
        "function of the symbols is bounded (`--max-symbolic-degree`, default 200).",
        "text",
        _HEAD + "symbols: {E: {gt: 1}, p: {gt: 0, lt: 1}}\nparams: {x: E^p, y: E^(1/2), z: (E+1)^150*(E+1)^150}\n"
        "mechanism: {rr: {eps: log(E)}}\nclaims: [{simulates_rr: {eps: log(E)}}]\n",
        {},
    ),
    (
        "A sign that is not proved",
        "A symbolic probability is accepted only if it is proved to be in [0, 1] for every value the bounds allow. "
        "Every symbol without bounds is split into x > 0, x < 0 and x = 0, all combinations together; what cannot "
        "be proved is refused (here the value is negative at a = 0, b = -9/10).",
        "text",
        _HEAD + 'symbols: {a: ~, b: ~}\nmechanism:\n  respond:\n    "0": [1/2 + b/(4*(b+1+a^2)), 1/2]\n'
        '    "1": [1/2 - b/(4*(b+1+a^2)), 1/2]\nclaims: [{simulates_rr: {eps: log(3)}}]\n',
        {},
    ),
    (
        "A symbolic power past the degree limit",
        "With a symbol, every power of a rational function is bounded by `--max-symbolic-degree` (default 200) "
        "before it is formed: without it, a Renyi claim of order 10^9 would make the arithmetic library abort "
        "the whole process, with no message.",
        "cli:verify demo.yaml",
        _HEAD
        + "symbols: {E: {gt: 1}}\nmechanism: {rr: {eps: log(E)}}\nclaims: [{renyi: {alpha: 10^9, at_most: log(E)}}]\n",
        {},
    ),
    (
        "A fractional Renyi order too large, with a symbol",
        "A claim with a symbol at a fractional order is decided on boxes of the symbol's range, each raising "
        "enclosures to the power alpha: an order above `--max-exponent` (default 10,000) is refused before any box "
        "(without it, order 2000001/2 would run a minute before reaching the box limit). The claim is then "
        "tried at a few rational values of the symbol: one that refutes it decides it (D_alpha <= 1 fails at E = 3); "
        "a claim that holds at each stays undecided, as here (D_alpha <= D_inf = log E).",
        "cli:verify demo.yaml",
        _HEAD
        + "symbols: {E: {gt: 1}}\nmechanism: {rr: {eps: log(E)}}\nclaims: [{renyi: {alpha: 2000001/2, at_most: log(E)}}]\n",
        {},
    ),
    (
        "A wide discrete Laplace with a symbol",
        "With alpha a function of a symbol, each probability holds alpha^|y - c| for every output y: the widest "
        "degree is refused under `--max-symbolic-degree` before any probability is formed (bounds [0, 1000] would "
        "otherwise run until the time limit).",
        "text",
        _HEAD + "symbols: {E: {gt: 1}}\n"
        "mechanism: {discrete_laplace: {eps: log(E), bounds: [0, 1000], data: {x0: 1, x1: 2}}}\n"
        "claims: [{dp: {eps: log(E)}}]\n",
        {},
    ),
    (
        "A closed box with too many faces",
        "A sign is proved on the open box of the symbols' bounds and on each face of its closed ends, once: k "
        "symbols with two closed ends have 3^k faces, refused beyond `--max-cells` (default 5,000), which also bounds the cells of a parametric "
        "decomposition. Each face is examined once, not once per order of reaching it (2^k k! paths).",
        "text",
        _HEAD
        + "symbols: {"
        + ", ".join(f"E{i}: {{ge: 0, le: 1}}" for i in range(8))
        + "}\nmechanism:\n  respond:\n    a: [("
        + " + ".join(f"E{i}" for i in range(8))
        + ")/16, 1/2]\n    b: [1 - ("
        + " + ".join(f"E{i}" for i in range(8))
        + ")/16, 1/2]\nclaims: [{dp: {eps: log(3)}}]\n",
        {},
    ),
    (
        "A symbolic weight past the degree limit",
        "e^eps of `grr` and `grr_menu`, and the exponential mechanism's weights E^k, are checked against "
        "`--max-symbolic-degree` before a sign is proved or a sum formed: eps = 5000*log(E) would otherwise run "
        "until the time limit.",
        "text",
        _HEAD + "symbols: {E: {gt: 1}}\nmechanism: {grr: {eps: 5000*log(E), t: 10*log(E)}}\n"
        "claims: [{dp: {eps: log(E)}}]\n",
        {},
    ),
    (
        "Too many symbols",
        "A case declares at most `--max-symbols` symbols (default 100; shown with 3): the polynomials of an "
        "analysis are over every declared symbol, and 20,000 of them would overflow the stack (and then "
        "exhaust memory in the arithmetic library, which aborts).",
        "text",
        _HEAD + "symbols: {A: {gt: 1}, B: {gt: 1}, C: {gt: 1}, D: {gt: 1}}\nmechanism: {rr: {eps: log(A)}}\n"
        "claims: [{dp: {eps: log(A)}}]\n",
        {"max_symbols": 3},
    ),
    (
        "A transcendental constant too large",
        "A value written with log and exp is compared by certified enclosures; exp(exp(100)) has a finite "
        "enclosure whose binary exponent is about 10^43, so the exact ends of every enclosure are bounded by "
        "`--max-bits` before they are formed (they would otherwise take until the time limit).",
        "text",
        _HEAD + "mechanism: {rr: {eps: log(3)}}\nclaims: [{zcdp: {rho: exp(exp(100))}}]\n",
        {},
    ),
    (
        "An automaton whose work is too large",
        "The work of an automaton grows like the square of its horizon: the exact profile d steps before the end "
        "has up to d + 1 pieces. It is predicted from the horizon and the joint states reachable under the "
        "datasets, before the game is built, and refused at once over `--max-automaton-work` (default "
        "2,000,000 profile pieces); a horizon of 10^5 would otherwise run until the time limit.",
        "text",
        _AUTOMATON,
        {},
    ),
    (
        "Too many Rényi orders",
        "Each order of `exactdp renyi --alpha` is a whole analysis: a list is refused before the case is read "
        "beyond `--max-orders` (default 100; shown with 3).",
        "cli:renyi demo.yaml --alpha 2,3,4,5 --max-orders 3",
        _SWEEP,
        {},
    ),
    (
        "Too many local worker processes",
        "`--jobs N` and `--scheduler local:N` start N processes, each importing exactdp before any work: N is "
        "refused before any starts beyond `--max-workers` (default 4 per core; shown with 4).",
        "cli:verify demo.yaml --jobs 5 --max-workers 4",
        _SWEEP,
        {},
    ),
    (
        "A scheduler address Dask cannot use",
        "A `--scheduler` address is `tcp://HOST:PORT`, `tls://HOST:PORT` or `local:N`; anything else is refused "
        "in one line before Dask is imported.",
        "cli:verify demo.yaml --scheduler file:///etc/passwd",
        _SWEEP,
        {},
    ),
    (
        "A sweep CSV that is not this case's",
        "`exactdp sweep --resume FILE` reads back only rows that exactdp wrote for this case: each row names the "
        "case and carries a digest of its inputs (exactdp's version, the case file, the point's params). A file "
        "written by hand or by another case is refused and left as it is; rows whose inputs changed, and a last "
        "row cut off, are checked again.",
        "cli:sweep demo.yaml --resume old.csv",
        _SWEEP,
        {"files": {"old.csv": "k,claim,kind,of,status,value,found\n1,1,privloss,M,holds,log(3),log(3)\n"}},
    ),
]


def _flags(limits: dict) -> str:
    return " ".join(
        f"--{k.replace('_', '-')}" + ("" if v is True else f" {v}") for k, v in limits.items() if k != "files"
    )


def _cli_message(args: str, text: str, files: dict[str, str]) -> str:
    """What ``exactdp ARGS`` prints (stdout, then stderr), run in a process of its own in a
    temporary directory holding ``text`` as demo.yaml and ``files``."""
    env = {k: v for k, v in os.environ.items() if k not in ("EXACTDP_JOBS", "COLUMNS")}
    with tempfile.TemporaryDirectory() as tmp:
        for name, content in {"demo.yaml": text, **files}.items():
            Path(tmp, name).write_text(content, encoding="utf-8")
        p = subprocess.run(
            [sys.executable, "-m", "exactdp", *shlex.split(args)],
            cwd=tmp,
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
    return (p.stdout + p.stderr).rstrip("\n")


def _hostile_message(how: str, text: str, limits: dict) -> str:
    """The real message for one hostile example (files are made in a temporary directory,
    which is the working directory meanwhile, so that the paths shown are relative)."""

    if how.startswith("cli:"):
        return _cli_message(how[len("cli:") :], text, limits.get("files", {}))
    with using(DEFAULT.replace(**limits, timeout=0, max_memory=0)):
        if how == "text":
            return _message(text)
        kind = how.split(":", 1)[1]
        if kind == "device":
            return _load_message(lambda: load_case("/dev/zero"))
        old = os.getcwd()
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            try:
                os.mkdir("cases")
                with open("secret.txt", "w") as f:
                    f.write("TOKEN\n")
                if kind in ("symlink", "symlink-out"):
                    os.symlink("../secret.txt", "cases/demo.yaml")
                    return _load_message(lambda: load_case("cases/demo.yaml"))
                if kind == "fifo":
                    os.mkfifo("demo.yaml")
                    return _load_message(lambda: load_case("demo.yaml"))
                with open("demo.yaml", "w") as f:
                    f.write("#" * (_MAX_BYTES + 1))
                return _load_message(lambda: load_case("demo.yaml"))
            finally:
                os.chdir(old)


def _load_message(load) -> str:
    try:
        load()
    except CaseError as e:
        return str(e)
    raise AssertionError("hostile example was read")


def _limit_rows() -> list[tuple[str, str, str, str]]:
    """(limit, default, flag, message) from the limits themselves, so the table cannot go stale."""

    d, y = DEFAULT, YamlLimits()

    def limit(what: str, lim: object, how: str) -> str:
        return str(LimitExceededError(what, lim, how))

    return [
        (
            "file size",
            f"{y.max_bytes:,} bytes",
            "`--max-file-bytes`",
            f"file is {y.max_bytes + 1} bytes; the limit is {y.max_bytes}",
        ),
        (
            "alias-expanded YAML size",
            f"{y.max_expanded_nodes:,} nodes",
            "`--max-yaml-nodes`",
            f"this value expands to more than {y.max_expanded_nodes} YAML nodes through aliases",
        ),
        ("nesting depth", f"{y.max_depth} levels", "—", f"nesting deeper than {y.max_depth} levels"),
        ("problems reported per file", "20", "`--max-problems`", "(more problems were found; fix these first)"),
        (
            "datasets per case",
            f"{d.max_datasets:,}",
            "`--max-datasets`",
            limit(f"the number of datasets ({d.max_datasets + 1})", d.max_datasets, "raise it with --max-datasets N"),
        ),
        (
            "symbols a case declares",
            f"{d.max_symbols:,}",
            "`--max-symbols`",
            f"symbols: the number of symbols ({d.max_symbols + 1}) exceeds the limit of {d.max_symbols}; "
            "raise it with --max-symbols N",
        ),
        (
            "adjacent pairs per case",
            f"{d.max_pairs:,}",
            "`--max-pairs`",
            limit(f"the number of adjacent pairs ({d.max_pairs + 1})", d.max_pairs, "raise it with --max-pairs N, ..."),
        ),
        (
            "game nodes per case",
            f"{d.max_nodes:,}",
            "`--max-nodes`",
            limit("the number of game nodes", d.max_nodes, "raise it with --max-nodes N"),
        ),
        (
            "size of an exact profile",
            f"{d.max_hull_edges:,} pieces",
            "`--max-profile-size`",
            limit(
                f"an exact privacy profile with {d.max_hull_edges + 1} pieces",
                d.max_hull_edges,
                "raise it with --max-profile-size N",
            ),
        ),
        (
            "enumerated adversaries",
            f"{d.max_strategies:,}",
            "`--max-strategies`",
            f"the number of deterministic adversaries of M (...) exceeds the limit of {d.max_strategies}; ... raise --max-strategies",
        ),
        (
            "exponents in numbers",
            f"{d.max_exponent:,}",
            "`--max-exponent`",
            f"exponent 99999 is larger than the limit {d.max_exponent} (raise it with --max-exponent)",
        ),
        (
            "bits of every number computed from the case's numbers (and of the engine's products)",
            f"{d.max_bits:,} bits, or 100 x `--max-exponent` if larger",
            "`--max-bits`",
            f"2^(2000000), a number with about 2000000 bits exceeds the limit of {d.max_bits} bits; raise it with --max-bits N",
        ),
        (
            "degree of a rational function of symbols",
            f"{d.max_symbolic_degree}",
            "`--max-symbolic-degree`",
            f"a rational function of the symbols of degree up to 300 exceeds the limit of {d.max_symbolic_degree}; ...",
        ),
        (
            "precision of one certified sign decision (interval arithmetic)",
            f"{d.max_precision:,} bits",
            "`--max-precision`",
            f"deciding the sign of ... by certified interval arithmetic exceeds the limit of {d.max_precision} bits "
            "of precision; raise it with --max-precision BITS",
        ),
        (
            "components of `exactdp compose`",
            f"{d.max_components:,}",
            "`--max-components`",
            limit("the number of components (1000000)", d.max_components, "raise it with --max-components N"),
        ),
        (
            "samples of `exactdp experiment`",
            f"{d.max_samples:,}",
            "`--max-samples`",
            limit("the number of samples (1000000)", d.max_samples, "raise it with --max-samples N"),
        ),
        (
            "predicted work of an automaton",
            f"{d.max_automaton_work:,} profile pieces",
            "`--max-automaton-work`",
            limit(
                "the predicted work of the automaton (horizon 100000, 2 reachable joint states: about 10000100000 "
                "profile pieces)",
                d.max_automaton_work,
                "raise it with --max-automaton-work N, or shorten the horizon",
            ),
        ),
        (
            "histories walked to build a post-processor T (`simulate`, `simulates_rr`)",
            f"{d.max_histories:,}",
            "`--max-histories`",
            limit("the number of histories of M", d.max_histories, "raise it with --max-histories (max_histories=...)"),
        ),
        (
            "Rényi orders of one `exactdp renyi --alpha`",
            f"{d.max_orders}",
            "`--max-orders`",
            limit("the number of Renyi orders in --alpha (20000)", d.max_orders, "raise it with --max-orders N"),
        ),
        (
            "local worker processes (`--jobs`, `--scheduler local:N`)",
            "4 per core (8 on 2 cores)",
            "`--max-workers`",
            limit(
                "the number of local worker processes (1000)",
                8,
                "raise it with --max-workers N (the default is 4 per core)",
            ),
        ),
        (
            "boxes of Renyi orders examined for a `zcdp` claim",
            f"{d.max_alpha_boxes:,}",
            "`--max-alpha-boxes`",
            f"undecided: not decided within --max-alpha-boxes {d.max_alpha_boxes} boxes of alpha (D_alpha/alpha may "
            "touch rho); raise it with --max-alpha-boxes N",
        ),
        (
            "boxes of a symbol's domain examined for a KL claim with a symbol (`renyi` with `alpha: 1`)",
            f"{d.max_symbol_boxes:,}",
            "`--max-symbol-boxes`",
            f"undecided: not decided within --max-symbol-boxes {d.max_symbol_boxes} boxes of E: the boxes left, in "
            "1 <= E <= inf, neither prove nor refute the claim (the divergence may touch the bound, or grow with it "
            "without bound); raise it with --max-symbol-boxes N",
        ),
        (
            "points of one case file's sweep",
            f"{READING.max_sweep_points:,}",
            "`--max-sweep-points`",
            f"the sweep has {READING.max_sweep_points + 1} points; the limit is {READING.max_sweep_points}",
        ),
        (
            "degree in t = e^(1/L) of a number of Q(e^(1/L)) (a decimal eps, a discrete Gaussian's weight)",
            f"{d.max_field_degree:,}",
            "`--max-field-degree`",
            limit(
                f"e^eps for eps = 0.12345 (degree {20000:,} in t)",
                d.max_field_degree,
                "raise it with --max-field-degree N, or write eps with fewer decimal digits",
            ),
        ),
        (
            "cells of a parametric decomposition of the symbols' domain, and faces of their closed bounds "
            "examined to prove a sign",
            f"{d.max_cells:,}",
            "`--max-cells`",
            limit("the number of cells of the parametric decomposition", d.max_cells, "raise it with --max-cells N"),
        ),
        (
            "memory a case file (or command) may add",
            size_text(d.max_memory),
            "`--max-memory SIZE` (0: none)",
            str(memory_limit_error(d.max_memory)),
        ),
        (
            "wall-clock time per case file (each sweep point is one) or command",
            f"{d.timeout:g} s",
            "`--timeout SECONDS` (0: none)",
            str(time_limit_error(d.timeout)),
        ),
    ]


_LIMITS_HEAD = """## Limits

Every resource a case file can make exactdp spend is bounded by a named limit with a default, a
flag that raises it, and an error naming it. Every command that reads case files accepts every
limit's flag; `compose` and `experiment` accept all but the four limits of reading a file
(`--max-file-bytes`, `--max-yaml-nodes`, `--max-problems`, `--max-sweep-points`). Limits are never silent
truncations: reaching one stops the check with that error (exit status 2). A limit reached
while checking a claim marks that claim *undecided* (`!` in the report); the time limit marks
every remaining claim of the file undecided. `--max-workers` belongs to the commands that run
work in parallel (`verify`, `sweep`, `certify`, `experiment`). The pytest plugin applies the same limits with
the same defaults; an ini option named after each flag sets it (`exactdp_max_memory = 2G`).

What is read: regular files only (`*.yaml`/`*.yml` in directories), at most `--max-file-bytes`;
symbolic links are not followed unless `--follow-symlinks`, and then only inside the tree being
verified. What is bounded: the table below. The memory in use is watched every 10 ms of CPU time
and backed by an address-space limit at twice the allowance, so that even one huge allocation
ends as the named memory limit, not as a crash; numbers are bounded in size, so no single
arithmetic operation is long and `--timeout` is never overshot.
"""


def _limits_section() -> str:
    rows = ["| limit | default | flag | message (example) |", "|---|---|---|---|"]
    rows += [f"| {a} | {b} | {c} | `{m}` |" for a, b, c, m in _limit_rows()]
    return _LIMITS_HEAD + "\n" + "\n".join(rows) + "\n"


def _message(text: str) -> str:
    try:
        parse_case(text, "demo.yaml")
    except CaseError as e:
        return str(e)
    raise AssertionError(f"catalogue example is valid:\n{text}")


def render() -> str:
    out = [
        "# Errors in case files",
        "",
        "Every problem in a case file is reported with the file, the line and column, the place in",
        "the document (`mechanisms.M.tree.ask.q0.yes.p[1]`), what was expected and what was found,",
        "and usually a hint. Several problems are reported at once (up to `--max-problems`).",
        "`exactdp verify` then exits with status 2; no traceback is ever printed for a mistake in a",
        "case file. Exit status 2 also means that a claim could not be decided (*undecided*, `!` in",
        "the report: a limit reached while checking it, a condition on symbols that could not be",
        "proved, a certified comparison that could not separate two numbers); an undecided claim never",
        "counts as holding. This page is generated from the reader's real output",
        "(`python -m exactdp.caseio.errorcatalog --write`). Each example shows the problem lines;",
        "`exactdp verify` prints them indented under a line `! demo.yaml: invalid case` and ends with",
        "its summary line (`summary: 0 claims in 1 file, 1 not valid: 0 hold, 0 fail`).",
        "",
    ]
    section = None
    order = list(dict.fromkeys(sec for sec, *_ in CATALOGUE))  # (one heading per section, in first-seen order)
    for sec, title, why, text in sorted(CATALOGUE, key=lambda entry: order.index(entry[0])):
        if sec != section:
            out += [f"## {sec}", ""]
            section = sec
        out += [f"### {title}", ""]
        if why:
            out += [why, ""]
        out += [
            "```yaml",
            text.rstrip("\n") if text else "# (an empty file)",
            "```",
            "",
            "```text",
            _message(text),
            "```",
            "",
        ]
    out += [
        "## Hostile input",
        "",
        "Case files from strangers are read safely; these are the refusals that protect the machine, and the "
        "output files they could spoil.",
        "",
    ]
    for title, why, how, text, limits in HOSTILE:
        out += [f"### {title}", ""]
        if why:
            out += [why, ""]
        if how == "text":
            shown = text.rstrip("\n") if len(text) < 400 else text[:120] + "…"
            out += ["```yaml", shown, "```", ""]
        if how.startswith("cli:"):
            out += ["```text", f"$ exactdp {how[len('cli:') :]}", _hostile_message(how, text, limits), "```", ""]
            continue
        cmd = "exactdp verify " + (
            "/dev/zero" if how == "file:device" else "cases/demo.yaml" if "symlink" in how else "demo.yaml"
        )
        out += ["```text", f"$ {cmd} {_flags(limits)}".rstrip(), _hostile_message(how, text, limits), "```", ""]
    out.append(_limits_section())
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        DOC_PATH.write_text(render())
    else:
        sys.stdout.write(render())
