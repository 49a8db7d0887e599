"""The error hierarchy's text: a message never repeats more than a short, one-line, visibly cut
excerpt of a value read from a file, whatever the value."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from exactdp.errors import EXCERPT_CHARS, CaseError, CaseProblem, LimitExceededError, bound_text, excerpt


def test_excerpt_is_short_one_line_and_marks_the_cut():
    assert excerpt("abc") == "'abc'"
    long = "SECRET\n" * 1000
    e = excerpt(long)
    assert "\n" not in e and "\\n" in e  # line breaks are shown escaped, never raw
    assert e.endswith("…' (7000 characters)")
    assert len(e) < 2 * EXCERPT_CHARS + 40


@given(st.text(max_size=500))
def test_excerpt_never_has_a_line_break_and_is_bounded(value):
    e = excerpt(value)
    assert not any(c in e for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    assert len(e) <= 4 * EXCERPT_CHARS + 40  # every kept character may be escaped (\x..)


def test_problems_cut_long_values_keys_and_hints():
    value = "x" * 100_000
    p = CaseProblem(
        f"found the scalar {value!r}",
        path="mechanisms." + "k" * 5000 + ".tree",
        file="f.yaml",
        hint="defined: " + ", ".join(f"m{i}" for i in range(10_000)),
    )
    text = p.render()
    assert len(text) < 1500
    assert "x" * (EXCERPT_CHARS + 1) not in text and "k" * (EXCERPT_CHARS + 1) not in text
    assert "…" in p.message and "…" in p.path and "…" in (p.hint or "")
    # ordinary messages are untouched
    q = CaseProblem("unknown key 'detla' in rr", path="mechanism.rr.detla", hint="did you mean 'delta'?")
    assert q.message == "unknown key 'detla' in rr" and q.path == "mechanism.rr.detla"


def test_two_quoted_values_are_cut_separately():
    msg = "unknown function '__import__': this is not a number (at character 1 of \"__import__('os').system('ls')\")"
    assert bound_text(msg) == msg  # both literals are short: nothing is cut
    msg2 = f"unknown name 'e' (at character 1 of {'e' * 300!r})"
    cut = bound_text(msg2)
    assert cut.startswith("unknown name 'e' (at character 1 of 'eee") and "…' (cut))" in cut


def test_every_error_text_is_bounded():
    e = LimitExceededError("the number " + "9" * 10_000, 5, "raise it")
    assert len(str(e)) < 2100
    big = CaseError([CaseProblem("y" * 10_000, file="f.yaml") for _ in range(20)])
    assert len(str(big)) < 20 * 500


def test_each_layer_raises_its_own_error_and_the_reader_locates_it():
    """A builder raises InvalidMechanismError about its own arguments (no file, no place); the
    game model InvalidGameError; the reader turns either into a located CaseError with the hint."""
    import pickle

    import pytest

    from exactdp import exponential, parse_case
    from exactdp.errors import InvalidGameError, InvalidMechanismError
    from exactdp.model import END, Chance
    from exactdp.numbers import Q

    with pytest.raises(InvalidMechanismError) as e:
        exponential(eps="log(4)", scores=[[0, 1], [1, 0]], mode="monotonic")
    assert not isinstance(e.value, CaseError)
    assert e.value.message == "exponential: unknown mode 'monotonic'" and "sensitivity" in (e.value.hint or "")
    again = pickle.loads(pickle.dumps(e.value))  # results travel between worker processes
    assert (type(again), again.message, again.hint) == (InvalidMechanismError, e.value.message, e.value.hint)
    with pytest.raises(InvalidGameError, match="sum to 5/4, not 1"):
        Chance(["a", "b"], [(Q(1, 2), Q(1, 2)), (Q(3, 4), Q(1, 2))], [END, END])
    text = (
        "exactdp: 1\nname: t\nmechanisms:\n"
        "  M: {exponential: {eps: log(2), scores: {x0: [0, 1], x1: [1, 0]}}}\nclaims:\n  - privloss: {equals: 0}\n"
    )
    with pytest.raises(CaseError) as located:
        parse_case(text, "t.yaml")
    (p,) = located.value.problems
    assert (p.file, p.line, p.path) == ("t.yaml", 4, "mechanisms.M.exponential")
    assert "irrational" in p.message and "e^(eps/2) is rational" in (p.hint or "")
