#!/usr/bin/env bash
# The status page (docs/page.md) in a real browser: Debian's chromium, driven headless by
# chromedriver through python3-selenium, against a live `syncmon daemon` fed by `syncmon emit`.
#   - two pairs of every summary but unknown (which only a `unit:` source gives); the page's rows
#     equal /api/v1/status (pair, summary) and the DETAIL of `syncmon status`; each row's strip
#     has a stretch per change of /api/v1/history in the last 24 hours, at its start;
#   - a pair's page shows its failure's message; a hostile message is text (no dialog, no
#     element made of it), in the row and in the pair's page and its strip's titles;
#   - no request leaves the daemon's origin, and the browser's console has no error;
#   - with JavaScript off, the same rows; with it on, a row changes in place (no reload) within
#     15 s of an emit;
#   - 1280x800 and 390x844 (and dark) screenshots under artifacts/page/, and at 390 px no
#     horizontal scrolling; with --docs also docs/page-1280.png and docs/page-390.png;
#   - behind a web configuration with TLS (a test CA the browser trusts through its NSS
#     database) and basic auth, the page only with the password.
# Ports come from 19200-19299. Takes ~1 minute.
# Usage: scripts/test-page.sh [--docs]   (binary: $SYNCMON_BINARY, default .build/debug/syncmon)
# Under CI a missing tool fails the run; elsewhere it skips with a note.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${SYNCMON_BINARY:-.build/debug/syncmon}
python=${PYTHON:-/usr/bin/python3}
missing=()
for tool in chromium chromedriver openssl certutil "$python"; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
"$python" -c 'import selenium' 2>/dev/null || missing+=("python3-selenium")
if [ ${#missing[@]} -gt 0 ]; then
    echo "test-page: missing ${missing[*]} (scripts/install-deps.sh --test)" >&2
    [ -n "${CI:-}" ] && exit 1
    echo "test-page: skipped (CI is not set)" >&2
    exit 0
fi
[ -x "$binary" ] || { echo "test-page: no syncmon binary at $binary (build it, or set SYNCMON_BINARY)" >&2; exit 2; }

work=$(mktemp -d /tmp/syncmon-test-page.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p artifacts/page
SYNCMON_BINARY=$(readlink -f "$binary") WORK=$work DOCS=$([ "${1:-}" = "--docs" ] && echo 1 || echo 0) \
    "$python" - <<'PYTHON'
import base64, json, os, re, signal, socket, ssl, subprocess, sys, time, urllib.error, urllib.request
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

BINARY, WORK, DOCS = os.environ["SYNCMON_BINARY"], os.environ["WORK"], os.environ["DOCS"] == "1"
HOSTILE = "<img src=x onerror=alert(1)>"
CSP = ("default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
OK = {"not_started", "in_progress", "succeeded"}
processes = []


def fail(message):
    print("test-page: FAIL: " + message, file=sys.stderr)
    for process in processes:
        process.send_signal(signal.SIGTERM)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def free_port(taken=()):
    for port in range(19200, 19300):
        if port in taken:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
                return port
            except OSError:
                pass
    fail("no free port in 19200-19299")


def get(url, auth=None, context=None):
    request = urllib.request.Request(url)
    if auth:
        request.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    try:
        with urllib.request.urlopen(request, context=context, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def until(what, condition, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    fail("timed out waiting for " + what)


class Daemon:
    def __init__(self, name, extra=(), scheme="http", auth=None, context=None, taken=()):
        self.directory = os.path.join(WORK, name)
        os.makedirs(self.directory)
        self.port = free_port(taken)
        self.socket = os.path.join(self.directory, "events.sock")
        self.base = "%s://127.0.0.1:%d" % (scheme, self.port)
        log = open(os.path.join(self.directory, "daemon.log"), "w")
        self.process = subprocess.Popen(
            [BINARY, "daemon", "--events-socket", self.socket, "--state-dir", os.path.join(self.directory, "state"),
             "--listen", "127.0.0.1:%d" % self.port, "--log-target", "stderr", "--host-network", "off", *extra],
            stdout=log, stderr=log)
        processes.append(self.process)
        self.auth, self.context = auth, context
        until(name + " to answer", lambda: self.alive() and self.ready())

    def alive(self):
        if self.process.poll() is not None:
            fail("the daemon exited: " + open(os.path.join(self.directory, "daemon.log")).read()[-2000:])
        return True

    def ready(self):
        try:
            return get(self.base + "/healthz", self.auth, self.context)[0] == 200
        except OSError:
            return False

    def json(self, path):
        status, _, body = get(self.base + path, self.auth, self.context)
        check(status == 200, "%s answered %d" % (path, status))
        return json.loads(body)

    def emit(self, engine, *arguments):
        result = subprocess.run([BINARY, "emit", "--events-socket", self.socket, "--engine", engine, *arguments],
                                capture_output=True, text=True)
        check(result.returncode == 0, "syncmon emit %s %s: %s" % (engine, arguments, result.stderr))

    def summaries(self):
        return {"%s/%s" % (row["engine"], row["database"]): row["summary"] for row in self.json("/api/v1/status")["engines"]}

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)


def rfc3339(seconds):
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def microseconds(text):
    match = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?Z", text)
    check(match is not None, "not an RFC 3339 UTC time: " + text)
    whole = int(time.mktime(time.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")) - time.timezone)
    return whole * 1_000_000 + int((match.group(7) or "0").ljust(6, "0"))


def cycle(succeeded, *error):
    now = time.time()
    return ("containerEvent", "kind=export", "id=c%d" % int(now * 1000), "started=" + rfc3339(now - 2),
            "ended=" + rfc3339(now - 1), "succeeded=%s" % ("true" if succeeded else "false"), *error)


# What makes each summary, sent with `syncmon emit` (docs/protocol.md).
SCENARIOS = {
    "succeeded": [cycle(True)],
    "error": [cycle(False, "error.code=quotaExceeded", "error.message=" + HOSTILE)],
    "retrying": [cycle(False, "error.code=networkFailure", "error.message=connection reset by peer")],
    "throttled": [cycle(False, "error.code=requestRateLimited", "error.retryAfter=3600")],
    "in_progress": [("willFetchChanges",)],
    "not_started": [("networkStatus", "available=true")],
    "stopped": [("engineStarted",), ("engineStopped",)],
    "engine_down": [("engineStarted", "heartbeatSeconds=1")],
    "no_network": [("networkStatus", "available=false")],
    "account_not_available": [("accountStatus", "status=noAccount")],
    "stalled": [("engineStarted",), ("accountStatus", "status=available")],
}


def browser(javascript=True, home=None, width=1280, height=800):
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--disable-extensions", "--disable-background-networking", "--disable-component-update",
                     "--disable-default-apps", "--disable-sync", "--window-size=%d,%d" % (width, height)]:
        options.add_argument(argument)
    if not javascript:
        options.add_argument("--blink-settings=scriptEnabled=false")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    environment = dict(os.environ)
    if home:
        environment["HOME"] = home
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=environment), options=options)
    driver.set_page_load_timeout(20)
    return driver


def expect_quiet(driver, origin, what):
    """No console error and no request to another origin since the last look."""
    errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
    check(not errors, "%s: console errors: %s" % (what, errors))
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = re.sub(r"^(https?://)[^/@]*@", r"\1", message["params"]["request"]["url"])  # user:password@ is the origin's
            check(url.startswith(origin + "/") or url.startswith("data:"), "%s: a request left the origin: %s" % (what, url))
    try:
        driver.switch_to.alert
        fail(what + ": a dialog opened")
    except NoAlertPresentException:
        pass


def rows(driver):
    # Read in one script, at one instant: the page's own refresh may replace the rows between
    # element-by-element reads (a stale element on a busy machine).
    return [tuple(row) for row in driver.execute_script("""
        return Array.from(document.querySelectorAll('tbody#rows tr')).map(row =>
            [row.getAttribute('data-pair'), row.getAttribute('data-summary'),
             row.querySelector('td:nth-child(3)').innerText.trim()]);""")]


def table_details(daemon):
    """DETAIL per pair as `syncmon status` prints it, 400 columns wide (nothing cut)."""
    result = subprocess.run([BINARY, "status", "--url", daemon.base], capture_output=True, text=True,
                            env=dict(os.environ, COLUMNS="400"))
    lines = result.stdout.splitlines()
    check(lines and lines[0].startswith("ENGINE/DATABASE"), "syncmon status printed: " + result.stdout + result.stderr)
    detail, last = lines[0].index("DETAIL"), lines[0].index("LAST EVENT")
    return {line.split()[0]: line[detail:last].strip() for line in lines[1:] if line.strip()}


def expected_strip(changes, now):
    start = now - 86_400_000_000
    stretches = []
    before = [change for change in changes if microseconds(change["time"]) < start]
    if before:
        stretches.append((0, before[-1]["to"]))
    for change in changes:
        at = microseconds(change["time"])
        if start <= at <= now:
            stretches.append((at // 1_000_000 - start // 1_000_000, change["to"]))
    return [(x, "h-ok" if to in OK else "h-" + to) for x, to in stretches]


def strips(driver):
    # One script, one instant, as rows() (the refresh replaces the strips too).
    drawn = driver.execute_script("""
        const drawn = {};
        for (const row of document.querySelectorAll('tbody#rows tr')) {
            drawn[row.getAttribute('data-pair')] = Array.from(row.querySelectorAll('svg rect')).map(rect =>
                [parseInt(rect.getAttribute('x')), rect.getAttribute('class'), rect.querySelector('title').textContent]);
        }
        return drawn;""")
    return {pair: [tuple(rect) for rect in rects] for pair, rects in drawn.items()}


# --- the daemon, two pairs of every summary -------------------------------------------------------
daemon = Daemon("plain", extra=["--not-syncing-after", "3s"])
expected = {}
for summary, events in SCENARIOS.items():
    for index in (1, 2):
        engine = "%s-%d" % (summary.replace("_", "-"), index)
        for event in events:
            daemon.emit(engine, *event)
        expected[engine + "/private"] = summary
until("every summary", lambda: daemon.summaries() == expected, timeout=30)
print("test-page: %d pairs, every summary but unknown" % len(expected))

driver = browser()
origin = daemon.base
for attempt in range(3):
    history_before = daemon.json("/api/v1/history")
    driver.get(origin + "/")
    history_after = daemon.json("/api/v1/history")
    if history_before["pairs"] == history_after["pairs"]:
        break
else:
    fail("the history kept changing")
expect_quiet(driver, origin, "/")
check(driver.find_element(By.TAG_NAME, "html").get_attribute("data-js") == "on", "the page's script did not run")

# Rows against the API and `syncmon status`.
status = daemon.json("/api/v1/status")
api_rows = sorted(("%s/%s" % (row["engine"], row["database"]), row["summary"]) for row in status["engines"])
page_rows = rows(driver)
check(sorted((pair, summary) for pair, summary, _ in page_rows) == api_rows, "rows differ from /api/v1/status: %s" % page_rows)
details = table_details(daemon)
for pair, summary, detail in page_rows:
    check(detail == details[pair], "%s: page detail %r, syncmon status %r" % (pair, detail, details[pair]))
critical = {"error", "stalled", "engine_down"}
order = [summary in critical for _, summary, _ in page_rows]
check(order == sorted(order, reverse=True), "problems are not first: %s" % page_rows)
# In one script, at one instant: the page's refresh replaces the header between two calls.
counts = {health: int(count) for health, count in driver.execute_script(
    "return [...document.querySelectorAll('ul.counts li')].map(e => [e.dataset.health, e.dataset.count])")}
check(counts.get("ok") == 6 and counts.get("error") == 2 and sum(counts.values()) == len(expected), "header counts: %s" % counts)
print("test-page: rows equal /api/v1/status and syncmon status's DETAIL; problems first; counts %s" % counts)

# Strips against the history.
now = microseconds(driver.execute_script("return document.querySelector('header time').getAttribute('datetime')"))
drawn = strips(driver)
history = {"%s/%s" % (pair["engine"], pair["database"]): pair["changes"] for pair in history_after["pairs"]}
stretches = 0
for pair, changes in history.items():
    got = [(x, cls) for x, cls, _ in drawn[pair]]
    check(got == expected_strip(changes, now), "%s: strip %s, history %s" % (pair, got, changes))
    for (_, _, title), change in zip(drawn[pair], changes):
        check(change["to"] in title, "%s: title %r does not say %s" % (pair, title, change["to"]))
    stretches += len(got)
check(stretches >= len(expected), "too few stretches: %d" % stretches)
print("test-page: %d stretches equal /api/v1/history" % stretches)

# The hostile message: text in the row, the strip's title and the pair's page; no element, no dialog.
hostile_row = driver.find_element(By.CSS_SELECTOR, 'tr[data-pair="error-1/private"]')
check(HOSTILE in hostile_row.find_element(By.CSS_SELECTOR, "td:nth-child(3)").text, "the hostile message is not shown as text in the row")
check(not driver.find_elements(By.CSS_SELECTOR, "main img, main script"), "an element was made of engine text")
driver.get(origin + "/pair/error-1/private")
messages = [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".msg")]
check(HOSTILE in messages, "the pair page does not show the failure's message: %s" % messages)
check(any(("export: quotaExceeded — " + HOSTILE) in text for text in messages), "the pair page's history lacks the message: %s" % messages)
check(not driver.find_elements(By.CSS_SELECTOR, "main img"), "an element was made of engine text on the pair page")
titles = [title.get_attribute("textContent") for title in driver.find_elements(By.CSS_SELECTOR, "main svg title")]
check(any(HOSTILE in title for title in titles), "the hostile message is not in the pair page's strip: %s" % titles)
driver.get(origin + "/pair/retrying-1/private")
check("connection reset by peer" in [element.text for element in driver.find_elements(By.CSS_SELECTOR, ".msg")], "retrying-1's message")
expect_quiet(driver, origin, "pair pages")
print("test-page: the pair pages show failure messages; the hostile one is inert text")

# Screenshots: wide, dark, and a phone, which must not scroll sideways.
driver.get(origin + "/")


def shoot(width, height, mobile, scale, dark, name):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    time.sleep(0.3)  # a frame to lay out; nothing is waited for but the paint
    driver.save_screenshot("artifacts/page/" + name)
    return driver.execute_script("return document.scrollingElement.scrollWidth")


shoot(1280, 800, False, 1, False, "page-1280.png")
shoot(1280, 800, False, 1, True, "page-1280-dark.png")
width = shoot(390, 844, True, 2, False, "page-390.png")
check(width <= 390, "at 390 px the page is %d px wide" % width)
shoot(390, 844, True, 2, True, "page-390-dark.png")
driver.get(origin + "/pair/error-1/private")
pair_width = shoot(390, 844, True, 2, False, "pair-390.png")
check(pair_width <= 390, "at 390 px the pair page is %d px wide" % pair_width)
shoot(1280, 800, False, 1, False, "pair-1280.png")
if DOCS:
    import shutil
    shutil.copy("artifacts/page/page-1280.png", "docs/page-1280.png")
    shutil.copy("artifacts/page/page-390.png", "docs/page-390.png")
driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
print("test-page: screenshots in artifacts/page/; at 390 px %d and %d px wide" % (width, pair_width))

# In place: a row changes within 15 s of an emit, without a reload.
driver.get(origin + "/")
driver.execute_script("window.__kept = 'yes'")
before = time.monotonic()
daemon.emit("in-progress-1", "didFetchChanges")
changed = until("the row to change in place", lambda: driver.execute_script(
    "var row = document.querySelector('tr[data-pair=\"in-progress-1/private\"]');"
    "return row && row.getAttribute('data-summary') === 'succeeded'"), timeout=15)
took = time.monotonic() - before
check(driver.execute_script("return window.__kept") == "yes", "the page was reloaded, not updated in place")
expect_quiet(driver, origin, "refresh")
driver.quit()
print("test-page: a row changed in place %.1f s after the emit" % took)

# JavaScript off: the same rows.
still = browser(javascript=False)
still.get(origin + "/")
check(still.find_element(By.TAG_NAME, "html").get_attribute("data-js") is None, "the script ran with JavaScript off")
quiet_rows = rows(still)
api_rows = sorted(("%s/%s" % (row["engine"], row["database"]), row["summary"]) for row in daemon.json("/api/v1/status")["engines"])
check(sorted((pair, summary) for pair, summary, _ in quiet_rows) == api_rows, "without JavaScript: %s" % quiet_rows)
expect_quiet(still, origin, "without JavaScript")
still.quit()
print("test-page: without JavaScript the same %d rows" % len(quiet_rows))
daemon.stop()

# --- TLS from a test CA, and basic auth ---------------------------------------------------------
tls = os.path.join(WORK, "tls")
os.makedirs(tls)


def openssl(*arguments):
    result = subprocess.run(["openssl", *arguments], cwd=tls, capture_output=True, text=True)
    check(result.returncode == 0, "openssl %s: %s" % (arguments, result.stderr))


curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
openssl("req", "-x509", *curve, "-days", "2", "-subj", "/CN=syncmon page test CA", "-keyout", "ca.key", "-out", "ca.pem")
openssl("req", *curve, "-subj", "/CN=127.0.0.1", "-keyout", "server.key", "-out", "server.csr")
with open(os.path.join(tls, "server.ext"), "w") as ext:
    ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "7", "-days", "2",
        "-extfile", "server.ext", "-out", "server.crt")
with open(os.path.join(tls, "web.yml"), "w") as web:
    # alice's password is hunter2 (the fixture hash of the web configuration tests).
    web.write("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n"
              "  alice: $2y$04$0TfVBVStImzfxIsqQ3yd3uX497FMgIylLDzQQsXViXz474NqxMv/u\n")
home = os.path.join(WORK, "home")
os.makedirs(os.path.join(home, ".pki", "nssdb"))
for arguments in (["-N", "--empty-password"], ["-A", "-t", "C,,", "-n", "syncmon-page-test", "-i", os.path.join(tls, "ca.pem")]):
    result = subprocess.run(["certutil", "-d", "sql:" + os.path.join(home, ".pki", "nssdb"), *arguments], capture_output=True, text=True)
    check(result.returncode == 0, "certutil %s: %s" % (arguments, result.stderr))
context = ssl.create_default_context(cafile=os.path.join(tls, "ca.pem"))
secure = Daemon("secure", extra=["--web.config.file", os.path.join(tls, "web.yml")], scheme="https",
                auth="alice:hunter2", context=context)
secure.emit("behind-tls", *cycle(True))
until("the pair behind TLS", lambda: secure.summaries() == {"behind-tls/private": "succeeded"})
for path in ["/", "/pair/behind-tls/private", "/static/nothing.css"]:
    check(get(secure.base + path, None, context)[0] == 401, "%s without the password is not 401" % path)
    check(get(secure.base + path, "alice:wrong", context)[0] == 401, "%s with a wrong password is not 401" % path)
status, headers, body = get(secure.base + "/", "alice:hunter2", context)
check(status == 200 and headers.get("Content-Security-Policy") == CSP, "with the password: %d %s" % (status, headers))
guarded = browser(home=home)
guarded.get(secure.base + "/")
check(not guarded.find_elements(By.CSS_SELECTOR, "tr[data-pair]"), "the browser got the rows without the password")
guarded.get("https://alice:hunter2@127.0.0.1:%d/" % secure.port)
got = [(pair, summary) for pair, summary, _ in rows(guarded)]
check(got == [("behind-tls/private", "succeeded")], "with the password the browser got %s" % got)
check(guarded.find_element(By.TAG_NAME, "html").get_attribute("data-js") == "on", "behind TLS the script did not load")
guarded.get_log("browser")  # the 401 of the first visit is an expected console error
guarded.get(secure.base + "/pair/behind-tls/private")
expect_quiet(guarded, secure.base, "behind TLS")
guarded.quit()
secure.stop()
print("test-page: behind TLS (test CA) and basic auth, the page only with the password")
print("test-page: ok")
PYTHON
