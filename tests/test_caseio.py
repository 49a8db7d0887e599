"""Reading case files: every form of format version 1, YAML 1.2 words, exact decimals, errors."""

from __future__ import annotations

import textwrap

import pytest

from exactdp.caseio import parse_case
from exactdp.claims import Analysis
from exactdp.errors import CaseError
from exactdp.numbers import Q
from exactdp.report.verdicts import shown


def case(body: str, **kw):
    return parse_case(textwrap.dedent(body), "t.yaml", **kw)


def problems(body: str) -> list[str]:
    with pytest.raises(CaseError) as e:
        case(body)
    return [p.render() for p in e.value.problems]


def check(c):
    an = Analysis(c.mechanisms)
    return [cl.check(an).status for cl in c.claims]


def test_spec_example_tree():
    c = case(
        """
        exactdp: 1
        name: tree
        mechanisms:
          M:
            tree:
              ask:
                q0:
                  yes: {p: [3/4, 1/4], then: {respond: {a: [1/2, 1/2], b: [1/2, 1/2]}}}
                  no:  {p: {x1: 3/4, x0: 1/4}}
                q1:
                  yes: [1/2, 1/2]
                  no:  [1/2, 1/2]
        claims:
          - privloss: {delta: 0, equals: log(3)}
        """
    )
    m = c.mechanisms["M"]
    assert m.root.labels == ("q0", "q1")
    chance = m.root.children[0]
    assert chance.labels == ("yes", "no")  # YAML 1.2: words, not booleans
    assert chance.probs[1] == (Q(1, 4), Q(3, 4))  # map form in dataset order
    assert check(c) == ["holds"]


def test_decimals_are_read_from_the_text():
    c = case(
        """
        exactdp: 1
        name: dec
        mechanism: {respond: {a: [0.12345678901234567890, 0.5], b: [0.87654321098765432110, 0.5]}}
        claims: [{dp: {eps: log(2), delta: 0.1}}]
        """
    )
    row = c.mechanisms["M"].root.probs[0]
    assert row[0] == Q(12345678901234567890, 10**20)
    assert c.claims[0].delta == Q(1, 10)


def test_anchors_share_subgames_and_names_resolve():
    c = case(
        """
        exactdp: 1
        name: share
        params: {E: 3, half: 1/2}
        mechanisms:
          R: {rr: {eps: log(E)}}
          M:
            tree:
              respond:
                h: {p: [half, half], then: &t {ask: {q: {0: [E/(1+E), 1/(1+E)], 1: [1/(1+E), E/(1+E)]}}}}
                t: {p: [half, half], then: *t}
          N: {compose: [R, M, {repeat: {mechanism: R, times: 2}}]}
          C: {concomp: [R, M]}
          K: {choose: {first: R, second: M}}
        claims:
          - profile_eq: {as: R}
          - privloss: {of: N, delta: 0, equals: log(81)}
          - privloss: {of: C, delta: 0, equals: log(9)}
          - privloss: {of: K, delta: 0, equals: log(3)}
        """
    )
    root = c.mechanisms["M"].root
    assert root.children[0] is root.children[1]
    assert check(c) == ["holds"] * 4


def test_several_datasets_and_rr_bits():
    c = case(
        """
        exactdp: 1
        name: three
        datasets: [a, b, c]
        adjacent: [[a, b], [b, c]]
        mechanisms:
          M: {rr: {eps: log(3), bits: {c: 0}}}
        claims:
          - privloss: {delta: 0, equals: log(3)}
        """
    )
    assert c.adjacent == ((0, 1), (1, 2))
    assert check(c) == ["holds"]


def test_simulates_rr_is_checked_not_assumed():
    c = case(
        """
        exactdp: 1
        name: sim
        mechanism: {rr: {eps: log(3)}}
        claims: [{simulates_rr: {eps: log(3)}}, {simulates_rr: {eps: log(2)}}, {simulates_rr: {}}]
        """
    )
    assert check(c) == ["holds", "fails", "holds"]


@pytest.mark.parametrize(
    "body, phrases",
    [
        (
            "exactdp: 2\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
            ["t.yaml:1:10: exactdp: unsupported case-format version"],
        ),
        ("name: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n", ["missing `exactdp: 1`"]),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\nextra: 1\n",
            ["unknown top-level key 'extra'"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {respond: {a: [1/2, 1/3], b: [1/2, 2/3]}}\nclaims: [{dp: {eps: 1}}]\n",
            [],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {respond: {a: [1/2, 1/4], b: [1/2, 1/2]}}\nclaims: [{dp: {eps: 1}}]\n",
            ["mechanism.respond: probabilities under x1 sum to 3/4, not 1"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {respond: {a: [0.333, 0.5], b: [0.333, 0.5], c: [0.333, 0]}}\nclaims: [{dp: {eps: 1}}]\n",
            ["sum to 999/1000, not 1", "write fractions such as 1/3"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {respond: {a: [-1/2, 1/2], b: [3/2, 1/2]}}\nclaims: [{dp: {eps: 1}}]\n",
            ["mechanism.respond.a[0]: a probability must lie in [0, 1], found -1/2"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {respond: {a: [1, 1, 0], b: [0, 0, 1]}}\nclaims: [{dp: {eps: 1}}]\n",
            ["expected 2 probabilities (one per dataset: x0, x1), found 3"],
        ),
        (
            "exactdp: 1\nname: x\nadjacent: [[x0, x9]]\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
            ["adjacent[0][1]: unknown dataset 'x9' in adjacent"],
        ),
        (
            "exactdp: 1\nname: x\nmechanisms: {M: N}\nclaims: [{dp: {eps: 1}}]\n",
            ["mechanisms.M: no mechanism named 'N'"],
        ),
        (
            "exactdp: 1\nname: x\nmechanisms: {M: {compose: [N]}, N: {compose: [M]}}\nclaims: [{dp: {eps: 1}}]\n",
            ["refers to itself: M -> N -> M"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(0)}}\nclaims: [{dp: {eps: 1}}]\n",
            ["mechanism.rr.eps: log of a non-positive number"],
        ),
        ("exactdp: 1\nname: x\nmechanism: {rr: {eps: 1/0}}\nclaims: [{dp: {eps: 1}}]\n", ["division by zero"]),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dpp: {eps: 1}}]\n",
            ["unknown claim kind 'dpp'", "did you mean 'dp'?"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{delta: {eps: 1}}]\n",
            ["`delta` needs `equals:`"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{privloss: {delta: 0}}]\n",
            ["exactly one of `equals:` or `at_most:`"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {epz: log(3)}}\nclaims: [{dp: {eps: 1}}]\n",
            ["unknown key 'epz' in rr", "did you mean 'eps'?"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: exp(1/10)}}\nclaims: [{dp: {eps: 1}}]\n",
            ["eps must be a real number", "log(3)"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1, of: Q}}]\n",
            ["no mechanism named 'Q'"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1, delta: 2}}]\n",
            ["delta must lie in [0, 1], found 2"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: log(1/2)}}]\n",
            ["eps must be >= 0"],
        ),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\nclaims: []\n",
            ["duplicate key 'claims'"],
        ),
        ("exactdp: 1\nname: x\nmechanism: {wat: {}}\nclaims: [{dp: {eps: 1}}]\n", ["unknown mechanism form 'wat'"]),
        (
            "exactdp: 1\nname: x\nmechanism: {rr: {eps: log(3)}}\nclaims: [{dp: {eps: 1}}]\nparams: {a: b, b: a}\n",
            ["defined in terms of itself"],
        ),
    ],
)
def test_errors_are_located_and_teach(body, phrases):
    if not phrases:
        case(body)  # valid
        return
    msgs = "\n".join(problems(body))
    for ph in phrases:
        assert ph in msgs
    assert msgs.startswith("t.yaml:")


def test_several_problems_are_reported_at_once():
    msgs = problems(
        "exactdp: 1\nname: Bad\nmechanism: {respond: {a: [1/2, 1/4], b: [1/2, 1/2]}}\nclaims: [{dpp: {}}, {dp: {eps: log(0)}}]\n"
    )
    assert len(msgs) >= 4


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("a: [1, 2\n", "not valid YAML"),
        ("x: !!python/object:os.system 'echo hi'\n", "YAML tag !!python/object:os.system is not allowed"),
        ("x: !custom 1\n", "is not allowed"),
        ("a: &a [*a]\n", "recursive alias"),
        ("", "the file is empty"),
        ("- 1\n- 2\n", "a case file is a mapping"),
    ],
)
def test_yaml_safety(text, phrase):
    with pytest.raises(CaseError) as e:
        parse_case(text, "t.yaml")
    assert phrase in str(e.value)


def test_alias_bomb_fails_fast():
    import time

    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    text = "\n".join(lines) + "\n"
    t = time.monotonic()
    with pytest.raises(CaseError, match="expands to more than"):
        parse_case(text, "bomb.yaml")
    assert time.monotonic() - t < 15  # (a hang, without the expansion limit)


@pytest.fixture(params=["libyaml", "pure-python"])
def yaml_backend(request, monkeypatch):
    """Run a test with both YAML event parsers (they differ in small ways, e.g. scalar styles)."""
    import yaml

    from exactdp.caseio import yamlsafe

    if request.param == "pure-python":
        monkeypatch.setattr(yamlsafe, "_Parser", yaml.SafeLoader)
    elif not yaml.__with_libyaml__:
        pytest.skip("libyaml not available")
    return request.param


@pytest.mark.parametrize("end", ["null", "~", "", "Null"])
def test_then_null_ends_the_interaction(yaml_backend, end):
    c = case(
        f"""
        exactdp: 1
        name: ends
        mechanism:
          respond:
            a: {{p: [1/2, 1/2], then: {end}}}
            b: {{p: [1/2, 1/2]}}
        claims: [{{privloss: {{delta: 0, equals: 0}}}}]
        """
    )
    assert check(c) == ["holds"]


def test_quoted_null_is_a_name(yaml_backend):
    msgs = "\n".join(
        problems(
            "exactdp: 1\nname: x\nmechanism: {respond: {a: {p: [1, 1], then: 'null'}}}\nclaims: [{dp: {eps: 1}}]\n"
        )
    )
    assert "no mechanism named 'null'" in msgs


def test_both_backends_read_the_library_identically(yaml_backend):
    from pathlib import Path

    from exactdp.analysis import profile
    from exactdp.caseio import load_case
    from exactdp.errors import UnsupportedMechanismError

    for f in sorted((Path(__file__).resolve().parents[1] / "cases").rglob("*.yaml")):
        c = load_case(f)
        for name, m in c.mechanisms.items():
            try:
                assert profile.profile(m).breakpoints()  # reads and analyses
            except UnsupportedMechanismError:
                assert c.symbols, f"{f}: {name}"  # only symbolic mechanisms are refused


def test_failing_profile_le_reports_where_with_a_witness():
    """Regression (found by the fuzzer): a failing profile_le claim crashed on an import."""
    c = case(
        """
        exactdp: 1
        name: le
        mechanisms:
          A: {rr: {eps: log(3)}}
          B: {rr: {eps: log(2)}}
        claims: [{profile_le: {of: A, than: B}}]
        """
    )
    an = Analysis(c.mechanisms)
    v = c.claims[0].check(an)
    assert v.status == "fails" and "delta_A = 1/2" in shown(v).found and v.witness is not None


def test_error_catalogue_doc_is_current_and_every_example_fails():
    """docs/errors.md is generated from the reader; regenerate with
    `python -m exactdp.caseio.errorcatalog --write`."""
    from exactdp.caseio.errorcatalog import CATALOGUE, DOC_PATH, render

    assert DOC_PATH.read_text() == render()
    for _sec, title, _why, text in CATALOGUE:
        with pytest.raises(CaseError) as e:
            parse_case(text, "demo.yaml")
        assert all(p.message for p in e.value.problems), title


def test_injection_anywhere_is_inert(tmp_path, monkeypatch):
    """Code in labels, names, params, titles and numbers never runs: labels and names are
    text, numbers go through the grammar (and are refused)."""
    monkeypatch.chdir(tmp_path)
    evil = "__import__('os').system('touch PWNED')"
    text = textwrap.dedent(
        f"""
        exactdp: 1
        name: inert
        title: "{{{{ {evil} }}}}"
        reference: "$(touch PWNED) `touch PWNED` %s%n"
        mechanisms:
          M:
            respond:
              "{evil}": [1/2, 1/2]
              "{{0.__class__}}": [1/2, 1/2]
        claims: [{{privloss: {{delta: 0, equals: 0}}}}]
        """
    )
    c = case(text)
    assert check(c) == ["holds"]
    assert evil in c.mechanisms["M"].root.labels
    with pytest.raises(CaseError):
        case(text.replace("delta: 0,", f'delta: "{evil}",'))
    import os

    assert not os.path.exists("PWNED")


def test_null_then_ends_the_interaction():
    """Spec: `then:` absent or null ends.  libyaml gives plain scalars the style '' (not None);
    a quoted "null" is still a name."""
    c = case(
        """
        exactdp: 1
        name: nul
        mechanism:
          tree:
            ask: {q: {a: {p: [1/2, 1/2], then: null}, b: {p: [1/2, 1/2], then: ~}}}
        claims:
          - privloss: {delta: 0, equals: 0}
        """
    )
    assert check(c) == ["holds"]
    probs = problems(
        """
        exactdp: 1
        name: nul
        mechanism:
          tree:
            ask: {q: {a: {p: [1/2, 1/2], then: "null"}, b: [1/2, 1/2]}}
        claims:
          - privloss: {delta: 0, equals: 0}
        """
    )
    assert "no mechanism named 'null'" in probs[0]


def test_a_mechanism_name_under_ask_points_to_choose():
    """`ask: {q0: R3}` reads q0's answers; a mechanism's name there means `choose:` (the adversary
    picks a mechanism), and the message says so; `choose:` then reads."""
    body = """
        exactdp: 1
        name: ask-name
        mechanisms:
          R2: {rr: {eps: log(2)}}
          R3: {rr: {eps: log(3)}}
          F:
            respond:
              h: {p: [1/2, 1/2], then: {%s: {q0: R3, q1: R2}}}
              t: {p: [1/2, 1/2], then: {%s: {q0: R2, q1: R3}}}
        claims:
          - privloss: {of: F, delta: 0, equals: log(3)}
        """
    got = problems(body % ("ask", "ask"))
    assert len(got) == 4 and "found the mechanism name 'R3'" in got[0] and "choose: {q: M, ...}" in got[0]
    assert check(case(body % ("choose", "choose"))) == ["holds"]
