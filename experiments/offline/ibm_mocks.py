"""The offline engine's answers, as IBM Cloud (and Kubernetes, and the engine's built-ins) would give them,
deterministically: IDs and CRNs derived from the resource's type and name (two runs of one stack give one
document), the provider's composite ``<parent>/<child>`` IDs, and the addresses the program requests."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pulumi

from experiments.offline.ibm_outputs import COMPOSITE_IDS, KIND_OUTPUTS, digest, ibm_id
from experiments.offline.ibm_rules import replace_key
from experiments.offline.preview_answers import UNKNOWN_MASK, preview_answer
from experiments.offline.simulated_cluster import SimulatedCluster
from experiments.offline.stack_names import file_backend_name

__all__ = ["IbmCloudMocks"]


class IbmCloudMocks(pulumi.runtime.Mocks):
    """Outputs shaped like the IBM provider's, derived from inputs and names."""

    def __init__(
        self,
        cluster: SimulatedCluster | None = None,
        stack_outputs: Mapping[str, Any] | None = None,
        stack_name: str = "",
        unknowns: bool = False,
    ) -> None:
        super().__init__()
        self.unknowns = unknowns
        """Answer a new resource as a real preview does (``preview_answer``); reads and invokes stay known."""
        self.cluster = cluster
        """The existing cluster an ``adopt``/``join`` stack looks up."""
        self.stack_outputs = {stack_name: dict(stack_outputs)} if stack_outputs is not None else {}
        """What a ``StackReference`` reads, per fully qualified stack name: the outputs a previous run of this
        stack left (none: a stack without state; any other stack has none)."""

    def new_resource(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        resource_id, state = self._answer(args)
        if self.unknowns and not args.resource_id:
            return preview_answer(args.typ, args.inputs, state)
        return resource_id, state

    def _answer(self, args: pulumi.runtime.MockResourceArgs) -> tuple[str, dict[str, Any]]:
        state = dict(args.inputs)
        token = args.typ
        if token.startswith("pulumi:providers:"):
            return digest(token, args.name), state
        if token == "pulumi:pulumi:StackReference":
            # The engine's built-in provider answers with the referenced stack's outputs (builtins.go).
            return str(args.resource_id), {
                "name": args.resource_id,
                "outputs": self.stack_outputs.get(file_backend_name(str(args.resource_id)), {}),
                "secretOutputNames": [],
            }
        if args.resource_id and token == "kubernetes:core/v1:Secret" and self.cluster is not None:
            # A read of the installer's worker ignition (``join``): the cluster answers it.
            return args.resource_id, {
                "metadata": {"name": args.name},
                "type": "Opaque",
                "data": {"userData": self.cluster.worker_user_data()},
            }
        if not token.startswith("ibm:"):
            # Kubernetes objects: the provider echoes metadata and gives a uid.
            metadata = dict(state.get("metadata") or {})
            metadata.setdefault("uid", digest(token, args.name))
            state["metadata"] = metadata
            namespace = metadata.get("namespace")
            return f"{namespace}/{metadata.get('name', args.name)}" if namespace else str(
                metadata.get("name", args.name)
            ), state
        kind = token.rsplit(":", 1)[-1]
        # A changed replace-on-change input means a new physical resource, hence a new ID.
        bare_id = ibm_id(
            kind, args.name, json.dumps(replace_key(kind, state), sort_keys=True, default=lambda _: UNKNOWN_MASK)
        )
        state.setdefault("crn", f"crn:v1:bluemix:public:is::a/0123456789abcdef::{kind.lower()}:{bare_id}")
        resource_id = COMPOSITE_IDS[kind](state, bare_id) if kind in COMPOSITE_IDS else bare_id
        if kind in KIND_OUTPUTS:
            KIND_OUTPUTS[kind](state, bare_id)
        return resource_id, state

    def call(self, args: pulumi.runtime.MockCallArgs) -> tuple[dict[str, Any], list[tuple[str, str]]]:
        name = str(args.args.get("name") or args.args.get("identifier") or "default")
        kind = args.token.rsplit(":", 1)[-1]
        answer = self.cluster.answer(kind, args.args) if self.cluster is not None else None
        if answer is not None:
            return answer, []
        result: dict[str, Any] = {"id": ibm_id(kind, name), "name": name}
        if kind == "getIsImage":
            result.update(status="available", os=name, architecture="amd64", visibility="public")
        if kind == "getIsSshKey":
            result.update(type="ed25519", fingerprint=f"SHA256:{digest(kind, name, length=43)}")
        if kind == "getResourceGroup":
            result.update(id=digest(kind, name), state="ACTIVE", isDefault=False)
        return result, []
