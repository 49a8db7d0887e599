"""Hypothesis strategies for random small mechanisms (shared by the property tests)."""

from __future__ import annotations

from hypothesis import strategies as st

from exactdp.builders import choose, concomp
from exactdp.model import END, Ask, Chance, Mechanism
from exactdp.numbers import Q, eval_text


@st.composite
def distributions(draw, n_answers: int, n_datasets: int, allow_zero: bool = True):
    """One probability row per answer, each a vector over datasets; small denominators."""
    rows = [[Q(0)] * n_datasets for _ in range(n_answers)]
    for d in range(n_datasets):
        den = draw(st.sampled_from([2, 3, 4, 5, 6, 8, 10, 12]))
        lo = 0 if allow_zero else 1
        if den < n_answers * lo:
            den = n_answers
        weights = [draw(st.integers(lo, den)) for _ in range(n_answers)]
        total = sum(weights)
        if total == 0:
            weights[0], total = 1, 1
        for a in range(n_answers):
            rows[a][d] = Q(weights[a], total)
    return [tuple(r) for r in rows]


@st.composite
def game_nodes(draw, depth: int, n_datasets: int):
    """A random game node of at most ``depth`` moves."""
    if depth == 0:
        return END
    kind = draw(st.sampled_from(["ask", "chance", "chance", "end"] if depth < 3 else ["ask", "chance", "chance"]))
    if kind == "end":
        return END
    if kind == "ask":
        k = draw(st.integers(1, 3))
        kids = [draw(game_nodes(depth - 1, n_datasets)) for _ in range(k)]
        return Ask([f"q{i}" for i in range(k)], kids)
    k = draw(st.integers(1, 3))
    rows = draw(distributions(k, n_datasets))
    kids = [draw(game_nodes(depth - 1, n_datasets)) for _ in range(k)]
    return Chance([f"a{i}" for i in range(k)], rows, kids)


@st.composite
def adjacency(draw, n: int):
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=len(pairs), unique=True))
    return tuple((b, a) if draw(st.booleans()) else (a, b) for a, b in chosen)


@st.composite
def mechanisms(draw, max_depth: int = 4, combinators: bool = True):
    """Random small mechanisms: explicit trees, possibly wrapped in concomp or choose;
    2 or 3 datasets with random adjacency; zero probabilities allowed."""
    n = draw(st.integers(2, 3))
    datasets = tuple(f"x{i}" for i in range(n))
    adj = draw(adjacency(n))
    shape = draw(st.sampled_from(["tree", "tree", "concomp", "choose"] if combinators else ["tree"]))
    if shape == "tree":
        root = draw(game_nodes(max_depth, n))
        return Mechanism(root, datasets, adj, "T")
    a = Mechanism(draw(game_nodes(2, n)), datasets, adj, "A")
    b = Mechanism(draw(game_nodes(2, n)), datasets, adj, "B")
    if shape == "concomp":
        return concomp({"A": a, "B": b})
    return choose({"A": a, "B": b})


# --- exact values, one strategy over every rung of the number ladder ------------------------------

_RATIONAL_TEXTS = st.one_of(
    st.integers(0, 20).map(str),
    st.builds(lambda n, d: f"{n}/{d}", st.integers(0, 30), st.integers(1, 30)),
    st.sampled_from(["0.1", "0.25", "0.5", "1.5", "1e-3", "2.75"]),
)

# one entry per rung, written as a case file writes it (exactdp.numbers.ladder.LADDER)
RUNG_TEXTS: dict[str, st.SearchStrategy[str]] = {
    "QQ": _RATIONAL_TEXTS,
    "QT": st.sampled_from(["exp(1/10) + 1", "1 - exp(-1/5)/2", "exp(1/10)/(1 + exp(1/10))", "(exp(0.2) - 1)/2"]),
    "LL": st.one_of(
        st.builds(lambda r: f"log({r})", st.sampled_from(["2", "3", "23/9", "1/2"])),
        st.builds(lambda r, k: f"log({r})/{k}", st.sampled_from(["3", "61/9", "7/3"]), st.integers(2, 5)),
        st.sampled_from(["0.5*log(3)", "1/10 + log(2)", "log(2) - log(3)/4"]),
    ),
    "LQT": st.sampled_from(["log(exp(1/10) + 1)", "log(1 + exp(0.3)) - 1/2 + log(2)"]),
    "LS": st.sampled_from(["log(exp(1/10) + 1)/2", "(exp(1/10) + 1)*log(exp(1/10) + 1)", "log(1 + exp(0.3))/3 - 1"]),
    "EXP": st.sampled_from(["exp(1/10)", "exp(0.2999999999)", "3*exp(-1/7)", "exp(1/3)"]),
    "OO": st.just("inf"),
    "SYM": st.sampled_from(["E", "undefined_symbol", "p + 1"]),
}
"""Text strategies per rung: ``SYM`` draws names no case declares (an unknown name)."""

EXTREME_TEXTS = st.sampled_from(["10^5000", "1/10^5000", "-10^5000", "log(1 + 1/10^9999) - 1/10^9999"])
"""Values at the size limits: huge, tiny, and a sign needing more precision than the default cap."""


@st.composite
def exact_texts(draw, rungs: tuple[str, ...] = tuple(RUNG_TEXTS)) -> str:
    """The text of an exact value from any rung (or an extreme one), possibly negated."""
    text = draw(st.one_of(*(RUNG_TEXTS[r] for r in rungs), EXTREME_TEXTS))
    return f"-({text})" if draw(st.integers(0, 4)) == 0 else text


def exact_values(rungs: tuple[str, ...] = ("QQ", "QT", "LL", "LQT", "LS", "EXP", "OO")) -> st.SearchStrategy:
    """Exact values of the ladder's rungs (read by exactdp's own grammar from
    :func:`exact_texts`; SymPy and the extremes are for the case reader, see ``exact_texts``)."""
    return st.one_of(*(RUNG_TEXTS[r] for r in rungs)).map(eval_text)
