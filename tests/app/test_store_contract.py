"""What every Store adapter promises the use cases: conditional, all-or-nothing writes and listings."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.errors import VersionConflict
from app.records import GameRecord, PlayerRecord, Visibility
from app.store import Store
from dixit import engine
from dixit.moves import Join, Start
from dixit.settings import Settings

STAMP = "2026-03-01T12:00:00.000+00:00"


def game(game_id: str = "g_0000000000000001", *, visibility: Visibility = Visibility.PUBLIC) -> GameRecord:
    state = engine.new_game(
        game_id, host_id="p_host", host_name="Host", settings=Settings.build("classic"), seed=7
    )
    return GameRecord(state, visibility, "invite", created_at=STAMP, updated_at=STAMP)


def joined(record: GameRecord, player_id: str) -> GameRecord:
    return replace(record, state=engine.apply(record.state, Join(player_id, player_id), now=0).state)


def test_a_player_is_read_back_as_written_and_an_unknown_one_is_none(store: Store) -> None:
    player = PlayerRecord("p_1", "Ada", "hash", STAMP)
    store.create_player(player)
    assert store.get_player("p_1") == player
    assert store.get_player("p_2") is None


def test_a_new_game_is_readable_and_its_host_is_a_member(store: Store) -> None:
    record = game()
    store.create_game(record)
    loaded = store.load_game(record.game_id)
    assert loaded is not None
    assert loaded.state.to_json() == record.state.to_json()
    assert [g.game_id for g in store.games_of("p_host")] == [record.game_id]
    assert store.load_game("g_ffffffffffffffff") is None


def test_a_game_id_cannot_be_created_twice(store: Store) -> None:
    store.create_game(game())
    with pytest.raises(VersionConflict):
        store.create_game(game())


def test_a_write_on_a_stale_version_raises_version_conflict_with_the_current_version(store: Store) -> None:
    record = game()
    store.create_game(record)
    store.save_game(joined(record, "p_a"), expected_version=0, joined=["p_a"])
    with pytest.raises(VersionConflict) as lost:
        store.save_game(joined(record, "p_b"), expected_version=0, joined=["p_b"])
    assert lost.value.current_version == 1
    assert store.games_of("p_b") == []  # the membership went down with the game write
    loaded = store.load_game(record.game_id)
    assert loaded is not None
    assert [p.player_id for p in loaded.state.players] == ["p_host", "p_a"]


def test_leaving_removes_the_membership_in_the_same_write(store: Store) -> None:
    record = game()
    store.create_game(record)
    store.save_game(joined(record, "p_a"), expected_version=0, joined=["p_a"])
    assert [g.game_id for g in store.games_of("p_a")] == [record.game_id]
    again = store.load_game(record.game_id)
    assert again is not None
    store.save_game(again, expected_version=1, left=["p_a"])
    assert store.games_of("p_a") == []


def test_open_games_are_public_lobbies_newest_first(store: Store) -> None:
    older = game("g_0000000000000001")
    newer = replace(game("g_0000000000000002"), created_at="2026-03-01T12:00:01.000+00:00")
    private = game("g_0000000000000003", visibility=Visibility.PRIVATE)
    for record in (older, newer, private):
        store.create_game(record)
    assert [g.game_id for g in store.list_open_games(10)] == [newer.game_id, older.game_id]
    assert [g.game_id for g in store.list_open_games(1)] == [newer.game_id]


def test_a_started_game_leaves_the_lobby_listing_and_is_due_when_its_deadline_passes(store: Store) -> None:
    record = game()
    store.create_game(record)
    for seat in ("p_a", "p_b"):
        current = store.load_game(record.game_id)
        assert current is not None
        store.save_game(joined(current, seat), expected_version=current.version, joined=[seat])
    current = store.load_game(record.game_id)
    assert current is not None
    started = replace(current, state=engine.apply(current.state, Start("p_host"), now=0).state)
    started.due_at = "2026-03-02T12:00:00+00:00"
    store.save_game(started, expected_version=current.version)

    assert store.list_open_games(10) == []
    assert store.due_games("2026-03-02T11:59:59+00:00", 10) == []
    assert [g.game_id for g in store.due_games("2026-03-02T12:00:00+00:00", 10)] == [record.game_id]


def test_a_nudge_is_postponed_only_while_the_game_is_at_the_version_the_sweep_saw(store: Store) -> None:
    record = game()
    store.create_game(record)
    for seat in ("p_a", "p_b"):
        current = store.load_game(record.game_id)
        assert current is not None
        store.save_game(joined(current, seat), expected_version=current.version, joined=[seat])
    current = store.load_game(record.game_id)
    assert current is not None
    started = replace(current, state=engine.apply(current.state, Start("p_host"), now=0).state)
    started.due_at = "2026-03-02T12:00:00+00:00"
    store.save_game(started, expected_version=current.version)

    assert not store.postpone_nudge(
        record.game_id, version=started.version - 1, due_at="2026-03-03T12:00:00+00:00"
    )
    assert store.postpone_nudge(record.game_id, version=started.version, due_at="2026-03-03T12:00:00+00:00")
    assert store.due_games("2026-03-02T12:00:00+00:00", 10) == []
    assert [g.game_id for g in store.due_games("2026-03-03T12:00:00+00:00", 10)] == [record.game_id]
