"""What tells games apart before and after joining: a title, the games list's names and clue, the preview."""

from __future__ import annotations

from ..client import Client
from ..helpers import assert_problem, create_game, give_clue, inbox, lobby, started, view
from ..json_bot import play_to_the_end
from ..stream import StreamFeed


def test_a_host_may_title_a_game_and_every_view_of_it_shows_the_title(players: list[Client]) -> None:
    game = players[0].post("/games", {"title": "  Friday family game "}).body
    assert game["settings"]["title"] == "Friday family game"
    assert view(players[0], game["game_id"])["settings"]["title"] == "Friday family game"


def test_a_game_created_without_a_title_is_untitled(players: list[Client]) -> None:
    assert players[0].post("/games", {}).body["settings"]["title"] is None


def test_a_title_longer_than_a_name_is_refused(players: list[Client]) -> None:
    assert_problem(players[0].post("/games", {"title": "x" * 41}), 422, "validation_error")


def test_the_games_list_names_the_players_host_title_and_the_told_clue(
    players: list[Client], feed: StreamFeed
) -> None:
    game_id = started(players[:3], title="Tuesday")
    [before] = inbox(players[1], feed).body["games"]
    assert before["title"] == "Tuesday"
    assert before["host_id"] == players[0].player_id
    assert before["seated"] == [{"player_id": c.player_id, "name": c.name} for c in players[:3]]
    assert before["clue"] is None
    assert before["storyteller_id"] is not None
    teller = give_clue(players[:3], game_id, "a quiet storm")
    [after] = inbox(players[1], feed).body["games"]
    assert after["clue"] == "a quiet storm"
    assert after["storyteller_id"] == teller.player_id
    # Names and a clue, never a card: nothing of any hand is in the list.
    hands = [card["card_id"] for c in players[:3] for card in view(c, game_id)["you"]["hand"]]
    raw = players[1].get("/players/me/games").raw
    assert not [card for card in hands if card in raw]


def test_a_finished_game_in_the_list_names_its_winners(players: list[Client], feed: StreamFeed) -> None:
    game_id = started(players[:3], target_score=3)
    final = play_to_the_end(players[:3], game_id)
    [entry] = inbox(players[0], feed, status="finished").body["games"]
    assert entry["winners"] == final["winners"]
    assert entry["winners"]


def test_an_invitee_previews_a_private_game_with_its_code_and_sees_no_secret(players: list[Client]) -> None:
    game_id = lobby(players[:2], visibility="private", title="Our game", target_score=12)
    code = view(players[0], game_id)["invite_code"]
    reply = players[2].get(f"/games/{game_id}/preview", query={"invite_code": code})
    assert reply.status == 200, reply.raw
    preview = reply.body
    assert preview["title"] == "Our game"
    assert preview["host_name"] == players[0].name
    assert [p["name"] for p in preview["seated"]] == [players[0].name, players[1].name]
    assert preview["settings"]["target_score"] == 12
    assert preview["free_seats"] == 4
    assert preview["joinable"] is True
    assert preview["you_are_in"] is False
    assert code not in reply.raw
    assert "hand" not in preview


def test_a_private_game_is_not_previewed_without_its_code(players: list[Client]) -> None:
    game_id = create_game(players[0], visibility="private")
    assert_problem(players[1].get(f"/games/{game_id}/preview"), 403, "invite_required")
    wrong = {"invite_code": "not-it"}
    assert_problem(players[1].get(f"/games/{game_id}/preview", query=wrong), 403, "bad_invite_code")


def test_the_preview_says_a_started_game_cannot_be_joined(players: list[Client]) -> None:
    game_id = started(players[:3])
    preview = players[3].get(f"/games/{game_id}/preview").body
    assert preview["phase"] == "submitting" or preview["phase"] == "storytelling"
    assert preview["joinable"] is False


def test_the_preview_of_a_full_lobby_has_no_free_seat(players: list[Client]) -> None:
    game_id = lobby(players[:3], max_players=3)
    preview = players[3].get(f"/games/{game_id}/preview").body
    assert (preview["free_seats"], preview["joinable"]) == (0, False)
    assert players[1].get(f"/games/{game_id}/preview").body["you_are_in"] is True


def test_previewing_a_game_that_does_not_exist_is_a_404(players: list[Client]) -> None:
    assert_problem(players[0].get("/games/g_0123456789abcdef/preview"), 404, "game_not_found")
