"""The sweep's vocabulary: axes, cells, the matrix spec and what each cell became."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from components.models.catalog import PROFILES
from experiments.base.errors import InputError
from experiments.base.paths import project_dir

if TYPE_CHECKING:  # a type only: the command-line parser reads these constants without loading stacks
    from experiments.stacks.stackfile import StackFile

AXES = ("profile", "variant", "nodes", "nics")
MATRIX_KEYS = (*AXES, "zone", "base", "teardown")
TEARDOWNS = ("destroy", "keep-last", "keep")
"""What ``--engine argo`` does with each cell after its run (``teardown:``, ``--teardown``); the
local engine checks the file's value and leaves every cell as ``--up`` made it."""
NICS_AS_NODES = "nodes"
"""``--nics nodes``: one NIC per node of the cell (the study's L40S vNIC rule)."""
DEFAULT_ZONE = "us-east-3"
DEFAULT_NICS: tuple[int | str, ...] = (1,)
STACK_PREFIX = "sweep"
DEFAULT_STATE_DIR = project_dir() / ".pulumi-state"


class SweepSpecError(InputError):
    """A matrix that cannot be swept; the message names the file or flag and the field."""


def _profile_aliases() -> dict[str, str]:
    """``h100`` -> gx3d-160x1792x8h100; a family's smaller profiles get ``-<n>gpu`` (``l40s-1gpu``)."""
    aliases: dict[str, str] = {}
    for family in sorted({p.family for p in PROFILES.values()}):
        members = sorted((p for p in PROFILES.values() if p.family == family), key=lambda p: -p.gpus)
        aliases[family] = members[0].name
        for profile in members[1:]:
            aliases[f"{family}-{profile.gpus}gpu"] = profile.name
    return aliases


PROFILE_ALIASES = _profile_aliases()
SHORT_NAMES = {name: alias for alias, name in PROFILE_ALIASES.items()}


@dataclass(frozen=True)
class Cell:
    profile: str
    """Full IBM profile name."""
    nodes: int
    variant: str
    nics: int

    @property
    def short_profile(self) -> str:
        return SHORT_NAMES[self.profile]

    @property
    def name(self) -> str:
        """Stack name and IBM ``name_prefix`` at once, e.g. ``sweep-h100-2n-sriov-rdma-1nic``."""
        nics = "" if self.variant == "pod" else f"-{self.nics}nic"
        return f"{STACK_PREFIX}-{self.short_profile}-{self.nodes}n-{self.variant}{nics}"


@dataclass(frozen=True)
class SweepSpec:
    source: str
    """Where the matrix came from, for messages: the matrix file's name or ``command line``."""
    profiles: tuple[str, ...]
    variants: tuple[str, ...]
    nodes: tuple[int, ...]
    nics: tuple[int | str, ...]
    zone: str
    base: dict[str, Any] = field(default_factory=dict)
    """Cluster settings every cell starts from (``--base`` stack, then the file's ``base:``)."""
    teardown: str = "destroy"
    """The matrix file's ``teardown:`` (one of ``TEARDOWNS``); ``--teardown`` overrides it."""


@dataclass(frozen=True)
class CellPlan:
    cell: Cell
    cluster: dict[str, Any]
    stack: StackFile | None
    reason: str | None = None
    """Why the cell is skipped (``stack`` is None)."""


CellStatus = Literal["ok", "skipped", "failed", "interrupted", "not run"]


@dataclass(frozen=True)
class CellResult:
    cell: Cell
    status: CellStatus
    reason: str | None = None
    resources: int | None = None
    changes: dict[str, int] = field(default_factory=dict)
    fingerprint: str | None = None
    predicted_samples_per_s: float | None = None
    """The throughput model's prediction for the cell (``python -m experiments predict``)."""
    steps: dict[str, int] | None = None
    """Engine events seen (real path): steps started, done and failed."""

    def row(self) -> dict[str, Any]:
        return {
            "stack": self.cell.name,
            "profile": self.cell.profile,
            "nodes": self.cell.nodes,
            "variant": self.cell.variant,
            "nics": self.cell.nics,
            "status": self.status,
            "reason": self.reason,
            "resources": self.resources,
            "changes": self.changes,
            "fingerprint": self.fingerprint,
            "predicted_samples_per_s": self.predicted_samples_per_s,
            "steps": self.steps,
        }

    @property
    def status_text(self) -> str:
        return self.status if self.reason is None else f"{self.status}: {self.reason}"


# ---- the matrix: flags, file, validation -------------------------------------------------------------
