#!/usr/bin/env python3
"""Render the app's PNG icons (the web app manifest's, ``manifest.webmanifest``) from
``static/img/icon.svg``, in headless Chromium (the e2e tests' browser):

* ``static/img/icon-192.png``, ``icon-512.png``: the icon as it is (purpose ``any``);
* ``static/img/icon-maskable-192.png``, ``icon-maskable-512.png`` (purpose ``maskable``): the
  icon at 72 % on a full square of its background colour, so that the tiles stay inside the
  safe zone (the centred circle of 80 % of the width) that a launcher's mask always shows.

The PNGs are committed; run this when the icon changes:

    .venv/bin/python tools/web_icons.py
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SIZES = (192, 512)
MASKABLE_SCALE = 0.72  # the tiles' corners at 0.375 * 0.72 * sqrt(2) = 38 % of the width from the centre


def icon_html(svg: str, size: int, maskable: bool) -> str:
    background = re.search(r'<rect width="64" height="64"[^>]*fill="(#[0-9a-fA-F]{6})"', svg)
    fill = background.group(1) if background and maskable else "transparent"
    scale = MASKABLE_SCALE if maskable else 1.0
    inner = size * scale
    sized = svg.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1)
    return (
        "<!doctype html><html><body style='margin:0;background:transparent'>"
        f"<div style='width:{size}px;height:{size}px;background:{fill};display:flex;align-items:center;justify-content:center'>"
        f"<div style='width:{inner}px;height:{inner}px'>{sized}</div>"
        "</div></body></html>"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=ROOT / "static/img", help="directory of the PNGs (default static/img)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    from tests.e2e.conftest import chromium_options

    svg = (ROOT / "static/img/icon.svg").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(**chromium_options())
        for size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            for maskable in (False, True):
                page.set_content(icon_html(svg, size, maskable))
                name = f"icon-{'maskable-' if maskable else ''}{size}.png"
                page.locator("body > div").screenshot(path=str(args.out / name), omit_background=True)
                print(f"wrote {args.out / name}")
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
