"""Everything stored about a player, gathered from every feature's port: what `GET /players/me/export`
answers. Secrets stay out: no token or token hash (a personal token's included), no webhook secret, no
push endpoint."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field

from app.account.ports import Exporting
from app.core.records import GameRecord, PlayerRecord
from app.games import inbox as inbox_entries
from app.games.ports import Inbox
from app.notify.ports import Device, Preferences
from app.notify.web_push.ports import WebPushSubscription
from app.players.accounts import SignedIn
from app.players.ports import AppGrantRecord, PersonalTokenRecord, SessionRecord
from app.talk.records import MessageRecord
from app.webhooks.records import WebhookRecord
from dixit.lean_dataclass import dataclass
from dixit.state import RoundResult


@dataclass(frozen=True, slots=True)
class GameData:
    """One game the player is or was seated in, and the finished rounds they played."""

    record: GameRecord
    rounds: list[RoundResult]


@dataclass(frozen=True, slots=True)
class AccountData:
    exported_at: str
    player: PlayerRecord
    sessions: list[SessionRecord]
    devices: list[Device]
    webhooks: list[WebhookRecord]
    preferences: Preferences
    games: list[GameData]
    web_push_subscriptions: list[WebPushSubscription] = field(default_factory=list)
    personal_tokens: list[PersonalTokenRecord] = field(default_factory=list)
    # The apps they let act for them (OAuth grants), without their tokens' hashes.
    apps: list[AppGrantRecord] = field(default_factory=list)
    # Card id -> its owner's description, for the custom decks of these games (their cards' alt text).
    described: Mapping[str, str] = field(default_factory=dict)
    # Every table-talk message they wrote, in every game (a game they left included).
    messages: list[MessageRecord] = field(default_factory=list)
    # The players whose table talk they hid (app.talk.mutes).
    muted_players: list[str] = field(default_factory=list)
    # The players they blocked (app.talk.blocks).
    blocked_players: list[str] = field(default_factory=list)
    # Game id -> the last message they read there, whence the digest counts unread talk.
    talk_read: dict[str, str] = field(default_factory=dict)


def game_ids_of(services: Inbox, player_id: str) -> tuple[list[str], list[str]]:
    """The games the player's inbox names: (active ones, finished ones, every page of the history)."""
    active = [m.game_id for m in services.inbox.active_memberships(player_id)]
    finished: list[str] = []
    after: str | None = None
    while True:
        page, after = services.inbox.finished_memberships(player_id, inbox_entries.FINISHED_PAGE, after)
        finished.extend(m.game_id for m in page)
        if after is None:
            break
    # A game filed as finished a moment ago may still show as active: each game once.
    return active, [g for g in dict.fromkeys(finished) if g not in active]


def export(services: Exporting, signed: SignedIn) -> AccountData:
    """The caller's profile, sessions, personal tokens, apps, devices, webhooks, mutes, games (active and
    finished) and what they said at the tables."""
    player = signed.player
    player_id = player.player_id
    active, finished = game_ids_of(services, player_id)
    games: list[GameData] = []
    for game_id in [*active, *finished]:
        record = services.games.load_game(game_id)
        if record is None or record.state.player(player_id) is None:
            continue  # gone, or left in the moment between the inbox and the game
        played = [r for r in services.games.list_rounds(game_id) if player_id in r.points]
        games.append(GameData(record, played))
    webhooks = sorted(services.webhooks.list_webhooks(player_id), key=lambda w: (w.created_at, w.webhook_id))
    # Every game's custom decks at once: one read for the whole export (none without custom decks).
    custom = sorted({deck_id for g in games for deck_id, _ in g.record.state.settings.custom_decks})
    return AccountData(
        exported_at=services.now_iso(),
        player=player,
        sessions=services.sessions.list_sessions(player_id),
        devices=services.notifications.devices(player_id),
        webhooks=webhooks,
        preferences=services.notifications.preferences(player_id),
        games=games,
        web_push_subscriptions=services.web_push_subscriptions.list_web_push_subscriptions(player_id),
        personal_tokens=services.personal_tokens.list_personal_tokens(player_id),
        apps=services.app_grants.list_app_grants(player_id),
        described=services.decks.descriptions_of(custom) if custom else {},
        messages=sorted(services.talk.messages_by(player_id), key=lambda m: (m.posted_at, m.message_id)),
        muted_players=sorted(services.talk.muted_players(player_id)),
        blocked_players=sorted(services.talk.blocked_players(player_id)),
        talk_read=dict(sorted(services.talk.read_marks(player_id).items())),
    )
