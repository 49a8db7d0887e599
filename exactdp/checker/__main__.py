"""``python -m exactdp.checker ...``, or ``python -I -S checker ...``: this folder on its own."""

import sys

if __package__:
    from . import main
else:  # run as a folder: load it as the package "checker" (its modules import one another relatively)
    import importlib.util
    import os

    _here = os.path.dirname(os.path.abspath(__file__))
    _spec = importlib.util.spec_from_file_location(
        "checker", os.path.join(_here, "__init__.py"), submodule_search_locations=[_here]
    )
    assert _spec is not None and _spec.loader is not None
    _package = importlib.util.module_from_spec(_spec)
    sys.modules["checker"] = _package
    _spec.loader.exec_module(_package)
    main = _package.main

sys.exit(main())
