"""Where the project lies: its stack files, data and golden files are found from here."""

from __future__ import annotations

from pathlib import Path

__all__ = ["PROJECT_ROOT", "in_checkout", "project_dir", "stack_dirs"]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
"""The checkout (or, installed from a wheel, site-packages): the code's own data lies beside it."""


def in_checkout() -> bool:
    """Whether the code runs from a checkout (an editable install included), not from an installed wheel, whose
    files in site-packages are the package's own, never rewritten by a verb."""
    return (PROJECT_ROOT / "pyproject.toml").is_file() and (PROJECT_ROOT / "Pulumi.yaml").is_file()


def project_dir() -> Path:
    """The user's Pulumi project, where state and results go: the current directory when it holds a
    ``Pulumi.yaml`` (a project made by ``gpu-cluster init``, or the checkout), else the checkout when the
    code runs from one, else the current directory."""
    cwd = Path.cwd()
    if (cwd / "Pulumi.yaml").is_file() or not (PROJECT_ROOT / "Pulumi.yaml").is_file():
        return cwd
    return PROJECT_ROOT


def stack_dirs(root: Path) -> list[Path]:
    """Where a stack name is looked up, first match wins: the current directory, then ``root`` (the checkout;
    an installed tool has no stacks there)."""
    cwd = Path.cwd()
    return [cwd] if cwd.resolve() == root.resolve() else [cwd, root]
