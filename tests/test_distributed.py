"""Many processes: two processes joined by ``jax.distributed`` compute what one does.

tests/distributed_worker.py runs sharded global pads (``jaxpad.pad`` under ``jit`` on
an array split over a 2 x 4 mesh) and ``halo_pad`` in ``shard_map``, values and
gradients, in five modes including per-side ones. It runs three times at once: as two
processes of four CPU devices each, joined by ``jax.distributed.initialize`` with gloo
collectives (the mesh's "y" axis spans the processes), and as one process of eight
devices. The results must agree, and the one-process values must agree with
``numpy.pad``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

import jaxpad
from tests.distributed_worker import GLOBAL_PADS, HALOS, MESH_SHAPE
from tests.oracles import numpy_pad

WORKER = Path(__file__).resolve().parent / "distributed_worker.py"
# Seconds for all three processes together: start-up, compiling and the collectives
# take about 40 s on 2 loaded cores. A hang (a collective one process never joins)
# fails here instead of stalling CI.
TIMEOUT = 300


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run_workers(tmp_path: Path) -> tuple[dict, dict]:
    # Each worker sets its own device count; a forced count in XLA_FLAGS would clash.
    flags = " ".join(
        flag
        for flag in os.environ.get("XLA_FLAGS", "").split()
        if not flag.startswith("--xla_force_host_platform_device_count")
    )
    env = dict(os.environ, JAX_PLATFORMS="cpu", XLA_FLAGS=flags)
    port = _free_port()
    commands = [
        [str(tmp_path / "one.npz")],
        *(
            [str(tmp_path / "two.npz"), "--processes", "2", "--process-id", str(i)]
            + ["--port", str(port)]
            for i in range(2)
        ),
    ]
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), *command],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for command in commands
    ]
    outputs = []
    try:
        for proc in procs:
            outputs.append(proc.communicate(timeout=TIMEOUT)[0])
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    for command, proc, output in zip(commands, procs, outputs):
        assert proc.returncode == 0, f"{command}: exit {proc.returncode}\n{output[-4000:]}"
    with np.load(tmp_path / "one.npz") as one, np.load(tmp_path / "two.npz") as two:
        return dict(one), dict(two)


# Three JAX processes for about half a minute: in the full suite (pytest --all, CI).
@pytest.fixture(scope="module")
def results(tmp_path_factory):
    return _run_workers(tmp_path_factory.mktemp("distributed"))


@pytest.mark.slow
def test_two_processes_compute_what_one_process_computes(results):
    one, two = results
    assert sorted(one) == sorted(two)
    for key in one:
        if key.endswith("grad_value"):
            # A sum over the whole mesh: within one process or across two, the
            # partial sums are added in another order.
            np.testing.assert_allclose(two[key], one[key], rtol=1e-6, atol=1e-6, err_msg=key)
        else:
            np.testing.assert_array_equal(two[key], one[key], err_msg=key)


def _sides_pad(x, begin, end, mode, value):
    """numpy.pad axis by axis (the order numpy pads corners in); on an axis whose sides
    differ, each side is read from numpy.pad of that axis in the side's mode."""
    modes = [(m, m) if isinstance(m, str) else m for m in mode]
    modes = modes if len(modes) == x.ndim else modes * x.ndim
    value = 0 if value is None else value
    for axis, (lo, hi) in enumerate(zip(begin, end)):
        begins, ends = [0] * x.ndim, [0] * x.ndim
        begins[axis], ends[axis] = lo, hi
        low, high = (numpy_pad(x, begins, ends, side, value) for side in modes[axis])
        size = x.shape[axis]
        x = np.concatenate(
            [
                np.take(low, range(lo), axis=axis),
                x,
                np.take(high, range(lo + size, lo + size + hi), axis=axis),
            ],
            axis=axis,
        )
    return x


@pytest.mark.slow
def test_global_pads_match_numpy(results):
    one, _ = results
    for name, begin, end, mode, value in GLOBAL_PADS:
        expected = _sides_pad(
            one["x"], begin, end, (mode,) if isinstance(mode, str) else mode, value
        )
        np.testing.assert_array_equal(one[f"pad/{name}"], expected, err_msg=name)


@pytest.mark.slow
def test_halo_pad_blocks_are_windows_of_the_numpy_pad(results):
    one, _ = results
    x = one["x"]
    block = tuple(n // m for n, m in zip(x.shape, MESH_SHAPE))
    for name, halo, mode, value in HALOS:
        padded = _sides_pad(x, halo, halo, (mode,) if isinstance(mode, str) else mode, value)
        out_block = tuple(b + 2 * h for b, h in zip(block, halo))
        got = one[f"halo/{name}"]
        for i in range(MESH_SHAPE[0]):
            for j in range(MESH_SHAPE[1]):
                window = padded[
                    i * block[0] : i * block[0] + out_block[0],
                    j * block[1] : j * block[1] + out_block[1],
                ]
                mine = got[
                    i * out_block[0] : (i + 1) * out_block[0],
                    j * out_block[1] : (j + 1) * out_block[1],
                ]
                np.testing.assert_array_equal(mine, window, err_msg=f"{name} block {i, j}")


@pytest.mark.slow
def test_the_distributed_example_runs_as_two_processes():
    example = WORKER.parent.parent / "examples" / "distributed_heat_equation.py"
    result = subprocess.run(
        [sys.executable, str(example), "--processes", "2", "--boundary", "reflecting"],
        env=dict(os.environ, JAX_PLATFORMS="cpu"),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "2x4 mesh, 2 process(es)" in result.stdout
    assert "1040 bytes per device (halo of a block: 1040 bytes)" in result.stdout
    assert result.stdout.strip().endswith("ok")


def test_a_pad_value_gradient_in_shard_map_is_the_global_pads(eight_cpu_devices):
    # In one process, fast: the pad value's cotangent inside shard_map varies over the
    # mesh axes as the block's does (per-side modes compute it by a VJP of their own).
    mesh = jax.make_mesh(
        MESH_SHAPE, ("y", "x"), axis_types=(AxisType.Auto,) * 2, devices=eight_cpu_devices[:8]
    )
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 16)).astype(np.float32)
    halo, block = (1, 2), (4, 4)
    out_block = tuple(b + 2 * h for b, h in zip(block, halo))
    weights = rng.standard_normal((2 * out_block[0], 4 * out_block[1])).astype(np.float32)
    for mode in [(("constant", "symmetric"), "wrap"), "constant"]:

        def body(x, value, weights, mode=mode):
            out = jaxpad.halo_pad(x, halo, halo, mode, value, axis_names=("y", "x"))
            return jnp.sum(out * weights, keepdims=True)

        spec = P("y", "x")
        blocks = jax.shard_map(body, mesh=mesh, in_specs=(spec, P(), spec), out_specs=spec)

        def windows(x, value, mode=mode):
            padded = jaxpad.pad(x, halo, halo, mode, value)
            total = 0.0
            for i in range(MESH_SHAPE[0]):
                for j in range(MESH_SHAPE[1]):
                    rows = slice(i * block[0], i * block[0] + out_block[0])
                    cols = slice(j * block[1], j * block[1] + out_block[1])
                    w = weights[
                        i * out_block[0] : (i + 1) * out_block[0],
                        j * out_block[1] : (j + 1) * out_block[1],
                    ]
                    total = total + jnp.sum(padded[rows, cols] * w)
            return total

        value = np.float32(0.75)
        got = jax.jit(jax.grad(lambda x, v: jnp.sum(blocks(x, v, weights)), (0, 1)))(x, value)
        expected = jax.jit(jax.grad(windows, (0, 1)))(x, value)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5, err_msg=str(mode))
