"""The package's metadata agrees with itself: version, license, changelog.

CI runs these against the installed wheel (see .ci/run), where the metadata is the
wheel's; from an editable install it is the one the last `pip install -e` wrote.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.version import Version

import jaxpad

ROOT = Path(__file__).resolve().parent.parent


def pyproject() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)


def test_version_is_a_release_version_single_sourced_from_the_package():
    version = Version(jaxpad.__version__)
    assert str(version) == jaxpad.__version__
    project = pyproject()["project"]
    assert "version" not in project and "version" in project["dynamic"]
    dynamic = pyproject()["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "jaxpad.__version__"}


def test_installed_metadata_has_the_package_version():
    try:
        installed = importlib.metadata.version("jaxpad")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("jaxpad is imported from a checkout that is not installed")
    assert installed == jaxpad.__version__


def test_changelog_has_an_entry_for_the_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## (\S+)", changelog, flags=re.MULTILINE)
    assert jaxpad.__version__ in headings


def test_license_file_is_the_license_pyproject_declares():
    project = pyproject()["project"]
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
    # A License :: classifier next to an SPDX expression is rejected by setuptools.
    assert not any(c.startswith("License ::") for c in project["classifiers"])
