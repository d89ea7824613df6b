"""A program of your own: the experiment as one ``GpuCluster``, its settings the stack file's keys."""

import pulumi

from components.models.inputs import ClusterInputs
from components.package import GpuCluster

config = pulumi.Config()
cluster: ClusterInputs = {
    "name_prefix": "my-l40s",
    "zone": "us-east-3",
    "layers": "cloud",  # instances of its own, in no cluster: the Kubernetes layer would have no nodes
    "nodes": {"profile": "gx3-48x240x2l40s", "count": 2},
    "network": {"variant": "vnic", "nics_per_node": 2, "vpc_cidr": "10.242.0.0/20"},
}
experiment = GpuCluster("experiment", {"cluster": cluster, "ssh_public_key": config.require_secret("sshPublicKey")})
pulumi.export("nodes", experiment.nodes)
pulumi.export("instanceIds", experiment.instance_ids)
