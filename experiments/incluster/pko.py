"""A stack kept converged by the Pulumi Kubernetes Operator v2: one ``Stack`` (pulumi.com/v1).

Facts it relies on (pulumi-kubernetes-operator v2.9.0, see docs/in-cluster.md):

* the program is baked into the project image and named by ``workspaceTemplate.spec.local.dir``
  (no git, no Program CR: a Program holds Pulumi YAML only);
* ``spec.backend`` becomes ``PULUMI_BACKEND_URL``: the file backend on the state PVC, mounted
  through ``workspaceTemplate.spec.podTemplate`` into the container named ``pulumi``; the operator's
  restricted profile runs as uid 1000 and sets no fsGroup, so the pod template adds one;
* ``spec.envRefs`` (env var -> Secret key) for the passphrase and the IBM API key, and
  ``spec.secretsRef`` (config key -> Secret key) for each secret the stack file sets: names only;
* ``spec.config`` carries the cluster mapping as its JSON text, which every Pulumi CLI reads as the
  object ``load()`` expects (a structured value would need CLI 3.202+ in the pod);
* ``destroyOnFinalize`` as the user chose; ``prerequisites`` for stacks that must go first;
* the Stack's ``metadata.name`` is at most 42 characters (a CEL rule of the CRD).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from components.models.config import CLUSTER_KEY, PROJECT
from components.models.types import is_dns_label
from experiments.base.errors import InputError
from experiments.incluster.objects import APP_LABEL, container_env, volume_mounts, volumes
from experiments.incluster.settings import BACKEND_URL, PROGRAM_DIR, InClusterSettings

__all__ = ["PROGRAM_DIR", "check_stack_name", "render_stack"]

MAX_NAME = 42
_DURATION = re.compile(r"^([0-9]+(\.[0-9]+)?(h|m|s))+$")
_CREDENTIAL = re.compile(r"(?i)key|token|secret|passw|passphrase|kubeconfig|credential|cert|auth|user")


def check_stack_name(name: str, flag: str) -> str:
    if not is_dns_label(name, MAX_NAME):
        raise InputError(
            f"{flag} {name!r}: a PKO Stack name is a DNS label of at most {MAX_NAME} characters "
            "(the operator's CRD refuses longer ones); pass --name"
        )
    return name


def check_duration(value: str, flag: str) -> str:
    if not _DURATION.fullmatch(value):
        raise InputError(f"{flag} {value!r}: a duration such as 1h, 30m or 1h30m")
    return value


def _pod_template(settings: InClusterSettings, kubeconfig_map: str) -> dict[str, Any]:
    pod: dict[str, Any] = {
        "volumes": volumes(settings, kubeconfig_map, None),
        "containers": [{"name": "pulumi", "volumeMounts": volume_mounts()}],
    }
    if settings.uid is not None:
        pod["securityContext"] = {"fsGroup": settings.uid, "fsGroupChangePolicy": "OnRootMismatch"}
    return {"spec": pod}


def render_stack(
    *,
    name: str,
    stack: str,
    cluster_json: str,
    plain_config: dict[str, str],
    secret_keys: Sequence[str],
    config_secret: str,
    settings: InClusterSettings,
    kubeconfig_map: str,
    destroy_on_delete: bool,
    after: Sequence[str],
    within: str,
) -> dict[str, Any]:
    # Secrets travel as references to the Secret: the pod's secret env entries become envRefs.
    env = [e for e in container_env(settings) if "valueFrom" not in e]
    env_refs = {
        "IC_API_KEY": {"type": "Secret", "secret": {"name": settings.api_key.name, "key": settings.api_key.key}},
        "PULUMI_CONFIG_PASSPHRASE": {
            "type": "Secret",
            "secret": {"name": settings.passphrase.name, "key": settings.passphrase.key},
        },
    }
    spec: dict[str, Any] = {
        "stack": stack,
        "backend": BACKEND_URL,
        "serviceAccountName": settings.service_account,
        "destroyOnFinalize": destroy_on_delete,
        "envRefs": env_refs,
        "config": {f"{PROJECT}:{CLUSTER_KEY}": cluster_json, **plain_config},
        "workspaceTemplate": {
            "spec": {
                "image": settings.image,
                "imagePullPolicy": "IfNotPresent",
                "securityProfile": "restricted",
                "local": {"dir": PROGRAM_DIR},
                "env": env,
                "podTemplate": _pod_template(settings, kubeconfig_map),
            }
        },
    }
    if secret_keys:
        spec["secretsRef"] = {
            key: {"type": "Secret", "secret": {"name": config_secret, "key": key.split(":", 1)[1]}}
            for key in secret_keys
        }
    if after:
        spec["prerequisites"] = [{"name": other, "requirement": {"succeededWithinDuration": within}} for other in after]
    return {
        "apiVersion": "pulumi.com/v1",
        "kind": "Stack",
        "metadata": {"name": name, "namespace": settings.namespace, "labels": dict(APP_LABEL)},
        "spec": spec,
    }


def plain_config_of(
    engine_config: dict[str, str],
    secret_keys: Sequence[str],
    where: object = "the stack file",
) -> dict[str, str]:
    """Config other than the cluster mapping and the secrets (placeholders of an offline run left out).
    A plaintext value under a key that names a credential (``kubernetes:kubeconfig``,
    ``ibm:iaasClassicApiKey``, any ``...token``/``...password``) is refused: ``spec.config`` is plain
    text in the cluster, and only a ``secure:`` value travels, as a Secret reference."""
    skip = {f"{PROJECT}:{CLUSTER_KEY}", *secret_keys}
    plain = {k: v for k, v in sorted(engine_config.items()) if k not in skip and not k.startswith(f"{PROJECT}:")}
    credentials = [k for k in plain if _CREDENTIAL.search(k.rpartition(":")[2])]
    if credentials:
        raise InputError(
            f"{where}: {', '.join(credentials)}: a credential in plain text; set it with "
            f"`pulumi config set --secret {credentials[0]}` (pko then references it from the Secret "
            "--config-secret names) or drop it; nothing was written"
        )
    return plain


def cluster_json_of(engine_config: dict[str, str]) -> str:
    return json.dumps(json.loads(engine_config[f"{PROJECT}:{CLUSTER_KEY}"]), sort_keys=True)
