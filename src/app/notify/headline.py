"""What a notification says about its game, so a player with several games can tell them apart: the game
(by who plays it: games carry no title), the move owed and, where there is one, the clue.

Pure: from the notification and the game as its player sees it now. Player text (names, the clue) comes
after fixed wording and in quotes, so a name or clue cannot pass for the message's own words.
"""

from __future__ import annotations

from app.notify.messages import Kind, Notification
from dixit.lean_dataclass import dataclass
from dixit.state import GameState
from dixit.views import GameView, OwedMove, view_for

# Text from players is cut to this much in a one-line headline (a push body, a subject).
_MAX_QUOTED = 60
_MOVES = {OwedMove.CLUE: "give the clue", OwedMove.SUBMIT: "play a card", OwedMove.VOTE: "vote"}


def quoted(text: str) -> str:
    one_line = " ".join(text.split())
    if len(one_line) > _MAX_QUOTED:
        one_line = one_line[: _MAX_QUOTED - 1].rstrip() + "…"
    return f"“{one_line}”"


def players_label(view: GameView, player_id: str) -> str:
    """`with “Bob” and “Cy”`: the game named by the player's companions; empty when they are alone."""
    names = [quoted(p.name) for p in view.players if p.player_id != player_id]
    if not names:
        return ""
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return f"with {listed}"


@dataclass(frozen=True, slots=True)
class Headline:
    """One line for a mail's subject, and one for a push's body."""

    subject: str
    body: str


def headline(notification: Notification, state: GameState | None) -> Headline | None:
    """What the notification says about its game; None when the game is gone (the plain text then)."""
    if state is None:
        return None
    player_id = notification.player_id
    view = view_for(state, player_id)
    game = players_label(view, player_id)
    suffix = f" ({game})" if game else ""
    clue = None if view.round is None or not view.round.clue else quoted(view.round.clue)
    owed = None if view.you is None or view.you.owes is None else _MOVES[view.you.owes.move]
    move = f": {owed}" if owed else ""
    on_clue = f" on the clue {clue}" if clue and owed != _MOVES[OwedMove.CLUE] else ""
    kind = notification.kind
    if kind is Kind.YOUR_TURN:
        return Headline(f"Your turn in Dixit{move}{on_clue}{suffix}", f"Your turn{move}{on_clue}{suffix}")
    if kind is Kind.REMINDER:
        nudged = " (nudged)" if notification.nudged_by else ""
        return Headline(
            f"Reminder: a Dixit game waits for you{move}{on_clue}{suffix}{nudged}",
            f"Still waiting for you{move}{on_clue}{suffix}",
        )
    if kind is Kind.TIMEOUT:
        return Headline(f"Out of time in Dixit{suffix}", f"You ran out of time for your move{suffix}")
    if kind is Kind.GAME_OVER:
        return Headline(f"Game over in Dixit{suffix}", f"The game is over: see who won{suffix}")
    opener = quoted(notification.opener_name or "A player")
    return Headline(f"Dixit: a rematch opened by {opener} — join", f"A rematch opened by {opener} — join")
