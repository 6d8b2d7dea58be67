"""The installable app (issue 34, item 4): the web app manifest (``manifest.webmanifest``) makes
the page installable in Chromium (``Page.getInstallabilityErrors`` over the DevTools protocol
gives none), and the installed app starts offline: its ``start_url``, icons and manifest come from
the service worker's cache with the server stopped."""

from __future__ import annotations

import json

from .conftest import ROOT, App, SiteServer, _check_built, chromium_options

MANIFEST = json.loads((ROOT / "manifest.webmanifest").read_text())


def test_the_page_is_installable_and_the_installed_app_starts_offline(playwright_session, browser, tmp_path):
    _check_built()
    site = SiteServer(ROOT).start()
    # a profile on disk: Chromium installs nothing from an incognito context (Playwright's new_context)
    profile = str(tmp_path / "profile")
    ctx = playwright_session.chromium.launch_persistent_context(profile, viewport={"width": 1280, "height": 900}, **chromium_options())
    try:
        app = App(ctx.pages[0] if ctx.pages else ctx.new_page(), site)
        page = app.page
        app.open()
        page.wait_for_selector("html[data-offline=ready]", timeout=120_000, state="attached")
        cdp = ctx.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert errors == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == site.url + "manifest.webmanifest" and not manifest["errors"], manifest
        # the app as installed: its start_url, opened with the server stopped
        site.stop()
        start = site.url + MANIFEST["start_url"].removeprefix("./")
        page.goto(start)
        app.wait_ready()
        assert page.evaluate("() => !!navigator.serviceWorker.controller")
        short_name = page.evaluate("() => fetch('manifest.webmanifest').then((r) => r.json()).then((m) => m.short_name)")
        assert short_name == MANIFEST["short_name"]
        for icon in MANIFEST["icons"]:
            status = page.evaluate("src => fetch(src).then((r) => [r.status, r.headers.get('content-type')])", icon["src"])
            assert status[0] == 200, (icon, status)
    finally:
        ctx.close()
        site.stop()
