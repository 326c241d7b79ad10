"""app.flows.erase_account: every game left or its seat renamed, the push endpoints, the digest entry and
the partition gone, in that order, so that an erasure cut short is finished by a retry with the same
token; on the in-memory doubles and on DynamoDB (moto) alike."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import NotAuthenticated, StoreUnavailable
from app.flows.erase_account import erase_account
from app.games import inbox
from app.games import play as games
from app.players import accounts
from app.players.accounts import SignedIn
from app.services import Services
from dixit.engine import DELETED_PLAYER_NAME
from dixit.state import Phase
from tests.app.account.test_account_data import ENDPOINT
from tests.fakes.push import MemoryNotifier


@pytest.fixture
def services(services: Services, _moto: None) -> Services:
    # Push endpoints in memory, whichever store: the erasure must reach them through the channel. The
    # digest index is the environment's (tests/support/services.STORE_PORTS leaves it out), so moto
    # stands in for DynamoDB with either store.
    return replace(services, push=MemoryNotifier())


def _signed(services: Services, token: str) -> SignedIn:
    return accounts.authenticate(services, f"Bearer {token}")


def test_erasing_leaves_the_lobby_renames_the_seats_and_empties_the_partition(
    services: Services, account: dict[str, Any]
) -> None:
    me = account["me"]
    erase_account(services, _signed(services, account["token"]))

    with pytest.raises(NotAuthenticated):
        _signed(services, account["token"])
    assert services.players.get_player(me.player_id) is None
    assert services.sessions.list_sessions(me.player_id) == []
    assert services.webhooks.list_webhooks(me.player_id) == []
    assert services.notifications.devices(me.player_id) == []
    assert services.web_push_subscriptions.list_web_push_subscriptions(me.player_id) == []
    assert services.notifications.preferences(me.player_id).muted_games == frozenset()
    assert services.inbox.active_memberships(me.player_id) == []
    assert services.inbox.finished_memberships(me.player_id, 20, None) == ([], None)
    assert isinstance(services.push, MemoryNotifier)
    assert services.push.deleted == [ENDPOINT]

    # Their words are gone from the tables, in place and signed as their seats are; the others' stay.
    assert services.talk.messages_by(me.player_id) == []  # the pointers went with the partition
    said = services.talk.list_messages(account["done"].game_id, before="", limit=10)
    assert sorted((m.author_name, m.text) for m in said) == [
        (DELETED_PLAYER_NAME, None),
        (account["others"][0].name, "Thanks!"),
    ]
    lobby_talk = services.talk.list_messages(account["lobby"].game_id, before="", limit=10)
    assert [(m.author_name, m.text) for m in lobby_talk] == [(DELETED_PLAYER_NAME, None)]

    for key in ("done", "live"):
        state = games.load_game(services, account[key].game_id).state
        seat = state.player(me.player_id)
        assert seat is not None
        assert seat.name == DELETED_PLAYER_NAME
        assert state.version == account[key].version + 1
    lobby = games.load_game(services, account["lobby"].game_id).state
    assert lobby.player(me.player_id) is None
    assert lobby.host_id == account["others"][2].player_id
    # The others keep their inbox entries and history.
    a = account["others"][0]
    assert [m.game_id for m in services.inbox.active_memberships(a.player_id)] == [account["live"].game_id]


def test_erasing_forgets_the_accounts_live_connections_and_what_they_watch(
    services: Services, account: dict[str, Any]
) -> None:
    me, other = account["me"], account["others"][0]
    game_id, now = account["live"].game_id, services.now_epoch()
    for connection, player in (("mine-1", me), ("mine-2", me), ("theirs", other)):
        assert services.live.add_connection(
            connection, player.player_id, now=now, expires_at=now + 600, most=5
        )
        assert services.live.add_watch(connection, player.player_id, game_id, expires_at=now + 600, most=5)

    erase_account(services, _signed(services, account["token"]))

    # No change of the game reaches the account's sockets, and a frame from one names no player.
    assert services.live.connections_of(me.player_id, now=now) == []
    assert sorted(services.live.watchers_with_players(game_id, now=now)) == ["theirs"]
    assert services.live.player_of("mine-1", now=now) is None
    assert services.live.player_of("theirs", now=now) == other.player_id


def test_a_socket_opened_while_the_account_is_deleted_is_forgotten_too(
    services: Services, account: dict[str, Any]
) -> None:
    # A ticket issued just before the delete (it lives 30 s) is redeemed while the delete runs: its
    # $connect found the profile still there, and recorded the connection after the first forgetting.
    me, now = account["me"], services.now_epoch()
    players = services.players

    class OpenedMeanwhile:
        def __getattr__(self, name: str) -> Any:
            return getattr(players, name)

        def delete_player_data(self, player_id: str) -> int:
            assert services.live.add_connection("late", player_id, now=now, expires_at=now + 600, most=5)
            return players.delete_player_data(player_id)

    erase_account(replace(services, players=OpenedMeanwhile()), _signed(services, account["token"]))

    assert services.live.connections_of(me.player_id, now=now) == []
    assert services.live.player_of("late", now=now) is None


def test_a_game_finishing_after_the_delete_files_no_history_for_the_deleted_seat(
    services: Services, account: dict[str, Any]
) -> None:
    me, (a, b, _) = account["me"], account["others"]
    erase_account(services, _signed(services, account["token"]))
    record = games.load_game(services, account["live"].game_id)
    finished = replace(record.state.copy(), phase=Phase.FINISHED, round=None)
    inbox.refresh(services.inbox, record.state, finished, record.updated_at)
    assert services.inbox.finished_memberships(me.player_id, 20, None) == ([], None)
    assert len(services.inbox.finished_memberships(a.player_id, 20, None)[0]) == 2
    assert len(services.inbox.finished_memberships(b.player_id, 20, None)[0]) == 2


def test_an_interrupted_erase_is_finished_by_a_retry_with_the_same_token(
    services: Services, account: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    me = account["me"]
    real = services.players.delete_player_data

    def fails(player_id: str) -> int:
        raise StoreUnavailable()

    monkeypatch.setattr(services, "players", _Failing(services.players, fails))
    with pytest.raises(StoreUnavailable):
        erase_account(services, _signed(services, account["token"]))
    signed = _signed(services, account["token"])  # still signed in: the profile goes last
    assert signed.player.player_id == me.player_id

    monkeypatch.setattr(services, "players", _Failing(services.players, real))
    erase_account(services, signed)
    with pytest.raises(NotAuthenticated):
        _signed(services, account["token"])
    # The retry renamed nothing twice.
    state = games.load_game(services, account["done"].game_id).state
    assert state.version == account["done"].version + 1


class _Failing:
    """A PlayerStore whose delete_player_data is `delete`, the rest the store's own."""

    def __init__(self, store: Any, delete: Any) -> None:
        self._store, self.delete_player_data = store, delete

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
