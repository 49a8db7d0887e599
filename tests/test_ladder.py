"""The number ladder as a table: every rung, kind and join is exercised, and the operations
written once over it are cross-checked against an independent evaluation (mpmath at 80 digits of
the value's own text), on values drawn from every rung (``tests/strategies.exact_values``)."""

from __future__ import annotations

import ast
import math
import re
from fractions import Fraction
from pathlib import Path

import flint
import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import exactdp
from exactdp.deprecation import ExactDPDeprecationWarning
from exactdp.errors import ExactDPError, InexactValueError, LimitExceededError
from exactdp.limits import DEFAULT, Limits, using
from exactdp.numbers import INF, Q, eval_text, ladder, real
from exactdp.numbers.certified import ball_decimal
from exactdp.numbers.element import UnregisteredKindError, public
from exactdp.numbers.ladder import EXP, LADDER, LL, LQT, LS, OO, QQ, QT, RR, SYM
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text

from .strategies import RUNG_TEXTS, exact_values

NUMBERS = Path(__file__).resolve().parents[1] / "exactdp" / "numbers"

# --- the table ------------------------------------------------------------------------------------

SAMPLES = {
    QQ: ["1/3", "0", "-7/2"],
    QT: ["exp(1/10) + 1", "1 - exp(-1/5)/2"],
    LL: ["log(3)", "log(61/9)/2", "1/10 + log(2)"],
    LQT: ["log(exp(1/10) + 1)"],
    LS: ["log(exp(1/10) + 1)/2", "(exp(1/10) + 1)*log(exp(1/10) + 1)"],
    EXP: ["exp(1/10)", "exp(0.2999999999)"],
    OO: ["inf"],
}


def test_every_rung_holds_its_registered_kinds():
    kinds_seen: set[type] = set()
    for rung in LADDER:
        for text in SAMPLES.get(rung.domain, []):
            v = eval_text(text)
            assert ladder.domain_of(v) is rung.domain, text
            assert type(v) in rung.kinds or rung.domain is QQ
            kinds_seen.add(type(v))
    for v in (3, Fraction(1, 3), Q(1, 3)):
        assert ladder.domain_of(v) is QQ
    for rung in LADDER:  # every registered kind has a sample above (but the rationals' types)
        assert all(k in kinds_seen or rung.domain is QQ or k.__name__ == "AffineInLambda" for k in rung.kinds)


def test_the_symbolic_rung_is_looked_up_without_importing_sympy_first():
    import sympy

    assert ladder.domain_of(sympy.Symbol("E")) is SYM
    assert ladder.domain_of(sympy.Rational(1, 3) + sympy.Symbol("E")) is SYM


@pytest.mark.parametrize("value", [0.5, "1/2", True, None, object(), [1], complex(1, 2)])
def test_a_value_of_no_registered_kind_is_a_named_error(value):
    with pytest.raises(UnregisteredKindError) as e:
        ladder.domain_of(value)
    assert isinstance(e.value, ExactDPError) and not isinstance(e.value, TypeError)
    assert "not an exact number" in str(e.value)


def test_joins_are_symmetric_and_least():
    order = [r.domain for r in LADDER]
    for a in order:
        for b in order:
            assert ladder.joins(a, b) == ladder.joins(b, a)
        if a is not SYM:
            assert ladder.joins(a, a)[0] is a and ladder.joins(QQ, a)[0] is a
    assert ladder.joins(QT, LL)[0] is LS and ladder.joins(LQT, EXP)[0] is RR and ladder.joins(LL, EXP)[0] is RR
    assert ladder.joins(LL, LQT)[0] is LQT and ladder.joins(QT, EXP)[0] is EXP
    assert ladder.joins(LL, SYM) == (SYM,) and ladder.joins(LQT, SYM) == () and ladder.joins(OO, SYM) == ()
    assert all(ladder.joins(d, OO)[-1] is OO for d in order if d is not SYM)


def test_the_architecture_doc_shows_the_table():
    doc = (NUMBERS.parents[1] / "docs" / "architecture.md").read_text()
    for rung in LADDER:
        assert f"| `{rung.domain.name}` |" in doc


# --- no import ring: the kinds never import the dispatcher -----------------------------------------

KIND_MODULES = (
    "rational",
    "element",
    "certified",
    "roots",
    "grammar",
    "qt",
    "loglinear",
    "logqt",
    "expreal",
    "infinity",
)
DISPATCH = {"ladder", "domains", "expr", "kinds", "symbolic", "real", "types"}


def _module_names() -> list[str]:
    """Every module of exactdp.numbers as a dotted name relative to it (``domains.logs``)."""
    out = []
    for p in NUMBERS.rglob("*.py"):
        parts = p.relative_to(NUMBERS).with_suffix("").parts
        out.append(".".join(parts[:-1]) if parts[-1] == "__init__" else ".".join(parts))
    return [m for m in out if m]


def _imports(module: str) -> set[str]:
    """The modules of exactdp.numbers that ``module`` imports (relative imports resolved)."""
    path = NUMBERS.joinpath(*module.split("."))
    is_pkg = path.is_dir()
    tree = ast.parse((path / "__init__.py" if is_pkg else path.with_suffix(".py")).read_text())
    package = module.split(".") if is_pkg else module.split(".")[:-1]
    mods = set(_module_names())
    out = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.level >= 1):
            continue
        base = package[: len(package) - (node.level - 1)] if node.level - 1 <= len(package) else None
        if base is None:
            continue  # above exactdp.numbers (errors, limits)
        target = ".".join(base + (node.module.split(".") if node.module else []))
        names = [target] if node.module else [".".join(base + [a.name]) for a in node.names]
        out.update(n for n in names if n in mods)
    return out


@pytest.mark.parametrize("module", KIND_MODULES)
def test_kind_modules_never_import_the_dispatcher(module):
    roots = {m.split(".")[0] for m in _imports(module)}
    assert not (roots & DISPATCH), roots & DISPATCH


def test_no_import_ring_among_the_number_modules():
    mods = _module_names()
    graph = {m: {n for n in _imports(m) if n != m} for m in mods}
    state: dict[str, int] = {}

    def visit(m: str, path: tuple[str, ...]) -> None:
        assert state.get(m) != 1, f"import ring: {' -> '.join(path + (m,))}"
        if state.get(m) == 2:
            return
        state[m] = 1
        for n in graph[m]:
            if not (m.startswith(n + ".") or n == m.split(".")[0] and "." in m):  # a package and its modules
                visit(n, path + (m,))
        state[m] = 2

    for m in mods:
        visit(m, ())
    assert "domains.logs" in graph and "ladder" in graph  # the subpackage is seen too


# --- the operations, against an independent evaluation -------------------------------------------

_NUM = re.compile(r"(?<![\w.])([0-9]+(?:\.[0-9]*)?(?:e-?[0-9]+)?)")


def reference(text: str) -> mpmath.mpf:
    """The value of an exact value's text by mpmath at 80 digits (independent of exactdp)."""
    expr = _NUM.sub(r"mpf('\1')", text).replace("^", "**")
    with mpmath.workdps(80):
        return eval(expr, {"mpf": mpmath.mpf, "log": mpmath.log, "exp": mpmath.exp})  # our own test strings


def ref(v) -> mpmath.mpf:
    return reference(ladder.text(v))


def _sgn(x: mpmath.mpf) -> int:
    with mpmath.workdps(80):
        return 0 if abs(x) < mpmath.mpf(10) ** -60 else (1 if x > 0 else -1)


VALUES = exact_values(("QQ", "QT", "LL", "LQT", "EXP"))


@settings(max_examples=150, deadline=None)
@given(VALUES, VALUES)
def test_comparison_and_sign_agree_with_the_reference(a, b):
    assert ladder.cmp(a, b) == _sgn(ref(a) - ref(b)) == -ladder.cmp(b, a)
    assert ladder.sign(a) == _sgn(ref(a))
    assert (a < b) == (ladder.cmp(a, b) < 0) and (a >= b) == (ladder.cmp(a, b) >= 0)


@settings(max_examples=150, deadline=None)
@given(VALUES, VALUES, st.sampled_from(["add", "sub", "mul", "div"]))
def test_arithmetic_is_exact_or_refused(a, b, op):
    with mpmath.workdps(80):
        expected = {"add": ref(a) + ref(b), "sub": ref(a) - ref(b), "mul": ref(a) * ref(b)}.get(op)
        if op == "div":
            if ladder.sign(b) == 0:
                with pytest.raises(InexactValueError):
                    ladder.div(a, b)
                return
            expected = ref(a) / ref(b)
    try:
        got = getattr(ladder, op)(a, b)
    except InexactValueError:
        return  # no exact form on the ladder: refused, never rounded
    with mpmath.workdps(80):
        assert abs(ref(got) - expected) <= mpmath.mpf(10) ** -50 * (1 + abs(expected))


@settings(max_examples=150, deadline=None)
@given(VALUES)
def test_text_reads_back_and_displays_agree(v):
    assert ladder.cmp(eval_text(ladder.text(v)), v) == 0  # the text is the exact value
    assert repr(public(v)) == ladder.text(v)
    r = ref(v)
    assert float(v) == float(r) or abs(float(v) - float(r)) <= math.ulp(float(r))
    with mpmath.workdps(40):
        assert ladder.decimal(v, 12) == mpmath.nstr(r, 12)
    assert ladder.bits(v) > 0 or v == 0


def _fixed(n: int, nd: int) -> str:
    """The text of n/10^nd with nd decimals."""
    digits = str(abs(n)).rjust(nd + 1, "0")
    return ("-" if n < 0 else "") + (digits if nd == 0 else f"{digits[:-nd]}.{digits[-nd:]}")


@settings(max_examples=100, deadline=None)
@given(VALUES, st.integers(0, 12))
def test_round_and_format_give_the_exact_values_digits(v, nd):
    r = ref(v)
    with mpmath.workdps(80):
        scaled = r * 10**nd
        lo = int(mpmath.floor(scaled))
        frac = scaled - lo
        tie = abs(frac - mpmath.mpf(1) / 2) < mpmath.mpf(10) ** -60
        nearest = lo + (1 if (frac > 0.5 and not tie) or (tie and lo % 2) else 0)
    x = public(v)
    assert round(x, nd) == Fraction(nearest, 10**nd)
    text = format(x, f".{nd}f")
    assert text == _fixed(nearest, nd) or (nearest == 0 and text == "-" + _fixed(0, nd))
    assert math.floor(x) == int(mpmath.floor(r)) and math.ceil(x) == int(mpmath.ceil(r))
    with mpmath.workdps(80):
        if r != 0:  # 7 significant digits, the nearest: within half a unit of the last one
            shown = format(x, ".6e")
            unit = mpmath.mpf(10) ** (int(shown.split("e")[1]) - 6)
            assert abs(mpmath.mpf(shown) - r) <= unit / 2 * (1 + mpmath.mpf(10) ** -30)
            assert mpmath.mpf(10) ** 6 <= abs(mpmath.mpf(shown.split("e")[0].lstrip("-").replace(".", ""))) < 10**7
    assert float(format(x, ".15g")) == pytest.approx(float(r), rel=1e-14)


# --- the number protocol (Python API) --------------------------------------------------------------


def test_exact_values_behave_like_numbers():
    x = eval_text("log(3)")
    assert float(x) == math.log(3) and f"{x:.3f}" == "1.099" and f"{x:.30f}" == "1.098612288668109691395245236923"
    assert round(x, 3) == Fraction(1099, 1000) and round(x) == 1 and int(x) == 1
    assert x > 1 and x < Fraction(11, 10) and x > 1.0986 and x < 1.0987 and x != 1.0986122886681098
    assert x + 1 == eval_text("1 + log(3)") and 2 * x == eval_text("log(9)") and x / 2 == eval_text("log(3)/2")
    assert isinstance(x + 0.5, float) and abs((x + 0.5) - (math.log(3) + 0.5)) < 1e-15
    assert repr(x) == "log(3)" and str(x) == "log(3)" and x._repr_latex_() == r"$\log\left(3\right)$"
    t = eval_text("exp(1/10)/(1 + exp(1/10))")
    assert f"{t:.5g}" == "0.52498" and 0 < t < 1 and 2 * t - t == t and t - 1 < 0
    d = exactdp.delta_at(exactdp.rr(eps="log(3)", delta="1/10"), "log(2)")  # a rational, as the API returns it
    assert repr(d) == "13/40" and f"{d:.2f}" == "0.32" and round(d, 1) == Fraction(3, 10) and d + 1 == Fraction(53, 40)
    assert isinstance(d * 0.5, float) and d._repr_latex_() == r"$\frac{13}{40}$" and float(d) == 0.325
    assert eval_text("exp(1/10)") * 2 == eval_text("2*exp(1/10)")
    assert f"{INF:.2f}" == "inf" and float(INF) == math.inf and round(INF, 2) is INF and INF > 10**100
    with pytest.raises(OverflowError):
        round(INF)
    with pytest.raises(InexactValueError):
        INF + 1  # noqa: B018 (the refusal is the point)
    with pytest.raises(InexactValueError):
        x * x  # noqa: B018 (log(3)^2 has no exact form here)


def test_a_float_where_an_exact_number_is_expected_is_its_binary_fraction():
    from exactdp.numbers import exact

    assert exact(0.5) == Q(1, 2) and exact(0.1) == Fraction(0.1) and exact(0.1) != Q(1, 10)
    assert exact(math.inf) is INF
    with pytest.raises(ValueError):
        exact(math.nan)


def test_big_values_print_without_reaching_str_of_an_int():
    big = eval_text("10^5000")
    assert ladder.short(big) == "10000000000000000000…0000000000 (5001 digits)"
    assert len(ladder.text(big)) == 5001 and ladder.short(eval_text("log(10^4400 + 1)")).startswith("log(")
    assert len(ladder.short(eval_text("log(10^4400 + 1)"))) < 200


# --- deprecated names --------------------------------------------------------------------------------

OLD = {
    "real_add": ("log(3)", "1"),
    "real_sub": ("log(3)", "1"),
    "real_mul": ("2", "log(3)"),
    "real_div": ("log(3)", "2"),
    "real_pow": ("4", "1/2"),
    "real_cmp": ("log(3)", "1"),
    "real_neg": ("log(3)",),
    "real_log": ("3",),
    "real_exp": ("1/10",),
    "real_sign": ("log(3)",),
    "real_str": ("log(3)",),
    "real_decimal": ("log(3)",),
    "real_float": ("log(3)",),
    "value_bits": ("log(3)",),
}


@pytest.mark.parametrize("name", sorted(OLD))
def test_the_old_names_still_work_and_warn(name):
    args = [eval_text(a) for a in OLD[name]]
    new = getattr(
        ladder,
        {"real_str": "text", "real_pow": "power", "real_float": "to_float", "value_bits": "bits"}.get(
            name, name.removeprefix("real_")
        ),
    )
    with pytest.warns(ExactDPDeprecationWarning, match=f"{name} is deprecated; use"):
        assert getattr(real, name)(*args) == new(*args)


# --- regression: a log-linear delta, and numbers too big for str() (issue reports) -----------------

HEAD = "exactdp: 1\nname: t\nmechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n"


@pytest.mark.parametrize(
    "claim, exit_code, phrase",
    [
        ("dp: {eps: log(3), delta: log(3)/2}", 0, None),  # delta_M(3) = 0 <= log(3)/2
        ("dp: {eps: 0, delta: log(3)/2}", 0, None),  # delta_M(1) = 1/2 <= log(3)/2 = 0.5493...
        ("not_dp: {eps: 0, delta: 0.5*log(3)}", 1, None),
        ("dp: {eps: 0, delta: log(3)/4}", 1, None),  # 1/2 > 0.2746...
        ("delta: {eps: log(2), equals: log(3)/2}", 1, None),  # delta = 1/4, irrational claimed value
        ("privloss: {delta: log(3)/2, equals: 0}", 2, "a delta such as log(3)/2 is accepted by the claims dp"),
        ("privloss: {delta: -log(3)/2, equals: 0}", 2, "delta must"),
        ("dp: {eps: log(3), delta: -log(3)/2}", 2, "delta must lie in [0, 1], found log(1/3)/2"),
        ("dp: {eps: log(3), delta: log(3)}", 2, "delta must lie in [0, 1], found log(3)"),
    ],
)
def test_a_log_linear_delta_is_decided_or_a_located_error(claim, exit_code, phrase):
    fr = verify_text(HEAD + f"  - {claim}\n", "t.yaml")
    assert fr.exit_code == exit_code, (fr.error, fr.verdicts)
    if phrase:
        assert "t.yaml:6:" in str(fr.error) and phrase in str(fr.error)


def test_the_log_linear_delta_verdicts_are_right():
    """RR_log3 has delta_M(1) = 1/2 and delta_M(e^eps) = 0 for eps >= log 3; log(3)/2 = 0.5493..."""
    fr = verify_text(HEAD + "  - dp: {eps: 0, delta: log(3)/2}\n  - not_dp: {eps: 0, delta: log(3)/4}\n")
    assert [v.status for v in fr.verdicts] == ["holds", "holds"]


@pytest.mark.parametrize(
    "body, exit_code, phrase",
    [
        ("mechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n  - renyi: {alpha: 10^5000, at_most: 1}\n", 2, "--max-bits"),
        ("mechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n  - gdp: {mu: 1/10^5000}\n", 1, None),
        ("mechanisms:\n  M: {rr: {eps: 10^5000}}\nclaims:\n  - dp: {eps: 1}\n", 2, "(5001 digits)"),
        (
            'mechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: "log(1 + 1/10^9999) - 1/10^9999"}\n',
            2,
            "raise it with --max-precision BITS",
        ),
    ],
)
def test_huge_numbers_never_reach_str_and_a_precision_cap_is_a_named_limit(body, exit_code, phrase):
    fr = verify_text("exactdp: 1\nname: t\n" + body, "t.yaml")
    assert fr.exit_code == exit_code
    text = str(fr.error) if fr.error else " ".join(f"{v.claim.describe()} {shown(v).note}" for v in fr.verdicts)
    assert len(text) < 2000  # the claim's label included: D_10^5000 printed short
    if phrase:
        assert phrase in text


def test_a_larger_precision_limit_decides_the_sign():
    """log(1 + x) - x < 0 for x = 10^-9999 (it is about -x^2/2): decided at 2^17 bits."""
    body = 'mechanisms:\n  M: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: "log(1 + 1/10^9999) - 1/10^9999"}\n'
    fr = verify_text("exactdp: 1\nname: t\n" + body, "t.yaml", Options(limits=DEFAULT.replace(max_precision=1 << 17)))
    assert fr.exit_code == 2 and "eps must be >= 0" in str(fr.error)


def test_the_precision_limit_applies_to_every_certified_sign():
    with using(DEFAULT.replace(max_precision=64)):
        with pytest.raises(LimitExceededError, match="--max-precision"):
            ladder.sign(eval_text("log(1 + 1/10^40) - 1/10^40"))
        assert ladder.sign(eval_text("log(3) - 1")) == 1


def test_rung_texts_cover_every_rung():
    assert set(RUNG_TEXTS) == {r.domain.name for r in LADDER} - {"RR"}


def test_a_value_of_no_kind_reaching_the_reader_is_a_located_error(monkeypatch):
    """Should a value of no registered kind ever reach a quantity check (here: a float slipped in
    by a reader), the case gets a located message naming it (exit 2), not a TypeError."""
    from exactdp.caseio.context import Reader

    value = Reader.value

    def slipped(self, node, path, what, **kw):  # type: ignore[no-untyped-def]
        return 0.5 if path.endswith("dp.eps") else value(self, node, path, what, **kw)

    monkeypatch.setattr(Reader, "value", slipped)
    fr = verify_text(HEAD + "  - dp: {eps: log(3)}\n", "t.yaml")
    assert fr.exit_code == 2 and "t.yaml:6:" in str(fr.error)
    assert "not an exact number: 0.5 (float)" in str(fr.error)


@settings(max_examples=60, deadline=None)
@given(exact_values(("QQ", "QT", "LL", "LQT", "EXP", "OO")))
def test_values_travel_between_processes(v):
    """Results cross to worker processes and back (``--jobs``): pickled, they come back equal,
    of the same kind, whatever their size."""
    import pickle

    for x in (v, public(v)):
        y = pickle.loads(pickle.dumps(x))
        assert y == x and type(y) is type(x)
    big = public(eval_text("10^5000 + 1/3"))
    assert pickle.loads(pickle.dumps(big)) == big


def test_a_decimal_stopped_by_the_precision_limit_shows_only_the_digits_its_ball_proves():
    """A ball that stays wide (here 1/3 +- 1e-5 at every precision) cannot show 20 digits: at the
    ``max_precision`` limit the reading keeps the digits the ball proves; a ball around 0 proves
    none and is the named limit's error."""
    with using(Limits(max_precision=128)):
        text = ball_decimal(lambda prec: flint.arb(flint.arb(1) / 3, 1e-5), 20)
        assert text == "0.333"
        with pytest.raises(LimitExceededError, match="max-precision"):
            ball_decimal(lambda prec: flint.arb(0, 1e-3), 20)
    assert ball_decimal(lambda prec: flint.arb(1) / 3, 20) == "0.33333333333333333333"
