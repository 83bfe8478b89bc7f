#!/usr/bin/env bash
# Notifications end to end with the real components (docs/notifications.md): a live
# `syncmon daemon` with three routes, each delivering to a real receiver —
#   mail     Debian's exim4 (exim4-daemon-light, local delivery only) through `sendmail -t -oi`,
#            read back from the local mailbox and parsed with Python's email package: Subject
#            (RFC 2047, UTF-8), body, headers;
#   apprise  the shipped deploy/notify/syncmon-apprise running Debian's apprise to a loopback
#            HTTP receiver (apprise's json://);
#   hook     a webhook over https with a test CA (openssl), a header read from a file.
# One engine's export fails with a non-ASCII message: each route must deliver one firing
# notification naming the pair, its problem and the message; once the engine succeeds, one
# resolved. Then `syncmon notify test` (exit 0, and 2 for an unknown route), the metrics
# (consistent with what was received, `promtool check metrics` clean). Last, a second daemon
# whose state directory is a full tmpfs of 64 KiB: a notification owed meanwhile is delivered,
# the failed saves are counted and retried, and once there is room the state is saved.
#
# Needs root (it configures exim4 for local delivery, adds the mailbox user syncmon-mailtest,
# mounts a tmpfs). Ports 19100-19199 and 20300-20399 on 127.0.0.1. Takes ~25 s.
# Usage: scripts/test-notify.sh   (binary: $SYNCMON_BINARY, default .build/debug/syncmon)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

binary=${SYNCMON_BINARY:-.build/debug/syncmon}
python=${PYTHON:-/usr/bin/python3}
for tool in "$python" apprise openssl /usr/sbin/exim4 /usr/sbin/sendmail promtool curl; do
    command -v "$tool" >/dev/null || { echo "test-notify: $tool not found (scripts/install-deps.sh --test)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "test-notify: needs root (exim4's configuration, a mailbox user)" >&2; exit 2; }
[ -x "$binary" ] || { echo "test-notify: no syncmon binary at $binary (build it, or set SYNCMON_BINARY)" >&2; exit 2; }
binary=$(readlink -f "$binary")

work=$(mktemp -d /tmp/syncmon-test-notify.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    umount "$work/full" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
logs() {
    echo "--- syncmon log" >&2; tail -n 30 "$work/syncmon.log" >&2 || true
    echo "--- received" >&2; cat "$work"/received-*.ndjson >&2 || true
    echo "--- exim mainlog" >&2; tail -n 10 /var/log/exim4/mainlog >&2 || true
}
fail() { echo "test-notify: FAIL: $*" >&2; logs; exit 1; }
# Polls `condition` (a command) every 0.2 s for up to $1 seconds.
wait_for() {
    local seconds=$1
    shift
    local deadline=$((SECONDS + seconds))
    until "$@"; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.2
    done
}

http_port=19101 https_port=19102 syncmon_port=19103

# --- exim4: local delivery only, mail spool in /var/mail ----------------------------------------
sed -i -e "s/^dc_eximconfig_configtype=.*/dc_eximconfig_configtype='local'/" \
    -e "s/^dc_local_interfaces=.*/dc_local_interfaces='127.0.0.1 ; ::1'/" \
    -e "s/^dc_localdelivery=.*/dc_localdelivery='mail_spool'/" /etc/exim4/update-exim4.conf.conf
update-exim4.conf
id syncmon-mailtest >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin syncmon-mailtest
# exim4's local delivery changes to the user's home first.
install -d -o syncmon-mailtest "$(getent passwd syncmon-mailtest | cut -d: -f6)"
mailbox=/var/mail/syncmon-mailtest
rm -f "$mailbox"
# Nothing left in the queue for the mailbox from an earlier run.
exiqgrep -i -r syncmon-mailtest 2>/dev/null | xargs -r exim4 -Mrm >/dev/null 2>&1 || true

# --- a test CA and a server certificate for localhost -------------------------------------------
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=syncmon test CA" \
    -keyout "$work/ca.key" -out "$work/ca.pem" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$work/san.ext"
openssl x509 -req -in "$work/server.csr" -CA "$work/ca.pem" -CAkey "$work/ca.key" -CAcreateserial -days 2 \
    -extfile "$work/san.ext" -out "$work/server.pem" 2>/dev/null
printf 'Bearer from-a-file\n' >"$work/token"

# --- receivers: every POST appended as one JSON line (path, headers, body) -----------------------
cat >"$work/receiver.py" <<'PY'
import http.server, json, ssl, sys
port, out, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", "0"))).decode("utf-8")
        with open(out, "a") as f:
            f.write(json.dumps({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}, "body": body}) + "\n")
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", port), Handler)
if cert != "-":
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
server.serve_forever()
PY
"$python" "$work/receiver.py" $http_port "$work/received-apprise.ndjson" - - &
pids+=($!)
"$python" "$work/receiver.py" $https_port "$work/received-hook.ndjson" "$work/server.pem" "$work/server.key" &
pids+=($!)

# --- the daemon ----------------------------------------------------------------------------------
cat >"$work/syncmon.conf" <<CONF
listen = 127.0.0.1:$syncmon_port
host-network = off

[notify mail]
mail-to = syncmon-mailtest@localhost
mail-from = syncmon@localhost
hold = 1s
group = 1s

[notify apprise]
command = $repo/deploy/notify/syncmon-apprise json://127.0.0.1:$http_port/apprise
hold = 1s
group = 1s

[notify hook]
webhook = https://localhost:$https_port/hook
webhook-ca-file = $work/ca.pem
webhook-header-file = Authorization: $work/token
hold = 1s
group = 1s
page-url = http://127.0.0.1:$syncmon_port
CONF
socket=$work/events.sock
"$binary" daemon --config "$work/syncmon.conf" --state-dir "$work/state" --events-socket "$socket" --log-target stderr \
    >"$work/syncmon.log" 2>&1 &
pids+=($!)
wait_for 20 curl -fs -o /dev/null "http://127.0.0.1:$syncmon_port/healthz" || fail "the daemon did not start"

now() { date -u +%Y-%m-%dT%H:%M:%SZ; }
t=$(now)
"$binary" emit --events-socket "$socket" --engine notes containerEvent kind=export id=a started="$t" ended="$t" \
    succeeded=false error.code=quotaExceeded error.message='Speicher voll – Kontingent überschritten'

mails() { [ -f "$mailbox" ] && grep -c '^From ' "$mailbox" || echo 0; }
count() { [ -f "$1" ] && wc -l <"$1" || echo 0; }
# Conditions for wait_for, looked at afresh at each try.
mails_at_least() { [ "$(mails)" -ge "$1" ]; }
lines_at_least() { [ "$(count "$1")" -ge "$2" ]; }
wait_for 20 mails_at_least 1 || fail "no firing mail arrived in $mailbox"
wait_for 20 lines_at_least "$work/received-apprise.ndjson" 1 || fail "apprise delivered nothing"
wait_for 20 lines_at_least "$work/received-hook.ndjson" 1 || fail "the https webhook received nothing"

# --- what arrived: parsed, decoded, checked ------------------------------------------------------
check() {
    "$python" - "$mailbox" "$work/received-apprise.ndjson" "$work/received-hook.ndjson" "$1" <<'PY' || fail "the $1 notifications are not right"
import email, email.header, email.policy, json, mailbox, sys
box, apprise_log, hook_log, event = sys.argv[1:5]
index = 0 if event == "firing" else 1
messages = list(mailbox.mbox(box, factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default)))
assert len(messages) == index + 1, f"{len(messages)} mails"
mail = messages[index]
subject = str(mail["subject"])
body = mail.get_content()
print(f"mail {event}: Subject: {subject}")
assert subject.startswith("[syncmon] "), subject
assert "notes/private" in subject, subject
assert mail["x-syncmon-event"] == event, mail["x-syncmon-event"]
assert mail.get_content_charset() == "utf-8"
if event == "firing":
    assert "error" in subject and "quotaExceeded" in subject, subject
    assert "Speicher voll – Kontingent überschritten" in body, body
    raw = open(box, "rb").read().decode("utf-8", "replace")
    assert "=?UTF-8?B?" in raw or "Speicher" not in subject, "a non-ASCII subject must be RFC 2047 encoded"
else:
    assert "back to " in subject, subject
apprise = [json.loads(line) for line in open(apprise_log)]
assert len(apprise) == index + 1, f"{len(apprise)} apprise posts"
payload = json.loads(apprise[index]["body"])
print(f"apprise {event}: {payload['title']}")
assert "notes/private" in payload["title"], payload
assert payload["type"] == ("failure" if event == "firing" else "success"), payload
hook = [json.loads(line) for line in open(hook_log)]
assert len(hook) == index + 1, f"{len(hook)} webhook posts"
assert hook[index]["headers"]["authorization"] == "Bearer from-a-file", hook[index]["headers"]
assert hook[index]["headers"]["content-type"] == "application/json"
document = json.loads(hook[index]["body"])
print(f"webhook {event}: {document['title']}")
assert document["event"] == event and document["route"] == "hook" and document["count"] == 1, document
pair = document["pairs"][0]
assert (pair["engine"], pair["database"]) == ("notes", "private"), pair
assert pair["url"].endswith("/pair/notes/private"), pair
if event == "firing":
    assert pair["summary"] == "error" and pair["message"] == "Speicher voll – Kontingent überschritten", pair
PY
}
check firing

t=$(now)
"$binary" emit --events-socket "$socket" --engine notes containerEvent kind=export id=b started="$t" ended="$t" succeeded=true
wait_for 20 mails_at_least 2 || fail "no resolved mail arrived"
wait_for 20 lines_at_least "$work/received-apprise.ndjson" 2 || fail "apprise delivered no resolution"
wait_for 20 lines_at_least "$work/received-hook.ndjson" 2 || fail "the webhook received no resolution"
check resolved

# --- syncmon notify test and list ----------------------------------------------------------------
"$binary" notify test mail --url "127.0.0.1:$syncmon_port" || fail "notify test mail did not exit 0"
wait_for 20 mails_at_least 3 || fail "the test mail did not arrive"
set +e
"$binary" notify test nosuch --url "127.0.0.1:$syncmon_port" 2>/dev/null
status=$?
set -e
[ $status -eq 2 ] || fail "notify test of an unknown route exited $status, not 2"
"$binary" notify list --url "127.0.0.1:$syncmon_port"

# --- the metrics agree with what was received -----------------------------------------------------
curl -fsS "http://127.0.0.1:$syncmon_port/metrics" >"$work/metrics.txt"
promtool check metrics <"$work/metrics.txt" || fail "promtool check metrics found problems"
for route in mail apprise hook; do
    for event in firing resolved; do
        grep -q "^syncmon_notifications_total{route=\"$route\",event=\"$event\",outcome=\"sent\"} 1$" "$work/metrics.txt" ||
            fail "syncmon_notifications_total of $route $event is not 1"
    done
    grep -q "^syncmon_notifications_pending{route=\"$route\"} 0$" "$work/metrics.txt" || fail "$route still owes notifications"
done
grep -q '^syncmon_notifications_total{route="mail",event="test",outcome="sent"} 1$' "$work/metrics.txt" || fail "the test mail is not counted"
rm -f "$mailbox"

# --- a full state disk while a notification is owed -----------------------------------------------
full_port=20301
mkdir "$work/full"
mount -t tmpfs -o size=64k,mode=755 tmpfs "$work/full"
printf '#!/bin/sh\nprintf "%%s %%s\\n" "$SYNCMON_EVENT" "$SYNCMON_PAIRS" >>%s\n' "$work/full-deliveries.log" >"$work/record.sh"
chmod 755 "$work/record.sh"
printf 'listen = 127.0.0.1:%s\nhost-network = off\n\n[notify cmd]\ncommand = %s\nhold = 1s\ngroup = 0s\n' \
    "$full_port" "$work/record.sh" >"$work/full.conf"
"$binary" daemon --config "$work/full.conf" --state-dir "$work/full/state" --events-socket "$work/full.sock" \
    --log-target stderr >"$work/full.log" 2>&1 &
pids+=($!)
wait_for 20 curl -fs -o /dev/null "http://127.0.0.1:$full_port/healthz" || fail "the full-disk daemon did not start"
# Fill the disk to the last block.
dd if=/dev/zero of="$work/full/filler" bs=1k 2>/dev/null || true
t=$(now)
"$binary" emit --events-socket "$work/full.sock" --engine notes containerEvent kind=export id=a started="$t" ended="$t" \
    succeeded=false error.code=quotaExceeded
wait_for 20 lines_at_least "$work/full-deliveries.log" 1 || fail "nothing delivered while the state disk is full"
save_failures() {
    curl -fsS "http://127.0.0.1:$full_port/metrics" | awk '/^syncmon_state_save_failures_total /{print $2}'
}
failures=$(save_failures)
[ "${failures%.*}" -ge 1 ] || fail "no failed save counted on a full disk ($failures)"
grep -q 'cannot save the notification state' "$work/full.log" || fail "no log line for the failed notification save"
! grep -qs '"sent":1' "$work/full/state/notify.json" || fail "the state was saved on a full disk?"
# Room again: the state is saved without anything new happening.
rm -f "$work/full/filler"
saved() { grep -qs '"owed":\[\],.*"sent":1' "$work/full/state/notify.json"; }
wait_for 20 saved || fail "the notification state was not saved once the disk had room"
[ "$(count "$work/full-deliveries.log")" -eq 1 ] || fail "delivered $(count "$work/full-deliveries.log") times, not once"
echo "test-notify: full state disk: delivered once, $failures failed saves counted, saved once there was room"
echo "test-notify: ok (exim4 mail, apprise, https webhook: firing, resolved, test; a full state disk)"
