"""The daily digest: one mail a day listing every game waiting on the player, at their local hour.

`preferences_changed` keeps the digest index (app.notify.email.digest_schedule) in step with the player's
`digest` and `time_zone` (the preferences route calls it after saving; unsubscribing from the digest
too). `send_digests` is the hourly job: it reads only the index keys of this UTC hour, shard by shard
(no Scan), sends each due player one mail however many games wait (none when none does), at most once
per local day (a claim per day: a retried or doubled run sends nothing twice), and files each player
under the hour their digest is next due.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from datetime import datetime, timedelta

from app.core.records import Membership
from app.core.telemetry import count, logger
from app.notify.email import unsubscribe
from app.notify.email.digest_schedule import DIGEST_SHARDS, due_now, entry_for, local_day
from app.notify.email.digest_talk import unread_counts
from app.notify.email.mail import MailNotConfigured, MailRefused, MailUnavailable, Suppressed
from app.notify.email.ports import DigestEntry
from app.notify.email.turn_mail import digest_mail
from app.notify.ports import DigestFiling, Digesting
from app.notify.preferences import NotificationPreferences
from dixit.lean_dataclass import dataclass

# Enough for one more player (a few reads, a claim, a send) and a clean return.
RESERVE_MS = 3_000
_CLAIM_WINDOW = timedelta(days=2)


def preferences_changed(
    services: DigestFiling,
    player_id: str,
    before: NotificationPreferences | None,
    after: NotificationPreferences,
) -> None:
    """File the player in the digest index (or take them out) after their preferences were saved."""
    if before is not None and (before.digest_hour, before.time_zone) == (after.digest_hour, after.time_zone):
        return
    if after.digest_hour is None:
        services.digests.remove_digest(player_id)
        return
    services.digests.put_digest(entry_for(player_id, after.time_zone, after.digest_hour, services.clock()))


@dataclass(slots=True)
class DigestReport:
    hour: str
    players_due: int = 0
    sent: int = 0
    nothing_waiting: int = 0
    already_sent: int = 0
    skipped: int = 0  # no verified address, suppressed, muted, or the preferences changed
    moved: int = 0  # filed under another hour (the offset changed, or the next day's is another)
    failed: int = 0
    stopped_early: bool = False

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def send_digests(services: Digesting, at: datetime, *, remaining_ms: Callable[[], int]) -> DigestReport:
    """Every digest due in `at`'s UTC hour, or as many as the time allows (`stopped_early` then)."""
    hour = at.replace(minute=0, second=0, microsecond=0)
    report = DigestReport(hour.isoformat())
    for shard in range(DIGEST_SHARDS):
        for entry in services.digests.due_digests(hour.hour, shard):
            if remaining_ms() < RESERVE_MS:
                report.stopped_early = True
                return report
            report.players_due += 1
            _one(services, entry, hour, report)
    for name in ("sent", "nothing_waiting", "failed"):
        count(f"Digests_{name}", getattr(report, name))
    return report


def _unread(services: Digesting, player_id: str, games: list[Membership]) -> dict[str, int]:
    """Each game's unread talk; a fault there leaves talk out of this digest rather than the digest out."""
    try:
        return unread_counts(services.talk, player_id, [m.game_id for m in games])
    except Exception:
        logger.warning("the digest left table talk out", extra={"player_id": player_id})
        return {}


def _refile(services: DigestFiling, entry: DigestEntry, after: datetime, report: DigestReport) -> None:
    upcoming = entry_for(entry.player_id, entry.time_zone, entry.hour, after)
    if upcoming != entry:
        services.digests.put_digest(upcoming)
        report.moved += 1


def _one(services: Digesting, entry: DigestEntry, hour: datetime, report: DigestReport) -> None:
    preferences = services.notifications.preferences(entry.player_id)
    if preferences.digest_hour is None:
        services.digests.remove_digest(entry.player_id)
        report.skipped += 1
        return
    if (preferences.time_zone, preferences.digest_hour) != (entry.time_zone, entry.hour):
        services.digests.put_digest(
            entry_for(entry.player_id, preferences.time_zone, preferences.digest_hour, hour)
        )
        report.skipped += 1
        return
    if not due_now(entry, hour):
        _refile(services, entry, hour, report)
        return
    try:
        _send(services, entry, preferences, hour, report)
    finally:
        _refile(services, entry, hour + timedelta(hours=1), report)


def _send(
    services: Digesting,
    entry: DigestEntry,
    preferences: NotificationPreferences,
    hour: datetime,
    report: DigestReport,
) -> None:
    player = services.players.get_player(entry.player_id)
    if (
        player is None
        or not player.email
        or preferences.muted
        or not unsubscribe.can_link(services.settings)
        or not services.settings.web_base_url
        or services.mail_ledger.address_suppressed(player.email)
    ):
        report.skipped += 1
        return
    token = unsubscribe.sign_for(
        services.settings.unsubscribe_secret,
        player,
        unsubscribe.Scope.DIGEST,
        preferences,
        int(hour.timestamp()),
    )
    link = unsubscribe.link(services.settings, token)
    games = [
        m for m in services.inbox.active_memberships(player.player_id) if not preferences.mutes(m.game_id)
    ]
    waiting = [m for m in games if m.your_turn]
    unread = _unread(services, player.player_id, games) if preferences.digest_talk else {}
    talking = [m for m in games if not m.your_turn and m.game_id in unread]
    if not waiting and not talking:
        report.nothing_waiting += 1
        return
    day = local_day(entry.time_zone, hour).isoformat()
    slot, dedupe_id = f"DIGEST#{day}", f"digest:{player.player_id}:{day}"
    ledger = services.mail_ledger
    if not ledger.claim_mail(
        player.player_id,
        slot,
        dedupe_id,
        now=int(hour.timestamp()),
        window_seconds=int(_CLAIM_WINDOW.total_seconds()),
    ):
        report.already_sent += 1
        return
    mail = digest_mail(
        waiting,
        to=player.email,
        time_zone=entry.time_zone,
        web_base_url=services.settings.web_base_url,
        unsubscribe_url=link,
        unread=unread,
        talking=talking,
    )
    try:
        services.mailer.send(mail)
    except Suppressed:
        ledger.release_mail(player.player_id, slot, dedupe_id)
        ledger.suppress_address(player.email, reason="SES_SUPPRESSION_LIST", at=services.now_iso())
        report.skipped += 1
        return
    except (MailRefused, MailUnavailable, MailNotConfigured) as error:
        ledger.release_mail(player.player_id, slot, dedupe_id)
        count("ChannelFailures_email")
        logger.warning("a digest was not sent", extra={"code": getattr(error, "code", "")})
        report.failed += 1
        return
    ledger.mark_mail_sent(player.player_id, slot, dedupe_id)
    report.sent += 1
