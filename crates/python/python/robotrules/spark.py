"""Bulk robots.txt analysis on Apache Spark: the rows of ``robotrules bulk
run``, for a whole Common Crawl crawl.

The job distributes WARC files over Spark's executors and writes the same
rows, in the same Parquet schema, as the command line's ``robotrules bulk
run --partition-by crawl``: a directory partitioned by crawl
(``OUTPUT/crawl=NAME/part-….parquet``). Every step that reads or judges a
capture is the Rust library's (``robotrules-bulk``, through the
``robotrules._native`` extension); Python only moves tuples between them:

1. pass one, per file on the executors: each capture's metadata (crawl,
   URL, position, date rank, status, ``Location``), no body;
2. per URL and crawl (a reduction by key): the capture chosen by the
   library's selection rule (the latest ``WARC-Date``; at the same
   second, the first in the input) and the number of captures;
3. redirects (joins by URL, one per hop): each site whose chosen capture
   is a 3xx is followed one hop at a time by the library's access method
   (at most five hops, loops stopped, RFC 9309 section 2.3.1.2) through
   the chosen captures of its crawl, and attributed to the original site;
4. pass two, per file on the executors: the chosen captures are read
   again by position, evaluated once each by the library, and their rows
   written.

No body ever reaches the driver; the driver only holds the list of input
paths and one small record per file.

Run it from Python::

    from pyspark.sql import SparkSession
    import robotrules.spark

    spark = SparkSession.builder.master("local[2]").getOrCreate()
    report = robotrules.spark.run(spark, ["crawl/"], "sites/")
    print(report.captures, report.rows, len(report.problems))

or from the command line (``python -m robotrules.spark --help``), or with
``spark-submit`` (the path of this file is
``python -c 'import robotrules.spark as s; print(s.__file__)'``).

Inputs are local paths (WARC, WARC.gz, JSON lines or plain robots.txt
files, directories of them), remote files (``s3://bucket/key``,
``https://…``) and lists of paths (``*.paths``, ``*.paths.gz``,
``*.list``: one path a line, such as Common Crawl's
``robotstxt.paths.gz``, relative to ``prefix`` or else to the list's own
location). Executors open each file through :func:`open_input`: a local
file directly; ``s3://`` through boto3 (if installed, with its usual
credentials); ``http://`` and ``https://`` through urllib. A remote file is
copied to a temporary directory for each pass, then deleted.
"""

import argparse
import contextlib
import gzip
import os
import posixpath
import shutil
import sys
import tempfile
import urllib.parse
import urllib.request
from typing import IO, Iterator, List, NamedTuple, Optional, Sequence

if __name__ == "__main__" and not __package__:
    # Run as a script (spark-submit .../robotrules/spark.py): import the
    # installed package, not the modules beside this file.
    del sys.path[0]

from robotrules import _native  # noqa: E402

__all__ = ["Problem", "Report", "expand", "main", "open_input", "run", "schema"]

#: The timeout, in seconds, of an HTTP(S) download.
HTTP_TIMEOUT = 300


class Problem(NamedTuple):
    """Damage found in an input: as ``robotrules bulk run --problems``."""

    file: str
    offset: int
    kind: str
    detail: str


class Report(NamedTuple):
    """What a job did."""

    #: Captures read.
    captures: int
    #: Distinct URLs (per crawl).
    urls: int
    #: Rows written: one per site and crawl.
    rows: int
    #: The damage found, by file and offset.
    problems: List[Problem]


def _is_remote(path: str) -> bool:
    return "://" in path and not path.startswith("file://")


def _local(path: str) -> str:
    return path[len("file://") :] if path.startswith("file://") else path


def open_input(path: str) -> IO[bytes]:
    """Opens an input for reading bytes: a local path (or ``file://``),
    ``s3://bucket/key`` (boto3, which must be installed on the
    executors), or an ``http(s)://`` URL (urllib).

    Raises ``OSError`` when it cannot be read.
    """
    if not _is_remote(path):
        return open(_local(path), "rb")
    url = urllib.parse.urlsplit(path)
    if url.scheme == "s3":
        try:
            import boto3  # type: ignore[import-not-found]
        except ImportError as e:
            raise OSError(f"{path}: reading s3:// needs boto3 (pip install boto3)") from e
        try:
            obj = boto3.client("s3").get_object(Bucket=url.netloc, Key=url.path.lstrip("/"))
        except Exception as e:  # botocore's errors are not OSError
            raise OSError(f"{path}: {e}") from e
        return obj["Body"]
    if url.scheme in ("http", "https"):
        request = urllib.request.Request(path, headers={"User-Agent": "robotrules-spark"})
        return urllib.request.urlopen(request, timeout=HTTP_TIMEOUT)
    raise OSError(f"{path}: unsupported scheme {url.scheme!r} (local, s3, http, https)")


@contextlib.contextmanager
def _local_copy(path: str) -> Iterator[str]:
    """A local file holding ``path``: the file itself, or a copy of a
    remote one under a temporary directory, at the remote path (so that a
    ``CC-MAIN-…`` part of it names the crawl as it does locally)."""
    if not _is_remote(path):
        yield _local(path)
        return
    url = urllib.parse.urlsplit(path)
    parts = [p for p in (url.netloc + "/" + url.path).split("/") if p not in ("", ".", "..")]
    tmp = tempfile.mkdtemp(prefix="robotrules-spark-")
    try:
        local = os.path.join(tmp, *parts)
        os.makedirs(os.path.dirname(local), exist_ok=True)
        with open_input(path) as src, open(local, "wb") as dst:
            try:
                shutil.copyfileobj(src, dst, 1 << 20)
            except OSError:
                raise
            except Exception as e:  # http.client's and botocore's cuts
                raise OSError(f"{path}: {e}") from e
            # urllib returns what came of a body cut short without a word.
            want = _content_length(src)
            if want is not None and dst.tell() != want:
                raise OSError(
                    f"{path}: {dst.tell()} bytes read of the {want} announced: the download was cut short"
                )
        yield local
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _content_length(response: object) -> Optional[int]:
    """The length an HTTP response announced, if it did."""
    headers = getattr(response, "headers", None)
    value = headers.get("Content-Length") if headers is not None else None
    if value is None or not str(value).strip().isdigit():
        return None
    return int(value)


_LISTS = (".paths", ".paths.gz", ".list", ".list.gz")


# Unicode's White_Space, which Rust's `str::trim` strips.
_WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _read_list(path: str, prefix: Optional[str]) -> List[str]:
    with open_input(path) as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    out = []
    # Lines and their white space as the command line reads them (Rust's
    # `str::lines` and `str::trim`): `str.splitlines` would also break at
    # form feeds, `\x1c`-`\x1e` and the like.
    for line in data.decode("utf-8").split("\n"):
        line = line.strip(_WHITE_SPACE)
        if not line:
            continue
        if prefix is not None:
            out.append(prefix.rstrip("/") + "/" + line.lstrip("/"))
        elif _is_remote(line) or os.path.isabs(line):
            out.append(line)
        elif _is_remote(path):
            out.append(posixpath.join(posixpath.dirname(path), line))
        else:
            out.append(os.path.join(os.path.dirname(_local(path)), line))
    return out


# How deep lists may name lists, as ``robotrules bulk run`` allows.
_LIST_DEPTH = 8


def expand(inputs: Sequence[str], prefix: Optional[str] = None) -> List[str]:
    """The input files, in order: lists of paths are read (each line
    relative to ``prefix`` if given, else to the list; a line may name a
    directory or another list), local directories and files expanded as
    ``robotrules bulk run`` expands them (the same order, so the same
    rows), remote files kept as they are."""
    return _expand(inputs, prefix, 0)


def _expand(inputs: Sequence[str], prefix: Optional[str], depth: int) -> List[str]:
    out: List[str] = []
    for path in inputs:
        path = os.fspath(path)
        # As the command line tells them: by their names' ends, in case.
        if path.endswith(_LISTS):
            if depth == _LIST_DEPTH:
                raise OSError(f"{path!r}: lists name lists more than {_LIST_DEPTH} deep")
            out.extend(_expand(_read_list(path, prefix), None, depth + 1))
        elif _is_remote(path):
            out.append(path)
        else:
            out.extend(_native._bulk_expand([_local(path)]))
    return out


def _catalogue_text(catalogue: Optional[str]):
    if catalogue is None:
        return None, False
    with open_input(catalogue) as f:
        text = f.read().decode("utf-8")
    return text, catalogue.lower().endswith(".json")


def schema(agents: Sequence[str] = (), catalogue: Optional[str] = None):
    """The Spark schema of the rows (every column nullable), that of the
    command line's Parquet files: ``crawl``, the site's columns, then
    ``access_``, ``via_`` and ``delay_`` per crawler."""
    from pyspark.sql import types as T

    text, json = _catalogue_text(catalogue)
    kinds = {
        "str": T.StringType(),
        "i32": T.IntegerType(),
        "i64": T.LongType(),
        "f64": T.DoubleType(),
        "bool": T.BooleanType(),
    }
    columns = _native._bulk_schema(list(agents), text, json)
    return T.StructType([T.StructField(name, kinds[kind], True) for name, kind in columns])


# The tuples of _native._bulk_scan's metadata.
_CRAWL, _URL, _ORDER, _SOURCE, _OFFSET, _ORDINAL, _STATUS, _LOCATION, _SITE, _REDIRECT = range(10)


def _pick(a, b):
    """Of two (metadata, count) of one URL, the capture the library's
    order puts first, and both counts."""
    meta = a[0] if a[0][_ORDER] > b[0][_ORDER] else b[0]
    return (meta, a[1] + b[1])


def _problem(path: str, e: BaseException):
    return ("p", (path, 0, "io", str(e) or type(e).__name__))


def _scan(crawl: Optional[str]):
    def scan(items):
        for index, path in items:
            try:
                with _local_copy(path) as local:
                    metas, problems, crawls = _native._bulk_scan(local, index, path, crawl)
            except OSError as e:
                yield _problem(path, e)
                yield ("f", (index, path, [], 0))
                continue
            for m in metas:
                yield ("m", m)
            for p in problems:
                yield ("p", p)
            yield ("f", (index, path, crawls, len(metas)))

    return scan


def _step(state):
    """One hop of a chain: ``("stop", plan entry)`` or ``("next", key,
    state)``."""
    crawl, url, source, offset, ordinal, status, count, locations, hops, final = state
    kind, target, next_hops = _native._bulk_hop(url, locations)
    if kind == "stop":
        followed = (crawl, url, hops, target, final, status)
        return ("stop", (source, (offset, ordinal, count, followed)))
    new = (crawl, url, source, offset, ordinal, status, count, locations, next_hops, target)
    return ("next", ((crawl, target), new))


def _land(item):
    """A chain's hop looked up among the chosen captures: ``("done",
    plan entry)`` or ``("more", state)``."""
    _, (state, chosen) = item
    crawl, url, source, offset, ordinal, status, count, locations, hops, final = state
    if chosen is None:
        followed = (crawl, url, hops, "not_captured", final, status)
        return ("done", (source, (offset, ordinal, count, followed)))
    meta = chosen[0]
    if meta[_REDIRECT]:
        more = (crawl, url, source, offset, ordinal, status, count, locations + [meta[_LOCATION]], hops, final)
        return ("more", more)
    followed = (crawl, url, hops, None, final, status)
    return ("done", (meta[_SOURCE], (meta[_OFFSET], meta[_ORDINAL], count, followed)))


def _evaluate(agents, text, json, lint):
    def evaluate(items):
        for _source, (entries, (path, crawls)) in items:
            todo = {}
            for offset, ordinal, count, followed in entries:
                todo.setdefault((offset, ordinal), []).append((count, followed))
            plan = [(o, n, origins) for (o, n), origins in todo.items()]
            try:
                with _local_copy(path) as local:
                    rows, problems = _native._bulk_rows(
                        local,
                        path,
                        crawls,
                        plan,
                        agents,
                        text,
                        json,
                        lint,
                    )
            except OSError as e:
                yield _problem(path, e)
                continue
            for r in rows:
                yield ("r", r)
            for p in problems:
                yield ("p", p)

    return evaluate


def run(
    spark,
    inputs: Sequence[str],
    output: str,
    *,
    prefix: Optional[str] = None,
    crawl: Optional[str] = None,
    agents: Sequence[str] = (),
    catalogue: Optional[str] = None,
    lint: bool = False,
    mode: str = "errorifexists",
    partitions: Optional[int] = None,
) -> Report:
    """Reads the captures of ``inputs`` (see :func:`expand`) on the
    executors of ``spark`` (a ``SparkSession``) and writes one row per site
    and crawl to ``output`` (a local, ``s3a://`` or ``hdfs://`` directory
    that Spark can write) as Parquet partitioned by crawl.

    ``crawl``, ``agents`` (product tokens), ``catalogue`` (a TOML or
    ``.json`` file) and ``lint`` are the command line's ``--crawl``,
    ``--agents``, ``--catalogue`` and ``--lint``; ``mode`` is Spark's save
    mode; ``partitions`` the number of tasks of each pass (by default one
    per file, at most eight per core of the cluster).

    Damage in the input (a corrupt gzip member, a truncated record, a file
    that cannot be read) does not stop the job: it is in
    :attr:`Report.problems`, with its file and offset.
    """
    from pyspark import StorageLevel

    paths = expand(inputs, prefix)
    if not paths:
        raise ValueError("no input files")
    agents = list(agents)
    text, json = _catalogue_text(catalogue)
    struct = schema(agents, catalogue)
    sc = spark.sparkContext
    n = partitions or max(1, min(len(paths), 8 * sc.defaultParallelism))
    keep = StorageLevel.MEMORY_AND_DISK
    held = []

    def hold(rdd):
        held.append(rdd.persist(keep))
        return rdd

    try:
        # Pass one: metadata, problems and one record per file.
        scanned = hold(sc.parallelize(list(enumerate(paths)), n).mapPartitions(_scan(crawl)))
        files = scanned.filter(lambda r: r[0] == "f").map(lambda r: r[1])
        # One capture per URL and crawl.
        chosen = hold(
            scanned.filter(lambda r: r[0] == "m")
            .map(lambda r: ((r[1][_CRAWL], r[1][_URL]), (r[1], 1)))
            .reduceByKey(_pick, n)
        )
        sites = chosen.filter(lambda kv: kv[1][0][_SITE])
        plan = [
            sites.filter(lambda kv: not kv[1][0][_REDIRECT]).map(
                lambda kv: (kv[1][0][_SOURCE], (kv[1][0][_OFFSET], kv[1][0][_ORDINAL], kv[1][1], None))
            )
        ]
        # Redirects, one hop at a time.
        pending = hold(
            sites.filter(lambda kv: kv[1][0][_REDIRECT]).map(
                lambda kv: (
                    kv[0][0],
                    kv[0][1],
                    kv[1][0][_SOURCE],
                    kv[1][0][_OFFSET],
                    kv[1][0][_ORDINAL],
                    kv[1][0][_STATUS],
                    kv[1][1],
                    [kv[1][0][_LOCATION]],
                    0,
                    kv[0][1],
                )
            )
        )
        for _ in range(_native.MAX_REDIRECTS + 2):
            if pending.isEmpty():
                break
            stepped = hold(pending.map(_step))
            plan.append(stepped.filter(lambda s: s[0] == "stop").map(lambda s: s[1]))
            landed = hold(stepped.filter(lambda s: s[0] == "next").map(lambda s: s[1]).leftOuterJoin(chosen, n).map(_land))
            plan.append(landed.filter(lambda s: s[0] == "done").map(lambda s: s[1]))
            pending = hold(landed.filter(lambda s: s[0] == "more").map(lambda s: s[1]))
        else:
            if not pending.isEmpty():
                raise RuntimeError("a redirect chain went past the limit of redirects")
        # Pass two: the rows.
        todo = sc.union(plan).groupByKey(n)
        out = hold(
            todo.join(files.map(lambda f: (f[0], (f[1], f[2]))), n).mapPartitions(
                _evaluate(agents, text, json, lint)
            )
        )
        rows = out.filter(lambda r: r[0] == "r").map(lambda r: r[1])
        frame = spark.createDataFrame(rows, struct, verifySchema=False)
        frame.orderBy("crawl", "site", "url").write.partitionBy("crawl").mode(mode).parquet(output)

        captures = files.map(lambda f: f[3]).sum()
        urls = chosen.count()
        written = rows.count()
        problems = [
            Problem(*p)
            for p in scanned.filter(lambda r: r[0] == "p")
            .map(lambda r: r[1])
            .union(out.filter(lambda r: r[0] == "p").map(lambda r: r[1]))
            .collect()
        ]
        problems.sort()
        return Report(int(captures), urls, written, problems)
    finally:
        for rdd in held:
            rdd.unpersist()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command line: ``python -m robotrules.spark`` or
    ``spark-submit …/robotrules/spark.py``."""
    parser = argparse.ArgumentParser(
        prog="robotrules.spark",
        description="Reads robots.txt captures (Common Crawl WARC files) on Spark and writes "
        "one row per site and crawl, with every crawler's site-level verdict, as Parquet "
        "partitioned by crawl: the rows of `robotrules bulk run --partition-by crawl`.",
    )
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="WARC/WARC.gz files, directories, s3:// or http(s):// URLs, or lists of paths "
        "(*.paths, *.paths.gz such as Common Crawl's robotstxt.paths.gz)",
    )
    parser.add_argument("-o", "--output", required=True, help="the output directory (local, s3a://, hdfs://)")
    parser.add_argument(
        "--prefix",
        help="what the lines of a list of paths are relative to "
        "(e.g. s3://commoncrawl/ or https://data.commoncrawl.org/)",
    )
    parser.add_argument("--crawl", help="the crawl of every capture (default: from each file)")
    parser.add_argument("--agents", default="", help="judge only these crawlers (comma-separated tokens)")
    parser.add_argument("--catalogue", help="a crawler catalogue (TOML, or .json) instead of the built-in one")
    parser.add_argument("--lint", action="store_true", help="also lint every file")
    parser.add_argument("--mode", default="errorifexists", help="Spark's save mode (default: errorifexists)")
    parser.add_argument("--partitions", type=int, help="tasks per pass (default: one per file, up to 8 per core)")
    parser.add_argument("--problems", help="write every problem found as JSON lines to this local file")
    parser.add_argument("--master", help="the Spark master (default: spark-submit's, else local[*])")
    args = parser.parse_args(argv)

    import json

    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("robotrules-bulk")
    if args.master:
        builder = builder.master(args.master)
        # Local workers run the Python that runs this (a virtual
        # environment's, with robotrules), not the first `python3` on the
        # PATH, unless told otherwise.
        if args.master.startswith("local") and "PYSPARK_PYTHON" not in os.environ:
            builder = builder.config("spark.pyspark.python", sys.executable)
    spark = builder.getOrCreate()
    try:
        report = run(
            spark,
            args.inputs,
            args.output,
            prefix=args.prefix,
            crawl=args.crawl,
            agents=[a for a in args.agents.split(",") if a],
            catalogue=args.catalogue,
            lint=args.lint,
            mode=args.mode,
            partitions=args.partitions,
        )
    except Exception as e:  # Spark's own errors (an output that exists) too
        print(f"robotrules.spark: error: {e}", file=sys.stderr)
        return 1
    finally:
        spark.stop()
    for p in report.problems[:20]:
        print(f"robotrules.spark: warning: {p.file}: offset {p.offset}: {p.kind}: {p.detail}", file=sys.stderr)
    if args.problems:
        with open(args.problems, "w", encoding="utf-8") as f:
            for p in report.problems:
                f.write(json.dumps(p._asdict()) + "\n")
    print(
        f"robotrules.spark: {report.captures} captures, {report.urls} URLs, {report.rows} sites, "
        f"{len(report.problems)} problems",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
