//! `robotrules`: check, explain, lint and audit robots.txt files with the
//! verdicts of Google's reference parser, one or millions (`bulk`).
//!
//! The analysis lives in the `robotrules-analysis` crate; this binary
//! parses arguments, loads files and renders results.

#![deny(unsafe_code)]

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::{Parser, Subcommand};

mod alloc;
mod audit;
mod bulk;
mod check;
mod explain;
mod fetch;
mod input;
mod lint;
mod serve;

/// Check, explain and lint robots.txt files, with the verdicts of Google's
/// reference parser (RFC 9309).
#[derive(Parser)]
#[command(name = "robotrules", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Check(check::Args),
    Explain(explain::Args),
    Audit(audit::Args),
    Lint(lint::Args),
    Fetch(fetch::Args),
    Bulk(bulk::Args),
    Serve(serve::Args),
}

/// What a command found, mapped to the exit status.
pub enum Outcome {
    /// Everything checked is allowed (exit 0).
    Allowed,
    /// Something checked is disallowed (exit 1).
    Disallowed,
}

fn main() -> ExitCode {
    alloc::configure();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => check::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Audit(args) => audit::run(args),
        Command::Lint(args) => lint::run(args),
        Command::Fetch(args) => fetch::run(args),
        Command::Bulk(args) => bulk::run(args),
        Command::Serve(args) => serve::run(args),
    };
    alloc::finish();
    match result {
        Ok(Outcome::Allowed) => ExitCode::SUCCESS,
        Ok(Outcome::Disallowed) => ExitCode::from(1),
        // The output was cut short, but what was found stands.
        Err(err) if is_broken_pipe(&err) => {
            ExitCode::from(u8::from(FOUND_DISALLOWED.load(Ordering::Relaxed)))
        }
        Err(err) => {
            let _ = writeln!(io::stderr(), "robotrules: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Set once a command has found what makes it exit 1 (a URL disallowed, a
/// lint error), before it writes it: a closed pipe downstream then still
/// exits 1.
static FOUND_DISALLOWED: AtomicBool = AtomicBool::new(false);

/// Records that the command will exit 1, whatever happens to its output.
pub(crate) fn found_disallowed() {
    FOUND_DISALLOWED.store(true, Ordering::Relaxed);
}

/// A closed pipe downstream (`robotrules check … | head`) is not an error:
/// the exit status is what the command found before it.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io = cause.downcast_ref::<io::Error>().map(io::Error::kind);
        // JSON is written through serde_json, whose errors carry the I/O
        // error's kind.
        let json = cause
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io.or(json) == Some(io::ErrorKind::BrokenPipe)
    })
}
