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
        let s = |v: &str| Value::Str(v.to_string());
        let os = |v: Option<&str>| v.map_or(Value::Null, s);
        let oi =
            |v: Option<i32>| v.map_or(Value::Null, |v| Value::Int(v.into()));
        let e = &self.eval;
        let mut out = vec![
            s(&self.crawl),
            s(&self.site),
            s(&self.url),
            Value::Int(self.captures.into()),
            Value::Int(self.hops.into()),
            os(self.redirect_stop.as_deref()),
            s(&self.final_url),
            s(&self.date),
            s(&self.file),
            Value::Int(self.offset),
            oi(e.status.map(i32::from)),
            s(e.class),
            os(e.body_kind),
            e.size.map_or(Value::Null, Value::Int),
            e.truncated.map_or(Value::Null, Value::Bool),
            os(e.hash.as_deref()),
            oi(e.groups),
            oi(e.rules),
            oi(e.sitemaps),
            oi(e.lint_errors),
            oi(e.lint_warnings),
        ];
        for v in &e.verdicts {
            out.push(s(v.access));
            out.push(os(v.via));
            out.push(v.crawl_delay.map_or(Value::Null, Value::F64));
        }
        out
    }
}
