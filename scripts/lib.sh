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
