"""Comparisons of two privacy profiles with a symbol (``fdp``, ``profile_le``) look at every
breakpoint of δ_M = max over the ordered pairs, including where two pairs' δ cross.

δ_M(λ) is the largest of the pairs' δ(λ) (Vadhan & Wang 2021, Def. 1.7), so its breakpoints are
the slopes of the upper hull of all the pairs' chains, not only each pair's own slopes: two
pairs' δ are equal at λ = 1 (both are the total variation distance), and δ_N − δ_M can be least
exactly there.  The parametric engine once compared only at each pair's slopes and said
"holds" on a cell where the exact engine, at a rational point of it, found the claim false
(exit 3, an internal error: the cross-check caught it).
"""

from __future__ import annotations

from fractions import Fraction

from exactdp.verify import verify_file

CASE = """\
exactdp: 1
name: fdp-pair-crossing
symbols: {E: {gt: 1, lt: 4}}
mechanisms:
  M:
    tree:
      respond:
        y:
          p: {x0: 1/2, x1: 1/(2*E)}
          then: {respond: {y: {p: {x0: 1/2, x1: 1/3}}, n: {p: {x0: 1/2, x1: 2/3}}}}
        n:
          p: {x0: 1/2, x1: 1 - 1/(2*E)}
          then:
            respond:
              y: {p: {x0: 1/(1+E), x1: (E-1)/(2*E)}}
              n: {p: {x0: E/(1+E), x1: (E+1)/(2*E)}}
  N:
    tree:
      ask:
        q1: {y: {p: {x0: 1/3, x1: 1/3}}, n: {p: {x0: 2/3, x1: 2/3}}}
        q2: {y: {p: {x0: (E-1)/(2*E), x1: 1/(1+E)}}, n: {p: {x0: (E+1)/(2*E), x1: E/(1+E)}}}
claims:
  - fdp: {of: M, f: N}
"""


def _hockey(p: list, q: list, lam: Fraction) -> Fraction:
    return sum((max(a - lam * b, Fraction(0)) for a, b in zip(p, q)), Fraction(0))


def _views(e: Fraction) -> tuple[list, list, list, list]:
    """M's four views and N's q2 answers under x0 and x1, written out by hand from the case."""
    m0 = [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2) / (1 + e), Fraction(1, 2) * e / (1 + e)]
    m1 = [
        1 / (2 * e) / 3,
        1 / (2 * e) * 2 / 3,
        (1 - 1 / (2 * e)) * (e - 1) / (2 * e),
        (1 - 1 / (2 * e)) * (e + 1) / (2 * e),
    ]
    n0 = [(e - 1) / (2 * e), (e + 1) / (2 * e)]
    n1 = [1 / (1 + e), e / (1 + e)]
    return m0, m1, n0, n1


def test_fdp_with_a_symbol_sees_where_the_pairs_cross(tmp_path):
    """At E = 13/9, by hand: δ_M(1) − δ_N(1) = 19/7436 > 0 (N's best at λ = 1 is q2, whose
    total variation is below M's), so M is not T(N)-DP (Dong, Roth & Su 2022, Prop. 2.12)."""
    e = Fraction(13, 9)
    m0, m1, n0, n1 = _views(e)
    d_m = max(_hockey(m0, m1, Fraction(1)), _hockey(m1, m0, Fraction(1)))
    d_n = max(_hockey(n0, n1, Fraction(1)), _hockey(n1, n0, Fraction(1)), Fraction(0))
    assert d_m - d_n == Fraction(19, 7436)

    f = tmp_path / "case.yaml"
    f.write_text(CASE)
    fr = verify_file(f)
    assert fr.exit_code == 1, fr.error
    (v,) = fr.verdicts
    assert v.status.value == "fails"
    at = v.facts["refuted_at"]["E"]
    e_at = Fraction(int(at.p), int(at.q))
    m0, m1, n0, n1 = _views(e_at)
    lams = [Fraction(1)] + [a / b for a, b in zip(m0 + m1 + n0 + n1, m1 + m0 + n1 + n0) if b]
    assert any(
        max(_hockey(m0, m1, lam), _hockey(m1, m0, lam))
        > max(_hockey(n0, n1, lam), _hockey(n1, n0, lam), max(1 - lam, Fraction(0)))
        for lam in lams
    )
