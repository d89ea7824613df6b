"""Before any stack is touched: the Pulumi CLI and a secrets provider that works without a prompt.

Every Automation API call shells out to the CLI, so a command that uses it checks both first and says, in one
line (exit 2), what is missing and what the user can do in the command at hand: ``CliUse`` names the command
(the sweep, a ``stack`` verb, ``examples/automation.py``) and its way around the CLI, if it has one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass

from pulumi import automation as auto
from pulumi.automation.errors import InvalidVersionError
from semver import VersionInfo  # pulumi's own dependency: PulumiCommand takes its minimum version as one

from experiments.base.errors import InputError

__all__ = [
    "CLI_MISSING",
    "MIN_CLI_VERSION",
    "SWEEP",
    "AutomationUnavailable",
    "CliUse",
    "pulumi_command",
    "require_cli",
    "require_secrets_provider",
]

MIN_CLI_VERSION = VersionInfo(3, 157, 0)
"""The project's Pulumi.yaml has a ``packages:`` block (the parameterized IBM provider), which
CLIs before 3.157 do not know."""
INSTALL = "https://www.pulumi.com/docs/install/"
PASSPHRASE_VARIABLES = ("PULUMI_CONFIG_PASSPHRASE", "PULUMI_CONFIG_PASSPHRASE_FILE")


class AutomationUnavailable(InputError):
    """The real path cannot start (no CLI, no secrets provider): the CLI exits 2 with this message."""


@dataclass(frozen=True)
class CliUse:
    """The command that runs the Pulumi CLI, as its messages name it."""

    verb: str
    """As a sentence names it: ``the sweep``, ```stack up```."""
    offline: str | None = None
    """What the command can do without the CLI (``run the sweep with --offline``), if anything."""
    secrets_flag: bool = True
    """The command takes ``--secrets-provider``."""

    def _or_offline(self) -> str:
        return f", or {self.offline}" if self.offline else ""

    def missing(self) -> str:
        if self.offline:
            return f"the Pulumi CLI is not installed: install it ({INSTALL}) or {self.offline}"
        return f"the Pulumi CLI is not installed, and {self.verb} runs it: install it ({INSTALL})"

    def too_old(self, error: InvalidVersionError) -> str:
        return f"the Pulumi CLI cannot run {self.verb}: {error} ({INSTALL})"

    def failing(self, returncode: int) -> str:
        return (
            f"`pulumi version` failed with exit status {returncode}: check the Pulumi CLI on PATH{self._or_offline()}"
        )

    def unrunnable(self, error: OSError) -> str:
        return f"cannot run the Pulumi CLI ({error.strerror or error}): check the `pulumi` on PATH{self._or_offline()}"

    def no_passphrase(self) -> str:
        flag = (
            ", or pass --secrets-provider with a key service URL (awskms://, azurekeyvault://, gcpkms://, hashivault://)"
            if self.secrets_flag
            else ""
        )
        return (
            f"{self.verb} opens its stacks with the passphrase secrets provider, which would prompt: set "
            f"PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE){flag}"
        )


SWEEP = CliUse("the sweep", offline="run the sweep with --offline")
CLI_MISSING = SWEEP.missing()


def pulumi_command(use: CliUse = SWEEP) -> auto.PulumiCommand:
    """The CLI the workspaces run, checked the way the Automation API checks it.

    ``PulumiCommand`` runs ``pulumi version``: a CLI that is missing, not executable, failing or
    too old raises ``FileNotFoundError``/``OSError``, ``CalledProcessError`` or
    ``InvalidVersionError``; each becomes ``AutomationUnavailable`` (exit 2 with the message).
    """
    if shutil.which("pulumi") is None:
        raise AutomationUnavailable(use.missing())
    try:
        return auto.PulumiCommand(version=MIN_CLI_VERSION)
    except FileNotFoundError:
        raise AutomationUnavailable(use.missing()) from None
    except InvalidVersionError as error:
        raise AutomationUnavailable(use.too_old(error)) from None
    except subprocess.CalledProcessError as error:
        raise AutomationUnavailable(use.failing(error.returncode)) from None
    except OSError as error:
        raise AutomationUnavailable(use.unrunnable(error)) from None


def require_cli(use: CliUse = SWEEP) -> None:
    pulumi_command(use)


def require_secrets_provider(
    secrets_provider: str | None, environ: Mapping[str, str] = os.environ, use: CliUse = SWEEP
) -> None:
    """A stack of the passphrase provider (the default) is created and opened with the passphrase, which the
    CLI would otherwise prompt for: without a terminal, ``stack init`` fails."""
    if secrets_provider not in (None, "default", "passphrase"):
        return
    if not any(environ.get(name) for name in PASSPHRASE_VARIABLES):
        raise AutomationUnavailable(use.no_passphrase())
