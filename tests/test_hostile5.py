"""Hostile input, fifth round: options, meta-claims, empty lists, special files, high degrees.
Each attack below once crashed with a traceback (exit 3), stopped a whole run, hung, or was read
as something else than what it says; each is now refused with a located message and exit
status 2, or decided as before, faster."""

from __future__ import annotations

import os
import time

import pytest
from click.testing import CliRunner

from exactdp.cli import main

HEAD = "exactdp: 1\nname: h\n"
KRR = "mechanism: {rr: {eps: log(3)}}\nclaims:\n  - dp: {eps: log(3)}\n"


def _case(tmp_path, text: str, name: str = "c.yaml"):
    f = tmp_path / name
    f.write_text(HEAD + text)
    return str(f)


@pytest.mark.parametrize("value", ["nan", "inf", "1e10", "-1", "abc"])
def test_a_timeout_that_is_not_a_finite_number_of_seconds_is_a_usage_error(tmp_path, value):
    """--timeout nan, inf or 1e10 reached the interval timer, which raised (a traceback, exit 3)."""
    r = CliRunner().invoke(main, ["verify", "--timeout", value, _case(tmp_path, KRR)])
    assert r.exit_code == 2 and "--timeout" in r.output and "Traceback" not in r.output, r.output


@pytest.mark.parametrize(
    "args",
    [["verify", ""], ["verify", "{case}", "--html", ""], ["certify", "{case}", "-o", ""], ["privloss", ""]],
)
def test_an_empty_path_is_refused_not_read_as_the_current_directory(tmp_path, monkeypatch, args):
    """`exactdp verify "$CASE"` with CASE unset checked every case file under the current
    directory and exited 0; --html '' and certify -o '' wrote there."""
    case = _case(tmp_path, KRR)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, [a.format(case=case) for a in args])
    assert r.exit_code == 2 and "an empty path" in r.output, r.output
    assert sorted(os.listdir(tmp_path)) == ["c.yaml"]


def test_an_empty_mechanism_name_is_not_read_as_the_default(tmp_path):
    r = CliRunner().invoke(main, ["privloss", _case(tmp_path, KRR), "--of", ""])
    assert r.exit_code == 2 and "no mechanism named ''" in r.output, r.output


@pytest.mark.parametrize(
    "claim, where",
    [
        ("counterexample: {claim: {counterexample: {claim: {dp: {eps: log(2)}}, at: {E: 3}}}, at: {E: 3}}", "claim"),
        ("counterexample: {claim: {calibrate: {target: {dp: {eps: 1}}, holds_for: []}}, at: {E: 3}}", "claim"),
        ("calibrate: {target: {calibrate: {target: {dp: {eps: 1}}, holds_for: []}}, holds_for: []}", "target"),
    ],
)
def test_a_claim_about_a_claim_about_a_claim_is_refused_where_it_is_written(tmp_path, claim, where):
    """A counterexample whose claim was itself a counterexample crashed (exit 3) and stopped
    the whole run; a calibration of a calibration printed "None is ...-DP"."""
    f = _case(
        tmp_path, f"symbols: {{E: {{gt: 1, lt: 10}}}}\nmechanism: {{rr: {{eps: log(E)}}}}\nclaims:\n  - {claim}\n"
    )
    r = CliRunner().invoke(main, ["verify", f])
    assert r.exit_code == 2 and "c.yaml:6:" in r.output and f".{where}: a " in r.output, r.output
    assert "claim about a mechanism" in r.output and "None" not in r.output


def test_calibrating_an_undeclared_symbol_is_a_located_error(tmp_path):
    f = _case(
        tmp_path,
        "symbols: {E: {gt: 1, lt: 10}}\nmechanism: {rr: {eps: log(E)}}\nclaims:\n"
        "  - calibrate: {target: {dp: {eps: log(3)}}, holds_for: [{gt: 1, le: 3}], symbol: nosuch}\n",
    )
    r = CliRunner().invoke(main, ["verify", f])
    assert r.exit_code == 2 and "c.yaml:6:" in r.output and "'nosuch' is not a declared symbol" in r.output
    assert "declared: E" in r.output


@pytest.mark.parametrize("key", ["u", "t"])
def test_an_empty_menu_is_a_located_error(tmp_path, key):
    """grr_menu with u: [] (or t: []) indexed an empty list: a traceback, exit 3."""
    f = _case(tmp_path, f"mechanism: {{grr_menu: {{eps: log(16), {key}: []}}}}\nclaims: [{{dp: {{eps: log(16)}}}}]\n")
    r = CliRunner().invoke(main, ["verify", f])
    assert r.exit_code == 2 and f"mechanism.grr_menu.{key}:" in r.output and "at least 1 item" in r.output, r.output


def test_a_relabelling_of_an_answer_the_mechanism_never_gives_is_refused(tmp_path):
    """map: {"O": "1"} (the letter O for the answer 0) left the mechanism as it was, and its
    claims were checked about another mechanism than the one written."""
    f = _case(
        tmp_path,
        'mechanisms:\n  A: {rr: {eps: log(3)}}\n  M: {postprocess: {mechanism: A, map: {"O": "1"}}}\n'
        "claims:\n  - privloss: {delta: 0, equals: log(3)}\n",
    )
    r = CliRunner().invoke(main, ["verify", f])
    assert r.exit_code == 2 and "map.O: postprocess: O is not an answer of the mechanism" in r.output, r.output
    assert "its answers: 0, 1" in r.output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("special", ["fifo", "/dev/null"])
def test_a_sweep_csv_that_is_not_a_regular_file_is_refused(tmp_path, special):
    """--resume on a FIFO blocked forever (exactdp's own --timeout never fired); on a device the
    rows were "appended" and lost, with exit status 0."""
    f = _case(
        tmp_path,
        "params: {k: 1}\nsweep: {k: [1, 2]}\nmechanisms:\n  RR: {rr: {eps: log(3)}}\n"
        "  M: {repeat: {mechanism: RR, times: k}}\nclaims: [{dp: {eps: k*log(3)}}]\n",
    )
    target = special
    if special == "fifo":
        target = str(tmp_path / "pipe.csv")
        os.mkfifo(target)
    for flag in ("--resume", "--csv"):
        t = time.monotonic()
        r = CliRunner().invoke(main, ["sweep", f, flag, target])
        assert r.exit_code == 2 and "not a regular file" in r.output, r.output
        assert time.monotonic() - t < 30


def test_an_unexpected_error_in_one_file_is_reported_with_it_and_the_others_are_checked(tmp_path, monkeypatch):
    """A bug met while checking one file (here: an IndexError put in on purpose) used to end the
    whole run with a traceback: the files after it were never checked and no summary printed.
    It is now that file's result (exit status 3, the exception and where it was raised)."""
    import exactdp.verify as v

    first = _case(tmp_path, KRR.replace("log(3)}}", "log(3)}}", 1), "a.yaml")
    _case(tmp_path, KRR, "b.yaml")
    real = v.verify_case

    def broken(case, *args, **kw):
        if case.file == first:
            raise IndexError("list index out of range")
        return real(case, *args, **kw)

    monkeypatch.setattr(v, "verify_case", broken)
    r = CliRunner().invoke(main, ["verify", str(tmp_path)])
    assert r.exit_code == 3, r.output
    assert "a.yaml: error" in r.output and "internal error, a bug in exactdp" in r.output
    assert "IndexError: list index out of range" in r.output and "b.yaml" in r.output and "summary:" in r.output


def test_a_symbolic_probability_of_degree_199_is_decided_in_seconds(tmp_path):
    """p^199 against (1 - p)^199 under `dp` took 2 to 3 minutes (a SymPy sign proof of every
    probability, and Sturm sequences of degree 199 to certify the roots); one symbol's signs now
    come from FLINT (Descartes' rule) and the roots from certified root balls."""
    f = _case(
        tmp_path,
        "symbols: {p: {gt: 0, lt: 1}}\nmechanisms:\n"
        "  M: {respond: {x: [p^199, (1-p)^199], y: [1 - p^199, 1 - (1-p)^199]}}\nclaims:\n  - dp: {eps: log(3)}\n",
    )
    t = time.monotonic()
    r = CliRunner().invoke(main, ["verify", "-q", f, "--timeout", "120"])
    assert r.exit_code == 1 and "fails at p = " in r.output, r.output
    assert time.monotonic() - t < 100  # (about 10 s alone on a 2-core machine; 2 to 3 minutes before)


def test_simulate_latex_of_a_mechanism_with_no_post_processor(tmp_path):
    """e^eps = inf (no T exists) made `simulate --format latex` stop with "inf cannot take part
    in a symbolic expression" (exit 2); the text format said why no T exists (exit 1)."""
    f = _case(
        tmp_path,
        "mechanism:\n  tree:\n    respond:\n      a: {p: [1/10, 0]}\n      b: {p: [9/10, 1]}\nclaims:\n"
        "  - privloss: {delta: 0, equals: inf}\n",
    )
    r = CliRunner().invoke(main, ["simulate", f, "--format", "latex"])
    assert r.exit_code == 1 and "no post-processor T exists for the pair (x0, x1)" in r.output, r.output


def test_a_quadratic_piece_end_with_a_large_discriminant_prints_at_once(tmp_path):
    """p^2 against 1/2 + 10^-20: the end sqrt(1/2 + 10^-20) was simplified by trial division up
    to the square root of the discriminant's remaining part, about 10^10 steps; the command never
    printed.  Trial division now stops at 10^5 and a remaining perfect square is taken out whole."""
    from exactdp.analysis.parametric.algebraic import _sqrt_parts

    assert _sqrt_parts(4 * 10**20 * (5 * 10**19 + 1)) == (2 * 10**10, 5 * 10**19 + 1)
    assert _sqrt_parts(72) == (6, 2) and _sqrt_parts(99991**2 * 5) == (99991, 5)
    f = _case(
        tmp_path,
        "symbols: {p: {gt: 0, lt: 1}}\nmechanisms:\n  M: {respond: {a: [p^2, 50000000000000000001/100000000000000000000],"
        " b: [1 - p^2, 49999999999999999999/100000000000000000000]}}\nclaims:\n  - dp: {eps: 0, delta: 1/2}\n",
    )
    t = time.monotonic()
    r = CliRunner().invoke(main, ["delta", f, "--eps", "0"])
    assert r.exit_code == 0 and "(sqrt(50000000000000000001))/10000000000" in r.output, r.output
    assert time.monotonic() - t < 30


def test_the_optimal_composition_with_a_component_of_delta_1_at_delta_1_is_0():
    """Every mechanism is (0, 1)-DP, yet with some delta_i = 1 the optimal composition gave
    eps_g = log 2 at delta_g = 1 (the pure part's value): 0 now, and inf below delta_g = 1;
    the subset-sum definition (Thm 1.4) and the checker agree."""
    from exactdp import exact
    from exactdp.numbers import Q
    from exactdp.theorems.optimal import optimal_bruteforce, optimal_lambda
    from exactdp.theorems.params import components

    comps = components([exact("log(2)"), exact("log(3)")], [Q(1), Q(0)])
    assert optimal_lambda(comps, Q(1)) == Q(1) == optimal_bruteforce(comps, Q(1))
    assert str(optimal_lambda(comps, Q(1, 2))) == "inf"
    from exactdp.checker.composition import optimal_holds

    assert optimal_holds([2, 3], [1, 0], 1, 1) and not optimal_holds([2, 3], [1, 0], 1, 2)


def test_one_path_given_alone_to_the_api_is_that_path():
    """verify_paths("/x.yaml") iterated the string: "/" walked the whole file system."""
    import exactdp

    run = exactdp.verify_paths("/nonexistent-case-file.yaml")
    assert len(run.files) == 1 and run.exit_code == 2


def test_a_long_case_file_name_gets_its_certificates_and_its_page(tmp_path):
    """A legal 255-byte file name with a sweep: "<stem>[k=10]" passed the file system's limit,
    so certify reported an internal error (exit 3) and verify --html wrote no page at all."""
    name = "a" * 250 + ".yaml"
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / name).write_text(
        HEAD + "params: {k: 1}\nsweep: {k: [1, 10]}\nmechanisms:\n  RR: {rr: {eps: log(3)}}\n"
        "  M: {repeat: {mechanism: RR, times: k}}\nclaims: [{dp: {eps: k*log(3)}}]\n"
    )
    r = CliRunner().invoke(main, ["certify", str(tmp_path / "cases"), "-o", str(tmp_path / "out"), "-q"])
    assert r.exit_code == 0 and "certificates: 2 written" in r.output, r.output
    assert len(list((tmp_path / "out").rglob("*.json"))) == 2
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "cases"), "--html", str(tmp_path / "html"), "-q"])
    assert r.exit_code == 0 and len(list((tmp_path / "html").glob("*.html"))) == 3, r.output  # (and index.html)


def test_an_output_over_the_case_file_or_over_another_output_is_refused(tmp_path):
    """export a.yaml --latex a.yaml and info b.yaml --dot b.yaml replaced the case file they read
    (exit 0); info --dot F --svg F wrote the SVG over the DOT."""
    a = _case(tmp_path, KRR, "a.yaml")
    before = (tmp_path / "a.yaml").read_text()
    for args in (["export", a, "--latex", a], ["info", a, "--dot", a]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "is a file this command reads or has just written" in r.output, r.output
        assert (tmp_path / "a.yaml").read_text() == before
    out = str(tmp_path / "g")  # (no suffix: a suffix of another format is refused before anything is written)
    r = CliRunner().invoke(main, ["info", a, "--dot", out, "--png", out])
    assert r.exit_code == 2 and (tmp_path / "g").read_text().startswith("digraph"), r.output


@pytest.mark.parametrize(
    "option, name", [("--svg", "x.png"), ("--png", "x.svg"), ("--dot", "x.svg"), ("--svg", "X.PDF")]
)
def test_a_drawing_is_not_written_under_the_name_of_another_format(tmp_path, option, name):
    """info --svg x.png wrote SVG text into x.png, which image viewers then failed to open; with
    --dot d.dot beside it nothing is written either (the names are checked first)."""
    a = _case(tmp_path, KRR, "a.yaml")
    r = CliRunner().invoke(main, ["info", a, "--dot", str(tmp_path / "d.dot"), option, str(tmp_path / name)])
    assert r.exit_code == 2 and "its name says" in r.output, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml"]


@pytest.mark.parametrize(
    "call",
    [
        lambda x: x.rr(eps=-1),
        lambda x: x.rr(eps="abc"),
        lambda x: x.exact(""),
        lambda x: x.exact(float("nan")),
        lambda x: x.repeat(x.rr(eps="log(3)"), 1.5),
        lambda x: x.truncated_geometric(alpha="1/2", n=1.5, counts=[0, 1]),
        lambda x: x.truncated_geometric(alpha="1/2", n=3, counts=[0, 1.5]),
        lambda x: x.geometric_noise(eps="log(2)", width=2.5),
        lambda x: x.exponential([[0, 1.5], [1, 0]], eps="log(4)"),
        lambda x: x.privloss(x.rr(eps="log(3)"), 2),
        lambda x: x.parse_case(5),
        lambda x: x.load_case(None),
    ],
)
def test_a_wrong_argument_of_a_python_call_is_an_exactdp_error(call):
    """rr(eps=-1), exact(""), repeat(M, 1.5), parse_case(5), ... raised plain ValueError,
    TypeError, AttributeError or the grammar's own error: `except exactdp.ExactDPError` missed
    them.  They are ExactDPErrors now, and still ValueErrors or TypeErrors."""
    import exactdp

    with pytest.raises(exactdp.ExactDPError) as e:
        call(exactdp)
    assert isinstance(e.value, (ValueError, TypeError))
