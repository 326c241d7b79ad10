"""How a game's state is stored: compact JSON, zlib-compressed, in a binary attribute; and how a scored
round is (plain compact JSON, in a round's history item and, when its state cannot tell it whole, in
the game item that scored it).

DynamoDB bills a write by the item's size in whole kilobytes, so the compression is what keeps a five-player
game item under 1 KB and every clue, submission and vote at one write unit (the JSON of such a game
reaches 840 bytes; compressed, 430). A reader gets the value in one of three forms: bytes from the
SDK, base64 text in a Lambda stream event, or, for items written before compression, the JSON itself.
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping

import pydantic_core

from app.games.remembered_states import RememberedStates
from dixit.state import GameState, RoundResult

# Compression level 6 gives nearly all of level 9's saving on a state this small, for less CPU.
_LEVEL = 6
# The game item's attribute holding a scored round's full reveal (app.games.ports.GameWrite.carried_round).
SCORED_ROUND = "scored_round"
# What this warm function last wrote or read: a move reads what the previous one wrote (issue 36).
remembered = RememberedStates()


class UnreadableState(ValueError):
    """A stored state that is neither JSON nor a compressed state (a corrupt or foreign item)."""


def pack(state: GameState) -> bytes:
    # pydantic-core's JSON is GameState.to_json's, byte for byte (compact, UTF-8), in a quarter the CPU:
    # every move writes this and every read parses it.
    stored = zlib.compress(pydantic_core.to_json(state.to_dict()), _LEVEL)
    remembered.keep(stored, state)
    return stored


def unpack(value: bytes | bytearray | memoryview | str) -> GameState:
    if isinstance(value, str):
        if value.lstrip().startswith("{"):
            return GameState.from_json(value)
        try:
            value = base64.b64decode(value, validate=True)
        except binascii.Error as error:
            raise UnreadableState("a stored state that is neither JSON nor base64") from error
    stored = bytes(value)
    known = remembered.recall(stored)
    if known is not None:
        return known
    try:
        data = zlib.decompress(stored)
        data.decode("utf-8")  # from_json would take other bytes as UTF-8 too: a corrupt item says so here
    except (zlib.error, UnicodeDecodeError) as error:
        raise UnreadableState("a stored state that does not decompress") from error
    state = GameState.from_dict(pydantic_core.from_json(data))
    remembered.keep(stored, state)
    return state


def stored(image: Mapping[str, object] | None) -> GameState | None:
    """The state in a deserialized item or stream image, None when it holds none."""
    value = (image or {}).get("state")
    if isinstance(value, str | bytes | bytearray | memoryview):
        return unpack(value)
    inner = getattr(value, "value", None)  # boto3's Binary wrapper
    return unpack(inner) if isinstance(inner, bytes) else None


def round_json(result: RoundResult) -> str:
    """A round as its history item (and a game item's carried reveal) stores it."""
    return json.dumps(result.to_dict(), separators=(",", ":"), ensure_ascii=False)


def round_from_json(text: str) -> RoundResult:
    return RoundResult.from_dict(json.loads(text))
