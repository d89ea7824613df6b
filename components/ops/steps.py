"""The inputs of a rolling step, as one frozen type that both sides use: the component that declares the
step (``components.ibm.adopted``) builds it and hands ``inputs()`` to Pulumi; the provider that runs the
step reads it back with ``of`` from what the engine sends (the state's copy, or the program's), checking
every field instead of trusting a dict's keys."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from components.ops.ports import OperationFailed
from components.ops.rolling import Timeouts, Worker

__all__ = ["StepProps"]


@dataclass(frozen=True)
class StepProps:
    node: str
    """Instance name = Node name."""
    instance_id: str
    holder: str
    """``<stack>/<worker>``: who holds the pauses and the Node's mark."""
    region: str = ""
    """Of the IBM API (cluster NICs: the stack's region)."""
    attachments: tuple[str, ...] = ()
    generation: str = ""
    """A digest of the worker's cluster NIC plan: a new value runs the whole sequence again."""
    timeouts: Timeouts = Timeouts()
    kube_context: str | None = None
    allow_stop: bool | str = False
    """The stack's consent: ``true``, or the id of the roll-out it consents to."""
    delete_emptydir_data: bool = False
    ibm_api_key: Any = None
    """A Pulumi secret on the program's side, the key (or None: the provider's environment) in the provider."""
    kubeconfig: Any = None

    @property
    def stack(self) -> str:
        return self.holder.split("/")[0]

    @property
    def consented(self) -> bool:
        return self.allow_stop is True or (isinstance(self.allow_stop, str) and self.allow_stop.startswith("rollout-"))

    def worker(self) -> Worker:
        return Worker(
            node=self.node,
            instance_id=self.instance_id,
            holder=self.holder,
            attachments=self.attachments,
            delete_emptydir_data=self.delete_emptydir_data,
        )

    def inputs(self) -> dict[str, Any]:
        """What the resource declares: every wait written out (the preview shows them, sweep deadlines add them)."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {**values, "attachments": list(self.attachments), "timeouts": dataclasses.asdict(self.timeouts)}

    @classmethod
    def of(cls, props: Mapping[str, Any]) -> StepProps:
        """The step's inputs as the engine sends them; one line naming the field that is not what the step wrote."""
        consent = props.get("allow_stop")
        try:
            timeouts = Timeouts(**{k: float(v) for k, v in dict(props.get("timeouts") or {}).items()})
            attachments = props.get("attachments") or ()
            if not isinstance(attachments, (list, tuple)) or not all(isinstance(a, str) for a in attachments):
                raise TypeError("attachments")
            step = cls(
                node=_text(props, "node"),
                instance_id=_text(props, "instance_id"),
                holder=_text(props, "holder"),
                region=_optional_text(props, "region") or "",
                attachments=tuple(attachments),
                generation=str(props.get("generation") or ""),
                timeouts=timeouts,
                kube_context=_optional_text(props, "kube_context"),
                allow_stop=consent if isinstance(consent, (bool, str)) else False,
                delete_emptydir_data=props.get("delete_emptydir_data") is True,
                ibm_api_key=_optional_text(props, "ibm_api_key"),
                kubeconfig=_optional_text(props, "kubeconfig"),
            )
        except (TypeError, ValueError, AttributeError) as error:
            raise OperationFailed(
                f"rolling step: its inputs are not the ones the program writes ({error}); run "
                "pulumi up --refresh, or pulumi up of the current program"
            ) from None
        return step


def _text(props: Mapping[str, Any], key: str) -> str:
    value = props.get(key)
    if not isinstance(value, str) or not value:
        raise TypeError(key)
    return value


def _optional_text(props: Mapping[str, Any], key: str) -> str | None:
    value = props.get(key)
    if value is not None and not isinstance(value, str):
        raise TypeError(key)
    return value or None
