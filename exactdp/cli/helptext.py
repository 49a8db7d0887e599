"""Help pages with the resource limits in a section of their own (``--help-limits`` shows each),
and the ``exactdp`` group, which imports a command's module only when that command runs and
ends it with one line on stderr when it raises an :class:`~exactdp.errors.ExactDPError`.

Listed with the other options, the limits (each one of :mod:`exactdp.limits` is a flag of every
command that reads case files) would hide what a reader looks for, so ``--help`` only names them.
The group knows each command as ``"module:function"`` (click's pattern for lazily loaded
subcommands), and ``exactdp --help`` shows the first sentence of each command's docstring read
from its module's source (:func:`exactdp.lazy.docstring`) instead of importing every command.
"""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from typing import Any, NoReturn

import click

from ..errors import ExactDPError, VerificationError
from ..lazy import docstring, load
from ..report.escape import error_text
from ..report.terminal import emit

__all__ = ["LimitsHelpCommand", "Group", "command", "is_limit", "fail", "error_line"]

_HEADING = "Resource limits"


def is_limit(param: click.Parameter) -> bool:
    """A resource limit is an option named ``--timeout`` or ``--max-*`` (every one has a default,
    a flag and an error naming it)."""
    name = param.name or ""
    return isinstance(param, click.Option) and (name == "timeout" or name.startswith("max_"))


def error_line(e: Exception) -> int:
    """Print ``e``'s message on stderr (escaped line by line: it may quote the case file), after
    its heading if it has one (``undecided:``), and return the exit status: 3 for a failed
    cross-check, else 2."""
    heading = getattr(e, "heading", "")
    emit("exactdp: " + (heading + ": " if heading else "") + "\n".join(error_text(e)), file=sys.stderr)
    return 3 if isinstance(e, VerificationError) else 2


def fail(e: Exception) -> NoReturn:
    """End the command with ``e``'s message on stderr (:func:`error_line`)."""
    sys.exit(error_line(e))


def _show_limits(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    cmd = ctx.command
    formatter = ctx.make_formatter()
    cmd.format_usage(ctx, formatter)
    with formatter.section(_HEADING):
        formatter.write_dl(_records(ctx, [p for p in cmd.get_params(ctx) if is_limit(p)]))
    formatter.write_paragraph()
    formatter.write_text("A limit that is hit ends the check with exit status 2 and a message naming the flag.")
    click.echo(formatter.getvalue().rstrip("\n"), color=ctx.color)
    ctx.exit()


def _records(ctx: click.Context, params: list[click.Parameter]) -> list[tuple[str, str]]:
    """The help records (flags, help) of ``params``, leaving out hidden ones."""
    return [rec for p in params if (rec := p.get_help_record(ctx)) is not None]


class LimitsHelpCommand(click.Command):
    """A command whose ``--help`` lists its resource limits by name only, in their own section,
    and which accepts ``--help-limits`` for the full list."""

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        params = super().get_params(ctx)
        if not any(is_limit(p) for p in params):
            return params
        extra = click.Option(
            ["--help-limits"],
            is_flag=True,
            expose_value=False,
            is_eager=True,
            callback=_show_limits,
            help="Show every resource limit, what it bounds and its default, and exit.",
        )
        return [*params[:-1], extra, params[-1]]  # before --help, which click appends last

    def format_options(self, ctx: click.Context, formatter: Any) -> None:
        params = self.get_params(ctx)
        limits = [p for p in params if is_limit(p)]
        with formatter.section("Options"):
            formatter.write_dl(_records(ctx, [p for p in params if isinstance(p, click.Option) and not is_limit(p)]))
        if limits:
            names = "  ".join(p.opts[0] for p in limits)  # type: ignore[attr-defined]
            width = (formatter.width or 80) - formatter.current_indent - 2
            with formatter.section(f"{_HEADING} (each has a default; --help-limits shows them)"):
                for line in textwrap.wrap(names, width, break_on_hyphens=False):  # a flag is never split
                    formatter.write_text(line)


def command(**attrs: Any) -> Callable[[Callable], click.Command]:
    """``click.command`` with a :class:`LimitsHelpCommand` help page (every ``exactdp`` command)."""
    return click.command(cls=LimitsHelpCommand, **attrs)


class Group(click.Group):
    """The ``exactdp`` group: ``lazy_commands`` maps each command's name to its
    ``"module:function"``, imported when the command is used (see the module docstring)."""

    def __init__(self, *args: Any, lazy_commands: dict[str, str], **kw: Any):
        super().__init__(*args, **kw)
        self.lazy_commands = lazy_commands

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ExactDPError as e:  # the one place a command's error becomes its last line
            fail(e)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy_commands})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in self.lazy_commands:
            self.add_command(load(self.lazy_commands[name]), name)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: Any) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(map(len, names))
        # a stand-in command with the same docstring shortens it exactly as the command would
        rows = [(n, click.Command(n, help=docstring(self.lazy_commands[n])).get_short_help_str(limit)) for n in names]
        with formatter.section("Commands"):
            formatter.write_dl(rows)
