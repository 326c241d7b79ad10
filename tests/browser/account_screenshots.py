"""The account screens at phone size (390x844) on the local stack.

`python -m tests.browser.account_screenshots [DIR]` writes web-account-*.png into DIR (docs/ by default;
`make screenshots` runs it too).

The start screen, the sign-in code step, the mail's sign-in link, the inbox just signed in, the verify
link on a device with no player, and the account screen's name, email, devices and delete steps.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from ..local_stack.test_local_serve import start_serve, stop
from .account_flow import add_email, ask_sign_in, client_link, open_account
from .web import PHONE, WebPlayer, chromium, screenshot

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: The pictures docs/ keeps (docs/web-client.md shows some); another directory gets every screen.
IN_DOCS = {"start", "sign-in-link", "email-code", "email-verified", "devices", "delete"}


def shoot(player: WebPlayer, out: Path, name: str, selector: str | None = None) -> None:
    if out == DOCS and name not in IN_DOCS:
        return
    screenshot(player.page, out / f"web-account-{name}.png", selector)


def main(out: Path = DOCS) -> int:
    address = "ada@example.org"
    with tempfile.TemporaryDirectory() as tmp:
        served = start_serve(Path(tmp))
        try:
            with chromium() as browser:
                client = f"{served.api_url}/"
                a = WebPlayer("Ada", browser.new_context(viewport=PHONE, device_scale_factor=2), client)
                b = WebPlayer("Ada", browser.new_context(viewport=PHONE, device_scale_factor=2), client)
                a.open(client)
                shoot(a, out, "start")
                a.register()
                open_account(a)
                a.page.wait_for_selector("li.session")
                shoot(a, out, "name")
                code, _ = add_email(a, served.api_url, address)
                a.page.fill("#email-code", code)
                shoot(a, out, "email-code", "#email-heading")
                a.page.click("#email-code-send")
                a.page.wait_for_selector("section[data-step=verified]")
                shoot(a, out, "email-verified", "#email-heading")
                b.open(client)
                _, link = ask_sign_in(b, served.api_url, address)
                shoot(b, out, "sign-in-code")
                b.open(client_link(client, link))
                b.page.wait_for_selector("#confirm-sign-in")
                shoot(b, out, "sign-in-link")
                b.page.click("#confirm-sign-in")
                b.page.wait_for_selector("a.button[href='#/new']")
                shoot(b, out, "signed-in")
                a.page.reload()
                a.page.wait_for_selector("li.session >> nth=1")
                c = WebPlayer("Cy", browser.new_context(viewport=PHONE, device_scale_factor=2), client)
                c.open(client + "#/verify-email/123456")
                c.page.wait_for_selector("h1")
                shoot(c, out, "verify-elsewhere")
                shoot(a, out, "devices", "#sessions-heading")
                a.page.click("#delete-start")
                a.page.fill("#delete-name", "Ad")
                shoot(a, out, "delete", "#delete-heading")
                errors = a.errors + b.errors + c.errors
                if errors:
                    print("page errors:", *errors, sep="\n", file=sys.stderr)
                    return 1
        finally:
            stop(served.process)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS))
