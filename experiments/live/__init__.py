"""What talks to a real cluster; everything it reads is hostile input.

Modules: ``kube`` (one Kubernetes client: timeouts, size caps, redaction), ``kube_secrets``
(credentials a kubeconfig may hold, for redaction), ``jobrun`` (a training job's run and its logs),
``csr_der``, ``csr_facts`` and ``csr_rules`` (approve-csrs: strict parsing and the machine-approver
rules), ``csr_approval`` (an approval round: judge, hold back, approve; and the rounds of a run),
``nodes`` (each worker's Node readiness, for ``stack workers``).
"""
