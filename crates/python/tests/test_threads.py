"""Many threads on one ``Robots``, one ``Matcher`` and one drop-in: the
same answers as one thread, and batch checks run in parallel."""

import concurrent.futures
import threading

import robotrules
from conftest import corpus_files

FILES = corpus_files()[:200]
URLS = [f"/{p}/{q}" for p in ("", "search", "wp-admin", "private", "a/b.pdf")
        for q in ("", "x", "index.html", "?q=1", "page.php?id=2")]


def test_many_threads_one_robots():
    bodies = [p.read_bytes() for p in FILES]
    shared = [robotrules.Robots.parse(b) for b in bodies]
    want = [[r.is_allowed("Googlebot", u) for u in URLS] for r in shared]

    def work(seed):
        got = []
        for i, robots in enumerate(shared):
            # Alternate between the paths, sharing everything.
            if (i + seed) % 3 == 0:
                got.append([robots.is_allowed("Googlebot", u) for u in URLS])
            elif (i + seed) % 3 == 1:
                got.append(robots.matcher("Googlebot").is_allowed_many(URLS))
            else:
                m = robots.matcher(["Googlebot"])
                got.append([m.decide(u).allowed for u in URLS])
        return got

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        results = list(pool.map(work, range(32)))
    assert all(r == want for r in results)


def test_one_matcher_many_threads():
    robots = robotrules.Robots.parse(
        b"user-agent: *\ndisallow: /*.pdf$\nallow: /docs/\ndisallow: /\n")
    matcher = robots.matcher("AnyBot")
    urls = [f"/docs/{i}.pdf" if i % 2 else f"/docs/{i}" for i in range(20000)]
    want = [not u.endswith(".pdf") for u in urls]
    barrier = threading.Barrier(8)

    def work(_):
        barrier.wait()
        return matcher.is_allowed_many(urls)

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        assert all(r == want for r in pool.map(work, range(8)))


def test_parse_in_threads():
    bodies = [p.read_bytes() for p in FILES[:50]]
    want = [robotrules.Robots.parse(b).line_count for b in bodies]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda b: robotrules.Robots.parse(b).line_count, bodies))
    assert got == want


def test_dropins_in_threads():
    body = "User-agent: *\nDisallow: /private\n\nUser-agent: MyBot\nDisallow: /mine\n"
    protego = robotrules.Protego.parse(body)
    rp = robotrules.RobotFileParser()
    rp.parse(body.splitlines())
    agents = [f"Mozilla/5.0 (compatible; Bot{i}/1.0)" for i in range(50)] + ["MyBot/2"]

    def work(_):
        return [(protego.can_fetch("/private", a), rp.can_fetch(a, "/mine"))
                for a in agents]

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(64)))
    want = [(False, True)] * 50 + [(True, False)]
    assert all(r == want for r in results)


def test_batch_releases_the_gil():
    """Another thread runs while a batch check is under way: with a long
    switch interval, it can only run when the batch gives up the GIL."""
    import sys
    import time

    robots = robotrules.Robots.parse(b"user-agent: *\ndisallow: /*a*b*c*d$\n")
    matcher = robots.matcher("AnyBot")
    urls = [f"/{'a' * 50}{i}" for i in range(300_000)]
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0)  # gives the GIL back at once

    old = sys.getswitchinterval()
    sys.setswitchinterval(60)
    try:
        thread = threading.Thread(target=spin)
        thread.start()
        time.sleep(0.05)  # the spinner is waiting for the GIL from here on
        before = counter[0]
        got = matcher.is_allowed_many(urls)
        after = counter[0]
        stop.set()
        thread.join()
    finally:
        sys.setswitchinterval(old)
    assert got == [True] * len(urls)
    assert after > before, "the other thread never ran during the batch"
