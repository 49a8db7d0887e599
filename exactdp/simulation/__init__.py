"""Constructions with exact certificates: the Theorem 1.10 post-processor of RR_ε (``pure``),
the approximate-DP post-processor of RR_(ε,δ) by an exact LP (``approx``), Lemma 5.6 of the
continual-mechanisms paper (``lemma56``) and the Section 6 experiment (``experiment``)."""

from typing import TYPE_CHECKING

from ..lazy import attach

if TYPE_CHECKING:  # declared once; imported on first use (start-up: exactdp.lazy)
    from .common import (
        CheckResult,
        Histories,
        PostProcessor,
        enumerator_check,
        expand,
        verify_postprocessor,
    )
    from .pure import PureCertificate, pure_postprocessor

__all__ = [
    "CheckResult",
    "Histories",
    "PostProcessor",
    "PureCertificate",
    "enumerator_check",
    "expand",
    "pure_postprocessor",
    "verify_postprocessor",
]

__getattr__, __dir__ = attach(__name__, __file__)
