//! Checks of the `allow` and `disallow` rules: RT106–RT109, RT205–RT208.

use std::collections::HashMap;

use robotrules::{Coverage, Group, Rule, RuleKind};

use super::super::Ctx;
use crate::lint::Code;
use crate::text::show;

/// How many pairs of rules RT206 compares in all. It is a hint, and
/// comparing costs a few matches per pair: the budget bounds its work on
/// huge files.
pub(crate) const EQUAL_PRIORITY_BUDGET: usize = 200_000;

/// The same set of paths, written without redundant trailing `*`: `/a**`
/// is `/a`, and `*` is `/` (every path starts with `/`). A `$` is an end
/// anchor only as the last character: in `/a$*` it is literal, so one
/// `*` stays (`/a$` is another set).
fn normal_form(pattern: &str) -> &str {
    if pattern.ends_with('$') {
        return pattern;
    }
    let trimmed = pattern.trim_end_matches('*');
    if trimmed.is_empty() && !pattern.is_empty() {
        "/"
    } else if trimmed.ends_with('$') && trimmed.len() < pattern.len() {
        &pattern[..trimmed.len() + 1]
    } else {
        trimmed
    }
}

/// Returns true if the pattern matches every path: `/`, `*`, `/*`, `*$`,
/// `/*$`…
pub(crate) fn matches_everything(pattern: &str) -> bool {
    let open = match pattern.strip_suffix('$') {
        Some(rest) if rest.ends_with('*') => rest,
        Some(_) => return false,
        None => pattern,
    };
    normal_form(open) == "/"
}

/// A pattern without its redundant `*`: trailing ones (see
/// [`normal_form`]), and all but one of each run.
fn without_redundant_stars(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    for c in normal_form(pattern).chars() {
        if !(c == '*' && out.ends_with('*')) {
            out.push(c);
        }
    }
    out
}

/// The lengths of the rules of each kind, over the whole file, sorted:
/// a rule's length is its priority (and an index.html allow's retry has
/// one of its own).
struct Lengths {
    allow: Vec<usize>,
    disallow: Vec<usize>,
}

impl Lengths {
    fn of(robots: &robotrules::Robots) -> Lengths {
        let (mut allow, mut disallow) = (Vec::new(), Vec::new());
        for r in robots.groups().flat_map(|g| g.rules()) {
            let pattern = r.pattern();
            match r.kind() {
                RuleKind::Allow => {
                    allow.push(pattern.len());
                    // The reference retries `/d/index.html` as `/d/$`,
                    // with that priority.
                    if let Some(slash) = pattern.rfind('/') {
                        if pattern[slash..].starts_with("/index.htm") {
                            allow.push(slash + 2);
                        }
                    }
                }
                RuleKind::Disallow => disallow.push(pattern.len()),
            }
        }
        allow.sort_unstable();
        disallow.sort_unstable();
        Lengths { allow, disallow }
    }

    /// Returns true if a rule of the other kind than `kind` has a length
    /// from `low` to `high`: a rule of `kind` whose priority moves
    /// between them may then win or lose against it.
    fn other_between(&self, kind: RuleKind, low: usize, high: usize) -> bool {
        let other = match kind {
            RuleKind::Allow => &self.disallow,
            RuleKind::Disallow => &self.allow,
        };
        let at = other.partition_point(|&l| l < low);
        other.get(at).is_some_and(|&l| l <= high)
    }
}

/// Folders that hold a site's CSS and scripts (WordPress keeps its
/// themes' and plugins' in `/wp-content/`, Next.js its own in `/_next/`).
const ASSET_FOLDERS: &[&str] = &[
    "/wp-includes",
    "/wp-content",
    "/wp-content/themes",
    "/wp-content/plugins",
    "/_next",
    "/_next/static",
    "/assets",
    "/static",
    "/js",
    "/css",
];

/// Whether the pattern (lowercase) is one of the usual asset folders,
/// with or without its final `/` or a `*` after it.
fn is_asset_folder(lower: &str) -> bool {
    let folder = lower.trim_end_matches('*');
    let folder = folder.strip_suffix('/').unwrap_or(folder);
    ASSET_FOLDERS.contains(&folder)
}

/// Returns true if the pattern (lowercase) names CSS or JavaScript files:
/// `.css`, `.js` or `.mjs` at its end or before `$`, `?` or `*`; or is
/// one of the usual asset folders.
pub(crate) fn is_asset(lower: &str) -> bool {
    if is_asset_folder(lower) {
        return true;
    }
    let bytes = lower.as_bytes();
    [".css", ".js", ".mjs"].iter().any(|ext| {
        lower.match_indices(ext).any(|(at, _)| {
            matches!(
                bytes.get(at + ext.len()),
                None | Some(b'$' | b'?' | b'*')
            )
        })
    })
}

/// RT106 (a URL), RT107 (a bad start), RT108 (`$` inside), RT109 (a
/// redundant `*`), RT207 (`Disallow: /` for `*`) and RT208 (CSS or
/// JavaScript blocked), rule by rule.
pub(crate) fn each_rule(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    let lengths = Lengths::of(robots);
    // What the `*` groups leave open, worked out once if RT207 needs it;
    // and whether the search crawlers are blocked everywhere.
    let mut global_coverage = None;
    let mut blocked = [None; SEARCH_CRAWLERS.len()];
    // RT208 is about Google's rendering: the groups Googlebot reads, and
    // their rules merged, as Googlebot obeys them.
    let google = robots.select(&["Googlebot"]);
    let google_groups: Vec<usize> =
        google.groups().map(|g| g.index()).collect();
    let google_rules: Vec<Rule<'_>> =
        google.groups().flat_map(|g| g.rules()).collect();
    for group in robots.groups() {
        let global = group.is_global();
        let for_google = google_groups.contains(&group.index());
        // RT207 for a named group: its first rule that matches every path
        // (the others are duplicates, RT205's).
        let mut named_checked = false;
        for r in group.rules() {
            url_or_bad_start(ctx, &r);
            space_in_rule(ctx, &r);
            unrequested_path(ctx, &r);
            comment_in_rule(ctx, &r);
            dollar_in_middle(ctx, &r);
            redundant_wildcard(ctx, &r, &lengths);
            if r.kind() == RuleKind::Disallow {
                if global {
                    disallow_all(ctx, &r, &mut global_coverage);
                } else if !named_checked && matches_everything(r.pattern()) {
                    named_checked = true;
                    search_engine_blocked(ctx, &r, group, &mut blocked);
                }
                if for_google {
                    assets_blocked(ctx, &r, &google_rules);
                }
            }
        }
    }
}

/// RT106 and RT107: a rule that never matches.
fn url_or_bad_start(ctx: &mut Ctx<'_>, r: &Rule<'_>) {
    let n = r.line();
    let written = r.as_written();
    let pattern = r.pattern();
    // `Disallow /a:b`: the value's own colon ended the key, and RT102
    // says what was meant; the value left (`b`) was never written alone.
    let key = ctx.key(n);
    if ctx.slice(n, key).iter().any(|b| matches!(b, b' ' | b'\t')) {
        return;
    }
    let span = ctx.value(n);
    let lower = written.to_ascii_lowercase();
    if lower.starts_with(b"http://") || lower.starts_with(b"https://") {
        ctx.report(Code::UrlAsPath, n, span, || {
            (
                "a rule is a path, not a URL: this one never matches".into(),
                Some(Code::UrlAsPath.help().into()),
            )
        });
    } else if !pattern.is_empty()
        && !pattern.starts_with('/')
        && !pattern.starts_with('*')
    {
        ctx.report(Code::BadPathStart, n, span, || {
            let shown = show(written);
            (
                format!(
                    "`{shown}` starts with neither `/` nor `*`: it never \
                     matches"
                ),
                Some(bad_start_help(&String::from_utf8_lossy(written))),
            )
        });
    }
}

/// The extensions of files that sites name in rules, which are no
/// top-level domain: `admin.php` is a file, `example.com` a host.
const FILE_EXTENSIONS: &[&str] = &[
    "php", "html", "htm", "shtml", "xhtml", "asp", "aspx", "jsp", "cgi",
    "cfm", "txt", "xml", "pdf", "js", "css", "json", "gif", "jpg", "jpeg",
    "png", "svg", "webp", "ico", "gz", "doc", "docx", "xls", "xlsx", "ppt",
    "pptx", "rss", "exe", "csv", "bak", "log", "ini", "sql", "woff", "ttf",
    "mp3", "mp4", "phtml", "action", "zip", "old", "tar", "tgz", "rar", "md",
    "yml", "yaml", "conf", "cfg", "tmp", "dat", "db", "sqlite", "swf", "flv",
    "avi", "mov", "wmv", "webm", "ogg", "wav", "rtf", "odt", "ods", "epub",
    "apk", "jar", "war", "bin", "msi", "deb", "rpm", "rb", "bat", "env",
    "orig", "inc", "dist", "internal",
];

/// RT107's advice for a rule that starts with neither `/` nor `*`, by
/// what it most likely means.
fn bad_start_help(written: &str) -> String {
    // White space the parser does not trim (`\u{3000}`, no-break space).
    let rest = written.trim_start_matches(|c: char| c.is_whitespace());
    if rest.len() != written.len() {
        return if rest.starts_with('/') || rest.starts_with('*') {
            format!(
                "remove what comes before the path: write `{}`",
                show(rest.as_bytes())
            )
        } else {
            "remove what comes before the path, and start it with `/`".into()
        };
    }
    if written == "$" {
        return "remove it: `$` alone matches no URL (`/$` would block the \
                home page)"
            .into();
    }
    if let Some(help) = host_help(written) {
        return help;
    }
    if let Some(meant) = from_regex(written) {
        return format!(
            "rules are not regular expressions (`*` is any characters, a \
             final `$` the end): write `{}`",
            show(meant.as_bytes())
        );
    }
    if looks_like_regex(written) {
        return "rules are not regular expressions: `*` (any characters) and \
                a final `$` (the end) are their only special characters; \
                write the path as it is requested, from its `/`"
            .into();
    }
    if let Some(rest) = written.strip_prefix("./") {
        // A path relative to the site's root (never one for the whole
        // site).
        let meant = format!("/{rest}");
        if !blocks_everything(&meant) {
            return format!("write `{}`", show(meant.as_bytes()));
        }
    }
    if written.starts_with('.') || written.starts_with('?') {
        // An extension, or a query: on any path.
        return format!("write `/*{}`", show(written.as_bytes()));
    }
    format!("write `/{}`", show(written.as_bytes()))
}

/// RT107's advice for a host name, then a path (`example.com/private/`,
/// also as a regular expression: `^https?://example\.com/admin/.*`): the
/// path alone.
fn host_help(written: &str) -> Option<String> {
    let unanchored = written.strip_prefix('^').unwrap_or(written);
    let bare = ["https?://", "http://", "https://"]
        .iter()
        .find_map(|scheme| unanchored.strip_prefix(scheme))
        .unwrap_or(unanchored);
    let scheme = bare.len() != unanchored.len();
    let (first, path) = match bare.find('/') {
        Some(at) => (&bare[..at], &bare[at..]),
        None => (bare, ""),
    };
    let first = first.replace("\\.", ".");
    // `.svn`, `.edu`: a name's end, no host.
    let host = !first.starts_with('.')
        && first.contains('.')
        && first
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-.:".contains(&b))
        && first.rsplit('.').next().is_some_and(|tld| {
            tld.len() >= 2
                && tld.bytes().all(|b| b.is_ascii_alphabetic())
                // `admin.php`, `index.html/x`: a file, not a host.
                && !FILE_EXTENSIONS.contains(&tld.to_ascii_lowercase().as_str())
        });
    if !host {
        return None;
    }
    // A name alone may be a file's as well (`backup.zip`, `cart.pl`):
    // both readings.
    if path.is_empty() && !scheme && !first.starts_with("www.") {
        return Some(format!(
            "write `/{}` if it names a file; if it is a host, a rule is a \
             path on this site, and `/` is the whole site",
            show(bare.as_bytes())
        ));
    }
    if path.is_empty() || matches_everything(path) {
        return Some(
            "a rule is a path on this site, without its host: `/` is the \
             whole site"
                .into(),
        );
    }
    // The path as a rule, if it was written as a regular expression
    // (`/a/?$`: an optional `/`).
    let regex = looks_like_regex(path) || path.ends_with("?$");
    let path = match regex.then(|| from_regex(&format!("^{path}"))) {
        None => path.to_string(),
        Some(Some(meant)) => meant,
        Some(None) => {
            return Some(
                "a rule is a path on this site, without its host, and not a \
                 regular expression: write the path as it is requested"
                    .into(),
            );
        }
    };
    Some(format!(
        "a rule is a path on this site, without its host: write `{}`",
        show(path.as_bytes())
    ))
}

/// Whether a rule's value reads as a regular expression: a leading `^`,
/// `.*` or `.+`, an escaped punctuation mark, or a group `(…)`.
fn looks_like_regex(written: &str) -> bool {
    // A final `.*` alone is a file name's pattern as often (`secure.*`,
    // `/tv-schedule.*`: a `.` and any extension).
    let written = match written.strip_suffix(".*") {
        Some(head)
            if head.ends_with(|c: char| {
                c.is_ascii_alphanumeric() || c == '-' || c == '_'
            }) =>
        {
            head
        }
        _ => written,
    };
    let bytes = written.as_bytes();
    written.starts_with('^')
        || written.contains(".*")
        || written.contains(".+")
        || bytes
            .windows(2)
            .any(|w| w[0] == b'\\' && w[1].is_ascii_punctuation())
        || (written.contains('(') && written.contains(')'))
}

/// The rule a value written as a regular expression most likely means
/// (`^/admin/`, `\.pdf$`, `.*\.php$`, `/\.pdf$`, `\/private`), or
/// none if it is not one or uses more than `^`, `.*`, `.+` and escaped
/// punctuation. Without an anchor at its start (`^`, or a `/` that
/// `\.` does not follow), it means a path that holds it anywhere.
fn from_regex(written: &str) -> Option<String> {
    if !looks_like_regex(written) {
        return None;
    }
    let body = written.strip_prefix('^').unwrap_or(written);
    // `^.*/search` is as anchored as `.*/search`: not at all.
    let anchored = written.starts_with('^') && !body.starts_with(".*");
    let mut out = String::with_capacity(body.len() + 2);
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // A literal `$` or `*` is no rule's (`$` would end it, `*`
            // match anything).
            '\\' => match chars.next() {
                Some('$' | '*') => return None,
                Some(e) if e.is_ascii_punctuation() => out.push(e),
                _ => return None,
            },
            '.' if matches!(chars.peek(), Some('*' | '+')) => {
                chars.next();
                if !out.ends_with('*') {
                    out.push('*');
                }
            }
            '$' if chars.peek().is_none() => out.push('$'),
            // Groups, classes, alternatives, anchors and the quantifiers
            // a rule cannot say (`/search/?$`: an optional `/`).
            '(' | ')' | '[' | ']' | '{' | '}' | '|' | '+' | '?' | '^'
            | '$' => {
                return None;
            }
            _ => out.push(c),
        }
    }
    // `/\.pdf$` is a file that ends so, in any directory (`/\.git` is
    // the root's `.git`).
    let root_dot = written.starts_with("/\\.")
        && written.ends_with('$')
        && !written[1..].contains('/');
    // Runs of `*` are one.
    while out.contains("**") {
        out = out.replace("**", "*");
    }
    let rest = out.trim_start_matches('*');
    let out = if out.starts_with('/') && !root_dot {
        out
    } else if root_dot {
        format!("/*{}", out.trim_start_matches('/'))
    } else if anchored || body.starts_with(|c: char| c.is_ascii_alphanumeric())
    {
        // Anchored, or a path written without its `/` (`admin/.*`).
        format!("/{}", out.trim_start_matches('/'))
    } else if rest.starts_with('/') {
        // `.*/search`: the folder at any depth, the root's too.
        format!("*{rest}")
    } else {
        format!("/*{}", rest.trim_start_matches('/'))
    };
    // A final `*` adds nothing (rules match prefixes). What means every
    // path (`.*`, `^`, `.*$`) gets no rewrite: it would block the whole
    // site.
    let out = out.trim_end_matches('*');
    (!blocks_everything(out)).then(|| out.to_string())
}

/// Whether a rewrite would block the whole site: `/`, `/*`, `/*$`, and
/// the same after leading `*` (`*/`: every path has a `/`).
fn blocks_everything(rule: &str) -> bool {
    let core = rule.trim_start_matches('*');
    core.is_empty() || matches_everything(rule) || matches_everything(core)
}

/// RT116: a `#` right after a rule's path, with text after it: a
/// fragment the author meant to single out (`Disallow: /faq#private`),
/// which starts a comment instead.
fn comment_in_rule(ctx: &mut Ctx<'_>, r: &Rule<'_>) {
    let n = r.line();
    let raw = ctx.lines.get(n);
    let Some(fields) = crate::lint::fields(raw) else { return };
    let value = fields.value;
    if value.is_empty() || raw.get(value.end) != Some(&b'#') {
        return;
    }
    let after = &raw[value.end + 1..raw.len().min(robotrules::MAX_LINE_LEN)];
    let fragment = after.split(|b| b.is_ascii_whitespace()).next();
    let Some(fragment) = fragment.filter(|f| !f.is_empty()) else { return };
    let path = &raw[value.clone()];
    let span = value.start..value.end + 1 + fragment.len();
    let verb = match r.kind() {
        RuleKind::Allow => "allows",
        RuleKind::Disallow => "blocks",
    };
    ctx.report(Code::CommentInRule, n, span, || {
        (
            format!(
                "`#{}` starts a comment: this rule is `{}`, and {verb} \
                 every URL it starts, whatever the fragment",
                show(fragment),
                show(path)
            ),
            Some(Code::CommentInRule.help().into()),
        )
    });
}

/// RT115: a rule whose path holds what browsers never send in one, so
/// that it matches no requested URL ([`robotrules::unrequested_part`]).
/// A space or tab is RT113's.
fn unrequested_path(ctx: &mut Ctx<'_>, r: &Rule<'_>) {
    let pattern = r.pattern();
    // One that never matches anyway is RT106's or RT107's.
    if !(pattern.starts_with('/') || pattern.starts_with('*')) {
        return;
    }
    let Some(part) = robotrules::unrequested_part(pattern) else {
        // A `\` after a `*` or `?` may still match through a query: a
        // regular expression's escape (`/.*\.pdf`) all the same.
        let meant = pattern
            .contains('\\')
            .then(|| from_regex(&String::from_utf8_lossy(r.as_written())))
            .flatten()
            .filter(|m| robotrules::unrequested_part(m).is_none());
        if let Some(meant) = meant {
            let n = r.line();
            let span = ctx.value(n);
            ctx.report(Code::UnrequestedPath, n, span, || {
                (
                    "`\\` escapes nothing in a rule, and browsers send it \
                     in a path as `/`: this rule matches only URLs whose \
                     query holds it"
                        .to_string(),
                    Some(format!(
                        "rules are not regular expressions (`*` is any \
                         characters, a final `$` the end): write `{}`",
                        show(meant.as_bytes())
                    )),
                )
            });
        }
        return;
    };
    let what = pattern.get(part).unwrap_or_default();
    if matches!(what, " " | "\t") {
        return;
    }
    let (message, help) = match what {
        "\\" => {
            // Without the `\` of its path (in a query it is sent as it
            // is): what a regular expression's escape meant, if that is a
            // rule that can match.
            let head = pattern.find(['*', '?']).unwrap_or(pattern.len());
            let plain = pattern[..head].replace('\\', "") + &pattern[head..];
            let meant = from_regex(&String::from_utf8_lossy(r.as_written()))
                .filter(|m| {
                    *m != plain && robotrules::unrequested_part(m).is_none()
                });
            let help = if let Some(meant) = meant {
                format!(
                    "rules are not regular expressions (`*` is any \
                     characters, a final `$` the end): write `{}`",
                    show(meant.as_bytes())
                )
            } else if robotrules::unrequested_part(&plain).is_none()
                && !blocks_everything(&plain)
            {
                format!(
                    "write `{}`, or `/` for the `\\`",
                    show(plain.as_bytes())
                )
            } else {
                "rules are not regular expressions: `*` (any characters) \
                 and a final `$` (the end) are their only special \
                 characters; write the path as it is requested"
                    .to_string()
            };
            (
                "browsers send `\\` in a path as `/`, and it escapes nothing \
                 here (rules are not regular expressions): this rule never \
                 matches a requested URL"
                    .to_string(),
                help,
            )
        }
        "." | ".." => (
            format!(
                "browsers resolve `{what}` segments before they request a \
                 path: this rule never matches a requested URL"
            ),
            "write the path as it is requested, without `.` or `..` \
             segments"
                .to_string(),
        ),
        _ if what.len() == 1 => {
            let encoded = format!("%{:02X}", what.as_bytes()[0]);
            // `{`, `}` and `` ` `` are sent as they are in a query.
            let place = if matches!(what, "{" | "}" | "`") {
                "a path"
            } else {
                "a URL"
            };
            let shown = if what == "`" {
                "a backtick".to_string()
            } else {
                format!("`{}`", show(what.as_bytes()))
            };
            (
                format!(
                    "browsers send {shown} in {place} as `{encoded}`: this \
                     rule never matches a requested URL"
                ),
                format!("write `{}`", show(encoded_path(pattern).as_bytes())),
            )
        }
        // A dot segment written with `%2E`, shown as the line writes it
        // (the pattern's escapes are upper-cased).
        _ => (
            format!(
                "browsers resolve `{}` (a `.` or `..` segment) before they \
                 request a path: this rule never matches a requested URL",
                show(as_written(r.as_written(), what.as_bytes()))
            ),
            "write the path as it is requested, without `.` or `..` \
             segments"
                .to_string(),
        ),
    };
    let n = r.line();
    let span = ctx.value(n);
    ctx.report(Code::UnrequestedPath, n, span, || (message, Some(help)));
}

/// The bytes of `written` that are `part` but for ASCII case, or `part`.
fn as_written<'a>(written: &'a [u8], part: &'a [u8]) -> &'a [u8] {
    written
        .windows(part.len().max(1))
        .find(|w| w.eq_ignore_ascii_case(part))
        .unwrap_or(part)
}

/// `pattern` with what browsers percent-encode written so: `"`, `<`, `>`
/// and controls anywhere, `{`, `}` and `` ` `` before its first `*` or
/// `?` (in a query they are sent as they are).
fn encoded_path(pattern: &str) -> String {
    let head = pattern.find(['*', '?']).unwrap_or(pattern.len());
    let mut out = String::with_capacity(pattern.len() + 6);
    for (at, c) in pattern.char_indices() {
        let path_only = at < head && matches!(c, '{' | '}' | '`');
        if path_only || matches!(c, '"' | '<' | '>') || c.is_ascii_control() {
            out.push_str(&format!("%{:02X}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// RT113: a space or tab inside a rule. The reference matches it as
/// written, and a requested URL holds `%20`, never a space.
fn space_in_rule(ctx: &mut Ctx<'_>, r: &Rule<'_>) {
    let pattern = r.pattern();
    let Some(at) = pattern.find([' ', '\t']) else { return };
    let n = r.line();
    let span = ctx.value(n);
    let after = pattern[at..].trim_start_matches([' ', '\t']);
    ctx.report(Code::SpaceInRule, n, span, || {
        let help = if after.starts_with('/') || after.starts_with('*') {
            // Two paths on one line.
            "write one path per rule, each on its own line".to_string()
        } else {
            Code::SpaceInRule.help().to_string()
        };
        (
            "a space in a rule is matched as a space, and URLs are \
             requested with `%20` in its place: this rule never matches \
             a URL with one"
                .into(),
            Some(help),
        )
    });
}

/// RT108: a `$` that is not the last character.
fn dollar_in_middle(ctx: &mut Ctx<'_>, r: &Rule<'_>) {
    let pattern = r.pattern();
    if pattern.len() > 1 && pattern[..pattern.len() - 1].contains('$') {
        let n = r.line();
        let span = ctx.value(n);
        ctx.report(Code::DollarInMiddle, n, span, || {
            (
                "`$` ends a path only as the last character; here it is a \
                 literal `$`"
                    .into(),
                Some(Code::DollarInMiddle.help().into()),
            )
        });
    }
}

/// RT109: `**`, or a `*` at the end, when taking it out changes no
/// verdict. A `*` counts in a rule's priority (its length): it is not
/// redundant where a rule of the other kind has a length it would pass
/// (`Allow: /page` and `Disallow: /page*`: the disallow wins on `/page`,
/// and would tie, so lose, as `/page`).
fn redundant_wildcard(ctx: &mut Ctx<'_>, r: &Rule<'_>, lengths: &Lengths) {
    let pattern = r.pattern();
    // A regular expression's escape gets the rule it means from RT107 or
    // RT115, not a second rewrite.
    let written = String::from_utf8_lossy(r.as_written());
    if written.contains('\\') && from_regex(&written).is_some() {
        return;
    }
    // A rule that never matches is RT106's or RT107's.
    if !(pattern.starts_with('/') || pattern.starts_with('*')) {
        return;
    }
    let shorter = without_redundant_stars(pattern);
    if shorter.len() == pattern.len()
        || lengths.other_between(r.kind(), shorter.len(), pattern.len())
    {
        return;
    }
    let n = r.line();
    let span = ctx.value(n);
    ctx.report(Code::RedundantWildcard, n, span, || {
        (
            format!(
                "`{}` has a redundant `*`: rules match prefixes already",
                show(r.as_written())
            ),
            Some(format!("write `{shorter}`")),
        )
    });
}

/// RT207: `Disallow: /` (or `/*`) in a `*` group. Allow rules may open
/// parts of the site again (`Allow: /$`): the message says so when the
/// `*` groups' coverage is not "disallowed everywhere".
fn disallow_all(
    ctx: &mut Ctx<'_>,
    r: &Rule<'_>,
    coverage: &mut Option<Coverage>,
) {
    if !matches_everything(r.pattern()) {
        return;
    }
    let robots = ctx.robots;
    // `*` names no group: the matcher of the `*` groups.
    let coverage =
        coverage.get_or_insert_with(|| robots.matcher(&["*"]).coverage());
    let message = match coverage {
        Coverage::DisallowedEverywhere => "every crawler without a group of \
            its own is blocked from the whole site"
            .to_string(),
        Coverage::Partial { allowed, .. } => format!(
            "every crawler without a group of its own is blocked from the \
             whole site but what allow rules open again (such as `{}`)",
            show(allowed.as_bytes())
        ),
        // An allow of the same or higher priority opens every path again
        // (`Allow: /` wins the tie): this disallow blocks nothing.
        Coverage::AllowedEverywhere => return,
        _ => "every crawler without a group of its own is blocked from the \
              whole site but what allow rules open again"
            .to_string(),
    };
    let n = r.line();
    let span = ctx.value(n);
    ctx.report(Code::DisallowAll, n, span, || {
        (message, Some(Code::DisallowAll.help().into()))
    });
}

/// The crawlers of the two search engines nearly every site wants in:
/// a group of theirs that blocks them everywhere is RT207's too.
const SEARCH_CRAWLERS: &[(&str, &str)] =
    &[("Googlebot", "Google Search"), ("Bingbot", "Bing")];

/// RT207 for a group that names Googlebot or Bingbot: `Disallow: /` (or
/// the like) that leaves the crawler nothing to fetch on the site.
/// `blocked` keeps each crawler's answer, worked out once per file.
fn search_engine_blocked(
    ctx: &mut Ctx<'_>,
    r: &Rule<'_>,
    group: Group<'_>,
    blocked: &mut [Option<bool>],
) {
    if !matches_everything(r.pattern()) {
        return;
    }
    let robots = ctx.robots;
    let agents: Vec<(u32, &[u8])> =
        group.agents().map(|a| (a.line(), a.product_token())).collect();
    let mut found: Vec<(&str, &str)> = Vec::new();
    for (&(token, engine), blocked) in SEARCH_CRAWLERS.iter().zip(blocked) {
        let Some(&(line, _)) = agents
            .iter()
            .find(|(_, t)| t.eq_ignore_ascii_case(token.as_bytes()))
        else {
            continue;
        };
        // Named apart from the group's last `user-agent` line (a
        // `crawl-delay` between): merged into this group's rules, which
        // RT210 explains; removing the rule would unblock the others.
        let from = agents.iter().position(|&(l, _)| l == line).unwrap_or(0);
        let together = agents[from..].windows(2).all(|w| w[1].0 == w[0].0 + 1);
        if !together {
            continue;
        }
        let everywhere = *blocked.get_or_insert_with(|| {
            matches!(
                robots.matcher(&[token]).coverage(),
                Coverage::DisallowedEverywhere
            )
        });
        if everywhere {
            found.push((token, engine));
        }
    }
    if found.is_empty() {
        return;
    }
    let n = r.line();
    let span = ctx.value(n);
    ctx.report(Code::DisallowAll, n, span, || {
        let (tokens, engines): (Vec<&str>, Vec<&str>) =
            found.iter().copied().unzip();
        let is = if found.len() == 1 { "is" } else { "are" };
        (
            format!(
                "{} {is} blocked from the whole site: {} cannot crawl any of \
                 its pages",
                tokens.join(" and "),
                engines.join(" and ")
            ),
            Some(Code::DisallowAll.help().into()),
        )
    });
}

/// RT208: a disallow that blocks CSS or JavaScript: a pattern that names
/// such files or an asset folder, and that does block a file of the kind
/// for its group (its allows may open them again: `Allow: /static/*.css`).
/// A pattern that never matches is RT107's.
fn assets_blocked(ctx: &mut Ctx<'_>, r: &Rule<'_>, group: &[Rule<'_>]) {
    let pattern = r.pattern();
    if !(pattern.starts_with('/') || pattern.starts_with('*')) {
        return;
    }
    let lower = String::from_utf8_lossy(r.as_written()).to_ascii_lowercase();
    if !is_asset(&lower) {
        return;
    }
    // A file of the kind that the pattern blocks: in a folder, a
    // stylesheet and a script; else the path the pattern names.
    let paths: Vec<Vec<String>> = if is_asset_folder(&lower) {
        let folder = pattern.trim_end_matches('*');
        let folder = folder.strip_suffix('/').unwrap_or(folder);
        // Where the assets of the folder live: WordPress keeps them in
        // its themes and plugins, Next.js in `static`.
        // Each kind of file is open if one of its usual places is.
        let inside: &[&[&str]] = match folder.to_ascii_lowercase().as_str() {
            "/wp-content" => &[
                &["/themes/t/style.css?ver=1"],
                &["/themes/t/a.js?ver=1"],
                &["/plugins/p/a.css?ver=1"],
                &["/plugins/p/a.js?ver=1"],
            ],
            "/wp-includes" => &[&["/css/a.css?ver=1"], &["/js/a.js?ver=1"]],
            "/_next" => &[&["/static/a.css"], &["/static/a.js"]],
            _ => &[&["/a.css", "/css/a.css"], &["/a.js", "/js/a.js"]],
        };
        inside
            .iter()
            .map(|kind| kind.iter().map(|p| format!("{folder}{p}")).collect())
            .collect()
    } else {
        let [path, _] = super::groups::witness(pattern);
        vec![vec![path]]
    };
    let open = |kind: &Vec<String>| {
        kind.iter().any(|p| super::groups::allows(group, p))
    };
    if paths.iter().all(open) {
        return;
    }
    let n = r.line();
    let span = ctx.value(n);
    ctx.report(Code::AssetsBlocked, n, span, || {
        (
            "this blocks CSS or JavaScript that pages need".into(),
            Some(Code::AssetsBlocked.help().into()),
        )
    });
}

/// The order in which rules of the same form beat each other: longer
/// first, then `allow`, then the earlier line.
fn rank(
    r: &Rule<'_>,
    index: usize,
) -> (std::cmp::Reverse<usize>, bool, usize) {
    (
        std::cmp::Reverse(r.pattern().len()),
        r.kind() == RuleKind::Disallow,
        index,
    )
}

/// RT205 (a rule another rule of its group always beats) and RT206 (a
/// disallow and an allow of equal priority that both match a path).
///
/// Rules are compared only with rules of the same form (the same set of
/// paths) through a prefix minimum, so RT205 costs n log n; RT206 is
/// bounded by [`EQUAL_PRIORITY_BUDGET`].
pub(crate) fn shadowed_and_equal_priority(ctx: &mut Ctx<'_>) {
    let robots = ctx.robots;
    let mut budget = EQUAL_PRIORITY_BUDGET;
    for group in robots.groups() {
        let rules: Vec<Rule<'_>> = group.rules().collect();
        let mut by_form: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut allows_by_len: HashMap<usize, Vec<usize>> = HashMap::new();
        // The earliest allow of each form, which takes the directory its
        // index.html retry matches.
        let mut first_allow: HashMap<&str, usize> = HashMap::new();
        for (i, r) in rules.iter().enumerate() {
            by_form.entry(normal_form(r.pattern())).or_default().push(i);
            if r.kind() == RuleKind::Allow {
                allows_by_len.entry(r.pattern().len()).or_default().push(i);
                first_allow.entry(normal_form(r.pattern())).or_insert(i);
            }
        }
        // For each form, the best rank among its first k rules: the first
        // rule that beats a rule is where this drops below its rank.
        let best_so_far: HashMap<&str, Vec<_>> = by_form
            .iter()
            .map(|(form, ids)| {
                let mut best = Vec::with_capacity(ids.len());
                for &j in ids {
                    let k = rank(&rules[j], j);
                    let b = best.last().map_or(k, |&p| std::cmp::min(p, k));
                    best.push(b);
                }
                (*form, best)
            })
            .collect();
        for (i, r) in rules.iter().enumerate() {
            let form = normal_form(r.pattern());
            let ids = &by_form[form];
            let best = &best_so_far[form];
            let mine = rank(r, i);
            let first = best.partition_point(|&b| b >= mine);
            let Some(&j) = ids.get(first) else {
                if r.kind() == RuleKind::Disallow {
                    let same_len = allows_by_len
                        .get(&r.pattern().len())
                        .map_or(&[][..], Vec::as_slice);
                    let candidates = same_len.len().min(64).min(budget);
                    budget -= candidates;
                    let tie = same_len[..candidates]
                        .iter()
                        .map(|&j| &rules[j])
                        .find(|q| ties(q, r));
                    if let Some(q) = tie {
                        equal_priority(ctx, r, q);
                    }
                }
                continue;
            };
            match r.index_directory() {
                // An allow's index.html retry also matches its directory,
                // at a priority equal for every allow of its form: the
                // earliest of them decides there, and beats it only if it
                // comes first.
                Some(dir) => {
                    if let Some(&k) = first_allow.get(form).filter(|&&k| k < i)
                    {
                        shadowed_with_retry(ctx, r, &rules[j], &rules[k], dir);
                    }
                }
                None => shadowed(ctx, r, &rules[j]),
            }
        }
    }
}

/// Reports RT205 for an allow with an index.html retry: `q` beats it on
/// the paths it matches itself, `k` on its directory.
fn shadowed_with_retry(
    ctx: &mut Ctx<'_>,
    r: &Rule<'_>,
    q: &Rule<'_>,
    k: &Rule<'_>,
    dir: &str,
) {
    if q.line() == k.line() {
        return shadowed(ctx, r, q);
    }
    let n = r.line();
    let span = ctx.value(n);
    if let Some(d) = ctx.report(Code::ShadowedRule, n, span, || {
        (
            format!(
                "this rule never decides: it is always beaten by line {}, \
                 and by line {} on `{dir}`, which it also matches (Google's \
                 index.html rule)",
                q.line(),
                k.line()
            ),
            Some(Code::ShadowedRule.help().into()),
        )
    }) {
        d.related = vec![q.line(), k.line()];
    }
}

/// Reports RT205: `r` never decides because of `q`.
fn shadowed(ctx: &mut Ctx<'_>, r: &Rule<'_>, q: &Rule<'_>) {
    let n = r.line();
    let span = ctx.value(n);
    let duplicate = q.kind() == r.kind() && q.pattern() == r.pattern();
    if let Some(d) = ctx.report(Code::ShadowedRule, n, span, || {
        let what =
            if duplicate { "duplicates" } else { "is always beaten by" };
        (
            format!("this rule never decides: it {what} line {}", q.line()),
            Some(Code::ShadowedRule.help().into()),
        )
    }) {
        d.related = vec![q.line()];
    }
}

/// Reports RT206: the disallow `r` ties with the allow `q`.
fn equal_priority(ctx: &mut Ctx<'_>, r: &Rule<'_>, q: &Rule<'_>) {
    let n = r.line();
    let span = ctx.value(n);
    if let Some(d) = ctx.report(Code::EqualPriority, n, span, || {
        (
            format!(
                "this rule and the allow on line {} have equal priority: \
                 where both match, the allow wins",
                q.line()
            ),
            Some(Code::EqualPriority.help().into()),
        )
    }) {
        d.related = vec![q.line()];
    }
}

/// Returns true if the allow `q` and the disallow `r`, of equal length,
/// both match some path with their full priority.
fn ties(q: &Rule<'_>, r: &Rule<'_>) -> bool {
    let (a, b) = (q.pattern(), r.pattern());
    a != b
        && both(a, b).iter().any(|w| {
            r.match_priority(w) == Some(b.len())
                && q.match_priority(w) == Some(b.len())
        })
}

/// Paths that two patterns may both match: each one's witnesses, and each
/// witness followed by the other pattern's part after its last `*`.
fn both(a: &str, b: &str) -> Vec<String> {
    let tail = |p: &str| {
        p.rsplit('*').next().unwrap_or("").trim_end_matches('$').to_string()
    };
    let (wa, wb) = (super::groups::witness(a), super::groups::witness(b));
    let mut out: Vec<String> = wa.iter().chain(&wb).cloned().collect();
    out.extend(wa.iter().map(|w| format!("{w}{}", tail(b))));
    out.extend(wb.iter().map(|w| format!("{w}{}", tail(a))));
    out
}

#[cfg(test)]
mod tests {
    use super::{is_asset, matches_everything, normal_form};
    use crate::lint::lints;

    macro_rules! asset {
        ($pattern:expr, $want:expr) => {
            assert_eq!(is_asset($pattern), $want, "{}", $pattern)
        };
    }

    #[test]
    fn rt106_url_as_path() {
        lints!(b"User-agent: *\nDisallow: https://example.com/x\n", "RT106" @ 2);
        lints!(b"User-agent: *\nDisallow: /x\n", "RT106" @ none);
    }

    #[test]
    fn rt107_bad_path_start() {
        lints!(b"User-agent: *\nDisallow: private/\n", "RT107" @ 2);
        lints!(b"User-agent: *\nDisallow: /private/\n", "RT107" @ none);
    }

    /// The rewrite a help suggests (`write `X``), for a rule's value.
    fn suggested(value: &str) -> String {
        let body = format!("User-agent: *\nDisallow: {value}\n");
        let found = crate::lint(body.as_bytes());
        let help = found
            .iter()
            .filter(|d| d.line == 2)
            .filter(|d| {
                matches!(
                    d.code,
                    crate::Code::BadPathStart | crate::Code::UnrequestedPath
                )
            })
            .find_map(|d| d.help.clone())
            .unwrap_or_else(|| panic!("no help for {value}: {found:?}"));
        let at = help.rfind("write `").expect(&help) + "write `".len();
        let end = help[at..].find('`').expect(&help);
        help[at..at + end].to_string()
    }

    #[test]
    fn regular_expressions_get_the_rule_they_mean() {
        // Written, the rule meant, a path it must block and one it must
        // not.
        for (value, meant, blocked, open) in [
            ("\\.pdf$", "/*.pdf$", "/docs/a.pdf", "/a.pdf/x"),
            (".*\\.php$", "/*.php$", "/index.php", "/index.html"),
            ("^/admin/", "/admin/", "/admin/x", "/a/admin/"),
            ("^admin/", "/admin/", "/admin/x", "/a/admin/"),
            ("\\/private", "/private", "/private/x", "/a/private"),
            ("/\\.pdf$", "/*.pdf$", "/docs/a.pdf", "/a.pdf/x"),
            ("/search\\?", "/search?", "/search?q=1", "/search"),
            ("/.*\\.pdf", "/*.pdf", "/a/b.pdf", "/a/b.html"),
            ("./private/", "/private/", "/private/x", "/a/private/"),
            ("?sort=", "/*?sort=", "/shoes?sort=price", "/shoes"),
            ("^secure.*", "/secure", "/secure/x", "/a/secure"),
            (
                "/blog/author/.*\\?.*",
                "/blog/author/*?",
                "/blog/author/a?x",
                "/blog/author/a",
            ),
            (".jpg$", "/*.jpg$", "/a/b.jpg", "/a/b.jpg?x"),
            (
                "example.com/admin/.*\\.php",
                "/admin/*.php",
                "/admin/x/a.php",
                "/admin/a.html",
            ),
            ("example.com/admin/.*", "/admin/", "/admin/x", "/a/admin/"),
            (".*/search", "*/search", "/a/search", "/research/paper"),
            ("admin/.*", "/admin/", "/admin/x", "/wp-admin/x"),
            ("/dir/**\\?", "/dir/*?", "/dir/a?x", "/dir/a"),
            ("^.*/search$", "*/search$", "/search", "/research"),
            ("/\\.git", "/.git", "/.git/config", "/tools/my.github"),
            ("cart.pl", "/cart.pl", "/cart.pl", "/cart.php"),
            ("www\\.example\\.com/admin/", "/admin/", "/admin/x", "/a/admin/"),
            (
                "^https?://example\\.com/admin/",
                "/admin/",
                "/admin/x",
                "/a/admin/",
            ),
            (".svn", "/*.svn", "/a/.svn/x", "/a/svn"),
        ] {
            let got = suggested(value);
            assert_eq!(got, meant, "{value}");
            let robots = robotrules::Robots::parse(
                format!("User-agent: *\nDisallow: {got}\n").as_bytes(),
            );
            let url = |p: &str| format!("https://e.example{p}");
            assert!(!robots.is_allowed("a", &url(blocked)), "{value}");
            assert!(robots.is_allowed("a", &url(open)), "{value}");
        }
        // More than these idioms, or every path: no guess.
        for value in [
            "(.*)\\.pdf",
            ".*",
            "^",
            ".+",
            "^/search/?$",
            "^/a\\*b",
            "/a\\$",
            "^/.*$",
            ".*$",
            "^.+$",
            "example.com/.*$",
            "example.com/a/?$",
            ".*/",
            ".*/.*",
            "./",
            "./*",
            "/\\*",
            "/\\",
            "*\\/",
        ] {
            let body = format!("User-agent: *\nDisallow: {value}\n");
            let found = crate::lint(body.as_bytes());
            let help: Vec<_> = found
                .iter()
                .filter(|d| {
                    matches!(
                        d.code,
                        crate::Code::BadPathStart
                            | crate::Code::UnrequestedPath
                    )
                })
                .filter_map(|d| d.help.clone())
                .collect();
            assert!(
                help.iter().all(|h| {
                    !["write `/`", "write `/*$`", "write `*/`", "write `/*`"]
                        .iter()
                        .any(|w| h.contains(w))
                }),
                "{value}: {help:?}"
            );
            assert!(
                help.iter().all(|h| !h.contains("not regular expressions (")),
                "{value}: {help:?}"
            );
        }
        // RT109 stays for what is a rule's `*` as well.
        lints!(b"User-agent: *\nDisallow: /shows/tv-schedule.*\n", "RT109" @ 2);
        // No other help on the same line: RT109 is quiet.
        let found =
            crate::lint(b"User-agent: *\nDisallow: /blog/author/.*\\?.*\n");
        assert!(!found
            .iter()
            .any(|d| d.code == crate::Code::RedundantWildcard));
    }

    #[test]
    fn rt207_search_engines_blocked_by_name() {
        lints!(b"User-agent: *\nDisallow: /admin/\n\nUser-agent: Googlebot\nDisallow: /\n", "RT207" @ 5);
        lints!(b"User-agent: bingbot\nDisallow: /\n", "RT207" @ 2);
        // Opened again, another crawler, or not everything.
        lints!(b"User-agent: Googlebot\nDisallow: /\nAllow: /public/\n", "RT207" @ none);
        lints!(b"User-agent: GPTBot\nDisallow: /\n", "RT207" @ none);
        lints!(b"User-agent: Googlebot\nDisallow: /private/\n", "RT207" @ none);
        // Merged into a later group across a `crawl-delay`: RT210's.
        lints!(b"User-agent: bingbot\nCrawl-delay: 30\n\nUser-agent: GPTBot\nDisallow: /\n", "RT207" @ none);
        // Both in one group: one message.
        let found = crate::lint(
            b"User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /\n",
        );
        let d =
            found.iter().find(|d| d.code == crate::Code::DisallowAll).unwrap();
        assert_eq!(d.message, "Googlebot and Bingbot are blocked from the whole site: Google Search and Bing cannot crawl any of its pages");
        // Many such groups: worked out once (linear), reported within
        // the per-code bound.
        let body = "User-agent: Googlebot\nDisallow: /\n".repeat(20_000);
        let found = crate::lint(body.as_bytes());
        let n = found
            .iter()
            .filter(|d| d.code == crate::Code::DisallowAll)
            .count();
        assert_eq!(n, 100);
        let found = crate::lint(b"User-agent: Googlebot\nDisallow: /\n");
        let d =
            found.iter().find(|d| d.code == crate::Code::DisallowAll).unwrap();
        assert_eq!(d.message, "Googlebot is blocked from the whole site: Google Search cannot crawl any of its pages");
    }

    #[test]
    fn rt116_comment_in_rule() {
        lints!(b"User-agent: *\nDisallow: /page#section\n", "RT116" @ 2);
        lints!(b"User-agent: *\nAllow: /faq#a b\n", "RT116" @ 2);
        let found = crate::lint(b"User-agent: *\nAllow: /d/#/a.html\n");
        let d = found
            .iter()
            .find(|d| d.code == crate::Code::CommentInRule)
            .unwrap();
        assert_eq!(d.message, "`#/a.html` starts a comment: this rule is `/d/`, and allows every URL it starts, whatever the fragment");
        // A comment after white space, an empty one, or no path: none.
        lints!(b"User-agent: *\nDisallow: /page #section\n", "RT116" @ none);
        lints!(b"User-agent: *\nDisallow: /page#\n", "RT116" @ none);
        lints!(b"User-agent: *\nDisallow:#x\n", "RT116" @ none);
        let found = crate::lint(b"User-agent: *\nDisallow: /faq#private\n");
        let d = found
            .iter()
            .find(|d| d.code == crate::Code::CommentInRule)
            .unwrap();
        assert_eq!(d.message, "`#private` starts a comment: this rule is `/faq`, and blocks every URL it starts, whatever the fragment");
        assert_eq!(d.column, 11);
        // What the reference reads: the path alone.
        let robots = robotrules::Robots::parse(
            b"User-agent: *\nDisallow: /faq#private\n",
        );
        assert!(!robots.is_allowed("a", "https://e.example/faq/other"));
    }

    #[test]
    fn rt108_dollar_in_middle() {
        lints!(b"User-agent: *\nDisallow: /a$b\n", "RT108" @ 2);
        lints!(b"User-agent: *\nDisallow: /ab$\n", "RT108" @ none);
    }

    #[test]
    fn rt109_redundant_wildcard() {
        lints!(b"User-agent: *\nDisallow: /tmp*\n", "RT109" @ 2);
        lints!(b"User-agent: *\nDisallow: /a**b\n", "RT109" @ 2);
        lints!(b"User-agent: *\nDisallow: /tmp\n", "RT109" @ none);
        // A `*` after a literal `$` keeps it literal.
        lints!(b"User-agent: *\nAllow: /$*\n", "RT109" @ none);
        let d = crate::lint(b"User-agent: *\nAllow: /$**\n");
        let d = d.iter().find(|d| d.code == crate::Code::RedundantWildcard);
        assert_eq!(d.and_then(|d| d.help.as_deref()), Some("write `/$*`"));
        // A `*` counts in the priority: an allow of the length it passes
        // would win the tie without it.
        lints!(b"User-agent: *\nAllow: /page\nDisallow: /page*\n", "RT109" @ none);
        lints!(b"User-agent: *\nAllow: /\nDisallow: /*\n", "RT109" @ none);
        lints!(b"User-agent: *\nAllow: /pag\nDisallow: /page*\n", "RT109" @ 3);
        lints!(b"User-agent: *\nDisallow: /page\nAllow: /page**\n", "RT109" @ none);
    }

    #[test]
    fn normal_forms() {
        for (pattern, form) in [
            ("/a*", "/a"),
            ("/a**", "/a"),
            ("/a$", "/a$"),
            ("/a*$", "/a*$"),
            ("/a$*", "/a$*"),
            ("/a$**", "/a$*"),
            ("*", "/"),
            ("**", "/"),
            ("", ""),
        ] {
            assert_eq!(normal_form(pattern), form, "{pattern}");
        }
        for (pattern, all) in [
            ("/", true),
            ("/*", true),
            ("*", true),
            ("*$", true),
            ("/*$", true),
            ("/$", false),
            ("$", false),
            ("/a", false),
            ("", false),
        ] {
            assert_eq!(matches_everything(pattern), all, "{pattern}");
        }
    }

    #[test]
    fn rt205_shadowed_rule() {
        lints!(b"User-agent: *\nAllow: /x\nDisallow: /x\n", "RT205" @ 3);
        lints!(b"User-agent: *\nDisallow: /x\nDisallow: /x\n", "RT205" @ 3);
        lints!(b"User-agent: *\nDisallow: /x\nDisallow: /x*\n", "RT205" @ 2);
        lints!(b"User-agent: *\nAllow: /x/\nDisallow: /x\n", "RT205" @ none);
        lints!(b"User-agent: *\nDisallow: /x\nAllow: /x\n", "RT205" @ 2);
        // `/$*` is `/$` literally, `/$` only `/`: both decide.
        lints!(b"User-agent: a\nDisallow: /\nAllow: /$*\nAllow: /$\n", "RT205" @ none);
    }

    #[test]
    fn rt205_knows_the_index_html_retry() {
        // `/d/` is decided by the earliest allow of the form, through its
        // retry, whatever beats it on the other paths.
        lints!(b"User-agent: *\nAllow: /d/index.html\nAllow: /d/index.html*\nDisallow: /\n", "RT205" @ none);
        lints!(b"User-agent: *\nDisallow: /d/index.html*\nAllow: /d/index.html\n", "RT205" @ none);
        lints!(b"User-agent: *\nAllow: /d/index.html*\nAllow: /d/index.html\n", "RT205" @ 3);
        lints!(b"User-agent: *\nAllow: /d/index.html\nAllow: /d/index.html\n", "RT205" @ 3);
        lints!(b"User-agent: *\nDisallow: /d/x.html*\nAllow: /d/x.html\n", "RT205" @ 3);
        // Beaten on its own paths by one rule and on `/d/` by another.
        lints!(b"User-agent: *\nAllow: /d/index.html\nAllow: /d/index.html*\nAllow: /d/index.html**\n", "RT205" @ 3);
        lints!(b"User-agent: *\nAllow: /d/index.html\nAllow: /d/index.html*\nDisallow: /d/index.html**\n", "RT205" @ 3);
        let found = crate::lint(b"User-agent: *\nAllow: /d/index.html\nAllow: /d/index.html*\nDisallow: /d/index.html**\n");
        let d = found.iter().find(|d| d.code == crate::Code::ShadowedRule);
        let d = d.unwrap();
        assert_eq!(d.related, [4, 2]);
        assert!(d.message.contains("by line 2 on `/d/`"), "{}", d.message);
    }

    #[test]
    fn rt205_names_the_first_rule_that_beats() {
        let found = crate::lint(b"User-agent: *\nDisallow: /x\nDisallow: /x*\nDisallow: /x**\nAllow: /x\n");
        let lines: Vec<_> = found
            .iter()
            .filter(|d| d.code == crate::Code::ShadowedRule)
            .map(|d| (d.line, d.related[0]))
            .collect();
        assert_eq!(lines, [(2, 3), (3, 4), (5, 3)]);
    }

    #[test]
    fn rt206_equal_priority() {
        lints!(b"User-agent: *\nAllow: /page\nDisallow: /*.ph\n", "RT206" @ 3);
        lints!(b"User-agent: *\nAllow: /page\nDisallow: /*.php\n", "RT206" @ none);
    }

    #[test]
    fn rt207_disallow_all() {
        lints!(b"User-agent: *\nDisallow: /\n", "RT207" @ 2);
        lints!(b"User-agent: *\nDisallow: /*\n", "RT207" @ 2);
        lints!(b"User-agent: *\nDisallow: *\n", "RT207" @ 2);
        lints!(b"User-agent: *\nDisallow: *$\n", "RT207" @ 2);
        lints!(b"User-agent: *\nDisallow: /$\n", "RT207" @ none);
        lints!(b"User-agent: a\nDisallow: /\n", "RT207" @ none);
        lints!(b"User-agent: *\nDisallow: /admin/\n", "RT207" @ none);
    }

    #[test]
    fn rt208_assets_blocked() {
        lints!(b"User-agent: *\nDisallow: /*.js$\n", "RT208" @ 2);
        lints!(b"User-agent: *\nDisallow: /*.pdf$\n", "RT208" @ none);
        lints!(b"User-agent: *\nAllow: /*.css\n", "RT208" @ none);
        // WordPress themes: the classic mistake, unless what it blocks
        // is opened again.
        lints!(b"User-agent: *\nDisallow: /admin/\nDisallow: /wp-content/\n", "RT208" @ 3);
        lints!(b"User-agent: *\nDisallow: /js\n", "RT208" @ 2);
        lints!(b"User-agent: *\nDisallow: /wp-content/\nAllow: /wp-content/*.css\nAllow: /wp-content/*.js\n", "RT208" @ none);
        lints!(b"User-agent: *\nDisallow: /wp-content/uploads/\n", "RT208" @ none);
        // Themes and plugins opened again, or Next.js' static files.
        lints!(b"User-agent: *\nDisallow: /wp-content/\nAllow: /wp-content/themes/\nAllow: /wp-content/plugins/\n", "RT208" @ none);
        lints!(b"User-agent: *\nDisallow: /_next/\nAllow: /_next/static/\n", "RT208" @ none);
        lints!(b"User-agent: *\nDisallow: /wp-includes/\nAllow: /wp-includes/js/\nAllow: /wp-includes/css/\n", "RT208" @ none);
        lints!(b"User-agent: *\nDisallow: /static/\nAllow: /static/css/\nAllow: /static/js/\n", "RT208" @ none);
        lints!(b"User-agent: *\nDisallow: /static/\nAllow: /static/css/\n", "RT208" @ 2);
        // Allowed only without a query: WordPress adds `?ver=`.
        lints!(b"User-agent: *\nDisallow: /wp-content/\nAllow: /wp-content/themes/*.css$\nAllow: /wp-content/plugins/*.js$\n", "RT208" @ 2);
        lints!(b"User-agent: *\nDisallow: /wp-content/\nAllow: /wp-content/themes/\n", "RT208" @ 2);
    }

    #[test]
    fn rt208_real_extensions_only() {
        asset!("/*.js", true);
        asset!("/*.js$", true);
        asset!("/*.js?ver=", true);
        asset!("/*.js*", true);
        asset!("/app.mjs", true);
        asset!("/*.css$", true);
        asset!("/*.css?*", true);
        asset!("/wp-includes/", true);
        // The usual folders, with or without their `/`, or a `*`.
        for folder in [
            "/wp-content/",
            "/wp-content",
            "/wp-content/themes/",
            "/wp-content/plugins/*",
            "/_next/",
            "/js",
            "/static",
            "/css*",
        ] {
            asset!(folder, true);
        }
        for other in [
            "/wp-content/uploads/",
            "/jsx",
            "/static-pages/",
            "/assets-old/",
            "/wp-admin/",
        ] {
            asset!(other, false);
        }
        asset!("/*.json", false);
        asset!("/*.jsp", false);
        asset!("/*.jsonp", false);
        asset!("/*.jsx", false);
        asset!("/*.cssx", false);
        asset!("/api/x.json$", false);
        asset!("/a.json/b.js", true);
    }
}
