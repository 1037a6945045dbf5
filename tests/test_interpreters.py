"""The JAX interpreters a user may put around jaxpad, beyond jit, grad and vmap (which
every test module exercises): sparsify (jaxpad/_interpreters.py), checkify,
named_scope, remat policies, pmap, custom_jvp / custom_vjp inside and outside, scan
with unrolling, jax.export round trips with symbolic shapes, make_jaxpr's printing.

The oracle of each is the same program written with ``jnp.pad`` / ``jnp.broadcast_to``
under the same interpreter. Taylor mode (jet) is tested in tests/test_jet.py, ONNX
export in tests/test_onnx_export.py.
"""

from __future__ import annotations

import re
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax import export
from jax.ad_checkpoint import checkpoint_name
from jax.experimental import checkify, sparse

import jaxpad
from tests.oracles import numpy_pad

X = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
PADS = ((2, 1), (1, 3))
WEIGHTS = np.random.default_rng(1).normal(size=(6, 8)).astype(np.float32)


def ours(x, mode="reflect"):
    return jaxpad.pad(x, *PADS, mode)


def theirs(x, mode="reflect"):
    return jnp.pad(x, tuple(zip(*PADS)), mode)


def loss(pad):
    return lambda x: (WEIGHTS * jnp.sin(pad(x)) ** 2).sum()


def assert_close(got, want, rtol=1e-5):
    for g, w in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(g, w, rtol=rtol, atol=1e-6)


# sparsify ------------------------------------------------------------------------------

SPARSE_X = X * (np.arange(12).reshape(3, 4) % 3 == 0)


@pytest.mark.parametrize("mode", ["edge", "reflect", "symmetric", "wrap"])
@pytest.mark.parametrize("pads", [PADS, ((-4, 5), (7, -2))])
def test_sparsify_pads_a_sparse_array_to_a_sparse_array(mode, pads):
    x = sparse.BCOO.fromdense(SPARSE_X)
    got = jax.jit(sparse.sparsify(lambda x: jaxpad.pad(x, *pads, mode)))(x)
    assert isinstance(got, sparse.BCOO)
    # jnp.pad of a sparse array under sparsify: the same values, sparse too.
    # numpy.pad: jnp.pad under sparsify cannot crop, and fails on edge pads wider than 1.
    np.testing.assert_array_equal(got.todense(), numpy_pad(SPARSE_X, *pads, mode))


def test_sparsify_broadcast():
    x = sparse.BCOO.fromdense(SPARSE_X)
    got = sparse.sparsify(lambda x: jaxpad.broadcast(x, (2, 3, 4)))(x)
    want = sparse.sparsify(lambda x: jnp.broadcast_to(x, (2, 3, 4)))(x)
    assert isinstance(got, sparse.BCOO)
    np.testing.assert_array_equal(got.todense(), want.todense())


def test_sparsify_dense_operands_pass_through():
    x = sparse.BCOO.fromdense(SPARSE_X)
    fn = sparse.sparsify(lambda s, d: sparse.todense(s) + jaxpad.pad(d, (0, 0), (0, 0), "wrap"))
    np.testing.assert_array_equal(fn(x, X), SPARSE_X + X)


@pytest.mark.parametrize(
    "fn,message",
    [
        (
            lambda x: jaxpad.pad(x, *PADS, "constant"),
            "jaxpad_pad has no rule for jax.experimental.sparse.sparsify with "
            "mode='constant' (only edge, reflect, symmetric, wrap); densify the operand "
            "first (jax.experimental.sparse.todense).",
        ),
        (
            lambda x: jaxpad.pad(x, *PADS, ("dirichlet", "wrap"), 1.0),
            "jaxpad_pad has no rule for jax.experimental.sparse.sparsify with mode="
            "(('dirichlet', 'dirichlet'), ('wrap', 'wrap')) (only edge, reflect, "
            "symmetric, wrap); densify the operand first (jax.experimental.sparse.todense).",
        ),
        (
            lambda x: jaxpad.dynamic_pad(x, jnp.array([1, 1]), (5, 6), "wrap"),
            "jaxpad_dynamic_pad has no rule for jax.experimental.sparse.sparsify "
            "(jaxpad.dynamic_pad); densify the operand first "
            "(jax.experimental.sparse.todense).",
        ),
    ],
    ids=["constant", "per-side", "dynamic_pad"],
)
def test_sparsify_unsupported_names_the_primitive_and_sparsify(fn, message):
    x = sparse.BCOO.fromdense(SPARSE_X)
    with pytest.raises(NotImplementedError, match=re.escape(message)):
        sparse.sparsify(fn)(x)


def test_importing_jaxpad_leaves_sparse_and_roofline_unimported():
    """The sparsify and roofline rules register when those modules are imported
    (jaxpad/_interpreters.py), so that importing jaxpad does not pay for them."""
    code = (
        "import sys, jaxpad; "
        "print(sorted(m for m in sys.modules if m.startswith(('jax.experimental.sparse', "
        "'jax.experimental.roofline'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_rules_register_at_once_when_the_module_is_already_imported():
    from jaxpad import _interpreters

    seen = []
    _interpreters._on_import("jax.experimental.sparse.transform", seen.append)
    assert [m.__name__ for m in seen] == ["jax.experimental.sparse.transform"]
    assert sparse.sparsify is not None and jaxpad.pad_p in seen[0].sparse_rules_bcoo


# checkify, named_scope ----------------------------------------------------------------


@pytest.mark.parametrize("mode", ["constant", "reflect", "wrap"])
def test_checkify_all_checks_finds_no_error(mode):
    for pad in (ours, theirs):
        err, out = checkify.checkify(jax.jit(lambda x: pad(x, mode)), checkify.all_checks)(X)
        assert err.get() is None
    np.testing.assert_array_equal(out, ours(X, mode))
    # The gradient (jaxpad_fold) too.
    err, grad = checkify.checkify(jax.grad(loss(ours)), checkify.all_checks)(X)
    assert err.get() is None
    assert_close(grad, jax.grad(loss(theirs))(X))


def test_checkify_user_check_around_a_pad():
    def fn(x):
        y = ours(x)
        checkify.check(jnp.all(jnp.isfinite(y)), "padded a non-finite value")
        return y

    err, _ = checkify.checkify(jax.jit(fn))(X)
    assert err.get() is None
    err, _ = checkify.checkify(jax.jit(fn))(jnp.asarray(X).at[0, 0].set(np.inf))
    assert "padded a non-finite value" in err.get()


def test_named_scope_reaches_the_lowered_program():
    def fn(x):
        with jax.named_scope("boundary"):
            return jaxpad.pad(x, *PADS, "wrap") * 2

    text = jax.jit(fn).lower(X).as_text(debug_info=True)
    assert "boundary" in text
    (eqn,) = [e for e in jax.make_jaxpr(fn)(X).eqns if e.primitive is jaxpad.pad_p]
    assert "boundary" in str(eqn.source_info.name_stack)


# remat ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "policy",
    [
        None,
        jax.checkpoint_policies.nothing_saveable,
        jax.checkpoint_policies.everything_saveable,
        jax.checkpoint_policies.dots_with_no_batch_dims_saveable,
        jax.checkpoint_policies.save_only_these_names("padded"),
        jax.checkpoint_policies.save_any_names_but_these("padded"),
    ],
    ids=["default", "nothing", "everything", "dots", "only_padded", "all_but_padded"],
)
def test_remat_policies(policy):
    def with_pad(pad):
        def fn(x):
            y = checkpoint_name(pad(jnp.sin(x)), "padded")
            return (WEIGHTS * jnp.cos(y) ** 2).sum()

        return jax.checkpoint(fn, policy=policy)

    assert_close(jax.grad(with_pad(ours))(X), jax.grad(with_pad(theirs))(X))
    assert_close(jax.jit(jax.grad(with_pad(ours)))(X), jax.grad(with_pad(theirs))(X))


def test_remat_saves_the_named_pad():
    """save_only_these_names keeps the pad's output as a residual: the rematerialised
    backward pass has no jaxpad_pad (only its transpose, jaxpad_fold)."""

    def fn(x):
        y = checkpoint_name(ours(jnp.sin(x)), "padded")
        return (WEIGHTS * jnp.cos(y) ** 2).sum()

    def count_pads(policy):
        jaxpr = jax.make_jaxpr(jax.grad(jax.checkpoint(fn, policy=policy)))(X)
        return str(jaxpr).count("jaxpad_pad[")

    assert count_pads(jax.checkpoint_policies.save_only_these_names("padded")) == 1
    assert count_pads(jax.checkpoint_policies.nothing_saveable) == 2


# pmap ----------------------------------------------------------------------------------


def test_pmap_over_the_local_devices():
    n = jax.local_device_count()
    xs = np.stack([X + k for k in range(n)])
    assert_close(jax.pmap(ours)(xs), jax.vmap(theirs)(xs))
    assert_close(jax.pmap(jax.grad(loss(ours)))(xs), jax.vmap(jax.grad(loss(theirs)))(xs))
    values = np.arange(n, dtype=np.float32)
    got = jax.pmap(lambda x, v: jaxpad.pad(x, *PADS, "constant", v))(xs, values)
    want = jax.vmap(lambda x, v: jnp.pad(x, tuple(zip(*PADS)), constant_values=v))(xs, values)
    assert_close(got, want)


# custom_jvp / custom_vjp -----------------------------------------------------------------


def test_custom_jvp_calling_jaxpad_inside():
    def make(pad):
        @jax.custom_jvp
        def f(x):
            return jnp.sin(pad(x))

        @f.defjvp
        def f_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            y = pad(x)
            return jnp.sin(y), jnp.cos(y) * pad(t)

        return lambda x: (WEIGHTS * f(x) ** 2).sum()

    assert_close(jax.grad(make(ours))(X), jax.grad(make(theirs))(X))
    assert_close(jax.jacfwd(jax.grad(make(ours)))(X), jax.jacfwd(jax.grad(make(theirs)))(X))


def test_custom_vjp_whose_backward_uses_the_fold():
    """A custom_vjp pad whose backward pass is jaxpad's own VJP (jaxpad_fold)."""

    @jax.custom_vjp
    def padded(x):
        return ours(x)

    def fwd(x):
        return ours(x), None

    def bwd(_, t):
        return jax.vjp(ours, X)[1](t)

    padded.defvjp(fwd, bwd)
    assert_close(jax.grad(loss(padded))(X), jax.grad(loss(theirs))(X))


def test_jaxpad_around_custom_rules():
    """jaxpad applied to the output of custom_jvp / custom_vjp functions (outside)."""
    safe_log = jax.custom_jvp(jnp.log)
    safe_log.defjvp(lambda p, t: (jnp.log(p[0]), t[0] / p[0]))

    @jax.custom_vjp
    def clip_grad(x):
        return x

    clip_grad.defvjp(lambda x: (x, None), lambda _, t: (jnp.clip(t, -0.1, 0.1),))

    def fn(pad):
        return lambda x: (WEIGHTS * pad(clip_grad(safe_log(x**2 + 1)))).sum()

    assert_close(jax.grad(fn(ours))(X), jax.grad(fn(theirs))(X))
    assert_close(jax.jit(jax.vmap(jax.grad(fn(ours))))(X[None]), jax.grad(fn(theirs))(X)[None])


# scan ------------------------------------------------------------------------------------


@pytest.mark.parametrize("unroll", [2, True])
def test_scan_unrolled_heat_steps(unroll):
    def simulate(pad):
        def step(u, _):
            p = pad(u)
            lap = p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:] - 4 * u
            return u + 0.1 * lap, u.sum()

        def run(u):
            u, sums = jax.lax.scan(step, u, None, length=5, unroll=unroll)
            return (u**2).sum() + sums.sum()

        return run

    ring = lambda u: jaxpad.pad(u, (1, 1), (1, 1), "wrap")  # noqa: E731
    ring_jnp = lambda u: jnp.pad(u, 1, "wrap")  # noqa: E731
    assert_close(jax.jit(simulate(ring))(X), simulate(ring_jnp)(X))
    assert_close(jax.grad(simulate(ring))(X), jax.grad(simulate(ring_jnp))(X), rtol=1e-4)


# jax.export --------------------------------------------------------------------------------


SIDED = (("dirichlet", "edge"), "wrap")


@pytest.mark.parametrize("mode", ["constant", "reflect", SIDED])
def test_export_round_trip_with_symbolic_shapes(mode):
    value = None if mode in ("reflect", "wrap") else 0.5

    def fn(x):
        full = mode if isinstance(mode, str) else ("constant", *mode)
        return jaxpad.pad(x, (0, 2, 1), (0, 1, 3), full, value)

    def oracle(x):
        if isinstance(mode, str):
            kwargs = {"constant_values": value} if mode == "constant" else {}
            return jnp.pad(x, ((0, 0), (2, 1), (1, 3)), mode, **kwargs)
        # Per-side modes: jaxpad's own pad of each example (tests/test_sides.py checks
        # it against numpy), exported against not exported.
        return jax.vmap(lambda x: jaxpad.pad(x, (2, 1), (1, 3), mode, value))(x)

    # Per-side modes need concrete sizes on their padded axes.
    if isinstance(mode, str):
        dims = export.symbolic_shape("b, n, 4", constraints=["n >= 4"])
    else:
        dims = export.symbolic_shape("b, 5, 4")
    spec = jax.ShapeDtypeStruct(dims, np.float32)
    exported = export.export(jax.jit(fn))(spec)
    restored = export.deserialize(exported.serialize(vjp_order=1))
    # The oracle and its VJP jitted, one program per shape each (eagerly, a compile per
    # primitive and shape).
    oracle_value = jax.jit(oracle)
    oracle_vjp = jax.jit(lambda x, t: jax.vjp(oracle, x)[1](t))
    for shape in [(1, 5, 4), (3, 5, 4)] + ([(2, 7, 4)] if isinstance(mode, str) else []):
        x = np.random.default_rng(sum(shape)).normal(size=shape).astype(np.float32)
        assert_close(restored.call(x), oracle_value(x))
        t = np.random.default_rng(1).normal(size=jax.eval_shape(fn, x).shape).astype(np.float32)
        assert_close(restored.vjp().call(x, t), oracle_vjp(x, t))


# roofline ----------------------------------------------------------------------------------


def test_roofline_counts_the_bytes_each_primitive_moves():
    from jax.experimental import roofline

    x = jnp.asarray(X)
    _, result = roofline.roofline(ours)(x)
    # x read, the pad value read, the (6, 8) output written: float32 each.
    assert result.unfused_hbm_bytes == 4 * (12 + 1 + 48)
    _, result = roofline.roofline(jax.grad(lambda x: ours(x).sum()))(x)
    # The fold adds each of the 48 cotangent elements once, reading them and writing x.
    assert result.unfused_flops == 48
    assert result.unfused_hbm_bytes >= 4 * (48 + 12)
    _, result = roofline.roofline(lambda x: jaxpad.broadcast(x, (2, 3, 4)))(x)
    assert result.unfused_hbm_bytes == 4 * (12 + 24)


# make_jaxpr ------------------------------------------------------------------------------


def test_make_jaxpr_prints_the_parameters():
    text = str(jax.make_jaxpr(lambda x: jaxpad.pad(x, (1, 2), (2, 1), "reflect"))(X))
    assert re.search(
        r"f32\[6,7\] = jaxpad_pad\[\s+interior=\(0, 0\)\s+mode=reflect\s+"
        r"pads_begin=\(1, 2\)\s+pads_end=\(2, 1\)\s+\] a",
        text,
    ), text
    text = str(jax.make_jaxpr(jax.grad(loss(ours)))(X))
    assert "jaxpad_fold[" in text and "operand_shape=(3, 4)" in text
    text = str(jax.make_jaxpr(lambda x, p: jaxpad.dynamic_pad(x, p, (5, 6), "wrap"))(X, [1, 2]))
    assert "jaxpad_dynamic_pad[" in text and "shape=(5, 6)" in text and "mode=wrap" in text
    text = str(jax.make_jaxpr(lambda x: jaxpad.broadcast(x, (2, 3, 4)))(X))
    assert "jaxpad_broadcast[" in text and "target_shape=(2, 3, 4)" in text
