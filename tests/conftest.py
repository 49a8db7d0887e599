"""Settings shared by the whole test suite.

`make test` runs the suite on every usable core with pytest-xdist (``-n N --dist loadgroup``);
``pytest tests/test_x.py`` without ``-n`` runs it in one process, as before, and the suite also
runs where pytest-xdist is not installed.

- Hypothesis has no per-example deadline here: with several test processes on few cores an
  example can take longer than the default 200 ms for reasons unrelated to the code under test.
  Speed is measured in ``bench/``, never by a unit test.
- With ``--dist loadgroup`` the tests are handed to the workers one at a time, except that every
  test of a file which declares a module- or session-scoped fixture goes to the same worker:
  such a fixture is built once per worker, and split over two workers it would be built twice
  (the certified case library, the documentation site, the sdist and wheel...).  pytest-xdist's
  own ``xdist_group`` marks are still honoured where they work (with pytest 9 they do not: the
  mark renames ``item._nodeid``, which pytest 9 no longer reads).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

try:
    from hypothesis import settings
except ImportError:  # pragma: no cover - the tests that need hypothesis import it themselves
    pass
else:
    settings.register_profile("exactdp", deadline=None)
    settings.load_profile("exactdp")

SHARED_FIXTURE = re.compile(r"""@pytest\.fixture\([^)]*scope\s*=\s*["'](?:module|session)["']""")


@cache
def shares_a_fixture(path: Path) -> bool:
    """Whether the test file at ``path`` declares a module- or session-scoped fixture."""
    try:
        return SHARED_FIXTURE.search(path.read_text(encoding="utf-8")) is not None
    except OSError:  # a doctest in a package, or a file that went away: no fixture to share
        return False


try:
    from xdist.scheduler import LoadGroupScheduling
except ImportError:  # pragma: no cover - pytest-xdist is optional for running the tests
    pass
else:

    class FileGroupScheduling(LoadGroupScheduling):
        """``loadgroup``, and the tests of a file with a shared fixture form one group."""

        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)  # an xdist_group name, or the test itself
            if scope != nodeid:
                return scope
            path = nodeid.split("::", 1)[0]
            return path if shares_a_fixture(self.config.rootpath / path) else nodeid

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_make_scheduler(config, log):
        if config.getvalue("dist") == "loadgroup":
            return FileGroupScheduling(config, log)
        return None
