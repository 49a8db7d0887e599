"""Settings shared by the whole test suite.

`make test` runs the suite on every usable core with pytest-xdist (``-n N --dist loadgroup``);
``pytest tests/test_x.py`` without ``-n`` runs it in one process, as before, and the suite also
runs where pytest-xdist is not installed.

- Hypothesis has no per-example deadline here: with several test processes on few cores an
  example can take longer than the default 200 ms for reasons unrelated to the code under test.
  Speed is measured in ``bench/``, never by a unit test.
- ``xdist_group("name")`` keeps the tests of one file on one worker where they share an expensive
  module- or session-scoped fixture (built once per worker: splitting the file would build it
  twice).  The mark is registered here too, so that it is known without pytest-xdist.
"""

from __future__ import annotations

try:
    from hypothesis import settings
except ImportError:  # pragma: no cover - the tests that need hypothesis import it themselves
    pass
else:
    settings.register_profile("exactdp", deadline=None)
    settings.load_profile("exactdp")


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "xdist_group(name): run these tests on one pytest-xdist worker (a shared expensive fixture)"
    )
