"""Right-align variable-length sequences in a batch: one dynamic_pad per row, under vmap.

    python examples/left_pad_sequences.py

Decoder-only language models batch prompts of different lengths left-padded, so that
every prompt ends at the last position and the next token is generated for all of
them at once. Tokenizers usually hand over the batch right-padded. Moving each row
right by its own amount (length of the batch minus length of the row) is a
per-example pad: ``jaxpad.dynamic_pad(row, [L - length], (L,))``, vmapped.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad

PAD_ID = 0


@jax.jit
def left_pad(tokens, lengths):
    """Moves each row's first ``lengths[i]`` tokens to the end of the row."""
    width = tokens.shape[1]

    def one(row, length):
        return jaxpad.dynamic_pad(row, [width - length], (width,), pad_value=PAD_ID)

    return jax.vmap(one)(tokens, lengths)


@jax.jit
def last_token_embeddings(table, tokens, lengths):
    """Embeds, right-aligns the embedded rows, and returns each prompt's last vector."""
    embedded = table[tokens]  # (batch, width, features)
    width = tokens.shape[1]

    def one(rows, length):
        # A traced shift on the sequence axis, a static 0 on the feature axis.
        return jaxpad.dynamic_pad(rows, (width - length, 0), rows.shape)

    return jax.vmap(one)(embedded, lengths)[:, -1]


def main() -> None:
    rng = np.random.default_rng(0)
    prompts = [rng.integers(1, 100, size=n) for n in (5, 2, 8, 1, 6)]
    width = max(len(p) for p in prompts)
    right_padded = np.zeros((len(prompts), width), np.int32)
    for row, prompt in zip(right_padded, prompts):
        row[: len(prompt)] = prompt
    lengths = np.array([len(p) for p in prompts], np.int32)

    aligned = np.asarray(left_pad(jnp.asarray(right_padded), jnp.asarray(lengths)))
    print("right-padded (as tokenized):")
    print(right_padded)
    print("left-padded (each row moved by its own amount):")
    print(aligned)
    for row, prompt in zip(aligned, prompts):
        assert np.array_equal(row, np.pad(prompt, (width - len(prompt), 0)))
    print(f"last tokens: {aligned[:, -1].tolist()}")

    # Gradients flow back through the per-row shift (dynamic_pad's fold) to the table.
    table = jnp.asarray(rng.normal(size=(100, 4)).astype(np.float32))
    grad = jax.grad(lambda t: last_token_embeddings(t, right_padded, lengths).sum())(table)
    touched = sorted(int(i) for i in np.flatnonzero(np.abs(np.asarray(grad)).sum(axis=1)))
    assert touched == sorted(set(int(p[-1]) for p in prompts)), touched
    print(f"embedding rows that get a gradient: {touched}")
    print("ok")


if __name__ == "__main__":
    main()
