"""CardIngestFunction: S3 ObjectCreated on uploads/ turns each custom card upload into a card image.

Every upload is deleted once judged, good or bad: the bucket keeps only the re-encoded images, and the
deck item records each card's outcome (ready, or rejected with the reason) for GET /decks/{deck_id}.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_plus

from aws_lambda_powertools.utilities.typing import LambdaContext

from app import bootstrap
from app.core.telemetry import logger
from app.decks.card_images import CardImages, card_of_upload
from app.decks.ingest import MAX_UPLOAD_BYTES, Rejected, normalize
from app.decks.ports import CardState, CardStatus, DeckStore


def ingest(images: CardImages, decks: DeckStore, key: str) -> CardState | None:
    """Judge the upload at `key`; None when the key is no card upload or its deck does not exist."""
    card_id = card_of_upload(key)
    if card_id is None:
        logger.warning("not a card upload", extra={"key": key})
        return None
    data = images.read_upload(key, MAX_UPLOAD_BYTES)
    if data is None:
        return None
    try:
        image = normalize(data)
    except Rejected as rejected:
        state = CardState(CardStatus.REJECTED, f"{rejected.reason}: {rejected.detail}")
        images.delete_image(card_id)
    else:
        images.store_image(card_id, image)
        state = CardState(CardStatus.READY)
    images.delete(key)
    if not decks.record_card(card_id, state):
        logger.warning("upload for a deck that does not exist", extra={"card_id": card_id})
        images.delete_image(card_id)
        return None
    logger.info("card ingested", extra={"card_id": card_id, "status": state.status, "reason": state.reason})
    return state


@logger.inject_lambda_context(log_event=False)
def lambda_handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    decks = bootstrap.services().decks
    outcomes: dict[str, str] = {}
    for record in event.get("Records", []):
        images = bootstrap.card_images_in(record["s3"]["bucket"]["name"])
        key = unquote_plus(record["s3"]["object"]["key"])
        state = ingest(images, decks, key)
        outcomes[key] = "ignored" if state is None else state.status.value
    return {"cards": outcomes}
