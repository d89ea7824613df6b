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

from components.manifests.k8s_objects import Manifest, part_of_labels

__all__ = ["render_mapping_configmap"]


def render_mapping_configmap(*, name: str, namespace: str, key: str, instance: str, lines: list[str]) -> Manifest:
    return Manifest(
        {
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": namespace, "labels": part_of_labels(instance)},
            "data": {key: "".join(f"{line}\n" for line in lines)},
        }
    )
