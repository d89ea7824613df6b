"""Tests of policies/: the CrossGuard pack on every stack's recorded resources."""
