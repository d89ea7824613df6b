"""Operations on the nodes of an existing cluster that a stack changes (``nodes.source: adopt``):
typed ports to IBM Cloud and Kubernetes, the rolling steps, and the Pulumi dynamic resources that
run them from inside ``pulumi up``/``destroy``."""
