//! Game-level facts: side to move, turn counters, castling rights, en passant, clocks.

use bevy::prelude::*;

use super::board::mix;
use super::geometry::{Side, Square};
use super::moves::Wing;
use super::outcome::Outcome;

/// Castling rights: for each side and wing, the file of the rook that may still castle.
/// Storing the rook's file (not a flag) makes Chess960 and X-FEN/Shredder FEN exact.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct CastlingRights {
    /// `rooks[side][wing]`.
    pub rooks: [[Option<u8>; 2]; 2],
}

impl CastlingRights {
    /// The rook file for `side` castling on `wing`.
    #[inline]
    pub fn get(&self, side: Side, wing: Wing) -> Option<u8> {
        self.rooks[side.index()][wing.index()]
    }

    /// Whether any right remains.
    pub fn any(&self) -> bool {
        self.rooks.iter().flatten().any(Option::is_some)
    }
}

/// The game-level facts of a position. One resource; the move-application pipeline updates it
/// and undo restores it from a snapshot.
#[derive(Resource, Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct GameState {
    /// Whose turn it is.
    pub turn: Side,
    /// Half-moves played in the current turn (double-move presets let a side play several).
    pub half_moves_this_turn: u8,
    /// The full-move number, starting at 1, incremented after black's turn.
    pub fullmove: u32,
    /// Half-moves since the last capture or pawn move, for the fifty-move rule.
    pub halfmove_clock: u32,
    /// Castling rights.
    pub castling: CastlingRights,
    /// The en-passant square, when the last move was a double step.
    pub ep_square: Option<Square>,
    /// The square of the piece an en-passant capture on `ep_square` would take.
    pub ep_victim: Option<Square>,
    /// Checks given so far by each side (Three-check).
    pub checks: [u8; 2],
    /// Positions in a row, up to this one, reached by a move with the royal pieces facing each
    /// other on an open file (Janggi's bikjang).
    pub facing_streak: u8,
    /// Passes in a row, up to the last move (Janggi).
    pub pass_streak: u8,
    /// Per side, the files of back-rank squares whose piece has not moved yet, where a piece
    /// from the hand may still be gated in (Seirawan).
    pub gates: [u16; 2],
    /// Per side, whether its unbroken series of checking moves up to now had a check by a
    /// piece whose checks count (Shatar's shak); false once a move of its gives no check.
    pub shak_series: [bool; 2],
    /// Per side, its checking moves in a row up to now (kept where perpetual check loses; no
    /// part of a repetition).
    pub check_streak: [u16; 2],
    /// Per side and file, the piece waiting above the back rank to gate in there (its type
    /// index plus one; 0: none), under fixed gating (Musketeer).
    pub fixed_gates: [[u8; 16]; 2],
    /// Set by a game-result hook for the position its move made: the default end rules
    /// (checkmate, stalemate) do not apply to it (`preset-api.md`: a game-result hook overrides
    /// the default checkmate and stalemate logic). Cleared at the start of every move.
    pub default_end_suppressed: bool,
    /// The last move dropped a piece whose drop may not mate (Shogi's pawn, `no_drop_mate`): a
    /// mate it gives is a foul that loses for the dropper (`end::mate`), as Fairy-Stockfish
    /// scores it. Not part of the hash: the position is the same, only its verdict differs.
    pub foul_drop: bool,
}

impl GameState {
    /// The hash of these facts, to combine with the board's piece hash: everything but the
    /// half-move clock and the full-move number, which repetition must not see.
    pub fn hash(&self) -> u64 {
        let mut h = if self.turn == Side::Black { mix(0xB1AC) } else { 0 };
        for (s, wings) in self.castling.rooks.iter().enumerate() {
            for (w, file) in wings.iter().enumerate() {
                if let Some(f) = file {
                    h ^= mix(0xCA57_0000 | (s as u64) << 12 | (w as u64) << 8 | *f as u64);
                }
            }
        }
        if let Some(ep) = self.ep_square {
            h ^= mix(0xE9_0000 | ep.0 as u64 | (self.ep_victim.map_or(0, |v| v.0 as u64 + 1) << 8));
        }
        if self.gates != [0, 0] {
            h ^= mix(0x6A7E_0000_0000 | (self.gates[0] as u64) << 16 | self.gates[1] as u64);
        }
        if self.fixed_gates != [[0; 16]; 2] {
            for (s, files) in self.fixed_gates.iter().enumerate() {
                for (f, &k) in files.iter().enumerate().filter(|(_, k)| **k != 0) {
                    h ^= mix(0xF1C5_0000_0000 | (s as u64) << 16 | (f as u64) << 8 | k as u64);
                }
            }
        }
        if self.checks != [0, 0] {
            h ^= mix(0xC4EC_0000 | (self.checks[0] as u64) << 8 | self.checks[1] as u64);
        }
        // Counters rules read (double moves, bikjang, passes); not the clocks or move number.
        if self.half_moves_this_turn != 0 || self.facing_streak != 0 || self.pass_streak != 0 || self.default_end_suppressed {
            h ^= mix(0x5EC0_0000_0000
                | (self.default_end_suppressed as u64) << 24
                | (self.half_moves_this_turn as u64) << 16
                | (self.facing_streak as u64) << 8
                | self.pass_streak as u64);
        }
        h
    }
}

/// The outcome a game-result hook decided; part of the position (undo restores it).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct DecidedOutcome(pub Option<Outcome>);

/// Step 10: a hook decides the game. The first decision stands.
pub fn decide(outcome: &mut DecidedOutcome, result: Outcome) {
    if outcome.0.is_none() {
        outcome.0 = Some(result);
    }
}
