"""Tests for jaxpad/_checks.py: the shared argument checks, called directly."""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from jaxpad import _checks
from jaxpad._index_maps import MODES as INDEX_MAP_MODES


def error(kind, text):
    return pytest.raises(kind, match=re.escape(text))


# pad_value_operand ------------------------------------------------------------------


@pytest.mark.parametrize(
    "pad_value,dtype",
    [
        (None, np.float32),
        (1, np.float32),
        (2.5, np.int32),
        (True, np.float32),
        (np.float64(-3.25), np.float16),
        (np.array(7, np.int8), np.float32),
        (jnp.array(1.5, jnp.bfloat16), np.float32),
        (1 + 2j, np.complex64),
        (-1, np.uint8),
    ],
)
def test_pad_value_operand_is_a_scalar_of_the_dtype(pad_value, dtype):
    got = _checks.pad_value_operand("f", pad_value, "constant", dtype)
    # The oracle: what lax.pad does with the same value and dtype.
    expected = jax.lax.pad(
        jnp.zeros(0, dtype),
        jax.lax.convert_element_type(0 if pad_value is None else pad_value, dtype),
        [(1, 0, 0)],
    )[0]
    assert np.shape(got) == () and np.dtype(got.dtype) == np.dtype(dtype)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


@pytest.mark.parametrize("mode", [m for m in _checks.MODES if m != "constant"])
def test_pad_value_operand_other_modes_give_zero(mode):
    got = _checks.pad_value_operand("f", None, mode, np.int16)
    assert got.dtype == np.int16 and got == 0


def test_pad_value_operand_accepts_a_traced_scalar():
    out = jax.jit(lambda v: _checks.pad_value_operand("f", v, "constant", jnp.float32))(3)
    assert out.dtype == jnp.float32 and out == 3.0


@pytest.mark.parametrize("value", ["1", b"1", "nan"])
def test_error_pad_value_string(value):
    with error(TypeError, f"jaxpad.pad: pad_value must be a number; got {value!r}."):
        _checks.pad_value_operand("jaxpad.pad", value, "constant", np.float32)


@pytest.mark.parametrize("value", [object(), np.array("a"), np.array(None, dtype=object)])
def test_error_pad_value_not_numeric(value):
    with error(TypeError, "jaxpad.pad: pad_value must be a number; got "):
        _checks.pad_value_operand("jaxpad.pad", value, "constant", np.float32)


def test_error_pad_value_names_the_callers_argument():
    with error(
        TypeError,
        "jaxpad.numpy.pad: constant_values must be a number; got '1'.",
    ):
        _checks.pad_value_operand(
            "jaxpad.numpy.pad", "1", "constant", np.float32, arg_name="constant_values"
        )
    with error(
        TypeError,
        "jaxpad.numpy.pad: a complex constant_values would lose its imaginary part in "
        "array's dtype float32; got an array of shape () and dtype complex64.",
    ):
        _checks.pad_value_operand(
            "jaxpad.numpy.pad",
            1j,
            "constant",
            np.float32,
            arg_name="constant_values",
            input_name="array",
        )


def test_error_pad_value_with_a_mode_that_never_reads_it():
    with error(
        ValueError,
        "jaxpad.pad: pad_value is only used by mode='constant'; got pad_value=0.0 with "
        "mode='edge'.",
    ):
        _checks.pad_value_operand("jaxpad.pad", 0.0, "edge", np.float32)


def test_error_pad_value_not_a_scalar():
    with error(ValueError, "jaxpad.pad: pad_value must be a scalar; got shape (2,)."):
        _checks.pad_value_operand("jaxpad.pad", [1, 2], "constant", np.float32)


def test_error_pad_value_complex_for_real_dtype():
    with error(
        TypeError,
        "jaxpad.pad: a complex pad_value would lose its imaginary part in x's dtype float32; "
        "got an array of shape () and dtype complex64.",
    ):
        _checks.pad_value_operand("jaxpad.pad", 1j, "constant", np.float32)


def test_modes_is_the_one_definition():
    assert _checks.MODES == INDEX_MAP_MODES
