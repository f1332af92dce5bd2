"""Browser tests: Python Playwright driving Debian's headless Chromium against the real app,
served by a threaded werkzeug server on a free port with a temporary SQLite database.

They skip only when Chromium is not installed (scripts/test installs it from
scripts/system-packages.txt; a developer machine without root may not have it)."""
from __future__ import annotations

import fcntl
import os
import re
import threading
import warnings
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("TENBOU_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screens"
PHONE = {"width": 360, "height": 740}
# Without the background-networking flags Chromium keeps trying hosts this machine cannot reach.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
    "--disable-default-apps", "--mute-audio",
]


@pytest.fixture(scope="session")
def chromium_path():
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium is not installed at {CHROMIUM} (Debian package 'chromium'; scripts/test installs it)")
    return CHROMIUM


@pytest.fixture(scope="session")
def contributions_dir(tmp_path_factory):
    """Where the live server keeps the photos players share."""
    return tmp_path_factory.mktemp("contributions")


@pytest.fixture(scope="session")
def live_server(tmp_path_factory, chromium_path, contributions_dir):
    """The real app on http://127.0.0.1:<free port>."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    from app import create_app

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):  # keep pytest's output to the failures
            pass

    def buffered(wsgi_app):
        """Read each response whole before sending it. A browser that drops a connection (a page
        navigating away while images load) makes werkzeug's dev server skip closing the body, and
        an unclosed static file would surface as a ResourceWarning in whichever test runs next."""
        def serve(environ, start_response):
            body = wsgi_app(environ, start_response)
            try:
                return [b"".join(body)]
            finally:
                if hasattr(body, "close"):
                    body.close()
        return serve

    db = tmp_path_factory.mktemp("browser-db") / "tenbou.sqlite3"
    # One server per test worker, and most tests make a table: at this machine's speed the tests made
    # more than the 30 tables a minute a client may (app.py), and a table's creation was refused
    # with 429 in two full runs of 2026-12-06. The limits stay on, set far above what the tests do;
    # they are tested themselves with their own servers (tests/browser/test_https.py, tests/test_limits.py).
    roomy = {name: "100000 per minute" for name in ("recognize", "contribute", "table_create", "event_create",
                                                    "table_read", "table_miss")}
    app = create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{db}", "CONTRIBUTIONS_DIR": str(contributions_dir),
                      "RATE_LIMITS": roomy})
    server = make_server("127.0.0.1", 0, buffered(app), threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="live-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=5)
        server.server_close()


@pytest.fixture(scope="session")
def playwright(chromium_path):
    """Playwright's driver, started with DEBUG=pw:browser (unless DEBUG is set): it then writes every
    Chromium's own stderr to the test process's, which pytest shows with a failed test. A Chromium
    that closed in the middle of a test (twice in 2026-12, once in CI) left only "Target page,
    context or browser has been closed"; its last words are what can say why."""
    from playwright.sync_api import sync_playwright

    before = os.environ.get("DEBUG")
    os.environ["DEBUG"] = before if before is not None else "pw:browser"
    try:
        pw_context = sync_playwright()
        pw = pw_context.start()
    finally:  # only the driver's environment: nothing else in this process reads it
        if before is None:
            del os.environ["DEBUG"]
    try:
        yield pw
    finally:
        pw.stop()


class Chromium:
    """The worker's Chromium, shared by its tests, and launched again when it has gone. A Chromium
    that dies (seen once in CI, 2026-12-05) fails the test it dies in; without a new one every later
    test of the worker failed at its setup too, and the one that mattered was lost among them.
    Each time it is launched again is said as a warning naming the test it died in."""

    def __init__(self, playwright, path: str):
        self.playwright, self.path = playwright, path
        self.current = None
        self.died_in = ""

    def get(self, nodeid: str):
        if self.current is None or not self.current.is_connected():
            if self.current is not None:
                warnings.warn(f"Chromium had closed (during {self.died_in}); launched again for {nodeid}", stacklevel=1)
            self.current = self.playwright.chromium.launch(executable_path=self.path, headless=True, args=CHROMIUM_ARGS)
            self.current.on("disconnected", self._gone)
        return self.current

    def _gone(self, _browser) -> None:
        self.died_in = os.environ.get("PYTEST_CURRENT_TEST", "no test")


@pytest.fixture(scope="session")
def chromium(playwright, chromium_path):
    shared = Chromium(playwright, chromium_path)
    yield shared
    if shared.current is not None and shared.current.is_connected():
        shared.current.close()


@pytest.fixture
def browser(chromium, request):
    return chromium.get(request.node.nodeid)


@pytest.fixture
def profile_phone(playwright, chromium_path, live_server, tmp_path):
    """A phone with a real (not incognito) profile, as an installed app would have."""
    context = playwright.chromium.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path, headless=True, args=CHROMIUM_ARGS,
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, base_url=live_server)
    console = Console()
    context.on("page", console.watch)
    page = context.pages[0] if context.pages else context.new_page()
    console.watch(page)
    yield page, console
    context.close()
    assert console.unexpected() == [], "console errors"


class Console:
    """Console errors and uncaught exceptions of every page in a context. HTTP error responses a
    test provokes on purpose (a 409 conflict, a 422 refusal) are allowed by status."""

    def __init__(self):
        self.errors: list[str] = []
        self.allowed_statuses: set[int] = set()
        self.allowed_failures: set[str] = set()
        self.offline = False

    def watch(self, page):
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(msg.text))
        page.on("pageerror", lambda exc: self.errors.append(f"uncaught: {exc}"))

    def allow(self, *statuses: int):
        self.allowed_statuses.update(statuses)

    def allow_offline(self):
        """Requests that fail while the test has the phone offline are expected."""
        self.offline = True

    def allow_failure(self, error: str):
        """A request the test makes fail on purpose with this network error (net::ERR_...)."""
        self.allowed_failures.add(error)

    def unexpected(self) -> list[str]:
        out = []
        for text in self.errors:
            # offline, a request fails, and so does the browser's check for a new service worker script
            if self.offline and ("net::ERR_INTERNET_DISCONNECTED" in text
                                 or "An unknown error occurred when fetching the script" in text):
                continue
            if any(error in text for error in self.allowed_failures):
                continue
            m = re.search(r"status of (\d{3})", text)
            if m and int(m.group(1)) in self.allowed_statuses:
                continue
            out.append(text)
        return out


def new_phone(browser, live_server, **kwargs):
    options = dict(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, base_url=live_server,
                   service_workers="allow", locale="en-GB")
    options.update(kwargs)
    context = browser.new_context(**options)
    context.set_default_timeout(10_000)
    console = Console()
    context.on("page", console.watch)
    return context, console


@pytest.fixture
def phone(browser, live_server):
    """A phone-sized browser context; fails the test on any unexpected console error."""
    context, console = new_phone(browser, live_server)
    page = context.new_page()
    yield page, console
    context.close()
    assert console.unexpected() == [], "console errors"


@pytest.fixture(scope="module")
def reading_phone(chromium, live_server, request):
    """One phone for a module's reading tests: its engines (ONNX Runtime Web, Pyodide) start once,
    about 15 s on 2 cores, and each photo then reads in 2 to 4 s instead of 18 to 25 s on a fresh
    phone. Fails the module's last test on any unexpected console error."""
    context, console = new_phone(chromium.get(request.node.nodeid), live_server)
    page = context.new_page()
    yield page, console
    context.close()
    assert console.unexpected() == [], "console errors"


@pytest.fixture
def second_phone(browser, live_server):
    context, console = new_phone(browser, live_server)
    page = context.new_page()
    yield page, console
    context.close()
    assert console.unexpected() == [], "console errors on the second phone"


def screenshot(page, name: str, full_page: bool = False) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def press(page, locator, touch: bool = False):
    """Put a finger down on `locator`'s centre (a touch, through Chromium's DevTools protocol, or
    the mouse's button) and leave it there; returns the function that lifts it."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    assert box, "nothing to press"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if not touch:
        page.mouse.move(x, y)
        page.mouse.down()
        return page.mouse.up
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    return lambda: cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def unlabelled_controls(page) -> list[str]:
    """Controls with no accessible name (aria-label, label, text or image alt)."""
    return page.evaluate("""() => [...document.querySelectorAll('button, a[href], input, select, textarea, [role=button]')]
        .filter((el) => el.type !== 'hidden')
        .filter((el) => {
            const by = el.getAttribute('aria-labelledby');
            const name = (el.getAttribute('aria-label') || '').trim()
                || (by && document.getElementById(by) && document.getElementById(by).textContent.trim())
                || (el.labels && [...el.labels].map((l) => l.textContent).join('').trim())
                || el.textContent.trim()
                || [...el.querySelectorAll('img[alt]')].map((i) => i.alt).join('').trim()
                || (el.getAttribute('title') || '').trim();
            return !name;
        })
        .map((el) => el.outerHTML.slice(0, 120))""")


class Taps:
    """Counts the player's taps (and typed fields) through a journey: each method does one tap.
    `record()` writes the count to test-artifacts/taps.json, so a run leaves the taps per journey."""

    def __init__(self, page, journey: str):
        self.page, self.journey, self.count = page, journey, 0

    def tap(self, selector: str):
        self.count += 1
        self.page.locator(selector).first.click()

    def check(self, selector: str):
        self.count += 1
        self.page.locator(selector).first.check()

    def select(self, selector: str, value: str):
        self.count += 1
        self.page.locator(selector).first.select_option(value)

    def type(self, selector: str, text: str):
        """Typing into a field counts as one tap (to focus it) plus one per character."""
        self.count += 1 + len(text)
        self.page.locator(selector).first.fill(text)

    def tiles(self, mpsz: str):
        for code in mpsz_codes(mpsz):
            self.tap(f'.picker [data-tile="{code}"]')

    def record(self) -> int:
        import json

        ARTIFACTS.parent.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS.parent / "taps.json"
        # the tests run on two processes (scripts/test): one writes at a time, and replaces the file whole
        with open(ARTIFACTS.parent / "taps.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            data = json.loads(path.read_text()) if path.exists() else {}
            data[self.journey] = self.count
            part = path.with_suffix(f".{os.getpid()}.part")
            part.write_text(json.dumps(data, indent=1, sort_keys=True))
            os.replace(part, path)
        return self.count


def mpsz_codes(mpsz: str) -> list[str]:
    """'234m11z' -> ['2m', '3m', '4m', '1z', '1z']"""
    out, digits = [], []
    for ch in mpsz:
        if ch.isdigit():
            digits.append(ch)
        else:
            out += [d + ch for d in digits]
            digits = []
    return out
