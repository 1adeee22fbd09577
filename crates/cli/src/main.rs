//! `robotrules`: check, explain, lint and audit robots.txt files with the
//! verdicts of Google's reference parser.

#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    robotrules_cli::main()
}
