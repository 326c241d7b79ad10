"""What request bodies accept, where more than one resource accepts it: player-typed text, card ids and
JSON integers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field

from dixit.limits import MAX_NAME_BYTES, MAX_NAME_LENGTH

CARD_ID_PATTERN = r"^[a-z0-9](?:[a-z0-9_]{0,30}[a-z0-9])?-[0-9]{3}$"
CardId = Annotated[str, Field(pattern=CARD_ID_PATTERN, examples=["base-017"])]


def text_schema(*, blank_allowed: bool = False) -> Callable[[dict[str, Any]], None]:
    """The text rule (dixit.text) as the schema states it. The pattern is the schema's only: the rules
    check the characters themselves, so a refusal names the class refused (bidi_control, tag_character...)
    where pydantic could only say the pattern did not match.

    Added when a JSON schema is written, not when a model is made: nothing validates against the pattern,
    and building it (all of Unicode's refused ranges) would cost every cold start (issue 36)."""

    def add_pattern(schema: dict[str, Any]) -> None:
        from dixit.text_pattern import ANY_TEXT_PATTERN, TEXT_PATTERN

        schema["pattern"] = ANY_TEXT_PATTERN if blank_allowed else TEXT_PATTERN

    return add_pattern


# What the schema cannot say about player-typed text, in every such field's description.
TEXT_RULE = (
    "Characters: no control, format (zero-width, bidi, tags), private-use or unassigned characters and no "
    "separators but the plain space (each refused with a code naming its class, as the pattern says); "
    "plain spaces around are trimmed and the text NFC-normalised before it is measured"
)


def name_field(meaning: str, example: str, **kwargs: Any) -> Any:
    """A name players give (theirs, a deck's, a device's): the rules check every one against the same
    limits."""
    return Field(
        **kwargs,
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        json_schema_extra=text_schema(),
        examples=[example],
        description=(
            f"{meaning}; at most {MAX_NAME_BYTES} bytes in UTF-8 and {MAX_NAME_LENGTH} characters once "
            f"normalised (name_too_long, device_too_long). {TEXT_RULE}"
        ),
    )


def whole_number(value: object) -> object:
    """A BeforeValidator for strict integers that lets 6.0 through as 6 and still refuses "6" and true."""
    # JSON Schema counts 6.0 as an integer, so the server does too.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value
