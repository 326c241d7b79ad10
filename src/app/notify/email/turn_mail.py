"""The notification mails: "your turn", reminders (nudges too), game over, rematches, and the daily digest.

Each is written from what the player may see of the game (`dixit.views.view_for`: never a hand, nor who
played which card), as a list of blocks rendered twice: plain text and HTML, every value escaped. Each
names the game by its players, gives the clue once there is one, the deadline in the player's time zone,
links to `<web>/play/<game_id>` (a vote mail: each picture to `?card=<card_id>`; a rematch mail: to the
lobby's join page, `<web>/#/join/<lobby_id>/<invite_code>`) and ends with how to unsubscribe. No I/O:
the caller gives the time zone, the links and the image URLs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from html import escape
from urllib.parse import quote
from zoneinfo import ZoneInfo

from app.core.records import Membership
from app.notify.email import unsubscribe
from app.notify.email.digest_talk import unread_text
from app.notify.email.mail import Mail
from app.notify.headline import headline
from app.notify.messages import Kind, Notification, rematch_waits
from dixit.lean_dataclass import dataclass
from dixit.state import GameState, Phase
from dixit.views import GameView, OwedMove, view_for


@dataclass(frozen=True, slots=True)
class Para:
    text: str


@dataclass(frozen=True, slots=True)
class Link:
    label: str
    url: str


@dataclass(frozen=True, slots=True)
class Pictures:
    """The table's cards, each a picture linking to the game with that card preselected."""

    cards: tuple[tuple[str, str, str | None], ...]  # (label, link, image URL or None)


Block = Para | Link | Pictures


def play_link(web_base_url: str, game_id: str, card_id: str | None = None) -> str:
    base = f"{web_base_url.rstrip('/')}/play/{quote(game_id, safe='')}"
    return base if card_id is None else f"{base}?card={quote(card_id, safe='')}"


def local_time(epoch: int, time_zone: str) -> str:
    """`Tue 3 Mar, 18:00 (Europe/Paris)`: a deadline as the player's clock shows it."""
    moment = datetime.fromtimestamp(epoch, UTC).astimezone(ZoneInfo(time_zone))
    return f"{moment:%a} {moment.day} {moment:%b}, {moment:%H:%M} ({time_zone})"


def _names(view: GameView, exclude: str | None = None) -> str:
    names = [p.name for p in view.players if p.player_id != exclude]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def game_name(view: GameView, player_id: str) -> str:
    """How a mail names the game: by who the player plays it with (games carry no title)."""
    others = _names(view, exclude=player_id)
    return f"your Dixit game with {others}" if others else "your Dixit game"


def _scores(view: GameView) -> str:
    return ", ".join(f"{p.name} {p.score}" for p in view.players)


_ASKS = {
    OwedMove.CLUE: "You are the storyteller: choose a card and give a clue.",
    OwedMove.SUBMIT: "Choose a card from your hand that fits the clue.",
    OwedMove.VOTE: "Vote for the card you think is the storyteller's.",
}


def render(blocks: Sequence[Block], *, to: str, subject: str, headers: tuple[tuple[str, str], ...]) -> Mail:
    text_parts: list[str] = []
    html_parts: list[str] = []
    for block in blocks:
        if isinstance(block, Para):
            text_parts.append(block.text)
            html_parts.append(f"<p>{escape(block.text, quote=True)}</p>")
        elif isinstance(block, Link):
            text_parts.append(f"{block.label}: {block.url}")
            href = escape(block.url, quote=True)
            html_parts.append(f'<p><a href="{href}">{escape(block.label, quote=True)}</a></p>')
        else:
            text_parts.append("\n".join(f"- {label}: {url}" for label, url, _ in block.cards))
            html_parts.append(
                "<p>" + " ".join(_picture(label, url, image) for label, url, image in block.cards) + "</p>"
            )
    html = (
        '<!doctype html><html><head><meta charset="utf-8">'
        f"<title>{escape(subject, quote=True)}</title></head><body>{''.join(html_parts)}</body></html>"
    )
    return Mail(to=to, subject=subject, text="\n\n".join(text_parts) + "\n", html=html, headers=headers)


def _picture(label: str, url: str, image: str | None) -> str:
    href, alt = escape(url, quote=True), escape(label, quote=True)
    if image is None:
        return f'<a href="{href}">{alt}</a>'
    return f'<a href="{href}"><img src="{escape(image, quote=True)}" alt="{alt}" width="160"></a>'


def _footer(unsubscribe_url: str, what: str) -> list[Block]:
    return [
        Para(f"You get this because your Dixit by mail player asked for {what}."),
        Link("Unsubscribe", unsubscribe_url),
    ]


def turn_mail(
    notification: Notification,
    state: GameState,
    *,
    to: str,
    time_zone: str,
    web_base_url: str,
    unsubscribe_url: str,
    image_url: Callable[[str], str | None] = lambda card_id: None,
    nudger_name: str | None = None,
) -> Mail | None:
    """The mail for `notification`, from the game as its player sees it now; None when it no longer
    applies (the move it asks for is not owed any more, the game is not over, the rematch started or
    seats the player already)."""
    if notification.kind is Kind.REMATCH:
        return _rematch_mail(notification, state, to, web_base_url, unsubscribe_url)
    player_id = notification.player_id
    view = view_for(state, player_id)
    name = game_name(view, player_id)
    link = play_link(web_base_url, state.game_id)
    clue = None if view.round is None else view.round.clue
    blocks: list[Block] = []
    if notification.kind is Kind.GAME_OVER:
        if view.phase is not Phase.FINISHED:
            return None
        winners = [p.name for p in view.players if p.player_id in view.winners]
        subject = _subject(notification, state)
        won = "You won!" if player_id in view.winners else f"Won by {' and '.join(winners) or 'nobody'}."
        blocks += [
            Para(f"{name[0].upper()}{name[1:]} is over. {won}"),
            Para(f"Final scores: {_scores(view)}."),
        ]
        blocks.append(Link("See how it ended", link))
    else:
        owed = None if view.you is None else view.you.owes
        if owed is None:
            return None
        deadline = local_time(owed.deadline, time_zone)
        if notification.kind is Kind.YOUR_TURN:
            subject = _subject(notification, state)
            opening = f"It's your turn in {name}."
        else:
            subject = _subject(notification, state)
            by = f"{nudger_name} nudged you: " if nudger_name else ""
            opening = f"{by}{name[0].upper()}{name[1:]} is waiting for your move."
        blocks += [Para(opening), Para(_ASKS[owed.move])]
        if clue is not None:
            blocks.append(Para(f"The clue: “{clue}”"))
        blocks += [
            Para(f"Players: {_scores(view)}."),
            Para(f"Your move is due by {deadline}. After that the game moves on without it."),
            Link("Make your move", link),
        ]
        if owed.move is OwedMove.VOTE and view.round is not None and view.you is not None:
            mine = set(view.you.submitted)
            choices = [c for c in view.round.table if c not in mine]
            blocks.append(Para("Or tap the card you vote for (nothing is voted until you confirm):"))
            blocks.append(
                Pictures(
                    tuple(
                        (f"Card {n}", play_link(web_base_url, state.game_id, card), image_url(card))
                        for n, card in enumerate(choices, start=1)
                    )
                )
            )
    blocks += _footer(unsubscribe_url, "email about its games")
    return render(blocks, to=to, subject=subject, headers=unsubscribe.headers(unsubscribe_url))


def _subject(notification: Notification, state: GameState) -> str:
    """Fixed wording first, then the game's players and clue in quotes (app.notify.headline)."""
    titled = headline(notification, state)
    assert titled is not None  # a state was given
    return titled.subject


def _rematch_mail(
    notification: Notification, lobby: GameState, to: str, web_base_url: str, unsubscribe_url: str
) -> Mail | None:
    if not rematch_waits(lobby, notification.player_id):
        return None
    opener = notification.opener_name or "A player"
    seated = _names(view_for(lobby, notification.player_id))
    blocks: list[Block] = [
        Para(f"{opener} opened a rematch of your finished Dixit game, with the same settings."),
        Para(f"In the lobby so far: {seated}. The host starts it once everyone is in."),
        Link("Join the rematch", f"{web_base_url.rstrip('/')}/{notification.web_path}"),
        *_footer(unsubscribe_url, "email about its games"),
    ]
    return render(
        blocks,
        to=to,
        subject=_subject(notification, lobby),
        headers=unsubscribe.headers(unsubscribe_url),
    )


def digest_mail(
    entries: Sequence[Membership],
    *,
    to: str,
    time_zone: str,
    web_base_url: str,
    unsubscribe_url: str,
    unread: Mapping[str, int] | None = None,
    talking: Sequence[Membership] = (),
) -> Mail:
    """One mail listing every game waiting on the player, soonest deadline first, each with its unread
    table talk (`unread`, by game id); then the other games (`talking`) whose talk they have not read."""
    unread = unread or {}
    ordered = sorted(entries, key=lambda e: (e.deadline is None, e.deadline or 0, e.game_id))
    count = len(ordered)
    if count:
        subject = f"{count} Dixit game{'s' if count != 1 else ''} waiting for you"
        blocks: list[Block] = [
            Para(f"{count} of your Dixit games {'are' if count != 1 else 'is'} waiting for you:")
        ]
    else:
        subject = f"Table talk in {len(talking)} of your Dixit games"
        blocks = []
    for number, entry in enumerate(ordered, start=1):
        others = ", ".join(w.name for w in entry.waiting if w.player_id != entry.player_id)
        due = "" if entry.deadline is None else f", due by {local_time(entry.deadline, time_zone)}"
        round_text = "" if entry.round_number is None else f" round {entry.round_number}"
        also = f" (also waiting on {others})" if others else ""
        also += f"; {unread_text(unread[entry.game_id])}" if unread.get(entry.game_id) else ""
        blocks.append(
            Link(
                f"{number}. A {entry.player_count}-player game,{round_text} {entry.phase.value}{due}{also}",
                play_link(web_base_url, entry.game_id),
            )
        )
    if talking:
        blocks.append(Para("Table talk you have not read yet:"))
        for entry in sorted(talking, key=lambda e: e.game_id):
            name = entry.title or f"A {entry.player_count}-player game"
            blocks.append(
                Link(f"{name}: {unread_text(unread[entry.game_id])}", play_link(web_base_url, entry.game_id))
            )
    blocks += _footer(unsubscribe_url, "a daily digest")
    return render(blocks, to=to, subject=subject, headers=unsubscribe.headers(unsubscribe_url))
