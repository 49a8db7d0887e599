"""Sphinx configuration of the exactdp documentation (``make docs`` builds it into docs/_build/html).

The site is built offline with warnings as errors: numpydoc renders the docstrings, myst-parser
the Markdown guides, and no page loads anything from the network (no CDN, no external links).
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
extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "sphinx-mathjax-offline", "numpydoc", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]

# Markdown: GitHub-style heading anchors, so `page.md#a-heading` links work as on GitHub
myst_heading_anchors = 4

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


def setup(app):
    app.connect("autodoc-skip-member", _skip_modules)
