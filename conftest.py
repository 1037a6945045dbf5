"""Skips the optional integration modules' doctests when their framework is not
installed (``pip install -e ".[flax,equinox,onnx]"`` runs them); their tests skip
themselves."""

import importlib.util

_OPTIONAL = {"flax": "flax", "equinox": "equinox", "onnx": "jax2onnx"}

collect_ignore = [
    f"jaxpad/{module}.py"
    for module, package in _OPTIONAL.items()
    if importlib.util.find_spec(package) is None
]
