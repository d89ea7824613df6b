"""The lab: a stack's rendered training job run as N emulated nodes on one multi-GPU host.

``render`` (the project's environment) writes a stack's job and its network facts to a folder;
``plan`` (standard library only) turns them into what to create: network namespaces, bridges,
veth pairs, addresses, qdiscs, each pod's environment; ``netns`` (pyroute2) creates and removes
exactly that; ``pod`` enters one node and starts the job's entrypoint there; ``run`` (``python3 -m
tools.lab``) does all of it, end to end, and tears everything down whatever happens. docs/lab.md.
"""
