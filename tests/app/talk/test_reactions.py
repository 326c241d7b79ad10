"""app.talk.reactions over the in-memory doubles: one per player per target, counted by target."""

from __future__ import annotations

import pytest

from app.core.errors import Forbidden, NotFound
from app.games import play as games
from app.players import accounts
from app.services import Services
from app.talk import messages, reactions, reports
from dixit.errors import IllegalMoveError, InvalidMoveError

from ..games.helpers import finished, started


def test_reactions_are_counted_by_target_with_the_viewers_own(services: Services) -> None:
    record, (ada, bob, cy) = started(services, 3)
    said = messages.post_message(services, ada, record.game_id, "snacks?")
    reactions.react(services, bob, record.game_id, said.message_id, "laugh")
    reactions.react(services, cy, record.game_id, said.message_id, "laugh")
    reactions.react(services, cy, record.game_id, said.message_id, "wow")
    (counted,) = reactions.reactions_at(services, bob, record.game_id)
    assert (counted.target, counted.counts, counted.yours) == (
        said.message_id,
        {"laugh": 1, "wow": 1},
        "laugh",
    )
    reactions.unreact(services, bob, record.game_id, said.message_id)
    assert reactions.reactions_at(services, bob, record.game_id)[0].counts == {"wow": 1}


def test_a_reaction_needs_a_seat_a_known_target_and_a_known_reaction(services: Services) -> None:
    record, (ada, _, _) = started(services, 3)
    stranger = accounts.register(services, "Eve")[0]
    with pytest.raises(Forbidden):
        reactions.react(services, stranger, record.game_id, "round-1", "wow")
    with pytest.raises(IllegalMoveError) as early:
        reactions.react(services, ada, record.game_id, "round-1", "wow")
    assert early.value.code == "round_not_revealed"
    with pytest.raises(NotFound):
        reactions.react(services, ada, record.game_id, "m_0000000000000deadbeef", "wow")
    with pytest.raises(InvalidMoveError):
        reactions.react(services, ada, record.game_id, "round-1", "angry")
    assert reactions.reactions_at(services, ada, record.game_id) == []


def test_no_reaction_to_a_round_a_finished_game_never_played_nor_to_a_hidden_message(
    services: Services,
) -> None:
    game_id, (ada, bob, _) = finished(services)
    last = games.load_game(services, game_id).state.last_round
    assert last is not None
    reactions.react(services, ada, game_id, f"round-{last.number}", "wow")
    with pytest.raises(NotFound) as never:
        reactions.react(services, ada, game_id, f"round-{last.number + 1}", "wow")
    assert never.value.code == "reaction_target_not_found"
    said = messages.post_message(services, bob, game_id, "that was quick")
    services.talk.report_message(
        game_id, said.message_id, ada.player_id, reason="rude", at=services.now_iso()
    )
    reports.hide(services, ada, game_id, said.message_id)
    with pytest.raises(NotFound):
        reactions.react(services, ada, game_id, said.message_id, "wow")
