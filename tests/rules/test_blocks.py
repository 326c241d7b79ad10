"""dixit.blocks: which block keeps a newcomer from a seat, and which refusal tells them nothing."""

from __future__ import annotations

from dixit.blocks import SeatBar, seat_bar

SEATED = ["host", "guest"]


def bar(joiner: str, blocks: set[tuple[str, str]], *, private: bool) -> SeatBar:
    return seat_bar(joiner, host_id="host", seated=SEATED, blocks=blocks, private=private)


def test_a_public_table_keeps_out_anyone_with_a_block_either_way_with_anyone_seated() -> None:
    assert bar("new", set(), private=False) is SeatBar.NONE
    assert bar("new", {("guest", "new")}, private=False) is SeatBar.BLOCKED
    assert bar("new", {("new", "host")}, private=False) is SeatBar.BLOCKED
    # A block among others, or of someone not at the table, is not the newcomer's.
    assert bar("new", {("host", "guest"), ("new", "elsewhere")}, private=False) is SeatBar.NONE


def test_a_private_table_counts_the_host_alone_and_refuses_the_hosts_block_quietly() -> None:
    assert bar("new", {("host", "new")}, private=True) is SeatBar.QUIET
    assert bar("new", {("new", "host")}, private=True) is SeatBar.BLOCKED
    assert bar("new", {("guest", "new"), ("new", "guest")}, private=True) is SeatBar.NONE
    # The host's quiet refusal wins over the newcomer's own block: both ways, nothing is said of the host's.
    assert bar("new", {("host", "new"), ("new", "host")}, private=True) is SeatBar.QUIET
