"""Email: attaching an address to you (confirmed by a mailed code), and signing in with it elsewhere."""

from __future__ import annotations

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.request import Request

from app.players.schemas import PlayerOut, player_out
from app.signin import email as emails
from app.signin.schemas import (
    AttachEmail,
    ConfirmEmail,
    EmailAttaching,
    RequestSignIn,
    SignedIn,
    SignInSent,
    VerifySignIn,
)
from handlers.http import (
    Adapters,
    Signed,
    accepted,
    created,
    json_response,
    new_token_answer,
    no_store_response,
    source_ip,
)
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()


@endpoint(
    "attachEmail",
    summary="Attach an email address to you: a six-digit code and a link are mailed there to confirm it",
    description=(
        "Your address changes only once the code is confirmed (POST /players/me/email/verify); until then "
        "the one you had stays. Whether another player has this address is not told here. At most 5 "
        "codes a day for you and 3 a day for the address, and 6 a year to an address (one that never "
        "confirms stops getting them): 429 `too_many_codes`."
    ),
    **answers(accepted("The code is on its way", "/players/me"), 400, 401, 413, 415, 429, 501),
)
def attach_email(
    request: Request, body: AttachEmail, signed: Signed, adapters: Adapters
) -> Response[EmailAttaching]:
    sent = emails.attach_email(adapters, signed.player, body.email)
    return no_store_response(
        request, EmailAttaching(email=sent.email, expires_at=sent.expires_at), 202, "/players/me"
    )


@endpoint(
    "confirmEmail",
    summary="Confirm the address you attached with the code mailed to it",
    description=(
        "422 `code_invalid` for a wrong code; `code_expired` once it is past its 15 minutes, used, or "
        "after 5 wrong tries (even the right code then). 409 `email_taken`: another player confirmed it."
    ),
    **answers({200: {"description": "You, with your confirmed address"}}, 400, 401, 409, 413, 415),
)
def confirm_email(body: ConfirmEmail, signed: Signed, adapters: Adapters) -> Response[PlayerOut]:
    player = emails.confirm_email(adapters, signed.player, body.code)
    return json_response(player_out(player, signed.session_id), headers={"Cache-Control": "no-store"})


@endpoint(
    "requestSignIn",
    summary="Sign in on another device: a six-digit code and a link are mailed to your confirmed address",
    description=(
        "Always the same answer, in about the same time, whether or not the address is a player's: only "
        "a confirmed address gets mail. The code works once, for 10 minutes. Codes to one address: one a "
        "minute, 3 in 10 minutes, 5 an hour, so the wait grows but never passes the hour (429 "
        "`too_many_codes` with Retry-After); 20 requests per source address an hour (`too_many_requests`)."
    ),
    **answers(
        accepted("A code is on its way if the address is a player's", "/sessions/verify"),
        400,
        413,
        415,
        429,
        501,
    ),
)
def request_sign_in(request: Request, body: RequestSignIn, adapters: Adapters) -> Response[SignInSent]:
    sent = emails.request_sign_in(adapters, body.email, source_ip(request))
    shown = SignInSent(sent_to=sent.sent_to, expires_in=sent.expires_in)
    return no_store_response(request, shown, 202, "/sessions/verify")


@endpoint(
    "verifySignIn",
    summary="Trade the mailed code for a new session on this device (its token is shown once)",
    description=(
        "422 `code_invalid` for a wrong code (or an address nobody confirmed); `code_expired` once it is "
        "past its 10 minutes, used, or after 5 wrong tries (even the right code then): wrong tries kill "
        "that code, never the address, so a fresh code always works. At most 50 tries per source "
        "address an hour (429 `too_many_attempts`)."
    ),
    **answers(created("You, with the new session's token", "/players/me"), 400, 413, 415, 429),
)
def verify_sign_in(request: Request, body: VerifySignIn, adapters: Adapters) -> Response[SignedIn]:
    player, session, token = emails.verify_sign_in(
        adapters, body.email, body.code, body.device, source_ip(request)
    )
    shown = SignedIn(player_id=player.player_id, name=player.name, session_id=session.session_id, token=token)
    return new_token_answer(request, shown)
