"""The bulk job written the usual way in Python, for BENCHMARKS.md: warcio
reads the WARC.gz files, Protego parses each 200 body, and each crawler of
a list is checked on "/" (the per-URL question Protego answers; it has no
site-level verdict). Redirects are not followed: this is the lower bound
of the work the Rust job does.

    python crates/bulk/bench/peer.py TOKENS_FILE WARC.gz...

Prints one line: captures, seconds, captures per second.
"""

import sys
import time

from protego import Protego
from warcio.archiveiterator import ArchiveIterator


def main():
    tokens = [t.strip() for t in open(sys.argv[1]) if t.strip()]
    start = time.perf_counter()
    captures = 0
    blocked = 0
    for path in sys.argv[2:]:
        with open(path, "rb") as f:
            for record in ArchiveIterator(f):
                if record.rec_type != "response":
                    continue
                captures += 1
                status = int(record.http_headers.get_statuscode() or 0)
                body = record.content_stream().read(500 * 1024)
                if status != 200:
                    continue
                rp = Protego.parse(body.decode("utf-8", "replace"))
                for t in tokens:
                    if not rp.can_fetch("/", t):
                        blocked += 1
    secs = time.perf_counter() - start
    print(f"{captures} captures {secs:.2f} s {captures / secs:.0f} captures/s "
          f"({blocked} blocked verdicts)")


if __name__ == "__main__":
    main()
