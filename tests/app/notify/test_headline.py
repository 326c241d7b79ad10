"""app.notify.headline: what a push or a subject says about its game, player text quoted."""

from __future__ import annotations

from app.notify.headline import headline, quoted
from app.notify.messages import Kind, Notification
from app.services import Services

from .email.test_channel import started, storyteller


def test_player_text_is_one_line_quoted_and_cut() -> None:
    assert quoted("a  quiet\nstorm") == "“a quiet storm”"
    long = quoted("x" * 200)
    assert long.startswith("“x")
    assert long.endswith("…”")
    assert len(long) <= 62


def test_a_game_is_named_by_the_other_players_and_the_move_owed(services: Services) -> None:
    seats, state = started(services)
    teller = storyteller(seats, state)
    others = " and ".join(f"“{p.name}”" for p in seats if p is not teller)
    note = Notification(Kind.YOUR_TURN, state.game_id, teller.player_id, occasion=str(state.version))
    said = headline(note, state)
    assert said is not None
    assert said.subject == f"Your turn in Dixit: give the clue (with {others})"
    assert said.body == f"Your turn: give the clue (with {others})"
    over = headline(Notification(Kind.GAME_OVER, state.game_id, teller.player_id, occasion="9"), state)
    assert over is not None
    assert over.subject == f"Game over in Dixit (with {others})"
    assert headline(note, None) is None  # the game is gone: the kind's plain text


def test_a_rematch_names_its_opener_after_fixed_wording(services: Services) -> None:
    seats, state = started(services)
    note = Notification(
        Kind.REMATCH, state.game_id, seats[1].player_id, occasion="g_1", rematch_of="g_1", opener_name="Ann"
    )
    said = headline(note, state)
    assert said is not None
    assert said.subject == "Dixit: a rematch opened by “Ann” — join"
