"""The web client can be installed: Chromium finds no installability error (the DevTools protocol's
Page.getInstallabilityErrors), the service worker serves the shell offline with an "offline" notice, and
an iPhone is told once how to add it to the home screen (where Web Push reaches a web page there).

With DIXIT_SHOOT=1 it also writes those screens' pictures into docs/.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, sync_playwright

from .web import CHROMIUM, CHROMIUM_ARGS, PHONE, WebPlayer, chromium, screenshot, static_site

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs"
IPHONE = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.4 Mobile/15E148 Safari/604.1"
)
# The service worker is in charge and has the shell cached.
SHELL_CACHED = """async () => {
  await navigator.serviceWorker.ready;
  const keys = await caches.keys();
  if (!keys.length) return false;
  const cache = await caches.open(keys[0]);
  return Boolean(navigator.serviceWorker.controller) && Boolean(await cache.match('index.html'));
}"""


@contextmanager
def profile(user_data_dir: Path) -> Iterator[BrowserContext]:
    """A browser with a profile on disk: Chromium never offers to install from an incognito context, which
    is what a Playwright browser's new_context is."""
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(user_data_dir),
            executable_path=str(CHROMIUM),
            args=CHROMIUM_ARGS,
            viewport=PHONE,
            device_scale_factor=2,
        )
        try:
            yield context
        finally:
            context.close()


def shoot(player: WebPlayer, name: str) -> None:
    if os.environ.get("DIXIT_SHOOT"):
        screenshot(player.page, DOCS / f"web-{name}.png")


def test_chromium_finds_the_client_installable_and_its_shell_opens_offline(tmp_path: Path) -> None:
    # No API is needed: the start screen is the shell alone (the API is asked nothing before registering).
    with static_site() as site, profile(tmp_path / "profile") as context:
        client = f"{site}/index.html?api=http://127.0.0.1:9"
        phone = WebPlayer("Ada", context, client)
        phone.open(client)
        phone.page.wait_for_selector("#name")
        manifest = phone.page.evaluate("async () => (await fetch('manifest.json')).json()")
        assert manifest["display"] == "standalone"
        cdp = phone.context.new_cdp_session(phone.page)
        answer = cdp.send("Page.getInstallabilityErrors")
        assert answer["installabilityErrors"] == [], answer
        manifest_url = cdp.send("Page.getAppManifest")
        assert manifest_url["errors"] == [], manifest_url

        phone.page.wait_for_function(SHELL_CACHED, polling=200)
        phone.page.reload()  # now under the service worker's control
        phone.page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")
        # Going offline says so at once; a page opened meanwhile comes from the service worker's cache.
        phone.context.set_offline(True)
        phone.page.wait_for_selector("#offline:not([hidden])")
        assert "You are offline" in phone.page.inner_text("#offline")
        phone.assert_accessible("the start screen offline")
        shoot(phone, "offline")
        phone.page.reload()
        phone.page.wait_for_selector("#name")
        assert "Dixit" in phone.page.title()
        phone.context.set_offline(False)
        phone.page.wait_for_selector("#offline", state="hidden")
        assert phone.errors == []


def test_an_iphone_is_told_once_how_to_add_the_client_to_its_home_screen() -> None:
    with static_site() as site, chromium() as browser:
        client = f"{site}/index.html?api=http://127.0.0.1:9"
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, user_agent=IPHONE, is_mobile=True, has_touch=True
        )
        iphone = WebPlayer("Bob", context, client)
        iphone.open(client)
        iphone.page.wait_for_selector("#home-screen-hint:not([hidden])")
        assert "Add to Home Screen" in iphone.page.inner_text("#home-screen-hint")
        iphone.assert_accessible("the home-screen hint")
        shoot(iphone, "home-screen-hint")
        iphone.page.click("#home-screen-hint-close")
        iphone.page.wait_for_selector("#home-screen-hint", state="hidden")
        iphone.page.reload()
        iphone.page.wait_for_selector("#name")
        assert iphone.page.is_hidden("#home-screen-hint")

        # Another phone, not an Apple one, never sees it.
        android = WebPlayer("Cy", browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True), client)
        android.open(client)
        android.page.wait_for_selector("#name")
        assert android.page.is_hidden("#home-screen-hint")
        assert iphone.errors == android.errors == []
