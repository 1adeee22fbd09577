//! The allocator of the command line: mimalloc.
//!
//! `robotrules bulk` makes and frees millions of small values on several
//! threads (records, rows, matchers), and its writer thread frees rows made
//! by the workers. The system allocator spent about a sixth of the job's
//! time there, waiting on its arenas' locks for the frees from another
//! thread among it; mimalloc frees across threads without a lock.

#![allow(unsafe_code)]

use libmimalloc_sys as sys;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` of mimalloc.h (in its v2 and v3 alike).
const PURGE_DELAY: sys::mi_option_t = 15;

/// Sets the allocator's options; call it first thing in `main`.
///
/// Memory freed is given back to the system after a second unused, not
/// 10 ms: the bulk job frees and makes again its large buffers (a
/// member's bytes, a row group) all the time, and giving them back at
/// once made the system's time of a run up to five times as long, zeroing
/// pages again.
pub(crate) fn configure() {
    // SAFETY: `mi_option_set` takes any option and value; an option the
    // library does not know is ignored. It is called before any thread
    // is started.
    unsafe { sys::mi_option_set(PURGE_DELAY, 1000) }
}

/// Stops giving memory back to the system; call it when the command is
/// done. At exit mimalloc gives back every page it holds, one call to the
/// system for each run of them, which the system would have taken back at
/// once: a short bulk run spent about 2% of its time there.
pub(crate) fn finish() {
    // SAFETY: as in `configure`; a negative delay turns purging off
    // (mimalloc.h), which other threads still running may see at any
    // point without harm.
    unsafe { sys::mi_option_set(PURGE_DELAY, -1) }
}
