"""Pulumi entry point: the one program function every stack runs (``components.pulumi_program``)."""

from components import pulumi_program

pulumi_program()
