"""Hostile input, fourth round: symbols.  Each attack below once crashed the process, or ran
until the time limit with no named limit; each is now refused promptly by a named limit, with a
located error and exit status 2 (or decided as before, faster)."""

from __future__ import annotations

import time

from click.testing import CliRunner

from exactdp.cli import main

HEAD = "exactdp: 1\nname: h\n"


def _verify(tmp_path, text: str, *flags: str):
    f = tmp_path / "c.yaml"
    f.write_text(HEAD + text)
    t = time.monotonic()
    r = CliRunner().invoke(main, ["verify", str(f), *flags])
    return r, time.monotonic() - t


def test_a_huge_renyi_order_with_a_symbol_is_refused_not_aborted(tmp_path):
    """alpha = 10^9 with a symbol: P^alpha of degree 10^9 made FLINT abort the whole process
    (SIGABRT, "Unable to allocate memory"): no message, no exit status 2.  The power's degree is
    now bounded before it is formed."""
    r, secs = _verify(
        tmp_path,
        "symbols:\n  E: {gt: 1}\nmechanisms:\n  R: {rr: {eps: log(E)}}\n"
        "claims:\n  - renyi: {of: R, alpha: 10^9, at_most: log(E)}\n",
    )
    assert r.exit_code == 2, r.output
    assert "degree 1000000000 exceeds the limit of 200" in r.output and "--max-symbolic-degree" in r.output
    assert secs < 30


def test_ratfun_power_is_bounded_before_it_is_formed():
    import pytest

    from exactdp.analysis.parametric.ratfun import Ring
    from exactdp.errors import LimitExceededError
    from exactdp.numbers.symbolic import sympy

    ring = Ring(("E",))
    p = ring.from_sympy(sympy.Symbol("E") / (1 + sympy.Symbol("E")))
    assert (p**200).num.total_degree() == 200
    with pytest.raises(LimitExceededError, match="degree 201 exceeds the limit of 200"):
        p**201
    with pytest.raises(LimitExceededError, match="max-symbolic-degree"):
        p ** -(10**12)


def test_a_wide_discrete_laplace_with_a_symbol_is_refused_at_once(tmp_path):
    """bounds [0, 1000] (clamped) or [0, 300] (renormalized) with alpha = 1/E ran past the time
    limit: probabilities of degree 1000 in E were built and summed before any limit looked."""
    for mech, degree in (
        ("{discrete_laplace: {eps: log(E), bounds: [0, 1000], data: {x0: 1, x1: 2}}}", 1000),
        ("{discrete_laplace: {alpha: 1/E, bounds: [0, 300], data: {x0: 0, x1: 1}, truncation: renormalize}}", 300),
        ("{discrete_laplace: {alpha: 1/E, bounds: [0, 150], data: {x0: 0, x1: 1}, truncation: fold}}", 300),
    ):
        r, secs = _verify(
            tmp_path,
            f"symbols:\n  E: {{gt: 1}}\nmechanisms:\n  R: {mech}\nclaims:\n  - dp: {{of: R, eps: 2*log(E)}}\n",
        )
        assert r.exit_code == 2, r.output
        assert "c.yaml:6:" in r.output and f"degree up to {degree} in the symbols exceeds the limit of 200" in r.output
        assert "--max-symbolic-degree" in r.output and secs < 30


def _closed_box(k: int):
    from exactdp.numbers.symbolic import SymbolBounds, SymbolTable, sympy

    table = SymbolTable.build([SymbolBounds(f"E{i}", 0, True, 1, True) for i in range(k)])
    return table, sympy.Add(*(table.symbols[f"E{i}"] for i in range(k)))


def test_each_face_of_a_closed_box_is_examined_once(monkeypatch):
    """k symbols with closed bounds [0, 1]: the faces were reached in every order (2^k·k!
    recursions: 633 open-box proofs for k = 4, about 10^7 for k = 8); each face is examined
    once now (3^k)."""
    from exactdp.numbers import symbolic

    calls = []
    real = symbolic._open_box_sign
    monkeypatch.setattr(symbolic, "_open_box_sign", lambda *a: calls.append(1) or real(*a))
    table, expr = _closed_box(4)
    assert symbolic.sign_set(expr, table) == frozenset({0, 1})
    assert len(calls) <= 3**4  # (65: the 16 corners are constants)


def test_a_closed_box_with_too_many_faces_is_refused_by_max_cells(tmp_path):
    """8 symbols in [0, 1] in one probability ran past the time limit (the faces of the closed
    box, in every order); 3^8 = 6561 faces are now refused under --max-cells (5,000)."""
    import pytest

    from exactdp.errors import LimitExceededError
    from exactdp.numbers.symbolic import sign_set

    with pytest.raises(LimitExceededError, match="8 symbols: 6561 faces exceeds the limit of 5000"):
        sign_set(*reversed(_closed_box(8)))
    s = " + ".join(f"E{i}" for i in range(8))
    text = (
        "symbols:\n"
        + "".join(f"  E{i}: {{ge: 0, le: 1}}\n" for i in range(8))
        + f"mechanisms:\n  R: {{respond: {{a: [({s})/16, 1/2], b: [1 - ({s})/16, 1/2]}}}}\n"
        + "claims:\n  - dp: {of: R, eps: log(3)}\n"
    )
    r, secs = _verify(tmp_path, text)
    assert r.exit_code == 2 and "c.yaml:13:" in r.output, r.output
    assert "6561 faces exceeds the limit of 5000; raise it with --max-cells N" in r.output and secs < 30


def test_a_huge_fractional_renyi_order_with_a_symbol_is_refused_by_max_exponent(tmp_path):
    """alpha = 2000001/2 with a symbol ran 2,000 boxes, each raising enclosures to the power
    alpha (53 s of CPU, over 100 s under load) before reporting the box limit; alpha above
    --max-exponent (10,000) is refused before any box.  Sampled values of the symbol still refute
    a false claim (D_alpha(RR_3) is about log 3 > 1); a true one (D_alpha <= D_inf = log E) stays
    undecided with the limit; alpha = 10001/2 is still decided for every value."""
    claim = "claims:\n  - renyi: {of: R, alpha: %s, at_most: %s}\n"
    head = "symbols:\n  E: {gt: 1}\nmechanisms:\n  R: {rr: {eps: log(E)}}\n"
    limit = "Renyi order 2000001/2 of a claim with a symbol (an exponent of every box's enclosures) exceeds the limit of 10000; raise it with --max-exponent N"
    r, secs = _verify(tmp_path, head + claim % ("2000001/2", "1"))
    assert r.exit_code == 1 and secs < 30 and "fails at E = 3" in r.output and limit in r.output, r.output
    r, secs = _verify(tmp_path, head + claim % ("2000001/2", "log(E)"))
    assert r.exit_code == 2 and secs < 30 and limit in r.output, r.output
    r, _ = _verify(tmp_path, head + claim % ("10001/2", "1"))
    assert r.exit_code == 1 and "D_10001/2(R) <= 1" in r.output, r.output


def test_declared_symbols_are_bounded_by_max_symbols(tmp_path):
    """20,000 declared symbols (one used) ended in a RecursionError (exit 3): SymPy's dense
    polynomials recurse once per generator, and the ring had one per declared symbol; with that
    fixed, FLINT aborted the process factoring over 20,000 variables.  Now --max-symbols (100)
    refuses them at the `symbols:` block; 1,000 declared symbols, one used, still work."""
    text = lambda n: (  # noqa: E731
        "symbols:\n"
        + "".join(f"  S{i}: {{gt: 1}}\n" for i in range(n))
        + "mechanisms:\n  R: {rr: {eps: log(S0)}}\nclaims: [{dp: {of: R, eps: log(S0)}}]\n"
    )
    r, secs = _verify(tmp_path, text(20_000))
    assert (
        r.exit_code == 2 and "c.yaml:4:3: symbols: the number of symbols (20000) exceeds the limit of 100" in r.output
    )
    assert "--max-symbols" in r.output and secs < 30
    r, _ = _verify(tmp_path, text(1_000), "--max-symbols", "1000")
    assert r.exit_code == 0, r.output


def test_a_symbol_name_the_grammar_cannot_read_is_refused_where_it_is_declared(tmp_path):
    """A Greek capital epsilon was accepted as a symbol name (Python identifiers are Unicode), and
    every use of it was then refused as an unexpected character, far from the cause."""
    r, _ = _verify(tmp_path, "symbols:\n  \u0395: {gt: 1}\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 2}}]\n")
    assert r.exit_code == 2 and "c.yaml:4:3: symbols.\u0395: '\u0395' cannot be a symbol name" in r.output, r.output
    assert "ASCII letters" in r.output


def test_symbolic_weights_and_eps_past_the_degree_limit_are_refused_at_once(tmp_path):
    """grr with eps = 5000*log(E) (e^eps = E^5000), grr_menu with eps = 400*log(E), and the
    exponential mechanism with scores 0..300 or a score of 10^6 (weights E^300, E^(10^6)) ran past
    the time limit proving signs of, and summing, huge powers; each is refused at its place."""
    for mech, where, degree in (
        ("{grr: {eps: 5000*log(E), t: 10*log(E)}}", "mechanisms.R.grr.eps: e^eps", 5000),
        ("{grr_menu: {eps: 400*log(E), t: [0, log(E)]}}", "mechanisms.R.grr_menu.eps: e^eps", 400),
        (
            "{exponential: {eps: 2*log(E), scores: {x0: [0, 1000000], x1: [1, 1000000]}}}",
            "mechanisms.R.exponential",
            1000000,
        ),
    ):
        r, secs = _verify(
            tmp_path,
            f"symbols:\n  E: {{gt: 1}}\nmechanisms:\n  R: {mech}\nclaims:\n  - dp: {{of: R, eps: log(E)}}\n",
        )
        assert r.exit_code == 2 and "c.yaml:6:" in r.output and where in r.output, r.output
        assert f"of degree {degree} in the symbols exceeds the limit of 200" in r.output and secs < 30


def test_a_huge_finite_transcendental_constant_is_refused_by_max_bits(tmp_path):
    """rho = exp(exp(100)) has a finite enclosure whose binary exponent is about 10^43: turning its
    ends into exact rationals formed 2^(10^43), and `exactdp zcdp --rho` (or the claim) ran until
    the time limit.  The ends are now bounded by --max-bits first."""
    r, secs = _verify(tmp_path, "mechanism: {rr: {eps: log(3)}}\nclaims: [{zcdp: {rho: exp(exp(100))}}]\n")
    assert r.exit_code == 2 and "c.yaml:4:23: claims[0].zcdp.rho:" in r.output, r.output
    assert "about 10^43 bits exceeds the limit of 1000000 bits; raise it with --max-bits N" in r.output
    r = CliRunner().invoke(main, ["zcdp", "--rho", "exp(exp(100))", str(tmp_path / "c.yaml")])
    assert r.exit_code == 2 and "--max-bits" in r.output and secs < 30, r.output
