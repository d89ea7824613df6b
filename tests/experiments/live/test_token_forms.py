"""A kubeconfig token that no HTTP header can carry (a line break, a character outside Latin-1): the command
ends in one line, and no part of the token is in it, not even in the escaped form an error shows it in."""

from __future__ import annotations

import pytest

from experiments.cli.main import main

from ..kube_standin import Cluster, StandIn

PARTS = ("Zq7SecretHead", "tail")
"""The token's pieces: the second is too short to be masked as a line of its own."""


@pytest.mark.parametrize(
    ("token", "problem"),
    [
        (f"{PARTS[0]}\r\n{PARTS[1]}", "Invalid header value b'***'"),
        (f"{PARTS[0]}\n{PARTS[1]}", "Invalid header value b'***'"),
        (f"{PARTS[0]}\t\r{PARTS[1]}", "Invalid header value b'***'"),
        (f"{PARTS[0]}\u20ac{PARTS[1]}", "ordinal not in range(256)"),
    ],
    ids=["crlf", "lf", "tab-cr", "not-latin-1"],
)
@pytest.mark.parametrize("verb", ["approve-csrs", "run"])
def test_a_token_no_header_can_carry_is_one_line_without_any_of_it(tmp_path, capsys, token, problem, verb) -> None:
    """Before: the error showed the escaped header value with only the token's first line masked (``b'***\\ntail'``)."""
    argv = {
        "approve-csrs": ["approve-csrs", "h100-2n-sriov-rdma-join", "--timeout", "10", "--dry-run"],
        "run": ["run", "dev", "--timeout", "10", "--store", str(tmp_path / "s.sqlite"), "--out", str(tmp_path / "o")],
    }[verb]
    with StandIn(Cluster()) as standin:
        code = main([*argv, "--kubeconfig", str(standin.kubeconfig(tmp_path, token=token))])
    captured = capsys.readouterr()
    assert code == 2
    (line,) = captured.err.strip().splitlines()
    assert line.endswith(f"asking its version: {problem}"), line
    text = captured.out + captured.err
    assert not [part for part in PARTS if part in text]
    assert not (tmp_path / "s.sqlite").exists() and not (tmp_path / "o").exists()
