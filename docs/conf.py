"""Sphinx configuration of the exactdp documentation (``make docs`` builds it into docs/_build/html).

The site is built offline with warnings as errors: numpydoc renders the docstrings, MyST-NB the
Markdown guides and the tutorial notebook (executed at every build, in a temporary directory,
failing the build on any error), and no page loads anything from the network (no CDN, no
external links).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import exactdp  # noqa: E402

project = "exactdp"
author = "the exactdp developers"
copyright = "the exactdp developers"
release = exactdp.__version__
version = release

# sphinx-mathjax-offline ships MathJax and points mathjax_path at the copy in _static
# myst_nb includes myst_parser (Markdown) and reads notebooks (.ipynb)
extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "sphinx-mathjax-offline", "numpydoc", "myst_nb"]
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "jupyter_execute"]

# Markdown: GitHub-style heading anchors, so `page.md#a-heading` links work as on GitHub; $...$ math
myst_heading_anchors = 4
myst_enable_extensions = ["dollarmath"]

# the tutorial notebook is stored without outputs and executed at each build (offline, local kernel)
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 600
nb_execution_in_temp = True
nb_merge_streams = True

# API reference: numpydoc sections, members in the order of each module's __all__
autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_default_options = {"members": True, "show-inheritance": True}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# offline: the theme ships its CSS and JS, MathJax comes from sphinx-mathjax-offline
html_theme = "alabaster"
html_theme_options = {"page_width": "1180px", "sidebar_width": "230px"}
html_static_path: list[str] = []
html_copy_source = False
html_show_sourcelink = False
html_show_sphinx = False


def _skip_modules(app, what, name, obj, skip, options):
    """Submodules listed in a package's ``__all__`` have their own section: not members."""
    import inspect

    return True if inspect.ismodule(obj) else None


def _public_bases(app, name, obj, options, bases):
    """The display mixin (exactdp.display.RichDisplay) is plumbing, not a base a reader needs."""
    bases[:] = [b for b in bases if getattr(b, "__name__", "") != "RichDisplay"]


def setup(app):
    app.connect("autodoc-skip-member", _skip_modules)
    app.connect("autodoc-process-bases", _public_bases)
