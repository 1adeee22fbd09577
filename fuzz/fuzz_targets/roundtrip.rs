//! Parse, write the canonical form, parse again: the same structure and
//! the same verdicts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use robotrules::Robots;

fn shape(r: &Robots) -> Vec<String> {
    let mut out = Vec::new();
    for g in r.groups() {
        out.push(format!("g {} {}", g.line(), g.end_line()));
        out.extend(g.agents().map(|a| format!("a {} {:?}", a.line(), a.value())));
        out.extend(g.rules().map(|x| format!("r {} {} {}", x.line(), x.kind(), x.pattern())));
    }
    out.extend(r.orphan_rules().map(|x| format!("o {} {}", x.line(), x.pattern())));
    out.extend(r.sitemaps().map(|s| format!("s {} {:?}", s.line(), s.url())));
    out.extend(r.unknown_directives().map(|u| format!("u {} {:?} {}", u.line(), u.key(), u.value())));
    out.push(format!("n {}", r.line_count()));
    out
}

fuzz_target!(|data: &[u8]| {
    let first = Robots::parse(data);
    let text = first.to_canonical();
    let second = Robots::parse(&text);
    assert_eq!(shape(&first), shape(&second));
    assert_eq!(second.to_canonical(), text);
    for url in ["/", "/a", "/a/b?c", "/index.html"] {
        assert_eq!(first.is_allowed("a", url), second.is_allowed("a", url));
    }
});
