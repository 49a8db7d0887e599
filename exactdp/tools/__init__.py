"""Developer tools built on the public pipeline (no analysis of their own): ``casedoc``, ``formatdoc``."""

__all__ = ["casedoc", "formatdoc"]
