//! Memory (issue "Hardening"): the engine's heap, counted by a global allocator that tracks
//! live bytes (more exact than the resident set, which the allocator's own caching blurs).
//! - Apply and undo at one position, 10,000 times: the heap does not grow.
//! - A 2,000-ply game: the heap grows only by the move and undo logs; the test prints the
//!   bytes a ply costs and holds them under a bound.
//!
//! One test in this file, and only the test's own thread is counted, so that nothing beside
//! it (the test harness's thread) moves the count (900 bytes did once, under load).

use crate::common;
use common::Rng;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

use chimera::rules::{EndCondition, Engine, Variant};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

thread_local! {
    /// Whether this thread's allocations count (a `const` cell: reading it never allocates).
    static COUNTED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn counted() -> bool {
    COUNTED.try_with(std::cell::Cell::get).unwrap_or(false)
}

// SAFETY: every call is passed to the system allocator unchanged; only a counter is kept.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && counted() {
            LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on.
        unsafe { System.dealloc(ptr, layout) };
        if counted() {
            LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` is passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() && counted() {
            LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> isize {
    LIVE.load(Ordering::Relaxed)
}

#[test]
fn the_heap_does_not_grow_but_by_the_logs() {
    COUNTED.with(|c| c.set(true));
    // Apply and undo every legal move of Kiwipete in turn (captures, castling, promotions
    // among them), 10,000 times in all, after a warm-up that lets buffers reach their size.
    let mut e = Engine::from_fen(Variant::chess(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
    let moves = e.legal_moves();
    let cycle = |e: &mut Engine, n: usize| {
        for i in 0..n {
            e.apply(moves[i % moves.len()]).unwrap();
            e.legal_moves();
            e.undo().unwrap();
        }
    };
    cycle(&mut e, 2 * moves.len());
    let before = live();
    cycle(&mut e, 10_000);
    let grown = live() - before;
    println!("memory: 10,000 apply/undo cycles at Kiwipete: the heap grew by {grown} bytes");
    assert!(grown <= 0, "the heap grew by {grown} bytes over 10,000 apply/undo cycles");

    // A 2,000-ply game of knights and kings, where nothing ends it (no move rule, no
    // repetition), with SAN recorded as the game does.
    let mut endless = Variant::chess();
    endless.end = vec![EndCondition::Checkmate];
    let mut e = Engine::from_fen(endless, "4k3/2n2n2/8/8/8/8/2N2N2/4K3 w - - 0 1").unwrap();
    let mut rng = Rng(7);
    e.legal_moves();
    let before = live();
    let mut plies = 0;
    while plies < 2_000 {
        let moves = e.legal_moves();
        let m = moves[rng.below(moves.len())];
        e.apply(m).unwrap();
        // A mate (or a capture that leaves a bare king with no way to end) is taken back and
        // another move tried: the game must go on.
        if e.outcome().is_some() {
            e.undo().unwrap();
            continue;
        }
        plies += 1;
    }
    let per_ply = (live() - before) as f64 / 2_000.0;
    println!("memory: a 2,000-ply game grew the heap by {per_ply:.0} bytes a ply (move log, undo log, history)");
    assert!(per_ply < 1_024.0, "{per_ply:.0} bytes a ply");
    assert_eq!(e.move_log().0.len(), 2_000);
}
