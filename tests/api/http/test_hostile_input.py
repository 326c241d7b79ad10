"""Hostile input is a 4xx: one test per row, each request sent through the local stack's API Gateway.

Every row is a request an attacker or a broken client could send, and the problem it must get back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from ..client import Client
from ..gateway import header, send
from ..helpers import hand, started, storyteller

JSON = {"Content-Type": "application/json"}


@dataclass(frozen=True)
class Row:
    method: str
    path: str  # {game}: a started game, where the caller is the storyteller
    body: bytes
    status: int
    code: str
    headers: dict[str, str] = field(default_factory=lambda: dict(JSON))


def body(value: object) -> bytes:
    return json.dumps(value).encode()


def name(text: str) -> bytes:
    return body({"name": text})


SIGN_IN = {"email": "ada@example.com", "code": "482913"}


def clue(text: str) -> bytes:
    return body({"card_id": "{card}", "clue": text})


HOSTILE: dict[str, Row] = {
    # Bytes and encodings
    "invalid UTF-8 (passed on as base64) is 400 invalid_utf8":
        Row("POST", "/players", b'{"name": "\xff\xfeAda"}', 400, "invalid_utf8"),
    "a lone continuation byte is 400 invalid_utf8":
        Row("POST", "/games", b'{"rules": "classic\x80"}', 400, "invalid_utf8"),
    # Depth and size of JSON
    "2,000 nested arrays are 400 too_deeply_nested":
        Row("POST", "/games", b"[" * 2000 + b"]" * 2000, 400, "too_deeply_nested"),
    "2,000 nested objects are 400 too_deeply_nested":
        Row("POST", "/players", b'{"a": ' * 2000 + b"1" + b"}" * 2000, 400, "too_deeply_nested"),
    "2,000 unclosed brackets are 400 too_deeply_nested":
        Row("POST", "/games", b"[" * 2000, 400, "too_deeply_nested"),
    "a 5,000-digit integer is 400 malformed_json":
        Row("POST", "/games", b'{"max_players": 1' + b"0" * 4999 + b"}", 400, "malformed_json"),
    # Media types
    "a text/plain body is 415 unsupported_media_type":
        Row("POST", "/games", body({}), 415, "unsupported_media_type", {"Content-Type": "text/plain"}),
    "a body without a Content-Type is 415 unsupported_media_type":
        Row("POST", "/players", name("Ada"), 415, "unsupported_media_type", {}),
    "a form-encoded body is 415 unsupported_media_type":
        Row("POST", "/players", b"name=Ada", 415, "unsupported_media_type",
            {"Content-Type": "application/x-www-form-urlencoded"}),
    "a multipart body is 415 unsupported_media_type":
        Row("POST", "/players", b"--x\r\n\r\nAda\r\n--x--", 415, "unsupported_media_type",
            {"Content-Type": "multipart/form-data; boundary=x"}),
    "an XML body is 415 unsupported_media_type":
        Row("POST", "/games", b"<game/>", 415, "unsupported_media_type", {"Content-Type": "application/xml"}),
    "a +json type with a latin-1 charset is 415 unsupported_media_type":
        Row("POST", "/games", body({}), 415, "unsupported_media_type",
            {"Content-Type": "application/vnd.x+json; charset=latin-1"}),
    "a Content-Type that is not a media type at all is 415 unsupported_media_type":
        Row("POST", "/games", body({}), 415, "unsupported_media_type", {"Content-Type": ";;;"}),
    "JSON declared in latin-1 is 415 unsupported_media_type":
        Row("POST", "/players", name("Ada"), 415, "unsupported_media_type",
            {"Content-Type": "application/json; charset=latin-1"}),
    # Strict types
    "a number sent as a string is 422 validation_error":
        Row("POST", "/games", body({"max_players": "4"}), 422, "validation_error"),
    "a fractional number is 422 validation_error":
        Row("POST", "/games", body({"target_score": 10.5}), 422, "validation_error"),
    "a number sent as a boolean is 422 validation_error":
        Row("POST", "/games", body({"move_timeout_hours": True}), 422, "validation_error"),
    "a name sent as a number is 422 validation_error":
        Row("POST", "/players", body({"name": 12}), 422, "validation_error"),
    # Ranges
    "a negative max_players is 422 validation_error":
        Row("POST", "/games", body({"max_players": -1}), 422, "validation_error"),
    "a target_score over the maximum is 422 validation_error":
        Row("POST", "/games", body({"target_score": 10**9}), 422, "validation_error"),
    "a move timeout of zero hours is 422 validation_error":
        Row("POST", "/games", body({"move_timeout_hours": 0}), 422, "validation_error"),
    "seven seats in classic (its schema allows 6) is 422 validation_error":
        Row("POST", "/games", body({"max_players": 7}), 422, "validation_error"),
    "an empty card list is 422 validation_error":
        Row("POST", "/games/{game}/clue", body({"card_ids": []}), 422, "validation_error"),
    # Characters in names and clues
    "a NUL in a name is 422 control_character":
        Row("POST", "/players", name("Ada\x00"), 422, "control_character"),
    "an escape sequence in a name is 422 control_character":
        Row("POST", "/players", name("\x1b[31mAda"), 422, "control_character"),
    "a right-to-left override in a name is 422 bidi_control":
        Row("POST", "/players", name("Ada\u202eevil"), 422, "bidi_control"),
    "a line separator in a name is 422 separator_character":
        Row("POST", "/players", name("Ada\u2028WIN"), 422, "separator_character"),
    "a right-to-left mark in a name is 422 bidi_control":
        Row("POST", "/players", name("Ada\u200f"), 422, "bidi_control"),
    "a zero-width space in a name is 422 format_character":
        Row("POST", "/players", name("A\u200bda"), 422, "format_character"),
    "a private-use character in a name is 422 private_use_character":
        Row("POST", "/players", name("Ada\ue000"), 422, "private_use_character"),
    "an unassigned code point in a name is 422 unassigned_character":
        Row("POST", "/players", name("Ada\u0378"), 422, "unassigned_character"),
    "an escaped lone surrogate in a name is 422 validation_error":
        Row("POST", "/players", b'{"name": "Ada\\udcff"}', 422, "validation_error"),
    "a name of 40 emoji (over its UTF-8 byte limit) is 422 name_too_long":
        Row("POST", "/players", name("\U0001f600" * 40), 422, "name_too_long"),
    "a NUL in a clue is 422 control_character":
        Row("POST", "/games/{game}/clue", clue("home\x00"), 422, "control_character"),
    "a bidi isolate in a clue is 422 bidi_control":
        Row("POST", "/games/{game}/clue", clue("\u2067home"), 422, "bidi_control"),
    "tag characters in a clue are 422 tag_character":
        Row("POST", "/games/{game}/clue", clue("home\U000e0068\U000e0069"), 422, "tag_character"),
    "a paragraph separator in a clue is 422 separator_character":
        Row("POST", "/games/{game}/clue", clue("home\u2029"), 422, "separator_character"),
    "an unassigned code point in a clue is 422 unassigned_character":
        Row("POST", "/games/{game}/clue", clue("home\U000e0080"), 422, "unassigned_character"),
    "a clue of 200 emoji (over its UTF-8 byte limit) is 422 clue_too_long":
        Row("POST", "/games/{game}/clue", clue("\U0001f600" * 200), 422, "clue_too_long"),
    "an empty clue is 422 validation_error":
        Row("POST", "/games/{game}/clue", clue(""), 422, "validation_error"),
    # Device labels, renames and sessions
    "a device label of 41 characters is 422 validation_error":
        Row("POST", "/players", body({"name": "Ada", "device": "x" * 41}), 422, "validation_error"),
    "a device label of 40 emoji (over its UTF-8 byte limit) is 422 device_too_long":
        Row("POST", "/players", body({"name": "Ada", "device": "\U0001f600" * 40}), 422, "device_too_long"),
    "a right-to-left override in a device label is 422 bidi_control":
        Row("POST", "/players", body({"name": "Ada", "device": "phone\u202e"}), 422, "bidi_control"),
    "an unassigned code point in a device label is 422 unassigned_character":
        Row("POST", "/players", body({"name": "Ada", "device": "phone\u0378"}), 422, "unassigned_character"),
    "a device label sent as a number is 422 validation_error":
        Row("POST", "/players", body({"name": "Ada", "device": 7}), 422, "validation_error"),
    "a new name of 40 emoji is 422 name_too_long":
        Row("PATCH", "/players/me", name("\U0001f600" * 40), 422, "name_too_long"),
    "a NUL in a new name is 422 control_character":
        Row("PATCH", "/players/me", name("Ada\x00"), 422, "control_character"),
    "a rename with an unknown field is 422 validation_error":
        Row("PATCH", "/players/me", body({"name": "Ada", "token_hash": ""}), 422, "validation_error"),
    "a session id of 300 characters is 404 session_not_found":
        Row("DELETE", "/players/me/sessions/s_" + "f" * 298, b"", 404, "session_not_found", {}),
    "a session id naming the profile item is 404 session_not_found":
        Row("DELETE", "/players/me/sessions/PROFILE", b"", 404, "session_not_found", {}),
    "a session id with an upper-case hex digit is 404 session_not_found":
        Row("DELETE", "/players/me/sessions/s_0123456789ABCDEF", b"", 404, "session_not_found", {}),
    "a token of four parts is 401 invalid_token":
        Row("GET", "/players/me", b"", 401, "invalid_token", {"Authorization": "Bearer p_1.s_2.x.y"}),
    "a token whose session id names the profile item is 401 invalid_token":
        Row("GET", "/players/me", b"", 401, "invalid_token", {"Authorization": "Bearer p_1.PROFILE.x"}),
    "a token with an empty session id is 401 invalid_token":
        Row("GET", "/players/me", b"", 401, "invalid_token", {"Authorization": "Bearer p_1..x"}),
    "PUT on the sessions is 405 method_not_allowed":
        Row("PUT", "/players/me/sessions", body({}), 405, "method_not_allowed"),
    # Email addresses and codes
    "an address without an @ is 422 validation_error":
        Row("POST", "/players/me/email", body({"email": "ada.example.com"}), 422, "validation_error"),
    "an address of 300 characters is 422 validation_error":
        Row("POST", "/players/me/email", body({"email": "a" * 60 + "@" + "b" * 236 + ".com"}), 422,
            "validation_error"),
    "an address with a line break (a header injection) is 422 validation_error":
        Row("POST", "/sessions", body({"email": "ada@example.com\r\nBcc: all@example.com"}), 422,
            "validation_error"),
    "an address with a space is 422 validation_error":
        Row("POST", "/sessions", body({"email": "ada @example.com"}), 422, "validation_error"),
    "an address sent as a list is 422 validation_error":
        Row("POST", "/sessions", body({"email": ["ada@example.com", "bob@example.com"]}), 422,
            "validation_error"),
    "an address with a domain of no dot is 422 validation_error":
        Row("POST", "/sessions", body({"email": "root@localhost"}), 422, "validation_error"),
    "a sign-in without an address is 422 validation_error":
        Row("POST", "/sessions", body({}), 422, "validation_error"),
    "a code of letters is 422 validation_error":
        Row("POST", "/sessions/verify", body({"email": "ada@example.com", "code": "abcdef"}), 422,
            "validation_error"),
    "a code of five digits is 422 validation_error":
        Row("POST", "/sessions/verify", body({"email": "ada@example.com", "code": "12345"}), 422,
            "validation_error"),
    "a code of full-width digits is 422 validation_error":
        Row("POST", "/players/me/email/verify", body({"code": "\uff11" * 6}), 422, "validation_error"),
    "a code sent as a number is 422 validation_error":
        Row("POST", "/players/me/email/verify", body({"code": 482913}), 422, "validation_error"),
    "a sign-in with an unknown field is 422 validation_error":
        Row("POST", "/sessions/verify", body({**SIGN_IN, "player_id": "p_1"}), 422, "validation_error"),
    "a device label with a NUL at sign-in is 422 control_character":
        Row("POST", "/sessions/verify", body({**SIGN_IN, "device": "x\x00"}), 422, "control_character"),
    "a code nobody asked for is 422 code_invalid":
        Row("POST", "/sessions/verify", body(SIGN_IN), 422, "code_invalid"),
    # Methods
    "TRACE is 405 method_not_allowed":
        Row("TRACE", "/players", b"", 405, "method_not_allowed", {}),
    "a made-up method is 405 method_not_allowed":
        Row("BREW", "/games", b"", 405, "method_not_allowed", {}),
    "PUT on a declared path is 405 method_not_allowed":
        Row("PUT", "/players/me", body({}), 405, "method_not_allowed"),
}  # fmt: skip


@pytest.mark.parametrize("row", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_input_is_a_4xx_problem(players: list[Client], row: Row) -> None:
    path, raw = row.path, row.body
    if "{game}" in path:
        clients = players[:3]
        game_id = started(clients)
        teller = storyteller(clients, game_id)
        path = path.replace("{game}", game_id)
        raw = raw.replace(b"{card}", hand(teller, game_id)[0].encode())
        if path.endswith("/clue") and b"card_ids" in raw:
            path = path.replace("/clue", "/submissions")
    else:
        teller = players[0]
    headers = {"Authorization": f"Bearer {teller.token}", **row.headers}
    response = send(row.method, path, headers, raw)
    assert response.status == row.status, response.body
    assert header(response, "Content-Type") == "application/problem+json"
    problem = json.loads(response.body)
    assert (problem["status"], problem["code"]) == (row.status, row.code), problem
    assert "Traceback" not in response.body.decode()


def test_a_whole_number_written_as_a_float_is_an_integer_as_json_schema_says(players: list[Client]) -> None:
    headers = {"Authorization": f"Bearer {players[0].token}", **JSON}
    response = send("POST", "/games", headers, body({"max_players": 4.0}))
    assert response.status == 201, response.body
    assert json.loads(response.body)["settings"]["max_players"] == 4


def test_json_with_a_charset_of_utf_8_is_accepted(aws: None) -> None:
    headers = {"Content-Type": "application/json; charset=UTF-8"}
    assert send("POST", "/players", headers, name("Ada")).status == 201


def test_a_bodiless_move_needs_no_content_type(players: list[Client]) -> None:
    clients = players[:3]
    game_id = started(clients)
    response = send("POST", f"/games/{game_id}/leave", {"Authorization": f"Bearer {clients[1].token}"})
    assert response.status == 409  # judged by the rules (the game has started), not refused as 415


# Every Content-Type a client can send is served or 415: never the resolver's own 500

CONTENT_TYPES = [
    "application/json",
    "Application/JSON",
    "application/vnd.x+json",
    "application/problem+json; charset=utf-8",
    "application/merge-patch+json",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "multipart/form-data",
    "application/octet-stream",
    "",
    "*/*",
    "application/json-seq",
]


@pytest.mark.parametrize("content_type", CONTENT_TYPES)
@pytest.mark.parametrize("raw", [b"", b"{}"], ids=["empty body", "JSON body"])
def test_every_content_type_is_served_or_415_never_a_500(
    players: list[Client], content_type: str, raw: bytes
) -> None:
    headers = {"Authorization": f"Bearer {players[0].token}", "Content-Type": content_type}
    response = send("POST", "/games", headers, raw)
    # An empty body is judged by the schema (this route needs one), whatever type it claims to be.
    assert response.status in ((201, 415) if raw else (422,)), response.body
    if response.status == 415:
        assert json.loads(response.body)["code"] == "unsupported_media_type"


@pytest.mark.parametrize("content_type", ["application/vnd.x+json", "application/merge-patch+json"])
def test_a_json_body_under_a_plus_json_type_is_served(aws: None, content_type: str) -> None:
    response = send("POST", "/players", {"Content-Type": content_type}, name("Ada"))
    assert response.status == 201, response.body


@pytest.mark.parametrize("content_type", ["text/plain", "multipart/form-data", "application/xml"])
def test_a_bodiless_move_ignores_whatever_content_type_came_with_it(
    players: list[Client], content_type: str
) -> None:
    game_id = started(players[:3])
    headers = {"Authorization": f"Bearer {players[1].token}", "Content-Type": content_type}
    response = send("POST", f"/games/{game_id}/leave", headers)
    assert response.status == 409, response.body  # judged by the rules, as without a Content-Type
