"""One line for an Automation API outcome: the CLI's error (shared by ``stack up`` and the sweep)
and an engine summary's changes."""

from __future__ import annotations

from types import SimpleNamespace

from pulumi import automation as auto
from pulumi.automation.errors import CommandError
from pulumi.automation.events import OpType

from experiments.stacks.automation import change_text, short_error


def test_the_first_error_line_of_a_failed_cli_run_is_the_message() -> None:
    failed = CommandError(
        auto.CommandResult(
            stdout="Updating (sweep):\nDiagnostics:\n  ibm:index:IsInstance (node-1):\n"
            "    error: the instance gpu-node-1 did not stop in 30m\n",
            stderr="error: update failed\n",
            code=255,
        )
    )
    assert short_error(failed) == "the instance gpu-node-1 did not stop in 30m"


def test_an_error_inside_a_line_is_found_too() -> None:
    failed = CommandError(SimpleNamespace(command="pulumi up", code=255, stdout="", stderr="error: no backend"))
    assert short_error(failed).startswith("no backend")


def test_without_an_error_line_the_last_line_or_the_type_is_the_message() -> None:
    assert short_error(RuntimeError("starting\n  the plugin crashed  \n\n")) == "the plugin crashed"
    assert short_error(RuntimeError("")) == "RuntimeError"


def test_changes_are_counted_in_name_order_and_none_is_said() -> None:
    assert change_text({OpType.UPDATE: 2, "create": 3, OpType.SAME: 0}) == "create 3, update 2"
    assert change_text(None) == "no change"
    assert change_text({"same": 0}) == "no change"
