"""What one lane's failure does to the others, within one deployment.

The Pulumi engine stops launching steps at the first failure and lets the running ones finish.  A
worker of another lane that is out of service at that moment waits for steps the engine would no
longer launch (its attachments, its return), and would stay stopped, cordoned and paused until the
next ``up``.  So a failing rolling step does not report its failure at once: it marks the roll-out
as failed, so that no lane takes another worker out, and waits until the workers other lanes have
out of service are back (their steps still run, since the engine has seen no failure yet), bounded
by how long those may take.  Then it fails, stating its own worker's end state and theirs.

The dynamic-provider host is one process per deployment (``python -m pulumi.dynamic``), serving
every rolling step of it on its threads, so one process-wide ``Lanes`` sees every lane of the run.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Literal

from components.ops.ports import OperationFailed

__all__ = ["LANES", "Direction", "Lanes"]

Direction = Literal["out", "back"]


class Lanes:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._out: dict[str, set[str]] = {}
        """Per stack: the workers this deployment took out of service and has not brought back."""
        self._failed: dict[str, str] = {}
        """Per stack: the first failure of this deployment, in a few words."""
        self._returned: dict[str, list[str]] = {}

    def reset(self) -> None:
        """A new deployment (the host process starts afresh for each; the tests' engine calls this)."""
        with self._changed:
            self._out.clear()
            self._failed.clear()
            self._returned.clear()

    def run(self, stack: str, worker: str, direction: Direction, step: Callable[[], None], wait_s: float) -> None:
        """``step`` (take ``worker`` out, or bring it back) as one lane of ``stack``'s roll-out."""
        with self._changed:
            failed = self._failed.get(stack)
            if direction == "out":
                if failed is not None:
                    raise OperationFailed(
                        f"worker {worker} was not taken out of service, because {failed}; it "
                        "stays in service.  Run pulumi up again once that is fixed"
                    )
                self._out.setdefault(stack, set()).add(worker)
        try:
            step()
        except Exception as error:  # noqa: BLE001 - whatever ended the step, the other lanes finish first
            reason = str(error) if isinstance(error, OperationFailed) else f"worker {worker}: {type(error).__name__}"
            raise OperationFailed(f"{reason}{self._after_failure(stack, worker, wait_s)}") from None
        if direction == "back":
            with self._changed:
                self._out.get(stack, set()).discard(worker)
                self._returned.setdefault(stack, []).append(worker)
                self._changed.notify_all()

    def _after_failure(self, stack: str, worker: str, wait_s: float) -> str:
        """Wait for the other lanes' current workers; what became of them, as the end of the message."""
        with self._changed:
            self._failed.setdefault(stack, f"the rolling step of worker {worker} failed")
            out = self._out.setdefault(stack, set())
            out.discard(worker)  # its own state is in its own message
            self._changed.notify_all()  # another failing lane may be waiting for this worker
            waiting = sorted(out)
            returned_before = len(self._returned.get(stack, []))
            end = time.monotonic() + wait_s
            while out and (left := end - time.monotonic()) > 0:
                self._changed.wait(left)
            came_back = [w for w in self._returned.get(stack, [])[returned_before:] if w in waiting]
            still_out = sorted(out)
        if not waiting:
            return ""
        parts = []
        if came_back:
            parts.append(f"{', '.join(came_back)} (other lanes) finished and are back in service")
        if still_out:
            parts.append(
                f"{', '.join(still_out)} (other lanes) are still out of service: their steps failed or "
                "outlived the wait; their own messages say how they were left"
            )
        return "  Meanwhile " + "; ".join(parts) + "; no other worker was taken out."


LANES = Lanes()
