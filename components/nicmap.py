"""The node→interface→IP mapping ConfigMap of the ``mapping`` IP mechanism.

The study discovered each node's secondary addresses at run time (``ip route`` on every node)
and stored them as ``node:hostif:netN:ip`` lines; the pod entrypoint then replaced the address
its IPAM had given ``netN`` with its node's line.  Here the lines come from the address plan,
i.e. from the addresses the cloud layer requests (or the existing-node inventory), so the file
is known at preview time and needs no cluster access to build.

One line per node and NIC the job uses, ordered by node name (natural order: ``node2`` before
``node10``) and then NIC index, so adding nodes appends lines and never reorders the others.
"""

from __future__ import annotations

from collections.abc import Mapping

from .fabric_rules import natural_key
from .inventory import AddressPlan
from .k8s_objects import Manifest, part_of_labels

__all__ = ["mapping_lines", "render_mapping_configmap"]


def mapping_lines(plan: AddressPlan, guest_interfaces: Mapping[int, str]) -> list[str]:
    """``node:hostif:netN:ip`` for every NIC the job uses."""
    used = sorted(plan.secondary(used_only=True), key=lambda nic: (natural_key(nic.node), nic.index))
    return [f"{nic.node}:{guest_interfaces[nic.index]}:{nic.pod_interface}:{nic.ip}" for nic in used]


def render_mapping_configmap(*, name: str, namespace: str, key: str, instance: str, lines: list[str]) -> Manifest:
    return Manifest({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": namespace, "labels": part_of_labels(instance)},
        "data": {key: "".join(f"{line}\n" for line in lines)},
    })
