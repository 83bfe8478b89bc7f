#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, Fuzz/Corpus/<target>/, and dictionaries,
Fuzz/Corpus/<target>.dict (keys and tokens the parsers compare against), from the repository's test
fixtures and the strings of the table tests (docs/fuzzing.md). Run from the repository root;
it replaces the seeds it writes (named seed-*) and leaves any other file in the corpus alone
(inputs folded in by `scripts/fuzz.sh --merge`, regressions)."""
import glob
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "Corpus")
MAX_SEED = 8192  # bytes: bigger inputs only slow the fuzzer down


def read(path):
    with open(os.path.join(ROOT, path), "rb") as handle:
        return handle.read()


def first_lines(data, limit=MAX_SEED):
    """Whole lines of `data` up to `limit` bytes."""
    out = b""
    for line in data.splitlines(keepends=True):
        if len(out) + len(line) > limit:
            break
        out += line
    return out or data[:limit]


def write(target, seeds):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    for old in glob.glob(os.path.join(directory, "seed-*")):
        os.remove(old)
    for name, data in seeds:
        with open(os.path.join(directory, "seed-" + name), "wb") as handle:
            handle.write(data)


def event_decoder():
    seeds = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/replay/*.jsonl"))):
        name = os.path.basename(path)[: -len(".jsonl")]
        seeds.append((name, first_lines(read(path), 4096)))
    return seeds


def line_framer():
    replay = first_lines(read("Tests/Fixtures/replay/ck-happy-path.jsonl"), 600)
    return [
        ("happy-small-chunks", bytes([0x08 | 0x20]) + replay),
        ("crlf", bytes([0x10 | 0x40]) + replay.replace(b"\n", b"\r\n")),
        ("no-final-newline", bytes([0x1F]) + b"short\nlonger line over the limit here\nlast"),
        ("blank-lines", bytes([0x03 | 0xE0]) + b"\n\n\r\nab\n\n"),
    ]


def server_sent_events():
    streams = [
        b": a comment\nid: 1\nevent: sync\ndata: {\"a\":1,\ndata:\"b\":2}\n\ndata: second\n\n",
        "\ufeffid: a\r\ndata: x\r\n\r\nid: b\rdata: y\r\rid: c\ndata: z\n\n".encode(),
        b"retry: 1500\ndata: x\n\nretry: 12a\nid\nid: with\x00nul\ndata\n\n",
        b"data: " + b"y" * 100 + b"\n\nevent: big\ndata: z\n\n",
        first_lines(read("Tests/Fixtures/syncthing/a-healthy/A.events.jsonl"), 1500).replace(b"\n", b"\n\n").replace(b"{", b"data: {"),
    ]
    return [(f"stream-{i}", bytes([0x3F | (i << 6 & 0xC0)]) + s) for i, s in enumerate(streams)]


def config_file():
    return [
        ("settings", b"# a comment\n; another comment\n\nevents-socket = /run/x/events.sock\nstate-dir = \"/var/lib/x\"\n"
         b"log-target = journald\nlog-level = debug\nmax-engines = 12\nmax-connections = 4\nfrom-start = yes\nhost-network = auto\n"),
        ("repeated", b"listen = 127.0.0.1:1000\nsubscribe = unix:/run/a.sock\nlisten = [::1]:1001\n"
         b"subscribe = http://127.0.0.1:8080/events\nsubscribe = file:/var/log/b.jsonl\n"),
        ("engines", b"not-syncing-after = 2m\r\n\r\n[engine photos]\r\nno-progress-after = 30m\r\nno-recent-import-after = 6h\r\n"
         b"allowed-users = root, nobody\r\nallowed-groups = root\r\n[engine notes.v2]\r\nnot-syncing-after = 10s\r\n"),
        ("sources", b"subscribe = a=syncthing+http://127.0.0.1:8384\n[source a]\napi-key-file = /etc/syncmon/a.key\n"),
        ("errors", b"[engine]\nmax-engines = 0\nbogus = 1\n[source a\nstall = 1h2m3.5s\n"),
    ]


def http_request():
    accepts = [
        b"application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,application/openmetrics-text;version=0.0.1;q=0.4,"
        b"text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,text/plain;version=0.0.4;q=0.2,*/*;q=0.1",
        b"APPLICATION/OpenMetrics-Text;Version=\"1.0.0\"",
        b"  text/plain ;  q=0.1 ,\tapplication/openmetrics-text ; q=0.2 ",
        b"application/openmetrics-text;q=abc,,;",
    ]
    encodings = [b"gzip, deflate", b"x-gzip;q=0.5", b"*;q=0", b"gzip;q=0, *"]
    targets = [b"/api/v1/status?engine=notes&x=%41%2", b"/metrics", b"/?a=b&=&c", b"/healthz?engine=a+b%zz"]
    seeds = []
    for i in range(4):
        seeds.append((f"pieces-{i}", b"\n".join([targets[i], accepts[i], encodings[i], encodings[(i + 1) % 4]])))
    seeds.append(("raw-get", b"GET /api/v1/status?engine=x HTTP/1.1\r\nHost: a\r\nAccept: " + accepts[0] + b"\r\n\r\n"))
    seeds.append(("raw-pipelined", b"GET /metrics HTTP/1.1\r\nAccept-Encoding: gzip\r\n\r\nHEAD / HTTP/1.0\r\n\r\nPOST /x HTTP/1.1\r\ncontent-length: 3\r\n\r\nabc"))
    seeds.append(("raw-large-head", b"GET / HTTP/1.1\r\nX-Long: " + b"a" * 1100 + b"\r\n\r\n"))
    return seeds


def syncthing():
    seeds = []
    order = ["system-status.json", "latest-event.json", "connections.json", "config.json"]
    for scenario in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/syncthing/*/"))):
        name = os.path.basename(os.path.dirname(scenario))
        start = os.path.join(scenario, "A.start")
        answers = [read(os.path.join(start, f)) for f in order]
        answers += [read(f) for f in sorted(glob.glob(os.path.join(start, "db-status.*")))]
        answers += [read(f) for f in sorted(glob.glob(os.path.join(start, "folder-errors.*")))]
        answers += [read(f) for f in sorted(glob.glob(os.path.join(start, "completion.*")))]
        events = read(os.path.join(scenario, "A.events.jsonl")).splitlines()
        batches, batch = [], []
        for line in events[:40]:
            batch.append(line)
            if len(batch) == 8:
                batches.append(b"[" + b",".join(batch) + b"]")
                batch = []
        seed = b"\x00".join(answers + batches)
        seeds.append((name, seed[: 3 * MAX_SEED]))
    return seeds


def wrap():
    selectors = {"rclone": 0x00, "restic": 0x01, "rsync": 0x02}
    seeds = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests/Fixtures/wrap/*.std*"))):
        name = os.path.basename(path)
        tool = name.split("-")[0]
        selector = selectors[tool] | (0x20 if name.endswith(".stdout") else 0)
        seeds.append((name, bytes([selector]) + first_lines(read(path), 4096)))
    return seeds


def source_words(directory, pattern=r'"([A-Za-z_]+)"'):
    """The quoted words in the Swift sources under `directory`."""
    found = set()
    for path in glob.glob(os.path.join(ROOT, directory, "**/*.swift"), recursive=True):
        found.update(re.findall(pattern, read(path).decode()))
    return sorted(found)


def write_dictionary(target, tokens):
    """One libFuzzer dictionary: a quoted token a line, bytes outside printable ASCII escaped."""
    lines, seen = [f"# libFuzzer dictionary for {target} (docs/fuzzing.md), written by Fuzz/make-seeds.py"], set()
    for token in tokens:
        data = token if isinstance(token, bytes) else token.encode()
        if data in seen:
            continue
        seen.add(data)
        text = "".join(
            "\\\\" if b == 0x5C else '\\"' if b == 0x22 else chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02x}" for b in data
        )
        lines.append(f'"{text}"')
    with open(os.path.join(CORPUS, target + ".dict"), "w") as handle:
        handle.write("\n".join(lines) + "\n")


def dictionaries():
    core = source_words("Sources/SyncmonCore/Decoding") + source_words("Sources/SyncmonCore/Model")
    write_dictionary("FuzzEventDecoder", [f'"{w}":' for w in core] + [f'"{w}"' for w in core] + [
        '{"v":1,', '"2026-11-24T02:07:51.759Z"', "1e308", "-0", "\\u0000", "\\ud800", "null", "true", "false", "\n"])
    syncthing = source_words("Sources/SyncmonAdapters/Syncthing")
    write_dictionary("FuzzSyncthing", [f'"{w}":' for w in syncthing] + [f'"{w}"' for w in syncthing] + [
        '"2026-11-24T02:07:51.759735035Z"', b"\x00", "null", "[]", "{}", "9223372036854775807", "-1", "1e400"])
    wrap = source_words("Sources/SyncmonAdapters/Wrap")
    write_dictionary("FuzzWrap", [f'"{w}":' for w in wrap] + [f'"{w}"' for w in wrap] + [
        "9223372036854775807", "-9223372036854775808", "1e400", "to-chk=", "xfr#", "100%", "kB/s", "MB/s", "0:00:01",
        "@ERROR:", "rsync error:", "Fatal:", "Failed to ", "\r", "\n"])
    write_dictionary("FuzzServerSentEvents", [
        "data:", "data: ", "id:", "id: ", "event:", "retry:", ":", "\r\n", "\r", "\n", "\n\n", b"\xef\xbb\xbf", b"\x00"])
    config = source_words("Sources/SyncmonDaemon", r'"([a-z]+(?:-[a-z]+)+)"')
    write_dictionary("FuzzConfigFile", [w + " = " for w in config] + [
        "not-syncing-after", "no-progress-after", "retry-loop-after", "[engine ", "[source ", "]", "#", ";", "=", '"',
        "\r\n", "2m", "1h30m", "0.5s", "9999999999999h", "true", "auto", "offline", "api-key-file = /",
        "allowed-users = ", "allowed-groups = "])
    write_dictionary("FuzzHTTPRequest", [
        "GET ", "HEAD ", "POST ", " HTTP/1.1\r\n", " HTTP/1.0\r\n", "\r\n\r\n", "Accept: ", "Accept-Encoding: ", "Host: a\r\n",
        "content-length: ", "transfer-encoding: chunked\r\n", "/metrics", "/healthz", "/api/v1/status", "?engine=", "&", "=",
        "%", "%2", "+", "application/openmetrics-text", "text/plain", "*/*", "application/*", ";q=", ";version=1.0.0",
        "version=0.0.4", "gzip", "x-gzip", "*;q=0", ","])


if __name__ == "__main__":
    write("FuzzEventDecoder", event_decoder())
    write("FuzzLineFramer", line_framer())
    write("FuzzServerSentEvents", server_sent_events())
    write("FuzzConfigFile", config_file())
    write("FuzzHTTPRequest", http_request())
    write("FuzzSyncthing", syncthing())
    write("FuzzWrap", wrap())
    dictionaries()
