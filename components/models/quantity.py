"""Kubernetes quantities and nccl_bench.py byte sizes: parsed exactly, bounded before computing."""

from __future__ import annotations

import re
from decimal import Decimal

__all__ = ["MAX_QUANTITY", "parse_byte_size", "parse_quantity"]

# Kubernetes resource.Quantity, as the API schemas spell it.
_QUANTITY = re.compile(
    r"^(?P<number>[+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))"
    r"(?P<suffix>[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?$"
)
_BINARY = {"Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "Ti": 2**40, "Pi": 2**50, "Ei": 2**60}
_DECIMAL = {
    "n": Decimal("1e-9"),
    "u": Decimal("1e-6"),
    "m": Decimal("1e-3"),
    "": Decimal(1),
    "k": Decimal("1e3"),
    "M": Decimal("1e6"),
    "G": Decimal("1e9"),
    "T": Decimal("1e12"),
    "P": Decimal("1e15"),
    "E": Decimal("1e18"),
}
# nccl_bench.py's byte sizes: binary multiples, like nccl-tests' -b/-e.
_BYTE_SIZE = re.compile(r"^\s*(\d+)\s*([KMGT]?)i?B?\s*$", re.IGNORECASE)

MAX_QUANTITY = Decimal(2**63 - 1)
"""Kubernetes keeps a quantity in an int64 (of milli-units at most): anything larger cannot be applied."""


def parse_quantity(value: str) -> Decimal:
    """A Kubernetes quantity (``10Gi``, ``500m``, ``1.5``) as a number of base units."""
    match = _QUANTITY.fullmatch(value)
    if not match or len(value) > 64:
        raise ValueError(f"{value!r} is not a Kubernetes quantity (like 10Gi, 500m or 2)")
    number, suffix = Decimal(match["number"]), match["suffix"] or ""
    if suffix in _BINARY:
        scale = Decimal(_BINARY[suffix])
    elif suffix[:1] in ("e", "E"):
        exponent = int(suffix[1:])
        # Decide on the exponent before computing: 1e999999999 would overflow Decimal itself.
        if exponent > 18 or exponent < -9:
            raise ValueError(f"{value!r}: the exponent must lie between -9 and 18")
        scale = Decimal(10) ** exponent
    else:
        scale = _DECIMAL[suffix]
    quantity = number * scale
    if quantity > MAX_QUANTITY:
        raise ValueError(f"{value!r} is larger than Kubernetes can hold (2^63 - 1)")
    return quantity


def parse_byte_size(value: str) -> int:
    """``8``, ``64K``, ``1G``, ``1GiB`` -> bytes, as ``nccl_bench.py`` reads them."""
    match = _BYTE_SIZE.fullmatch(value)
    if not match:
        raise ValueError(f"{value!r} is not a byte size (like 8, 64K, 1M or 1G)")
    shift = {"": 0, "K": 10, "M": 20, "G": 30, "T": 40}[match[2].upper()]
    return int(match[1]) << shift
