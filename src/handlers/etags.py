"""Entity tags for a game as one viewer sees it: they change with the version and with the viewer.

HTTP preconditions are read here, so the use cases only ever see a version number.
"""

from __future__ import annotations

import hashlib
import re

from handlers.problems import MalformedRequest

# If-Match named no version this viewer was ever shown: no version of the game can satisfy it.
NO_VERSION = -1
# RFC 9110 entity-tag: an optional W/, then a quoted run of visible characters other than the quote.
_TAG = r'(?:\*|(?:W/)?"[\x21\x23-\x7e]*")'
_ITEM = re.compile(_TAG)
# The whole header: tags separated by commas (a comma inside a quoted tag is part of the tag).
_TAG_LIST = re.compile(rf"[ \t]*{_TAG}(?:[ \t]*,[ \t]*{_TAG})*[ \t]*")


def game_etag(game_id: str, version: int, viewer_id: str | None) -> str:
    digest = hashlib.sha256(f"{game_id}:{version}:{viewer_id or '-'}".encode()).hexdigest()[:16]
    return f'"{version}-{digest}"'


def _candidates(header: str) -> list[str]:
    return [c.strip() for c in header.split(",")]


def matches(header: str | None, etag: str) -> bool:
    """If-None-Match (RFC 9110): weak comparison over the listed tags, `*` matching any."""
    if header is None:
        return False
    candidates = _candidates(header)
    return "*" in candidates or etag in (c.removeprefix("W/") for c in candidates)


def expected_version(if_match: str | None, game_id: str, viewer_id: str) -> int | None:
    """The version an If-Match header vouches for (None: no precondition).

    Strong comparison: a weak tag, another viewer's tag or a forged one vouches for nothing, which
    makes the move fail as stale. Of several valid tags the newest counts: clients list older ones
    only as fallbacks.
    """
    if if_match is None or not if_match.strip():
        return None  # an empty header vouches for nothing: no precondition, as if it were not sent
    if not _TAG_LIST.fullmatch(if_match):
        # Unquoted or an empty item: a client bug, said as such rather than as a stale version.
        raise MalformedRequest(
            "malformed_if_match", 'If-Match must be "*" or a list of entity tags from an ETag header'
        )
    candidates = _ITEM.findall(if_match)
    if "*" in candidates:
        return None
    versions = [
        version
        for version in (_version_in(tag) for tag in candidates)
        if version is not None and game_etag(game_id, version, viewer_id) in candidates
    ]
    return max(versions, default=NO_VERSION)


def _version_in(tag: str) -> int | None:
    number = tag.removeprefix('"').partition("-")[0]
    if not number.isdecimal() or len(number) > 12:
        return None
    return int(number)
