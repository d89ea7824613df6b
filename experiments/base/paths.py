"""Where the project lies: its stack files, data and golden files are found from here."""

from __future__ import annotations

from pathlib import Path

__all__ = ["PROJECT_ROOT"]

PROJECT_ROOT = Path(__file__).resolve().parents[2]
