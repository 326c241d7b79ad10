"""Table talk over HTTP: who may talk and read, when the table may talk, what a message may say, and how
fast one player may talk."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.support.clock import Clock

from ..client import Client
from ..helpers import (
    assert_problem,
    create_game,
    give_clue,
    lobby,
    play_to_the_end,
    started,
    submit_all,
    view,
)
from .talking import say, talk


def test_three_players_chat_in_the_lobby_and_read_it_back_newest_first(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    first = say(ada, game_id, "  Welcome, all! ")
    clock.now += timedelta(milliseconds=5)
    say(bob, game_id, "Hello")
    clock.now += timedelta(milliseconds=5)
    say(cy, game_id, "Ready when you are")
    assert first["text"] == "Welcome, all!"
    assert (first["author_id"], first["author_name"]) == (ada.player_id, "Player 0")
    assert (first["round"], first["phase"]) == (0, "lobby")
    assert first["posted_at"] == "2026-12-01T12:00:05.000+00:00"
    page = talk(cy, game_id, limit="2")
    assert [m["text"] for m in page["messages"]] == ["Ready when you are", "Hello"]  # type: ignore[index]
    assert page["talk"] == {"open": True, "reopens": None}
    older = talk(cy, game_id, limit="2", before=str(page["next_before"]))
    assert [m["text"] for m in older["messages"]] == ["Welcome, all!"]  # type: ignore[index]
    assert older["next_before"] is None


def test_a_stranger_may_neither_read_nor_write_a_private_games_talk(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy, stranger = players[:4]
    game_id = lobby([ada, bob, cy], visibility="private")
    say(ada, game_id, "Just us")
    assert_problem(stranger.get(f"/games/{game_id}/messages"), 403, "not_a_member")
    assert_problem(stranger.post(f"/games/{game_id}/messages", {"text": "hi"}), 403, "not_a_member")


def test_a_public_games_spectator_reads_its_talk_but_only_players_talk(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy, onlooker = players[:4]
    game_id = lobby([ada, bob, cy])
    say(bob, game_id, "Good luck")
    assert [m["text"] for m in talk(onlooker, game_id)["messages"]] == ["Good luck"]  # type: ignore[index]
    assert_problem(onlooker.post(f"/games/{game_id}/messages", {"text": "hi"}), 403, "not_a_member")


def test_between_rounds_talk_closes_while_cards_are_chosen_and_votes_cast_and_says_when_it_reopens(
    players: list[Client], clock: Clock
) -> None:
    clients = players[:3]
    game_id = started(clients, visibility="private")
    say(clients[0], game_id, "The storyteller's turn is open")
    give_clue(clients, game_id)
    refused = assert_problem(
        clients[1].post(f"/games/{game_id}/messages", {"text": "mine has a cat"}), 409, "table_talk_closed"
    )
    assert "opens again at the reveal" in refused["detail"]
    assert talk(clients[1], game_id)["talk"] == {"open": False, "reopens": "at_reveal"}
    submit_all(clients, game_id)
    assert view(clients[0], game_id)["phase"] == "voting"
    assert_problem(
        clients[2].post(f"/games/{game_id}/messages", {"text": "vote 3"}), 409, "table_talk_closed"
    )
    # Nothing half-written: the refused messages are not there.
    assert len(talk(clients[0], game_id)["messages"]) == 1  # type: ignore[arg-type]


def test_a_game_may_talk_always_or_never(players: list[Client], clock: Clock) -> None:
    chatty = started(players[:3], table_talk="always")
    assert view(players[0], chatty)["settings"]["table_talk"] == "always"
    give_clue(players[:3], chatty)
    say(players[1], chatty, "we trust each other")
    silent = create_game(players[3], table_talk="off")
    refused = assert_problem(
        players[3].post(f"/games/{silent}/messages", {"text": "hi"}), 409, "table_talk_off"
    )
    assert refused["detail"] == "table talk is off in this game"
    assert talk(players[3], silent)["talk"] == {"open": False, "reopens": "never"}


def test_an_unknown_table_talk_setting_is_refused(players: list[Client], clock: Clock) -> None:
    assert_problem(players[0].post("/games", {"table_talk": "sometimes"}), 422, "validation_error")


def test_after_the_end_the_table_talks_again(players: list[Client], clock: Clock) -> None:
    clients = players[:3]
    game_id = started(clients, target_score=1)
    play_to_the_end(clients, game_id)
    assert view(clients[0], game_id)["phase"] == "finished"
    assert say(clients[2], game_id, "Well played")["phase"] == "finished"


@pytest.mark.parametrize(
    ("text", "status", "code"),
    [
        ("m" * 301, 422, "validation_error"),
        ("it was mine\u200b", 422, "format_character"),
        ("look \u202eright", 422, "bidi_control"),
        ("\u3164", 422, "blank_message"),
    ],
)
def test_a_message_is_held_to_the_one_text_rule(
    players: list[Client], clock: Clock, text: str, status: int, code: str
) -> None:
    game_id = lobby(players[:3])
    assert_problem(players[1].post(f"/games/{game_id}/messages", {"text": text}), status, code)
    assert talk(players[1], game_id)["messages"] == []


def test_a_message_of_300_characters_is_kept_whole(players: list[Client], clock: Clock) -> None:
    game_id = lobby(players[:3])
    assert say(players[1], game_id, "猫" * 300)["text"] == "猫" * 300


def test_a_bad_cursor_is_a_problem_not_a_stack_trace(players: list[Client], clock: Clock) -> None:
    game_id = lobby(players[:3])
    assert_problem(
        players[0].get(f"/games/{game_id}/messages", query={"before": "nope"}), 422, "invalid_cursor"
    )


def test_one_player_may_not_flood_a_table_and_hears_when_to_try_again(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    for n in range(10):
        say(ada, game_id, f"message {n}")
    flooded = ada.post(f"/games/{game_id}/messages", {"text": "one more"})
    assert_problem(flooded, 429, "too_many_messages")
    assert flooded.headers["Retry-After"] == "55"  # to the end of the minute
    # The others still talk, and Ada again once the minute is over.
    say(bob, game_id, "slow down")
    clock.now += timedelta(seconds=55)
    say(ada, game_id, "sorry")


def test_one_player_may_not_flood_every_table_in_a_day(
    players: list[Client], clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.core.rates import Rate
    from app.talk import limits

    # The day's limit, made small: the counting is the same at 300.
    monkeypatch.setattr(limits, "MESSAGES_PER_DAY", Rate("talk-day", 3, 86_400, "too_many_messages", "today"))
    games = [lobby(players[:3]), lobby([players[0], *players[3:5]])]
    for n in range(3):
        say(players[0], games[n % 2], f"message {n}")
    refused = players[0].post(f"/games/{games[1]}/messages", {"text": "again"})
    assert_problem(refused, 429, "too_many_messages")
    assert int(refused.headers["Retry-After"]) == 86_400 - (12 * 3600 + 5)


def test_the_others_find_a_message_in_their_event_feed_and_a_cursor_resumes_after_it(
    players: list[Client], clock: Clock
) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    said = say(ada, game_id, "Hello table")
    reply = bob.get(f"/games/{game_id}/events")
    assert reply.status == 200, reply.raw
    events = reply.body
    posted = [e for e in events["events"] if e["type"] == "message.posted"]
    assert [(e["message_id"], e["author_id"], e["text"]) for e in posted] == [
        (said["message_id"], ada.player_id, "Hello table")
    ]
    assert events["cursor"].endswith(said["message_id"])
    assert bob.get(f"/games/{game_id}/events", query={"after": events["cursor"]}).body["events"] == []
    assert [e["type"] for e in ada.get(f"/games/{game_id}/events").body["events"]] == []


def test_a_retried_message_with_its_idempotency_key_is_said_once(players: list[Client], clock: Clock) -> None:
    ada, bob, cy = players[:3]
    game_id = lobby([ada, bob, cy])
    key = {"Idempotency-Key": "say-hello-1"}
    first = ada.post(f"/games/{game_id}/messages", {"text": "Hello"}, headers=key)
    again = ada.post(f"/games/{game_id}/messages", {"text": "Hello"}, headers=key)
    assert (first.status, again.status) == (201, 201), again.raw
    assert again.body == first.body
    assert [m["text"] for m in talk(bob, game_id)["messages"]] == ["Hello"]  # type: ignore[index]
    # The same key with other words is a mistake, not a retry: refused, nothing said.
    assert_problem(
        ada.post(f"/games/{game_id}/messages", {"text": "Bye"}, headers=key), 422, "idempotency_key_reused"
    )
    assert len(talk(bob, game_id)["messages"]) == 1  # type: ignore[arg-type]
