"""The rule book in a real browser: the site is built, opened in headless Chromium, and a rule
page and a case viewer are checked as a reader sees them — the pictures render, stepping
forward and back works (buttons and keys), and the browser logs no error.

Screenshots are kept as build output in ``docs/_build/screenshots/`` (ignored by git). Skipped,
with the reason, where Chromium, its driver or Selenium is missing (``.ci/run`` installs them).
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "docs" / "_build" / "test-html"
SHOTS = ROOT / "docs" / "_build" / "screenshots"
CASE = "kala/trace/sixth-bean-to-opponent"

pytestmark = pytest.mark.slow

webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed")
from selenium.webdriver.common.by import By  # noqa: E402 - only once Selenium is known
from selenium.webdriver.common.keys import Keys  # noqa: E402

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


@pytest.fixture(scope="module")
def site(docs_site: tuple[subprocess.CompletedProcess[str], Path]) -> Path:
    """The site, built once a session or kept from an earlier one with the same sources (the
    ``docs_site`` fixture of ``conftest.py``)."""
    result, built = docs_site
    assert result.returncode == 0, result.stdout + result.stderr
    assert built == SITE
    return SITE


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if BROWSER is None or DRIVER is None:
        pytest.skip("no headless Chromium here: apt-get install chromium chromium-driver")
    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1600"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER),
                              options=options)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def errors(driver: Any) -> list[str]:
    """The browser's console errors since the last call."""
    return [entry["message"] for entry in driver.get_log("browser")
            if entry["level"] == "SEVERE"]


def rendered_pictures(driver: Any, selector: str) -> list[dict[str, float]]:
    """The size of every SVG picture under *selector*, as laid out by the browser."""
    sizes: list[dict[str, float]] = driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(function (svg) {"
        " var box = svg.getBBox(); var rect = svg.getBoundingClientRect();"
        " return {width: rect.width, height: rect.height, drawn: box.width * box.height,"
        " shapes: svg.querySelectorAll('circle, rect, text').length}; });", selector)
    return sizes


def dark(driver: Any, on: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if on else "light"}]})


class TestRulePage:
    def test_pictures_render(self, site: Path, browser: Any) -> None:
        """KALA's rule page shows its pictures, drawn and laid out, in both themes."""
        browser.get((site / "rules" / "kala.html").as_uri())
        pictures = rendered_pictures(browser, ".copa-picture svg")
        assert len(pictures) >= 6
        for size in pictures:
            assert size["width"] > 200 and size["height"] > 200 and size["shapes"] > 20
            assert size["drawn"] > 0
        captions = browser.find_elements(By.CSS_SELECTOR, ".copa-caption a")
        assert any(CASE in a.get_attribute("href") for a in captions)
        browser.save_screenshot(str(SHOTS / "rules-kala.png"))
        dark(browser, True)
        browser.refresh()
        ink = browser.execute_script(
            "var t = document.querySelector('.copa-picture svg text');"
            " return getComputedStyle(t).fill;")
        assert ink == "rgb(230, 237, 243)"
        browser.save_screenshot(str(SHOTS / "rules-kala-dark.png"))
        dark(browser, False)
        assert errors(browser) == []


class TestCaseViewer:
    def step_label(self, browser: Any) -> str:
        return str(browser.find_element(By.CSS_SELECTOR, ".copa-viewer-step").text)

    def test_stepping(self, site: Path, browser: Any) -> None:
        """A case viewer opens at the step its address names, and steps with the buttons and
        the arrow keys, its picture and facts following."""
        browser.get((site / "cases" / f"{CASE}.html").as_uri() + "#step-24")
        assert self.step_label(browser) == "step 24 of 25"
        first = rendered_pictures(browser, ".copa-viewer-picture svg")
        assert len(first) == 1 and first[0]["shapes"] > 20
        title = browser.find_element(By.CSS_SELECTOR, ".copa-viewer-picture svg title")
        before = title.get_attribute("textContent")
        browser.save_screenshot(str(SHOTS / "viewer-step-24.png"))
        browser.find_element(By.CSS_SELECTOR, '[data-go="forward"]').click()
        assert self.step_label(browser) == "step 25 of 25"
        assert browser.current_url.endswith("#step-25")
        after = browser.find_element(By.CSS_SELECTOR, ".copa-viewer-picture svg title")
        assert after.get_attribute("textContent") != before
        assert "game over" in after.get_attribute("textContent")
        assert browser.find_element(By.CSS_SELECTOR, '[data-go="forward"]').get_attribute(
            "disabled")
        browser.save_screenshot(str(SHOTS / "viewer-step-25.png"))
        body = browser.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_LEFT)
        body.send_keys(Keys.ARROW_LEFT)
        assert self.step_label(browser) == "step 23 of 25"
        body.send_keys(Keys.HOME)
        assert self.step_label(browser) == "step 0 of 25"
        words = browser.find_element(By.CSS_SELECTOR, ".copa-viewer-words").text
        assert "starting position" in words
        body.send_keys(Keys.ARROW_RIGHT)
        assert "seat 0: sow" in browser.find_element(By.CSS_SELECTOR, ".copa-viewer-words").text
        assert browser.find_element(By.CSS_SELECTOR, ".copa-viewer-mover").text == "seat 1"
        assert errors(browser) == []

    def test_a_card_game_viewer(self, site: Path, browser: Any) -> None:
        """A Copas trace shows the mover's hand, and a long trace its picture note."""
        browser.get((site / "cases" / "copas" / "trace" / "random-4p-seed-1.html").as_uri()
                    + "#step-7")
        assert self.step_label(browser).startswith("step 7 of ")
        note = browser.find_element(By.CSS_SELECTOR, ".copa-viewer-note")
        assert "pictured every" in note.text
        body = browser.find_element(By.TAG_NAME, "body")
        while note.text:  # forward to the next pictured step
            body.send_keys(Keys.ARROW_RIGHT)
        title = browser.find_element(By.CSS_SELECTOR, ".copa-viewer-picture svg title")
        assert "view" in title.get_attribute("textContent")
        browser.save_screenshot(str(SHOTS / "viewer-copas.png"))
        assert errors(browser) == []


GAMES_PAGES = ("kala", "ronda", "hopper", "da_capo", "kopa", "copas")


@pytest.mark.parametrize("game", GAMES_PAGES)
def test_each_rule_page_first_example(site: Path, browser: Any, game: str) -> None:
    """Each game's rule page: its first example is drawn, laid out, captioned with the step
    the prose names, and kept as a screenshot (``rules-<game>-example.png``)."""
    browser.get((site / "rules" / f"{game}.html").as_uri())
    figure = browser.find_element(By.CSS_SELECTOR, ".copa-position")
    browser.execute_script("arguments[0].scrollIntoView();", figure)
    pictures = rendered_pictures(browser, ".copa-position .copa-picture svg")
    assert pictures and pictures[0]["width"] > 200 and pictures[0]["shapes"] > 10
    caption = figure.find_element(By.CSS_SELECTOR, ".copa-caption").text
    step = caption.split(", step ")[1].split()[0].rstrip(".;(")
    prose = browser.execute_script(
        "var p = arguments[0].previousElementSibling;"
        " while (p && p.tagName !== 'P') { p = p.previousElementSibling; }"
        " return p ? p.textContent : '';", figure)
    assert f"step {step}" in prose, (caption, prose)
    figure.screenshot(str(SHOTS / f"rules-{game}-example.png"))
    assert errors(browser) == []


def test_viewer_marks_fired_rules_and_chance(site: Path, browser: Any) -> None:
    """A HOPPER case: at a landing the viewer lists the chance outcomes with their
    probabilities, and the step where the foursome is claimed marks HOPPER-8."""
    browser.get((site / "cases" / "hopper" / "trace" / "foursome-and-close-up.html").as_uri()
                + "#step-7")
    count = browser.find_element(By.CSS_SELECTOR, ".copa-viewer-count").get_attribute(
        "textContent")
    assert count.startswith("chance: ") and "probabilities" in count
    items = [li.get_attribute("textContent")
             for li in browser.find_elements(By.CSS_SELECTOR, ".copa-viewer-legal li")]
    assert any("1/4" in item for item in items), items
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_RIGHT)
    assert "HOPPER-8" in browser.find_element(By.CSS_SELECTOR, ".copa-viewer-fires").text
    assert errors(browser) == []
