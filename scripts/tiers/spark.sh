# Spark: the `robotrules.spark` job of the wheel in local mode (local[2])
# against `robotrules bulk run --partition-by crawl` on generated WARC.gz
# files. Needs Java 17 (Debian's headless JRE, installed when `java` is
# missing) and PySpark from PyPI.
if ! command -v java >/dev/null 2>&1; then
    step "installing Debian's Java 17"
    as_root=()
    if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi

step "Python tools: pyspark, pytest"
pip_install "pyspark>=3.5,<5" "pytest>=7"

ensure_wheel

step "the command line and the WARC generator"
cargo build --quiet -p robotrules-cli
cargo build --quiet -p robotrules-bulk --example generate

step "pytest crates/python/spark_tests"
ROBOTRULES_SHARED="$(shared_dir)" ROBOTRULES_CLI="$PWD/target/debug/robotrules" \
    ROBOTRULES_GENERATE="$PWD/target/debug/examples/generate" \
    PYSPARK_PYTHON="$VENV/bin/python" \
    "$VENV/bin/python" -m pytest -q -p no:cacheprovider crates/python/spark_tests
