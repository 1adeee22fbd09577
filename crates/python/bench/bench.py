"""Side-by-side speed of robotrules, Protego and urllib.robotparser over
the real corpus (``shared/corpus/real``), in one run.

    python crates/python/bench/bench.py [--repeat N] [--files N]

Measures, in interleaved rounds (each contender once per round, in turn),
reported as the median over the rounds:

1. parse + one check per file, over every file of the corpus;
2. checks per second on one parsed file: one call per URL (robotrules'
   ``Matcher.is_allowed``, Protego's ``can_fetch``, urllib's
   ``can_fetch``), and robotrules' batch call ``Matcher.is_allowed_many``.

Each library gets its input in the type it takes: bytes for robotrules,
``str`` for Protego, a list of lines for urllib (decoding is not timed).
"""

import argparse
import importlib.metadata
import os
import pathlib
import platform
import statistics
import sys
import time
import urllib.robotparser

import protego

import robotrules

AGENT = "Googlebot"
URL = "https://example.com/search/results?q=robots&page=2"


def shared_dir():
    env = os.environ.get("ROBOTRULES_SHARED")
    root = pathlib.Path(__file__).resolve().parents[3]
    return pathlib.Path(env) if env else root.parent / "shared"


def interleaved(contenders, repeat):
    """The median time of each contender over ``repeat`` rounds; each
    round runs every contender once, in turn, so that load on the machine
    slows each one alike."""
    times = {name: [] for name, _ in contenders}
    for _ in range(repeat):
        for name, fn in contenders:
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


def load(limit):
    files = sorted(p for p in (shared_dir() / "corpus" / "real").iterdir() if p.is_file())
    if limit:
        files = files[:limit]
    bodies = [p.read_bytes() for p in files]
    texts = [b.decode("utf-8", "replace") for b in bodies]
    lines = [t.splitlines() for t in texts]
    return files, bodies, texts, lines


def parse_and_check(bodies, texts, lines, repeat):
    def ours():
        for b in bodies:
            robotrules.Robots.parse(b).is_allowed(AGENT, URL)

    def theirs():
        for t in texts:
            protego.Protego.parse(t).can_fetch(URL, AGENT)

    def stdlib():
        for ls in lines:
            rp = urllib.robotparser.RobotFileParser()
            rp.parse(ls)
            rp.can_fetch(AGENT, URL)

    return interleaved((("robotrules", ours), ("protego", theirs),
                        ("urllib", stdlib)), repeat)


def urls_for(robots, n):
    """``n`` URLs: half are the file's rules made concrete with varied
    suffixes and queries (they match, or nearly match, many rules), half
    ordinary site paths. Deterministic."""
    rules = []
    for g in robots.groups:
        for r in g.rules:
            p = r.pattern.replace("*", "x").rstrip("$") or "/"
            rules.append(p if p.startswith("/") else "/" + p)
    suffixes = ["", "index.html", "?id=1", "/deeper/page", ".pdf", "x"]
    ordinary = ["/", "/products/{i}", "/category/item-{i}.html",
                "/blog/2024/{i}/", "/search/about", "/img/logo-{i}.png",
                "/de/hilfe/{i}", "/account/orders?page={i}"]
    out = []
    i = 0
    while len(out) < n:
        if rules and i % 2 == 0:
            p = rules[(i // 2) % len(rules)] + suffixes[(i // 7) % len(suffixes)]
        else:
            p = ordinary[(i // 2) % len(ordinary)].format(i=i)
        out.append(f"https://example.com{p}")
        i += 1
    return out


def checks(files, bodies, texts, lines, n, repeat, name):
    # The file of the Rust benchmarks (100 rules, 42 with wildcards), or
    # the one with the most lines if it is not in the corpus.
    names = [f.name for f in files]
    if name in names:
        i = names.index(name)
    else:
        i = max(range(len(bodies)), key=lambda k: bodies[k].count(b"\n"))
    robots = robotrules.Robots.parse(bodies[i])
    urls = urls_for(robots, n)
    matcher = robots.matcher(AGENT)
    p = protego.Protego.parse(texts[i])
    rp = urllib.robotparser.RobotFileParser()
    rp.parse(lines[i])
    # Same answers before timing anything (URLs here are plain ASCII).
    agree = sum(matcher.is_allowed(u) == p.can_fetch(u, AGENT) for u in urls)
    disallowed = matcher.is_allowed_many(urls).count(False)

    def ours_call():
        for u in urls:
            matcher.is_allowed(u)

    def ours_oneshot():
        for u in urls:
            robots.is_allowed(AGENT, u)

    def ours_batch():
        matcher.is_allowed_many(urls)

    def theirs():
        for u in urls:
            p.can_fetch(u, AGENT)

    def stdlib():
        for u in urls:
            rp.can_fetch(AGENT, u)

    timings = interleaved((("robotrules Matcher.is_allowed", ours_call),
                           ("robotrules Matcher.is_allowed_many", ours_batch),
                           ("robotrules Robots.is_allowed", ours_oneshot),
                           ("protego", theirs), ("urllib", stdlib)), repeat)
    return (files[i].name, len(bodies[i]), matcher.rule_count, disallowed,
            agree, timings)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--files", type=int, default=0, help="only the first N files")
    ap.add_argument("--urls", type=int, default=20_000)
    ap.add_argument("--file", default="protego__uk.rs-online.com.txt",
                    help="the corpus file to check URLs against")
    args = ap.parse_args()

    files, bodies, texts, lines = load(args.files)
    print(f"Python {platform.python_version()} on {platform.machine()}; "
          f"robotrules {robotrules.__version__}, protego "
          f"{importlib.metadata.version('protego')}; median of {args.repeat} rounds")
    print(f"\n## parse + one check per file ({len(files)} files, "
          f"{sum(map(len, bodies)) / 1e6:.1f} MB)\n")
    t = parse_and_check(bodies, texts, lines, args.repeat)
    print("| library | seconds | files/s | vs robotrules |")
    print("|---|---:|---:|---:|")
    for name, s in t.items():
        print(f"| {name} | {s:.3f} | {len(files) / s:,.0f} | {s / t['robotrules']:.1f}x slower |"
              if name != "robotrules" else f"| {name} | {s:.3f} | {len(files) / s:,.0f} | 1 |")
    print(f"\nrobotrules / Protego: {t['protego'] / t['robotrules']:.1f}x; "
          f"robotrules / urllib: {t['urllib'] / t['robotrules']:.1f}x")

    name, size, rules, disallowed, agree, c = checks(
        files, bodies, texts, lines, args.urls, args.repeat, args.file)
    print(f"\n## checks on one parsed file ({name}: {size:,} bytes, {rules} rules "
          f"for {AGENT}; {args.urls:,} URLs, {disallowed:,} disallowed; "
          f"Protego agrees on {agree:,})\n")
    print("| call | seconds | checks/s | robotrules speed-up vs Protego |")
    print("|---|---:|---:|---:|")
    for label, s in c.items():
        print(f"| {label} | {s:.4f} | {args.urls / s:,.0f} | {c['protego'] / s:.1f}x |")
    print(f"\nper call: {c['protego'] / c['robotrules Matcher.is_allowed']:.1f}x Protego; "
          f"batch: {c['protego'] / c['robotrules Matcher.is_allowed_many']:.1f}x Protego")
    return 0


if __name__ == "__main__":
    sys.exit(main())
