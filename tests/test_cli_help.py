"""Help pages: the resource limits in a section of their own, ``--help-limits`` for all of them,
and the witness legend printed once per run and never with ``-q``."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from exactdp.cli import main
from exactdp.cli.helptext import is_limit
from exactdp.limits import FLAGS

FAILING = """\
exactdp: 1
name: failing{k}
mechanism: {{rr: {{eps: log(3)}}}}
claims:
  - dp: {{eps: log(2), delta: 0}}
"""
LEGEND = "how to read a witness"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def _commands_with_limits() -> list[str]:
    ctx = main.make_context("exactdp", ["verify", "x"], resilient_parsing=True)
    cmds = {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}  # imports every command
    return [name for name, cmd in cmds.items() if cmd is not None and any(is_limit(p) for p in cmd.get_params(ctx))]


def _limits(name: str) -> list[str]:
    cmd = main.get_command(main.make_context("exactdp", ["verify", "x"], resilient_parsing=True), name)
    assert cmd is not None
    ctx = cmd.make_context(name, [], resilient_parsing=True)
    return [p.opts[0] for p in cmd.get_params(ctx) if is_limit(p)]


def _section(out: str, heading: str) -> str:
    """The lines of one help section, up to the next blank line."""
    start = next(i for i, line in enumerate(out.splitlines()) if line.startswith(heading))
    block = []
    for line in out.splitlines()[start + 1 :]:
        if not line.strip():
            break
        block.append(line)
    return "\n".join(block)


def test_verify_help_is_short_and_names_every_limit_in_its_own_section():
    out = run("verify", "--help").output
    assert len(out.splitlines()) <= 52, f"verify --help has {len(out.splitlines())} lines"  # it had 79
    options = _section(out, "Options:")
    limits = _section(out, "Resource limits")
    engine_limits = {flag for field, flag in FLAGS.items() if field.startswith("max_") and field != "max_memory"}
    assert engine_limits <= set(_limits("verify")), "every engine limit is a verify option"
    for flag in _limits("verify"):
        assert flag not in options, f"{flag} is listed with the other options"
        assert flag in limits.split(), f"{flag} is missing from the limits section"
    assert "--help-limits" in options and "--witness" in options and "--html" in options


@pytest.mark.parametrize("name", _commands_with_limits())
def test_help_limits_lists_each_limit_with_its_default(name: str):
    r = run(name, "--help-limits")
    assert r.exit_code == 0, r.output
    for flag in _limits(name):
        assert flag in r.output
    assert r.output.count("default:") >= len(_limits(name))
    assert "--witness" not in r.output and "Options:" not in r.output
    assert "--help-limits" in run(name, "--help").output


def test_a_limit_flag_still_works_after_the_help_change(tmp_path):
    (tmp_path / "a.yaml").write_text(FAILING.format(k=1))
    r = run("verify", "--max-file-bytes", "10", str(tmp_path))
    assert r.exit_code == 2 and "--max-file-bytes" in r.output


def test_the_witness_legend_once_per_run_never_when_quiet(tmp_path):
    for k in range(3):
        (tmp_path / f"f{k}.yaml").write_text(FAILING.format(k=k))
    normal = run("verify", str(tmp_path)).output
    assert normal.count("witness (profile engine") == 3 and normal.count(LEGEND) == 1
    quiet = run("verify", "-q", str(tmp_path)).output
    assert quiet.count("witness (profile engine") == 3 and LEGEND not in quiet
    jobs = run("verify", "--jobs", "2", str(tmp_path)).output
    assert jobs.count(LEGEND) == 1


def _options(cmd, ctx) -> list:
    """The options of ``cmd`` and, for a group, of its subcommands."""
    subs = cmd.commands.values() if hasattr(cmd, "commands") else [cmd]
    return [p for c in subs for p in c.get_params(ctx) if p.param_type_name == "option"]


def test_every_option_with_a_default_shows_it_and_no_on_off_flag_does():
    """The group's context shows every default (one setting, not one per option): an option
    with a value shows ``[default: ...]`` (click's, after two spaces) on every command's help
    page, a flag that is off by default shows nothing."""
    ctx = main.make_context("exactdp", ["verify", "x"], resilient_parsing=True)
    for name in main.list_commands(ctx):
        cmd = main.get_command(ctx, name)
        sub = cmd.make_context(name, [], parent=ctx, resilient_parsing=True)
        for p in _options(cmd, sub):
            record = p.get_help_record(sub)
            if record is None or p.name == "help" or is_limit(p):  # a limit states its own default
                continue
            valued = not p.is_flag and isinstance(p.default, (str, int, float))  # not unset, None or ()
            assert bool(re.search(r"(^|  )\[default: ", record[1])) == valued, f"{name} {p.opts[0]}: {record[1]!r}"
