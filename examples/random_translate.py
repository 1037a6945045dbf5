"""Random-translate augmentation, a different offset per image, in a jitted training step.

    python examples/random_translate.py

Each image of the batch is shifted by its own random offset with reflected borders
(``jaxpad.dynamic_pad`` under ``vmap``), then a small convolutional classifier takes
an SGD step on the augmented batch; augmentation, forward, gradient and update are
one jitted function. The task: tell horizontal from vertical bars at any position.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import jaxpad

SIZE, MAX_SHIFT = 16, 4


def random_translate(images, key):
    """Shifts each (H, W, C) image by its own offset in [-MAX_SHIFT, MAX_SHIFT], reflecting."""
    shifts = jax.random.randint(key, (images.shape[0], 2), -MAX_SHIFT, MAX_SHIFT + 1)

    def one(image, shift):
        # Python 0 for the channel axis: static, so that axis costs nothing.
        return jaxpad.dynamic_pad(image, (shift[0], shift[1], 0), image.shape, "reflect")

    return jax.vmap(one)(images, shifts), shifts


def make_data(rng, count):
    labels = rng.integers(0, 2, count)
    images = np.zeros((count, SIZE, SIZE, 1), np.float32)
    for image, label, where in zip(images, labels, rng.integers(2, SIZE - 2, count)):
        if label:
            image[:, where - 1 : where + 1] = 1.0
        else:
            image[where - 1 : where + 1, :] = 1.0
    images += 0.1 * rng.normal(size=images.shape).astype(np.float32)
    return jnp.asarray(images), jnp.asarray(labels)


def init(key):
    k1, k2 = jax.random.split(key)
    return {
        "conv": 0.3 * jax.random.normal(k1, (3, 3, 1, 8)),
        "dense": 0.3 * jax.random.normal(k2, (8, 2)),
    }


def logits(params, images):
    features = jax.lax.conv_general_dilated(
        images, params["conv"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
    )
    return jnp.abs(features).mean(axis=(1, 2)) @ params["dense"]


def loss_fn(params, images, labels):
    log_probs = jax.nn.log_softmax(logits(params, images))
    return -jnp.take_along_axis(log_probs, labels[:, None], axis=1).mean()


@jax.jit
def train_step(params, images, labels, key):
    augmented, _ = random_translate(images, key)
    loss, grads = jax.value_and_grad(loss_fn)(params, augmented, labels)
    params = jax.tree.map(lambda p, g: p - 0.5 * g, params, grads)
    return params, loss


def main() -> None:
    rng = np.random.default_rng(0)
    images, labels = make_data(rng, 64)

    # The augmentation is exactly a static pad per image, with that image's offsets.
    augmented, shifts = jax.jit(random_translate)(images, jax.random.key(1))
    for image, out, (dy, dx) in zip(images[:8], augmented, np.asarray(shifts)):
        expected = jaxpad.pad(image, [dy, dx, 0], [-dy, -dx, 0], "reflect")
        assert np.array_equal(out, expected)
    print(f"per-image offsets of the first 4 images: {np.asarray(shifts[:4]).tolist()}")

    params = init(jax.random.key(0))
    key = jax.random.key(2)
    for step in range(151):
        key, subkey = jax.random.split(key)
        params, loss = train_step(params, images, labels, subkey)
        if step % 50 == 0:
            print(f"step {step:3d}: loss {float(loss):.3f}")
    test_images, test_labels = make_data(np.random.default_rng(1), 256)
    accuracy = float((logits(params, test_images).argmax(-1) == test_labels).mean())
    print(f"held-out accuracy: {accuracy:.2f}")
    assert accuracy > 0.9, accuracy
    print("ok")


if __name__ == "__main__":
    main()
