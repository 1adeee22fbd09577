//! Checks of the file as a whole: RT001–RT006.

use robotrules::FETCH_LIMIT;

use super::super::Ctx;
use crate::body::BodyKind;
use crate::lint::Code;

/// RT005 (an HTML page) and RT006 (binary data).
pub(crate) fn html_or_binary(ctx: &mut Ctx<'_>) {
    let kind = BodyKind::of(ctx.body());
    let whole = ctx.whole(1);
    if kind == BodyKind::Html {
        // Markup beside rules that still read (`<br>` between lines), on
        // the line where the markup starts.
        let rules: usize =
            ctx.robots.groups().map(|g| g.rules().count()).sum();
        let (line, whole) = match crate::body::first_markup(ctx.body()) {
            Some(at) if rules > 0 => {
                let line = ctx.lines.line_at(at);
                (line, ctx.whole(line))
            }
            _ => (1, whole),
        };
        ctx.report(Code::Html, line, whole, || {
            if rules == 0 {
                let message = "the file is an HTML page, not a robots.txt";
                (message.to_string(), Some(Code::Html.help().into()))
            } else {
                let message = format!(
                    "the file holds HTML markup beside its {rules} rule{}, \
                     which Google still reads",
                    if rules == 1 { "" } else { "s" }
                );
                let help = "remove the markup: serve the rules alone, as \
                            text/plain";
                (message, Some(help.into()))
            }
        });
    } else if kind == BodyKind::Binary {
        // Binary bytes (NUL padding, say) beside rules that still read.
        let rules: usize =
            ctx.robots.groups().map(|g| g.rules().count()).sum();
        // Beside rules, on the line of the first such byte.
        let (line, whole) = match ctx.body().iter().position(|&b| {
            b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)
        }) {
            Some(at) if rules > 0 => {
                let line = ctx.lines.line_at(at);
                (line, ctx.whole(line))
            }
            _ => (1, whole),
        };
        ctx.report(Code::Binary, line, whole, || {
            let message = if rules == 0 {
                "the file holds binary data (UTF-16, compressed or an \
                 image), not a robots.txt"
                    .to_string()
            } else {
                format!(
                    "the file holds binary data (such as NUL bytes) beside \
                     its {rules} rule{}, which Google still reads",
                    if rules == 1 { "" } else { "s" }
                )
            };
            (message, Some(Code::Binary.help().into()))
        });
        // Its lines are still checked when it has rules.
        ctx.not_text = rules == 0;
        return;
    }
    ctx.not_text = kind != BodyKind::Text;
}

/// RT001: over 500 KiB, reported on the line that crosses the limit.
pub(crate) fn too_large(ctx: &mut Ctx<'_>) {
    let len = ctx.body().len();
    if ctx.cut_by_fetch {
        let line = ctx.lines.line_at(len.saturating_sub(1));
        let whole = ctx.whole(line);
        ctx.report(Code::TooLarge, line, whole, || {
            (
                "the file is over 500 KiB: the fetch stopped here, as \
                 Google's does, and the rest is ignored"
                    .into(),
                Some(Code::TooLarge.help().into()),
            )
        });
        return;
    }
    if len <= FETCH_LIMIT {
        return;
    }
    // The first line Google does not read whole (as `explain` says), and
    // the rules from it on: how many, and the first, related. Nothing
    // past it but line ends: nothing is lost.
    let Some(beyond) = crate::first_line_beyond_fetch_limit(ctx.body()) else {
        return;
    };
    let rest = ctx.body().get(ctx.lines.start(beyond)..).unwrap_or_default();
    if rest.iter().all(|b| matches!(b, b'\r' | b'\n')) {
        return;
    }
    let line = beyond;
    let whole = ctx.whole(line);
    let mut lost = ctx
        .robots
        .groups()
        .flat_map(|g| g.rules())
        .map(|r| r.line())
        .filter(|&l| l >= beyond);
    let first = lost.next();
    let count = first.map_or(0, |_| 1 + lost.count());
    if let Some(d) = ctx.report(Code::TooLarge, line, whole, || {
        let rules = match first {
            Some(first) => format!(
                " ({count} rule{} from line {first} on)",
                if count == 1 { "" } else { "s" }
            ),
            None => String::new(),
        };
        (
            format!(
                "the file is {}: Google reads the first 500 KiB only, and \
                 ignores the rest from here{rules}",
                size(len)
            ),
            Some(Code::TooLarge.help().into()),
        )
    }) {
        d.related.extend(first.filter(|&f| f != line));
    }
}

/// A size over 500 KiB as people read it: whole KiB when exact, else
/// one decimal, rounded up (`500.1 KiB`, never `500 KiB` for more).
fn size(len: usize) -> String {
    if len % 1024 == 0 {
        return format!("{} KiB", len / 1024);
    }
    // Tenths of a KiB, rounded up.
    let tenths = (len * 10).div_ceil(1024);
    format!("{}.{} KiB", tenths / 10, tenths % 10)
}

/// RT002: a UTF-8 byte order mark.
///
/// Google's parser skips the longest start of the file that is a start of
/// `EF BB BF`, so a cut mark (`EF BB`, `EF`) is skipped as well; other
/// parsers read its bytes, which are not UTF-8, into the first line.
pub(crate) fn bom(ctx: &mut Ctx<'_>) {
    // Line 1 starts where the skipped bytes end.
    let skipped = ctx.lines.start(1);
    if skipped == 0 {
        return;
    }
    ctx.report(Code::Bom, 1, 0..0, || {
        if skipped == 3 {
            return (
                "the file starts with a UTF-8 byte order mark".into(),
                Some(Code::Bom.help().into()),
            );
        }
        let bytes = ["`EF`", "`EF BB`"][skipped - 1];
        (
            format!(
                "the file starts with part of a UTF-8 byte order mark \
                 ({bytes}): Google skips it, other parsers read bytes that \
                 are not UTF-8 at the start of line 1"
            ),
            Some("remove the bytes before line 1".into()),
        )
    });
}

/// RT003: the first byte that is not UTF-8, after the bytes of a byte
/// order mark that RT002 reports.
pub(crate) fn not_utf8(ctx: &mut Ctx<'_>) {
    let skipped = ctx.lines.start(1);
    if let Err(e) = std::str::from_utf8(&ctx.body()[skipped..]) {
        let line = ctx.lines.line_at(skipped + e.valid_up_to());
        let whole = ctx.whole(line);
        ctx.report(Code::NotUtf8, line, whole, || {
            (
                "the file is not UTF-8: values with these bytes are \
                 escaped byte by byte"
                    .into(),
                Some(Code::NotUtf8.help().into()),
            )
        });
    }
}

/// RT004: the first CR that is not followed by LF.
pub(crate) fn cr_line_endings(ctx: &mut Ctx<'_>) {
    let body = ctx.body();
    let lone =
        carriage_returns(body).find(|&at| body.get(at + 1) != Some(&b'\n'));
    if let Some(at) = lone {
        let line = ctx.lines.line_at(at);
        let whole = ctx.whole(line);
        ctx.report(Code::CrLineEndings, line, whole, || {
            (
                "the file uses CR alone to end lines".into(),
                Some(Code::CrLineEndings.help().into()),
            )
        });
    }
}

/// The positions of the CR bytes of `body`.
fn carriage_returns(body: &[u8]) -> impl Iterator<Item = usize> + '_ {
    body.iter().enumerate().filter(|(_, &b)| b == b'\r').map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use crate::lint::lints;

    #[test]
    fn rt001_too_large() {
        let mut body = b"User-agent: *\r\n".to_vec();
        let mut line = 1;
        let mut crossing = 0;
        while body.len() <= 520_000 {
            line += 1;
            body.extend_from_slice(
                format!("Disallow: /p-{line}\r\n").as_bytes(),
            );
            if crossing == 0 && body.len() > robotrules::FETCH_LIMIT {
                crossing = line;
            }
        }
        lints!(&body, "RT001" @ crossing);
        lints!(b"User-agent: *\n", "RT001" @ none);
        // How many rules Google does not read, from the cut one on.
        let found = crate::lint(&body);
        let d =
            found.iter().find(|d| d.code == crate::Code::TooLarge).unwrap();
        let lost = line - crossing + 1;
        assert!(
            d.message.ends_with(&format!(
                "ignores the rest from here ({lost} rules from line \
                 {crossing} on)"
            )),
            "{}",
            d.message
        );
        // A rule whose bytes all fit, only its line break past the
        // limit, is read (as `explain` says): not counted.
        let mut body = b"User-agent: *\n# ".to_vec();
        let rule = b"\nDisallow: /bbbb";
        body.resize(robotrules::FETCH_LIMIT - rule.len(), b'x');
        body.extend_from_slice(rule);
        assert_eq!(body.len(), robotrules::FETCH_LIMIT);
        body.extend_from_slice(b"\r\nDisallow: /c\r\n");
        let found = crate::lint(&body);
        let d =
            found.iter().find(|d| d.code == crate::Code::TooLarge).unwrap();
        assert!(
            d.message.ends_with("(1 rule from line 4 on)"),
            "{}",
            d.message
        );
        // Reported on that first line not read whole.
        assert_eq!((d.line, &d.related[..]), (4, &[][..]));
        // Only line ends past the limit: nothing is lost, no RT001.
        body.truncate(robotrules::FETCH_LIMIT);
        body.extend_from_slice(b"\r\n");
        lints!(&body, "RT001" @ none);
        // Past the limit, only comments: no count.
        let mut body = b"User-agent: *\nDisallow: /a\n".to_vec();
        body.resize(600_000, b'#');
        let found = crate::lint(&body);
        let d =
            found.iter().find(|d| d.code == crate::Code::TooLarge).unwrap();
        assert!(d.message.ends_with("from here"), "{}", d.message);
        assert!(d.related.is_empty());
    }

    #[test]
    fn rt001_cut_by_fetch() {
        let body = b"User-agent: *\nDisallow: /a\nDisallow: /b";
        let robots = robotrules::Robots::parse(body);
        let options =
            crate::Options { cut_by_fetch: true, ..Default::default() };
        let found = crate::lint_with(&robots, body, &options);
        let rt001: Vec<_> = found
            .iter()
            .filter(|d| d.code == crate::Code::TooLarge)
            .map(|d| d.line)
            .collect();
        assert_eq!(rt001, [3]);
    }

    #[test]
    fn rt002_bom() {
        lints!("\u{feff}User-agent: *\n".as_bytes(), "RT002" @ 1);
        lints!(b"User-agent: *\n", "RT002" @ none);
    }

    #[test]
    fn rt003_not_utf8() {
        lints!(b"User-agent: *\nDisallow: /caf\xe9\n", "RT003" @ 2);
        lints!(b"User-agent: *\r\nAllow: /\r\nDisallow: /caf\xe9\r\n", "RT003" @ 3);
        lints!(b"User-agent: *\rAllow: /\rDisallow: /caf\xe9\r", "RT003" @ 3);
        lints!(b"\xEF\xBB\xBFUser-agent: *\r\nAllow: /\r\n\xff\r\n", "RT003" @ 3);
        lints!("User-agent: *\nDisallow: /café\n".as_bytes(), "RT003" @ none);
    }

    #[test]
    fn rt004_cr_line_endings() {
        lints!(b"User-agent: *\rDisallow: /x\r", "RT004" @ 1);
        lints!(b"User-agent: *\r\nAllow: /\r\nDisallow: /x\rAllow: /y", "RT004" @ 3);
        lints!(b"User-agent: *\r\nDisallow: /x\r\n", "RT004" @ none);
    }

    #[test]
    fn rt005_html() {
        lints!(b"<!DOCTYPE html>\n<html><body>x</body></html>\n", "RT005" @ 1);
        lints!(b"User-agent: *\nDisallow: /html/\n", "RT005" @ none);
    }

    #[test]
    fn rt006_binary() {
        lints!(b"\xFF\xFEU\0s\0e\0r\0", "RT006" @ 1);
        lints!(b"\x1F\x8B\x08\0\0\0\0\0", "RT006" @ 1);
        lints!(b"U\0s\0e\0r\0-\0a\0g\0e\0n\0t\0", "RT006" @ 1);
        lints!(b"User-agent: *\nDisalow: /x\x1b[31mRED\x1b]0;t\x07\nAllow: /\n", "RT006" @ none);
        lints!(b"User-agent: *\n", "RT006" @ none);
        // Beside rules, said on the line where the binary bytes start.
        let mut padded = b"User-agent: *\nDisallow: /a\n".to_vec();
        padded.resize(600, 0);
        lints!(&padded, "RT006" @ 3);
    }
}

#[cfg(test)]
mod size_tests {
    use super::size;

    #[test]
    fn sizes_over_the_limit_never_read_as_the_limit() {
        assert_eq!(size(512_001), "500.1 KiB");
        assert_eq!(size(513_023), "501.0 KiB");
        assert_eq!(size(513_024), "501 KiB");
        assert_eq!(size(1_048_576), "1024 KiB");
    }
}
