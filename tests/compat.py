"""The test suite's spellings that differ between the JAX releases jaxpad supports.

The suite runs on the newest release (``.ci/run``) and on the oldest supported one
(``.ci/oldest``, pinned in ci/oldest.txt). Each name says which release lets it go;
jaxpad's own shims are in jaxpad/_compat.py.
"""

from __future__ import annotations

import re

import jax
import jax.experimental
import pytest


def _release(version: str) -> tuple[int, ...]:
    """``"0.6.2"`` -> ``(0, 6, 2)``: the leading digits of the first three parts
    (``"0.7.0rc1"`` -> ``(0, 7, 0)``, ``"0.8.0.dev20250101"`` -> ``(0, 8, 0)``)."""
    return tuple(int(re.match(r"\d*", part).group() or 0) for part in version.split(".")[:3])


JAX_RELEASE = _release(jax.__version__)

# jax.enable_x64(flag): a context manager at the top level from 0.8.0;
# jax.experimental.enable_x64(flag) before (gone from 0.10). Let go with a 0.8 floor.
# (A config state there, whose truth value raises: hence hasattr, not `or`.)
enable_x64 = jax.enable_x64 if hasattr(jax, "enable_x64") else jax.experimental.enable_x64

# jax.set_mesh(mesh) as a context manager: from 0.7.1; jax.sharding.use_mesh before
# (0.6's jax.sharding.set_mesh only sets the mesh globally). Let go with a 0.7.1 floor.
set_mesh = jax.set_mesh if hasattr(jax, "set_mesh") else jax.sharding.use_mesh


def skip_before_jax(release: str, feature: str) -> None:
    """Skips the running test on JAX releases before ``release``, which lack
    ``feature``, saying so."""
    needed = tuple(int(part) for part in release.split("."))
    if needed > JAX_RELEASE:
        pytest.skip(f"{feature} needs jax>={release}; this is jax {jax.__version__}")
