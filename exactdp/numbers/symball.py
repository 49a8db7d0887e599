r"""Certified enclosures of real constants and functions written with logarithms and exponentials.

A zCDP parameter such as ρ = ε²/2 = log(2)²/2 (Bun & Steinke 2016, Prop. 1.4) is not in any
rung of the ladder: a product of logarithms has no exact arithmetic there.  It is still an exact
real — the syntax tree of our grammar, held as a SymPy expression — and a decision that compares
it with a Rényi divergence needs only *enclosures* of it: rational bounds that certainly contain
it, as tight as asked.  :func:`sym_ball` computes them with python-flint's Arb (Johansson 2017),
with declared symbols replaced by balls (an interval of the symbol), so the same expression gives
a certified enclosure of ρ(s) on a box of s.

Only exact constructions are accepted (:func:`unsupported`): rationals, declared symbols, sums,
products, rational powers (of a positive base), ``log``, ``exp`` and e.  Nothing is rounded into the value; a ball that
cannot be bounded (a logarithm of a ball that reaches 0, a quotient by a ball that contains 0)
comes back *not finite*, and the caller proves nothing from it.

References
----------
F. Johansson, *Arb: efficient arbitrary-precision midpoint-radius interval arithmetic*, IEEE
Trans. Computers 66(8), 2017.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from .certified import arb_prec, ball_bounds
from .symbolic import is_transcendental, sympy

__all__ = ["sym_ball", "unsupported", "constant_bounds", "is_transcendental"]


def unsupported(expr: Any) -> str | None:
    """Why ``expr`` has no certified enclosure here (the first node that is not a rational, a
    symbol, a sum, a product, a rational power, ``log``, ``exp`` or e), or None."""
    for node in sympy.preorder_traversal(expr):
        if node.is_Rational or node.is_Symbol or node is sympy.E or isinstance(node, (sympy.Add, sympy.Mul)):
            continue
        if isinstance(node, (sympy.log, sympy.exp)):
            continue
        if isinstance(node, sympy.Pow) and node.exp.is_Rational:
            continue
        return f"{sympy.sstr(node)} has no certified enclosure here"
    return None


def sym_ball(expr: Any, env: Mapping[Any, Any] | None = None) -> Any:
    """An Arb ball containing the value of ``expr`` at the working precision, each symbol
    replaced by its ball in ``env``; a ball that is not finite when an operation has no bounded
    result on the balls (``log`` reaching 0, division by a ball containing 0)."""
    import flint

    env = env or {}

    def ev(e: Any) -> Any:
        if e.is_Rational:
            return flint.arb(flint.fmpq(int(e.p), int(e.q)))
        if e.is_Symbol:
            return env[e]
        if e is sympy.E:
            return flint.arb.const_e()
        if isinstance(e, sympy.Add):
            out = flint.arb(0)
            for a in e.args:
                out += ev(a)
            return out
        if isinstance(e, sympy.Mul):
            out = flint.arb(1)
            for a in e.args:
                out *= ev(a)
            return out
        if isinstance(e, sympy.Pow) and e.exp.is_Integer:
            base, k = ev(e.base), int(e.exp)
            if k < 0:
                if 0 in base:
                    return flint.arb("nan")
                base, k = 1 / base, -k
            return base**k
        if isinstance(e, sympy.Pow) and e.exp.is_Rational:  # a positive base to a rational power
            base = ev(e.base)
            q = e.exp
            return (base.log() * flint.arb(flint.fmpq(int(q.p), int(q.q)))).exp() if base > 0 else flint.arb("nan")
        if isinstance(e, sympy.log):
            x = ev(e.args[0])
            return x.log() if x > 0 else flint.arb("nan")
        if isinstance(e, sympy.exp):
            return ev(e.args[0]).exp()
        raise ValueError(unsupported(e) or f"{e} has no certified enclosure here")

    return ev(expr)


def constant_bounds(expr: Any, prec: int = 128) -> tuple[Fraction, Fraction]:
    """Rational bounds (lower, upper) of a constant expression, from its ball at ``prec`` bits;
    a ball that is not finite is a ValueError."""
    with arb_prec(prec):
        b = sym_ball(expr)
    if not b.is_finite():
        raise ValueError(f"{sympy.sstr(expr)} is not bounded at {prec} bits")
    return ball_bounds(b)
