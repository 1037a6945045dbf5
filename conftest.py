"""Skips the optional layer modules' doctests when their framework is not installed
(``pip install -e ".[flax,equinox]"`` runs them); their tests skip themselves."""

import importlib.util

collect_ignore = [
    f"jaxpad/{name}.py" for name in ("flax", "equinox") if importlib.util.find_spec(name) is None
]
