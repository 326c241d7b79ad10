"""Turning records and rule views into the public JSON shapes (adding image links on the way out)."""

from __future__ import annotations

from app.card_images import CardImages
from app.custom_decks import NewDeck
from app.deck_store import CardStatus, DeckRecord
from app.games import InboxEntry
from app.records import GameRecord
from app.schemas import (
    Card,
    CardResultOut,
    DeckCardStatus,
    DeckCreated,
    DeckDetail,
    GameOut,
    InboxGame,
    OpenGameOut,
    RoundOut,
    RoundResultOut,
    SeatOut,
    SettingsOut,
    UploadForm,
    YouOut,
)
from dixit.cards import Deck
from dixit.state import RoundResult
from dixit.views import view_for, waiting_for


def cards(images: CardImages, card_ids: tuple[str, ...] | list[str]) -> list[Card]:
    return [Card(card_id=c, image_url=images.url_for(c)) for c in card_ids]


def round_result(result: RoundResult, images: CardImages) -> RoundResultOut:
    return RoundResultOut(
        number=result.number,
        storyteller_id=result.storyteller_id,
        clue=result.clue,
        storyteller_card=result.storyteller_card,
        cards=[
            CardResultOut(
                card_id=c.card_id,
                image_url=images.url_for(c.card_id),
                owner_id=c.owner_id,
                voter_ids=list(c.voter_ids),
            )
            for c in result.cards
        ],
        points=dict(result.points),
    )


def game(record: GameRecord, viewer_id: str | None, images: CardImages) -> GameOut:
    view = view_for(record.state, viewer_id)
    settings = view.settings
    return GameOut(
        game_id=view.game_id,
        version=view.version,
        phase=view.phase,
        rules=settings.rules.value,
        settings=SettingsOut(
            rules=settings.rules.value,
            decks=list(settings.decks),
            max_players=settings.max_players,
            target_score=settings.target_score,
            move_timeout_hours=settings.move_timeout_hours,
            timeout_policy=settings.timeout_policy,
        ),
        visibility=record.visibility,
        host_id=view.host_id,
        invite_code=record.invite_code if view.you is not None else None,
        players=[
            SeatOut(player_id=p.player_id, name=p.name, score=p.score, hand_size=p.hand_size)
            for p in view.players
        ],
        round=None
        if view.round is None
        else RoundOut(
            number=view.round.number,
            storyteller_id=view.round.storyteller_id,
            clue=view.round.clue,
            table=cards(images, view.round.table),
            waiting_for=list(view.round.waiting_for),
        ),
        you=None
        if view.you is None
        else YouOut(
            player_id=view.you.player_id,
            hand=cards(images, view.you.hand),
            submitted=list(view.you.submitted),
            votes=list(view.you.votes),
        ),
        last_round=None if view.last_round is None else round_result(view.last_round, images),
        winners=list(view.winners),
        end_reason=record.state.end_reason,
        created_at=record.created_at,
        updated_at=record.updated_at,
    )


def open_game(record: GameRecord) -> OpenGameOut:
    state = record.state
    return OpenGameOut(
        game_id=state.game_id,
        rules=state.settings.rules.value,
        host_id=state.host_id,
        players=[p.name for p in state.players],
        max_players=state.settings.max_players,
        created_at=record.created_at,
    )


def inbox_game(entry: InboxEntry) -> InboxGame:
    state = entry.record.state
    return InboxGame(
        game_id=state.game_id,
        phase=state.phase,
        your_turn=entry.your_turn,
        round_number=None if state.round is None else state.round.number,
        waiting_for=list(waiting_for(state)),
        players=len(state.players),
        updated_at=entry.record.updated_at,
    )


def deck_created(created: NewDeck) -> DeckCreated:
    deck = created.deck
    return DeckCreated(
        deck_id=deck.deck_id,
        name=deck.name,
        card_count=deck.card_count,
        uploads=[
            UploadForm(card_id=card_id, url=form["url"], fields=form["fields"])
            for card_id, form in created.uploads.items()
        ],
    )


def deck_detail(deck: DeckRecord, images: CardImages) -> DeckDetail:
    statuses = []
    for card_id in deck.card_ids():
        state = deck.state_of(card_id)
        ready = state.status is CardStatus.READY
        statuses.append(
            DeckCardStatus(
                card_id=card_id,
                status=state.status.value,
                reason=state.reason,
                image_url=images.url_for(card_id) if ready else None,
            )
        )
    return DeckDetail(
        deck_id=deck.deck_id,
        name=deck.name,
        card_count=deck.card_count,
        official=False,
        ready=deck.ready,
        cards=statuses,
    )


def official_deck_detail(deck: Deck, images: CardImages) -> DeckDetail:
    return DeckDetail(
        deck_id=deck.deck_id,
        name=deck.name,
        card_count=deck.card_count,
        official=True,
        ready=True,
        cards=[
            DeckCardStatus(card_id=c, status="ready", image_url=images.url_for(c)) for c in deck.card_ids()
        ],
    )
