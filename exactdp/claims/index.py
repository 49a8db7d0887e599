"""Which module of :mod:`exactdp.claims` declares each claim kind, in the order the
case-format reference lists them: generated from the declarations by
``python -m exactdp.tools.registryindex --write`` (tests fail when it is stale).  The registry
imports a module when one of its keys is first used."""

__all__ = ["CLAIM_MODULES"]

CLAIM_MODULES: dict[str, str] = {
    "privloss": "core",
    "dp": "core",
    "not_dp": "core",
    "delta": "core",
    "profile_eq": "core",
    "profile_le": "core",
    "bounded_range": "bounded_range",
    "not_bounded_range": "bounded_range",
    "br_range": "bounded_range",
    "simulates_rr": "simulate",
    "not_simulates_rr": "simulate",
    "composition": "composition",
    "renyi": "renyi",
    "zcdp": "renyi",
    "not_zcdp": "renyi",
    "conversion": "renyi",
    "fdp": "fdp",
    "not_fdp": "fdp",
    "gdp": "fdp",
    "not_gdp": "fdp",
    "tradeoff": "fdp",
    "calibrate": "calibrate",
    "counterexample": "counterexample",
}
