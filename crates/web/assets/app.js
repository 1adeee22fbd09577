// The robots.txt tester. Every answer comes from the server's JSON API
// (the robotrules analysis); this script only asks and shows. The state
// (file, URLs, crawlers) lives in the URL fragment, which browsers never
// send to the server.
"use strict";

const $ = (id) => document.getElementById(id);
const LH = 20; // px per editor line, as in app.css (--lh)
const DEFAULT_URLS = [
  "https://www.example.com/search/about",
  "https://www.example.com/search?q=robots",
  "https://www.example.com/docs/guide.pdf",
];
const DEFAULT_AGENTS = ["Googlebot", "Bingbot", "GPTBot"];

const state = {
  results: [], // {url, agent, check}
  selected: 0,
  explanation: null,
  diagnostics: [],
  audit: [],
  purpose: "all",
  fileGeneration: 0, // the latest lint and audit asked for
  generation: 0, // the latest checks asked for
  explainGeneration: 0, // the latest explanation asked for
  fetched: null, // the report of the last fetch, while its file is shown
  bytes: null, // the file's exact bytes, while the editor cannot show them
};

// ---- small DOM helpers (text only: nothing from a file becomes HTML) ----

function el(tag, props, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function status(text, isError) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", !!isError);
}

async function api(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) {
    // Over the size limit once encoded (base64 for bytes that are not
    // UTF-8 or for CR line ends): say what to do about it.
    const message = response.status === 413
      ? `${data.error || response.statusText}: the file is too large to send once encoded; crawlers read only its first 500 KiB, so test that part`
      : data.error || response.statusText;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

function debounce(fn, ms) {
  let timer = 0;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

// ---- inputs ----

function robotsText() {
  return $("robots").value;
}

// The file as the API takes it: the editor's text, or, for an uploaded or
// fetched file the editor cannot show exactly (not UTF-8, or CR line
// ends), its bytes until it is edited.
function robotsPayload() {
  return state.bytes ? { robots_base64: toBase64(state.bytes) } : { robots: robotsText() };
}

// Shows a file's bytes in the editor, and keeps them for the API if the
// editor's text is not exactly them.
function showFile(bytes) {
  const ta = $("robots");
  ta.value = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  state.bytes = sameBytes(new TextEncoder().encode(ta.value), bytes) ? null : bytes;
  renderBytesNote();
}

function showText(text) {
  $("robots").value = text;
  state.bytes = null;
  renderBytesNote();
}

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function renderBytesNote() {
  $("bytes-note").hidden = !state.bytes;
}

function urls() {
  return $("urls").value.split("\n").map((u) => u.trim()).filter((u) => u);
}

function agents() {
  return [...document.querySelectorAll("#agents input")]
    .map((input) => input.value.split(",").map((n) => n.trim()).filter((n) => n))
    .filter((names) => names.length);
}

function addAgent(value) {
  const input = el("input", {
    type: "text",
    list: "crawler-names",
    value: value || "",
    "aria-label": "Crawler name",
    placeholder: "Crawler name, e.g. Googlebot",
    spellcheck: "false",
  });
  input.addEventListener("input", onQueryChange);
  const remove = el("button", {
    type: "button",
    title: "Remove this crawler",
    "aria-label": "Remove this crawler",
    text: "×",
    onclick: () => {
      row.remove();
      onQueryChange();
    },
  });
  const row = el("div", { class: "agent" }, input, remove);
  $("agents").append(row);
  return input;
}

function setAgents(list) {
  $("agents").replaceChildren();
  for (const a of list.length ? list : [""]) addAgent(a);
}

// ---- the editor: gutter, markers and line highlights ----

function lineCount() {
  return robotsText().split("\n").length;
}

function renderGutter() {
  const n = lineCount();
  let numbers = "";
  for (let i = 1; i <= n; i++) numbers += i + "\n";
  $("numbers").textContent = numbers;
  renderMarks();
}

function renderMarks() {
  const marks = $("marks");
  marks.replaceChildren();
  const worst = new Map();
  const rank = { error: 3, warning: 2, info: 1 };
  for (const d of state.diagnostics) {
    const prev = worst.get(d.line);
    if (!prev || rank[d.severity] > rank[prev[0].severity]) {
      worst.set(d.line, [d].concat(prev || []));
    } else {
      prev.push(d);
    }
  }
  for (const [line, list] of worst) {
    const title = list.map((d) => `${d.code} ${d.message}` + (d.help ? `\nhelp: ${d.help}` : "")).join("\n\n");
    const mark = el("button", {
      type: "button",
      class: `mark ${list[0].severity}`,
      title,
      "aria-label": `line ${line}: ${list[0].code} ${list[0].message}`,
      "data-line": String(line),
      onclick: () => goToLine(line),
    });
    mark.style.top = (6 + (line - 1) * LH) + "px";
    marks.append(mark);
  }
}

function highlight(line, cls) {
  const bar = el("div", { class: `hl ${cls}`, "data-line": String(line) });
  bar.style.top = (6 + (line - 1) * LH) + "px";
  return bar;
}

function renderHighlights() {
  const backdrop = $("backdrop");
  const bars = [];
  for (const d of state.diagnostics) bars.push(highlight(d.line, `lint-${d.severity}`));
  const e = state.explanation;
  if (e) {
    for (const m of e.matches || []) {
      if (!m.decides) bars.push(highlight(m.line, "match"));
    }
    if (e.rule) bars.push(highlight(e.rule.line, e.allowed ? "decide-allow" : "decide-disallow"));
  }
  backdrop.replaceChildren(...bars);
}

function syncScroll() {
  const ta = $("robots");
  $("gutter").style.transform = `translateY(${-ta.scrollTop}px)`;
  $("backdrop").style.transform = `translate(${-ta.scrollLeft}px, ${-ta.scrollTop}px)`;
}

function goToLine(line) {
  const ta = $("robots");
  const lines = ta.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  const end = start + (lines[line - 1] || "").length;
  ta.focus({ preventScroll: true });
  ta.setSelectionRange(start, end);
  const top = (line - 1) * LH;
  if (top < ta.scrollTop || top > ta.scrollTop + ta.clientHeight - 2 * LH) {
    ta.scrollTop = Math.max(0, top - ta.clientHeight / 3);
  }
  syncScroll();
}

function lineLink(line) {
  return el("button", { type: "button", class: "linelink", text: `line ${line}`, onclick: () => goToLine(line) });
}

// ---- answers ----

async function refreshFile() {
  const generation = ++state.fileGeneration;
  const robots = robotsPayload();
  renderGutter();
  // Each answer stands on its own: an audit too large to send (tens of
  // thousands of groups) leaves the lint and the checks.
  const [lint, audit] = await Promise.allSettled([
    api("/api/lint", robots),
    api("/api/audit", robots),
  ]);
  if (generation !== state.fileGeneration) return;
  if (lint.status === "rejected" && audit.status === "rejected") {
    // The file itself was refused (too large): nothing else is asked.
    clearAnswers();
    status(lint.reason.message, true);
    return;
  }
  state.diagnostics = lint.status === "fulfilled" ? lint.value : [];
  state.audit = audit.status === "fulfilled" ? audit.value : [];
  renderLint();
  renderAudit();
  renderMarks();
  renderHighlights();
  if (lint.status === "rejected") $("lint-count").textContent = `not checked: ${lint.reason.message}`;
  if (audit.status === "rejected") $("audit-summary").textContent = `Not checked: ${audit.reason.message}`;
  await refreshChecks();
}

// After a request that failed, nothing shown may describe a file or a
// question it was not the answer to: the answers are taken away.
function clearAnswers() {
  ++state.generation;
  state.diagnostics = [];
  state.audit = [];
  state.results = [];
  state.explanation = null;
  renderLint();
  renderAudit();
  renderResults();
  renderExplanation();
  renderMarks();
  renderHighlights();
  $("lint-count").textContent = "not checked";
  $("audit-summary").textContent = "Not checked.";
}

async function refreshChecks() {
  const generation = ++state.generation;
  const robots = robotsPayload();
  const list = urls();
  const crawlers = agents();
  saveState();
  if (!list.length || !crawlers.length) {
    state.results = [];
    state.explanation = null;
    renderResults();
    renderExplanation();
    renderHighlights();
    return;
  }
  try {
    const answers = await Promise.all(
      crawlers.map((names) => api("/api/check", { ...robots, agents: names, urls: list })),
    );
    if (generation !== state.generation) return;
    const results = [];
    list.forEach((url, i) => {
      crawlers.forEach((names, j) => results.push({ url, agents: names, check: answers[j][i] }));
    });
    state.results = results;
    if (state.selected >= results.length) state.selected = 0;
    renderResults();
    await refreshExplanation(generation);
    status("Up to date");
  } catch (err) {
    if (generation === state.generation) {
      state.results = [];
      state.explanation = null;
      renderResults();
      renderExplanation();
      renderHighlights();
      status(err.message, true);
    }
  }
}

async function refreshExplanation(generation) {
  const row = state.results[state.selected];
  if (!row) return;
  // Only the answer to the latest question is shown: a slow answer for a
  // row clicked before must not replace a newer one.
  const asked = ++state.explainGeneration;
  const e = await api("/api/explain", { ...robotsPayload(), agents: row.agents, url: row.url });
  if (generation !== undefined && generation !== state.generation) return;
  if (asked !== state.explainGeneration) return;
  state.explanation = e;
  renderExplanation();
  renderHighlights();
}

// The access method's verdict for every URL while the editor holds what a
// fetch that found no rules gave (nothing): a robots.txt that is
// unavailable (4xx) allows every URL, one that is unreachable (5xx, a
// network error) disallows every URL (RFC 9309 §2.3.1.3, §2.3.1.4).
// Rules typed into the editor are judged as rules.
function forcedAccess() {
  const r = state.fetched;
  if (!r || r.access === "obey" || robotsText() !== "") return null;
  const allowed = r.access === "allow-all";
  const section = allowed ? "§2.3.1.3" : "§2.3.1.4";
  return { allowed, why: `${r.robots_url} is ${r.outcome}: ${r.verdict} (RFC 9309 ${section})` };
}

/** True for an empty `Disallow:`: it matches every URL and allows it. */
function isEmptyDisallow(rule) {
  return rule.kind === "disallow" && rule.pattern === "";
}

/** True for an empty `Allow:`: priority 0, it decides only where no other rule matches. */
function isEmptyAllow(rule) {
  return rule.kind === "allow" && rule.pattern === "";
}

function renderResults() {
  const body = $("results");
  body.replaceChildren();
  const warnings = new Map();
  const forced = forcedAccess();
  state.results.forEach((row, i) => {
    const c = row.check;
    const allowed = forced ? forced.allowed : c.allowed;
    const verdict = el("span", {
      class: `verdict ${allowed ? "allowed" : "disallowed"}`,
      text: allowed ? "ALLOWED" : "DISALLOWED",
    });
    const rule = forced
      ? el("span", { class: "muted", text: forced.why })
      : c.rule
        ? el(
            "span",
            {},
            lineLink(c.rule.line),
            " ",
            el("span", { class: "mono", text: `${c.rule.kind}: ${c.rule.pattern}` }),
            // As the explanation says it: the reference names an empty
            // `Disallow:` that matched, which disallows nothing.
            isEmptyDisallow(c.rule)
              ? el("span", { class: "muted", text: " (empty: disallows nothing)" })
              : isEmptyAllow(c.rule)
                ? el("span", { class: "muted", text: " (empty: priority 0, no rule of a higher priority matches)" })
                : "",
          )
        : el("span", { class: "muted", text: "no rule matches" });
    const tr = el(
      "tr",
      {
        class: i === state.selected ? "selected" : "",
        "data-verdict": allowed ? "allowed" : "disallowed",
        onclick: async (event) => {
          if (event.target.closest(".linelink")) return;
          state.selected = i;
          renderResults();
          try {
            await refreshExplanation();
          } catch (err) {
            status(err.message, true);
          }
        },
      },
      el("td", { class: "mono", text: row.url }),
      el("td", { class: "mono", text: row.agents.join(", ") }),
      el("td", {}, verdict),
      el("td", {}, rule),
    );
    body.append(tr);
    for (const w of c.warnings) warnings.set(w.message, w);
  });
  const notes = [...warnings.values()].map((w) => el("p", { text: "⚠ " + w.message }));
  const r = state.fetched;
  if (forced) {
    notes.unshift(el("p", { class: "fetched", text: `⚠ ${r.robots_url} is ${r.outcome}: for crawlers, ${r.verdict}. The verdicts above are the access method's; rules typed in the editor are judged as rules.` }));
  } else if (r && r.access !== "obey") {
    notes.unshift(el("p", { class: "fetched", text: `⚠ ${r.robots_url} is ${r.outcome}: for crawlers, ${r.verdict}. The verdicts above are those of the rules in the editor.` }));
  }
  // The fetched site's own robots.txt: crawlers may always fetch it.
  if (r && state.results.some((row) => isRobotsTxt(row.url, r.robots_url))) {
    notes.push(el("p", { class: "fetched", text: `⚠ ${r.robots_url} is the site's robots.txt, which crawlers may always fetch (RFC 9309 §2.2.2), whatever the rules say.` }));
  }
  $("warnings").replaceChildren(...notes);
}

// Whether `url` is exactly the fetched robots.txt (no query).
function isRobotsTxt(url, robotsUrl) {
  try {
    const a = new URL(url);
    const b = new URL(robotsUrl);
    return a.origin === b.origin && a.pathname === b.pathname && a.search === "";
  } catch {
    return false;
  }
}

function quote(q) {
  return el("span", {}, lineLink(q.line), " ", el("span", { class: "quote", text: q.text }));
}

function renderExplanation() {
  const box = $("explanation");
  const e = state.explanation;
  const row = state.results[state.selected];
  $("why-subject").textContent = row ? `${row.agents.join(", ")} → ${row.url}` : "";
  if (!e || !row) {
    box.replaceChildren(el("p", { class: "muted", text: "Add a URL and a crawler to see why." }));
    return;
  }
  const forced = forcedAccess();
  if (forced) {
    const verdict = el("span", { class: `verdict ${forced.allowed ? "allowed" : "disallowed"}`, text: forced.allowed ? "ALLOWED" : "DISALLOWED" });
    box.replaceChildren(
      el("p", { text: `No rules were read: ${forced.why}.` }),
      el("p", {}, "Verdict: ", verdict, " (the access method decides, not a rule)"),
    );
    return;
  }
  const parts = [];
  const who = e.agents.join(", ");
  parts.push(el("p", {}, "Path matched: ", el("span", { class: "quote", text: e.path })));
  if (!e.groups.length) {
    parts.push(el("p", { text: `No group names ${who} and there is no * group: every URL is allowed.` }));
  } else if (e.named) {
    const ignored = e.ignored_global_groups.length ? ", so the * groups are ignored" : "";
    parts.push(el("p", { text: `Group chosen: ${who} is named explicitly${ignored}.` }));
  } else {
    parts.push(el("p", { text: `No group names ${who}, so the * groups apply.` }));
  }
  for (const g of e.groups) {
    const p = el("p", {}, `Group at lines ${g.line}–${g.end_line}, chosen by `);
    g.matched_by.forEach((q, i) => {
      if (i) p.append(", ");
      p.append(quote(q));
    });
    parts.push(p);
  }
  for (const g of e.ignored_global_groups) {
    parts.push(el("p", { class: "muted" }, `Ignored: the * group at lines ${g.line}–${g.end_line}.`));
  }
  if (e.groups.length) {
    if (!e.matches.length) {
      parts.push(el("p", { text: "No rule of these groups matches the path." }));
    } else {
      const rows = e.matches.map((m) =>
        el(
          "tr",
          { class: m.decides ? "decides" : "" },
          el("td", {}, lineLink(m.line)),
          el("td", { class: "mono", text: m.text }),
          el("td", { text: m.kind }),
          el("td", { text: String(m.priority) + (m.index_retry ? " (index.html)" : "") }),
          el("td", { text: m.decides ? "← decides" : "" }),
        ),
      );
      parts.push(el("p", { text: "Rules that match (the longest match decides; allow wins a tie):" }));
      parts.push(
        el(
          "table",
          { class: "matches" },
          el("thead", {}, el("tr", {}, ...["Line", "Rule", "Kind", "Priority", ""].map((h) => el("th", { text: h })))),
          el("tbody", {}, ...rows),
        ),
      );
      if (e.omitted_matches) {
        parts.push(el("p", { class: "muted", text: `… and ${e.omitted_matches} more matching rules, not listed.` }));
      }
    }
  }
  const verdict = el("span", { class: `verdict ${e.allowed ? "allowed" : "disallowed"}`, text: e.allowed ? "ALLOWED" : "DISALLOWED" });
  const by = !e.rule
    ? "(no rule decides)"
    : isEmptyDisallow(e.rule)
      ? el("span", {}, "(", lineLink(e.rule.line), ", an empty Disallow:, disallows nothing)")
      : isEmptyAllow(e.rule)
        ? el("span", {}, "(", lineLink(e.rule.line), ", an empty Allow:, which matches with priority 0: no rule of a higher priority matches)")
        : el("span", {}, "by ", lineLink(e.rule.line));
  parts.push(el("p", {}, "Verdict: ", verdict, " ", by));
  // A file over 500 KiB: what crawlers, which read only that much, get.
  const f = e.as_fetched;
  if (f && (e.beyond_fetch_limit || f.allowed !== e.allowed)) {
    const theirs = `${f.allowed ? "ALLOWED" : "DISALLOWED"} ${f.rule ? `by line ${f.rule.line}` : "(no rule decides)"}`;
    const text = e.beyond_fetch_limit
      ? `⚠ The deciding line lies beyond the first 500 KiB, which crawlers do not read: for them the URL is ${theirs}.`
      : `⚠ Crawlers read only the first 500 KiB of the file, and lines beyond it decide this verdict: for them the URL is ${theirs}.`;
    parts.push(el("p", { class: "warnings", text }));
  }
  box.replaceChildren(...parts);
}

function renderLint() {
  const list = $("lint");
  const d = state.diagnostics;
  const count = (s) => d.filter((x) => x.severity === s).length;
  $("lint-count").textContent = d.length
    ? `${count("error")} errors, ${count("warning")} warnings, ${count("info")} notes`
    : "no problems found";
  list.replaceChildren(
    ...d.map((x) =>
      el(
        "li",
        { "data-line": String(x.line), "data-code": x.code, onclick: () => goToLine(x.line) },
        el("span", { class: `dot ${x.severity}` }),
        " ",
        el("span", { class: "where", text: `line ${x.line}:${x.column}` }),
        " ",
        el("span", { class: "code-id", text: x.code }),
        " ",
        x.message,
        x.help ? el("div", { class: "help", text: "help: " + x.help }) : null,
      ),
    ),
  );
}

const PURPOSES = [];

function renderAudit() {
  // While a fetch found no rules, every crawler stands as the access
  // method says.
  const forced = forcedAccess();
  const rows = forced
    ? state.audit.map((s) => ({ ...s, access: forced.allowed ? "allowed" : "disallowed", via: "access", named: false, lines: [], as_fetched: null }))
    : state.audit;
  const ai = rows.filter((s) => s.purpose.startsWith("ai"));
  const n = (list, access) => list.filter((s) => s.access === access).length;
  // A file over 500 KiB: crawlers that stand otherwise by the part they read.
  const differ = rows.filter(
    (s) =>
      s.as_fetched &&
      (s.as_fetched.access !== s.access ||
        s.as_fetched.via !== s.via ||
        s.as_fetched.lines.join() !== s.lines.join() ||
        s.as_fetched.allowed_path !== s.allowed_path ||
        s.as_fetched.disallowed_path !== s.disallowed_path ||
        s.as_fetched.crawl_delay !== s.crawl_delay),
  );
  // How a crawler's rules are chosen, as the table says it.
  const viaText = (f) => ({ named: "named", fallback: "fallback", none: "no group" })[f.via] || "* only";
  const delayText = (s, f) =>
    f.crawl_delay === s.crawl_delay ? "" : f.crawl_delay === null ? ", no crawl-delay" : `, crawl-delay ${f.crawl_delay} s`;
  const r = state.fetched;
  const fetchedNote = forced
    ? `⚠ ${r.robots_url} is ${r.outcome}: for crawlers, ${r.verdict}; the table says so. `
    : r && r.access !== "obey"
      ? `⚠ ${r.robots_url} is ${r.outcome}: for crawlers, ${r.verdict}; the table judges the rules in the editor. `
      : "";
  $("audit-summary").textContent =
    fetchedNote +
    `AI crawlers: ${n(ai, "disallowed")} of ${ai.length} blocked from the whole site, ${n(ai, "partial")} partially, ${n(ai, "allowed")} allowed. ` +
    `All ${rows.length} crawlers: ${n(rows, "disallowed")} blocked, ${n(rows, "partial")} partial, ${n(rows, "allowed")} allowed.` +
    (differ.length
      ? ` ⚠ The file is over 500 KiB, which is all crawlers read: by that part, ${differ.map((s) => `${s.token} is ${s.as_fetched.access} (${viaText(s.as_fetched)}${delayText(s, s.as_fetched)})`).join(", ")}.`
      : "");
  const purposes = ["all", ...new Set(rows.map((s) => s.purpose))];
  if (PURPOSES.join() !== purposes.join()) {
    PURPOSES.splice(0, PURPOSES.length, ...purposes);
    $("audit-filters").replaceChildren(
      ...purposes.map((p) =>
        el("button", {
          type: "button",
          text: p,
          "data-purpose": p,
          "aria-pressed": String(p === state.purpose),
          onclick: () => {
            state.purpose = p;
            for (const b of document.querySelectorAll("#audit-filters button")) {
              b.setAttribute("aria-pressed", String(b.dataset.purpose === p));
            }
            renderAudit();
          },
        }),
      ),
    );
  }
  const shown = rows.filter((s) => state.purpose === "all" || s.purpose === state.purpose);
  $("audit").replaceChildren(
    ...shown.map((s) => {
      const label = { allowed: "allowed", partial: "partial", disallowed: "blocked", unknown: "unknown" }[s.access] || s.access;
      const access = el("td", {}, el("span", { class: `verdict ${s.access}`, text: label }));
      if (s.access === "partial") {
        access.append(" ", el("span", { class: "muted mono", text: `e.g. ${s.disallowed_path} blocked` }));
      }
      if (s.user_initiated && s.access !== "allowed" && ["named", "global", "fallback"].includes(s.via)) {
        access.append(" ", el("span", { class: "muted", title: s.note || "", text: "(fetches on a user's request: may not obey)" }));
      }
      const via = el("td", { class: s.named ? "via-named" : "" });
      if (s.via === "access") via.append(r.outcome);
      else if (s.via === "none") via.append("no group");
      else {
        via.append(s.named ? "named, " : s.via === "fallback" ? "fallback, " : "* only, ");
        s.lines.forEach((line, i) => {
          if (i) via.append(", ");
          via.append(lineLink(line));
        });
      }
      return el(
        "tr",
        { "data-token": s.token, "data-access": s.access },
        el("td", { title: s.note || "", text: s.token }),
        el("td", { text: s.operator }),
        el("td", { text: s.purpose }),
        via,
        access,
      );
    }),
  );
}

// ---- fetching a site's robots.txt ----

async function fetchSite(event) {
  event.preventDefault();
  const url = $("fetch-url").value.trim();
  if (!url) return;
  const box = $("fetch-report");
  $("fetch-button").disabled = true;
  status("Fetching…");
  try {
    const data = await api("/api/fetch", { url });
    const r = data.report;
    const hops = el("ol", {}, ...r.hops.map((h) => el("li", { text: `${h.request} → ${h.status === null ? "no response" : h.status}` })));
    const lifetime = r.cache_lifetime_seconds === null
      ? `retry at ${r.next_fetch}`
      : `cache for ${r.cache_lifetime_seconds} s (until ${r.next_fetch})`;
    box.replaceChildren(
      el("div", {}, el("strong", { text: r.robots_url }), ` — ${r.outcome}`),
      hops,
      el("div", { text: `${r.bytes_read} bytes read${r.truncated ? " — cut at 500 KiB: crawlers ignore the rest" : ""}; ${lifetime}${r.retry_after ? `; Retry-After ${r.retry_after}` : ""}` }),
      el("div", { class: "meaning", text: `For crawlers: ${r.verdict}.` }),
    );
    box.classList.toggle("bad", r.access !== "obey");
    box.hidden = false;
    state.fetched = r;
    // As bytes either way: the editor turns CR line ends into LF, and the
    // file is checked as it was served until it is edited.
    if (data.robots_base64 !== null && data.robots_base64 !== undefined) showFile(fromBase64(data.robots_base64));
    else showFile(new TextEncoder().encode(data.robots));
    if (urls().join("\n") === DEFAULT_URLS.join("\n")) {
      $("urls").value = r.authority + "/";
    }
    await refreshFile();
    status("Fetched");
  } catch (err) {
    box.replaceChildren(el("div", { text: `Fetch failed: ${err.message}` }));
    box.classList.add("bad");
    box.hidden = false;
    status(err.message, true);
  } finally {
    $("fetch-button").disabled = false;
  }
}

async function upload() {
  const file = $("upload").files[0];
  if (!file) return;
  if (file.size > 1024 * 1024) {
    status("That file is over 1 MiB; crawlers read only the first 500 KiB.", true);
    return;
  }
  showFile(new Uint8Array(await file.arrayBuffer()));
  $("fetch-report").hidden = true;
  state.fetched = null;
  $("upload").value = "";
  onFileChange.now();
}

async function loadExample() {
  const response = await fetch("/example.txt");
  showText(await response.text());
  $("fetch-report").hidden = true;
  state.fetched = null;
  onFileChange.now();
}

// ---- the state in the URL fragment ----

function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text) {
  const s = atob(text);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes;
}

function toBase64Url(bytes) {
  return toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  return fromBase64(text.replace(/-/g, "+").replace(/_/g, "/"));
}

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

async function encodeState() {
  const json = new TextEncoder().encode(JSON.stringify({ ...robotsPayload(), urls: urls(), agents: agents() }));
  if (typeof CompressionStream === "function") {
    return "z" + toBase64Url(await pipe(json, new CompressionStream("deflate-raw")));
  }
  return "j" + toBase64Url(json);
}

// A link's state is at most what one request carries, with room: a link
// made to inflate to gigabytes is refused, not inflated.
const MAX_STATE_BYTES = 4 << 20;

async function inflateState(bytes) {
  const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_STATE_BYTES) {
      await reader.cancel();
      throw new Error("the link's state is too large");
    }
    parts.push(value);
  }
  return new Uint8Array(await new Blob(parts).arrayBuffer());
}

async function decodeState(text) {
  let bytes = fromBase64Url(text.slice(1));
  if (text[0] === "z") bytes = await inflateState(bytes);
  const s = JSON.parse(new TextDecoder().decode(bytes));
  return {
    robots: String(s.robots || ""),
    bytes: typeof s.robots_base64 === "string" ? fromBase64(s.robots_base64) : null,
    urls: Array.isArray(s.urls) ? s.urls.map(String) : [],
    agents: Array.isArray(s.agents) ? s.agents.map((a) => (Array.isArray(a) ? a.map(String) : [String(a)])) : [],
  };
}

let saving = Promise.resolve();
function saveState() {
  saving = saving.then(async () => {
    const hash = "#s=" + (await encodeState());
    if (location.hash !== hash) history.replaceState(null, "", hash);
  });
  return saving;
}

async function share() {
  await saveState();
  try {
    await navigator.clipboard.writeText(location.href);
    status("Link copied: it carries the file, URLs and crawlers");
  } catch {
    status("Copy the address bar: it carries the file, URLs and crawlers");
  }
}

// ---- wiring ----

const onFileChange = debounce(refreshFile, 250);
onFileChange.now = refreshFile;
const onQueryChange = debounce(() => refreshChecks(), 250);

async function loadCatalogue() {
  try {
    const response = await fetch("/api/catalogue");
    const crawlers = await response.json();
    $("crawler-names").replaceChildren(
      ...crawlers.map((c) => el("option", { value: c.token, label: `${c.operator} · ${c.purpose}` })),
    );
  } catch {
    // Names can still be typed.
  }
}

async function start() {
  const ta = $("robots");
  ta.addEventListener("input", () => {
    if (state.bytes) {
      state.bytes = null;
      renderBytesNote();
    }
    renderGutter();
    onFileChange();
  });
  ta.addEventListener("scroll", syncScroll);
  ta.addEventListener("keydown", (event) => {
    if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.altKey) {
      event.preventDefault();
      document.execCommand("insertText", false, "\t");
    }
  });
  $("urls").addEventListener("input", onQueryChange);
  $("add-agent").addEventListener("click", () => addAgent("").focus());
  $("fetch-form").addEventListener("submit", fetchSite);
  $("upload").addEventListener("change", upload);
  $("example").addEventListener("click", loadExample);
  $("share").addEventListener("click", share);
  loadCatalogue();

  let loaded = false;
  if (location.hash.startsWith("#s=")) {
    try {
      const s = await decodeState(location.hash.slice(3));
      if (s.bytes) showFile(s.bytes);
      else showText(s.robots);
      $("urls").value = s.urls.join("\n");
      setAgents(s.agents.map((names) => names.join(", ")));
      loaded = true;
    } catch {
      status("The link's state could not be read; showing the example.", true);
    }
  }
  if (!loaded) {
    const response = await fetch("/example.txt");
    showText(await response.text());
    $("urls").value = DEFAULT_URLS.join("\n");
    setAgents(DEFAULT_AGENTS);
  }
  await refreshFile();
  document.body.dataset.ready = "true";
}

start();
