"""app.talk.blocks over the in-memory doubles: a bounded list of one's own that mutes too, and a join
(app.games.play) kept from a table by it."""

from __future__ import annotations

import pytest

from app.core.errors import Conflict, Forbidden
from app.core.records import Visibility
from app.games import play as games
from app.players import accounts
from app.services import Services
from app.talk import blocks, messages
from dixit.moves import Join


def test_blocks_are_bounded_and_mute_too(services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(blocks, "MAX_BLOCKED", 2)
    me, *others = [accounts.register(services, f"P{n}")[0] for n in range(4)]
    blocks.block(services, me, others[0].player_id)
    blocks.block(services, me, others[1].player_id)
    blocks.block(services, me, others[1].player_id)  # blocking again is no new block
    with pytest.raises(Conflict) as full:
        blocks.block(services, me, others[2].player_id)
    assert full.value.code == "too_many_blocks"
    blocks.unblock(services, me, others[0].player_id)
    blocks.block(services, me, others[2].player_id)
    assert blocks.blocked(services, me) == sorted([others[1].player_id, others[2].player_id])
    assert services.talk.muted_players(me.player_id) == blocks.blocked(services, me)


def test_a_block_keeps_the_blocked_out_of_the_blockers_public_lobby(services: Services) -> None:
    ada, bob, cy = [accounts.register(services, n)[0] for n in ("Ada", "Bob", "Cy")]
    record = games.create_game(
        services, ada, rules="classic", decks=None, max_players=None, target_score=None,
        visibility=Visibility.PUBLIC,
    ).record  # fmt: skip
    assert record is not None
    blocks.block(services, ada, bob.player_id)
    with pytest.raises(Forbidden) as kept:
        games.play(services, bob, record.game_id, Join(bob.player_id, bob.name))
    assert kept.value.code == "player_blocked"
    joined = games.play(services, cy, record.game_id, Join(cy.player_id, cy.name)).record
    assert joined.state.player_ids == [ada.player_id, cy.player_id]
    # Once seated, a block made later changes nothing of the game: talk is hidden, as a mute's.
    blocks.block(services, cy, ada.player_id)
    said = messages.post_message(services, ada, record.game_id, "welcome")
    page = messages.list_messages(services, cy, record.game_id, before=None, limit=5)
    assert page.hidden == {said.message_id}
