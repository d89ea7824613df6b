"""``pull-results --from-cluster``: a short pod on the state PVC prints the store's export; its log is read.

The pod runs the project image's own ``export-results`` (read-only on the store), lands on the node
the claim is attached to (the same pod affinity as the workflow's pods) and is deleted afterwards,
whatever happened. What comes back is hostile input: ``results_pull.parse_export`` refuses a log cut
short (count and sha256), so a lost connection imports nothing and the cluster keeps every run.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from .errors import StackFileError
from .incluster.objects import CLAIM_LABEL, pod_affinity
from .incluster.settings import RESULTS_PATH, STATE_MOUNT, check_dns_label, check_image

__all__ = ["export_from_cluster", "export_pod"]


def export_pod(namespace: str, claim: str, image: str, service_account: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"generateName": "gpu-cluster-results-export-", "namespace": namespace,
                     "labels": {CLAIM_LABEL: claim, "app.kubernetes.io/part-of": "gpu-cluster"}},
        "spec": {
            "restartPolicy": "Never",
            "serviceAccountName": service_account,
            "automountServiceAccountToken": False,
            "securityContext": {"runAsNonRoot": True, "seccompProfile": {"type": "RuntimeDefault"}},
            "affinity": pod_affinity(claim),
            "containers": [{
                "name": "export", "image": image, "imagePullPolicy": "IfNotPresent",
                "command": ["python", "-m", "experiments"],
                "args": ["export-results", "--store", RESULTS_PATH],
                "volumeMounts": [{"name": "state", "mountPath": STATE_MOUNT}],
                "securityContext": {"allowPrivilegeEscalation": False, "capabilities": {"drop": ["ALL"]}},
            }],
            "volumes": [{"name": "state", "persistentVolumeClaim": {"claimName": claim}}],
        },
    }


def export_from_cluster(args: argparse.Namespace) -> str:
    """The export document's text, as the pod printed it."""
    from kubernetes import client
    from kubernetes.client.exceptions import ApiException

    from .kube import connect

    if not args.image:
        raise StackFileError("--from-cluster: --image is required (the project image the workflow ran)")
    namespace = check_dns_label(args.namespace, "--namespace")
    manifest = export_pod(namespace, check_dns_label(args.state_claim, "--state-claim"), check_image(args.image),
                          check_dns_label(args.service_account, "--service-account"))
    kube = connect(args.kubeconfig, args.context, timeout=args.timeout + 60.0)
    api, cluster = kube.api, kube.server
    core = client.CoreV1Api(api)
    try:
        pod = core.create_namespaced_pod(namespace, manifest)
    except ValueError:
        raise StackFileError(f"{cluster}: answered the export pod's creation with no pod") from None
    except ApiException as error:
        raise StackFileError(f"{cluster}: {error.status} {error.reason} creating the export pod in "
                             f"{namespace}") from None
    name = pod.metadata.name
    try:
        deadline = time.monotonic() + args.timeout
        while True:
            phase = core.read_namespaced_pod(name, namespace).status.phase
            if phase in ("Succeeded", "Failed"):
                break
            if time.monotonic() > deadline:
                raise StackFileError(f"pod {namespace}/{name} still {phase} after {args.timeout:.0f} s "
                                     "(is the claim bound and the image pullable?)")
            time.sleep(min(2.0, args.timeout / 10))
        text = str(core.read_namespaced_pod_log(name, namespace) or "")
        if phase == "Failed":
            tail = " | ".join(text.strip().splitlines()[-3:]) or "no log"
            raise StackFileError(f"pod {namespace}/{name} failed: {tail}")
        return text
    except ApiException as error:
        raise StackFileError(f"{cluster}: {error.status} {error.reason} reading pod {namespace}/{name}") from None
    except ValueError as error:  # an answer the client cannot read as a pod
        raise StackFileError(f"{cluster}: unreadable answer for pod {namespace}/{name}: "
                             f"{str(error).splitlines()[0]}") from None
    finally:
        try:
            # The answer is not read: a pod is deleted whatever shape the server gives it back in.
            core.delete_namespaced_pod(name, namespace, _preload_content=False)
        except ApiException:
            pass  # already gone
