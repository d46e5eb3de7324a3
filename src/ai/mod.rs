//! The computer opponent: a search on the engine's own rules ([`search`]), an evaluation
//! computed from each variant's data ([`eval`]), and eight levels of strength.
//!
//! The search is a plain function on a forked game ([`crate::rules::Engine::fork`]) with an
//! atomic stop flag, so it runs the same on a `std::thread` (the UCI mode, tests, the
//! engine-only build) and on Bevy's `AsyncComputeTaskPool` in the window.
//!
//! # Levels
//!
//! A level limits the depth and the time per move, and chooses its move among its few best
//! root moves (four at level 1, down to two at levels 4–6) that score within a margin of the
//! best (seeded, never outside the margin). Level 1 looks one ply ahead (plus captures) and may
//! give away up to two pawns' worth; level 8 searches fully with no margin. Limiting the choice
//! to the best few keeps a weak level's opening sensible (its few best moves there are all
//! developing moves) while it still errs where the position is sharp and its shallow search
//! misses what a move allows: a beginner's mistakes, not random ones.
//!
//! Layer: uses `rules`, `modifiers`, `presets` and `variants`.

pub mod balance;
pub mod eval;
pub mod piece_values;
pub mod review;
pub mod search;
pub mod tt;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use eval::{Evaluator, Score};
pub use search::{Clock, Info, Limits, MATE, SearchMemory, SearchResult, Weakness};

use crate::rules::Engine;

/// The strongest level.
pub const MAX_LEVEL: u8 = 8;

/// What a level may spend and how far it may err.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSpec {
    /// Iterative deepening stops at this depth.
    pub depth: u32,
    /// Time per move when no clock says otherwise.
    pub movetime: Duration,
    /// Picks among root moves within this many centipawns of the best.
    pub margin: Score,
    /// … and only among the best this many (0: any within the margin).
    pub choices: usize,
}

/// The settings of level `level` (1–8; values outside are clamped).
///
/// The weak levels err as a beginner does: they look only a few plies ahead (so a tactic a
/// move deeper goes unseen, and a piece attacked is left hanging when the position is sharp),
/// and they pick among their few best-looking moves (the plausible ones), never a move far
/// below the best. In a quiet opening the few best moves are all sensible developing moves;
/// in a sharp middlegame the second and third best may lose material.
pub fn level(level: u8) -> LevelSpec {
    let (depth, ms, margin, choices) = match level.clamp(1, MAX_LEVEL) {
        1 => (1, 50, 220, 4),
        2 => (2, 100, 150, 3),
        3 => (3, 150, 100, 3),
        4 => (4, 200, 60, 2),
        5 => (6, 300, 35, 2),
        6 => (8, 500, 18, 2),
        7 => (12, 700, 6, 0),
        _ => (64, 1000, 0, 0),
    };
    LevelSpec { depth, movetime: Duration::from_millis(ms), margin, choices }
}

/// A computer player for one game: its evaluation of the variant and its search memory.
pub struct Computer {
    /// The evaluation, computed once from the variant.
    pub eval: Evaluator,
    /// Transposition table and history, kept between moves.
    pub memory: SearchMemory,
    /// 1–8.
    pub level: u8,
    /// Seed of the level's picks.
    pub seed: u64,
}

impl Computer {
    /// A computer at `level` for the game `engine` plays.
    pub fn new(engine: &Engine, level: u8) -> Computer {
        Computer::with_eval(Evaluator::new(engine.variant()), level)
    }

    /// A computer at `level` with an evaluation already computed for the variant.
    pub fn with_eval(eval: Evaluator, level: u8) -> Computer {
        Computer { eval, memory: SearchMemory::new(16), level: level.clamp(1, MAX_LEVEL), seed: 0x5EED }
    }

    /// The limits of this level, tightened by `limits` (a clock, a fixed time, depth or nodes).
    /// The level's time a move applies only when no limit is given: a depth alone (UCI's
    /// `go depth 12`) is searched to that depth (at most the level's own) however long it
    /// takes.
    pub fn limits(&self, mut limits: Limits) -> Limits {
        let spec = level(self.level);
        let unbounded = limits.depth.is_none() && limits.movetime.is_none() && limits.clock.is_none() && limits.nodes.is_none();
        limits.depth = Some(limits.depth.map_or(spec.depth, |d| d.min(spec.depth)));
        if unbounded && !limits.infinite {
            limits.movetime = Some(spec.movetime);
        }
        limits
    }

    /// Searches a fork of `engine` (which is left untouched) and returns the move to play.
    pub fn think(&mut self, engine: &Engine, limits: Limits, stop: &AtomicBool, report: impl FnMut(&Info)) -> SearchResult {
        let mut fork = engine.fork();
        self.think_on(&mut fork, limits, stop, report)
    }

    /// Searches on `fork` itself (a fork the caller made, e.g. on another thread).
    pub fn think_on(&mut self, fork: &mut Engine, limits: Limits, stop: &AtomicBool, report: impl FnMut(&Info)) -> SearchResult {
        let limits = self.limits(limits);
        let spec = level(self.level);
        let ply = fork.move_log().0.len() as u64;
        let weakness = Weakness { margin: spec.margin, choices: spec.choices, seed: self.seed ^ ply.wrapping_mul(0x9E37_79B9) };
        search::search(fork.world_mut(), &self.eval, &mut self.memory, &limits, weakness, stop, report)
    }
}
