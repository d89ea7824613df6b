"""Tests of policies/: the CrossGuard pack on every stack's recorded resources."""

import sys
from pathlib import Path

# The CLI runs the pack with its own directory first on sys.path, and its modules import each other
# by their bare names: the tests import them the same way.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "policies"))
