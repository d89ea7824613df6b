"""The IBM Cloud components: VPC network, cluster network, GPU nodes, the whole cloud layer."""
