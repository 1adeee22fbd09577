//! The table: one schema for every output (Parquet, CSV, JSON lines) and
//! for the Spark job, and one row per site and crawl.

use robotrules_analysis::Catalogue;

use crate::eval::Evaluation;

/// The type of a column.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub enum Type {
    /// UTF-8 text (Parquet `BYTE_ARRAY (STRING)`).
    Str,
    /// A 32-bit integer.
    I32,
    /// A 64-bit integer.
    I64,
    /// A 64-bit float.
    F64,
    /// A boolean.
    Bool,
}

/// One column: its name and type; every column may be null.
#[derive(Clone, Debug, Eq, PartialEq)]
#[non_exhaustive]
pub struct Column {
    /// The name.
    pub name: String,
    /// The type.
    pub kind: Type,
}

/// One value of a row.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Value {
    /// No value.
    Null,
    /// Text.
    Str(String),
    /// An integer (of a [`Type::I32`] or [`Type::I64`] column).
    Int(i64),
    /// A float.
    F64(f64),
    /// A boolean.
    Bool(bool),
}

/// The columns before the crawlers', in order, with their types: see the
/// README for what each holds.
pub const SITE_COLUMNS: &[(&str, Type)] = &[
    ("crawl", Type::Str),
    ("site", Type::Str),
    ("url", Type::Str),
    ("captures", Type::I32),
    ("hops", Type::I32),
    ("redirect_stop", Type::Str),
    ("final_url", Type::Str),
    ("date", Type::Str),
    ("file", Type::Str),
    ("offset", Type::I64),
    ("status", Type::I32),
    ("class", Type::Str),
    ("body_kind", Type::Str),
    ("size", Type::I64),
    ("truncated", Type::Bool),
    ("hash", Type::Str),
    ("groups", Type::I32),
    ("rules", Type::I32),
    ("sitemaps", Type::I32),
    ("lint_errors", Type::I32),
    ("lint_warnings", Type::I32),
];

/// The table's columns: [`SITE_COLUMNS`], then for each crawler of the
/// catalogue `access_<token>`, `via_<token>` and `delay_<token>`.
#[derive(Clone, Debug)]
pub struct Schema {
    columns: Vec<Column>,
    tokens: Vec<String>,
}

impl Schema {
    /// The schema for `catalogue`.
    ///
    /// # Example
    ///
    /// ```
    /// use robotrules_analysis::Catalogue;
    /// use robotrules_bulk::Schema;
    ///
    /// let schema = Schema::new(&Catalogue::builtin());
    /// assert_eq!(schema.columns()[0].name, "crawl");
    /// assert!(schema.columns().iter().any(|c| c.name == "access_GPTBot"));
    /// ```
    pub fn new(catalogue: &Catalogue) -> Schema {
        let mut columns: Vec<Column> = SITE_COLUMNS
            .iter()
            .map(|&(name, kind)| Column { name: name.into(), kind })
            .collect();
        let tokens: Vec<String> =
            catalogue.crawlers().iter().map(|c| c.token.clone()).collect();
        for t in &tokens {
            columns
                .push(Column { name: format!("access_{t}"), kind: Type::Str });
            columns.push(Column { name: format!("via_{t}"), kind: Type::Str });
            columns
                .push(Column { name: format!("delay_{t}"), kind: Type::F64 });
        }
        Schema { columns, tokens }
    }

    /// The columns, in order.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The crawlers' tokens, in order.
    pub fn tokens(&self) -> &[String] {
        &self.tokens
    }
}

/// One site of one crawl: where its robots.txt capture was found, what
/// redirects led to, and the evaluation of the capture they led to.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Row {
    /// The crawl.
    pub crawl: String,
    /// The site: `scheme://host[:port]`.
    pub site: String,
    /// The robots.txt URL captured for the site.
    pub url: String,
    /// How many captures of that URL the crawl holds.
    pub captures: i32,
    /// How many redirects were followed.
    pub hops: i32,
    /// Why a redirect chain stopped without a robots.txt: `loop`,
    /// `too_many`, `no_location`, `scheme`, `not_captured`.
    pub redirect_stop: Option<String>,
    /// The URL whose capture was evaluated.
    pub final_url: String,
    /// The `WARC-Date` of that capture.
    pub date: String,
    /// The file that holds it.
    pub file: String,
    /// Its byte offset there.
    pub offset: i64,
    /// What it means.
    pub eval: Evaluation,
}

impl Row {
    /// The row's values in the order of [`Schema::columns`].
    pub fn values(&self) -> Vec<Value> {
        let mut out = Vec::with_capacity(
            SITE_COLUMNS.len() + 3 * self.eval.verdicts.len(),
        );
        self.for_each_value(|v| out.push(v.to_value()));
        out
    }

    /// Hands the row's values to `each` in the order of
    /// [`Schema::columns`], borrowed: [`Row::values`] without an
    /// allocation per value, for writers of many rows.
    pub fn for_each_value(&self, mut each: impl FnMut(ValueRef<'_>)) {
        self.for_each_cell(|c| {
            each(match c {
                Cell::Ref(v) => v,
                Cell::Static(s) => ValueRef::Str(s),
            })
        });
    }

    /// [`Row::for_each_value`], with the strings of a fixed vocabulary
    /// (the class, the body kind, each crawler's access and via) marked
    /// as living as long as the program: a writer can keep them without
    /// a copy.
    pub(crate) fn for_each_cell(&self, mut each: impl FnMut(Cell<'_>)) {
        self.for_each_site_cell(&mut each);
        for v in self.eval.verdicts.iter() {
            each(Cell::Static(v.access));
            each(v.via.map_or(Cell::Ref(ValueRef::Null), Cell::Static));
            each(Cell::Ref(
                v.crawl_delay.map_or(ValueRef::Null, ValueRef::F64),
            ));
        }
    }

    /// [`Row::for_each_cell`] for the cells of [`SITE_COLUMNS`] alone;
    /// the crawlers' follow, three a crawler, from `eval.verdicts`.
    pub(crate) fn for_each_site_cell(&self, mut each: impl FnMut(Cell<'_>)) {
        fn os(v: Option<&str>) -> Cell<'_> {
            Cell::Ref(v.map_or(ValueRef::Null, ValueRef::Str))
        }
        fn st(v: Option<&'static str>) -> Cell<'static> {
            v.map_or(Cell::Ref(ValueRef::Null), Cell::Static)
        }
        let s = |v| Cell::Ref(ValueRef::Str(v));
        let int = |v: i64| Cell::Ref(ValueRef::Int(v));
        let oi = |v: Option<i32>| {
            Cell::Ref(v.map_or(ValueRef::Null, |v| ValueRef::Int(v.into())))
        };
        let e = &self.eval;
        each(s(&self.crawl));
        each(s(&self.site));
        each(s(&self.url));
        each(int(self.captures.into()));
        each(int(self.hops.into()));
        each(os(self.redirect_stop.as_deref()));
        each(s(&self.final_url));
        each(s(&self.date));
        each(s(&self.file));
        each(int(self.offset));
        each(oi(e.status.map(i32::from)));
        each(Cell::Static(e.class));
        each(st(e.body_kind));
        each(Cell::Ref(e.size.map_or(ValueRef::Null, ValueRef::Int)));
        each(Cell::Ref(e.truncated.map_or(ValueRef::Null, ValueRef::Bool)));
        each(os(e.hash.as_deref()));
        each(oi(e.groups));
        each(oi(e.rules));
        each(oi(e.sitemaps));
        each(oi(e.lint_errors));
        each(oi(e.lint_warnings));
    }
}

/// Whether the column `name` holds only words of a fixed vocabulary
/// ([`Cell::Static`] values, or null): `class`, `body_kind` and every
/// crawler's `access_` and `via_` column.
pub(crate) fn fixed_words(name: &str) -> bool {
    matches!(name, "class" | "body_kind")
        || name.starts_with("access_")
        || name.starts_with("via_")
}

/// A value handed to a writer: borrowed from the row, or a string of a
/// fixed vocabulary that lives as long as the program.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cell<'a> {
    /// Borrowed from the row.
    Ref(ValueRef<'a>),
    /// A `&'static str`.
    Static(&'static str),
}

/// One value of a row, borrowed: see [`Row::for_each_value`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ValueRef<'a> {
    /// No value.
    Null,
    /// Text.
    Str(&'a str),
    /// An integer (of a [`Type::I32`] or [`Type::I64`] column).
    Int(i64),
    /// A float.
    F64(f64),
    /// A boolean.
    Bool(bool),
}

impl ValueRef<'_> {
    /// The value, owned.
    pub fn to_value(self) -> Value {
        match self {
            ValueRef::Null => Value::Null,
            ValueRef::Str(s) => Value::Str(s.to_string()),
            ValueRef::Int(n) => Value::Int(n),
            ValueRef::F64(f) => Value::F64(f),
            ValueRef::Bool(b) => Value::Bool(b),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{evaluate, Capture, Options};

    #[test]
    fn fixed_words_are_the_static_cells() {
        let catalogue = Catalogue::builtin();
        let schema = Schema::new(&catalogue);
        let capture = Capture {
            status: Some(200),
            body: b"User-agent: GPTBot\nDisallow: /\nCrawl-delay: 2\n"
                .to_vec(),
            ..Capture::default()
        };
        let row = Row {
            crawl: "CC-MAIN-2024-10".into(),
            site: "https://a.example".into(),
            url: "https://a.example/robots.txt".into(),
            captures: 1,
            hops: 0,
            redirect_stop: Some("loop".into()),
            final_url: "https://a.example/robots.txt".into(),
            date: "2024-02-20T00:00:00Z".into(),
            file: "a.warc.gz".into(),
            offset: 0,
            eval: evaluate(&capture, &Options::new(catalogue)),
        };
        let mut columns = schema.columns().iter();
        let mut words = 0;
        row.for_each_cell(|cell| {
            let column = columns.next().unwrap();
            let fixed = fixed_words(&column.name);
            match cell {
                Cell::Static(_) => {
                    assert!(fixed, "{}", column.name);
                    words += 1;
                }
                Cell::Ref(ValueRef::Null) => {}
                Cell::Ref(_) => assert!(!fixed, "{}", column.name),
            }
        });
        assert!(columns.next().is_none());
        assert_eq!(words, 2 + 2 * schema.tokens().len());
    }
}
