"""Shared fixtures: the project's test material, found the way the Rust
tests find it (``ROBOTRULES_SHARED``, else ``../shared`` beside the
repository)."""

import json
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]


def shared_dir() -> pathlib.Path:
    env = os.environ.get("ROBOTRULES_SHARED")
    path = pathlib.Path(env) if env else ROOT.parent / "shared"
    assert (path / "conformance").is_dir(), (
        f"the shared test material is missing: expected {path} "
        "(or set ROBOTRULES_SHARED)"
    )
    return path


def conformance(name):
    with open(shared_dir() / "conformance" / name, encoding="utf-8") as f:
        return json.load(f)


def field_bytes(case, name) -> bytes:
    """A conformance field as bytes: ``name``, or ``name_hex`` for bodies
    that are not UTF-8."""
    if name in case:
        return case[name].encode("utf-8")
    return bytes.fromhex(case[name + "_hex"])


def corpus_files():
    root = shared_dir() / "corpus" / "real"
    return sorted(p for p in root.iterdir() if p.is_file())


@pytest.fixture(scope="session")
def shared():
    return shared_dir()
