"""The bulk job written in Python as a researcher would write it with warcio
and Protego, for BENCHMARKS.md: the same rows as `robotrules bulk run`, as
far as Protego can give them, to Parquet with pyarrow.

    python crates/bulk/bench/peer_job.py TOKENS_FILE OUT.parquet WARC.gz...

Per `response` record: the site and the capture's date; one capture per
URL (the latest `WARC-Date`, the first one read at the same second); the
status's class (2xx success, 3xx redirect, 4xx but 429 unavailable, else
unreachable); for a success, the body as warcio decodes it (chunks joined,
`Content-Encoding` undone) cut at 500 KiB, its size, an MD5 of it, whether
it is an HTML page, counts of groups, rules and sitemaps, and per crawler
of the list its access to the site, how a group applies to it and its
crawl-delay. Redirects are followed through the captures, at most five
hops. Printed: captures, seconds, captures per second.

Protego answers per URL and has no site-level verdict. Access here is read
from the rules of the group Protego picks for the crawler (through the
`_get_matching_rule_set` and `_rules` that its `can_fetch` uses): a crawler
barred from `/` is `disallowed` unless the group has an `allow` rule, then
`partial`; one that may fetch `/` is `partial` if the group has a
`disallow` rule. That is cheaper than the exact verdicts of the Rust job,
which, for example, knows when an `allow` reopens nothing. Not done here:
the 500 KiB cut at a line, operators' fallbacks (Applebot reading
Googlebot's groups), lint, the summary.
"""

import hashlib
import re
import sys
import time
from urllib.parse import urljoin, urlsplit

import pyarrow as pa
import pyarrow.parquet as pq
from protego import Protego
from warcio.archiveiterator import ArchiveIterator

LIMIT = 500 * 1024
HOPS = 5
GROUPS = re.compile(
    rb"(?im)^[ \t]*user-agent[ \t]*:[^\n]*(?:\n[ \t]*user-agent[ \t]*:[^\n]*)*"
)
RULES = re.compile(rb"(?im)^[ \t]*(?:dis)?allow[ \t]*:")
HTML = re.compile(rb"(?i)^\s*<(?:!doctype html|html|head|body)")


def status_class(status):
    if status is None:
        return "unreachable"
    if 200 <= status < 300:
        return "success"
    if 300 <= status < 400:
        return "redirect"
    if 400 <= status < 500 and status != 429:
        return "unavailable"
    return "unreachable"


def site_of(url):
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.lower()}"


def judge(body, tokens):
    """The per-file columns and the per-crawler verdicts of a 200 body."""
    html = HTML.match(body) is not None
    rp = Protego.parse(body.decode("utf-8", "replace"))
    verdicts = []
    # Most crawlers get the same group (`*`): judge each group once.
    judged = {}
    for token in tokens:
        rules = rp._get_matching_rule_set(token)
        if rules is None:
            verdicts.append(("allowed", "none", None))
            continue
        verdict = judged.get(id(rules))
        if verdict is None:
            fields = {rule.field for rule in rules._rules}
            if not rules.can_fetch("/"):
                access = "partial" if "allow" in fields else "disallowed"
            else:
                access = "partial" if "disallow" in fields else "allowed"
            via = "global" if rules.user_agent == "*" else "named"
            verdict = judged[id(rules)] = (access, via, rules.crawl_delay)
        verdicts.append(verdict)
    return {
        "body_kind": "html" if html else "text",
        "groups": len(GROUPS.findall(body)),
        "rules": len(RULES.findall(body)),
        "sitemaps": len(list(rp.sitemaps)),
    }, verdicts


def main():
    tokens = [t.strip() for t in open(sys.argv[1]) if t.strip()]
    out = sys.argv[2]
    start = time.perf_counter()
    best = {}
    captures = 0
    for path in sys.argv[3:]:
        with open(path, "rb") as f:
            records = ArchiveIterator(f)
            for record in records:
                if record.rec_type != "response":
                    continue
                captures += 1
                url = record.rec_headers.get_header("WARC-Target-URI")
                date = record.rec_headers.get_header("WARC-Date")
                seen = best.get(url)
                if seen is not None and seen["date"] >= date:
                    seen["captures"] += 1
                    continue
                http = record.http_headers
                code = http.get_statuscode() if http else None
                status = int(code) if code and code.isdigit() else None
                row = {
                    "site": site_of(url),
                    "url": url,
                    "captures": 1 + (seen["captures"] if seen else 0),
                    "date": date,
                    "file": path,
                    "offset": None,
                    "status": status,
                    "class": status_class(status),
                    "location": None,
                    "body_kind": None,
                    "size": None,
                    "truncated": None,
                    "hash": None,
                    "groups": None,
                    "rules": None,
                    "sitemaps": None,
                    "verdicts": None,
                }
                row["own_class"] = row["class"]
                if row["class"] == "redirect":
                    location = record.http_headers.get_header("Location")
                    row["location"] = urljoin(url, location) if location else None
                elif row["class"] == "success":
                    body = record.content_stream().read(LIMIT + 1)
                    row["truncated"] = len(body) > LIMIT
                    body = body[:LIMIT]
                    row["size"] = len(body)
                    row["hash"] = hashlib.md5(body).hexdigest()
                    counts, row["verdicts"] = judge(body, tokens)
                    row.update(counts)
                # warcio knows the offset once the record is read.
                row["offset"] = records.get_record_offset()
                best[url] = row

    for row in best.values():
        row["hops"] = 0
        row["redirect_stop"] = None
        row["final_url"] = row["url"]
        if row["class"] != "redirect":
            continue
        seen = {row["url"]}
        target = row
        while target["own_class"] == "redirect":
            nxt = target["location"]
            if nxt is None:
                row["redirect_stop"] = "no_location"
                break
            if row["hops"] == HOPS:
                row["redirect_stop"] = "too_many"
                break
            if nxt in seen:
                row["redirect_stop"] = "loop"
                break
            seen.add(nxt)
            row["hops"] += 1
            row["final_url"] = nxt
            target = best.get(nxt)
            if target is None:
                row["redirect_stop"] = "not_captured"
                break
        stop = row["redirect_stop"]
        if stop in ("loop", "too_many"):
            row["class"] = "unavailable"
        elif stop == "no_location":
            row["class"] = "unreachable"
        elif stop is None:
            for key in ("file", "offset", "body_kind", "size", "truncated",
                        "hash", "groups", "rules", "sitemaps", "verdicts"):
                row[key] = target[key]
            row["status"] = target["status"]
            row["class"] = target["class"]

    columns = {key: [] for key in (
        "site", "url", "captures", "hops", "redirect_stop", "final_url",
        "date", "file", "offset", "status", "class", "body_kind", "size",
        "truncated", "hash", "groups", "rules", "sitemaps")}
    access = [[] for _ in tokens]
    via = [[] for _ in tokens]
    delay = [[] for _ in tokens]
    for row in best.values():
        if urlsplit(row["url"]).path != "/robots.txt":
            continue
        for key, values in columns.items():
            values.append(row[key])
        verdicts = row["verdicts"]
        if verdicts is None:
            if row["class"] == "unavailable":
                word = "allowed"
            elif row["class"] == "redirect":
                word = "unknown"
            else:
                word = "disallowed"
            verdicts = [(word, None, None)] * len(tokens)
        for i, (a, v, d) in enumerate(verdicts):
            access[i].append(a)
            via[i].append(v)
            delay[i].append(d)
    for i, token in enumerate(tokens):
        columns[f"access_{token}"] = access[i]
        columns[f"via_{token}"] = via[i]
        columns[f"delay_{token}"] = delay[i]
    pq.write_table(pa.table(columns), out, compression="snappy")

    secs = time.perf_counter() - start
    print(f"{captures} captures {secs:.2f} s {captures / secs:.0f} captures/s "
          f"({len(columns['url'])} rows)")


if __name__ == "__main__":
    main()
