//! Writes hostile robots.txt files ([`robotrules_bench::hostile_files`])
//! for timing `robotrules audit`, `lint` and `check` on them, with their
//! peak memory (BENCHMARKS.md).
//!
//! Usage: `hostile DIR`.

use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir =
        PathBuf::from(std::env::args().nth(1).unwrap_or("hostile".into()));
    std::fs::create_dir_all(&dir)?;
    for (name, body) in robotrules_bench::hostile_files() {
        let path = dir.join(name);
        std::fs::write(&path, &body)?;
        println!("{} {} bytes", path.display(), body.len());
    }
    Ok(())
}
