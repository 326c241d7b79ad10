"""Notifications: push devices, mutes and nudges by hand."""

from __future__ import annotations

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Path
from aws_lambda_powertools.event_handler.request import Request

from app.games import keyed
from app.games import play as games
from app.notify import delivery, my_preferences
from app.notify.delivery import Delivery
from app.notify.preferences import NotificationPreferences, to_body
from app.notify.schemas import (
    DEVICE_ID_PATTERN,
    DeviceOut,
    Devices,
    MutedOut,
    NudgeOut,
    PreferencesOut,
    RegisterDevice,
    SetMuted,
    SetPreferences,
    device_out,
)
from app.services import Services
from handlers.http import (
    Adapters,
    Caller,
    IdempotencyKey,
    accepted,
    check_game_id,
    created,
    done,
    json_response,
    location,
    no_content,
    put_response,
    request_key,
    to_response,
)
from handlers.problems import answers
from handlers.route_table import Endpoints

endpoint = Endpoints()
DeviceId = Annotated[str, Path(pattern=DEVICE_ID_PATTERN)]


def _delivery(adapters: Services) -> Delivery:
    return Delivery.of(adapters)


@endpoint(
    "registerDevice",
    summary="Register this device for push (501 push_not_configured when the platform is not set up)",
    **answers(
        {**created("Registered", "/players/me/devices/{device_id}"), 200: {"description": "Refreshed"}},
        400,
        401,
        404,
        409,
        413,
        415,
        501,
    ),
)
def put_device(
    request: Request, device_id: DeviceId, body: RegisterDevice, player: Caller, adapters: Adapters
) -> Response[DeviceOut]:
    device, is_new = delivery.register_device(
        _delivery(adapters), player, device_id, body.platform, body.push_token
    )
    where = f"/players/me/devices/{device.device_id}"
    return put_response(request, device_out(device), is_new=is_new, where=where)


@endpoint(
    "listDevices",
    summary="Your push devices",
    **answers({200: {"description": "Your devices"}}, 401),
)
def get_devices(player: Caller, adapters: Adapters) -> Response[Devices]:
    found = delivery.list_devices(_delivery(adapters), player)
    return json_response(Devices(devices=[device_out(d) for d in found]))


@endpoint(
    "removeDevice",
    summary="Forget a device",
    **answers(no_content("Forgotten"), 401, 404),
)
def delete_device(device_id: DeviceId, player: Caller, adapters: Adapters) -> Response[None]:
    delivery.remove_device(_delivery(adapters), player, device_id)
    return done()


def _preferences_out(preferences: NotificationPreferences) -> PreferencesOut:
    return PreferencesOut.model_validate(to_body(preferences))


@endpoint(
    "getNotificationPreferences",
    summary="Your notification preferences (the defaults until you change them)",
    **answers({200: {"description": "Your preferences"}}, 401),
)
def get_my_notifications(player: Caller, adapters: Adapters) -> Response[PreferencesOut]:
    return json_response(_preferences_out(my_preferences.show(adapters, player)))


@endpoint(
    "setNotificationPreferences",
    summary="Change your notification preferences: mute, time zone, quiet hours, channels, digest "
    "(fields left out keep their value)",
    **answers({200: {"description": "Saved: all your preferences"}}, 400, 401, 413, 415),
)
def put_my_notifications(
    body: SetPreferences, player: Caller, adapters: Adapters
) -> Response[PreferencesOut]:
    changes = body.model_dump(mode="json", include=body.model_fields_set)
    return json_response(_preferences_out(my_preferences.change(adapters, player, changes)))


@endpoint(
    "muteGame",
    summary="Mute or unmute one game's notifications",
    **answers({200: {"description": "Saved"}}, 400, 401, 403, 404, 413, 415),
)
def put_game_notifications(
    game_id: str, body: SetMuted, player: Caller, adapters: Adapters
) -> Response[MutedOut]:
    record = games.load_game(adapters, check_game_id(game_id))
    delivery.set_game_muted(_delivery(adapters), player, record.state, body.muted)
    return json_response(MutedOut(muted=body.muted, game_id=game_id))


@endpoint(
    "nudgeGame",
    summary="Remind the players the game waits on (once per game per hour, else 429)",
    **answers(accepted("Reminded", "/games/{game_id}, where owed moves show"), 400, 401, 403, 404, 409, 429),
)
def post_nudge(
    game_id: str, request: Request, player: Caller, adapters: Adapters, key: IdempotencyKey = None
) -> Response[NudgeOut]:
    def compute() -> dict[str, object]:
        record = games.load_game(adapters, check_game_id(game_id))
        report = delivery.nudge_game(_delivery(adapters), player, record.state)
        out = NudgeOut(
            game_id=game_id,
            nudged=list(report.nudged),
            next_nudge_at=report.next_nudge_at,
            unreachable=list(report.unreachable),
        )
        return out.model_dump(mode="json")

    body = keyed.answer_once(adapters, request_key(request, player, key, None), compute)
    return to_response(
        {"status": 202, "body": body, "headers": {"Location": location(request, f"/games/{game_id}")}}
    )
