#!/usr/bin/env python3
"""End-to-end tests of `dalkon serve`'s pages in a real headless browser
(docs/web.md, "Tests in a browser"): Debian's chromium and chromedriver
driven by Selenium. Starts `target/release/dalkon serve --port 0`, loads
every page, plays a Dakon game to its end and a Daldøs game for twenty
throws by clicking, asks hints, analyses the saved Dakon game, looks at
positions, and saves a screenshot of each page into target/web-e2e/.

    scripts/web_tests.sh            # installs what is missing, then runs this
    python3 scripts/web_e2e.py [--dalkon target/release/dalkon] [--out target/web-e2e]
"""

import argparse
import os
import re
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_server(dalkon):
    proc = subprocess.Popen(
        [dalkon, "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    line = proc.stdout.readline()
    m = re.search(r"(http://\S+?)/?$", line.strip())
    if not m:
        proc.kill()
        sys.exit(f"web_e2e: no address from dalkon serve: {line!r}")
    return proc, m.group(1)


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
              "--window-size=1300,1250", "--disable-gpu"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


class E2E:
    def __init__(self, driver, base, out):
        self.d, self.base, self.out = driver, base, out
        self.checks = 0

    def check(self, ok, what):
        self.checks += 1
        if not ok:
            self.shot("failed")
            raise AssertionError(what)
        print(f"  ok: {what}")

    def shot(self, name):
        path = os.path.join(self.out, name + ".png")
        self.d.save_screenshot(path)
        return path

    def open(self, path):
        self.d.get(self.base + path)
        WebDriverWait(self.d, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")

    def js(self, script):
        return self.d.execute_script(script)

    def idle(self, timeout=60, error_ok=False):
        """Until the page asks nothing of the server; an error line shown
        fails the test unless `error_ok`."""
        WebDriverWait(self.d, timeout, poll_frequency=0.1).until(
            lambda d: not d.execute_script(
                "return document.body.classList.contains('busy') || (typeof thinking !== 'undefined' && thinking)"))
        if not error_ok:
            line = self.error()
            self.check(line == "", f"no error shown ({line!r})") if line else None

    def text(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css).text

    def error(self):
        return self.text("#error")

    def select(self, id_, value):
        sel = Select(self.d.find_element(By.ID, id_))
        if any(o.get_attribute("value") == value and o.get_attribute("outerHTML").find("value=") >= 0
               for o in sel.options):
            sel.select_by_value(value)
        else:
            sel.select_by_visible_text(value)

    # --- pages --------------------------------------------------------
    def index(self):
        print("index page")
        self.open("/")
        links = [a.get_attribute("href") for a in self.d.find_elements(By.CSS_SELECTOR, "nav a")]
        for p in ("/dakon", "/daldos", "/analyse", "/position"):
            self.check(any(h.endswith(p) for h in links), f"the index links to {p}")
        self.shot("index")

    def dakon(self):
        print("Dakon: a 4-hole, 3-seed game against the engine, played to its end by clicking")
        self.open("/dakon")
        self.idle()
        self.select("holes", "4")
        seeds = self.d.find_element(By.ID, "seeds")
        seeds.clear()
        seeds.send_keys("3")
        self.select("south", "human")
        self.select("north", "engine")
        self.d.find_element(By.ID, "new").click()
        self.idle()
        start = self.js("return game.record")
        self.check(self.js("return game.legal.join(',')") == "1,2,3,4", "the 4-hole start has the legal moves 1,2,3,4")
        self.check(len(self.d.find_elements(By.CSS_SELECTOR, "#board circle.hole.legal")) == 4,
                   "four holes are ringed to click")
        # A hint: every legal move ranked, labelled as the CLI labels it.
        self.d.find_element(By.ID, "hint").click()
        self.idle()
        rows = self.d.find_elements(By.CSS_SELECTOR, "#hinttable tr[data-move]")
        self.check(len(rows) == 4, "the hint ranks the four moves")
        self.check("(exact)" in self.text("#hinttable caption"), "the hint says its values are exact")
        self.check("final store difference for South (0)" in self.text("#hintbox pre"),
                   "the hint has the CLI's text")
        self.shot("dakon-hint")
        # Undo takes back a move and the engine's replies.
        self.d.find_element(By.CSS_SELECTOR, "#board circle.hole.legal").click()
        self.idle()
        self.check(self.js("return game.moves.length") >= 1, "a click played a move")
        self.d.find_element(By.ID, "undo").click()
        self.idle()
        self.check(self.js("return game.record") == start, "undo goes back to the start")
        clicks = 0
        for _ in range(200):
            self.idle()
            if self.js("return game.over"):
                break
            holes = self.d.find_elements(By.CSS_SELECTOR, "#board circle.hole.legal")
            self.check(holes, "the side to move has holes to click") if not holes else None
            holes[-1].click()
            clicks += 1
        self.idle()
        self.check(self.js("return game.over"), f"the game ended after {clicks} clicks")
        status = self.text("#status")
        self.check(status.startswith("Game over:"), f"the page says so: {status!r}")
        record = self.js("return game.record")
        self.check('[Result "*"]' not in record and "[Result " in record, "the record has its result")
        score = self.js("return game.score")
        self.check(sum(score) == 24, f"the final stores {score} hold all 24 seeds")
        self.shot("dakon-over")
        # The game handed to the analysis page, analysed at once.
        moves = self.js("return game.moves.length")
        self.d.find_element(By.ID, "to-analyse").click()
        WebDriverWait(self.d, 10).until(lambda d: "/analyse" in d.current_url)
        WebDriverWait(self.d, 60, poll_frequency=0.2).until(
            lambda d: d.execute_script("return report !== null && !document.body.classList.contains('busy')"))
        n = self.js("return report.decisions.length")
        self.check(n == moves, f"'Analyse this game' analyses its {moves} moves ({n} decisions)")
        return record

    def daldos(self):
        print("Daldøs: Norwegian, A by clicking against the engine (depth 1), twenty throws")
        self.open("/daldos")
        self.idle()
        self.select("board-name", "norwegian")
        self.select("a", "human")
        self.select("b", "engine")
        self.select("depth", "1")
        seed = self.d.find_element(By.ID, "seed")
        seed.clear()
        seed.send_keys("2026")
        self.d.find_element(By.ID, "new").click()
        self.idle()
        first = self.js("return game.dice")
        self.check(first is not None and len(first) == 2, f"the first throw is shown as two dice {first}")
        self.check(len(self.d.find_elements(By.CSS_SELECTOR, "#dice .die")) == 2, "two dice are drawn")
        hinted = False
        clicks = 0
        for _ in range(200):
            self.idle()
            if self.js("return game.over || game.throws >= 20"):
                break
            buttons = [b for b in self.d.find_elements(By.CSS_SELECTOR, "#plays button.play") if b.is_displayed()]
            self.check(buttons, "the human's throw has plays to click") if not buttons else None
            if not hinted and len(buttons) > 1:
                self.d.find_element(By.ID, "hint").click()
                self.idle()
                rows = self.d.find_elements(By.CSS_SELECTOR, "#hinttable tr[data-play]")
                self.check(len(rows) == len(buttons), f"the hint values all {len(buttons)} plays")
                labels = {r.find_elements(By.TAG_NAME, "td")[2].text for r in rows}
                self.check(labels <= {"exact", "estimate", "upper bound"}, f"with the CLI's labels {labels}")
                self.shot("daldos-hint")
                hinted = True
                buttons = [b for b in self.d.find_elements(By.CSS_SELECTOR, "#plays button.play") if b.is_displayed()]
            buttons[0].click()
            clicks += 1
        self.idle()
        throws = self.js("return game.throws")
        self.check(throws >= 20 or self.js("return game.over"), f"{throws} throws played, {clicks} of them by clicking")
        self.check(hinted, "a hint was asked")
        self.check(clicks >= 5, f"the human clicked {clicks} plays")
        record = self.js("return game.record")
        self.check('[Seed "2026"]' in record, "the record keeps the seed")
        # The same seed gives the same first throw again.
        self.d.find_element(By.ID, "new").click()
        self.idle()
        self.check(self.js("return game.dice") == first, "the same seed throws the same dice")
        self.d.find_element(By.ID, "record").clear()
        self.d.find_element(By.ID, "record").send_keys(record)
        self.d.find_element(By.ID, "load").click()
        self.idle()
        self.check(self.js("return game.throws") == throws, "a saved record loads back")
        self.shot("daldos-play")
        return record

    def analyse(self, record, name):
        print(f"Analyse: the saved {name} game")
        self.open("/analyse")
        box = self.d.find_element(By.ID, "record")
        box.clear()
        self.d.execute_script("document.getElementById('record').value = arguments[0]", record)
        t = self.d.find_element(By.ID, "time")
        t.clear()
        t.send_keys("0.2")
        self.d.find_element(By.ID, "analyse").click()
        self.idle(timeout=120)
        rows = self.d.find_elements(By.CSS_SELECTOR, "#decisions tr[data-i]")
        n = self.js("return report.decisions.length")
        self.check(n > 0 and len(rows) == n, f"{n} decisions listed")
        self.check(len(self.d.find_elements(By.CSS_SELECTOR, "#graph circle.point")) == n, "the value graph has a point a decision")
        # Step to a decision with a mark if there is one, else the third.
        marked = self.js("return report.decisions.findIndex(d => d.mark)")
        target = marked if marked >= 0 else min(2, n - 1)
        for _ in range(target):
            self.d.find_element(By.ID, "next").click()
            self.idle()
        self.check(self.text("#at") == f"decision {target + 1} of {n}", f"stepped to decision {target + 1}")
        self.check("best" in self.text("#decision") and self.d.find_elements(By.CSS_SELECTOR, "#board svg"),
                   "the decision and its board are shown")
        if name == "dakon":
            self.check(self.d.find_elements(By.CSS_SELECTOR, "#board svg .best, #board svg circle[stroke='#1a7f37'], #board svg circle") != [],
                       "the best move is marked")
        else:
            self.check(self.d.find_elements(By.CSS_SELECTOR, "#board svg .best-play path, #board svg .best-play"), "the best play is drawn as arrows")
        self.shot(f"analyse-{name}")

    def fetch_helper(self):
        print("The fetch helper: 503 asked again, then the server's line")
        self.open("/position")
        script = """
            const done = arguments[arguments.length - 1];
            const real = window.fetch;
            let calls = 0;
            const busy503 = () => new Response('{"error":"busy: 2 searches are running, try again"}', {status: 503});
            window.fetch = async (p, o) => { calls++; return calls <= 2 ? busy503() : real(p, o); };
            api("/api/dakon/state", {holes: 4, seeds: 4}).then(async r => {
                const first = [calls, r.position];
                calls = 0;
                window.fetch = async () => { calls++; return busy503(); };
                let line = null;
                try { await api("/api/dakon/state", {holes: 4, seeds: 4}); } catch (e) { line = e.message; }
                window.fetch = real;
                done([first, calls, line, document.getElementById("error").textContent]);
            });
        """
        self.d.set_script_timeout(30)
        (calls, pos), calls2, line, shown = self.d.execute_async_script(script)
        self.check(calls == 3 and pos == "4,4,4,4/4,4,4,4/0,0 0", f"two 503s asked again, the third try answered ({calls} tries)")
        self.check(calls2 == 5 and shown == line == "busy: 2 searches are running, try again",
                   f"five 503s: given up after {calls2} tries, the server's line shown")
        self.js("document.getElementById('error').textContent = ''")

    def position(self):
        print("Position: values, best moves, capture odds, and an error line")
        self.open("/position")
        self.d.find_element(By.ID, "position").clear()
        self.d.find_element(By.ID, "position").send_keys("4,4,4,4/4,4,4,4/0,0 0")
        self.d.find_element(By.ID, "go").click()
        self.idle()
        status = self.text("#status")
        self.check("value +32" in status and "exact" in status, f"the 4-hole start is +32, exact: {status!r}")
        self.shot("position-dakon")
        self.d.find_element(By.CSS_SELECTOR, 'input[value="daldos"]').click()
        self.d.find_element(By.ID, "position").clear()
        self.d.find_element(By.ID, "position").send_keys("AA.a/..a../.b.B b")
        self.d.find_element(By.ID, "go").click()
        self.idle()
        odds = self.text("#oddstable")
        self.check("41/256" in odds and "47/256" in odds, "the capture odds of M2 (41/256) and of any piece (47/256)")
        self.shot("position-daldos")
        self.d.find_element(By.ID, "position").clear()
        self.d.find_element(By.ID, "position").send_keys("x")
        self.d.find_element(By.ID, "go").click()
        self.idle(error_ok=True)
        self.check(self.error().startswith('--position "x"'), f"a bad position shows the server's line: {self.error()!r}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dalkon", default=os.path.join(ROOT, "target/release/dalkon"))
    ap.add_argument("--out", default=os.path.join(ROOT, "target/web-e2e"))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    server, base = start_server(args.dalkon)
    driver = browser()
    t0 = time.time()
    try:
        e = E2E(driver, base, args.out)
        e.index()
        dakon_record = e.dakon()
        daldos_record = e.daldos()
        e.analyse(dakon_record, "dakon")
        e.analyse(daldos_record, "daldos")
        e.position()
        e.fetch_helper()
        logs = driver.get_log("browser")
        # A 4xx the page asked for on purpose is logged as a failed resource.
        severe = [l for l in logs if l.get("level") == "SEVERE"
                  and "favicon" not in l.get("message", "")
                  and "Failed to load resource" not in l.get("message", "")]
        e.check(not severe, f"no errors in the browser console {severe}")
        print(f"web_e2e: {e.checks} checks passed in {time.time() - t0:.1f} s; screenshots in {args.out}")
    finally:
        driver.quit()
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
