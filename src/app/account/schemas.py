"""The JSON contract of the account routes: the export document (`GET /players/me/export`)."""

from __future__ import annotations

from collections.abc import Mapping

from app.account.data import AccountData, GameData
from app.core.examples import CARD_ALT, CARD_ID, GAME_ID, OTHER_ID, PLAYER_ID, SESSION_ID, STAMP
from app.core.schema_base import Schema, doc
from app.decks.card_images import CardImages
from app.games.presented import round_result
from app.games.presenters import names_in
from app.games.schemas import RoundResultOut
from app.notify.preferences import NotificationPreferences, to_body
from app.notify.schemas import DeviceOut, PreferencesOut, device_out
from app.notify.web_push.schemas import ENDPOINT, WebPushSubscriptionOut, subscription_out
from app.oauth.schemas import EXAMPLE_APPS, AppOut, app_out
from app.players.token_schemas import PersonalTokenOut, personal_token_out
from app.talk.schemas import MESSAGE_ID, MessageOut, message_out
from app.webhooks.schemas import WebhookOut, webhook_out
from dixit.state import Phase

_ROUND = {
    "number": 1,
    "storyteller_id": PLAYER_ID,
    "storyteller_name": "Ada",
    "clue": "the last door",
    "storyteller_card": CARD_ID,
    "cards": [
        {
            "card_id": CARD_ID,
            "image_url": None,
            "alt": CARD_ALT,
            "owner_id": PLAYER_ID,
            "owner_name": "Ada",
            "voter_ids": [OTHER_ID],
            "voters": [{"player_id": OTHER_ID, "name": "Bob"}],
        }
    ],
    "points": {PLAYER_ID: 3, OTHER_ID: 3},
}
_HEALTH = {
    "consecutive_failures": 0,
    "disabled": False,
    "disabled_at": None,
    "last_delivery_at": None,
    "last_status": None,
}


class ExportedProfile(Schema):
    player_id: str = doc("Your player id", PLAYER_ID)
    name: str = doc("Your name as others see it (in new games)", "Ada")
    created_at: str = doc("When you registered", STAMP)
    email: str | None = doc("The email address attached to your account, if any", None)
    email_verified: bool | None = doc("Whether that address was verified (null: no address)", None)


class ExportedSession(Schema):
    session_id: str = doc("The session's id (`s_legacy`: a token from before sessions)", SESSION_ID)
    device: str = doc("The label given when the session was opened", "Ada's phone")
    created_at: str = doc("When the session was opened", STAMP)
    last_used_at: str = doc("When its token was last used, to within an hour", STAMP)


class ExportedPreferences(PreferencesOut):
    """Your notification preferences as `GET /players/me/notifications` shows them, and the game mutes."""

    muted_games: list[str] = doc("The games you muted one by one", [GAME_ID])


class ExportedGame(Schema):
    game_id: str = doc("The game's id", GAME_ID)
    phase: Phase = doc("Where the game is (finished for your history)", "finished")
    created_at: str = doc("When it was created", STAMP)
    updated_at: str = doc("When it last changed", STAMP)
    players: list[str] = doc("The names at the table, in seat order", ["Ada", "Bob", "Cleo"])
    your_score: int = doc("Your score in it", 31)
    rounds: list[RoundResultOut] = doc(
        "Every finished round you played, as the rounds route shows it (players named)", [_ROUND]
    )


class AccountExport(Schema):
    exported_at: str = doc("When this document was made", STAMP)
    profile: ExportedProfile = doc(
        "Your profile",
        {"player_id": PLAYER_ID, "name": "Ada", "created_at": STAMP, "email": None, "email_verified": None},
    )
    sessions: list[ExportedSession] = doc(
        "Every device signed in as you (never a token or its hash)",
        [{"session_id": SESSION_ID, "device": "Ada's phone", "created_at": STAMP, "last_used_at": STAMP}],
    )
    devices: list[DeviceOut] = doc(
        "Your push devices (never their push endpoints)",
        [{"device_id": "phone-1", "platform": "fcm", "registered_at": STAMP}],
    )
    webhooks: list[WebhookOut] = doc(
        "Your webhooks and their health (never their signing secrets)",
        [
            {
                "webhook_id": "wh_8f14e45fceea167a",
                "url": "https://bot.example.com/dixit/webhooks",
                "events": ["turn.owed"],
                "created_at": STAMP,
                "health": _HEALTH,
            }
        ],
    )
    preferences: ExportedPreferences = doc(
        "Your notification preferences and mutes", {**to_body(NotificationPreferences()), "muted_games": []}
    )
    games: list[ExportedGame] = doc(
        "Every game you are in or finished: lobbies, games in play, your history",
        [
            {
                "game_id": GAME_ID,
                "phase": "finished",
                "created_at": STAMP,
                "updated_at": STAMP,
                "players": ["Ada", "Bob", "Cleo"],
                "your_score": 31,
                "rounds": [_ROUND],
            }
        ],
    )
    web_push: list[WebPushSubscriptionOut] = doc(
        "Your browsers' push subscriptions (never their keys)",
        [
            {
                "subscription_id": "browser-1",
                "endpoint": ENDPOINT,
                "expiration_time": None,
                "created_at": STAMP,
            }
        ],
        default_factory=list,
    )
    personal_tokens: list[PersonalTokenOut] = doc(
        "The personal tokens you made for scripts and bots: name, scopes, created, last used (never a "
        "secret or its hash)",
        [
            {
                "token_id": "t_5c1e9a7b3d2f4e60",
                "name": "my Discord bot",
                "scopes": ["games:read", "games:play"],
                "created_at": STAMP,
                "last_used_at": None,
            }
        ],
        default_factory=list,
    )
    apps: list[AppOut] = doc(
        "The apps you let act for you (OAuth): app, scopes, created, last used (never a token or its hash)",
        EXAMPLE_APPS,
        default_factory=list,
    )
    messages: list[MessageOut] = doc(
        "Every table-talk message you wrote, in every game, oldest first (docs/table-talk.md)",
        [
            {
                "message_id": MESSAGE_ID,
                "author_id": PLAYER_ID,
                "author_name": "Ada",
                "text": "I knew the cat was yours!",
                "round": 3,
                "phase": "storytelling",
                "posted_at": STAMP,
            }
        ],
        default_factory=list,
    )
    muted_players: list[str] = doc(
        "The players whose table talk is hidden from you, by id", [OTHER_ID], default_factory=list
    )
    blocked_players: list[str] = doc(
        "The players you blocked, by id (muted too, and kept from your public tables)",
        [OTHER_ID],
        default_factory=list,
    )
    talk_read: dict[str, str] = doc(
        "Per game, the last table-talk message you read (the digest counts unread talk from there)",
        {GAME_ID: "m_1796031000000a1b2c3d4"},
        default_factory=dict,
    )


def _game(data: GameData, player_id: str, images: CardImages, described: Mapping[str, str]) -> ExportedGame:
    state = data.record.state
    names = names_in(state)
    seat = state.player(player_id)
    return ExportedGame(
        game_id=state.game_id,
        phase=state.phase,
        created_at=data.record.created_at,
        updated_at=data.record.updated_at,
        players=[p.name for p in state.players],
        your_score=0 if seat is None else seat.score,
        rounds=[round_result(r, names, images, described) for r in data.rounds],
    )


def account_export(data: AccountData, images: CardImages) -> AccountExport:
    player = data.player
    # Read by name: profiles carry an email once one is attached (signing in by email); until then null.
    email = getattr(player, "email", "") or None
    verified = bool(getattr(player, "email_verified", False)) if email else None
    return AccountExport(
        exported_at=data.exported_at,
        profile=ExportedProfile(
            player_id=player.player_id,
            name=player.name,
            created_at=player.created_at,
            email=email,
            email_verified=verified,
        ),
        sessions=[
            ExportedSession(
                session_id=s.session_id, device=s.device, created_at=s.created_at, last_used_at=s.last_used_at
            )
            for s in data.sessions
        ],
        devices=[device_out(d) for d in data.devices],
        webhooks=[webhook_out(w) for w in data.webhooks],
        preferences=ExportedPreferences.model_validate(
            {**to_body(data.preferences), "muted_games": sorted(data.preferences.muted_games)}
        ),
        games=[_game(g, player.player_id, images, data.described) for g in data.games],
        web_push=[subscription_out(w) for w in data.web_push_subscriptions],
        personal_tokens=[personal_token_out(t) for t in data.personal_tokens],
        apps=[app_out(g) for g in data.apps],
        messages=[message_out(m, stored=True) for m in data.messages],
        muted_players=data.muted_players,
        blocked_players=data.blocked_players,
        talk_read=data.talk_read,
    )
