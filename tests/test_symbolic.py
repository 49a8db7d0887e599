"""Symbolic parameters: the `symbols:` key, our grammar into SymPy, sign proofs, symbolic T."""

from __future__ import annotations

import textwrap

import pytest
import sympy

from exactdp.analysis import enumerator
from exactdp.analysis import profile as profile_engine
from exactdp.caseio import parse_case
from exactdp.errors import CaseError, UnsupportedMechanismError
from exactdp.numbers import Q
from exactdp.numbers.expr import parse_expr
from exactdp.numbers.symbolic import SymbolBounds, SymbolTable, prove_nonneg, sign_set, sym_evaluate
from exactdp.verify import verify_case

TABLE = SymbolTable.build(
    [SymbolBounds("E", Q(1)), SymbolBounds("p", Q(0), False, Q(1), False), SymbolBounds("d", Q(0), True, Q(1), True), SymbolBounds("x")]
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
    assert any("numeric spot check" in line for line in v.details)


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
    assert v.status == "error" and "undecided" in v.note
    assert any("E*p + p - 1" in line or "p*(E + 1) - 1" in line or ">= 0" in line for line in v.details)


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
    assert v.status == "holds", v.details


@pytest.mark.parametrize(
    "body, phrase",
    [
        ("symbols: {E: {gt: 2, lt: 1}}\nmechanism: {rr: {eps: log(3)}}", "leave no value"),
        ("symbols: {E: {gt: 0}}\nmechanism: {rr: {eps: log(E)}}", "could not prove e^eps >= 1"),
        ("symbols: {p: {gt: 0}}\nmechanism: {respond: {a: [p, 1-p], b: [1-p, p]}}", "could not prove a probability <= 1"),
        ("symbols: {p: {gt: 0, lt: 1}}\nmechanism: {respond: {a: [p, p], b: [1-p, 1-p]}}\n", None),
        ("symbols: {p: {gt: 0, lt: 1}}\nmechanism: {respond: {a: [p, 1/2], b: [1/2, 1-p]}}", "not identically 1"),
        ("symbols: {p: {gt: 0, lt: 1}}\nmechanism: {repeat: {mechanism: {rr: {eps: log(3)}}, times: p}}", "depends on the symbols p"),
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


def test_privloss_claim_on_symbolic_mechanism_is_undecided_not_wrong():
    c = case(RR_SYM.replace("- simulates_rr: {eps: log(E)}", "- privloss: {delta: 0, equals: log(3)}"))
    (v,) = verify_case(c)
    assert v.status == "error" and "symbolic" in v.note


def test_param_and_symbol_names_do_not_clash():
    with pytest.raises(CaseError, match="already declared under `symbols:`"):
        parse_case("exactdp: 1\nname: c\nsymbols: {E: {gt: 1}}\nparams: {E: 3}\nmechanism: {rr: {eps: log(3)}}\nclaims: [{simulates_rr: {}}]\n", "c.yaml")


def test_params_may_use_symbols_and_concomp_refuses_them():
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
    with pytest.raises(CaseError, match="symbolic probabilities"):
        parse_case(
            "exactdp: 1\nname: cc\nsymbols: {E: {gt: 1}}\nmechanisms:\n  A: {rr: {eps: log(E)}}\n  C: {concomp: [A, A]}\nclaims: [{simulates_rr: {of: A, eps: log(E)}}]\n",
            "cc.yaml",
        )


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
