"""Help pages with the resource limits in a section of their own (``--help-limits`` shows each).

Every command that reads case files accepts every resource limit as a flag (sixteen of them:
``--timeout``, ``--max-memory`` and the ``--max-*`` options, see :mod:`exactdp.limits`).
Listed with the other options they made ``verify --help`` long and hid what a reader looks for,
so ``--help`` names them in one short section, and ``--help-limits`` prints that section in
full: each limit, what it bounds and its default.
"""

from __future__ import annotations

import textwrap
from typing import Any

import click

__all__ = ["LimitsHelpCommand", "Group", "is_limit"]

_HEADING = "Resource limits"


def is_limit(param: click.Parameter) -> bool:
    """A resource limit is an option named ``--timeout`` or ``--max-*`` (every one has a default,
    a flag and an error naming it)."""
    name = param.name or ""
    return isinstance(param, click.Option) and (name == "timeout" or name.startswith("max_"))


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


class Group(click.Group):
    """The ``exactdp`` group: its commands get :class:`LimitsHelpCommand` help pages."""

    command_class = LimitsHelpCommand
