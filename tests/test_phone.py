"""What a passenger's finger and a keyboard user's eye need (issue 35): form controls a finger can hit, the
decree's article links in a box at least 24 px tall, a focus ring that stands out against the white page
(WCAG 1.4.11, 3:1), measured in Chromium at 360 px."""

from __future__ import annotations

import re

import pytest
from browser_support import _open

pytestmark = pytest.mark.browser


def _contrast(rgb: str, against=(255, 255, 255)) -> float:
    def lum(c):
        c = [v / 255 for v in c]
        c = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c]
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]
    a, b = sorted((lum([int(x) for x in re.findall(r"\d+", rgb)[:3]]), lum(against)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def test_controls_links_and_focus_ring_on_a_phone(browser, base_url):
    tab = _open(browser, base_url, viewport={"width": 360, "height": 740})
    page = tab.page
    try:
        page.goto("/linhas/")
        heights = page.evaluate("() => [...document.querySelectorAll('form select')].map(s => s.getBoundingClientRect().height)")
        assert heights and min(heights) >= 44, heights
        page.goto("/linhas/12-0140-00/")
        links = page.evaluate("() => [...document.querySelectorAll('main a[href*=\"/decreto/#art-\"]')]"
                              ".map(a => a.getBoundingClientRect().height)")
        assert links and min(links) >= 24, links
        page.keyboard.press("Tab")  # the skip link, then the brand
        page.keyboard.press("Tab")
        ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineColor")
        assert _contrast(ring) >= 3, ring
    finally:
        page.context.close()
