"""Table talk: when a game's players may write to one another, by the game's `table_talk` setting.

Dixit's secrecy lives in two phases: while the others choose a card for the clue, and while they vote.
A word then ("mine is the one with the cat") gives a card away, so `between_rounds` (the default) closes
talk exactly there and opens it again at the reveal, when every card is shown anyway. The lobby, the
time the storyteller thinks of a clue, and the end are open. `always` trusts the table; `off` is silence.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dixit.errors import IllegalMoveError
from dixit.settings import TableTalk
from dixit.state_parts import Phase

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
