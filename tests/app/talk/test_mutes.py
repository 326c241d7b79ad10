"""app.talk.mutes over the in-memory doubles: a bounded list of one's own."""

from __future__ import annotations

import pytest

from app.core.errors import Conflict
from app.players import accounts
from app.services import Services
from app.talk import messages, mutes

from ..games.helpers import started


def test_a_muted_authors_messages_are_marked_hidden_for_the_muter_alone(services: Services) -> None:
    record, (ada, bob, cy) = started(services, 3)
    said = messages.post_message(services, bob, record.game_id, "spam")
    mutes.mute(services, ada, bob.player_id)
    assert messages.list_messages(services, ada, record.game_id, before=None, limit=5).hidden == {
        said.message_id
    }
    assert messages.list_messages(services, cy, record.game_id, before=None, limit=5).hidden == frozenset()


def test_mutes_are_bounded(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mutes, "MAX_MUTED", 2)
    me, *others = [accounts.register(services, f"P{n}")[0] for n in range(4)]
    mutes.mute(services, me, others[0].player_id)
    mutes.mute(services, me, others[1].player_id)
    mutes.mute(services, me, others[1].player_id)  # muting again is no new mute
    with pytest.raises(Conflict) as full:
        mutes.mute(services, me, others[2].player_id)
    assert full.value.code == "too_many_mutes"
    mutes.unmute(services, me, others[0].player_id)
    mutes.mute(services, me, others[2].player_id)
    assert mutes.muted(services, me) == sorted([others[1].player_id, others[2].player_id])
