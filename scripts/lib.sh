# Shared helpers for the test tiers (sourced by scripts/test).

export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

# The project's virtual environment, created on first use. Every Python tool
# the tests need is installed into it, never into the system's Python.
VENV="${ROBOTRULES_VENV:-$PWD/target/venv}"

step() { printf '\n== %s\n' "$*"; }

ensure_venv() {
    if [ ! -x "$VENV/bin/python" ]; then
        step "creating the virtual environment $VENV"
        python3 -m venv "$VENV"
        "$VENV/bin/python" -m pip install --quiet --upgrade pip
    fi
}

# pip_install ARGS...: installs into the project's environment.
pip_install() {
    ensure_venv
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
}

# The shared test material.
shared_dir() {
    if [ -n "${ROBOTRULES_SHARED:-}" ]; then
        echo "$ROBOTRULES_SHARED"
    else
        echo "$PWD/../shared"
    fi
}

# The sources the robotrules wheel is built from.
wheel_sources() {
    find Cargo.toml Cargo.lock pyproject.toml README.md \
        crates/robotrules/Cargo.toml crates/robotrules/src \
        crates/analysis/Cargo.toml crates/analysis/src crates/analysis/data \
        crates/fetch/Cargo.toml crates/fetch/src \
        crates/bulk/Cargo.toml crates/bulk/src \
        crates/python/Cargo.toml crates/python/src crates/python/python \
        -type f -not -name '*.pyc' 2>/dev/null | LC_ALL=C sort
}

# ensure_wheel: builds the `robotrules` wheel (maturin, release) into
# target/wheels and installs it into the project's environment, once: it
# is rebuilt only when its sources change. Prints nothing else on success.
ensure_wheel() {
    ensure_venv
    local stamp="$VENV/.robotrules-wheel" sum
    sum="$(wheel_sources | xargs sha1sum | sha1sum | cut -d' ' -f1)"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum" ] &&
        "$VENV/bin/python" -c 'import robotrules' 2>/dev/null; then
        return 0
    fi
    step "building and installing the robotrules wheel (maturin, release)"
    pip_install 'maturin>=1.5,<2'
    rm -rf target/wheels/robotrules-*.whl
    "$VENV/bin/maturin" build --release --quiet --out target/wheels
    pip_install --force-reinstall --no-deps target/wheels/robotrules-*.whl
    echo "$sum" > "$stamp"
}
