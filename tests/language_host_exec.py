"""What the Python language host runs a program with, for tests: the CLI ships it as ``pulumi-language-python-exec``
(pulumi/pulumi ``sdk/python/cmd/pulumi-language-python-exec``), which is not in the SDK's wheel.  The same steps, in
the same order: the arguments the host passes, config from ``PULUMI_CONFIG`` / ``PULUMI_CONFIG_SECRET_KEYS``, the
runtime's settings, the program run in the stack resource, and the exit codes the host reads (0; 1 after a
``RunError`` logged; 32 after an unhandled exception logged with its traceback)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import runpy
import sys
import traceback

import pulumi
import pulumi.runtime

USER_ACTIONABLE_EXIT = 32
"""The host shows the logged message and nothing more (``pythonProcessExitedAfterShowingUserActionableMessage``)."""


def main() -> int:
    parser = argparse.ArgumentParser()
    for option in ("project", "root_directory", "stack", "parallel", "dry_run", "pwd", "monitor", "engine", "tracing"):
        parser.add_argument(f"--{option}")
    parser.add_argument("--organization")
    parser.add_argument("PROGRAM")
    parser.add_argument("ARGS", nargs="*")
    args = parser.parse_args()

    pulumi.runtime.set_all_config(pulumi.runtime.get_config_env(), pulumi.runtime.get_config_secret_keys_env())
    settings = pulumi.runtime.Settings(
        monitor=args.monitor,
        engine=args.engine,
        project=args.project,
        stack=args.stack,
        parallel=int(args.parallel),
        dry_run=args.dry_run == "true",
        organization=args.organization,
        root_directory=args.root_directory,
    )
    pulumi.runtime.configure(settings)
    sys.argv = [args.PROGRAM, *args.ARGS]
    if args.pwd is not None:
        os.chdir(args.pwd)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    code = 1
    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(lambda: runpy.run_path(args.PROGRAM, run_name="__main__")))
        code = 0
    except pulumi.RunError as error:
        pulumi.log.error(str(error))
    except Exception:  # noqa: BLE001 - reported to the engine, as the host's runner does
        pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
        code = USER_ACTIONABLE_EXIT
    finally:
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
