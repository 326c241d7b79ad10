"""Table talk: when a game's players may write to one another, by the game's `table_talk` setting.

Dixit's secrecy lives in two phases: while the others choose a card for the clue, and while they vote.
A word then ("mine is the one with the cat") gives a card away, so `between_rounds` (the default) closes
talk exactly there and opens it again at the reveal, when every card is shown anyway. The lobby, the
time the storyteller thinks of a clue, and the end are open. `always` trusts the table; `off` is silence.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import TYPE_CHECKING

from dixit.errors import IllegalMoveError, InvalidMoveError
from dixit.lean_dataclass import dataclass
from dixit.settings import TableTalk
from dixit.state_parts import Phase

if TYPE_CHECKING:
    from dixit.state import GameState

# The phases in which a word could give a card away.
SECRET_PHASES = frozenset({Phase.SUBMITTING, Phase.VOTING})


class Reopens(StrEnum):
    """When closed talk opens again, as a client may state it."""

    AT_REVEAL = "at_reveal"  # when the round's votes are in and its cards are shown
    NEVER = "never"  # the game's talk is off


@dataclass(frozen=True, slots=True)
class TalkWindow:
    open: bool
    reopens: Reopens | None  # None while open

    @property
    def why_closed(self) -> str:
        """The words of a refusal: why talk is closed and when it opens again ('' while open)."""
        if self.reopens is Reopens.AT_REVEAL:
            return (
                "table talk is closed while cards are chosen and votes cast, so no word gives a card away; "
                "it opens again at the reveal"
            )
        if self.reopens is Reopens.NEVER:
            return "table talk is off in this game"
        return ""


OPEN = TalkWindow(open=True, reopens=None)


def talk_window(setting: TableTalk, phase: Phase) -> TalkWindow:
    """Whether the table may talk in `phase` under `setting`, and if not, when it may again."""
    if setting is TableTalk.OFF:
        return TalkWindow(open=False, reopens=Reopens.NEVER)
    if setting is TableTalk.BETWEEN_ROUNDS and phase in SECRET_PHASES:
        return TalkWindow(open=False, reopens=Reopens.AT_REVEAL)
    return OPEN


def check_talk(setting: TableTalk, phase: Phase) -> None:
    """Refuse a message the phase does not allow (IllegalMoveError, 409), saying when talk opens again."""
    window = talk_window(setting, phase)
    if window.reopens is Reopens.NEVER:
        raise IllegalMoveError("table_talk_off", window.why_closed)
    if not window.open:
        raise IllegalMoveError("table_talk_closed", window.why_closed)


# Reactions: a small fixed set (a client draws each its own way), one per player per target.
REACTIONS = ("laugh", "wow", "love", "clever", "oops")
_ROUND_TARGET = re.compile(r"^round-([1-9][0-9]{0,3})$")


def check_reaction(reaction: object) -> str:
    if reaction not in REACTIONS:
        raise InvalidMoveError("unknown_reaction", f"a reaction is one of {list(REACTIONS)}")
    return str(reaction)


def revealed_round_of(target: str) -> int | None:
    """The round number a target names ("round-3"), or None when it names no round (a message, perhaps)."""
    matched = _ROUND_TARGET.fullmatch(target)
    return int(matched.group(1)) if matched else None


def check_round_target(state: GameState, number: int) -> None:
    """A round may be reacted to once it is revealed: every card and vote is shown, nothing is secret."""
    last = state.last_round
    if last is None or number > last.number:
        raise IllegalMoveError("round_not_revealed", f"round {number} has not been revealed")
