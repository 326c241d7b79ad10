"""What every Store adapter promises the use cases: conditional, all-or-nothing writes and listings."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from app.core.errors import VersionConflict
from app.core.records import GameRecord, GameStamp, Membership, PlayerRecord, Visibility, Waiting
from app.games.keys import due_shard
from app.games.ports import GameWrite
from dixit import engine
from dixit.moves import Join, Leave, Start
from dixit.settings import Settings
from dixit.state import CardResult, EndReason, Phase, RoundResult
from tests.support.services import AllTablePorts

STAMP = "2026-03-01T12:00:00.000+00:00"


def game(game_id: str = "g_0000000000000001", *, visibility: Visibility = Visibility.PUBLIC) -> GameRecord:
    state = engine.new_game(
        game_id, host_id="p_host", host_name="Host", settings=Settings.build("classic"), seed=7
    )
    return GameRecord(state, visibility, "invite", created_at=STAMP, updated_at=STAMP)


def joined(record: GameRecord, player_id: str) -> GameRecord:
    return replace(record, state=engine.apply(record.state, Join(player_id, player_id), now=0).state)


def test_a_player_is_read_back_as_written_and_an_unknown_one_is_none(store: Any) -> None:
    player = PlayerRecord("p_1", "Ada", "hash", STAMP)
    store.create_player(player)
    assert store.get_player("p_1") == player
    assert store.get_player("p_2") is None


def test_a_new_game_is_readable_and_its_host_is_a_member(store: Any) -> None:
    record = game()
    store.create_game(record)
    loaded = store.load_game(record.game_id)
    assert loaded is not None
    assert loaded.state.to_json() == record.state.to_json()
    assert [g.game_id for g in store.games_of("p_host")] == [record.game_id]
    assert store.load_game("g_ffffffffffffffff") is None


def test_a_rematch_lobby_keeps_the_game_it_rematches_through_its_moves(store: Any) -> None:
    record = replace(game(), rematch_of="g_00000000000000aa")
    store.create_game(record)
    store.save_game(GameWrite(joined(record, "p_a"), expected_version=0, joined=["p_a"]))
    loaded = store.load_game(record.game_id)
    assert loaded is not None
    assert loaded.rematch_of == "g_00000000000000aa"
    assert loaded.state.player_ids == ["p_host", "p_a"]


def test_a_game_id_cannot_be_created_twice(store: Any) -> None:
    store.create_game(game())
    with pytest.raises(VersionConflict):
        store.create_game(game())


def test_a_write_on_a_stale_version_raises_version_conflict_with_the_current_version(store: Any) -> None:
    record = game()
    store.create_game(record)
    store.save_game(GameWrite(joined(record, "p_a"), expected_version=0, joined=["p_a"]))
    with pytest.raises(VersionConflict) as lost:
        store.save_game(GameWrite(joined(record, "p_b"), expected_version=0, joined=["p_b"]))
    assert lost.value.current_version == 1
    assert store.games_of("p_b") == []  # the membership went down with the game write
    loaded = store.load_game(record.game_id)
    assert loaded is not None
    assert [p.player_id for p in loaded.state.players] == ["p_host", "p_a"]


def test_leaving_removes_the_membership_in_the_same_write(store: Any) -> None:
    record = game()
    store.create_game(record)
    store.save_game(GameWrite(joined(record, "p_a"), expected_version=0, joined=["p_a"]))
    assert [g.game_id for g in store.games_of("p_a")] == [record.game_id]
    again = store.load_game(record.game_id)
    assert again is not None
    store.save_game(GameWrite(again, expected_version=1, left=["p_a"]))
    assert store.games_of("p_a") == []


def test_open_games_are_public_lobbies_newest_first(store: Any) -> None:
    older = game("g_0000000000000001")
    newer = replace(game("g_0000000000000002"), created_at="2026-03-01T12:00:01.000+00:00")
    private = game("g_0000000000000003", visibility=Visibility.PRIVATE)
    for record in (older, newer, private):
        store.create_game(record)
    assert [g.game_id for g in store.list_open_games(10)] == [newer.game_id, older.game_id]
    assert [g.game_id for g in store.list_open_games(1)] == [newer.game_id]


def started_game(store: Any, game_id: str = "g_0000000000000001", due_at: int = 1_000) -> GameRecord:
    record = game(game_id)
    store.create_game(record)
    for seat in ("p_a", "p_b"):
        current = store.load_game(record.game_id)
        assert current is not None
        store.save_game(GameWrite(joined(current, seat), expected_version=current.version, joined=[seat]))
    current = store.load_game(record.game_id)
    assert current is not None
    started = replace(current, state=engine.apply(current.state, Start("p_host"), now=0).state)
    started.due_at = due_at
    store.save_game(GameWrite(started, expected_version=current.version, expected_due_at=None))
    return started


def test_a_started_game_leaves_the_lobby_listing_and_is_due_when_its_time_comes(store: Any) -> None:
    record = started_game(store)
    shard = due_shard(record.game_id)

    assert store.list_open_games(10) == []
    assert store.due_page(shard, 999, limit=10) == ([], None)
    assert store.due_page(shard, 1_000, limit=10) == ([(record.game_id, 1_000)], None)


def test_the_due_entry_moves_only_while_game_and_entry_are_as_the_sweep_saw_them(store: Any) -> None:
    record = started_game(store)
    shard = due_shard(record.game_id)

    assert not store.set_due(record.game_id, version=record.version - 1, expected=1_000, due_at=2_000)
    assert not store.set_due(record.game_id, version=record.version, expected=999, due_at=2_000)
    assert store.set_due(record.game_id, version=record.version, expected=1_000, due_at=2_000)
    assert store.due_page(shard, 1_999, limit=10) == ([], None)
    assert store.due_page(shard, 2_000, limit=10) == ([(record.game_id, 2_000)], None)
    # A move that read the old entry must not put it back: its write fails as a lost race.
    with pytest.raises(VersionConflict):
        store.save_game(GameWrite(record, expected_version=record.version, expected_due_at=1_000))
    assert store.set_due(record.game_id, version=record.version, expected=2_000, due_at=None)
    assert store.due_page(shard, 10**10, limit=10) == ([], None)


def test_a_due_shard_is_read_in_pages_in_due_order(store: Any) -> None:
    ids = [f"g_{n:016x}" for n in range(40)]
    shard = due_shard(ids[0])
    same = [g for g in ids if due_shard(g) == shard][:3]
    assert len(same) == 3
    for offset, game_id in enumerate(same):
        started_game(store, game_id, due_at=1_000 + offset)

    seen: list[tuple[str, int]] = []
    page, start = store.due_page(shard, 5_000, limit=2)
    seen += page
    while start is not None:
        page, start = store.due_page(shard, 5_000, limit=2, start=start)
        seen += page
    assert seen == [(g, 1_000 + i) for i, g in enumerate(same)]


# Inbox entries and cheap polls


def entry(
    record: GameRecord, player_id: str, *, phase: Phase, updated_at: str = STAMP, version: int = 0
) -> Membership:
    return Membership(
        player_id=player_id,
        game_id=record.game_id,
        phase=phase,
        your_turn=False,
        deadline=None,
        round_number=None,
        waiting=(),
        player_count=len(record.state.players),
        end_reason=EndReason.TARGET_SCORE if phase is Phase.FINISHED else None,
        updated_at=updated_at,
        version=version,
    )


def finish_for(store: Any, player_id: str, count: int) -> list[str]:
    """`count` games that `player_id` finished, one a minute; their ids, oldest first."""
    ids = []
    for n in range(count):
        record = game(f"g_{n + 100:016x}")
        store.create_game(record, memberships=[entry(record, "p_host", phase=Phase.LOBBY)])
        if player_id != "p_host":  # a member, as everyone whose game finishes is
            seated = joined(record, player_id)
            store.save_game(GameWrite(seated, expected_version=record.version, joined=[player_id]))
        done = entry(
            record, player_id, phase=Phase.FINISHED, updated_at=f"2026-03-01T12:{n:02d}:00.000+00:00"
        )
        store.file_finished([done])
        ids.append(record.game_id)
    return ids


def test_a_new_games_inbox_entry_is_read_back_without_reading_the_game(store: Any) -> None:
    record = game()
    mine = replace(
        entry(record, "p_host", phase=Phase.LOBBY),
        your_turn=True,
        waiting=(Waiting("p_a", "Ann", "vote", 99),),
    )
    store.create_game(record, memberships=[mine])
    assert store.active_memberships("p_host") == [mine]
    assert store.active_memberships("p_a") == []


def test_a_joining_players_first_entry_goes_in_with_their_membership(store: Any) -> None:
    record = game()
    store.create_game(record)
    seated = joined(record, "p_a")
    mine = entry(seated, "p_a", phase=Phase.LOBBY, version=seated.version)
    store.save_game(GameWrite(seated, expected_version=0, joined=["p_a"], memberships=[mine]))
    assert store.active_memberships("p_a") == [mine]


def test_an_entry_is_refreshed_by_a_newer_version_and_never_by_an_older_or_the_same(store: Any) -> None:
    record = game()
    store.create_game(record, memberships=[entry(record, "p_host", phase=Phase.LOBBY, version=0)])
    newer = replace(entry(record, "p_host", phase=Phase.LOBBY, version=5), your_turn=True)
    assert store.refresh_entries([newer]) == 1
    stale = entry(record, "p_host", phase=Phase.LOBBY, version=4)
    replayed = replace(newer, player_count=9)  # the same version again, whatever it says
    assert store.refresh_entries([stale, replayed]) == 0
    assert store.active_memberships("p_host") == [newer]


def test_no_entry_is_written_for_a_player_who_is_not_a_member(store: Any) -> None:
    record = game()
    store.create_game(record)
    seated = joined(record, "p_a")
    store.save_game(GameWrite(seated, expected_version=0, joined=["p_a"]))
    gone = replace(seated, state=engine.apply(seated.state, Leave("p_a"), now=0).state)
    store.save_game(GameWrite(gone, expected_version=1, left=["p_a"]))
    assert store.refresh_entries([entry(gone, "p_a", phase=Phase.LOBBY, version=3)]) == 0
    assert store.refresh_entries([entry(gone, "p_b", phase=Phase.LOBBY, version=3)]) == 0
    assert store.active_memberships("p_a") == []
    assert store.active_memberships("p_b") == []


def test_a_finished_game_leaves_the_active_entries_for_the_history(store: Any) -> None:
    record = game()
    store.create_game(record, memberships=[entry(record, "p_host", phase=Phase.LOBBY)])
    done = entry(
        record, "p_host", phase=Phase.FINISHED, updated_at="2026-03-02T12:00:00.000+00:00", version=9
    )
    store.file_finished([done])
    store.file_finished([done])  # the stream may deliver a record twice
    assert store.active_memberships("p_host") == []
    assert store.finished_memberships("p_host", 10, None) == ([done], None)
    # A late refresh cannot bring the game back into the active range.
    assert store.refresh_entries([entry(record, "p_host", phase=Phase.LOBBY, version=10)]) == 0
    assert store.active_memberships("p_host") == []


def test_finished_games_come_newest_first_a_page_at_a_time(store: Any) -> None:
    ids = finish_for(store, "p_old", 5)
    first, after = store.finished_memberships("p_old", 2, None)
    assert [m.game_id for m in first] == ids[:-3:-1]
    assert after is not None
    second, after = store.finished_memberships("p_old", 2, after)
    third, last = store.finished_memberships("p_old", 2, after)
    assert [m.game_id for m in second + third] == ids[2::-1]
    assert last is None  # a full last page promises nothing more


def test_a_game_stamp_has_the_version_visibility_and_members_without_the_state(store: Any) -> None:
    record = game(visibility=Visibility.PRIVATE)
    store.create_game(record)
    store.save_game(GameWrite(joined(record, "p_a"), expected_version=0, joined=["p_a"]))
    assert store.game_stamp(record.game_id) == GameStamp(1, Visibility.PRIVATE, frozenset({"p_host", "p_a"}))
    assert store.game_stamp("g_ffffffffffffffff") is None


def test_the_active_inbox_reads_only_active_entries_however_long_the_history(store: Any) -> None:
    finish_for(store, "p_veteran", 30)
    lobby = game("g_00000000000000ff")
    store.create_game(lobby, memberships=[entry(lobby, "p_host", phase=Phase.LOBBY)])
    live = joined(lobby, "p_veteran")
    store.save_game(
        GameWrite(
            live,
            expected_version=lobby.version,
            joined=["p_veteran"],
            memberships=[entry(live, "p_veteran", phase=Phase.LOBBY, version=live.version)],
        )
    )
    scanned = counting_queries(store) if isinstance(store, AllTablePorts) else None
    assert [m.game_id for m in store.active_memberships("p_veteran")] == [live.game_id]
    if scanned is not None:
        assert scanned == [1]  # the items DynamoDB read (and billed): the one active entry, not 31


def counting_queries(store: AllTablePorts) -> list[int]:
    """The ScannedCount of every query the store makes from now on (the client is rebuilt per test)."""
    scanned: list[int] = []

    def record(parsed: dict[str, Any], **_: Any) -> None:
        scanned.append(parsed["ScannedCount"])

    store.parts[0].client.meta.events.register("after-call.dynamodb.Query", record)
    return scanned


def test_a_round_put_again_is_the_same_one_round_and_rounds_list_oldest_first(store: Any) -> None:
    record = game()
    store.create_game(record)
    first = RoundResult(
        number=1,
        storyteller_id="p_host",
        clue="home",
        storyteller_card="base-001",
        cards=(CardResult("base-001", "p_host", ("p_a",)), CardResult("base-002", "p_a", ())),
        points={"p_host": 3, "p_a": 3},
    )
    second = replace(first, number=2, clue="away", points={"p_host": 0, "p_a": 2})
    store.put_round(record.game_id, second)
    store.put_round(record.game_id, first)
    store.put_round(record.game_id, first)  # a stream record delivered twice
    assert store.list_rounds(record.game_id) == [first, second]
    assert store.list_rounds("g_ffffffffffffffff") == []
