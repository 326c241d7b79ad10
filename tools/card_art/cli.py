"""``python -m card_art seed-art --bucket NAME``, ``sheet --deck base --out FILE`` (or ``sheet --out-dir DIR``
for every deck), ``describe`` (the descriptions the API serves as alt text) and ``survey``."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from card_art.cache import cache_dir
from card_art.descriptions import DESCRIPTIONS_FILE, descriptions_json
from card_art.seed import seed_bucket
from card_art.sheet import contact_sheet
from dixit.cards import OFFICIAL_DECKS


def _deck(value: str) -> str:
    if value not in OFFICIAL_DECKS:
        raise argparse.ArgumentTypeError(f"no official deck {value!r} (one of {', '.join(OFFICIAL_DECKS)})")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m card_art", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    seed = commands.add_parser(
        "seed-art",
        help="upload every card image to a deployed stack's card bucket, skipping keys already there",
    )
    seed.add_argument("--bucket", required=True, help="the stack's CardBucket (see the stack outputs)")
    seed.add_argument("--decks", nargs="+", type=_deck, default=list(OFFICIAL_DECKS), metavar="DECK")
    seed.add_argument("--workers", type=int, default=8)
    sheet = commands.add_parser("sheet", help="write a contact sheet of one deck (or of each) as PNG")
    sheet.add_argument("--deck", type=_deck, default="base")
    where = sheet.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", type=Path, help="the one deck's sheet")
    where.add_argument("--out-dir", type=Path, help="one <deck>.png per official deck")
    sheet.add_argument("--columns", type=int, default=12)
    sheet.add_argument("--thumb-width", type=int, default=90)
    describe = commands.add_parser("describe", help="write every official card's description (its alt text)")
    describe.add_argument("--out", type=Path, default=DESCRIPTIONS_FILE)
    commands.add_parser("survey", help="print each official deck's bands, discs, families and nearest pairs")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "seed-art":
        # Imported here: the sheet needs no boto3 client, and app.aws.clients honours AWS_ENDPOINT_URL.
        from app.aws import clients as aws_clients
        from app.decks.card_images import image_key

        card_ids = [card_id for deck in args.decks for card_id in OFFICIAL_DECKS[deck].card_ids()]
        from botocore.exceptions import BotoCoreError, ClientError

        started = time.monotonic()
        try:
            result = seed_bucket(aws_clients.s3(), args.bucket, card_ids, image_key, workers=args.workers)
        except (BotoCoreError, ClientError) as error:
            # A wrong bucket name or missing credentials is the usual cause: one line, no traceback.
            print(f"seed-art: {error}", file=sys.stderr)
            return 1
        print(
            f"seed-art: {result.uploaded} uploaded, {result.skipped} already there "
            f"({time.monotonic() - started:.1f} s; cache {cache_dir()})"
        )
        return 0
    if args.command == "describe":
        args.out.write_text(descriptions_json())
        print(f"describe: {sum(d.card_count for d in OFFICIAL_DECKS.values())} descriptions -> {args.out}")
        return 0
    if args.command == "survey":
        from card_art.survey import survey

        for deck in OFFICIAL_DECKS.values():
            print(f"{deck.deck_id}: {survey(deck.card_ids()).summary()}")
        return 0
    targets = (
        [(OFFICIAL_DECKS[args.deck], args.out)]
        if args.out
        else [(deck, args.out_dir / f"{deck.deck_id}.png") for deck in OFFICIAL_DECKS.values()]
    )
    for deck, out in targets:
        data = contact_sheet(deck.card_ids(), columns=args.columns, thumb_width=args.thumb_width)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        print(f"sheet: {len(deck.card_ids())} cards of {deck.deck_id} -> {out} ({len(data) // 1024} KB)")
    return 0
