"""Developer tools built on the public pipeline (no analysis of their own): ``casedoc``."""

__all__ = ["casedoc"]
