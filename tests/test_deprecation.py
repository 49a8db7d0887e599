"""warn_deprecated: one helper, a DeprecationWarning subclass, a message that says what to
write instead, since when, and when it goes away; exactdp's test suite turns it into an error."""

from __future__ import annotations

import subprocess
import sys

import pytest

from exactdp.deprecation import REMOVAL, ExactDPDeprecationWarning, warn_deprecated


def _old_api() -> None:
    warn_deprecated("old_api() is deprecated; write new_api() instead", since="0.1.0")


def test_message_class_and_location():
    with pytest.warns(ExactDPDeprecationWarning) as rec:
        _old_api()
    (w,) = rec
    assert issubclass(w.category, DeprecationWarning)
    assert (
        str(w.message)
        == f"old_api() is deprecated; write new_api() instead (deprecated since exactdp 0.1.0; it will be removed in {REMOVAL})"
    )
    assert w.filename == __file__  # the caller of the deprecated function, not exactdp


def test_the_test_suite_makes_it_an_error():
    """pyproject's filterwarnings: a deprecated call left anywhere in exactdp or its tests fails."""
    with pytest.raises(ExactDPDeprecationWarning):
        _old_api()


def test_visible_by_default_in_scripts():
    code = "import exactdp; exactdp.rr(3)"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "ExactDPDeprecationWarning" in p.stderr and 'rr(eps="log(3)"' in p.stderr
    strict = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", code], capture_output=True, text=True
    )
    assert strict.returncode != 0 and "ExactDPDeprecationWarning" in strict.stderr
