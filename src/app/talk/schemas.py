"""The public JSON contract of table talk (`/games/{game_id}/messages`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.core.examples import PLAYER_ID, STAMP
from app.core.request_fields import TEXT_RULE, text_schema
from app.core.schema_base import Request, Schema, doc
from app.talk.messages import MessagePage
from app.talk.reactions import TargetReactions
from app.talk.records import MessageRecord, ReactionRecord
from dixit.limits import MAX_MESSAGE_LENGTH
from dixit.state import Phase
from dixit.table_talk import REACTIONS, Reopens, TalkWindow

MESSAGE_ID = "m_1796031000000a1b2c3d4"


class PostMessage(Request):
    text: str = Field(
        min_length=1,
        max_length=MAX_MESSAGE_LENGTH,
        json_schema_extra=text_schema(),
        examples=["I knew the cat was yours!"],
        description=f"At most {MAX_MESSAGE_LENGTH} characters once normalised (message_too_long); shown as "
        f"plain text, never as links or markup. {TEXT_RULE}",
    )


class MessageOut(Schema):
    message_id: str = doc("The message's id; it sorts by the time it was written", MESSAGE_ID)
    author_id: str = doc("Who wrote it", PLAYER_ID)
    author_name: str = doc("Their seat's name when they wrote it", "Ada")
    text: str | None = doc(
        "What they wrote; null once its author erased their account, or when you muted them", "Told you so"
    )
    hidden: bool = doc(
        "Shown as hidden, without its words: you muted its author, or the host hid it", False, default=False
    )
    hidden_by: Literal["you", "host"] | None = doc(
        "Who hid it: you (you muted its author) or the host (once reported); null if shown",
        None,
        default=None,
    )
    reported: bool = doc("Someone reported it (shown to the game's host only)", False, default=False)
    round: int = doc("The round it was written in (0 in the lobby)", 3)
    phase: Phase = doc("The phase it was written in", "storytelling")
    posted_at: str = doc("When it was written (ISO-8601 UTC)", STAMP)


class TalkOut(Schema):
    open: bool = doc("Whether the table may talk now (the game's table_talk setting and phase)", False)
    reopens: Reopens | None = doc(
        "When closed talk opens again: at_reveal (when the round's cards are shown), never (talk is off); "
        "null while open",
        "at_reveal",
    )


class MessagePageOut(Schema):
    messages: list[MessageOut] = doc("The messages, newest first", [])
    next_before: str | None = doc(
        "Pass as `before` for older messages; null when there are none", MESSAGE_ID, default=None
    )
    talk: TalkOut = doc("Whether the table may talk now", {"open": True, "reopens": None})


def message_out(
    message: MessageRecord, *, muted: bool = False, host: bool = False, stored: bool = False
) -> MessageOut:
    """The message as a reader sees it: `muted`, they muted its author; `host`, they host its game;
    `stored`, its author's export, which shows what is stored, the words of a hidden message included."""
    hidden_by: Literal["you", "host"] | None = "host" if message.hidden_by_host else "you" if muted else None
    return MessageOut(
        message_id=message.message_id,
        author_id=message.author_id,
        author_name=message.author_name,
        text=None if hidden_by and not stored else message.text,
        hidden=hidden_by is not None,
        hidden_by=hidden_by,
        reported=host and message.reported,
        round=message.round,
        phase=Phase(message.phase),
        posted_at=message.posted_at,
    )


def talk_out(window: TalkWindow) -> TalkOut:
    return TalkOut(open=window.open, reopens=window.reopens)


def page_out(page: MessagePage) -> MessagePageOut:
    return MessagePageOut(
        messages=[
            message_out(m, muted=m.message_id in page.hidden, host=page.viewer_is_host) for m in page.messages
        ],
        next_before=page.next_before,
        talk=talk_out(page.window),
    )


Reaction = Literal["laugh", "wow", "love", "clever", "oops"]
assert set(REACTIONS) == set(Reaction.__args__)  # type: ignore[attr-defined]  # one list, stated twice


class React(Request):
    reaction: Reaction = doc("Your reaction, one of a small fixed set", "laugh")


class ReactionOut(Schema):
    target: str = doc("What it is a reaction to: a revealed round (round-<n>) or a message id", "round-3")
    reaction: Reaction = doc("Your reaction", "laugh")


class TargetReactionsOut(Schema):
    target: str = doc("A revealed round (round-<n>) or a message id", "round-3")
    counts: dict[str, int] = doc("How many players reacted each way", {"laugh": 2, "wow": 1})
    yours: Reaction | None = doc("Your own reaction to it; null if none", "laugh")


class ReactionsOut(Schema):
    reactions: list[TargetReactionsOut] = doc(
        "Every target reacted to, by target", [{"target": "round-3", "counts": {"laugh": 2}, "yours": None}]
    )


def reaction_out(record: ReactionRecord) -> ReactionOut:
    return ReactionOut.model_validate({"target": record.target, "reaction": record.reaction})


def reactions_out(found: list[TargetReactions]) -> ReactionsOut:
    return ReactionsOut.model_validate(
        {"reactions": [{"target": t.target, "counts": t.counts, "yours": t.yours} for t in found]}
    )


class MutedOut(Schema):
    muted: list[str] = doc("The players whose messages are hidden from you, by id", ["p_8e7d6c5b4a392817"])


class BlockedOut(Schema):
    blocked: list[str] = doc(
        "The players you blocked, by id (muted for you, and kept from your public tables)",
        ["p_8e7d6c5b4a392817"],
    )


class ReportMessage(Request):
    reason: Literal["spoiler", "abuse", "spam", "other"] = doc(
        "Why: one of a fixed list (a report carries no words of its own)", "spoiler"
    )


class ReportOut(Schema):
    message_id: str = doc("The message reported", MESSAGE_ID)
    new: bool = doc("False when you had reported it already (nothing changed)", True)
