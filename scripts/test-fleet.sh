#!/usr/bin/env bash
# A fleet of six hosts on this machine, watched the way docs/fleet.md sets it up:
#   - six hosts h1…h6, each a network namespace with its own syncmon (the debug binary) listening
#     on 10.77.0.1N:9478 and its own mix of engines (syncmon emit, wrap, simulate, a raw stream);
#   - a monitoring namespace holding the bridge (10.77.0.1/24) and, on its own loopback: two site
#     Prometheus servers (site a: h1–h3, site b: h4–h6; external label `site`, the shipped
#     syncmon-fleet.yml), a global Prometheus federating their recorded series (honor_labels,
#     match[], syncmon-fleet-global.yml), a Prometheus in agent mode remote-writing every host
#     into Debian's victoria-metrics, and vmalert recording syncmon-fleet.yml's rules there.
# scripts/fleet/fleet.py then checks the rules' numbers against what each host was sent, per site
# and fleet-wide, through federation and in VictoriaMetrics; every host's /metrics through
# `promtool check metrics` with no instance/host label of its own; a restarted host, a host
# over max-engines, a stopped host seen as stale, a site Prometheus down; and prints the series
# per host and per pair; and the canary between two hosts whose sync loses one direction
# (SYNCMON_FLEET_CANARY=0 leaves that step out). Every address is inside namespaces this script creates.
# Scrape and evaluation every second; 30-60 s.
# Usage: scripts/test-fleet.sh   (as root; binary: $SYNCMON_BINARY, default .build/debug/syncmon;
#                                 Python: $PYTHON, default Debian's /usr/bin/python3)
set -euo pipefail
cd "$(dirname "$0")/.."

binary=${SYNCMON_BINARY:-.build/debug/syncmon}
python=${PYTHON:-/usr/bin/python3}
[ "$(id -u)" -eq 0 ] || { echo "test-fleet: needs root (network namespaces)" >&2; exit 2; }
for tool in ip prometheus promtool victoria-metrics vmalert rsync "$python"; do
    command -v "$tool" >/dev/null || { echo "test-fleet: $tool not found (scripts/install-deps.sh --test)" >&2; exit 2; }
done
"$python" -c 'import yaml' 2>/dev/null || { echo "test-fleet: $python cannot import yaml (scripts/install-deps.sh --test)" >&2; exit 2; }
[ -x "$binary" ] || { echo "test-fleet: no syncmon binary at $binary (build it, or set SYNCMON_BINARY)" >&2; exit 2; }
binary=$(readlink -f "$binary")

# Names unique to this run, so two runs (or a leftover of a killed one) never collide.
run="smf$(($$ % 100000))"
monitor="${run}m"
hosts=(h1 h2 h3 h4 h5 h6)
work=$(mktemp -d /tmp/syncmon-test-fleet.XXXXXX)
namespaces=()
cleanup() {
    local ns pid
    # Whatever still runs inside this run's namespaces was started by this script.
    for ns in "${namespaces[@]}"; do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
    done
    for ns in "${namespaces[@]}"; do
        for _ in $(seq 50); do [ -z "$(ip netns pids "$ns" 2>/dev/null)" ] && break; sleep 0.1; done
        for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
        ip netns del "$ns" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The monitoring namespace: loopback and a bridge the hosts' veth ends join.
ip netns add "$monitor"
namespaces+=("$monitor")
ip -n "$monitor" link set lo up
ip -n "$monitor" link add br0 type bridge
ip -n "$monitor" addr add 10.77.0.1/24 dev br0
ip -n "$monitor" link set br0 up
index=0
for host in "${hosts[@]}"; do
    index=$((index + 1))
    ns="$run$host"
    ip netns add "$ns"
    namespaces+=("$ns")
    ip -n "$ns" link set lo up
    # Created inside the namespaces: no interface ever appears in this machine's own namespace.
    ip -n "$monitor" link add "$host" type veth peer name eth0 netns "$ns"
    ip -n "$monitor" link set "$host" master br0 up
    ip -n "$ns" addr add "10.77.0.1$index/24" dev eth0
    ip -n "$ns" link set eth0 up
done

# The harness runs in the monitoring namespace (it reaches the servers on its loopback and the
# hosts over the bridge) and starts each host's processes with `ip netns exec`.
ip netns exec "$monitor" "$python" scripts/fleet/fleet.py --binary "$binary" --work "$work" \
    --namespace-prefix "$run" --repo "$PWD"
