"""``gpu-cluster init``: a Pulumi project of the user's own that runs this package's program.

The project is three files: ``Pulumi.yaml`` (this project's, its name kept: the stack files' keys are
``gpu-cluster:...``), a two-line ``__main__.py`` and one shipped stack file to edit. The shipped stacks are
the checkout's own, or, installed from a wheel, ``<prefix>/share/gpu-cluster`` (pyproject.toml's data-files).
"""

from __future__ import annotations

import os
import sys
import sysconfig
from pathlib import Path

import yaml

from components.models.config import PROJECT
from experiments.base.errors import InputError
from experiments.base.paths import PROJECT_ROOT

__all__ = ["MAIN_PY", "init_project", "shipped_dir", "shipped_stacks"]

MAIN_PY = """from components import pulumi_program

pulumi_program()
"""
"""The whole program: the one every stack of this package runs, reading the stack's config."""

SHARE = Path("share") / "gpu-cluster"


def shipped_dir() -> Path:
    """The directory holding the shipped ``Pulumi.yaml`` and stack files."""
    candidates = [PROJECT_ROOT, Path(sysconfig.get_path("data")) / SHARE, Path(sys.prefix) / SHARE]
    if (user_base := sysconfig.get_config_var("userbase")) is not None:
        candidates.append(Path(user_base) / SHARE)
    for directory in candidates:
        if (directory / "Pulumi.yaml").is_file() and any(directory.glob("Pulumi.*.yaml")):
            return directory
    raise InputError("the shipped stacks are missing from this installation (reinstall gpu-cluster)")


def shipped_stacks() -> list[str]:
    return sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in shipped_dir().glob("Pulumi.*.yaml"))


def _pulumi_yaml(text: str) -> str:
    """The shipped Pulumi.yaml, its runtime the Python that runs this package (no per-project .venv)."""
    lines, skipping = [], False
    for line in text.splitlines():
        if line.startswith("runtime:"):
            lines += [
                "runtime:",
                "  # The Python where gpu-cluster is installed: activate its virtual environment first.",
                "  name: python",
            ]
            skipping = True
            continue
        if skipping and line.startswith(" "):
            continue
        skipping = False
        lines.append(line)
    return "\n".join(lines) + "\n"


def _project_name(pulumi_yaml: Path) -> str | None:
    """The ``name:`` of an existing ``Pulumi.yaml`` (None: not a readable project file)."""
    try:
        if pulumi_yaml.is_symlink() or pulumi_yaml.stat().st_size > 1024 * 1024:
            return None
        document = yaml.safe_load(pulumi_yaml.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    name = document.get("name") if isinstance(document, dict) else None
    return name if isinstance(name, str) else None


def init_project(directory: Path, stack: str) -> list[Path]:
    """Write the project into ``directory`` (created if absent), or, where ``directory`` already holds a
    project of this package (its ``Pulumi.yaml`` named ``gpu-cluster``), add the stack to it (a second shipped
    stack beside the first, to diff them).  Nothing is written when a file to write is there already, a
    ``Pulumi.yaml`` there is another project's, the stack is unknown, or the directory cannot be written."""
    source = shipped_dir()
    if stack not in shipped_stacks():
        raise InputError(f"--from {stack}: not a shipped stack (choose one of: {', '.join(shipped_stacks())})")
    files = {
        "Pulumi.yaml": _pulumi_yaml((source / "Pulumi.yaml").read_text(encoding="utf-8")),
        "__main__.py": MAIN_PY,
        f"Pulumi.{stack}.yaml": (source / f"Pulumi.{stack}.yaml").read_text(encoding="utf-8"),
    }
    if directory.exists() and not directory.is_dir():
        raise InputError(f"{directory}: exists and is not a directory")
    if os.path.lexists(directory / "Pulumi.yaml"):
        name = _project_name(directory / "Pulumi.yaml")
        if name != PROJECT:
            what = f"project {name!r}" if name else "Pulumi.yaml this tool cannot read as a project"
            raise InputError(
                f"{directory}: holds another {what}, not {PROJECT}'s; nothing was written (choose another DIR)"
            )
        # The user's own project: its Pulumi.yaml (and __main__.py) stay as they are; the stack is added.
        files = {name: text for name, text in files.items() if not os.path.lexists(directory / name)}
    if present := [name for name in files if os.path.lexists(directory / name)]:
        raise InputError(f"{directory}: already holds {', '.join(present)}; nothing was written")
    if f"Pulumi.{stack}.yaml" not in files:
        raise InputError(f"{directory}: already holds Pulumi.{stack}.yaml; nothing was written")
    written: list[Path] = []
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            path = directory / name
            with path.open("x", encoding="utf-8") as handle:  # never over a file that appeared meanwhile
                written.append(path)
                handle.write(text)
    except OSError as error:
        for path in written:  # all or nothing
            path.unlink(missing_ok=True)
        raise InputError(f"{directory}: cannot write the project: {error.strerror or error}") from None
    return written
