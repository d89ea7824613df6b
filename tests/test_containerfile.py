"""The Containerfile agrees with the project: the CLI it installs is the SDK's version, it copies every package
and data file the program reads, and nothing is left to install when a pod starts."""

from __future__ import annotations

import re
import tomllib

from .conftest import PROJECT_ROOT

CONTAINERFILE = (PROJECT_ROOT / "Containerfile").read_text()


def _arg(name: str) -> str:
    match = re.search(rf"^ARG {name}=(\S+)$", CONTAINERFILE, re.MULTILINE)
    assert match, name
    return match.group(1)


def test_the_cli_is_the_pinned_sdks_version() -> None:
    pins = dict(line.split("==") for line in (PROJECT_ROOT / "requirements.txt").read_text().split() if "==" in line)
    assert _arg("PULUMI_VERSION") == pins["pulumi"]


def test_the_python_is_one_the_project_supports() -> None:
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]
    minimum = tuple(int(p) for p in project["requires-python"].removeprefix(">=").split("."))
    version = re.search(r":(\d+)\.(\d+)\.\d+-slim", _arg("PYTHON_IMAGE"))
    assert version and (int(version.group(1)), int(version.group(2))) >= minimum


def test_every_package_and_file_the_program_reads_is_copied() -> None:
    found = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    packages = {pattern.rstrip("*") for pattern in found["include"]}
    copied = {
        source
        for line in re.findall(r"^COPY (.+)$", CONTAINERFILE, re.MULTILINE)
        for source in line.split()[:-1]
        if not source.startswith("--")
    }
    needed = {*packages, "schemas", "sdks", "requirements.txt", "Pulumi.yaml", "Pulumi.*.yaml", "__main__.py"}
    assert needed <= copied, needed - copied
    # Every source exists: a COPY of a folder that moved away fails the build.
    missing = [source for source in copied if "--from" not in source and not list(PROJECT_ROOT.glob(source))]
    assert missing == [], missing
    assert "pulumi install" in CONTAINERFILE


def test_the_image_runs_as_a_non_root_user_and_pip_cannot_reach_an_index_at_pod_start() -> None:
    assert re.search(r"^USER 1000:0$", CONTAINERFILE, re.MULTILINE)
    assert "PIP_NO_INDEX=1" in CONTAINERFILE
    assert "sha256sum -c" in CONTAINERFILE  # the CLI is checked against the release's checksums


def test_the_base_image_is_pinned_by_digest() -> None:
    """A tag moves when it is rebuilt; a digest names the bytes a sweep ran on."""
    assert re.fullmatch(r"docker\.io/library/python:\d+\.\d+\.\d+-slim-\w+@sha256:[0-9a-f]{64}", _arg("PYTHON_IMAGE"))
    assert re.search(r"^FROM \$\{PYTHON_IMAGE\}$", CONTAINERFILE, re.MULTILINE)


def test_the_program_is_read_only_to_the_pods() -> None:
    """The pods run as uid 1000 (or OpenShift's arbitrary uid) in group 0: nothing of /app may be writable
    by that group but the stack settings files, and /app itself only with the sticky bit."""
    commands = " && ".join(re.findall(r"^(?:RUN| &&) (.+?)(?: \\)?$", CONTAINERFILE, re.MULTILINE))
    assert not re.search(r"chmod -R g[=+][uw]?\S* [^&]*/app\b", commands), commands
    assert not re.search(r"chown -R [^&]*/app\b", commands)
    assert "chmod -R go-w /app" in commands and "chmod 1775 /app" in commands
    assert "chmod g+w /app/Pulumi.*.yaml" in commands
