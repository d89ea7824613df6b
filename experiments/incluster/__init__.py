"""Running the project inside a cluster: an Argo Workflow per sweep, a PKO Stack per long-lived variant.

Everything here renders plain Kubernetes objects offline; nothing is applied unless ``--submit``.

Modules: ``settings`` (image, namespace, Secrets and the pod's fixed paths, validated), ``objects``
(PVC, ServiceAccount, kubeconfig and stack-file ConfigMaps), ``rbac`` (least rules from what the
cells render), ``admin`` (the namespaces and SCCs an administrator applies for the runner),
``deadlines`` (step deadlines from the stack's own timeouts), ``pools`` (which cells share workers),
``argo`` (the Workflow), ``pko`` (the Stack), ``render`` (a sweep's or a stack's objects, all checked
before any file), ``submit`` (create and follow; ``existing``: what it finds under setup's names,
read and compared), ``remote`` (the short pod ``pull-results --from-cluster`` runs on the state
PVC). The verbs are ``experiments.cli.incluster``.
"""
