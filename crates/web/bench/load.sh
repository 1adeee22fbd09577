#!/usr/bin/env bash
# Load benchmark of `robotrules serve` on loopback (see BENCHMARKS.md):
# POST /api/check with a 5 KB robots.txt, and, for the floor of the HTTP
# stack alone, GET /example.txt, in interleaved rounds.
#
#   cargo build --release -p robotrules-cli
#   crates/web/bench/load.sh [ROUNDS] [SECONDS] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
rounds="${1:-3}" seconds="${2:-15}" connections="${3:-16}"
command -v wrk >/dev/null || { echo "needs wrk (apt-get install wrk)" >&2; exit 2; }
log="$(mktemp)"
target/release/robotrules serve --addr 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill "$server"; rm -f "$log"' EXIT
for _ in $(seq 50); do
    base="$(sed -n 's/.*is at \(http:[^ ]*\)\/$/\1/p' "$log")"
    [ -n "$base" ] && break
    sleep 0.1
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    printf 'round %s  check 5 KB: ' "$round"
    wrk -t1 -c"$connections" -d"${seconds}s" --latency \
        -s crates/web/bench/check.lua "$base/api/check" | tail -1
    printf 'round %s  GET /example.txt: ' "$round"
    wrk -t1 -c"$connections" -d"${seconds}s" --latency \
        -s crates/web/bench/report.lua "$base/example.txt" | tail -1
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
