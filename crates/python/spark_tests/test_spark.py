"""The Spark job (``robotrules.spark``) in local mode against the command
line (``robotrules bulk run --partition-by crawl``) on the same generated
WARC.gz files: two crawls, duplicates, redirect chains, gzip bodies,
corrupt and truncated members, files of two crawls joined into one, a
missing file. Both outputs are read
back with Spark and compared row for row, column for column."""

import functools
import gzip
import http.server
import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading

import pytest
from pyspark.sql import SparkSession

import robotrules.spark as rs

ROOT = pathlib.Path(__file__).resolve().parents[3]
CLI = os.environ.get("ROBOTRULES_CLI", str(ROOT / "target" / "debug" / "robotrules"))
GENERATE = os.environ.get("ROBOTRULES_GENERATE", str(ROOT / "target" / "debug" / "examples" / "generate"))
CRAWLS = [("CC-MAIN-2024-10", 260, 3, 5), ("CC-MAIN-2024-33", 200, 2, 9)]
KEY = ["crawl", "site", "url"]


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (
        SparkSession.builder.master("local[2]")
        .appName("robotrules-spark-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.default.parallelism", "2")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def damage(path: pathlib.Path, at: float, garbage: bytes):
    """Overwrites bytes of ``path`` at a fraction of its length."""
    data = bytearray(path.read_bytes())
    i = int(len(data) * at)
    data[i : i + len(garbage)] = garbage
    path.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    """Generated WARC.gz files of two crawls, one with a corrupt member,
    one cut short, and a path that does not exist."""
    base = tmp_path_factory.mktemp("warc")
    files = []
    for crawl, sites, n, seed in CRAWLS:
        out = base / crawl
        subprocess.run([GENERATE, str(out), str(sites), str(n), crawl, str(seed)], check=True, capture_output=True)
        files.extend(sorted(out.glob("*.warc.gz")))
    # A file of each crawl joined into one (`cat`): each capture keeps
    # the crawl of the `warcinfo` record before it.
    parts = []
    for crawl, seed in [("CC-MAIN-2024-10", 21), ("CC-MAIN-2024-33", 23)]:
        out = base / f"part-{seed}"
        subprocess.run([GENERATE, str(out), "40", "1", crawl, str(seed)], check=True, capture_output=True)
        parts.extend(sorted(out.glob("*.warc.gz")))
    joined = base / "joined.warc.gz"
    joined.write_bytes(b"".join(p.read_bytes() for p in parts))
    damage(files[0], 0.4, b"\x00garbage\xff" * 8)
    cut = files[-1].read_bytes()
    files[-1].write_bytes(cut[: len(cut) - 333])
    missing = base / "CC-MAIN-2024-10" / "missing.warc.gz"
    return [str(f) for f in files] + [str(joined), str(missing)]


def cli(args):
    return subprocess.run([CLI, "bulk", "run", "--quiet", *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def both(spark, inputs, tmp_path_factory):
    """The command line's output and the Spark job's, on the same inputs."""
    out = tmp_path_factory.mktemp("out")
    problems = out / "cli-problems.jsonl"
    cli([*inputs, "-o", str(out / "cli"), "--partition-by", "crawl", "--problems", str(problems)])
    cli([*inputs, "-o", str(out / "single.parquet")])
    report = rs.run(spark, inputs, str(out / "spark"))
    return out, report, [json.loads(line) for line in problems.read_text().splitlines()]


def rows(spark, path):
    frame = spark.read.parquet(str(path))
    return frame, [r.asDict() for r in frame.orderBy(*KEY).collect()]


def test_rows_equal_the_command_line(spark, both):
    out, report, _ = both
    cli_frame, cli_rows = rows(spark, out / "cli")
    spark_frame, spark_rows = rows(spark, out / "spark")
    assert cli_frame.schema == spark_frame.schema
    assert len(spark_rows) == len(cli_rows) == report.rows
    assert len(cli_rows) > 300
    for a, b in zip(cli_rows, spark_rows):
        assert a == b, (a["site"], {k: (a[k], b[k]) for k in a if a[k] != b[k]})
    # One row per site and crawl; the joined file's rows keep their crawls.
    keys = [(r["crawl"], r["url"]) for r in cli_rows]
    assert len(set(keys)) == len(keys)
    joined = {r["crawl"] for r in cli_rows if r["file"].endswith("joined.warc.gz")}
    assert joined == {c for c, *_ in CRAWLS}
    # The data holds what makes the cross-file steps matter.
    assert {r["crawl"] for r in cli_rows} == {c for c, *_ in CRAWLS}
    assert any(r["hops"] > 0 and r["redirect_stop"] is None for r in cli_rows)
    assert {"loop", "too_many", "not_captured"} <= {r["redirect_stop"] for r in cli_rows}
    assert any(r["captures"] > 1 for r in cli_rows)
    assert {"success", "unavailable", "unreachable"} <= {r["class"] for r in cli_rows}
    # The same rows as the single Parquet file the command line writes by
    # default.
    single = [r.asDict() for r in spark.read.parquet(str(out / "single.parquet")).orderBy(*KEY).collect()]
    assert single == cli_rows


def test_schema_is_the_command_lines(spark, both):
    out, _, _ = both
    cli_file = next((out / "cli").glob("crawl=*/part-00000.parquet"))
    spark_file = next((out / "spark").glob("crawl=*/*.parquet"))
    a = spark.read.parquet(str(cli_file)).schema
    b = spark.read.parquet(str(spark_file)).schema
    assert a == b
    assert "crawl" not in a.fieldNames()
    assert rs.schema().fieldNames()[1:] == a.fieldNames()
    single = spark.read.parquet(str(out / "single.parquet")).schema
    assert single.fieldNames() == rs.schema().fieldNames()


def test_partition_directories(both):
    out, _, _ = both
    expected = {f"crawl={c}" for c, *_ in CRAWLS}
    cli_dirs = {p.name for p in (out / "cli").iterdir()}
    spark_dirs = {p.name for p in (out / "spark").iterdir() if p.is_dir()}
    assert cli_dirs == spark_dirs == expected
    for d in expected:
        assert [p.name for p in (out / "cli" / d).iterdir()] == ["part-00000.parquet"]
        assert list((out / "spark" / d).glob("part-*.parquet"))


def test_damage_is_reported_as_the_command_line_reports_it(both, inputs):
    _, report, cli_problems = both
    got = sorted((p.file, p.offset, p.kind, p.detail) for p in report.problems)
    want = sorted((p["file"], p["offset"], p["kind"], p["detail"]) for p in cli_problems)
    assert got == want
    kinds = {p.kind for p in report.problems}
    assert "io" in kinds and kinds & {"gzip", "truncated", "header"}
    assert any(p.file == inputs[-1] and p.kind == "io" for p in report.problems)
    assert any(p.file == inputs[0] for p in report.problems)


def test_paths_file_over_http(spark, both, inputs, tmp_path_factory):
    """Common Crawl's layout: a gzip list of relative paths and a prefix,
    the files read over HTTP by the executors."""
    out, _, _ = both
    root = tmp_path_factory.mktemp("served")
    relative = []
    for f in inputs[:-1]:
        rel = pathlib.Path("crawl-data") / pathlib.Path(f).parent.name / "robotstxt" / pathlib.Path(f).name
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, root / rel)
        relative.append(rel.as_posix())
    listing = root / "robotstxt.paths.gz"
    listing.write_bytes(gzip.compress(("\n".join(relative) + "\n").encode()))
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        prefix = f"http://127.0.0.1:{server.server_port}/"
        assert rs.expand([str(listing)], prefix=prefix) == [prefix + r for r in relative]
        report = rs.run(spark, [str(listing)], str(out / "http"), prefix=prefix)
    finally:
        server.shutdown()
    _, cli_rows = rows(spark, out / "cli")
    _, http_rows = rows(spark, out / "http")
    assert len(http_rows) == len(cli_rows) == report.rows
    by_name = {pathlib.Path(f).name: f for f in inputs}
    for a, b in zip(cli_rows, http_rows):
        assert b["file"].startswith(prefix + "crawl-data/")
        assert by_name[b["file"].rsplit("/", 1)[1]] == a["file"]
        assert {**b, "file": a["file"]} == a
    assert all(p.file.startswith(prefix) for p in report.problems)


def test_a_list_names_files_directories_and_lists(tmp_path):
    """A local list is expanded as the command line expands it: a line
    may name a directory (its files in order) or another list."""
    (tmp_path / "d").mkdir()
    for name in ["a.warc.gz", "d/y.warc.gz", "d/x.warc.gz"]:
        (tmp_path / name).write_bytes(b"")
    (tmp_path / "sub.paths").write_text("d\n")
    listing = tmp_path / "all.paths"
    listing.write_text("a.warc.gz\nd\n\nsub.paths\n")
    want = [str(tmp_path / n) for n in ["a.warc.gz", "d/x.warc.gz", "d/y.warc.gz", "d/x.warc.gz", "d/y.warc.gz"]]
    assert rs.expand([str(listing)]) == want
    assert rs._native._bulk_expand([str(listing)]) == want
    (tmp_path / "loop.paths").write_text("loop.paths\n")
    with pytest.raises(OSError):
        rs.expand([str(tmp_path / "loop.paths")])


def test_a_list_breaks_lines_as_the_command_line_does(tmp_path):
    """Only a line feed ends a list's line (a CR before it too); a form
    feed or a `\x1c` is part of a name, as the command line reads it."""
    for name in ["a.warc.gz", "b.warc.gz", "a.warc.gz\x0cb.warc.gz"]:
        (tmp_path / name).write_bytes(b"")
    listing = tmp_path / "odd.paths"
    listing.write_bytes("a.warc.gz\r\n  b.warc.gz \x85\na.warc.gz\x0cb.warc.gz\n\x1c\n".encode())
    want = rs._native._bulk_expand([str(listing)])
    assert rs.expand([str(listing)]) == want
    assert [pathlib.Path(p).name for p in want] == ["a.warc.gz", "b.warc.gz", "a.warc.gz\x0cb.warc.gz", "\x1c"]


class CutShort(http.server.BaseHTTPRequestHandler):
    """Announces 1,000 bytes and sends 10."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"0123456789")
        self.wfile.flush()
        self.close_connection = True

    def log_message(self, *args):
        pass


def test_a_download_cut_short_is_an_error():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CutShort)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/CC-MAIN-2024-10/x.warc.gz"
        with pytest.raises(OSError, match="cut short|IncompleteRead"):
            with rs._local_copy(url):
                pass
    finally:
        server.shutdown()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_bad_input_is_reported(spark, tmp_path):
    garbage = tmp_path / "CC-MAIN-2000-01.warc.gz"
    garbage.write_bytes(b"\x1f\x8b\x08\x00not gzip at all" * 10)
    report = rs.run(spark, [str(garbage), str(tmp_path / "nope.warc.gz")], str(tmp_path / "o"))
    assert report.rows == 0 and report.captures == 0
    kinds = {(pathlib.Path(p.file).name, p.kind) for p in report.problems}
    assert ("nope.warc.gz", "io") in kinds
    assert any(name == garbage.name and kind != "io" for name, kind in kinds)
    with pytest.raises(ValueError):
        rs.run(spark, [], str(tmp_path / "o2"))
    with pytest.raises(OSError):
        rs.expand([str(tmp_path / "absent.paths.gz")])
    with pytest.raises(ValueError):
        rs.run(spark, [str(garbage)], str(tmp_path / "o3"), agents=["bad token"])


def test_command_line_help():
    done = subprocess.run([sys.executable, "-m", "robotrules.spark", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    assert "--prefix" in done.stdout and "robotstxt.paths.gz" in done.stdout
