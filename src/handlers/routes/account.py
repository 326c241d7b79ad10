"""The account as a whole: everything stored about you (export) and erasing it (delete).

What a delete does, game by game, and what it keeps: app.flows.erase_account and docs/accounts.md
(Your data)."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response

from app.account import data as account_data
from app.account.schemas import AccountExport, account_export
from app.flows.erase_account import erase_account
from handlers.http import Adapters, Signed, done, json_response, no_content
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "exportMyData",
    summary="Everything stored about you, as one JSON document (never a token, hash or secret)",
    description=(
        "Your profile, sessions, personal tokens, push devices, webhooks, mutes, and every game you are "
        "in or finished with the rounds you played. Served as an attachment, never cached."
    ),
    **answers({200: {"description": "Your data"}}, 401),
)
def export(signed: Signed, adapters: Adapters) -> Response[AccountExport]:
    document = account_export(account_data.export(adapters, signed), adapters.images)
    filename = f"dixit-data-{signed.player.player_id}.json"
    return json_response(
        document,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "no-store",
        },
    )


@endpoint(
    "deleteMe",
    summary="Delete your account: every token of yours stops working",
    description=(
        "Your sessions, personal tokens, devices, webhooks, mutes, email address, inbox and history go, "
        "and the profile last. You leave your lobbies; in games already started or finished your seat "
        'stays, named "Deleted player" (a started game\'s timeout policy plays on without you). A 503 '
        "means part is done: send the same request again with the same token."
    ),
    **answers(no_content("Deleted"), 401, 409),
)
def delete_me(signed: Signed, adapters: Adapters) -> Response[None]:
    erase_account(adapters, signed)
    return done()
