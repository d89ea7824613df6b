"""Entry point the Pulumi CLI runs for ``--policy-pack policies``; never import it.

``PolicyPack(...)`` starts the analyzer's gRPC server and blocks forever, so it stays here,
alone; the policies (and their tests) live in ``rules.py``.
"""

from pulumi_policy import PolicyPack
from rules import POLICIES  # the CLI runs this directory as a script, with it first on sys.path

PolicyPack(name="gpu-cluster-policies", policies=POLICIES)
