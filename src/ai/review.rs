//! Game review: every position of a played game searched at one fixed budget, the evaluation
//! over the game, and each move judged by what it cost its player.
//!
//! # How a move is judged
//!
//! Each position is searched by the strongest level for [`Budget::nodes`] nodes (a node count,
//! so a review gives the same figures on any machine). The positions are searched from the last
//! to the first, so the transposition table carries what the later positions found back to the
//! earlier ones. A finished game's last position is scored by its result, not searched.
//!
//! A score becomes the mover's *expected score* on the evaluation bar's scale
//! ([`expected_score`]: 400 centipawns make ten to one, a mate is a certain result). A move's
//! *loss* is its player's expected score before it (the best the search found) less the
//! expected score after it, never below zero. The thresholds, in expected-score points out of
//! one, are chosen so that from an even position an inaccuracy costs about half a pawn, a
//! mistake a pawn and a tenth, a blunder a pawn and seven tenths, close to lichess's review:
//!
//! | mark | loss at least | from an even position |
//! |------|---------------|-----------------------|
//! | `?!` inaccuracy | [`INACCURACY`] (0.07) | about 50 centipawns |
//! | `?` mistake | [`MISTAKE`] (0.15) | about 110 |
//! | `??` blunder | [`BLUNDER`] (0.23) | about 170 |
//!
//! On the logistic scale the same centipawns cost less where one side is already far ahead, so
//! a winning side's slack is not marked and a lost side's flailing is not either.
//!
//! The *average centipawn loss* of a side is the mean over its moves of the evaluation it lost
//! (scores clamped to ±1,000 centipawns first, a mate counting as 1,000), as chess sites
//! report it.
//!
//! A variant in which one side moves twice in a turn (double-move presets) is judged move by
//! move: each move is measured against the position before it, whoever moves next.
//!
//! Layer: uses `rules` (and the search beside it).

use std::sync::atomic::AtomicBool;

use super::{Computer, Limits, MATE, MAX_LEVEL, Score, SearchMemory};
use crate::rules::{Engine, Move, Side};

/// A move losing at least this much of its player's expected score is an inaccuracy.
pub const INACCURACY: f64 = 0.07;
/// … a mistake.
pub const MISTAKE: f64 = 0.15;
/// … a blunder.
pub const BLUNDER: f64 = 0.23;

/// Scores beyond this many centipawns count as this many in the average centipawn loss.
pub const CP_CAP: Score = 1000;

/// White's expected score on the evaluation bar's scale: `1 / (1 + 10^(-cp / 400))`; a mate
/// score, being huge, gives 0 or 1.
pub fn expected_score(white_cp: Score) -> f64 {
    1.0 / (1.0 + 10f64.powf(-(white_cp as f64) / 400.0))
}

/// How bad a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub enum Judgement {
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Judgement {
    /// The judgement of a loss of expected score, if it earns one.
    pub fn of(loss: f64) -> Option<Judgement> {
        if loss >= BLUNDER {
            Some(Judgement::Blunder)
        } else if loss >= MISTAKE {
            Some(Judgement::Mistake)
        } else if loss >= INACCURACY {
            Some(Judgement::Inaccuracy)
        } else {
            None
        }
    }

    /// The PGN suffix: `?!`, `?` or `??`.
    pub fn suffix(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// `n` of them in words: "1 inaccuracy", "2 mistakes", "0 blunders".
    pub fn counted(self, n: usize) -> String {
        let word = match (self, n == 1) {
            (Judgement::Inaccuracy, true) => "inaccuracy",
            (Judgement::Inaccuracy, false) => "inaccuracies",
            (Judgement::Mistake, true) => "mistake",
            (Judgement::Mistake, false) => "mistakes",
            (Judgement::Blunder, true) => "blunder",
            (Judgement::Blunder, false) => "blunders",
        };
        format!("{n} {word}")
    }

    /// The word: "Inaccuracy", "Mistake", "Blunder".
    pub fn word(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// The budget of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Nodes searched in each position.
    pub nodes: u64,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget { nodes: 150_000 }
    }
}

/// One position of the game, as the review found it.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The evaluation from White's side, centipawns (a mate as [`MATE`] less its plies).
    pub white: Score,
    /// White's expected score from it.
    pub expected: f64,
    /// Depth reached (0 for a finished game's last position).
    pub depth: u32,
    /// The best move found, in SAN, when the position was searched.
    pub best_san: Option<String>,
    /// The best move found.
    pub best: Option<Move>,
}

impl PositionEval {
    /// Moves to mate from White's side (positive: White mates), when the score is a mate.
    pub fn white_mate(&self) -> Option<i32> {
        (self.white.abs() >= super::search::MATE_BOUND).then(|| {
            let moves = (MATE - self.white.abs() + 1) / 2;
            if self.white > 0 { moves } else { -moves }
        })
    }

    /// The `[%eval …]` value: pawns from White's side with two decimals, or `#N` / `#-N`.
    pub fn pgn_eval(&self) -> String {
        match self.white_mate() {
            Some(n) => format!("#{n}"),
            None => format!("{:.2}", self.white as f64 / 100.0),
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveNote {
    /// Who played it.
    pub mover: Side,
    /// The share of its player's expected score it gave away (0 when none).
    pub loss: f64,
    /// Centipawns it gave away (clamped, see the module docs).
    pub cp_loss: Score,
    /// Its mark, if it earns one.
    pub judgement: Option<Judgement>,
    /// The move the search preferred, in SAN, when it was another.
    pub better: Option<String>,
}

/// A reviewed game: one evaluation a position (the start first) and one note a move.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// `positions[i]` is the position before move `i`; the last is the final position.
    pub positions: Vec<PositionEval>,
    /// `moves[i]` judges move `i` of the game's log.
    pub moves: Vec<MoveNote>,
}

impl Review {
    /// How many of `side`'s moves earned `judgement`.
    pub fn count(&self, side: Side, judgement: Judgement) -> usize {
        self.moves.iter().filter(|m| m.mover == side && m.judgement == Some(judgement)).count()
    }

    /// `side`'s marks in words: "1 inaccuracy, 0 mistakes, 2 blunders".
    pub fn marks_in_words(&self, side: Side) -> String {
        [Judgement::Inaccuracy, Judgement::Mistake, Judgement::Blunder]
            .iter()
            .map(|&j| j.counted(self.count(side, j)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `side`'s average centipawn loss, when it moved at all.
    pub fn average_cp_loss(&self, side: Side) -> Option<f64> {
        let losses: Vec<Score> = self.moves.iter().filter(|m| m.mover == side).map(|m| m.cp_loss).collect();
        (!losses.is_empty()).then(|| losses.iter().map(|&l| l as f64).sum::<f64>() / losses.len() as f64)
    }

    /// The review as JSON: `moves` (each with `ply` from 0, `mover`, `loss` in expected
    /// score, `cp_loss`, `judgement` or null, `better` or null), `positions` (each with `eval`
    /// as `[%eval]` writes it, `white_cp` and `depth`), and each side's `average_cp_loss`.
    pub fn json(&self) -> serde_json::Value {
        let side = |s: Side| if s == Side::White { "white" } else { "black" };
        let moves: Vec<serde_json::Value> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                serde_json::json!({
                    "ply": i,
                    "mover": side(m.mover),
                    "loss": m.loss,
                    "cp_loss": m.cp_loss,
                    "judgement": m.judgement.map(|j| j.word().to_lowercase()),
                    "better": m.better,
                })
            })
            .collect();
        let positions: Vec<serde_json::Value> =
            self.positions.iter().map(|p| serde_json::json!({"eval": p.pgn_eval(), "white_cp": p.white, "depth": p.depth})).collect();
        serde_json::json!({
            "moves": moves,
            "positions": positions,
            "average_cp_loss": {"white": self.average_cp_loss(Side::White), "black": self.average_cp_loss(Side::Black)},
        })
    }

    /// The PGN comment of move `i`: its evaluation after the move, then its mark in words and
    /// the better move ("[%eval -1.20] Mistake. Nf3 was best.").
    /// A finished game's last position has no evaluation written, only its result.
    pub fn comment(&self, i: usize) -> Option<String> {
        let after = self.positions.get(i + 1)?;
        let finished = after.depth == 0 && after.best.is_none();
        let mut text = if finished { String::new() } else { format!("[%eval {}]", after.pgn_eval()) };
        if let Some(note) = self.moves.get(i)
            && let Some(j) = note.judgement
        {
            text.push_str(&format!(" {}.", j.word()));
            if let Some(b) = &note.better {
                text.push_str(&format!(" {b} was best."));
            }
        }
        let text = text.trim_start().to_string();
        (!text.is_empty()).then_some(text)
    }
}

/// The score of a position for White, clamped to [`CP_CAP`] (a mate counts as the cap).
fn capped(white: Score) -> Score {
    white.clamp(-CP_CAP, CP_CAP)
}

/// Reviews the game `game` has played: every position from its last back to its start, each
/// searched for `budget`. `game` must be able to take its moves back (a game replayed or
/// resumed, not a fork); its moves are taken back and played again, so it ends as it was.
/// `progress(done, total)` is called after each position; `stop` ends the review early, and
/// then `None` is returned.
pub fn review(game: &mut Engine, budget: Budget, stop: &AtomicBool, progress: impl FnMut(usize, usize)) -> Option<Review> {
    let log = game.move_log().0.clone();
    let taken = std::cell::Cell::new(0usize);
    let found = review_back(game, &log, budget, stop, progress, &taken);
    // The moves taken back, played again.
    for record in &log[log.len() - taken.get()..] {
        if game.apply(record.mv).is_err() {
            game.apply_unchecked(record.mv).expect("a move of the game plays again");
        }
    }
    found
}

fn review_back(
    game: &mut Engine,
    log: &[crate::rules::MoveRecord],
    budget: Budget,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize, usize),
    taken: &std::cell::Cell<usize>,
) -> Option<Review> {
    let total = log.len() + 1;
    let mut computer = Computer::new(game, MAX_LEVEL);
    computer.memory = SearchMemory::new(32);
    let mut positions: Vec<PositionEval> = Vec::with_capacity(total);
    for done in 0..total {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let white_to_move = game.state().turn == Side::White;
        let sign = if white_to_move { 1 } else { -1 };
        let eval = match game.outcome().filter(|_| done == 0) {
            // The game's end, scored by its result.
            Some(o) => {
                let white = match o.winner {
                    Some(Side::White) => MATE,
                    Some(Side::Black) => -MATE,
                    None => 0,
                };
                PositionEval { white, expected: expected_score(white), depth: 0, best_san: None, best: None }
            }
            None => {
                let limits = Limits { nodes: Some(budget.nodes), past_the_end: true, ..Limits::default() };
                let mut fork = game.fork();
                let r = computer.think_on(&mut fork, limits, stop, |_| {});
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return None;
                }
                let white = sign * r.info.score;
                let best_san = r.best.map(|m| game.to_san(&m));
                PositionEval { white, expected: expected_score(white), depth: r.info.depth, best_san, best: r.best }
            }
        };
        positions.push(eval);
        progress(done + 1, total);
        if done + 1 < total {
            // A move that cannot be taken back ends the review (its positions would be
            // mislabelled).
            game.undo()?;
            taken.set(taken.get() + 1);
        }
    }
    positions.reverse();
    let moves = log
        .iter()
        .enumerate()
        .map(|(i, record)| {
            let (before, after) = (&positions[i], &positions[i + 1]);
            let own = |p: &PositionEval| if record.mover == Side::White { p.expected } else { 1.0 - p.expected };
            let cp = |p: &PositionEval| if record.mover == Side::White { capped(p.white) } else { -capped(p.white) };
            let loss = (own(before) - own(after)).max(0.0);
            let played_best = before.best == Some(record.mv);
            let judgement = if played_best { None } else { Judgement::of(loss) };
            MoveNote {
                mover: record.mover,
                loss,
                cp_loss: (cp(before) - cp(after)).max(0),
                judgement,
                better: if played_best { None } else { before.best_san.clone() },
            }
        })
        .collect();
    Some(Review { positions, moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_thresholds_match_their_centipawns_from_an_even_position() {
        let loss = |cp: Score| expected_score(0) - expected_score(-cp);
        assert_eq!(Judgement::of(loss(40)), None);
        assert_eq!(Judgement::of(loss(60)), Some(Judgement::Inaccuracy));
        assert_eq!(Judgement::of(loss(120)), Some(Judgement::Mistake));
        assert_eq!(Judgement::of(loss(180)), Some(Judgement::Blunder));
        // A side already far ahead may give a pawn away unmarked.
        assert_eq!(Judgement::of(expected_score(900) - expected_score(800)), None);
        assert!((expected_score(MATE) - 1.0).abs() < 1e-12 && expected_score(-MATE) < 1e-12);
    }
}
