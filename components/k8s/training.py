"""The training job: a Kubeflow PyTorchJob (or LeaderWorkerSet) wired to the variant's network.

The pod layout is decided once, in the plan (``components.plan``), and the pods are rendered by
``components.manifests.pods``, so the NCCL benchmark (``benchmark.py``) renders exactly the same pods with
another program, and tests can check every object without Pulumi.  On OpenShift an SCC allows
exactly the capabilities the pods need and nothing more, bound to the job's service account
through a Role.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pulumi
from pydantic import field_validator

from components.args import ComponentArgs
from components.manifests.k8s_objects import declare
from components.manifests.pods import CONFIG_FILE, SCC_VOLUMES, config_map_manifest, job_labels, job_manifest
from components.models.job_config import JobConfig
from components.models.main_ds_options import MAIN_DS_MODULE
from components.plan.specs import PodLayout

__all__ = ["TrainingJob", "TrainingJobArgs", "WorkloadFiles", "training_manifests"]

CONFIG_MAP_KEY = re.compile(r"[-._a-zA-Z0-9]+")


class WorkloadFiles(ComponentArgs):
    """The files shipped into every pod, by file name, read by the program from ``workloads/``:
    ``entrypoint.sh`` and every module it runs or imports (a ConfigMap has no folders)."""

    files: dict[str, str]

    @field_validator("files")
    @classmethod
    def _shippable(cls, files: dict[str, str]) -> dict[str, str]:
        if "entrypoint.sh" not in files:
            raise ValueError("the pods run entrypoint.sh; it is missing")
        for name, text in files.items():
            if not CONFIG_MAP_KEY.fullmatch(name) or not text:
                raise ValueError(f"{name!r}: a ConfigMap key ([-._a-zA-Z0-9]+) with content is needed")
        return files


class TrainingJobArgs(ComponentArgs):
    job: JobConfig
    """The validated ``job`` section of the cluster config."""
    layout: PodLayout
    """The pods' shape, decided by the plan (``JobPlan.layout``)."""
    scc_name: str
    """The SecurityContextConstraints' name (``JobPlan.scc_name``), used when the pods need one."""
    openshift: bool = True
    """Render the SecurityContextConstraints and its Role binding."""
    manage_scc: bool = True
    """False: the SecurityContextConstraints exists already (an administrator's); only its Role binding is rendered."""
    files: WorkloadFiles


def training_manifests(args: TrainingJobArgs) -> dict[str, dict[str, Any]]:
    """Every object of the training job, keyed by its role (the child resource's name suffix)."""
    job, layout = args.job, args.layout
    namespace = layout.namespace
    labels = job_labels(job.name, "training")
    objects: dict[str, dict[str, Any]] = {
        "workloads": config_map_manifest(layout.workloads_config_map, namespace, args.files.files, labels),
        "config": config_map_manifest(
            f"{job.name}-config",
            namespace,
            {CONFIG_FILE: json.dumps(job.training.config_json(), indent=2) + "\n"},
            labels,
        ),
    }
    if job.storage.create:
        claim_spec: dict[str, Any] = {
            "accessModes": [job.storage.access_mode],
            "resources": {"requests": {"storage": job.storage.size}},
        }
        if job.storage.storage_class:
            claim_spec["storageClassName"] = job.storage.storage_class
        objects["storage"] = {
            "apiVersion": "v1",
            "kind": "PersistentVolumeClaim",
            "metadata": {"name": job.storage.claim_name, "namespace": namespace, "labels": labels},
            "spec": claim_spec,
        }
    objects["sa"] = {
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": {"name": layout.service_account, "namespace": namespace, "labels": labels},
        "automountServiceAccountToken": False,
    }
    if args.openshift and layout.capabilities:
        objects |= {
            role: manifest
            for role, manifest in _scc_objects(args, layout, labels).items()
            if args.manage_scc or role != "scc"
        }
    if job.enabled:
        objects["job"] = job_manifest(
            layout, name=job.name, component="training", config_map=f"{job.name}-config", program_env=_program_env(job)
        )
    return objects


def _program_env(job: JobConfig) -> dict[str, str]:
    if job.training_script:
        return {"TRAINING_SCRIPT": job.training_script}
    env = {"TRAINING_MODULE": job.training_module}
    if job.training_module == MAIN_DS_MODULE:
        env["GPU_CLUSTER_STALL_SECONDS"] = str(job.stall_timeout_s)
        if job.save_timeout_s is not None:  # else the launcher's default, a multiple of the stall limit
            env["GPU_CLUSTER_SAVE_SECONDS"] = str(job.save_timeout_s)
    if job.data_process:
        env |= {
            "GPU_CLUSTER_DATA_MESSAGES": job.data_process.messages_path,
            "GPU_CLUSTER_DATA_MAX_SEQ_LEN": str(job.data_process.max_seq_len),
        }
    return env


def _scc_objects(args: TrainingJobArgs, layout: PodLayout, labels: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    scc = args.scc_name
    binding_name = f"{args.job.name}-scc"
    return {
        "scc": {
            "apiVersion": "security.openshift.io/v1",
            "kind": "SecurityContextConstraints",
            "metadata": {"name": scc, "labels": dict(labels)},
            # Same priority as restricted-v2: pods that need nothing extra still get restricted-v2.
            "priority": 0,
            "allowPrivilegedContainer": False,
            "allowPrivilegeEscalation": False,
            "defaultAllowPrivilegeEscalation": False,
            "allowedCapabilities": list(layout.capabilities),
            "defaultAddCapabilities": [],
            "requiredDropCapabilities": ["ALL"],
            "allowHostDirVolumePlugin": False,
            "allowHostIPC": False,
            "allowHostNetwork": False,
            "allowHostPID": False,
            "allowHostPorts": False,
            "readOnlyRootFilesystem": False,
            "runAsUser": {"type": "RunAsAny"},
            "seLinuxContext": {"type": "MustRunAs"},
            "fsGroup": {"type": "MustRunAs"},
            "supplementalGroups": {"type": "RunAsAny"},
            "seccompProfiles": ["runtime/default"],
            "volumes": list(SCC_VOLUMES),
            "users": [],
            "groups": [],
        },
        "scc-role": {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "Role",
            "metadata": {"name": binding_name, "namespace": layout.namespace, "labels": dict(labels)},
            "rules": [
                {
                    "apiGroups": ["security.openshift.io"],
                    "resources": ["securitycontextconstraints"],
                    "resourceNames": [scc],
                    "verbs": ["use"],
                }
            ],
        },
        "scc-binding": {
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "RoleBinding",
            "metadata": {"name": binding_name, "namespace": layout.namespace, "labels": dict(labels)},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": binding_name},
            "subjects": [{"kind": "ServiceAccount", "name": layout.service_account, "namespace": layout.namespace}],
        },
    }


class TrainingJob(pulumi.ComponentResource):
    """The training workload of one experiment and everything its pods need.

    Children (``<name>-<role>``): ConfigMaps ``workloads`` (entrypoint.sh and the modules beside it in
    ``workloads/``) and ``config`` (config.json); the ``storage`` claim unless an
    existing one is used (kept by destroy: it holds the data); the ``sa`` ServiceAccount; on
    OpenShift, when the pods need capabilities, the ``scc`` SecurityContextConstraints (unless an
    administrator's: ``manage_scc``) with its ``scc-role`` Role and ``scc-binding``; and the ``job`` itself
    (PyTorchJob or LeaderWorkerSet) unless ``job.enabled`` is false.  ``layout`` is what ``NcclBenchmark`` reuses.
    """

    layout: PodLayout
    """The pods' shape: pass it to ``NcclBenchmarkArgs``."""
    job_name: str | None
    """Name of the PyTorchJob/LeaderWorkerSet, or None when the training job is not rendered."""
    service_account_name: str
    scc_name: str | None
    """The SecurityContextConstraints granting the pods' capabilities, when one is needed."""

    def __init__(self, name: str, args: TrainingJobArgs, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("gpu-cluster:training:TrainingJob", name, None, opts)
        manifests = training_manifests(args)
        child = pulumi.ResourceOptions(parent=self)
        # The claim holds data and checkpoints: `pulumi destroy` leaves it (README: how to remove it).
        kept = pulumi.ResourceOptions(parent=self, retain_on_delete=True)
        support = [
            declare(f"{name}-{role}", manifest, kept if role == "storage" else child)
            for role, manifest in manifests.items()
            if role != "job"
        ]
        if "job" in manifests:
            # Pods are admitted only once their SCC binding, ConfigMaps and claim exist.
            declare(f"{name}-job", manifests["job"], pulumi.ResourceOptions(parent=self, depends_on=support))

        self.layout = args.layout
        self.job_name = args.job.name if "job" in manifests else None
        self.service_account_name = self.layout.service_account
        self.scc_name = args.scc_name if "scc-role" in manifests else None
        self.register_outputs(
            {
                "job_name": self.job_name,
                "namespace": self.layout.namespace,
                "service_account_name": self.service_account_name,
                "scc_name": self.scc_name,
            }
        )
