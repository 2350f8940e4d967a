"""The review console in a real browser: headless Chromium (Debian's `chromium` + `chromium-driver`)
driven by Selenium through `woodpecker review serve`, the embedded broker and Redis.

Screenshots of the queue and of an item go to `bench/results/review-console/` (gitignored). The page
is checked with axe-core (shipped inside the `axe-selenium-python` package: nothing is downloaded) for
the WCAG 2 A/AA rules, which cover labels and contrast, and the tab order is checked against the DOM.
`make test` installs the browser when it is missing (Makefile, `browser` target).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import orjson
import pytest

from lab.broker import EmbeddedBroker
from tests.console.helpers import EVIDENCE, fresh_settings, outputs, review_request, seed
from tests.redis_server import free_port
from workers.console.auth import hash_password
from workers.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SHOTS = Path(__file__).resolve().parents[2] / "bench" / "results" / "review-console"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
if CHROMIUM is None or DRIVER is None:
    pytest.skip("no chromium / chromedriver: `make test` installs them (apt-get)", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


class Console:
    def __init__(self, url: str, settings: Settings) -> None:
        self.url, self.settings = url, settings


@pytest.fixture(scope="module")
def console(
    broker: EmbeddedBroker, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Console]:
    prefix = f"wpbrowser:{os.getpid()}:"
    settings = fresh_settings(broker.bootstrap, redis_url, prefix)
    requests = [review_request("fin-001", "acme"), review_request("fin-002", "acme", domain="legal")]
    requests.append(review_request("g-1", "globex", answer="Globex secret figure $4.8 billion."))
    asyncio.run(seed(settings, requests))
    port = free_port()
    env = {
        **os.environ,
        "KAFKA_BOOTSTRAP": broker.bootstrap,
        "WOODPECKER_KAFKA__BROKER": "embedded",  # the console's process did not start this broker
        "WOODPECKER_REDIS_URL": redis_url,
        "WOODPECKER_KAFKA__TOPIC_PREFIX": settings.kafka.topic_prefix,
        "WOODPECKER_KAFKA__APP_ID": settings.kafka.app_id,
        "WOODPECKER_REVIEW__REDIS_PREFIX": prefix,
        "WOODPECKER_REVIEW__SECRET_KEY": "browser-test-key-0123456789abcdef",
        "WOODPECKER_REVIEW__REVIEWERS": orjson.dumps({"acme": {"rita": hash_password("rita-pw")}}).decode(),
    }
    log = (tmp_path_factory.mktemp("console") / "console.log").open("wb")
    command = [sys.executable, "-m", "workers.cli", "review", "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_http(f"{url}/healthz", process)
        yield Console(url, settings)
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _wait_http(url: str, process: subprocess.Popen[bytes], timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "the console exited at start"
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout_s} s")


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM or ""
    for flag in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1366,900",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(executable_path=DRIVER))
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: WebDriver, timeout_s: float = 30) -> WebDriverWait[WebDriver]:
    return WebDriverWait(driver, timeout_s, poll_frequency=0.2)


def _sign_in(driver: WebDriver, console: Console) -> None:
    driver.get(f"{console.url}/login")
    driver.delete_all_cookies()
    driver.get(f"{console.url}/login")
    driver.find_element(By.ID, "tenant").send_keys("acme")
    driver.find_element(By.ID, "reviewer").send_keys("rita")
    driver.find_element(By.ID, "password").send_keys("rita-pw", Keys.ENTER)
    _wait(driver).until(ec.presence_of_element_located((By.ID, "pending-count")))


def _wait_for_queue(driver: WebDriver, console: Console, count: str, timeout_s: float = 30) -> None:
    """Reload the queue until the console's consumer has brought the items in."""
    deadline = time.monotonic() + timeout_s
    while count not in driver.find_element(By.ID, "pending-count").text:
        assert time.monotonic() < deadline, f"the queue never showed {count!r}"
        time.sleep(0.5)
        driver.get(f"{console.url}/")


def _axe(driver: WebDriver) -> list[dict[str, Any]]:
    """WCAG 2 A and AA violations on the current page, by axe-core as shipped in axe-selenium-python."""
    spec = find_spec("axe_selenium_python")
    assert spec is not None and spec.origin is not None
    script = Path(spec.origin).parent / "node_modules" / "axe-core" / "axe.min.js"
    driver.execute_script(script.read_text(encoding="utf-8"))
    options = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}}
    result = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, arguments[0]).then(r => done(r.violations), e => done([{id: String(e)}]));",
        options,
    )
    return [{"id": v["id"], "nodes": [n.get("html") for n in v.get("nodes", [])][:3]} for v in result]


def _tab_order_follows_the_page(driver: WebDriver, steps: int = 12) -> None:
    """Tabbing from the top visits the focusable elements in document order (no tabindex jumps)."""
    tabbable = driver.execute_script(
        "return Array.from(document.querySelectorAll('a[href], button, input:not([type=hidden]), textarea'))"
        ".filter(e => e.tabIndex >= 0 && e.offsetParent !== null);"
    )
    assert (
        driver.execute_script("return document.querySelectorAll('[tabindex]:not([tabindex=\"-1\"])').length")
        == 0
    )
    driver.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
    visited = []
    for _ in range(min(steps, len(tabbable))):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        visited.append(driver.switch_to.active_element)
    assert visited == tabbable[: len(visited)]
    driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0);")


def _press(driver: WebDriver, key: str) -> None:
    """A shortcut key with nothing focused, as a reviewer reading the page would press it."""
    driver.execute_script("document.activeElement && document.activeElement.blur();")
    ActionChains(driver).send_keys(key).perform()


def _full_page_screenshot(driver: WebDriver, path: Path) -> None:
    size = driver.get_window_size()
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(size["width"], max(size["height"], int(height) + 140))
    try:
        driver.save_screenshot(str(path))
    finally:
        driver.set_window_size(size["width"], size["height"])


def _output(console: Console, answer_id: str, timeout_s: float = 30) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        found = [o for o in asyncio.run(outputs(console.settings)) if o.id == answer_id]
        if found:
            return found
        time.sleep(0.3)
    raise AssertionError(f"{answer_id} never reached the output topic")


def test_sign_in_open_edit_and_approve(console: Console, browser: WebDriver) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    _sign_in(browser, console)
    _wait_for_queue(browser, console, "2 pending")
    rows = browser.find_elements(By.CSS_SELECTOR, "#queue tbody tr")
    assert [r.find_element(By.CSS_SELECTOR, "a").text for r in rows] == ["fin-001", "fin-002"]
    assert (
        "high_stakes_contradiction" in rows[0].text and "finance" in rows[0].text and "legal" in rows[1].text
    )
    assert "g-1" not in browser.page_source and "Globex" not in browser.page_source
    assert _axe(browser) == []
    _tab_order_follows_the_page(browser)
    _press(browser, "j")  # j selects the first (oldest) row
    assert browser.switch_to.active_element.text == "fin-001"
    browser.save_screenshot(str(SHOTS / "queue.png"))
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    mark = _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "mark.evidence")))
    assert mark.text == EVIDENCE
    background = mark.value_of_css_property("background-color")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")  # really highlighted
    assert "4.8" in browser.find_element(By.CSS_SELECTOR, "#diff del").text
    assert "CONTRADICTED" in browser.find_element(By.ID, "claims").text
    assert _axe(browser) == []
    _tab_order_follows_the_page(browser, steps=20)
    _full_page_screenshot(browser, SHOTS / "item.png")  # the whole page: diff, claims, marked document
    _press(browser, "e")
    editor = browser.switch_to.active_element
    assert editor.get_attribute("id") == "edit-text"
    editor.clear()
    editor.send_keys("Northwind reported revenue of $4.2 billion in fiscal 2023 (checked by Rita).")
    browser.find_element(By.CSS_SELECTOR, "#edit-form button[type=submit]").click()
    _wait(browser).until(ec.presence_of_element_located((By.CSS_SELECTOR, "p.notice")))
    assert "fin-001 edited" in browser.find_element(By.CSS_SELECTOR, "p.notice").text
    [out] = _output(console, "fin-001")
    assert out.corrected == "Northwind reported revenue of $4.2 billion in fiscal 2023 (checked by Rita)."
    assert out.route.value == "review_approved" and out.review_reasons[-1] == "review_edited"


def test_reject_from_the_keyboard(console: Console, browser: WebDriver) -> None:
    _sign_in(browser, console)
    browser.get(f"{console.url}/items/fin-002")
    _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "mark.evidence")))
    _press(browser, "r")
    reason = browser.switch_to.active_element
    assert reason.get_attribute("id") == "reject-note"
    reason.send_keys("The report was restated: 4.8 is right.")
    browser.find_element(By.CSS_SELECTOR, "#reject-form button[type=submit]").click()
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "pending-count"), "0 pending"))
    [out] = _output(console, "fin-002")
    assert out.corrected == out.original and out.review_reasons[-1].startswith("review_rejected: The report")
