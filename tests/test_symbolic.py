"""Symbolic parameters: the `symbols:` key, our grammar into SymPy, sign proofs, symbolic T."""

from __future__ import annotations

import textwrap
import time

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactdp.analysis import enumerator
from exactdp.analysis import profile as profile_engine
from exactdp.caseio import parse_case
from exactdp.errors import CaseError, UnsupportedMechanismError
from exactdp.numbers import Q
from exactdp.numbers.expr import ExprError, parse_expr
from exactdp.numbers.symbolic import SymbolBounds, SymbolTable, prove_nonneg, sign_set, sym_evaluate
from exactdp.report.verdicts import shown
from exactdp.verify import verify_case

TABLE = SymbolTable.build(
    [
        SymbolBounds("E", Q(1)),
        SymbolBounds("p", Q(0), False, Q(1), False),
        SymbolBounds("d", Q(0), True, Q(1), True),
        SymbolBounds("x"),
    ]
)
E, p, d, x = (TABLE.symbols[k] for k in "Epdx")


@pytest.mark.parametrize(
    "expr, signs",
    [
        (E - 1, {1}),
        (1 - E, {-1}),
        (p * (1 - p), {1}),
        (E / (1 + E), {1}),
        ((E - 1) ** 2, {1}),
        (E**2 - 3 * E + 3, {1}),  # no root in E > 1 (Sturm count)
        (d, {0, 1}),  # closed bound: 0 is allowed
        (1 - d, {0, 1}),
        (x**2, {0, 1}),
        (x**2 + 1, {1}),
    ],
)
def test_sign_proofs(expr, signs):
    assert sign_set(expr, TABLE) == frozenset(signs)


@pytest.mark.parametrize("expr", [E * p + p - 1, x, E**2 - 3 * E + 2, sympy.log(E) - 1])
def test_unprovable_signs_stay_unknown(expr):
    assert sign_set(expr, TABLE) == frozenset({-1, 0, 1})
    assert not prove_nonneg(expr, TABLE)


L = sympy.log


@pytest.mark.parametrize(
    "expr, signs",
    [
        (sympy.Rational(3, 2) * L(E), {1}),  # 3*log(E)/2 >= 0 for E > 1 (was "could not prove")
        (-L(E) / 2, {-1}),
        (L(E) + L(E / (E + 1)) * -1, {1}),  # log(1/p) for p in (0, 1): both terms > 0
        (L(1 / p), {1}),
        (L(p), {-1}),
        (L(d + 1), {0, 1}),  # 0 at d = 0
        (L(E) + 1, {1}),
        (2 * L(E) - L(E), {1}),
    ],
)
def test_signs_of_sums_of_logarithms(expr, signs):
    """q + sum c*log(R): each term has the sign of c*(R - 1) where R > 0 is proved; one sign for
    every term gives the sum that sign."""
    assert sign_set(expr, TABLE) == frozenset(signs)


@pytest.mark.parametrize("expr", [L(E) - 1, L(E) - L(E + 1) + L(2), L(x**2 + 1) - L(2), L(p) + L(E), L(x)])
def test_logarithms_of_both_signs_or_unknown_bases_stay_unknown(expr):
    assert sign_set(expr, TABLE) == frozenset({-1, 0, 1})


def test_our_grammar_into_sympy():
    look = TABLE.symbols.__getitem__
    assert sym_evaluate(parse_expr("E/(1+E) + exp(log(E)) - E"), look) == E / (1 + E)
    assert sym_evaluate(parse_expr("(1 - p)^2"), look) == (1 - p) ** 2


def case(body: str):
    return parse_case(textwrap.dedent(body), "s.yaml")


RR_SYM = """
exactdp: 1
name: rr-sym
reference: test
symbols: {E: {gt: 1}}
mechanism: {rr: {eps: log(E)}}
claims:
  - simulates_rr: {eps: log(E)}
"""


def test_symbolic_rr_simulates_itself_for_all_E():
    c = case(RR_SYM)
    (v,) = verify_case(c)
    assert v.status == "holds"
    assert any("numeric spot check" in line for line in shown(v).details)


def test_engines_refuse_symbolic_mechanisms():
    M = case(RR_SYM).mechanisms["M"]
    with pytest.raises(UnsupportedMechanismError, match="symbolic"):
        profile_engine.profile(M)
    with pytest.raises(UnsupportedMechanismError, match="symbolic"):
        enumerator.privloss(M, 0)


def test_unprovable_condition_is_reported_not_assumed():
    c = case(
        """
        exactdp: 1
        name: cond
        symbols: {E: {gt: 1}, p: {gt: 1/2, lt: 1}}
        mechanism: {respond: {a: [p, 1 - p], b: [1 - p, p]}}
        claims:
          - simulates_rr: {eps: log(E)}
        """
    )
    (v,) = verify_case(c)
    assert v.status == "error" and "undecided" in shown(v).note
    assert any("E*p + p - 1" in line or "p*(E + 1) - 1" in line or ">= 0" in line for line in shown(v).details)


def test_symbolic_disproof_at_the_sample_point():
    c = case(
        """
        exactdp: 1
        name: dis
        symbols: {E: {gt: 1}}
        mechanisms:
          M: {compose: [{rr: {eps: log(E)}}, {rr: {eps: log(E)}}]}
        claims:
          - not_simulates_rr: {eps: log(E)}
          - simulates_rr: {eps: 2*log(E)}
        """
    )
    assert [v.status for v in verify_case(c)] == ["holds", "holds"]


def test_symbolic_approximate_rr():
    c = case(
        """
        exactdp: 1
        name: approx-sym
        symbols: {E: {gt: 1}, d: {gt: 0, lt: 1}}
        mechanism: {rr: {eps: log(E), delta: d}}
        claims:
          - simulates_rr: {eps: log(E), delta: d}
        """
    )
    (v,) = verify_case(c)
    assert v.status == "holds", shown(v).details


@pytest.mark.parametrize(
    "body, phrase",
    [
        ("symbols: {E: {gt: 2, lt: 1}}\nmechanism: {rr: {eps: log(3)}}", "leave no value"),
        ("symbols: {E: {gt: 0}}\nmechanism: {rr: {eps: log(E)}}", "could not prove e^eps >= 1"),
        (
            "symbols: {p: {gt: 0}}\nmechanism: {respond: {a: [p, 1-p], b: [1-p, p]}}",
            "could not prove a probability <= 1",
        ),
        ("symbols: {p: {gt: 0, lt: 1}}\nmechanism: {respond: {a: [p, p], b: [1-p, 1-p]}}\n", None),
        ("symbols: {p: {gt: 0, lt: 1}}\nmechanism: {respond: {a: [p, 1/2], b: [1/2, 1-p]}}", "not identically 1"),
        (
            "symbols: {p: {gt: 0, lt: 1}}\nmechanism: {repeat: {mechanism: {rr: {eps: log(3)}}, times: p}}",
            "depends on the symbols p",
        ),
        ("symbols: {log: {gt: 0}}\nmechanism: {rr: {eps: log(3)}}", "cannot be a symbol name"),
        ("symbols: {E: {gt: 1, above: 3}}\nmechanism: {rr: {eps: log(3)}}", "unknown key 'above'"),
    ],
)
def test_symbol_errors_are_located(body, phrase):
    text = "exactdp: 1\nname: bad\n" + body + "\nclaims: [{simulates_rr: {eps: log(3)}}]\n"
    if phrase is None:
        parse_case(text, "b.yaml")
        return
    with pytest.raises(CaseError) as e:
        parse_case(text, "b.yaml")
    msg = str(e.value)
    assert phrase in msg and "b.yaml:" in msg


def test_privloss_claim_on_symbolic_mechanism_is_decided_for_every_value():
    """PrivLoss(RR_E, 0) = log(E) (Vadhan-Wang Def. 1.9): "= log(3)" holds at E = 3 only, so it
    is refuted at a rational value, with the numeric engine's verdict there."""
    c = case(RR_SYM.replace("- simulates_rr: {eps: log(E)}", "- privloss: {delta: 0, equals: log(3)}"))
    (v,) = verify_case(c)
    assert v.status == "fails" and shown(v).values["refuted_at"] == {"E": "2"}
    assert "log(2)" in shown(v).found


def test_param_and_symbol_names_do_not_clash():
    with pytest.raises(CaseError, match="already declared under `symbols:`"):
        parse_case(
            "exactdp: 1\nname: c\nsymbols: {E: {gt: 1}}\nparams: {E: 3}\nmechanism: {rr: {eps: log(3)}}\nclaims: [{simulates_rr: {}}]\n",
            "c.yaml",
        )


def test_params_may_use_symbols_and_postprocess_keeps_them():
    c = case(
        """
        exactdp: 1
        name: ps
        symbols: {E: {gt: 1}}
        params: {keep: E/(1+E)}
        mechanism: {respond: {"0": [keep, 1 - keep], "1": [1 - keep, keep]}}
        claims: [{simulates_rr: {eps: log(E)}}]
        """
    )
    assert [v.status for v in verify_case(c)] == ["holds"]
    # concurrent composition keeps the answers symbolic; so does a relabelling of answers (its
    # posteriors are rational functions too), and merging both answers of RR_E leaves the constant 1
    parse_case(
        "exactdp: 1\nname: cc\nsymbols: {E: {gt: 1}}\nmechanisms:\n  A: {rr: {eps: log(E)}}\n  C: {concomp: [A, A]}\nclaims: [{simulates_rr: {of: A, eps: log(E)}}]\n",
        "cc.yaml",
    )
    merged = parse_case(
        "exactdp: 1\nname: cc\nsymbols: {E: {gt: 1}}\nmechanisms:\n  A: {rr: {eps: log(E)}}\n"
        "  C: {postprocess: {mechanism: A, map: {'0': '1'}}}\nclaims: [{simulates_rr: {of: A, eps: log(E)}}]\n",
        "cc.yaml",
    ).mechanisms["C"]
    assert merged.root.labels == ("1",) and merged.root.probs == ((1, 1),)


def test_simulates_claim_fields_are_validated():
    base = "exactdp: 1\nname: v\nmechanism: {rr: {eps: log(3)}}\nclaims: [{%s}]\n"
    with pytest.raises(CaseError, match="unknown construction 'magic'"):
        parse_case(base % "simulates_rr: {via: magic}", "v.yaml")
    with pytest.raises(CaseError, match="via: lemma56 is the approximate-DP construction"):
        parse_case(base % "simulates_rr: {via: lemma56}", "v.yaml")
    with pytest.raises(CaseError, match="eps must be"):
        parse_case(base % "simulates_rr: {eps: -1}", "v.yaml")


def test_verify_json_carries_details():
    import json

    from exactdp.report import run_to_json
    from exactdp.verify import FileResult, RunResult

    c = case(RR_SYM)
    d = json.loads(run_to_json(RunResult((FileResult("s.yaml", c, verify_case(c)),))))
    claim = d["files"][0]["claims"][0]
    assert claim["kind"] == "simulates_rr" and claim["values"]["exp_eps"] == "E" and claim["details"]


# --- hostile input: sound sign proofs, bounded symbolic values ---------------------------------------

TWO_FREE = """
exactdp: 1
name: two-free
symbols: {a: ~, b: ~}
mechanism:
  respond:
    "0": [1/2 + b/(4*(b+1+a^2)), 1/2]
    "1": [1/2 - b/(4*(b+1+a^2)), 1/2]
claims:
  - simulates_rr: {eps: log(3)}
"""


def test_several_unbounded_symbols_are_all_split_by_sign():
    """1/2 + b/(4(b+1+a^2)) is negative at a = 0, b = -9/10: no longer "proved" nonnegative."""
    a, b = sympy.symbols("a b", real=True)
    table = SymbolTable.build([SymbolBounds("a"), SymbolBounds("b")])
    a, b = table.symbols["a"], table.symbols["b"]
    q = sympy.Rational(1, 2) + b / (4 * (b + 1 + a**2))
    assert q.subs({a: 0, b: sympy.Rational(-9, 10)}) < 0
    assert -1 in sign_set(q, table)
    with pytest.raises(CaseError, match="could not prove a probability >= 0"):
        parse_case(TWO_FREE, "t.yaml")
    # with both symbols split, sound proofs still go through: a^2 b^2 + 1 > 0 everywhere
    assert sign_set(a**2 * b**2 + 1, table) == frozenset({1})
    assert sign_set(a * b, table) == frozenset({-1, 0, 1})


def test_one_unbounded_symbol_gives_a_verdict_not_a_type_error():
    table = SymbolTable.build([SymbolBounds("b")])
    b = table.symbols["b"]
    q = sympy.Rational(1, 2) + b / (4 * (b + 1))  # undefined at b = -1, negative near it
    assert -1 in sign_set(q, table)
    text = TWO_FREE.replace("{a: ~, b: ~}", "{b: ~}").replace("+a^2", "")
    with pytest.raises(CaseError, match="could not prove"):
        parse_case(text, "t.yaml")


_BOUNDS = st.sampled_from(["free", "gt", "lt", "open", "ge", "closed"])


def _bounds(name: str, kind: str, lo: int, width: int) -> SymbolBounds:
    hi = lo + width
    return {
        "free": SymbolBounds(name),
        "gt": SymbolBounds(name, Q(lo)),
        "lt": SymbolBounds(name, hi=Q(hi)),
        "open": SymbolBounds(name, Q(lo), False, Q(hi), False),
        "ge": SymbolBounds(name, Q(lo), True),
        "closed": SymbolBounds(name, Q(lo), True, Q(hi), True),
    }[kind]


def _point(draw, b: SymbolBounds):
    """A rational point of the symbol's domain: boundaries included when closed, negative
    values for symbols that allow them."""
    f = draw(st.fractions(min_value=0, max_value=30, max_denominator=7))
    t = Q(f.numerator, f.denominator) or Q(1, 7)  # t > 0
    if b.lo is not None and b.hi is not None:
        lo, hi = Q(b.lo), Q(b.hi)
        cands = [lo + (hi - lo) / (1 + t)]
        cands += [lo] if b.lo_closed else []
        cands += [hi] if b.hi_closed else []
        return draw(st.sampled_from(cands))
    if b.lo is not None:
        return draw(st.sampled_from([Q(b.lo) + t] + ([Q(b.lo)] if b.lo_closed else [])))
    if b.hi is not None:
        return Q(b.hi) - t
    return draw(st.sampled_from([1, -1, 0])) * t


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_proved_sign_holds_at_random_points_of_the_domain(data):
    """A sign proof is sound for every point of the declared domain, negative values included:
    the sign found at random points (and boundaries) is always in the proved sign set."""
    kinds = data.draw(st.lists(_BOUNDS, min_size=1, max_size=3))
    table = SymbolTable.build(
        [_bounds(f"s{i}", k, data.draw(st.integers(-3, 3)), data.draw(st.integers(1, 4))) for i, k in enumerate(kinds)]
    )
    syms = [table.symbols[b.name] for b in table.bounds]
    coeff = st.integers(-3, 3)

    def poly():
        terms = data.draw(
            st.lists(
                st.tuples(coeff, st.lists(st.integers(0, 2), min_size=len(syms), max_size=len(syms))),
                min_size=1,
                max_size=4,
            )
        )
        return sum((c * sympy.Mul(*[s**e for s, e in zip(syms, es)]) for c, es in terms), sympy.Integer(0))

    num, den = poly(), poly()
    if den == 0:
        den = sympy.Integer(1)
    expr = sympy.cancel(num / den)
    signs = sign_set(expr, table)
    if signs == frozenset({-1, 0, 1}):
        return
    n, d = sympy.fraction(sympy.together(expr))
    for _ in range(8):
        pt = {s: sympy.Rational(*_nd(_point(data.draw, b))) for s, b in zip(syms, table.bounds)}
        dv = d.subs(pt)
        assert dv != 0, (expr, pt, signs)  # a proved sign means the value is defined everywhere
        v = n.subs(pt) / dv
        assert int(sympy.sign(v)) in signs, (expr, table.describe(), pt, signs)


def _nd(q):
    from fractions import Fraction

    f = Fraction(int(q.numerator), int(q.denominator))
    return f.numerator, f.denominator


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("E^p", "exponent cannot contain a symbol"),
        ("E^(1/2)", "non-integer power"),
        ("E + 3^(10^9)", "exponent 1000000000 is larger than the limit"),
        ("E * 2^(10^(10^4))", "(10001 digits) is larger than the limit"),
        ("E + 2^(1/10^30)", "is irrational"),
        ("(E + 1)^150 * (E + 1)^150", "degree up to 300 exceeds the limit of 200"),
        ("E^100000", "too large for a symbolic expression"),
        ("E * (2^10000)^100 * (2^10000)^100", "bits exceeds the limit"),
    ],
)
def test_symbolic_values_are_bounded(text, phrase):
    look = TABLE.symbols.__getitem__
    t = time.monotonic()
    with pytest.raises(ExprError) as e:
        sym_evaluate(parse_expr(text), look)
    assert phrase in e.value.message and time.monotonic() - t < 15
    assert len(e.value.message) < 300


def test_an_eps_that_is_a_rational_multiple_of_a_logarithm_is_accepted():
    """``eps: 3*log(E)/2`` was refused ("could not prove eps >= 0") although E > 1; RR_E has
    BR-range 2 log E (Dong, Durfee & Rogers 2020, Lemma 2.1, tight), so it is not
    (3/2) log E-BR: refuted at a value."""
    from exactdp.verify import verify_text

    text = textwrap.dedent(
        """
        exactdp: 1
        name: br
        symbols: {E: {gt: 1, lt: 100}}
        mechanisms:
          R: {rr: {eps: log(E)}}
        claims:
          - bounded_range: {of: R, eps: 3*log(E)/2}
          - bounded_range: {of: R, eps: 5*log(E)/2}
        """
    )
    fails, holds = verify_text(text, "br.yaml").verdicts
    assert (fails.status.name, holds.status.name) == ("FAILS", "HOLDS")


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(-4, 4), min_size=1, max_size=6),
    st.lists(st.integers(-4, 4), min_size=1, max_size=4).filter(any),
    st.sampled_from("Epdx"),
    st.lists(st.fractions(min_value=-3, max_value=3, max_denominator=9), min_size=1, max_size=5),
)
def test_the_one_symbol_shortcut_is_exact_and_within_the_general_proof(num, den, name, points):
    """A rational function of one symbol whose numerator and denominator have no root inside the
    symbol's range is signed by FLINT (Descartes' rule and one point): its answer must be the
    exact set of signs, so inside what the general proof (substitutions, SymPy) finds, and it
    must hold the sign at every point of the range."""
    from exactdp.numbers import symbolic

    s = TABLE.symbols[name]
    expr = sympy.cancel(sum(c * s**k for k, c in enumerate(num)) / sum(c * s**k for k, c in enumerate(den)))
    if expr.free_symbols != {s}:
        return
    fast = symbolic._univariate_signs(expr, s, TABLE, None)
    if fast is None:
        return
    general = symbolic._open_box_sign(expr, TABLE, [s])
    b = TABLE.bound_of(s)
    for v, closed in ((b.lo, b.lo_closed), (b.hi, b.hi_closed)):
        if v is not None and closed:
            general |= symbolic._const_sign(expr.subs(s, sympy.Rational(int(v.numerator), int(v.denominator))))
    assert fast <= general
    for f in points:
        lo_ok = b.lo is None or f > b.lo or (b.lo_closed and f == b.lo)
        hi_ok = b.hi is None or f < b.hi or (b.hi_closed and f == b.hi)
        if lo_ok and hi_ok:
            v = expr.subs(s, sympy.Rational(f.numerator, f.denominator))
            assert int(sympy.sign(v)) in fast
