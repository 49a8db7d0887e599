"""Which module of :mod:`exactdp.forms` declares each mechanism form, in the order the
case-format reference lists them: generated from the declarations by
``python -m exactdp.tools.registryindex --write`` (tests fail when it is stale).  The registry
imports a module when one of its keys is first used."""

__all__ = ["FORM_MODULES"]

FORM_MODULES: dict[str, str] = {
    "tree": "core",
    "ask": "core",
    "respond": "core",
    "rr": "core",
    "compose": "core",
    "repeat": "core",
    "concomp": "core",
    "choose": "core",
    "automaton": "automaton",
    "exponential": "exponential",
    "permute_and_flip": "exponential",
    "grr": "exponential",
    "grr_menu": "exponential",
    "nonadaptive": "exponential",
    "krr": "classic",
    "truncated_geometric": "classic",
    "report_noisy_max": "classic",
    "concomp_ordered": "composition",
    "null_extension": "composition",
    "postprocess": "composition",
    "continual": "continual",
    "fixed_params": "continual",
    "sparse_parallel": "continual",
    "fpc_parallel": "continual",
    "budgeted": "continual",
    "budgeted_parallel": "continual",
    "mixed_budgeted": "continual",
    "filter": "continual",
    "concurrent": "continual",
    "discrete_laplace": "discrete",
    "discrete_gaussian": "discrete",
    "svt": "svt",
}
