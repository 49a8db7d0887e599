"""No exact value is ever rounded through floating point (Vadhan–Wang Thm 1.10 symbolic proofs).

A rational function evaluated at a rational point is a rational: the symbolic path must give
exactly the value of plain rational arithmetic, and nothing may call ``nsimplify`` or ``evalf``
on an exact number (``nsimplify(1389/2000)`` returns an irrational power product).
"""

from __future__ import annotations

import importlib
import textwrap
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.caseio import parse_case
from exactdp.numbers import Q
from exactdp.numbers.expr import evaluate, parse_expr
from exactdp.numbers.symbolic import SymbolBounds, SymbolTable, substitute, sym_evaluate
from exactdp.report.verdicts import shown
from exactdp.verify import verify_case, verify_text

SYMBOLIC_CASE = """
exactdp: 1
name: sym-1389
symbols: {E: {gt: 1}}
mechanisms:
  M:
    tree:
      respond:
        a: {p: [1389/2000, 1389/2000], then: {rr: {eps: log(E)}}}
        b: {p: [611/2000, 611/2000]}
claims:
  - simulates_rr: {eps: log(E)}
"""


@pytest.fixture
def no_float_roundtrip(monkeypatch):
    """Fail the test if exactdp asks SymPy to round an exact value through floating point.

    (SymPy's own ``cancel`` peeks at signs with a 2-digit ``evalf`` to order terms; that never
    changes a value, so only the rounding entry points are refused here, and the source scan
    below keeps exactdp from calling ``evalf`` itself.)"""

    def refuse(*a, **k):
        raise AssertionError("an exact value was rounded through floating point (nsimplify)")

    monkeypatch.setattr(sympy, "nsimplify", refuse)
    monkeypatch.setattr(importlib.import_module("sympy.simplify.simplify"), "nsimplify", refuse)


def test_no_float_roundtrip_in_the_source():
    """No module of exactdp calls nsimplify, evalf or N: exact values are never rounded."""
    import re
    from pathlib import Path

    pat = re.compile(r"nsimplify\(|\.evalf\(|sympy\.N\(|\.n\(\)")
    root = Path(__file__).resolve().parents[1] / "exactdp"
    bad = [
        f"{f.relative_to(root)}:{k}"
        for f in root.rglob("*.py")
        for k, line in enumerate(f.read_text().splitlines(), 1)
        if pat.search(line.split("#")[0]) and "Never ``nsimplify``" not in line
    ]
    assert not bad, bad


def test_rational_probability_in_symbolic_proof_is_spot_checked(no_float_roundtrip):
    """1389/2000 once came back from nsimplify as 5·2^(474/547)·…/84, so the spot check was
    skipped with the false reason "T is undefined at the sample point"."""
    res = verify_text(textwrap.dedent(SYMBOLIC_CASE), "sym.yaml")
    (v,) = res.verdicts
    assert v.holds
    text = "\n".join(shown(v).details)
    assert "undefined" not in text and "exact checks pass" in text


def test_symbolic_library_cases_never_round(no_float_roundtrip):
    from pathlib import Path

    from exactdp.verify import verify_file

    for f in sorted(Path(__file__).resolve().parents[1].joinpath("cases").rglob("*.yaml")):
        if "symbols:" in f.read_text():
            res = verify_file(f)
            assert res.error is None and all(v.holds for v in res.verdicts), f


_small = st.fractions(min_value=-20, max_value=20, max_denominator=50)


@st.composite
def rational_functions(draw):
    """A random rational function of E in our grammar, as text."""

    def term():
        c = draw(_small)
        k = draw(st.integers(0, 3))
        return f"({c.numerator}/{c.denominator})*E^{k}"

    num = " + ".join(term() for _ in range(draw(st.integers(1, 3))))
    den = " + ".join(term() for _ in range(draw(st.integers(1, 3))))
    return f"({num})/({den} + 1389/2000)"


@settings(max_examples=150, deadline=None)
@given(text=rational_functions(), point=st.fractions(min_value=Fraction(1, 1000), max_value=50, max_denominator=2000))
def test_symbolic_value_equals_rational_evaluation(text, point):
    ast = parse_expr(text)
    table = SymbolTable.build([SymbolBounds("E")])
    E = table.symbols["E"]
    exact = None
    try:
        exact = evaluate(ast, lambda n: Q(point.numerator, point.denominator))
    except Exception:  # division by zero at this point: the symbolic value is undefined too
        pass
    if exact is None:
        return
    sym = sym_evaluate(ast, lambda n: E)
    got = substitute(sym, {E: sympy.Rational(point.numerator, point.denominator)})
    assert got == exact and not isinstance(got, float)


def test_constant_symbolic_expression_reads_exactly(no_float_roundtrip):
    c = parse_case(
        textwrap.dedent(
            """
            exactdp: 1
            name: c
            symbols: {E: {gt: 1}}
            params: {p: (E^2 - 1)/(E - 1) - E - 611/1000}
            mechanisms:
              M: {tree: {respond: {a: [p, p], b: [1 - p, 1 - p]}}}
            claims:
              - privloss: {equals: 0}
            """
        ),
        "c.yaml",
    )
    assert all(v.holds for v in verify_case(c))
    assert c.params["p"] == Q(389, 1000)


def test_time_limit_while_reading_is_not_an_invalid_case(monkeypatch):
    """A --timeout that runs out while a `params:` entry is evaluated is reported as the time
    limit, never as an invalid case blamed on that entry."""
    import exactdp.caseio.context as ctx
    from exactdp.errors import CaseError, TimeLimitExceeded
    from exactdp.report.text import render_file

    def slow(*a, **k):
        raise TimeLimitExceeded("1 s")

    monkeypatch.setattr(ctx, "evaluate", slow)
    text = "exactdp: 1\nname: t\nparams: {k: 7}\nmechanisms: {M: {rr: {eps: log(3)}}}\nclaims: [{privloss: {equals: log(3)}}]\n"
    res = verify_text(text, "t.yaml")
    assert isinstance(res.error, TimeLimitExceeded) and not isinstance(res.error, CaseError)
    out = "\n".join(render_file(res))
    assert "invalid" not in out and "params" not in out and "time limit" in out and res.exit_code == 2


def test_every_claim_line_names_its_own_mechanism():
    """dp/not_dp once printed `delta_M` whatever the mechanism was called."""
    import re

    text = textwrap.dedent(
        """
        exactdp: 1
        name: names
        mechanisms:
          Alpha: {rr: {eps: log(3)}}
          Beta: {rr: {eps: log(2), delta: 1/10}}
        claims:
          - dp: {of: Alpha, eps: log(3)}
          - not_dp: {of: Beta, eps: 0, delta: 0}
          - dp: {of: Beta, eps: log(2), delta: 1/10}
          - delta: {of: Alpha, eps: 0, equals: 1/2}
          - privloss: {of: Beta, delta: 1/10, equals: log(2)}
          - profile_le: {of: Alpha, than: Beta}
          - profile_eq: {of: Alpha, as: Alpha}
        """
    )
    from exactdp.report.text import render_file

    res = verify_text(text, "n.yaml")
    names = {"Alpha", "Beta"}
    for v in res.verdicts:
        line = f"{v.claim.describe()} {shown(v).found} {shown(v).note}"
        mentioned = set(re.findall(r"(?:delta_|PrivLoss\(|of |profile of )([A-Za-z]\w*)", line)) & (names | {"M"})
        own = {v.claim.of} | {getattr(v.claim, "other", v.claim.of)}
        assert v.claim.of in line, line
        assert mentioned <= own, line
    assert "delta_M" not in "\n".join(render_file(res))
