"""The platform benchmark (benchmarks/platform.py): its rules on made-up results, the
files it writes, and its sections on tiny cases."""

from __future__ import annotations

import json

import jax
import pytest

from benchmarks import cases
from benchmarks import platform as bench


def _forms_row(mode, concatenate, gather, control=1.0, fold=None, fold_pick="boxes"):
    return {
        "case": f"tiny {mode}",
        "config": f"{mode} tiny (8, 9) pads 1/1, 0",
        "mode": mode,
        "forward_pick": "concatenate",
        "fold_pick": fold_pick,
        "forward": {"concatenate": concatenate, "gather": gather},
        "fold": fold or {"one_sum": 1.0, "boxes": 1.0, "bands": 1.0},
        "control": {"fwd": control, "vjp": control},
    }


def _result(forms=(), conv=()):
    return {
        "platform": "gpu",
        "device": "made-up-device",
        "device_kind": "Made-up Device",
        "machine": "test",
        "jax": jax.__version__,
        "malloc": "system",
        "quick": True,
        "rounds": 1,
        "load_at_start": "load average 0",
        "load_at_end": "load average 0",
        "seconds": 1.0,
        "sections": {"forms": list(forms), "conv": list(conv)},
    }


def _rule(rules, name):
    (rule,) = [r for r in rules if r["rule"] == name]
    return rule


def test_a_gather_twice_as_fast_everywhere_changes_the_forward_rule():
    rows = [_forms_row(mode, 1.0, 0.5) for mode in ("reflect", "wrap", "edge")]
    rules = bench.decide(_result(rows))
    assert _rule(rules, "forward form")["verdict"] == "change"
    assert _rule(rules, "forward form, wrap")["verdict"] == "change"
    assert "gather" in _rule(rules, "forward form")["proposal"]


@pytest.mark.parametrize(
    "gather, control",
    [
        (1.0, 1.0),  # equal
        (1.3, 1.0),  # slower
        (0.95, 1.0),  # faster, within the margin
        (0.7, 1.6),  # faster, but the control moved more
    ],
)
def test_the_forward_rule_is_kept_unless_the_other_form_wins_beyond_the_noise(gather, control):
    rows = [_forms_row(mode, 1.0, gather, control) for mode in ("reflect", "wrap")]
    rules = bench.decide(_result(rows))
    assert {r["verdict"] for r in rules if r["rule"].startswith("forward form")} == {"keep"}


def test_one_fast_case_of_three_does_not_change_a_rule():
    rows = [_forms_row("reflect", 1.0, g) for g in (0.3, 1.0, 1.1)]
    assert _rule(bench.decide(_result(rows)), "forward form")["verdict"] == "keep"


def test_the_fold_rule_names_the_configuration_another_form_wins():
    slow_pick = _forms_row("wrap", 1.0, 1.0, fold={"one_sum": 2.0, "boxes": 1.0, "bands": 0.5})
    fine = _forms_row("reflect", 1.0, 1.0, fold={"one_sum": 1.0, "boxes": 1.0, "bands": 0.98})
    rule = _rule(bench.decide(_result([slow_pick, fine])), "fold form")
    assert rule["verdict"] == "change"
    assert slow_pick["config"] in rule["measured"] and fine["config"] not in rule["measured"]
    assert "bands 0.50x boxes" in rule["measured"]
    rule = _rule(bench.decide(_result([fine])), "fold form")
    assert rule["verdict"] == "keep"


def test_the_conv_rule_compares_the_planner_with_a_pad_then_a_valid_conv():
    def row(jaxpad, plain):
        ratios = {"zero2": 1.0, "jnp.pad": plain, "plain": plain, "jaxpad": jaxpad}
        return {
            "layer": "2d",
            "mode": "reflect",
            **{f"{k} {w} / zero": v for k, v in ratios.items() for w in ("fwd", "grad")},
        }

    assert _rule(bench.decide(_result(conv=[row(1.0, 1.5)])), "conv planner")["verdict"] == "keep"
    assert _rule(bench.decide(_result(conv=[row(2.0, 1.0)])), "conv planner")["verdict"] == (
        "change"
    )


def test_write_names_the_files_by_platform_and_device(tmp_path):
    result = _result([_forms_row("wrap", 1.0, 0.5)])
    result["rules"] = bench.decide(result)
    json_path, md_path = bench.write(result, tmp_path / "results")
    assert json_path.name == "gpu-made-up-device-quick.json"
    assert md_path.name == "gpu-made-up-device-quick.md"
    assert json.loads(json_path.read_text())["rules"] == result["rules"]
    page = md_path.read_text()
    assert page.startswith("# jaxpad on gpu (Made-up Device)")
    for rule in result["rules"]:
        assert f"- rule {rule['rule']}: **{rule['verdict']}**" in page
    assert "| tiny wrap | wrap tiny (8, 9) pads 1/1, 0 | concatenate | boxes |" in page


def test_device_name_is_a_file_name():
    platform, device = bench.device_name()
    assert platform == jax.devices()[0].platform
    assert device and all(c.isalnum() or c == "-" for c in device)


def test_the_forms_and_fused_sections_run_on_tiny_cases():
    # measure_forms checks every form it builds against jaxpad.pad, and run_case
    # every fused program against jnp.pad's, before timing anything.
    config = cases.SweepConfig((8, 9), (1, 0), (2, 0), "reflect", "tiny")
    (row,) = bench.forms_section([("tiny", config)], rounds=1, calls=1, with_sweep=True)
    assert set(row["forward"]) == {"concatenate", "gather"}
    assert set(row["fold"]) == {"one_sum", "boxes", "bands"}
    assert row["forward_pick"] in row["forward"] and row["fold_pick"] in row["fold"]
    assert row["sweep"]["fwd_over_jnp"] > 0
    (fused,) = bench.fused_section([("stencil5", 16)], ("wrap",), rounds=1, calls=1)
    assert fused["gather fwd / jnp.pad"] > 0 and fused["jaxpad grad / jnp.pad"] > 0
    rules = bench.decide({"platform": "cpu", "sections": {"forms": [row], "fused": [fused]}})
    assert {r["rule"] for r in rules} >= {"forward form", "fold form"}


def test_a_run_of_some_sections_names_them_and_records_a_failed_one(tmp_path):
    result = _result()
    result["asked"] = ["fused", "conv"]
    result["errors"] = {"conv": "AssertionError: not close"}
    result["rules"] = bench.decide(result)
    json_path, md_path = bench.write(result, tmp_path)
    assert json_path.name == "gpu-made-up-device-fused-conv-quick.json"
    assert "- section conv failed: `AssertionError: not close`" in md_path.read_text()
