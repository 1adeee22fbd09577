//! Heap bytes that a parsed file keeps, per implementation, over the whole
//! real corpus, measured by a counting allocator (and, for robotrules,
//! checked against its own `Robots::heap_size`).
//!
//! Run: `cargo run --release -p robotrules-bench --bin heap`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use robotrules_bench::{corpus, median};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the
// counter only observes sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(
        &self,
        ptr: *mut u8,
        layout: Layout,
        new_size: usize,
    ) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: the caller's contract is passed on as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Heap bytes still held by the value `make` returns.
fn retained<T>(make: impl FnOnce() -> T) -> (usize, T) {
    let before = LIVE.load(Ordering::Relaxed);
    let value = make();
    let after = LIVE.load(Ordering::Relaxed);
    ((after - before).max(0) as usize, value)
}

/// The median, 90th percentile and maximum of some figures.
fn spread(values: &mut [f64]) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let p90 = values[values.len() * 9 / 10];
    let max = values[values.len() - 1];
    (median(values), p90, max)
}

fn main() {
    let files = corpus();
    let mut ratios: [Vec<f64>; 3] = Default::default();
    let mut bytes: [Vec<f64>; 3] = Default::default();
    // robotrules: parsed, parsed + ready matcher, parsed + indexed
    // matcher; a matcher from `Matcher::parse`, ready and indexed.
    let mut ready: [Vec<f64>; 5] = Default::default();
    let mut sizes = Vec::new();
    let mut self_report_mismatch = 0usize;
    for (_, body) in &files {
        if body.is_empty() {
            continue;
        }
        sizes.push(body.len() as f64);
        let (ours, robots) = retained(|| robotrules::Robots::parse(body));
        if ours != robots.heap_size() {
            self_report_mismatch += 1;
        }
        let (matcher, m) = retained(|| robots.matcher(&["Googlebot"]));
        let (index, ()) = retained(|| m.compile());
        if matcher + index != m.heap_size() {
            self_report_mismatch += 1;
        }
        let (bound, b) =
            retained(|| robotrules::Matcher::parse(body, &["Googlebot"]));
        let (bound_index, ()) = retained(|| b.compile());
        if bound + bound_index != b.heap_size() {
            self_report_mismatch += 1;
        }
        let size = body.len() as f64;
        ready[0].push(ours as f64 / size);
        ready[1].push((ours + matcher) as f64 / size);
        ready[2].push((ours + matcher + index) as f64 / size);
        ready[3].push(bound as f64 / size);
        ready[4].push((bound + bound_index) as f64 / size);
        drop((m, b));
        let (texting, t) =
            retained(|| texting_robots::Robot::new("Googlebot", body).ok());
        let (rx, r) = retained(|| robotxt::Robots::parse(body, "Googlebot"));
        drop((robots, t, r));
        for (i, held) in [ours, texting, rx].into_iter().enumerate() {
            ratios[i].push(held as f64 / body.len() as f64);
            bytes[i].push(held as f64);
        }
    }
    println!(
        "{} non-empty files, median size {:.0} bytes\n",
        sizes.len(),
        median(&mut sizes)
    );
    println!("| implementation | median retained heap (bytes) | median heap ÷ file size | p90 heap ÷ file size |");
    println!("|---|---:|---:|---:|");
    let names = [
        "robotrules (all groups, rules, report)",
        "texting_robots 0.2 (one agent)",
        "robotxt 0.7 (one agent)",
    ];
    for i in 0..3 {
        let mut r = ratios[i].clone();
        r.sort_by(f64::total_cmp);
        let p90 = r[r.len() * 9 / 10];
        println!(
            "| {} | {:.0} | {:.2} | {:.2} |",
            names[i],
            median(&mut bytes[i]),
            median(&mut ratios[i]),
            p90
        );
    }
    println!("\nrobotstxt 0.3 keeps no parsed form: it re-parses the body (which the caller keeps) on every check.");
    println!("robotrules' own heap_size() disagreed with the allocator on {self_report_mismatch} files.");

    println!("\n#### robotrules: the parsed file plus a matcher for Googlebot, ÷ file size\n");
    println!("| what is held | median | p90 | max |");
    println!("|---|---:|---:|---:|");
    let what = [
        "parsed file",
        "parsed file + ready matcher",
        "parsed file + matcher with its index",
        "`Matcher::parse` alone, ready",
        "`Matcher::parse` alone, with its index",
    ];
    for (name, values) in what.iter().zip(&mut ready) {
        let (m, p90, max) = spread(values);
        println!("| {name} | {m:.2} | {p90:.2} | {max:.2} |");
    }

    println!("\n#### Hostile files: parsed file plus a matcher with its index (`*` group)\n");
    println!(
        "| file | size | parsed | + ready matcher | + index | ÷ file size | `Matcher::parse` + index ÷ file size |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (name, body) in robotrules_bench::hostile_files() {
        let (parsed, robots) = retained(|| robotrules::Robots::parse(&body));
        let (ready, m) = retained(|| robots.matcher(&["Googlebot"]));
        let (index, ()) = retained(|| m.compile());
        let total = parsed + ready + index;
        drop(m);
        let (bound, b) =
            retained(|| robotrules::Matcher::parse(&body, &["Googlebot"]));
        let (bound_index, ()) = retained(|| b.compile());
        println!(
            "| {name} | {} | {} | {} | {} | {:.2} | {:.2} |",
            body.len(),
            parsed,
            ready,
            index,
            total as f64 / body.len() as f64,
            (bound + bound_index) as f64 / body.len() as f64
        );
    }
}
