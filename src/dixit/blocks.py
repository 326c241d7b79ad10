"""Blocks at the table: who may not take a seat because of a block between players.

A block (one player's, of another) keeps the two apart: neither joins a public table the other sits at.
A private table is joined by its host's invitation, so there only a block between the newcomer and the
host counts, and one the host made is refused quietly: the newcomer cannot tell it from an invitation
that ran out, and so never learns who blocked them.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from enum import StrEnum


class SeatBar(StrEnum):
    NONE = "none"  # nothing keeps the newcomer out
    BLOCKED = "blocked"  # refused, and told so: a block between them and someone at a public table,
    # or their own block of a private table's host (their own list: telling them leaks nothing)
    QUIET = "quiet"  # refused as a stale invitation would be: the private table's host blocked them


def seat_bar(
    joiner: str,
    *,
    host_id: str,
    seated: Collection[str],
    blocks: Iterable[tuple[str, str]],
    private: bool,
) -> SeatBar:
    """Whether a block keeps `joiner` out of a table; `blocks` holds (blocker, blocked) pairs."""
    between = {(a, b) for a, b in blocks if joiner in (a, b) and a != b}
    if private:
        if (host_id, joiner) in between:
            return SeatBar.QUIET
        return SeatBar.BLOCKED if (joiner, host_id) in between else SeatBar.NONE
    others = set(seated) - {joiner}
    return SeatBar.BLOCKED if any((a in others) or (b in others) for a, b in between) else SeatBar.NONE
