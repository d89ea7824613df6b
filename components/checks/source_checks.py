"""Rules of ``nodes.source``: what each source needs from the config, and whether the existing
cluster the lookup found is the one the config describes.

``source_errors(cfg)`` runs with the other cloud rules, before any lookup (``inventory_checks`` then holds
the lookup's result against the config); ``stop_consent_errors`` runs on the plan, and refuses only
``pulumi up`` (never a preview).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from pydantic_core import InitErrorDetails

from components.models.config import (
    CLUSTER_KEY,
    IBM_RESERVED_LOW_ADDRESSES,
    KUBEADM_CA_CERT_HASH,
    KUBEADM_TOKEN,
    PROJECT,
    WORKER_IGNITION,
    ClusterConfig,
    config_error,
)
from components.plan.stops import DOWNTIME_NOTE, NVME_WARNING, WorkerStop

__all__ = ["creates_ssh_key", "join_secret_keys", "source_errors", "stop_consent_errors"]

STOP_EXPLAINED = (
    "IBM attaches cluster network interfaces only to a stopped instance, so every adopted worker is cordoned, "
    f"drained, stopped, attached and started again, nodes.max_unavailable at a time ({DOWNTIME_NOTE}); "
    f"{NVME_WARNING}.  Read the preview's list of workers to be stopped and the adopt runbook in the README, "
    "then set nodes.allow_instance_stop: true"
)


def creates_ssh_key(cfg: ClusterConfig) -> bool:
    """Whether the stack creates instances with an SSH key of its own (from ``gpu-cluster:sshPublicKey``):
    not for adopted workers (they keep theirs), not without the cloud layer, not when it names an existing key."""
    return cfg.layers != "kubernetes" and cfg.nodes.source != "adopt" and cfg.security.ssh_key_name is None


def join_secret_keys(cfg: ClusterConfig) -> tuple[str, ...]:
    """The secrets a ``join`` stack's user data is built from (config keys of ``gpu-cluster:``): the kubeadm
    token and CA hash, or the worker ignition when ``nodes.join.ignition: secret``; none otherwise."""
    if cfg.nodes.source != "join":
        return ()
    if not cfg.kubernetes.openshift:
        return KUBEADM_TOKEN, KUBEADM_CA_CERT_HASH
    return (WORKER_IGNITION,) if cfg.nodes.join.ignition == "secret" else ()


ADOPT_ONLY = ("max_unavailable", "drain_timeout_s", "drain_delete_emptydir_data", "allow_worker_change", "hosts")


def stop_consent_errors(cfg: ClusterConfig, stops: Sequence[WorkerStop], dry_run: bool, rollout: str = "") -> list[str]:
    """``pulumi up`` of a stack that stops workers it was not allowed to: the one refusal, naming the field.
    A preview is never refused: it is where the user reads which workers would be stopped.  A consent naming
    another roll-out (``rollout-...``) consents to none of this one; ``true`` is judged by the selection step,
    which knows whether this is the stack's first roll-out (``components.ops.selection``)."""
    consent = cfg.nodes.allow_instance_stop
    if isinstance(consent, str) and rollout and consent != rollout and stops and not dry_run:
        return [
            f"{PROJECT}:{CLUSTER_KEY}.nodes.allow_instance_stop: {consent} names another roll-out; this one is "
            f"{rollout} (the preview lists the workers it stops): set nodes.allow_instance_stop: {rollout}"
        ]
    if dry_run or not stops or consent:
        return []
    workers = ", ".join(stop.worker for stop in stops)
    return [
        f"{PROJECT}:{CLUSTER_KEY}.nodes.allow_instance_stop: not set, yet pulumi up would stop {len(stops)} "
        f"adopted worker(s) ({workers}). {STOP_EXPLAINED}"
    ]


def source_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    nodes, source = cfg.nodes, cfg.nodes.source
    errors: list[InitErrorDetails] = []
    if source == "standalone":
        if cfg.layers == "both":
            errors.append(
                config_error(
                    ("nodes", "source"),
                    (
                        "standalone instances belong to no cluster, yet layers: both applies the "
                        "Kubernetes objects to one: "
                        "no pod would ever run on them.  Use adopt (the cluster's existing GPU "
                        "workers get the NICs) or "
                        "join (new instances join the cluster), or layers: cloud"
                    ),
                    source,
                )
            )
        errors.extend(_only_for_existing(cfg))
        return errors
    if cfg.layers == "kubernetes":
        return [
            config_error(
                ("nodes", "source"),
                f"{source} needs the cloud layer (layers: both or cloud); "
                "with layers: kubernetes the NICs are listed in kubernetes.nodes",
                source,
            )
        ]
    errors.extend(_cluster_name_errors(cfg))
    if nodes.names is not None:
        if len(nodes.names) != nodes.count:
            errors.append(
                config_error(
                    ("nodes", "names"),
                    f"lists {len(nodes.names)} nodes but nodes.count is {nodes.count}",
                    len(nodes.names),
                )
            )
        twice = sorted({n for n in nodes.names if nodes.names.count(n) > 1})
        if twice:
            errors.append(config_error(("nodes", "names"), f"{', '.join(twice)} listed twice", twice))
    if source == "adopt":
        errors.extend(_adopt_errors(cfg))
    else:
        errors.extend(_join_errors(cfg))
    if cfg.network.variant == "vnic" and "vpc_cidr" not in cfg.network.model_fields_set:
        errors.append(
            config_error(
                ("network", "vpc_cidr"),
                (
                    "required with nodes.source adopt or join: the vNIC subnets go into a new address prefix of the "
                    "cluster's VPC, so name a range none of its prefixes covers (e.g. 10.250.0.0/16)"
                ),
                None,
            )
        )
    return errors


def _only_for_existing(cfg: ClusterConfig) -> list[InitErrorDetails]:
    nodes = cfg.nodes
    only_existing = ("names", "machineset", "allow_instance_stop", "join", *ADOPT_ONLY)
    set_here: list[tuple[str, ...]] = [("nodes", f) for f in only_existing if f in nodes.model_fields_set]
    if cfg.openshift.model_fields_set:
        set_here.append(("openshift",))
    return [config_error(where, "only with nodes.source adopt or join", None) for where in set_here]


def _cluster_name_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    ocp = cfg.openshift
    if ocp.infra_id is not None:
        return []
    missing = [
        f
        for f, value in (
            ("vpc", ocp.vpc),
            ("compute_subnet", ocp.compute_subnet),
            ("security_groups", ocp.security_groups),
        )
        if value is None
    ]
    if cfg.nodes.source == "join" and cfg.nodes.image is None and ocp.image is None:
        missing.append("image")
    if not missing:
        return []
    return [
        config_error(
            ("openshift", "infra_id"),
            (
                f"required to find the cluster (or set openshift.{', openshift.'.join(missing)}): read it with "
                "oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}'"
            ),
            None,
        )
    ]


def _adopt_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    nodes = cfg.nodes
    errors: list[InitErrorDetails] = []
    if (nodes.names is None) == (nodes.machineset is None):
        errors.append(
            config_error(
                ("nodes", "names"),
                (
                    "adopt selects the workers by nodes.names (the instance names, as oc get machines -n "
                    "openshift-machine-api lists them) or by nodes.machineset: set exactly one"
                ),
                None,
            )
        )
    if nodes.image is not None:
        errors.append(
            config_error(("nodes", "image"), "adopt boots nothing: the workers keep their image", nodes.image)
        )
    if "join" in nodes.model_fields_set:
        errors.append(config_error(("nodes", "join"), "only with nodes.source: join", None))
    usable = 2 ** (32 - cfg.subnet_prefix_length) - IBM_RESERVED_LOW_ADDRESSES - 1
    for worker, host in sorted(nodes.hosts.items()):
        if host >= usable:
            message = (
                f"host {host} is past a /{cfg.subnet_prefix_length} subnet's last host number for nodes, {usable - 1}"
            )
            errors.append(config_error(("nodes", "hosts", worker), message, host))
    errors.extend(_pins_of_unlisted_workers(nodes.hosts, nodes.names))
    if len(set(nodes.hosts.values())) < len(nodes.hosts):
        errors.append(config_error(("nodes", "hosts"), "two workers pinned to one host number", nodes.hosts))
    return errors


def _pins_of_unlisted_workers(hosts: dict[str, int], names: list[str] | None) -> list[InitErrorDetails]:
    """With the workers listed, a pin for a name outside the list is a typo: ignored, it would let the address
    it was meant to keep move.  (Under ``nodes.machineset`` the selection changes by itself, so pins of workers
    it does not hold stay harmless and are kept for when it does.)"""
    if names is None:
        return []
    errors = []
    for worker in sorted(set(hosts) - set(names)):
        close = difflib.get_close_matches(worker, names, n=1, cutoff=0.6)
        fix = f"did you mean {close[0]}?" if close else "remove the pin or add the worker to nodes.names"
        message = f"pins a worker that is not in nodes.names; {fix}"
        errors.append(config_error(("nodes", "hosts", worker), message, hosts[worker]))
    return errors


def _join_errors(cfg: ClusterConfig) -> list[InitErrorDetails]:
    nodes, join = cfg.nodes, cfg.nodes.join
    errors: list[InitErrorDetails] = []
    for name in ("machineset", "allow_instance_stop", *ADOPT_ONLY):
        if name in nodes.model_fields_set:
            errors.append(
                config_error(
                    ("nodes", name),
                    (
                        "only with nodes.source: adopt (join creates the instances, with their cluster NICs "
                        "attached at creation)"
                    ),
                    getattr(nodes, name),
                )
            )
    openshift = cfg.kubernetes.openshift
    if openshift and join.kubeadm_endpoint is not None:
        errors.append(
            config_error(
                ("nodes", "join", "kubeadm_endpoint"),
                "only with kubernetes.openshift: false (OpenShift nodes join by ignition)",
                join.kubeadm_endpoint,
            )
        )
    if not openshift and join.kubeadm_endpoint is None:
        errors.append(
            config_error(
                ("nodes", "join", "kubeadm_endpoint"),
                ("required with kubernetes.openshift: false: the API server host:port that kubeadm join contacts"),
                None,
            )
        )
    if openshift and join.ignition == "cluster" and cfg.layers != "both":
        errors.append(
            config_error(
                ("nodes", "join", "ignition"),
                (
                    "cluster reads openshift-machine-api/worker-user-data through the Kubernetes layer, which "
                    "layers: cloud leaves out; use secret and set gpu-cluster:workerIgnition"
                ),
                join.ignition,
            )
        )
    return errors
