"""The network variants, listed once in ``components.models.config``, and the copies that cannot import it."""

from __future__ import annotations

from typing import get_args

from components.models.config import CLUSTER_NETWORK_VARIANTS, NETWORK_VARIANTS, NetworkVariant
from components.plan.nccl import RDMA_VARIANTS, Transport
from experiments.results.report import CLUSTERS, VARIANT_STYLE
from workloads import launch_env


def test_the_variants_are_the_config_types() -> None:
    assert NETWORK_VARIANTS == get_args(NetworkVariant) == ("pod", "vnic", "sriov", "sriov-rdma")
    assert CLUSTER_NETWORK_VARIANTS < set(NETWORK_VARIANTS) and RDMA_VARIANTS <= CLUSTER_NETWORK_VARIANTS


def test_the_pods_copy_matches() -> None:
    """``workloads/`` runs in the training image, without this project's packages: it keeps its own lists."""
    assert launch_env.VARIANTS == NETWORK_VARIANTS
    assert launch_env.TRANSPORTS == get_args(Transport)


def test_the_report_styles_and_lines_every_variant() -> None:
    assert tuple(VARIANT_STYLE) == NETWORK_VARIANTS
    assert {variant for view in CLUSTERS for variant in view.variants} == set(NETWORK_VARIANTS)
