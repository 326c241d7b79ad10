"""What the table-talk store promises, on DynamoDB (moto) and in memory alike."""

from __future__ import annotations

from typing import Any

from app.core.records import FeedItem, PlayerRecord
from app.talk.records import MessageRecord

STAMP = "2026-03-01T12:00:00.000+00:00"
GAME = "g_0000000000000001"
OTHER_GAME = "g_0000000000000002"


def message(n: int, author: str = "p_ada", game_id: str = GAME, text: str | None = "hi") -> MessageRecord:
    return MessageRecord(
        game_id=game_id,
        message_id=f"m_{1_772_366_400_000 + n:013d}{n:08x}",
        author_id=author,
        author_name=author.removeprefix("p_").title(),
        text=text,
        round=n % 3,
        phase="lobby",
        posted_at=STAMP,
    )


def test_messages_come_back_whole_newest_first_page_by_page(store: Any) -> None:
    for n in range(5):
        store.put_message(message(n, "p_ada" if n % 2 else "p_bob"), expires_at=None)
    store.put_message(message(9, game_id=OTHER_GAME), expires_at=None)
    newest = store.list_messages(GAME, before="", limit=2)
    assert newest == [message(4, "p_bob"), message(3)]
    older = store.list_messages(GAME, before=newest[-1].message_id, limit=2)
    assert older == [message(2, "p_bob"), message(1)]
    assert store.list_messages(GAME, before=older[-1].message_id, limit=2) == [message(0, "p_bob")]
    assert store.list_messages(GAME, before=message(0).message_id, limit=2) == []
    assert store.list_messages("g_nothing_said_00", before="", limit=5) == []


def test_a_players_messages_are_found_from_the_player_in_every_game(store: Any) -> None:
    store.put_message(message(1), expires_at=None)
    store.put_message(message(2, "p_bob"), expires_at=None)
    store.put_message(message(3, game_id=OTHER_GAME), expires_at=1_800_000_000)
    assert sorted(store.messages_by("p_ada"), key=lambda m: m.message_id) == [
        message(1),
        message(3, game_id=OTHER_GAME),
    ]
    assert store.messages_by("p_nobody") == []


def test_erasing_an_author_removes_their_words_and_name_and_nothing_else(store: Any) -> None:
    store.put_message(message(1), expires_at=None)
    store.put_message(message(2, "p_bob"), expires_at=None)
    store.put_message(message(3, game_id=OTHER_GAME), expires_at=None)
    assert store.erase_messages_by("p_ada", name="Deleted player") == 2
    erased = store.list_messages(GAME, before="", limit=5)
    assert [(m.author_id, m.author_name, m.text) for m in erased] == [
        ("p_bob", "Bob", "hi"),
        ("p_ada", "Deleted player", None),
    ]
    assert [m.text for m in store.list_messages(OTHER_GAME, before="", limit=5)] == [None]
    # A retry (an erasure cut short) finds nothing left to erase.
    assert store.erase_messages_by("p_ada", name="Deleted player") == 0


def test_the_pointers_to_a_players_talk_go_with_their_partition(store: Any) -> None:
    store.create_player(PlayerRecord("p_ada", "Ada", "hash", STAMP))
    store.put_message(message(1), expires_at=None)
    store.delete_player_data("p_ada")
    assert store.messages_by("p_ada") == []
    # The message itself stays in its game (text erased first by the account's erasure).
    assert store.list_messages(GAME, before="", limit=5) == [message(1)]


def expiry(store: Any, game_id: str) -> dict[str, int | None]:
    """message id -> expires_at, as the double says or as the table holds it."""
    if hasattr(store, "talk"):
        return dict(store.talk.expiry(game_id))
    items = store.parts[0].query_all(
        KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues={":pk": {"S": f"GAME#{game_id}"}, ":prefix": {"S": "TALK#"}},
    )
    return {
        i["sk"]["S"].removeprefix("TALK#"): int(i["expires_at"]["N"]) if "expires_at" in i else None
        for i in items
    }


def test_expiring_a_games_talk_sets_every_messages_expiry_and_keeps_them_readable(store: Any) -> None:
    for n in range(3):
        store.put_message(message(n), expires_at=None)
    store.put_message(message(7, game_id=OTHER_GAME), expires_at=None)
    store.put_message(message(8, game_id=OTHER_GAME), expires_at=1_700_000_000)
    assert set(expiry(store, GAME).values()) == {None}
    store.expire_messages(GAME, expires_at=1_800_000_000)
    assert set(expiry(store, GAME).values()) == {1_800_000_000}
    assert sorted(expiry(store, OTHER_GAME).values(), key=str) == [1_700_000_000, None]
    assert len(store.list_messages(GAME, before="", limit=5)) == 3


def test_message_events_sit_in_a_feed_between_versions_and_a_cursor_resumes_between_them(store: Any) -> None:
    a, b = message(1).message_id, message(2).message_id
    positions = ["0000000003.100", f"0000000003.999.{a}", f"0000000003.999.{b}", "0000000004.100"]
    store.put_feed_items(
        [FeedItem(GAME, "p_cy", p, f'{{"p":"{p}"}}') for p in reversed(positions)], expires_at=None
    )
    assert [i.position for i in store.list_feed(GAME, "p_cy", after="", limit=10)] == positions
    for n, after in enumerate(positions):
        assert [i.position for i in store.list_feed(GAME, "p_cy", after=after, limit=10)] == positions[
            n + 1 :
        ]


def test_one_reaction_per_player_per_target_replaced_and_taken_back(store: Any) -> None:
    from app.talk.records import ReactionRecord

    store.put_message(message(1), expires_at=None)
    target = message(1).message_id
    store.put_reaction(ReactionRecord(GAME, "round-10", "p_bob", "wow"))
    store.put_reaction(ReactionRecord(GAME, "round-2", "p_ada", "laugh"))
    store.put_reaction(ReactionRecord(GAME, "round-2", "p_ada", "love"))  # replaces Ada's
    store.put_reaction(ReactionRecord(GAME, target, "p_bob", "clever"))
    store.put_reaction(ReactionRecord(OTHER_GAME, "round-2", "p_ada", "oops"))
    assert store.list_reactions(GAME) == [
        ReactionRecord(GAME, target, "p_bob", "clever"),
        ReactionRecord(GAME, "round-10", "p_bob", "wow"),
        ReactionRecord(GAME, "round-2", "p_ada", "love"),
    ]
    assert store.remove_reaction(GAME, "round-2", "p_ada")
    assert not store.remove_reaction(GAME, "round-2", "p_ada")
    assert [r.target for r in store.list_reactions(GAME)] == [target, "round-10"]
    assert store.get_message(GAME, target) == message(1)
    assert store.get_message(GAME, message(2).message_id) is None


def test_mutes_are_the_players_own_and_go_with_their_partition(store: Any) -> None:
    store.create_player(PlayerRecord("p_ada", "Ada", "hash", STAMP))
    store.mute_player("p_ada", "p_bob", at=STAMP)
    store.mute_player("p_ada", "p_cy", at=STAMP)
    store.mute_player("p_ada", "p_bob", at=STAMP)  # again: still once
    store.mute_player("p_dan", "p_bob", at=STAMP)
    assert sorted(store.muted_players("p_ada")) == ["p_bob", "p_cy"]
    assert store.muters_of("p_bob", ["p_ada", "p_cy", "p_dan", "p_eve"]) == {"p_ada", "p_dan"}
    assert store.muters_of("p_bob", []) == set()
    assert store.unmute_player("p_ada", "p_cy")
    assert not store.unmute_player("p_ada", "p_cy")
    assert store.muted_players("p_ada") == ["p_bob"]
    store.delete_player_data("p_ada")
    assert store.muted_players("p_ada") == []
    assert store.muted_players("p_dan") == ["p_bob"]


def test_a_block_mutes_too_is_found_from_either_side_and_goes_with_the_blockers_partition(store: Any) -> None:
    store.create_player(PlayerRecord("p_ada", "Ada", "hash", STAMP))
    store.block_player("p_ada", "p_bob", at=STAMP)
    store.block_player("p_cy", "p_ada", at=STAMP)
    assert store.blocked_players("p_ada") == ["p_bob"]
    assert store.muted_players("p_ada") == ["p_bob"]  # blocked: muted too, with no read of its own
    # Either way round, in one read: Ada blocked Bob, Cy blocked Ada; Dan and Ada herself are not blocks.
    assert store.blocks_between("p_ada", ["p_bob", "p_cy", "p_dan", "p_ada"]) == {
        ("p_ada", "p_bob"),
        ("p_cy", "p_ada"),
    }
    assert store.blocks_between("p_bob", ["p_ada", "p_cy"]) == {("p_ada", "p_bob")}
    assert store.blocks_between("p_dan", ["p_ada"]) == set()
    assert store.blocks_between("p_ada", []) == set()
    assert store.unblock_player("p_ada", "p_bob")
    assert not store.unblock_player("p_ada", "p_bob")
    assert store.blocked_players("p_ada") == []
    assert store.muted_players("p_ada") == []  # the mute the block brought goes with it
    store.block_player("p_ada", "p_eve", at=STAMP)
    store.delete_player_data("p_ada")
    assert store.blocked_players("p_ada") == []
    assert store.blocks_between("p_cy", ["p_ada"]) == {("p_cy", "p_ada")}  # Cy's list is Cy's own


def test_a_read_marker_only_moves_forward_and_counts_what_came_after(store: Any) -> None:
    for n in range(1, 5):
        store.put_message(message(n, "p_bob" if n % 2 else "p_cy"), expires_at=None)
    assert store.read_marks("p_ada") == {}
    assert store.authors_after(GAME, "", limit=10) == ["p_bob", "p_cy", "p_bob", "p_cy"]
    assert store.mark_read("p_ada", GAME, message(2).message_id)
    assert not store.mark_read("p_ada", GAME, message(1).message_id)  # an older page: never back
    assert not store.mark_read("p_ada", GAME, message(2).message_id)  # the same: no write lands
    assert store.read_marks("p_ada") == {GAME: message(2).message_id}
    assert store.authors_after(GAME, message(2).message_id, limit=10) == ["p_bob", "p_cy"]
    assert store.authors_after(GAME, message(2).message_id, limit=1) == ["p_bob"]
    assert store.authors_after(OTHER_GAME, "", limit=10) == []
    store.create_player(PlayerRecord("p_ada", "Ada", "hash", STAMP))
    store.delete_player_data("p_ada")
    assert store.read_marks("p_ada") == {}


def test_a_report_is_kept_once_per_reporter_and_marks_the_message_and_the_host_hides_it(store: Any) -> None:
    store.put_message(message(1), expires_at=None)
    target = message(1).message_id
    assert store.report_message(GAME, target, "p_bob", reason="spoiler", at=STAMP)
    assert not store.report_message(GAME, target, "p_bob", reason="spam", at=STAMP)
    assert store.report_message(GAME, target, "p_cy", reason="abuse", at=STAMP)
    reported = store.get_message(GAME, target)
    assert (reported.reported, reported.hidden_by_host, reported.text) == (True, False, "hi")
    store.hide_message(GAME, target)
    hidden = store.get_message(GAME, target)
    assert (hidden.reported, hidden.hidden_by_host) == (True, True)
    assert store.list_messages(GAME, before="", limit=5) == [hidden]
