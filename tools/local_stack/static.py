"""The web client's files, served by the local gateway for ``GET`` on paths no API route claims.

``/`` is ``index.html``; a path without a file under ``/play/`` is ``index.html`` too, so a client-side
router can own those URLs. Nothing outside the root is ever read: the path is resolved first and must
stay inside it.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote

from local_stack.responses import HttpResponse

#: Types that ``mimetypes`` gets wrong or misses on some systems.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webp": "image/webp",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}
SPA_PREFIXES = ("/play/",)


def content_type(path: Path) -> str:
    suffix = path.suffix.lower()
    return CONTENT_TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


class StaticSite:
    """Files under ``root`` (for example ``web/``), read on every request so edits show at once."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def file_for(self, raw_path: str) -> Path | None:
        try:
            return self._file_for(raw_path)
        except (OSError, ValueError):
            # A name or path longer than the file system takes (ENAMETOOLONG), or one it cannot
            # represent: no such file, as for any other (404), never the gateway's 500.
            return None

    def _file_for(self, raw_path: str) -> Path | None:
        path = unquote(raw_path)
        if "\x00" in path or "\\" in path:
            return None
        relative = path.lstrip("/") or "index.html"
        candidate = (self.root / relative).resolve()
        if not candidate.is_relative_to(self.root):
            return None
        if candidate.is_dir():
            candidate = candidate / "index.html"
        if candidate.is_file():
            return candidate
        if path.startswith(SPA_PREFIXES) and (self.root / "index.html").is_file():
            return self.root / "index.html"
        return None

    def serve(self, raw_path: str) -> HttpResponse | None:
        """The file's response, or ``None`` when there is no such file (the gateway answers 404)."""
        found = self.file_for(raw_path)
        if found is None:
            return None
        headers = [("Content-Type", content_type(found)), ("Cache-Control", "no-cache")]
        return HttpResponse(200, headers, found.read_bytes())
