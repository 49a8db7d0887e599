"""The example cases shipped in the wheel (exactdp/examples, ``exactdp examples DIR``): each one
holds as it is, under both engines, states its reference and derives its values in comments;
the command writes them and never replaces a file without --force."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from exactdp.caseio import parse_case
from exactdp.caseio.examples import ExamplesExistError, example_names, example_text, write_examples
from exactdp.cli import main
from exactdp.report.verdicts import shown
from exactdp.verify import Options, verify_text

NAMES = example_names()


def test_a_curated_set_in_reading_order():
    assert len(NAMES) >= 5 and NAMES == sorted(NAMES)
    assert all(n[:2].isdigit() and n.endswith(".yaml") for n in NAMES)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("engine", ["profile", "enumerator"])
def test_each_example_holds_as_it_is(name: str, engine: str):
    fr = verify_text(example_text(name), name, Options(engine=engine))
    assert fr.error is None, fr.error
    assert fr.exit_code == 0, [(v.claim.describe(), v.status, shown(v).found) for v in fr.verdicts if not v.holds]


@pytest.mark.parametrize("name", NAMES)
def test_each_example_says_what_it_shows_and_where_its_numbers_come_from(name: str):
    text = example_text(name)
    case = parse_case(text, name)
    assert case.title and case.reference and "20" in case.reference  # a paper and its year
    comments = [line for line in text.splitlines() if line.startswith("# ")]
    assert len(comments) >= 4, "the expected values are derived in comments"


def test_write_refuses_to_replace_and_force_replaces(tmp_path):
    written = write_examples(tmp_path / "ex")
    assert [p.name for p in written] == NAMES
    (tmp_path / "ex" / NAMES[0]).write_text("mine")
    with pytest.raises(ExamplesExistError, match="use --force"):
        write_examples(tmp_path / "ex")
    assert (tmp_path / "ex" / NAMES[0]).read_text() == "mine"
    write_examples(tmp_path / "ex", force=True)
    assert (tmp_path / "ex" / NAMES[0]).read_text() == example_text(NAMES[0])


def test_the_command_writes_them_and_they_verify(tmp_path):
    r = CliRunner().invoke(main, ["examples", str(tmp_path / "ex")])
    assert r.exit_code == 0, r.output
    assert f"{len(NAMES)} example cases; check them with: exactdp verify" in r.output
    r = CliRunner().invoke(main, ["verify", str(tmp_path / "ex")])
    assert r.exit_code == 0 and r.output.rstrip().endswith(", 0 fail"), r.output
    again = CliRunner().invoke(main, ["examples", str(tmp_path / "ex")])
    assert again.exit_code == 2 and "already has" in again.output and "Traceback" not in again.output
