"""Type the sample evening into the secretary's pages in a real headless Chromium and check
that the evening sheet and the standings show exactly its `expected` figures.

Not a pytest module (it needs /usr/bin/chromium and a free port): run it by hand,

    .venv/bin/python tests/pages/browser_sample.py

It migrates a fresh SQLite database in a temporary folder, creates the club's six members,
the season 2026 and a login for the secretary, starts `runserver` and Chromium (phone size,
German), logs in, creates the evening on the "Neuer Abend" form (Frank Roth absent, the
guest typed in as a new guest), then enters the 25 games by tapping the loser and the
Schock-Aus buttons in throwing order, checking before each game that the number and the
Vorleger are pre-filled right. Exit status 0 when every figure matches. Talks to Chromium
through its DevTools protocol with a small WebSocket client (standard library only).
"""

import base64
import json
import os
import re
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "samples" / "evening-2026-10-09.json"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SETUP = """
import json
from django.contrib.auth.models import User
from league.club.models import Club
from league.club.services import member_create, member_login_set, season_get_or_create
sample = json.load(open({sample!r}))
club = Club.objects.create(name=sample["club"], rule_preset=sample["rule_set"])
season_get_or_create(club=club, year=sample["evening"]["season"])
for name in sample["club_members"]:
    person = member_create(club=club, name=name,
                           is_secretary=name == sample["evening"]["secretary"])
    if person.is_secretary:
        login = User.objects.create_user("buchfuehrer", password="geheim-123")
        member_login_set(person=person, user=login)
"""
LOADED = "window.__old === undefined && document.readyState === 'complete'"


class Browser:
    """One Chromium page over the DevTools protocol (a minimal WebSocket client)."""

    def __init__(self, ws_url: str):
        url = urlparse(ws_url)
        self.sock = socket.create_connection((url.hostname, url.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {url.path} HTTP/1.1\r\nHost: {url.hostname}:{url.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(1)
        if b" 101 " not in answer.split(b"\r\n")[0]:
            raise ConnectionError(answer.decode(errors="replace"))
        self.last_id = 0

    def _send(self, text: str) -> None:
        data = text.encode()
        header = bytearray([0x81])
        if len(data) < 126:
            header.append(0x80 | len(data))
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(bytes(header) + mask + masked)

    def _exactly(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("Chromium closed the connection")
            buf += chunk
        return buf

    def _receive(self) -> str:
        message = b""
        while True:
            first, second = self._exactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack(">H", self._exactly(2))[0]
            elif size == 127:
                size = struct.unpack(">Q", self._exactly(8))[0]
            message += self._exactly(size)
            if first & 0x80:
                return message.decode()

    def call(self, method: str, **params):
        self.last_id += 1
        self._send(json.dumps({"id": self.last_id, "method": method, "params": params}))
        while True:
            answer = json.loads(self._receive())
            if answer.get("id") == self.last_id:
                if "error" in answer:
                    raise RuntimeError(answer["error"])
                return answer["result"]

    def js(self, expression: str):
        result = self.call(
            "Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 20) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                if self.js(expression):
                    return
            except RuntimeError:
                pass
            time.sleep(0.05)
        raise TimeoutError(expression)

    def open(self, url: str) -> None:
        self.js("window.__old = 1")
        self.call("Page.navigate", url=url)
        self.wait(LOADED)

    def submit(self, click: str) -> None:
        """Run JS that clicks a submit button, and wait for the next page."""
        self.js("window.__old = 1")
        self.js(click)
        self.wait(LOADED)

    def click_text(self, selector: str, text: str) -> None:
        self.js(
            f"[...document.querySelectorAll({json.dumps(selector)})]"
            f".find(e => e.textContent.trim() === {json.dumps(text)}).click()"
        )

    def table(self, selector: str) -> list[list[str]]:
        return self.js(
            f"[...document.querySelectorAll({json.dumps(selector)})].map(tr => [...tr.cells]"
            ".map(c => c.textContent.replace(/\\s+/g, ' ').trim()))"
        )

    def texts(self, selector: str) -> list[str]:
        return self.js(
            f"[...document.querySelectorAll({json.dumps(selector)})]"
            ".map(e => e.textContent.replace(/\\s+/g, ' ').trim())"
        )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _page_target(port: int) -> str:
    for _ in range(200):
        try:
            for target in json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json")):
                if target.get("type") == "page":
                    return target["webSocketDebuggerUrl"]
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("Chromium did not open a page")


def _wait_for_server(url: str) -> None:
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server at {url} did not answer")


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else (f"\u2212{-points}" if points < 0 else "0")


def _money(marks: int) -> str:
    cents = marks * 50  # 0.50 EUR per Mark in 2026 (docs/rules.md 5)
    return f"{cents // 100},{cents % 100:02d} €"  # JS \s turned the no-break space into " "


def enter_and_check(browser: Browser, base: str, sample: dict) -> list:
    """Enter the sample through the pages; the differences from `expected` (empty: none)."""
    ev, expected = sample["evening"], sample["expected"]
    browser.open(base + "/")
    assert "/login/" in browser.js("location.pathname"), "anonymous visitors see the login"
    browser.js("document.querySelector('[name=username]').value = 'buchfuehrer'")
    browser.js("document.querySelector('[name=password]').value = 'geheim-123'")
    browser.submit("document.querySelector('form button[type=submit]').click()")

    browser.open(base + "/abende/neu/")
    browser.js(f"document.querySelector('[name=date]').value = {json.dumps(ev['date'])}")
    for name in ev["absent_members"]:
        browser.js(
            "[...document.querySelectorAll('.roleline')].find(l => l.querySelector('.who')"
            f".textContent.trim() === {json.dumps(name)}).querySelector('.seg-absent').click()"
        )
    guests = json.dumps(", ".join(ev["guests"]))
    browser.js(f"document.querySelector('[name=new_guests]').value = {guests}")
    browser.submit("document.querySelector('form.eveningform button[type=submit]').click()")

    problems = []
    for game in ev["games"]:
        number = browser.js("document.getElementById('id_number').value")
        vorleger = browser.js(
            "document.getElementById('id_vorleger').selectedOptions[0].textContent.trim()"
        )
        if (number, vorleger) != (str(game["number"]), game["vorleger"]):
            problems.append(("prefill", game["number"], number, vorleger))
        browser.click_text("fieldset.taps label.tap", game["loser"])
        for thrower in game["schock_aus"]:
            browser.click_text(".tap-sa", thrower)
        browser.submit("document.querySelector('form.gameform button[type=submit]').click()")
        saved = browser.js("(document.querySelector('.msg-success') || {}).textContent") or ""
        if f"Spiel {game['number']} gespeichert" not in saved:
            problems.append(("not saved", game["number"], browser.texts(".error")))

    for row in browser.table("table.people tbody tr"):
        name = re.sub(r" (abwesend|Gast)$", "", row[0])
        person = expected["per_person"][name]
        points = "–" if person.get("guest") else _signed(person["points"])
        want = [
            str(person["marks"]),
            _money(person["marks"]),
            points,
            str(person["games_lost"]),
            str(person["schock_aus"]),
        ]
        if row[1:6] != want:
            problems.append(("sheet", name, row, want))
    totals = browser.texts("table.people tfoot th")[1:3]
    if totals != [str(expected["marks_total"]), "15,50 €"]:
        problems.append(("sheet totals", totals))
    reasons = {"first": "erster", "fifth": "fünfter", "last": "letzter"}
    runden = [
        f"{r['thrower']} – {reasons[r['reason']]} Schock-Aus (Nr. {r['ordinal']})"
        for r in expected["runden_owed"]
    ]
    if browser.texts("ul.runden li") != runden:
        problems.append(("Runden", browser.texts("ul.runden li"), runden))
    schock_aus = [
        f"{s['ordinal']}. {s['thrower']} (Spiel {s['game']})" for s in expected["schock_aus"]
    ]
    if browser.texts("ol.schockaus-list li") != schock_aus:
        problems.append(("Schock-Aus", browser.texts("ol.schockaus-list li")))
    if browser.texts(".warnings li"):
        problems.append(("warnings", browser.texts(".warnings li")))

    browser.open(base + f"/saison/{ev['season']}/")
    ranked = [r for r in browser.table("table.standings tbody tr") if r[0].endswith(".")]
    standings = [
        {
            "place": int(r[0][:-1]),
            "member": r[1],
            "points": int(r[2].replace("\u2212", "-").replace("+", "")),
        }
        for r in ranked
    ]
    if standings != expected["standings"]:
        problems.append(("standings", standings))
    return problems


def main() -> int:
    sample = json.loads(SAMPLE.read_text(encoding="utf-8"))
    work = Path(tempfile.mkdtemp(prefix="schock-browser-"))
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{work / 'db.sqlite3'}", "DEBUG": "1"}
    python, manage = sys.executable, str(ROOT / "manage.py")
    subprocess.run([python, manage, "migrate", "-v0"], env=env, check=True)
    setup = SETUP.format(sample=str(SAMPLE))
    subprocess.run([python, manage, "shell", "-c", setup], env=env, check=True)
    web_port, debug_port = _free_port(), _free_port()
    server = subprocess.Popen(
        [python, manage, "runserver", f"127.0.0.1:{web_port}", "--noreload"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    chromium = subprocess.Popen(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--lang=de",
            "--accept-lang=de",
            f"--user-data-dir={work / 'profile'}",
            f"--remote-debugging-port={debug_port}",
            "--window-size=390,844",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_for_server(f"http://127.0.0.1:{web_port}/login/")
        browser = Browser(_page_target(debug_port))
        browser.call("Page.enable")
        problems = enter_and_check(browser, f"http://127.0.0.1:{web_port}", sample)
    finally:
        for process in (chromium, server):
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
    games = len(sample["evening"]["games"])
    print(
        f"{games} games typed in through the pages; differences from `expected`:",
        problems or "none",
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
