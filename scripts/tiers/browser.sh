# The browser tier: the `robotrules serve` tester driven as a user would in
# a real headless Chromium (Debian's package, through Playwright's
# driver), then its JSON API fuzzed from its own OpenAPI document by
# schemathesis. Screenshots are saved in target/screenshots/.

if [ ! -x /usr/bin/chromium ]; then
    step "installing Debian's chromium"
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq chromium >/dev/null
fi

# Playwright's Python package brings its driver; the browser is Debian's,
# so `playwright install` is never run.
step "Python tools: playwright, pytest, schemathesis"
pip_install "playwright>=1.50,<2" "pytest>=8,<10" "schemathesis>=4.30,<5"

step "building robotrules"
# The binary as the rust tier builds it (same profile and features), so
# that after that tier this builds nothing.
cargo test --workspace --no-run
bin="$PWD/target/debug/robotrules"

step "the tester in headless Chromium"
mkdir -p target/screenshots
ROBOTRULES_BIN="$bin" CHROMIUM=/usr/bin/chromium \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider crates/web/e2e

step "schemathesis: the API against its OpenAPI document"
log="$(mktemp)"
"$bin" serve --addr 127.0.0.1:0 2>"$log" &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
base=""
for _ in $(seq 100); do
    base="$(sed -n 's/.*is at \(http:[^ ]*\)\/$/\1/p' "$log")"
    [ -n "$base" ] && break
    sleep 0.1
done
if [ -z "$base" ]; then
    echo "error: the server did not start" >&2
    cat "$log" >&2
    exit 1
fi
(cd target && "$VENV/bin/schemathesis" \
    --config-file ../crates/web/e2e/schemathesis.toml \
    run "$base/api/openapi.json" \
    --checks all --max-examples 100 --request-timeout 30 \
    --generation-deterministic)
