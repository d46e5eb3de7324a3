//! The search: iterative deepening, principal-variation alpha-beta with a transposition table
//! keyed by the full position hash, quiescence, and move ordering — all through the engine's
//! own pipelines ([`RulesWorld`]), so every variant, preset and variant file is searched by the
//! rules it is played by.
//!
//! - **Side to move.** A score is always from the point of view of the side to move. After a
//!   move the search looks at whose turn it is: the sign (and the window) flips only when the
//!   side to move changed, so double moves, follow-up captures and other extra turns are
//!   searched as what they are.
//! - **Ends.** [`RulesWorld::outcome`] judges every node (checkmate, stalemate, the variant's
//!   own wins, draws by rule); a win is `MATE - ply` for the winner, so nearer wins score
//!   higher. A position that repeats one inside the search or the game since the last
//!   irreversible move scores as a draw.
//! - **Quiescence** searches captures and promotions (but, where captures are ordinary, not a
//!   capture by a dearer piece of a cheaper one on a defended square, nor, where besides no
//!   capture can end the game, one that would leave the score below alpha even with the
//!   victim's value — twice over where it goes to a hand — and [`DELTA_MARGIN`]); at its first ply
//!   also the moves that may end the game at once in the variant (checks where checks are
//!   counted or pieces can be dropped, moves onto a goal region); in check it searches every
//!   evasion for a few plies. Below its first ply a stored result answers its null windows.
//! - **Ordering:** the table's move, winning and even captures (most valuable victim, least
//!   valuable attacker), promotions, two killers, the counter-move (the quiet move that last
//!   refuted the previous move), captures that look losing, then quiet moves by history. The
//!   history is kept between moves (halved each search) and bounded: the quiet move that
//!   refutes gains, the quiet moves tried before it lose.
//! - **Pruning** is safe only where the variant allows it: null-move pruning (the reply
//!   searched `3 + depth/3` plies shallower, up to 2 more with the margin over beta) is off with mandatory capture, inverted
//!   material, extinction ends, passes, any active preset (double moves, follow-up captures and
//!   the like change whose turn it is), in check, and for a side with only pawns and royal
//!   pieces. Reverse futility pruning (up to depth 5) applies off the principal variation and
//!   out of check; where null moves are allowed, so do late-move pruning (quiet moves after the
//!   first `3 + depth²`, up to depth 4) and futility pruning (quiet moves where the static
//!   score is far below alpha, up to depth 3; the node then scores at least that estimate),
//!   never for a move that gives check or may end the game at once ([`Searcher::forcing`]),
//!   the table's move, the killers or the counter-move. Late quiet moves are reduced by
//!   `0.75 + ln(depth) · ln(moves) / 2.25` plies, a ply less on the principal variation and
//!   less for a good history. A deep node without a move from the table is searched a ply
//!   shallower.
//! - **Stopping.** An atomic flag, a deadline and a node budget are polled every 256 nodes;
//!   a stopped search returns the best move of the last finished iteration (or the first move
//!   searched in the unfinished one, when it improved).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::eval::{Evaluator, FactQueries, Score};
use super::tt::{Bound, Tt};
use crate::rules::{
    Board, EndCondition, GameState, History, Move, MoveQuery, Outcome, RuleFns, Rules, RulesWorld, Side, Square, position_hash,
    repetitions, royal_attacked,
};

/// A win at the root.
pub const MATE: Score = 30_000;
/// Beyond every score.
pub const INF: Score = 32_000;
/// Scores above this are wins (or losses) at a distance.
pub const MATE_BOUND: Score = MATE - 1_000;

const MAX_PLY: usize = 128;
/// Quiescence plies at most.
const MAX_QUIESCENCE: u32 = 8;

/// What a search may spend.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// At most this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// At most about this many nodes.
    pub nodes: Option<u64>,
    /// Think this long for the move.
    pub movetime: Option<Duration>,
    /// A game clock for the side to move.
    pub clock: Option<Clock>,
    /// Until stopped (the other limits but `depth` are ignored).
    pub infinite: bool,
    /// Search a position whose game is over by a rule (a repetition, the move rule, material)
    /// when it still has legal moves, as a UCI engine does: the GUI adjudicates.
    pub past_the_end: bool,
    /// Lines to report, best first (UCI's `MultiPV`; 0 and 1 both mean one).
    pub multipv: usize,
    /// Only these root moves are searched, when any are given (UCI's `searchmoves`).
    pub searchmoves: Vec<Move>,
}

/// The side to move's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct Clock {
    /// Time left on the main clock.
    pub remaining: Duration,
    /// Added after each move (Fischer).
    pub increment: Duration,
    /// Free time per move before the clock runs (a delay).
    pub delay: Duration,
    /// Byo-yomi: the time per move once the main time is spent.
    pub byoyomi: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// The soft (do not start another iteration) and hard (stop now) budgets for one move.
    pub fn budget(&self) -> (Duration, Duration) {
        let overhead = Duration::from_millis(30);
        let mtg = self.moves_to_go.unwrap_or(30).clamp(1, 50);
        let main = self.remaining / mtg;
        let extra = self.increment.mul_f64(0.8) + self.delay.mul_f64(0.9) + self.byoyomi.mul_f64(0.85);
        let target = main + extra;
        // Never plan to spend more than a third of what is left beyond the free time.
        let ceiling = self.remaining / 3 + self.byoyomi.mul_f64(0.9) + self.delay.mul_f64(0.9);
        let hard = (target * 3).min(ceiling).saturating_sub(overhead).max(Duration::from_millis(5));
        let soft = target.mul_f64(0.6).min(hard);
        (soft, hard)
    }
}

/// What a search reports after each finished iteration.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Which line this is, from 1 (the best), when several are asked for.
    pub multipv: usize,
    /// How full the transposition table is, in thousandths.
    pub hashfull: u32,
}

impl Info {
    /// Moves to a win (positive) or loss (negative), when the score is one.
    pub fn mate_in(&self) -> Option<i32> {
        if self.score.abs() < MATE_BOUND {
            return None;
        }
        let plies = MATE - self.score.abs();
        let moves = (plies + 1) / 2;
        Some(if self.score > 0 { moves } else { -moves })
    }
}

/// How a search may err on purpose (the computer's levels).
#[derive(Clone, Copy, Debug, Default)]
pub struct Weakness {
    /// Pick among the root moves scoring within this many centipawns of the best (with
    /// `choices` set, [`QUIET_MARGIN`] at most where the side to move can capture nothing and
    /// has nothing attacked).
    pub margin: Score,
    /// … and among the best this many of them only (0: any within the margin).
    pub choices: usize,
    /// Seed for the pick.
    pub seed: u64,
}

/// The result of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` when there is no legal move (or the game is over).
    pub best: Option<Move>,
    /// The last finished iteration's report.
    pub info: Info,
    /// Every root move's score in the last finished iteration (exact within the margin).
    pub root_scores: Vec<(Move, Score)>,
    /// The last finished iteration's lines, best first (one unless more were asked for).
    pub lines: Vec<Info>,
}

/// Reusable search memory (transposition table, history), kept between moves of a game.
pub struct SearchMemory {
    tt: Tt,
    /// Quiet moves' history by from- and to-square, within ±[`HISTORY_MAX`].
    history: Vec<i32>,
    /// The quiet move that last refuted each move (by its from- and to-square).
    counters: Vec<Option<Move>>,
}

impl SearchMemory {
    /// Memory with a transposition table of about `megabytes`.
    pub fn new(megabytes: usize) -> SearchMemory {
        SearchMemory { tt: Tt::new(megabytes), history: Vec::new(), counters: Vec::new() }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        self.counters.clear();
    }
}

impl Default for SearchMemory {
    fn default() -> SearchMemory {
        SearchMemory::new(16)
    }
}

struct Searcher<'a> {
    world: &'a mut World,
    eval: &'a Evaluator,
    facts: Option<FactQueries>,
    memory: &'a mut SearchMemory,
    stop: &'a AtomicBool,
    start: Instant,
    hard: Option<Duration>,
    node_limit: Option<u64>,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    killers: Vec<[Option<Move>; 2]>,
    /// The move played at each ply of the current line (`None` for a null move).
    line: Vec<Option<Move>>,
    buffers: Vec<Vec<Move>>,
    /// Per ply, the quiet moves searched so far in the node there (they lose history when a
    /// later quiet move refutes).
    quiets: Vec<Vec<Move>>,
    squares: usize,
    null_allowed: bool,
    /// Whether a capture of a cheaper piece on a defended square may be judged losing (no
    /// blasts, no presets, ordinary material).
    judge_captures: bool,
    /// Whether a capture gains no more than its victim's value (twice and an eighth where it
    /// goes to the captor's hand) and a positional margin: captures are ordinary, no capture
    /// ends the game by a goal or a bare king, checks are not counted. Hopeless captures may
    /// then be skipped in the quiescence search.
    delta_pruning: bool,
    /// Captured pieces go to the captor's hand.
    drops: bool,
    forcing_checks: bool,
    goals: Vec<(u64, [Vec<u8>; 2])>,
    pv: Vec<Vec<Move>>,
    /// The depth of the iteration under way.
    root_depth: i32,
    /// Root moves that repeat an earlier position.
    root_repeats: Vec<Move>,
    /// Whether the root's result goes into the table (not while extra lines are searched).
    store_root: bool,
}

/// Searches the position in `world` (a fork of a game: the search plays and takes back moves
/// on it, and leaves it as it found it).
pub fn search(
    world: &mut World,
    eval: &Evaluator,
    memory: &mut SearchMemory,
    limits: &Limits,
    weakness: Weakness,
    stop: &AtomicBool,
    mut report: impl FnMut(&Info),
) -> SearchResult {
    let start = Instant::now();
    let rules = world.resource::<Rules>().0.clone();
    let (soft, hard) = if limits.infinite {
        (None, None)
    } else if let Some(t) = limits.movetime {
        (Some(t), Some(t))
    } else if let Some(c) = limits.clock {
        let (s, h) = c.budget();
        (Some(s), Some(h))
    } else {
        (None, None)
    };
    let presets_active = world.get_resource::<crate::presets::ActivePresets>().is_some_and(|a| !a.0.is_empty());
    let null_allowed = !rules.switches.mandatory_capture
        && !rules.switches.pass
        && !presets_active
        && !rules.end.iter().any(|e| {
            matches!(
                e,
                EndCondition::Extinction { .. }
                    | EndCondition::Checkmated(_)
                    | EndCondition::Stalemate(crate::rules::Verdict::Win)
                    | EndCondition::StalemateByCount
            )
        });
    let forcing_checks = rules.check_limit().is_some() || rules.drops.is_some();
    let goals: Vec<(u64, [Vec<u8>; 2])> = rules
        .end
        .iter()
        .filter_map(|e| match e {
            EndCondition::RegionReached { types, regions, .. } | EndCondition::RegionHeld { types, regions } => {
                let g = rules.geometry;
                let at = |r: &crate::rules::SquareSet| g.squares().map(|s| u8::from(!r.contains(s))).collect();
                Some((*types, [at(&regions[0]), at(&regions[1])]))
            }
            _ => None,
        })
        .collect();
    let squares = rules.geometry.len();
    if memory.history.len() != squares * squares {
        memory.history = vec![0; squares * squares];
        memory.counters = vec![None; squares * squares];
    }
    // What earlier moves learnt counts half.
    for h in &mut memory.history {
        *h /= 2;
    }
    memory.tt.new_search();
    let facts = FactQueries::new(world);
    let mut s = Searcher {
        world,
        eval,
        facts,
        memory,
        stop,
        start,
        hard,
        node_limit: if limits.infinite { None } else { limits.nodes },
        nodes: 0,
        seldepth: 0,
        aborted: false,
        killers: vec![[None; 2]; MAX_PLY + 2],
        line: vec![None; MAX_PLY + 2],
        buffers: vec![Vec::new(); MAX_PLY + 2],
        quiets: vec![Vec::new(); MAX_PLY + 2],
        squares,
        null_allowed,
        judge_captures: null_allowed && rules.blast.is_none(),
        delta_pruning: null_allowed
            && rules.blast.is_none()
            && rules.check_limit().is_none()
            && goals.is_empty()
            && !rules.end.iter().any(|e| matches!(e, EndCondition::BareKing(_))),
        drops: rules.drops.is_some(),
        forcing_checks,
        goals,
        pv: vec![Vec::new(); MAX_PLY + 2],
        root_depth: 1,
        root_repeats: Vec::new(),
        store_root: true,
    };
    let over = !limits.past_the_end && s.world.outcome().is_some();
    let mut root_moves: Vec<Move> = if over { Vec::new() } else { s.world.legal_moves().to_vec() };
    let can_capture = root_moves.iter().any(|m| m.capture);
    if !limits.searchmoves.is_empty() {
        root_moves.retain(|m| limits.searchmoves.contains(m));
    }
    let lines_wanted = limits.multipv.max(1);
    let mut result = SearchResult::default();
    if root_moves.is_empty() {
        return result;
    }
    result.best = Some(root_moves[0]);
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 8).clamp(1, MAX_PLY as u32 - 8);
    let mut order: Vec<(Move, Score)> = root_moves.iter().map(|&m| (m, 0)).collect();
    let mut last_score = 0;
    for depth in 1..=max_depth {
        s.root_depth = depth as i32;
        let (scores, finished) = s.root(depth as i32, &mut order, weakness.margin, last_score);
        if !scores.is_empty() && (finished || depth == 1) {
            // A finished iteration, or an unfinished one whose first move (the previous best,
            // searched first) already has a score.
            order = scores;
            last_score = order[0].1;
            let best_pv = s.pv[0].clone();
            // More lines: the root searched again without the moves of the lines found, each
            // time at the same depth (the root's table entry left alone).
            let mut lines = vec![(last_score, best_pv)];
            let mut lines_finished = finished;
            while lines.len() < lines_wanted.min(order.len()) && lines_finished && !s.aborted {
                let firsts: Vec<Move> = lines.iter().filter_map(|l| l.1.first().copied()).collect();
                let mut rest: Vec<(Move, Score)> = order.iter().filter(|(m, _)| !firsts.contains(m)).copied().collect();
                s.store_root = false;
                let guess = rest.first().map_or(0, |r| r.1);
                let (scores, done) = s.root(depth as i32, &mut rest, 0, guess);
                s.store_root = true;
                lines_finished = done;
                let Some(&(m, score)) = scores.first().filter(|_| done) else { break };
                let mut pv = s.pv[0].clone();
                if pv.first() != Some(&m) {
                    pv = vec![m];
                }
                lines.push((score, pv));
            }
            let hashfull = s.memory.tt.hashfull();
            let info = |i: usize, (score, pv): &(Score, Vec<Move>)| Info {
                depth,
                seldepth: s.seldepth as u32,
                score: *score,
                nodes: s.nodes,
                elapsed: start.elapsed(),
                pv: pv.clone(),
                multipv: i + 1,
                hashfull,
            };
            result.lines = lines.iter().enumerate().map(|(i, l)| info(i, l)).collect();
            result.info = result.lines[0].clone();
            result.best = Some(order[0].0);
            result.root_scores = order.clone();
            for line in &result.lines {
                report(line);
            }
        }
        if !finished || s.aborted {
            break;
        }
        // A forced win found, or the soft budget spent: no deeper iteration.
        if last_score.abs() >= MATE_BOUND && depth as Score >= MATE - last_score.abs() {
            break;
        }
        if order.len() == 1 && soft.is_some() {
            break;
        }
        if soft.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    result.info.nodes = s.nodes;
    result.info.elapsed = start.elapsed();
    if weakness.margin > 0 && !result.root_scores.is_empty() {
        // A seeded pick among the moves within the margin (the best `choices` of them, when
        // limited), the better ones likelier (weight e^(-loss / (margin / 4))): a weak level
        // errs, but mostly by a little. A move that
        // repeats a position is picked only when it is the best (a weak level would otherwise
        // drift into draws by repetition).
        //
        // For a level (its choice limited), in a quiet position (nothing for the side to move
        // to capture, none of its pieces attacked) the margin shrinks to [`QUIET_MARGIN`]: a
        // beginner's slips come under pressure, where something can be taken, not in a calm
        // opening.
        let (top, best) = result.root_scores[0];
        let margin = if weakness.choices == 0 || s.tense(can_capture) { weakness.margin } else { weakness.margin.min(QUIET_MARGIN) };
        let near: Vec<(Move, f64)> = result
            .root_scores
            .iter()
            .filter(|(m, sc)| *sc >= best - margin && (*m == top || !s.root_repeats.contains(m)))
            .take(if weakness.choices == 0 { usize::MAX } else { weakness.choices })
            .map(|(m, sc)| (*m, (-((best - sc) as f64) / (margin as f64 / 4.0)).exp()))
            .collect();
        let total: f64 = near.iter().map(|x| x.1).sum();
        let r = splitmix(weakness.seed ^ s.world.resource::<Board>().hash) as f64 / u64::MAX as f64 * total;
        let mut acc = 0.0;
        result.best = Some(near.last().expect("the best move is within the margin").0);
        for (m, w) in near {
            acc += w;
            if r < acc {
                result.best = Some(m);
                break;
            }
        }
    }
    result
}

/// How far a capture's gain may exceed the victim's value (positional swings), for pruning
/// hopeless captures in the quiescence search.
const DELTA_MARGIN: Score = 200;

/// The bound of a quiet move's history.
const HISTORY_MAX: i32 = 16_384;

/// Late-move reductions by depth and moves searched: `0.75 + ln(depth) · ln(moves) / 2.25`.
static LMR: std::sync::LazyLock<[[i32; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut t = [[0; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as i32;
        }
    }
    t
});

/// A weak level's margin of error where nothing can be captured (see [`Weakness`]).
pub const QUIET_MARGIN: Score = 30;

/// A 64-bit mixer for seeded picks.
fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The score of a decided game for the side to move, `ply` plies from the root.
fn outcome_score(outcome: &Outcome, turn: Side, ply: usize) -> Score {
    match outcome.winner {
        None => 0,
        Some(w) if w == turn => MATE - ply as Score,
        Some(_) => -(MATE - ply as Score),
    }
}

/// The stored result's score at `ply` when its bound settles the window `alpha..beta`.
fn tt_answer(e: &super::tt::Entry, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
    let score = from_tt(e.score, ply);
    let settles = match e.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    settles.then_some(score)
}

fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

impl Searcher<'_> {
    fn poll(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            let out_of_time = self.hard.is_some_and(|h| self.start.elapsed() >= h);
            let out_of_nodes = self.node_limit.is_some_and(|n| self.nodes >= n);
            if out_of_time || out_of_nodes || self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn turn(&self) -> Side {
        self.world.resource::<GameState>().turn
    }

    /// Whether the current position repeats one since the last irreversible move.
    /// The score of a repetition for the side to move: a draw, or with draw odds (Armageddon)
    /// as good as won for the side that has them and as good as lost for the other (short of
    /// a mate score, as the repetition is not yet the game's end).
    fn repetition_score(&self) -> Score {
        // Where perpetual check loses, a repetition reached by checking with every move is lost
        // by the checker (short of a mate score, as for the other repetitions).
        let rules = &self.world.resource::<crate::rules::Rules>().0;
        let perpetual = rules.switches.perpetual_check_loses.then(|| {
            let st = self.world.resource::<GameState>();
            let span = crate::rules::repetition_span(&self.world.resource::<History>().0, st.halfmove_clock, 2);
            span.and_then(|s| crate::rules::perpetual_checker(st.check_streak, st.turn, s))
        });
        // Otherwise draw odds (Armageddon) make it as good as won for the side that has them.
        match perpetual.flatten().unwrap_or(rules.draw_odds) {
            Some(side) if side == self.turn() => MATE_BOUND - 1,
            Some(_) => -(MATE_BOUND - 1),
            None => 0,
        }
    }

    fn repeated(&self) -> bool {
        let clock = self.world.resource::<GameState>().halfmove_clock;
        repetitions(&self.world.resource::<History>().0, clock) >= 2
    }

    fn key(&self) -> u64 {
        let h = self.world.resource::<History>().0.last().copied().unwrap_or_default();
        // Shatar's series of checks decides a mate but is no part of a repetition: the search
        // tells positions apart by it all the same.
        match self.world.resource::<GameState>().shak_series {
            [false, false] => h,
            [w, b] => h ^ splitmix(0x5AA4 | u64::from(w) << 1 | u64::from(b)),
        }
    }

    /// Plays `m`; returns whether the side to move changed, or `None` when a hook cancelled it.
    fn play(&mut self, m: Move) -> Option<bool> {
        let before = self.turn();
        self.world.apply_unchecked(m).ok()?;
        Some(self.turn() != before)
    }

    fn undo(&mut self) {
        self.world.undo_move();
    }

    /// Searches the current child; `flipped` says whether the side to move changed.
    fn child(&mut self, flipped: bool, depth: i32, ply: usize, alpha: Score, beta: Score) -> Score {
        if flipped { -self.node(depth, ply + 1, -beta, -alpha, true) } else { self.node(depth, ply + 1, alpha, beta, true) }
    }

    /// The root: every move searched, the list reordered best first. Returns the moves with
    /// their scores (exact for the best and for those within `margin` of it) and whether the
    /// iteration finished.
    fn root(&mut self, depth: i32, order: &mut [(Move, Score)], margin: Score, guess: Score) -> (Vec<(Move, Score)>, bool) {
        // Aspiration window around the previous score, widened on failure.
        let mut window = if depth >= 5 && margin == 0 && guess.abs() < MATE_BOUND { 40 } else { INF };
        loop {
            let (alpha0, beta) = if window >= INF { (-INF, INF) } else { (guess - window, guess + window) };
            let (scores, finished, best) = self.root_window(depth, order, margin, alpha0, beta);
            if !finished || window >= INF || (best > alpha0 && best < beta) {
                return (scores, finished);
            }
            window = if window >= 400 { INF } else { window * 4 };
        }
    }

    fn root_window(
        &mut self,
        depth: i32,
        order: &[(Move, Score)],
        margin: Score,
        alpha0: Score,
        beta: Score,
    ) -> (Vec<(Move, Score)>, bool, Score) {
        let mut alpha = alpha0;
        let mut best = -INF;
        let mut scored: Vec<(Move, Score)> = Vec::with_capacity(order.len());
        let key = self.key();
        for (i, &(m, _)) in order.iter().enumerate() {
            self.line[0] = Some(m);
            let Some(flipped) = self.play(m) else { continue };
            if self.repeated() && !self.root_repeats.contains(&m) {
                self.root_repeats.push(m);
            }
            self.pv[1].clear();
            // With a margin, every move is searched with a window that tells whether it is
            // within the margin of the best so far.
            let floor = if margin > 0 { (best - margin - 1).max(alpha0) } else { alpha };
            let score = if i == 0 {
                self.child(flipped, depth - 1, 0, floor, beta)
            } else {
                let s = self.child(flipped, depth - 1, 0, floor, floor + 1);
                if s > floor && !self.aborted { self.child(flipped, depth - 1, 0, floor, beta) } else { s }
            };
            self.undo();
            if self.aborted {
                if i > 0 && best > -INF {
                    scored.sort_by_key(|x| std::cmp::Reverse(x.1));
                    return (scored, false, best);
                }
                return (Vec::new(), false, best);
            }
            scored.push((m, score));
            if score > best {
                best = score;
                self.update_pv(0, m);
                if score > alpha {
                    alpha = score;
                }
            }
            if alpha >= beta {
                break;
            }
        }
        // Moves cut off by beta keep their old order after the searched ones.
        scored.sort_by_key(|x| std::cmp::Reverse(x.1));
        let searched: Vec<Move> = scored.iter().map(|x| x.0).collect();
        for &(m, _) in order {
            if !searched.contains(&m) {
                scored.push((m, -INF));
            }
        }
        if let Some(&(m, s)) = scored.first().filter(|_| self.store_root) {
            self.memory.tt.store(key, Some(m), to_tt(s, 0), depth, Bound::Exact);
        }
        (scored, true, best)
    }

    /// Whether the position is tense: the side to move can capture (`can_capture`, from its
    /// legal moves), or one of its pieces stands attacked.
    fn tense(&self, can_capture: bool) -> bool {
        if can_capture {
            return true;
        }
        let turn = self.turn();
        let board = self.world.resource::<Board>();
        let reg = &self.world.resource::<Rules>().0.registry;
        let g = self.world.resource::<Rules>().0.geometry;
        g.squares().any(|sq| {
            let c = board.cells[sq.index()];
            c.is_piece() && c.side() == turn && reg.square_attacked(&board.cells, sq, turn.opponent())
        })
    }

    /// Whether `side` has material beyond pawns and royal pieces.
    fn has_pieces(&self, side: Side) -> bool {
        let board = self.world.resource::<Board>();
        let reg = &self.world.resource::<Rules>().0.registry;
        board
            .cells
            .iter()
            .any(|c| c.is_piece() && c.side() == side && !reg.def(c.kind()).pawn && reg.royal_mask & (1u64 << c.kind().0) == 0)
            || board.hand_counts[side.index()].iter().any(|&n| n > 0)
    }

    fn order_score(&self, m: &Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(*m) == tt_move {
            return 2_000_000;
        }
        let cells = &self.world.resource::<Board>().cells;
        if m.capture {
            let victim = cells[m.victim_square().index()];
            let attacker = cells[m.from.index()];
            let v = if victim.is_piece() { self.eval.order_value(victim.kind()) } else { 100 };
            let a = if attacker.is_piece() && m.dropped().is_none() { self.eval.order_value(attacker.kind()) } else { 0 };
            // A capture that looks losing goes after the killers (and before the quiet moves).
            if self.losing_capture(m) {
                return 760_000 + (v * 16 - a / 16).clamp(0, 30_000);
            }
            return 1_000_000 + v * 16 - a / 16 + m.promotion.map_or(0, |p| self.eval.value(p));
        }
        if let Some(p) = m.promotion {
            return 900_000 + self.eval.value(p);
        }
        if self.killers[ply][0] == Some(*m) {
            return 800_000;
        }
        if self.killers[ply][1] == Some(*m) {
            return 799_000;
        }
        if self.counter(ply) == Some(*m) {
            return 790_000;
        }
        400_000 + self.history(m)
    }

    /// The most a capture of `victim` gains in material (see [`Searcher::delta_pruning`]).
    fn capture_gain(&self, victim: crate::rules::PieceType) -> Score {
        let v = self.eval.order_value(victim);
        if self.drops { 2 * v + v / 8 } else { v }
    }

    /// The from- and to-square index of `m` in the history and counter-move tables.
    fn slot(&self, m: &Move) -> usize {
        m.from.index() * self.squares + m.to.index()
    }

    fn history(&self, m: &Move) -> i32 {
        self.memory.history[self.slot(m)]
    }

    /// The quiet move that last refuted the move leading to `ply`.
    fn counter(&self, ply: usize) -> Option<Move> {
        let prev = self.line[ply.checked_sub(1)?]?;
        self.memory.counters[self.slot(&prev)]
    }

    /// Moves the history of `m` towards ±[`HISTORY_MAX`] by `bonus` (less as it nears the bound).
    fn reward(&mut self, m: &Move, bonus: i32) {
        let slot = self.slot(m);
        let h = &mut self.memory.history[slot];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Whether capture `m` looks losing: a dearer piece takes a cheaper one on a square the
    /// opponent defends (a cheap stand-in for a static exchange evaluation below zero, which
    /// would need every variant's attacks in sequence). Judged only where captures are
    /// ordinary ([`Searcher::judge_captures`]).
    fn losing_capture(&self, m: &Move) -> bool {
        if !self.judge_captures || m.promotion.is_some() || m.dropped().is_some() {
            return false;
        }
        let cells = &self.world.resource::<Board>().cells;
        let (victim, attacker) = (cells[m.victim_square().index()], cells[m.from.index()]);
        if !victim.is_piece() || !attacker.is_piece() {
            return false;
        }
        let (v, a) = (self.eval.order_value(victim.kind()), self.eval.order_value(attacker.kind()));
        if a <= v + 50 {
            return false;
        }
        let reg = &self.world.resource::<Rules>().0.registry;
        reg.square_attacked(cells, m.to, attacker.side().opponent())
    }

    fn sort_moves(&self, moves: &mut [Move], tt_move: Option<Move>, ply: usize) {
        moves.sort_by_cached_key(|m| std::cmp::Reverse(self.order_score(m, tt_move, ply)));
    }

    /// The legal moves and check status of the current position, or its outcome score.
    fn expand(&mut self, ply: usize) -> Result<(Vec<Move>, bool), Score> {
        let turn = self.turn();
        if let Some(o) = self.world.outcome() {
            return Err(outcome_score(&o, turn, ply));
        }
        let q = self.world.resource::<MoveQuery>();
        let in_check = q.in_check;
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        moves.extend_from_slice(&q.moves);
        Ok((moves, in_check))
    }

    fn node(&mut self, depth: i32, ply: usize, mut alpha: Score, beta: Score, allow_null: bool) -> Score {
        if self.poll() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply > 0 && self.repeated() {
            return self.repetition_score();
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(self.world, self.facts.as_mut());
        }
        let pv_node = beta - alpha > 1;
        let key = self.key();
        let entry = self.memory.tt.probe(key);
        // A stored result deep enough answers before the moves are even generated (the hash
        // covers every fact the rules read, so the position's own end is in that result).
        if depth > 0
            && !pv_node
            && let Some(e) = entry
            && e.depth >= depth
            && let Some(score) = tt_answer(&e, ply, alpha, beta)
        {
            return score;
        }
        let (mut moves, in_check) = match self.expand(ply) {
            Ok(x) => x,
            Err(score) => return score,
        };
        // Checks are searched one ply deeper, up to twice the iteration's depth from the root
        // (where check is not enforced, as under hit points, a king may stay attacked for many
        // plies).
        let depth = if in_check && (ply as i32) < 2 * self.root_depth { depth + 1 } else { depth };
        if depth <= 0 {
            self.buffers[ply] = moves;
            return self.quiesce(ply, alpha, beta, 0);
        }
        let tt_move = entry.and_then(|e| e.mv).filter(|m| moves.contains(m));
        let turn = self.turn();
        let static_eval = if in_check { -INF } else { self.eval.evaluate(self.world, self.facts.as_mut()) };
        if !pv_node && !in_check {
            // Reverse futility: far above beta near the leaves.
            if depth <= 5 && static_eval - 100 * depth >= beta && beta.abs() < MATE_BOUND {
                self.buffers[ply] = moves;
                return static_eval;
            }
            if self.null_allowed && allow_null && depth >= 3 && static_eval >= beta && self.has_pieces(turn) {
                let r = 3 + depth / 3 + ((static_eval - beta) / 200).min(2);
                let saved = self.make_null();
                self.line[ply] = None;
                let score = -self.node(depth - r, ply + 1, -beta, -beta + 1, false);
                self.unmake_null(saved);
                if self.aborted {
                    self.buffers[ply] = moves;
                    return 0;
                }
                if score >= beta && score < MATE_BOUND {
                    self.buffers[ply] = moves;
                    return beta;
                }
            }
        }
        // Without a move from the table, a deep node is searched a ply shallower.
        let depth = if tt_move.is_none() && depth >= 4 { depth - 1 } else { depth };
        self.sort_moves(&mut moves, tt_move, ply);
        // Near the leaves of a node that is not on the principal variation, quiet moves late in
        // the list, or where even a good quiet move would leave the score below alpha, are not
        // searched (a move that may end the game at once always is).
        let pruning = self.null_allowed && !pv_node && !in_check && depth <= 4;
        let futility = static_eval + 60 + 100 * depth;
        let futile = pruning && depth <= 3 && alpha.abs() < MATE_BOUND && futility <= alpha;
        let late = (3 + depth * depth) as usize;
        // The enemy royal pieces, asked for when a move is first found prunable.
        let mut enemy_royals: Option<Vec<Square>> = None;
        let (killers, counter) = (self.killers[ply], self.counter(ply));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0;
        self.quiets[ply].clear();
        for &m in moves.iter() {
            let quiet = !m.capture && m.promotion.is_none();
            let special = Some(m) == tt_move || killers.contains(&Some(m)) || counter == Some(m);
            if quiet
                && pruning
                && !special
                && best > -MATE_BOUND
                && (futile || self.quiets[ply].len() >= late)
                && !self.forcing(&m, turn, enemy_royals.get_or_insert_with(|| self.royals_of(turn.opponent())), true)
            {
                // A move skipped as futile is taken to reach the futility score at best.
                if futile {
                    best = best.max(futility);
                }
                continue;
            }
            self.line[ply] = Some(m);
            let Some(flipped) = self.play(m) else { continue };
            let mut score;
            if searched == 0 {
                score = self.child(flipped, depth - 1, ply, alpha, beta);
            } else {
                // Late quiet moves are searched shallower first, the more so the later and
                // deeper they are, and the less so for a move with a good history.
                let reduction = if quiet && depth >= 3 && searched >= 2 && !in_check && !special {
                    let r = LMR[(depth as usize).min(63)][searched.min(63)] - i32::from(pv_node) - self.history(&m) / 6_000;
                    r.clamp(0, depth - 2)
                } else {
                    0
                };
                score = self.child(flipped, depth - 1 - reduction, ply, alpha, alpha + 1);
                if score > alpha && reduction > 0 && !self.aborted {
                    score = self.child(flipped, depth - 1, ply, alpha, alpha + 1);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = self.child(flipped, depth - 1, ply, alpha, beta);
                }
            }
            self.undo();
            searched += 1;
            if self.aborted {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                }
            }
            if alpha >= beta {
                if quiet {
                    if self.killers[ply][0] != Some(m) {
                        self.killers[ply][1] = self.killers[ply][0];
                        self.killers[ply][0] = Some(m);
                    }
                    if let Some(prev) = ply.checked_sub(1).and_then(|p| self.line[p]) {
                        let slot = self.slot(&prev);
                        self.memory.counters[slot] = Some(m);
                    }
                    // The refutation gains, the quiet moves tried before it lose.
                    let bonus = (depth * depth * 32).min(2_000);
                    self.reward(&m, bonus);
                    for i in 0..self.quiets[ply].len() {
                        let q = self.quiets[ply][i];
                        self.reward(&q, -bonus);
                    }
                }
                break;
            }
            if quiet {
                self.quiets[ply].push(m);
            }
        }
        self.buffers[ply] = moves;
        if searched == 0 {
            // Every move was cancelled by a hook: nothing can be played.
            return 0;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.memory.tt.store(key, best_move, to_tt(best, ply), depth, bound);
        best
    }

    /// Whether `m` may end the game at once in this variant: it lands a goal piece on its
    /// region, or (with `checks`) the moved piece would attack an enemy royal piece from where
    /// it lands — a cheap filter; in the quiescence search the check itself is confirmed after
    /// the move. The quiescence search asks for checks where they count or pieces are dropped
    /// (mates by drops); the pruning near the leaves always does.
    fn forcing(&self, m: &Move, turn: Side, enemy_royals: &[Square], checks: bool) -> bool {
        let cells = &self.world.resource::<Board>().cells;
        let mover =
            if let Some(k) = m.dropped() { Some(k) } else { cells[m.from.index()].is_piece().then(|| cells[m.from.index()].kind()) };
        let Some(kind) = mover else { return false };
        if self.goals.iter().any(|(types, off)| types & (1u64 << kind.0) != 0 && off[turn.index()][m.to.index()] == 0) {
            return true;
        }
        let kind = m.promotion.unwrap_or(kind);
        let reg = &self.world.resource::<Rules>().0.registry;
        checks && enemy_royals.iter().any(|&r| reg.piece_attacks(cells, kind, turn, m.to, r))
    }

    /// The royal pieces of `side`.
    fn royals_of(&self, side: Side) -> Vec<Square> {
        let rules = &self.world.resource::<Rules>().0;
        self.world.resource::<RuleFns>().royals(rules, &self.world.resource::<Board>().cells, side)
    }

    /// Whether the side to move is in check (asked after a move, without running the query).
    fn side_to_move_in_check(&self) -> bool {
        let rules = &self.world.resource::<Rules>().0;
        let fns = self.world.resource::<RuleFns>();
        let state = self.world.resource::<GameState>();
        let board = self.world.resource::<Board>();
        let royals: Vec<Square> = fns.royals(rules, &board.cells, state.turn);
        royal_attacked(rules, fns, state, board, &royals, state.turn)
    }

    fn quiesce(&mut self, ply: usize, mut alpha: Score, beta: Score, qdepth: u32) -> Score {
        if self.poll() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        // The caller (a node at depth 0) has expanded this position already when qdepth is 0.
        let (mut moves, in_check) = if qdepth == 0 {
            let moves = std::mem::take(&mut self.buffers[ply]);
            let in_check = self.world.resource::<MoveQuery>().in_check;
            (moves, in_check)
        } else {
            if self.repeated() {
                return self.repetition_score();
            }
            // A stored result answers a null window (any depth will do here).
            if beta - alpha == 1
                && let Some(e) = self.memory.tt.probe(self.key())
                && let Some(score) = tt_answer(&e, ply, alpha, beta)
            {
                return score;
            }
            match self.expand(ply) {
                Ok(x) => x,
                Err(score) => return score,
            }
        };
        // Captures need not end (under hit points a capture may only wound): the quiescence
        // search stops after a bounded number of plies.
        if ply >= MAX_PLY || qdepth >= MAX_QUIESCENCE {
            self.buffers[ply] = moves;
            return self.eval.evaluate(self.world, self.facts.as_mut());
        }
        let turn = self.turn();
        let evasions = in_check && qdepth < 4;
        let mut best = -INF;
        if !evasions {
            let stand = self.eval.evaluate(self.world, self.facts.as_mut());
            if stand >= beta {
                self.buffers[ply] = moves;
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
            let first = qdepth == 0;
            let enemy_royals = if first && self.forcing_checks { self.royals_of(turn.opponent()) } else { Vec::new() };
            let mut keep = Vec::with_capacity(moves.len());
            let cells = &self.world.resource::<Board>().cells;
            for m in moves.drain(..) {
                // Captures that look losing are not searched here (they cannot raise the
                // stand-pat score in the usual case), nor, where captures are ordinary, those
                // that would leave the score below alpha even with a margin.
                let victim = cells[m.victim_square().index()];
                let hopeless = self.delta_pruning
                    && m.promotion.is_none()
                    && victim.is_piece()
                    && stand + self.capture_gain(victim.kind()) + DELTA_MARGIN <= alpha;
                let wanted = (m.capture && !hopeless && !self.losing_capture(&m)) || m.promotion.is_some();
                if wanted || (first && self.forcing(&m, turn, &enemy_royals, self.forcing_checks)) {
                    keep.push(m);
                }
            }
            moves = keep;
        }
        self.sort_moves(&mut moves, None, ply);
        let checks_only = !evasions && qdepth == 0 && self.forcing_checks;
        for &m in moves.iter() {
            let quiet = !m.capture && m.promotion.is_none();
            let Some(flipped) = self.play(m) else { continue };
            // Quiet forcing moves count only when they check (or reach a goal, judged by the rules).
            if quiet && checks_only && !self.side_to_move_in_check() && self.world.resource::<crate::rules::DecidedOutcome>().0.is_none() {
                let goal = {
                    let kind = self.world.resource::<Board>().cells[m.to.index()];
                    kind.is_piece()
                        && self.goals.iter().any(|(t, off)| t & (1u64 << kind.kind().0) != 0 && off[turn.index()][m.to.index()] == 0)
                };
                if !goal {
                    self.undo();
                    continue;
                }
            }
            let score =
                if flipped { -self.quiesce(ply + 1, -beta, -alpha, qdepth + 1) } else { self.quiesce(ply + 1, alpha, beta, qdepth + 1) };
            self.undo();
            if self.aborted {
                self.buffers[ply] = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                }
            }
            if alpha >= beta {
                break;
            }
        }
        self.buffers[ply] = moves;
        if best == -INF {
            // In check with every evasion cancelled, or nothing searched: judge statically.
            return self.eval.evaluate(self.world, self.facts.as_mut());
        }
        best
    }

    /// The principal variation at `ply` becomes `m` followed by the child's.
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Passes the turn without a move (null-move pruning only), returning what to restore.
    fn make_null(&mut self) -> GameState {
        let saved = *self.world.resource::<GameState>();
        {
            let mut st = self.world.resource_mut::<GameState>();
            // Passing gives no check: the passer's series of checks ends (Shatar).
            let turn = st.turn.index();
            st.shak_series[turn] = false;
            st.check_streak[turn] = 0;
            st.turn = st.turn.opponent();
            st.ep_square = None;
            st.ep_victim = None;
            // No repetition reaches back across a null move.
            st.halfmove_clock = 0;
        }
        let h = position_hash(self.world);
        self.world.resource_mut::<History>().0.push(h);
        saved
    }

    fn unmake_null(&mut self, saved: GameState) {
        self.world.resource_mut::<History>().0.pop();
        *self.world.resource_mut::<GameState>() = saved;
    }
}
