# Python: the `robotrules` wheel (PyO3, built by maturin) and its pytest
# suite, with the peers it is compared with (Protego, urllib.robotparser)
# and a real Scrapy crawl.
step "test dependencies (pytest, Scrapy, Protego)"
pip_install 'pytest>=7' 'scrapy>=2.11' 'protego>=0.3'

ensure_wheel

# The tests compare the results' dicts with the command line's JSON.
step "the command line, for its JSON"
cargo build --quiet -p robotrules-cli

step "pytest crates/python/tests"
ROBOTRULES_SHARED="$(shared_dir)" ROBOTRULES_CLI="$PWD/target/debug/robotrules" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider crates/python/tests
