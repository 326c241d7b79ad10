"""Every failure is an RFC 9457 problem with a stable code, the right status, and no internals."""

from __future__ import annotations

from typing import Any

import pytest
from botocore.exceptions import ClientError

from app.aws.dynamodb.games import DynamoGameStore
from app.games import play as games

from ..client import Client, call
from ..helpers import (
    assert_problem,
    create_game,
    foreign_card,
    give_clue,
    hand,
    lobby,
    started,
    storyteller,
    submit_all,
    table,
    view,
)

UNKNOWN_GAME = "g_0123456789abcdef"
LIMIT = 16_384


def guessers(clients: list[Client], game_id: str) -> list[Client]:
    teller = storyteller(clients, game_id)
    return [c for c in clients if c is not teller]


# Transport: size and syntax


def test_a_body_over_16_kb_is_413_payload_too_large(players: list[Client]) -> None:
    reply = players[0].post("/games", raw_body='{"rules": "classic", "pad": "' + "x" * LIMIT + '"}')
    body = assert_problem(reply, 413, "payload_too_large")
    assert body["title"] == "Payload Too Large"


def test_the_size_limit_counts_bytes_not_characters(aws: None) -> None:
    reply = call("POST", "/players", raw_body='{"name": "' + "é" * (LIMIT // 2) + '"}')
    assert_problem(reply, 413, "payload_too_large")


def test_a_body_of_exactly_16_kb_gets_past_the_size_check(aws: None) -> None:
    prefix, suffix = '{"name": "', '"}'
    raw = prefix + "x" * (LIMIT - len(prefix) - len(suffix)) + suffix
    assert len(raw.encode()) == LIMIT
    assert_problem(call("POST", "/players", raw_body=raw), 422, "validation_error")  # 200 max chars


def test_the_size_limit_applies_before_authentication(aws: None) -> None:
    assert_problem(call("POST", "/games", raw_body="x" * (LIMIT + 1)), 413, "payload_too_large")


@pytest.mark.parametrize("raw", ["{nope", '{"rules": "classic",}', "[1, 2", "{'rules': 'classic'}"])
def test_a_body_that_is_not_json_is_400_malformed_json(players: list[Client], raw: str) -> None:
    assert_problem(players[0].post("/games", raw_body=raw), 400, "malformed_json")


# Schema


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("clue", {"card_id": "base-001"}),
        ("clue", {"card_id": 1, "clue": "home"}),
        ("clue", {"card_id": "base-001", "clue": "x" * 201}),  # the schema holds the rules' limit
        ("clue", {"card_id": "base-001", "clue": "home", "extra": True}),
        ("submissions", {"card_ids": "base-001"}),
        ("submissions", {"card_ids": [f"base-{n:03d}" for n in range(1, 14)]}),
        ("submissions", {}),
        ("votes", 42),
        ("votes", "base-001"),
        ("join", {"invite_code": 7}),
    ],
)
def test_a_body_that_breaks_the_schema_is_422_validation_error_naming_where(
    players: list[Client], route: str, body: Any
) -> None:
    game_id = started(players[:3])
    problem = assert_problem(players[0].post(f"/games/{game_id}/{route}", body), 422, "validation_error")
    assert problem["errors"]
    assert all({"loc", "msg", "type"} == set(e) for e in problem["errors"])


def test_a_validation_error_does_not_echo_the_rejected_input(players: list[Client]) -> None:
    game_id = started(players[:3])
    secret = "do-not-echo-me"
    reply = players[0].post(f"/games/{game_id}/clue", {"card_id": "base-001", "clue": "home", secret: 1})
    assert_problem(reply, 422, "validation_error")
    assert secret not in reply.body["detail"]
    assert all(secret not in e["msg"] for e in reply.body["errors"])


# Malformed moves: 422 with the rule's code


@pytest.mark.parametrize(
    ("card", "clue", "code"),
    [
        # The schema states these; the card id pattern is pydantic's to refuse, the text the rules'.
        (None, "   ", "blank_clue"),
        (None, "home\u200b", "format_character"),
        ("base-1", "home", "validation_error"),
        ("BASE-001", "home", "validation_error"),
    ],
)
def test_a_malformed_clue_is_422_with_the_rule_code(
    players: list[Client], card: str | None, clue: str, code: str
) -> None:
    clients = players[:3]
    game_id = started(clients)
    teller = storyteller(clients, game_id)
    body = {"card_id": card or hand(teller, game_id)[0], "clue": clue}
    assert_problem(teller.post(f"/games/{game_id}/clue", body), 422, code)
    assert view(teller, game_id)["phase"] == "storytelling"


@pytest.mark.parametrize(("seats", "count"), [(3, 1), (3, 3), (4, 2)])
def test_submitting_the_wrong_number_of_cards_is_422_wrong_card_count(
    players: list[Client], seats: int, count: int
) -> None:
    clients = players[:seats]
    game_id = started(clients)
    give_clue(clients, game_id)
    guesser = guessers(clients, game_id)[0]
    cards = hand(guesser, game_id)[:count]
    assert_problem(
        guesser.post(f"/games/{game_id}/submissions", {"card_ids": cards}), 422, "wrong_card_count"
    )


@pytest.mark.parametrize(
    ("seats", "rules", "count"),
    [(4, "classic", 2), (5, "odyssey", 2), (7, "odyssey", 3)],
)
def test_voting_for_the_wrong_number_of_cards_is_422_wrong_card_count(
    players: list[Client], seats: int, rules: str, count: int
) -> None:
    clients = players[:seats]
    game_id = started(clients, rules=rules)
    give_clue(clients, game_id)
    submit_all(clients, game_id)
    voter = guessers(clients, game_id)[0]
    own = view(voter, game_id)["you"]["submitted"]
    choices = [c for c in table(voter, game_id) if c not in own][:count]
    assert_problem(voter.post(f"/games/{game_id}/votes", {"card_ids": choices}), 422, "wrong_card_count")


def test_the_same_card_twice_is_422_duplicate_cards(players: list[Client]) -> None:
    clients = players[:3]
    game_id = started(clients)
    give_clue(clients, game_id)
    guesser = guessers(clients, game_id)[0]
    card = hand(guesser, game_id)[0]
    reply = guesser.post(f"/games/{game_id}/submissions", {"card_ids": [card, card]})
    assert_problem(reply, 422, "duplicate_cards")


# Moves that are not legal now: 409 with the rule's code


def test_a_clue_from_a_guesser_is_409_not_storyteller(players: list[Client]) -> None:
    clients = players[:3]
    game_id = started(clients)
    guesser = guessers(clients, game_id)[0]
    reply = guesser.post(f"/games/{game_id}/clue", {"card_id": hand(guesser, game_id)[0], "clue": "home"})
    assert_problem(reply, 409, "not_storyteller")


def test_a_clue_with_a_card_not_in_hand_is_409_card_not_in_hand(players: list[Client]) -> None:
    clients = players[:3]
    game_id = started(clients)
    teller = storyteller(clients, game_id)
    elsewhere = hand(guessers(clients, game_id)[0], game_id)[0]
    reply = teller.post(f"/games/{game_id}/clue", {"card_id": elsewhere, "clue": "home"})
    assert_problem(reply, 409, "card_not_in_hand")


def test_moves_out_of_turn_are_409_wrong_phase(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    guesser = guessers(clients, game_id)[0]
    card = hand(guesser, game_id)[0]
    assert_problem(guesser.post(f"/games/{game_id}/submissions", {"card_ids": [card]}), 409, "wrong_phase")
    assert_problem(guesser.post(f"/games/{game_id}/votes", {"card_ids": [card]}), 409, "wrong_phase")
    teller = give_clue(clients, game_id)
    reply = teller.post(f"/games/{game_id}/clue", {"card_id": hand(teller, game_id)[0], "clue": "again"})
    assert_problem(reply, 409, "wrong_phase")
    assert_problem(guesser.post(f"/games/{game_id}/votes", {"card_ids": [card]}), 409, "wrong_phase")


def test_moves_in_the_lobby_are_409_wrong_phase(players: list[Client]) -> None:
    game_id = lobby(players[:3])
    reply = players[0].post(f"/games/{game_id}/clue", {"card_id": "base-001", "clue": "home"})
    assert_problem(reply, 409, "wrong_phase")


def test_submitting_a_card_not_in_hand_is_409_card_not_in_hand(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    one, other = guessers(clients, game_id)[:2]
    reply = one.post(f"/games/{game_id}/submissions", {"card_ids": hand(other, game_id)[:1]})
    assert_problem(reply, 409, "card_not_in_hand")


def test_a_second_submission_is_409_already_submitted(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    guesser = guessers(clients, game_id)[0]
    assert (
        guesser.post(f"/games/{game_id}/submissions", {"card_ids": hand(guesser, game_id)[:1]}).status == 200
    )
    reply = guesser.post(f"/games/{game_id}/submissions", {"card_ids": hand(guesser, game_id)[:1]})
    assert_problem(reply, 409, "already_submitted")


def test_the_storyteller_may_neither_submit_nor_vote(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    teller = give_clue(clients, game_id)
    reply = teller.post(f"/games/{game_id}/submissions", {"card_ids": hand(teller, game_id)[:1]})
    assert_problem(reply, 409, "storyteller_cannot_submit")
    submit_all(clients, game_id)
    reply = teller.post(f"/games/{game_id}/votes", {"card_ids": table(teller, game_id)[:1]})
    assert_problem(reply, 409, "storyteller_cannot_vote")


def test_voting_for_your_own_card_is_409_own_card_vote(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    submit_all(clients, game_id)
    voter = guessers(clients, game_id)[0]
    own = view(voter, game_id)["you"]["submitted"]
    assert_problem(voter.post(f"/games/{game_id}/votes", {"card_ids": own}), 409, "own_card_vote")


def test_voting_for_a_card_off_the_table_is_409_card_not_on_table(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    submit_all(clients, game_id)
    voter = guessers(clients, game_id)[0]
    off_table = hand(voter, game_id)[0]
    assert_problem(voter.post(f"/games/{game_id}/votes", {"card_ids": [off_table]}), 409, "card_not_on_table")


def test_a_second_vote_is_409_already_voted(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    submit_all(clients, game_id)
    voter = guessers(clients, game_id)[0]
    ballot = {"card_ids": [foreign_card(voter, game_id)]}
    assert voter.post(f"/games/{game_id}/votes", ballot).status == 200
    assert_problem(voter.post(f"/games/{game_id}/votes", ballot), 409, "already_voted")


# Who may act: 403


def test_a_player_outside_a_public_game_may_not_move_in_it_403_not_a_player(players: list[Client]) -> None:
    clients = players[:4]
    game_id = started(clients)
    give_clue(clients, game_id)
    outsider = players[10]
    reply = outsider.post(f"/games/{game_id}/submissions", {"card_ids": ["base-001"]})
    body = assert_problem(reply, 403, "not_a_player")
    assert body["title"] == "Forbidden"


def test_a_player_outside_a_private_game_may_not_move_in_it_403_not_a_member_as_for_a_view(
    players: list[Client],
) -> None:
    game_id = lobby(players[:3], visibility="private")
    assert_problem(players[10].get(f"/games/{game_id}"), 403, "not_a_member")
    assert_problem(players[10].post(f"/games/{game_id}/start"), 403, "not_a_member")
    assert_problem(players[10].post(f"/games/{game_id}/leave"), 403, "not_a_member")


# Not found


@pytest.mark.parametrize(
    ("method", "route", "body"),
    [
        ("GET", "", None),
        ("GET", "/rounds", None),
        ("POST", "/join", None),
        ("POST", "/leave", None),
        ("POST", "/start", None),
        ("POST", "/clue", {"card_id": "base-001", "clue": "home"}),
        ("POST", "/submissions", {"card_ids": ["base-001"]}),
        ("POST", "/votes", {"card_ids": ["base-001"]}),
    ],
)
@pytest.mark.parametrize("game_id", [UNKNOWN_GAME, "nope"])
def test_every_route_of_an_unknown_game_is_404_game_not_found(
    players: list[Client], method: str, route: str, body: Any, game_id: str
) -> None:
    path = f"/games/{game_id}{route}"
    reply = call(method, path, body=body, headers=players[0].auth())
    assert_problem(reply, 404, "game_not_found")


def test_a_malformed_game_id_is_not_echoed_back(players: list[Client]) -> None:
    junk = "<b>" + "x" * 500 + "%00"
    reply = call("GET", f"/games/{junk}", headers=players[0].auth())
    body = assert_problem(reply, 404, "game_not_found")
    assert "xxxx" not in body["detail"]
    assert "<b>" not in reply.raw


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/nope"), ("GET", "/games/x/y/z"), ("DELETE", "/games"), ("PUT", "/players"), ("GET", "/")],
)
def test_an_unknown_route_is_404_route_not_found(players: list[Client], method: str, path: str) -> None:
    reply = call(method, path, headers=players[0].auth())
    assert_problem(reply, 404, "route_not_found")


# Our own failures


def test_an_unexpected_exception_is_a_500_problem_without_internals(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    clients = players[:3]
    game_id = started(clients)
    teller = storyteller(clients, game_id)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("KeyError in /var/task/app/games/play.py line 42, table dixit-games-test")

    monkeypatch.setattr(games, "play", broken)
    reply = teller.post(f"/games/{game_id}/clue", {"card_id": hand(teller, game_id)[0], "clue": "home"})
    body = assert_problem(reply, 500, "internal_error")
    for leak in ("RuntimeError", "KeyError", "/var/task", "games.py", "dixit-games-test"):
        assert leak not in reply.raw
    assert set(body) == {"type", "title", "status", "detail", "code"}


def test_a_storage_failure_is_a_500_problem_without_internals(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = create_game(players[0])

    def throttled(*args: object, **kwargs: object) -> None:
        raise ClientError(
            {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "arn:aws:dynamodb:..."}},
            "GetItem",
        )

    monkeypatch.setattr(DynamoGameStore, "load_game", throttled)
    reply = players[0].get(f"/games/{game_id}")
    assert_problem(reply, 500, "internal_error")
    assert "arn:aws" not in reply.raw
    assert "Throughput" not in reply.raw


def test_a_failing_use_case_leaves_an_idempotency_key_free_for_the_retry(
    players: list[Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    host = players[0]
    create = games.create_game
    with monkeypatch.context() as broken:
        broken.setattr(games, "create_game", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("down")))
        assert_problem(host.post("/games", {}, headers={"Idempotency-Key": "k1"}), 500, "internal_error")
    assert games.create_game is create
    assert host.post("/games", {}, headers={"Idempotency-Key": "k1"}).status == 201


def test_a_json_list_body_is_refused_rather_than_read_as_its_first_element(players: list[Client]) -> None:
    reply = players[0].post("/games", raw_body='[{"rules": "classic"}]')
    assert_problem(reply, 400, "body_not_an_object")


def test_an_answer_names_the_callers_own_input_escaped_and_cut_short(players: list[Client]) -> None:
    # A body key of 15,000 characters with an escape in it, and a path with CR LF and a bidi control.
    key = "\x1b" + "k" * 15_000
    reply = players[0].post("/games", {key: 1})
    problem = assert_problem(reply, 422, "validation_error")
    assert len(reply.raw) < 2_000
    assert all(len(part) <= 65 and "\x1b" not in part for e in problem["errors"] for part in e["loc"])
    for path in ("/players/me/devices/dev\r\nX-Inj: 1", "/players/me/devices/\u202e"):
        answer = call("GET", path, headers=players[0].auth())
        found = assert_problem(answer, 404, "route_not_found")
        assert not any(c in found["detail"] for c in "\r\n\u202e"), found["detail"]
