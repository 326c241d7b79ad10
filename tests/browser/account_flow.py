"""The account side of the web client, driven as a player would: shared by test_account and the account
screenshots. Mails are read from the local stack's mailbox (``GET /_local/mail``, newest first)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit

from .web import STEP_TIMEOUT_MS, WebPlayer

CODE = re.compile(r"\b(\d{6})\b")
LINK = re.compile(r"https?://\S+?(#/\S+)")


def mails(api_url: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{api_url}/_local/mail", timeout=10) as response:
        found: list[dict[str, Any]] = json.loads(response.read())
        return found


def mail_count(api_url: str, address: str) -> int:
    return sum(address in m["to"] for m in mails(api_url))


def next_mail(api_url: str, address: str, seen: int) -> tuple[str, str]:
    """The code and the link's fragment (``#/…``) of the newest mail to ``address`` after ``seen`` of them."""
    deadline = time.monotonic() + STEP_TIMEOUT_MS / 1000
    while True:
        theirs = [m for m in mails(api_url) if address in m["to"]]
        if len(theirs) > seen:
            text = theirs[0]["text"]
            code, link = CODE.search(text), LINK.search(text)
            assert code, text
            assert link, text
            return code.group(1), link.group(1)
        assert time.monotonic() < deadline, f"no new mail to {address}"
        time.sleep(0.1)


def focused_id(player: WebPlayer) -> str:
    return str(player.page.evaluate("() => document.activeElement?.id || ''"))


def open_account(player: WebPlayer) -> None:
    player.page.click("#account-link")
    player.page.wait_for_selector("#rename")


def add_email(player: WebPlayer, api_url: str, address: str) -> tuple[str, str]:
    """From the account screen: the address in, the code mailed; returns the mail's code and link."""
    seen = mail_count(api_url, address)
    player.page.fill("#email", address)
    player.page.click("#email-send")
    player.page.wait_for_selector("section[data-step=code] #email-code")
    return next_mail(api_url, address, seen)


def ask_sign_in(player: WebPlayer, api_url: str, address: str) -> tuple[str, str]:
    """From the start screen: "Sign in with email", the address in; returns the mail's code and link."""
    seen = mail_count(api_url, address)
    player.page.click("#sign-in-email")
    player.page.fill("#signin-email", address)
    player.page.click("#signin-email-send")
    player.page.wait_for_selector("#signin-code")
    return next_mail(api_url, address, seen)


def client_link(client_url: str, fragment: str) -> str:
    """The mail's link, opened on the client under test (its origin and ?api=, the mail's route)."""
    parts = urlsplit(client_url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}{'?' + parts.query if parts.query else ''}{fragment}"
