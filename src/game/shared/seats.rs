//! Who plays each side, and the clocks: the computer's seats and its search in flight, and
//! the game's clocks.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::Task;

use crate::ai::{Computer, SearchResult};
use crate::clock::{ClockSnapshot, GameClock, TimeControl};
use crate::rules::{GameState, Move, MoveLog, RulesWorld, Side};

/// Who plays, and how the computer is doing.
#[derive(Resource)]
pub struct ComputerPlay {
    /// The computer's level (1–8) for each side it plays (`[white, black]`); `None` is a person.
    pub sides: [Option<u8>; 2],
    /// Seconds between moves when the computer plays both sides (to watch).
    pub pace: f32,
    /// A hint is asked for (the computer's best move for the side to move, as an arrow).
    pub hint_requested: bool,
    /// The hint: the move, and the position it is for.
    pub hint: Option<(Move, u64)>,
    /// What the computer is doing now, for the panel.
    pub status: Option<String>,
    /// The search under way, if any (the computer plugin's).
    pub(in crate::game) running: Option<Running>,
    /// Each side's computer, kept from move to move (its tables and history).
    pub(in crate::game) computers: [Option<Computer>; 2],
    /// The game the computers were made for (variant, start position, presets).
    pub(in crate::game) game_key: String,
    /// When the computer last moved (the pace of computer against computer).
    pub(in crate::game) last_move: Option<Instant>,
}

impl Default for ComputerPlay {
    fn default() -> ComputerPlay {
        ComputerPlay {
            sides: [None, None],
            pace: 1.0,
            hint_requested: false,
            hint: None,
            status: None,
            running: None,
            computers: [None, None],
            game_key: String::new(),
            last_move: None,
        }
    }
}

impl ComputerPlay {
    /// Whether the computer plays `side`.
    pub fn plays(&self, side: Side) -> bool {
        self.sides[side.index()].is_some()
    }

    /// Whether a person plays at least one side.
    pub fn person_plays(&self) -> bool {
        self.sides.iter().any(Option::is_none)
    }

    /// Whether a search (or a hint) runs or is asked for: the window keeps drawing until its
    /// move arrives.
    pub fn busy(&self) -> bool {
        self.running.is_some() || self.hint_requested
    }

    /// Stops a running search at once (its result will be discarded).
    pub fn cancel(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
            r.cancelled.store(true, Ordering::Relaxed);
        }
        self.hint = None;
        self.hint_requested = false;
    }
}

/// A search on another thread: its task, its stop and cancel flags, and what it is for.
pub(in crate::game) struct Running {
    /// The search: it gives back the computer and its result.
    pub(in crate::game) task: Task<(Computer, SearchResult)>,
    /// Set to end the search at once.
    pub(in crate::game) stop: Arc<AtomicBool>,
    /// Set when its result is to be thrown away.
    pub(in crate::game) cancelled: Arc<AtomicBool>,
    /// The position it searches (its [`PositionVersion`](super::PositionVersion)).
    pub(in crate::game) version: u64,
    /// The side it moves for.
    pub(in crate::game) side: Side,
    /// Whether it is a hint (drawn as an arrow, not played).
    pub(in crate::game) hint: bool,
    /// When it started.
    pub(in crate::game) started: Instant,
    /// The game it searches (a computer made for another game is not kept).
    pub(in crate::game) game_key: String,
}

/// The game's clocks and the control new games start with.
#[derive(Resource)]
pub struct Clocks {
    /// The time control of new games; `None`: no clocks.
    pub control: Option<TimeControl>,
    /// The running game's clocks; `None` when it has none.
    pub clock: Option<GameClock>,
    /// The instant the clocks' time counts from.
    pub(in crate::game) epoch: Instant,
    /// The moves the clocks have followed.
    pub(in crate::game) seen: usize,
    /// The instant of this frame, read before input, so a move made in the frame is timed at
    /// the same instant its flag was checked.
    pub(in crate::game) frame: Duration,
    /// Low time already warned of, per side (until the side has time again).
    pub(in crate::game) warned: [bool; 2],
    /// Time the clocks stood still (while another screen showed), and since when they stand.
    pub(in crate::game) paused: Duration,
    pub(in crate::game) paused_at: Option<Instant>,
}

impl Default for Clocks {
    fn default() -> Clocks {
        Clocks {
            control: None,
            clock: None,
            epoch: Instant::now(),
            seen: 0,
            frame: Duration::ZERO,
            warned: [false; 2],
            paused: Duration::ZERO,
            paused_at: None,
        }
    }
}

impl Clocks {
    /// The clocks' time now: time since they were made, less the time they stood still.
    pub fn now(&self) -> Duration {
        // Standing still, the time is the instant they stopped.
        let until = self.paused_at.map_or_else(|| self.epoch.elapsed(), |at| at.duration_since(self.epoch));
        until.saturating_sub(self.paused)
    }

    /// Stops the clocks' time (`true`: another screen than the game's shows) or lets it run
    /// again where it stopped.
    pub fn stand_still(&mut self, still: bool) {
        match (still, self.paused_at) {
            (true, None) => self.paused_at = Some(Instant::now()),
            (false, Some(at)) => {
                self.paused += at.elapsed();
                self.paused_at = None;
            }
            _ => {}
        }
    }

    /// The clocks as a save keeps them.
    pub fn snapshot(&self) -> Option<ClockSnapshot> {
        self.clock.as_ref().map(|c| c.snapshot(self.now()))
    }
}

/// A low-time warning for the side to move (a sound).
#[derive(Message, Clone, Copy, Debug)]
pub struct LowTime;

/// Sets new clocks from the control of new games (none when there is none), the side to move
/// first; the moves already on the board are not timed.
pub fn fresh(world: &mut World) {
    let turn = world.resource::<GameState>().turn;
    let control = world.get_resource::<Clocks>().and_then(|c| c.control);
    set_clocks(world, control.map(|c| GameClock::new(c, turn)));
}

/// Sets the clocks a save kept (or none), running from now.
///
/// # Errors
/// A snapshot without history.
pub fn resume(world: &mut World, snapshot: Option<&ClockSnapshot>) -> Result<(), String> {
    let turn = world.resource::<GameState>().turn;
    let now = world.get_resource::<Clocks>().map_or(Duration::ZERO, Clocks::now);
    let mut clock = snapshot.map(|s| s.resume(turn, now)).transpose()?;
    // A finished game's clocks stand still.
    if let Some(clock) = &mut clock
        && world.outcome().is_some()
    {
        clock.stop(now);
    }
    set_clocks(world, clock);
    Ok(())
}

fn set_clocks(world: &mut World, clock: Option<GameClock>) {
    let seen = world.resource::<MoveLog>().0.len();
    if let Some(mut clocks) = world.get_resource_mut::<Clocks>() {
        clocks.clock = clock;
        clocks.seen = seen;
        clocks.warned = [false; 2];
    }
}

/// The analysis mode: the computer searching the position on the board, the game's or the
/// earlier one the move list shows (for up to two minutes a position), its best lines shown in the panel with an evaluation bar, the best move drawn as
/// an arrow. The search runs on a thread of its own and starts again whenever the position
/// changes.
#[derive(Resource)]
pub struct Analysis {
    /// Whether the mode is on.
    pub on: bool,
    /// Lines to show (1–3).
    pub lines: usize,
    /// The lines found so far for the position on the board, best first.
    pub shown: Vec<AnalysisLine>,
    /// The search under way (the computer plugin's).
    pub(in crate::game) run: Option<AnalysisRun>,
}

impl Default for Analysis {
    fn default() -> Analysis {
        Analysis { on: false, lines: 2, shown: Vec::new(), run: None }
    }
}

/// One line of the analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisLine {
    /// Iteration depth.
    pub depth: u32,
    /// Centipawns from White's point of view.
    pub white_cp: i32,
    /// Moves to mate from White's point of view (positive: White mates).
    pub white_mate: Option<i32>,
    /// The line in SAN, numbered.
    pub san: String,
    /// Its first move.
    pub first: Option<Move>,
    /// Nodes searched so far.
    pub nodes: u64,
}

/// An analysis search in flight.
pub(in crate::game) struct AnalysisRun {
    /// Ends the search.
    pub stop: Arc<AtomicBool>,
    /// The position it searches: the game's, or the earlier one after `ply` moves that the
    /// move list shows.
    pub version: u64,
    /// The ply browsed to, when the move list shows an earlier position.
    pub ply: Option<usize>,
    /// The lines it was asked for.
    pub lines: usize,
    /// What the search reported, newest last, by line.
    pub found: Arc<std::sync::Mutex<Vec<crate::ai::Info>>>,
    /// How many reports were turned into lines already.
    pub seen: usize,
    /// The position, for writing the lines in SAN.
    pub root: crate::rules::Engine,
}

impl Drop for AnalysisRun {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The game review: every position of the game searched at a fixed budget, the evaluation
/// graph, and the moves marked (see [`crate::ai::review`]). It runs on a thread of its own
/// when asked for, and belongs to the moves it reviewed: once the game has other moves, it is
/// no longer shown as the game's.
#[derive(Resource, Default)]
pub struct GameReview {
    /// Whether the panel shows the review's card.
    pub open: bool,
    /// The panel asks for a review of the game on the board.
    pub requested: bool,
    /// The panel asks to stop the review under way.
    pub cancel: bool,
    /// Positions searched so far and in all, while one runs.
    pub progress: Option<(usize, usize)>,
    /// The finished review, the game it is of (its [`super::GameSetup`] serial) and its moves.
    pub done: Option<(u64, Vec<Move>, crate::ai::review::Review)>,
    /// The review under way (the review plugin's).
    pub(in crate::game) run: Option<ReviewRun>,
}

impl GameReview {
    /// The finished review, when it is of game `serial` as `log` holds it now.
    pub fn of(&self, serial: u64, log: &MoveLog) -> Option<&crate::ai::review::Review> {
        self.done
            .as_ref()
            .filter(|(game, moves, _)| *game == serial && moves.len() == log.0.len() && moves.iter().zip(&log.0).all(|(m, r)| *m == r.mv))
            .map(|d| &d.2)
    }

    /// Game `old` goes on as game `now` (put back after a branch): its review goes with it.
    pub fn same_game(&mut self, old: u64, now: u64) {
        if let Some(done) = self.done.as_mut().filter(|d| d.0 == old) {
            done.0 = now;
        }
        if let Some(run) = self.run.as_mut().filter(|r| r.serial == old) {
            run.serial = now;
        }
    }

    /// Whether a finished review is kept for game `serial` (up to date or not).
    pub fn kept_for(&self, serial: u64) -> bool {
        self.done.as_ref().is_some_and(|d| d.0 == serial)
    }
}

/// A review in flight.
pub(in crate::game) struct ReviewRun {
    /// Ends it.
    pub stop: Arc<AtomicBool>,
    /// Positions searched so far.
    pub done: Arc<std::sync::atomic::AtomicUsize>,
    /// Positions in all.
    pub total: usize,
    /// The review, once finished (`None` inside when it was stopped).
    pub result: Arc<std::sync::Mutex<Option<Option<crate::ai::review::Review>>>>,
    /// The game it reviews (its serial) and that game's moves.
    pub serial: u64,
    pub moves: Vec<Move>,
}

impl Drop for ReviewRun {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
