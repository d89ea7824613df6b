"""User data that makes a created instance a node of an existing cluster (``nodes.source: join``).

OpenShift: the worker pointer ignition the installer stored in ``openshift-machine-api/worker-user-data``
(key ``userData``), which merges the full config from the machine-config server
(``https://api-int.<cluster domain>:22623/config/worker``); the instance boots the cluster's RHCOS
image with it, exactly as a MachineSet's would.  Other Kubernetes: cloud-init running
``kubeadm join`` with a bootstrap token and the CA certificate hash.  IBM accepts 64 KiB.
"""

from __future__ import annotations

import base64
import shlex

__all__ = ["USER_DATA_LIMIT", "ignition_from_secret", "kubeadm_cloud_init"]

USER_DATA_LIMIT = 64 * 1024
"""IBM's user data limit (``vsi_is_provisioning_scripts.md``: 64 K bytes)."""


def ignition_from_secret(user_data_b64: str) -> str:
    """The ``userData`` value of the ``worker-user-data`` secret (base64, as the API returns it)."""
    text = base64.b64decode(user_data_b64).decode()
    return _bounded(text)


def kubeadm_cloud_init(*, endpoint: str, token: str, ca_cert_hash: str) -> str:
    """cloud-init that joins with ``kubeadm``; kubelet, kubeadm and a container runtime must be in the image."""
    command = ["kubeadm", "join", endpoint, "--token", token, "--discovery-token-ca-cert-hash", ca_cert_hash]
    return _bounded("#cloud-config\nruncmd:\n  - " + shlex.join(command) + "\n")


def _bounded(text: str) -> str:
    if len(text.encode()) > USER_DATA_LIMIT:
        raise ValueError(f"user data of {len(text.encode())} bytes is over IBM's {USER_DATA_LIMIT}")
    return text
