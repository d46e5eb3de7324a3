//! How a game ends: the outcome type and the default FIDE end conditions.

use std::fmt;

use super::board::Board;
use super::geometry::{Side, Square};
use super::registry::PieceTypeRegistry;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// A hundred half-moves without a capture or a pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Neither side can possibly checkmate.
    InsufficientMaterial,
    /// A rule of a variant or preset, described in words.
    Rule(String),
}

/// The end of a game: who won (none for a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` is a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `side`.
    pub fn win(side: Side, reason: Reason) -> Outcome {
        Outcome { winner: Some(side), reason }
    }

    /// A draw.
    pub fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }

    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_string(&self) -> &'static str {
        match self.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match &self.reason {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::Repetition => "threefold repetition",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Rule(s) => s.as_str(),
        };
        match self.winner {
            Some(side) => write!(f, "{side} wins by {why}"),
            None => write!(f, "draw by {why}"),
        }
    }
}

/// Whether `side` cannot checkmate by any series of legal moves, judged from material (the
/// FIDE piece set): a bare king; a single knight against a bare king; or only bishops while
/// every bishop on the board stands on one square colour and there are no knights or pawns.
/// Variants without knights, bishops and kings never count as insufficient.
pub fn cannot_mate(board: &Board, reg: &PieceTypeRegistry, side: Side) -> bool {
    let g = board.geometry;
    let (Some(knight), Some(bishop), Some(king)) = (reg.by_name("knight"), reg.by_name("bishop"), reg.by_name("king")) else {
        return false;
    };
    // Per side: knights, bishops, other non-king pieces.
    let mut knights = [0u32; 2];
    let mut bishops = [0u32; 2];
    let mut others = [0u32; 2];
    let mut bishop_colours = [false; 2];
    for (i, c) in board.cells.iter().enumerate() {
        if !c.is_piece() || c.kind() == king {
            continue;
        }
        let s = c.side().index();
        if c.kind() == knight {
            knights[s] += 1;
        } else if c.kind() == bishop {
            bishops[s] += 1;
            let sq = Square(i as u8);
            bishop_colours[((g.file(sq) + g.rank(sq)) & 1) as usize] = true;
        } else {
            others[s] += 1;
        }
    }
    let (me, them) = (side.index(), side.opponent().index());
    if others[me] > 0 {
        return false;
    }
    match (knights[me], bishops[me]) {
        (0, 0) => true,
        (1, 0) => knights[them] + bishops[them] + others[them] == 0,
        (0, _) => !(bishop_colours[0] && bishop_colours[1]) && knights[them] == 0 && others[them] == 0,
        _ => false,
    }
}

/// Whether neither side can checkmate (a dead position by material).
pub fn insufficient_material(board: &Board, reg: &PieceTypeRegistry) -> bool {
    Side::BOTH.iter().all(|&s| cannot_mate(board, reg, s))
}

/// How many times the current position (the last of `history`) has occurred within the last
/// `reversible` half-moves, itself included.
pub fn repetitions(history: &[u64], reversible: u32) -> usize {
    let Some((&now, earlier)) = history.split_last() else { return 0 };
    let window = earlier.len().min(reversible as usize);
    let start = earlier.len() - window;
    1 + earlier[start..].iter().filter(|&&h| h == now).count()
}
