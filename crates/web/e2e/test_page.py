"""The tester page in a real headless Chromium, driven as a new user would:
paste a file, test URLs, read the verdict and the highlighted line, see
lint markers, edit, share a link, upload, fetch a site, read the audit."""

import re

from playwright.sync_api import expect

import conftest
from conftest import RobotsSite, screenshot

FILE = """\
User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Bingbot
Disallow: /
"""


def ready(page, server, fragment=""):
    page.goto(server + "/" + fragment)
    expect(page.locator("body[data-ready=true]")).to_have_count(1)


def set_query(page, urls, agents):
    page.fill("#urls", "\n".join(urls))
    inputs = page.locator("#agents input")
    while inputs.count() > len(agents):
        page.locator("#agents .agent button").last.click()
    while inputs.count() < len(agents):
        page.click("#add-agent")
    for i, agent in enumerate(agents):
        inputs.nth(i).fill(agent)
    # Wait for the answers to this very question.
    names = [", ".join(n.strip() for n in a.split(",")) for a in agents]
    expect(page.locator("#results td:nth-child(1)")).to_have_text([u for u in urls for _ in agents])
    expect(page.locator("#results td:nth-child(2)")).to_have_text([n for _ in urls for n in names])


def rows(page):
    return page.locator("#results tr")


def fetch(page, url):
    """Fetches a site's robots.txt through the page's form."""
    page.fill("#fetch-url", url)
    page.click("#fetch-button")


def test_opens_with_the_example_and_its_answers(page, server):
    ready(page, server)
    expect(page.locator("#robots")).to_have_value(re.compile("User-agent: GPTBot"))
    expect(rows(page)).to_have_count(9)
    expect(page.locator("#audit tr").first).to_be_visible()
    expect(page.locator("#lint li").first).to_contain_text("RT102")
    screenshot(page, "01-example")


def test_paste_test_a_url_see_the_deciding_line_then_edit(page, server):
    ready(page, server)
    page.fill("#robots", FILE)
    set_query(page, ["https://site.example/private/report.html"], ["FooBot"])
    row = rows(page).first
    expect(rows(page)).to_have_count(1)
    expect(row).to_have_attribute("data-verdict", "disallowed")
    expect(row).to_contain_text("DISALLOWED")
    expect(row).to_contain_text("line 2")
    # The deciding line is highlighted in the editor.
    expect(page.locator("#backdrop .hl.decide-disallow[data-line='2']")).to_have_count(1)
    expect(page.locator("#explanation")).to_contain_text("the * groups apply")
    expect(page.locator("#explanation tr.decides")).to_contain_text("Disallow: /private/")
    screenshot(page, "02-disallowed")

    # A more specific allow decides a URL under it.
    set_query(page, ["https://site.example/private/press/launch"], ["FooBot"])
    expect(rows(page).first).to_have_attribute("data-verdict", "allowed")
    expect(page.locator("#backdrop .hl.decide-allow[data-line='3']")).to_have_count(1)
    expect(page.locator("#backdrop .hl.match[data-line='2']")).to_have_count(1)

    # Editing the file changes the answer.
    page.fill("#robots", FILE.replace("Allow: /private/press/", "Disallow: /private/press/"))
    expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
    expect(page.locator("#backdrop .hl.decide-disallow[data-line='3']")).to_have_count(1)
    screenshot(page, "03-edited")


def test_several_crawlers_and_a_named_group(page, server):
    ready(page, server)
    page.fill("#robots", FILE)
    set_query(page, ["/", "/private/x"], ["bingbot", "Googlebot"])
    expect(rows(page)).to_have_count(4)
    verdicts = [rows(page).nth(i).get_attribute("data-verdict") for i in range(4)]
    assert verdicts == ["disallowed", "allowed", "disallowed", "disallowed"]
    rows(page).first.click()
    expect(page.locator("#explanation")).to_contain_text("named explicitly")


def test_an_empty_disallow_that_decides_says_it_disallows_nothing(page, server):
    ready(page, server)
    page.fill("#robots", "User-agent: *\nDisallow:\n")
    set_query(page, ["/x"], ["FooBot"])
    row = rows(page).first
    expect(row).to_have_attribute("data-verdict", "allowed")
    expect(row).to_contain_text("line 2")
    expect(row).to_contain_text("empty: disallows nothing")
    expect(page.locator("#explanation")).to_contain_text("an empty Disallow:, disallows nothing")


def test_an_empty_allow_that_decides_says_so(page, server):
    ready(page, server)
    page.fill("#robots", "User-agent: *\nDisallow: /a/\nAllow:\n")
    set_query(page, ["/b"], ["FooBot"])
    row = rows(page).first
    expect(row).to_have_attribute("data-verdict", "allowed")
    expect(row).to_contain_text("line 3")
    expect(row).to_contain_text("empty: priority 0, no rule of a higher priority matches")
    row.click()
    expect(page.locator("#explanation")).to_contain_text(
        "an empty Allow:, which matches with priority 0: no rule of a higher priority matches")


def test_lint_markers_at_their_lines(page, server):
    ready(page, server)
    page.fill("#robots", "User-agent: *\nDisallow: /a\nDisalow: /b\nCrawl-delay: ten\n")
    mark = page.locator("#marks .mark[data-line='3']")
    expect(mark).to_have_count(1)
    expect(mark).to_have_attribute("title", re.compile("RT102"))
    expect(page.locator("#lint li[data-line='3']")).to_contain_text("Disalow")
    expect(page.locator("#lint li[data-line='3'] .help")).to_contain_text("help:")
    expect(page.locator("#backdrop .hl[data-line='3']").first).to_be_attached()
    screenshot(page, "04-lint")
    # Fixing the line removes its marker.
    page.fill("#robots", "User-agent: *\nDisallow: /a\nDisallow: /b\n")
    expect(mark).to_have_count(0)


def test_a_shared_link_restores_the_state(page, server, browser):
    ready(page, server)
    text = FILE + "# ünïcödé comment\n"
    page.fill("#robots", text)
    set_query(page, ["/private/a", "/public"], ["FooBot", "Bingbot, BarBot"])
    expect(rows(page)).to_have_count(4)
    expect(page).to_have_url(re.compile("#s="))
    page.wait_for_function("location.hash.length > 3")
    link = page.url
    verdicts = [rows(page).nth(i).get_attribute("data-verdict") for i in range(4)]

    fresh_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    fresh = fresh_context.new_page()
    fresh.goto(link)
    expect(fresh.locator("body[data-ready=true]")).to_have_count(1)
    expect(fresh.locator("#robots")).to_have_value(text)
    expect(fresh.locator("#urls")).to_have_value("/private/a\n/public")
    agents = fresh.locator("#agents input")
    expect(agents).to_have_count(2)
    expect(agents.nth(1)).to_have_value("Bingbot, BarBot")
    expect(rows(fresh)).to_have_count(4)
    assert [rows(fresh).nth(i).get_attribute("data-verdict") for i in range(4)] == verdicts
    screenshot(fresh, "05-shared-link")
    fresh_context.close()


def test_a_link_that_inflates_to_too_much_is_refused(page, server):
    import base64
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    # A state that reads as JSON once inflated: 64 MiB of a file.
    json = b'{"robots": "' + b" " * (64 << 20) + b'", "urls": ["/"]}'
    bomb = packer.compress(json) + packer.flush()
    state = "z" + base64.urlsafe_b64encode(bomb).decode().rstrip("=")
    page.goto(server + "/#s=" + state)
    expect(page.locator("body[data-ready=true]")).to_have_count(1)
    # Not inflated: the page shows its example instead.
    expect(page.locator("#robots")).to_have_value(re.compile("User-agent: GPTBot"))


def test_upload_a_file(page, server, tmp_path):
    ready(page, server)
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\r\nDisallow: /uploaded\r\n")
    set_query(page, ["/uploaded/x"], ["FooBot"])
    page.set_input_files("#upload", str(path))
    expect(page.locator("#robots")).to_have_value(re.compile("Disallow: /uploaded"))
    expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")


LATIN1 = b"User-agent: *\nDisallow: /caf\xe9\n"


def test_a_file_that_is_not_utf8_is_checked_as_its_bytes(page, server, browser, tmp_path):
    # `/caf\xe9` is `/caf%E9`; the editor shows U+FFFD for the byte, whose
    # rule would be `/caf%EF%BF%BD`.
    ready(page, server)
    path = tmp_path / "robots.txt"
    path.write_bytes(LATIN1)
    set_query(page, ["/caf%E9", "/caf%EF%BF%BD"], ["FooBot"])
    page.set_input_files("#upload", str(path))
    expect(page.locator("#bytes-note")).to_be_visible()
    expect(rows(page).nth(0)).to_have_attribute("data-verdict", "disallowed")
    expect(rows(page).nth(1)).to_have_attribute("data-verdict", "allowed")
    screenshot(page, "07-not-utf8")

    # A shared link carries the bytes.
    page.wait_for_function("location.hash.length > 3")
    fresh_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    fresh = fresh_context.new_page()
    fresh.goto(page.url)
    expect(fresh.locator("body[data-ready=true]")).to_have_count(1)
    expect(fresh.locator("#bytes-note")).to_be_visible()
    expect(rows(fresh).nth(0)).to_have_attribute("data-verdict", "disallowed")
    fresh_context.close()

    # Editing replaces the bytes with the text shown.
    page.locator("#robots").press("End")
    page.locator("#robots").type("# edited\n")
    expect(page.locator("#bytes-note")).to_be_hidden()
    expect(rows(page).nth(0)).to_have_attribute("data-verdict", "allowed")
    expect(rows(page).nth(1)).to_have_attribute("data-verdict", "disallowed")

    # So does a fetched file.
    site = RobotsSite(LATIN1)
    try:
        fetch(page, site.url)
        expect(page.locator("#fetch-report")).to_contain_text("available")
        expect(page.locator("#bytes-note")).to_be_visible()
        expect(rows(page).nth(0)).to_have_attribute("data-verdict", "disallowed")
        expect(rows(page).nth(1)).to_have_attribute("data-verdict", "allowed")
    finally:
        site.close()


def test_fetch_from_a_site_on_loopback(page, server):
    site = RobotsSite("User-agent: *\nDisallow: /secret\n\nUser-agent: CCBot\nDisallow: /\n")
    try:
        ready(page, server)
        fetch(page, site.url + "/some/page")
        report = page.locator("#fetch-report")
        expect(report).to_be_visible()
        expect(report).to_contain_text("available")
        expect(report).to_contain_text(f"GET {site.url}/robots.txt → 200")
        expect(report).to_contain_text("cache for 3600 s")
        expect(report).to_contain_text("obey the rules")
        expect(page.locator("#robots")).to_have_value(re.compile("Disallow: /secret"))
        set_query(page, [site.url + "/secret/x"], ["FooBot"])
        expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
        expect(page.locator("#audit tr[data-token='CCBot']")).to_have_attribute("data-access", "disallowed")
        screenshot(page, "06-fetched")
    finally:
        site.close()


def test_a_fetched_file_with_cr_line_ends_is_checked_as_served(page, server):
    site = RobotsSite("User-agent: *\rDisallow: /a\rAllow: /a/b\r")
    try:
        ready(page, server)
        fetch(page, site.url)
        expect(page.locator("#fetch-report")).to_contain_text("available")
        # The editor shows LF; the page says it checks the bytes served,
        # and lint finds their CR line ends, as `robotrules lint` does.
        expect(page.locator("#bytes-note")).to_be_visible()
        expect(page.locator("#lint li[data-code='RT004']")).to_have_count(1)
        set_query(page, [site.url + "/a/x"], ["FooBot"])
        expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
    finally:
        site.close()


def test_a_failed_request_leaves_no_answers_of_the_text_before(page, server):
    ready(page, server)
    page.fill("#robots", FILE)
    set_query(page, ["https://site.example/private/report.html"], ["FooBot"])
    expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
    expect(page.locator("#backdrop .hl.decide-disallow[data-line='2']")).to_have_count(1)
    # Past the 1 MiB a request may carry: refused, and the verdict, the
    # highlight and the lint of the text before are gone.
    page.fill("#robots", "User-agent: *\nAllow: /\n" + "#" * (1100 * 1024))
    expect(page.locator("#status")).to_contain_text("over the size limit")
    expect(rows(page)).to_have_count(0)
    expect(page.locator("#backdrop .hl")).to_have_count(0)
    expect(page.locator("#lint-count")).to_have_text("not checked")
    expect(page.locator("#audit tr")).to_have_count(0)
    # A file that can be checked again is.
    page.fill("#robots", FILE)
    expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
    # Too many URLs: the check is refused, and its old answers go too.
    page.fill("#urls", "\n".join(f"/p{i}" for i in range(1001)))
    expect(page.locator("#status")).to_contain_text("URLs")
    expect(rows(page)).to_have_count(0)


def test_an_audit_too_large_to_send_leaves_lint_and_checks(page, server):
    # 16,000 `User-agent` lines: the audit lists them for every crawler,
    # past the 4 MiB an answer may take.
    ready(page, server)
    text = "User-agent: *\n" * 16000 + "Disallow: /private\n"
    page.eval_on_selector(
        "#robots",
        "(e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }",
        text,
    )
    set_query(page, ["/private/x"], ["FooBot"])
    expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
    expect(page.locator("#audit-summary")).to_contain_text("Not checked: the audit of this file takes more")
    expect(page.locator("#lint-count")).not_to_contain_text("not checked")


def test_an_unreachable_site_disallows_everything(page, server):
    site = RobotsSite("busy", status=503)
    try:
        ready(page, server)
        fetch(page, site.url)
        report = page.locator("#fetch-report")
        expect(report).to_contain_text("unreachable (503)")
        expect(report).to_contain_text("every URL is disallowed")
        expect(page.locator("#robots")).to_have_value("")
        expect(page.locator("#warnings .fetched")).to_contain_text("unreachable (503)")
        # Every URL is disallowed, whatever it is, and the reason is given
        # in place of a rule; the explanation says no rule decides.
        set_query(page, [site.url + "/", site.url + "/any/page"], ["Googlebot"])
        for i in range(2):
            expect(rows(page).nth(i)).to_have_attribute("data-verdict", "disallowed")
            expect(rows(page).nth(i)).to_contain_text("§2.3.1.4")
        expect(page.locator("#explanation")).to_contain_text("the access method decides")
        # So does the audit: every crawler is blocked.
        expect(page.locator("#audit-summary")).to_contain_text("unreachable (503)")
        audit = page.locator("#audit tr")
        expect(audit.first).to_have_attribute("data-access", "disallowed")
        expect(page.locator("#audit tr[data-access='allowed']")).to_have_count(0)
        screenshot(page, "07-unreachable")
        # Rules typed into the editor are judged as rules again.
        page.fill("#robots", "User-agent: *\nDisallow: /any/\n")
        expect(rows(page).nth(0)).to_have_attribute("data-verdict", "allowed")
        expect(rows(page).nth(1)).to_have_attribute("data-verdict", "disallowed")
        expect(page.locator("#warnings .fetched")).to_contain_text("those of the rules in the editor")
    finally:
        site.close()


def test_an_unavailable_site_allows_everything(page, server):
    site = RobotsSite("gone", status=404)
    try:
        ready(page, server)
        fetch(page, site.url)
        expect(page.locator("#fetch-report")).to_contain_text("every URL is allowed")
        set_query(page, [site.url + "/private"], ["Googlebot"])
        expect(rows(page).first).to_have_attribute("data-verdict", "allowed")
        expect(rows(page).first).to_contain_text("§2.3.1.3")
        expect(page.locator("#audit tr[data-access='disallowed']")).to_have_count(0)
    finally:
        site.close()


def test_the_latest_row_clicked_is_explained(page, server):
    # A slow explanation (many wildcard rules, a long URL) asked for
    # first must not replace the one asked for last.
    rules = "".join(f"Disallow: /*a*{i}*b\n" for i in range(1000))
    ready(page, server)
    page.fill("#robots", "User-agent: *\nDisallow: /z\n" + rules)
    slow = "/" + "a" * 60000
    set_query(page, [slow, "/z"], ["Googlebot"])
    rows(page).nth(0).click()
    rows(page).nth(1).click()
    expect(page.locator("#why-subject")).to_have_text("Googlebot → /z")
    expect(page.locator("#explanation")).to_contain_text("Path matched: /z")
    page.wait_for_timeout(1500)
    expect(page.locator("#explanation")).to_contain_text("Path matched: /z")
    expect(page.locator("#explanation tr.decides")).to_contain_text("Disallow: /z")


def test_the_fetched_robots_txt_is_always_allowed(page, server):
    site = RobotsSite("User-agent: *\nDisallow: /\n")
    try:
        ready(page, server)
        fetch(page, site.url)
        expect(page.locator("#fetch-report")).to_contain_text("available")
        set_query(page, [site.url + "/robots.txt"], ["FooBot"])
        expect(page.locator("#warnings")).to_contain_text("which crawlers may always fetch")
    finally:
        site.close()


def test_the_audit_table(page, server):
    ready(page, server)
    page.fill("#robots", "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n")
    gpt = page.locator("#audit tr[data-token='GPTBot']")
    expect(gpt).to_have_attribute("data-access", "disallowed")
    expect(gpt).to_contain_text("named")
    expect(gpt).to_contain_text("blocked")
    bing = page.locator("#audit tr[data-token='Bingbot']")
    expect(bing).to_have_attribute("data-access", "partial")
    expect(bing).to_contain_text("* only")
    # Applebot follows the groups of Googlebot; AdsBot ignores `*`.
    page.fill("#robots", "User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n")
    expect(page.locator("#audit tr[data-token='Applebot']")).to_contain_text("fallback")
    expect(page.locator("#audit tr[data-token='Applebot']")).to_have_attribute("data-access", "partial")
    expect(page.locator("#audit tr[data-token='AdsBot-Google']")).to_have_attribute("data-access", "allowed")
    # ChatGPT-User fetches on a user's request: rules may not keep it out.
    chatgpt = page.locator("#audit tr[data-token='ChatGPT-User']")
    expect(chatgpt).to_have_attribute("data-access", "disallowed")
    expect(chatgpt).to_contain_text("may not obey")
    page.fill("#robots", "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n")
    expect(gpt).not_to_contain_text("may not obey")
    expect(page.locator("#audit-summary")).to_contain_text("AI crawlers: 1 of")
    page.click("#audit-filters button[data-purpose='ai-training']")
    expect(bing).to_have_count(0)
    expect(gpt).to_be_visible()
    screenshot(page, "07-audit")


def test_a_file_over_500_kib_says_how_crawlers_stand_by_what_they_read(page, server, tmp_path):
    ready(page, server)
    head = "User-agent: Googlebot\nDisallow: /g\n\nUser-agent: *\nCrawl-delay: 5\nDisallow: /x\n"
    padding = ("#" * 99 + "\n") * 5300
    tail = "User-agent: Applebot\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n"
    path = tmp_path / "robots.txt"
    path.write_text(head + padding + tail)
    page.set_input_files("#upload", str(path))
    expect(page.locator("#audit tr[data-token='GPTBot']")).to_have_attribute("data-access", "disallowed")
    summary = page.locator("#audit-summary")
    expect(summary).to_contain_text("over 500 KiB")
    # Applebot follows Googlebot's group there; GPTBot gets `*`'s rules
    # and crawl-delay.
    expect(summary).to_contain_text("Applebot is partial (fallback)")
    expect(summary).to_contain_text("GPTBot is partial (* only, crawl-delay 5 s)")


def test_crawler_names_come_from_the_catalogue(page, server):
    ready(page, server)
    options = page.locator("#crawler-names option")
    expect(options.first).to_be_attached()
    values = options.evaluate_all("os => os.map(o => o.value)")
    assert "GPTBot" in values and "Googlebot" in values and len(values) > 40


def test_nothing_pasted_is_logged(page, server):
    ready(page, server)
    marker = "Disallow: /secret-marker-7f3a"
    page.fill("#robots", "User-agent: *\n" + marker + "\n")
    set_query(page, ["/secret-marker-7f3a/x"], ["FooBot"])
    expect(rows(page).first).to_have_attribute("data-verdict", "disallowed")
    expect(page.locator("#lint-count")).to_be_visible()
    log = "".join(conftest.SERVER_LOG)
    assert "is at http://127.0.0.1:" in log
    assert "secret-marker" not in log
