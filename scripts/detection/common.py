"""What the detection matrix's measurements share: syncmon's status rows and how a row reads."""
import json
import urllib.request

# The summaries that are an alarm: a person should look.
ALARMS = {"error", "engine_down", "stalled"}


def get(url, key=None):
    """GETs url (with Syncthing's API key when given) and decodes the JSON answer."""
    request = urllib.request.Request(url, headers={"X-API-Key": key} if key else {})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.loads(answer.read().decode())


def codes(value):
    """Every failure code in a status row, wherever it sits."""
    found = []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += [inner] if key == "code" and isinstance(inner, str) else codes(inner)
    elif isinstance(value, list):
        for inner in value:
            found += codes(inner)
    return found


def verdict(row):
    """A row as the matrix shows it: the summary, then its stall reasons or failure codes."""
    detail = row.get("stalled") or sorted(set(codes(row)))
    return row.get("summary", "absent") + (f" ({', '.join(detail)})" if detail else "")
