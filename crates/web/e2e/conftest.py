"""Fixtures of the browser tests: the `robotrules serve` binary on a free
loopback port, a real headless Chromium, and a small site to fetch from."""

import http.server
import os
import pathlib
import subprocess
import threading

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[3]
SCREENSHOTS = ROOT / "target" / "screenshots"

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


SERVER_LOG = []


def start_server(*flags):
    """Starts `robotrules serve` on a free port; returns (process, base URL).
    What it writes on standard error is kept in SERVER_LOG."""
    binary = os.environ.get("ROBOTRULES_BIN", str(ROOT / "target" / "debug" / "robotrules"))
    process = subprocess.Popen(
        [binary, "serve", "--addr", "127.0.0.1:0", *flags],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    line = process.stderr.readline()
    marker = "is at "
    if marker not in line:
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    base = line.split(marker, 1)[1].strip().rstrip("/")
    SERVER_LOG.append(line)

    def keep():
        for more in process.stderr:
            SERVER_LOG.append(more)

    threading.Thread(target=keep, daemon=True).start()
    return process, base


@pytest.fixture(scope="session")
def server():
    # --allow-private-fetch: the fetch test reads a site on loopback.
    process, base = start_server("--allow-private-fetch")
    yield base
    process.terminate()
    process.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
            args=CHROMIUM_ARGS,
        )
        yield browser
        browser.close()


@pytest.fixture()
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.csp_errors = []

    def on_console(message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            page.csp_errors.append(message.text)

    page.on("console", on_console)
    yield page
    assert page.csp_errors == [], "the page broke its own CSP"
    context.close()


def screenshot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


class RobotsSite:
    """A real HTTP server on loopback with a robots.txt."""

    def __init__(self, body, status=200):
        if isinstance(body, str):
            body = body.encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                if self.path == "/robots.txt":
                    self.send_response(status)
                    self.send_header("content-type", "text/plain")
                    self.send_header("cache-control", "max-age=3600")
                    self.send_header("content-length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                else:
                    self.send_response(301)
                    self.send_header("location", "/robots.txt")
                    self.end_headers()

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
