//! Moves as the engine represents them.

use super::geometry::Square;
use super::piece::PieceType;

/// Which way a king castles.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Wing {
    /// Towards the higher files (O-O).
    King = 0,
    /// Towards the lower files (O-O-O).
    Queen = 1,
}

impl Wing {
    /// Both wings.
    pub const BOTH: [Wing; 2] = [Wing::King, Wing::Queen];

    /// 0 for the king side, 1 for the queen side.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What kind of move this is; decides the mutations of move application.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum MoveKind {
    /// A step, slide or leap, with or without capture.
    Normal,
    /// A pawn's double step, which leaves an en-passant square behind.
    DoubleStep,
    /// An en-passant capture: `to` is the en-passant square; the victim stands on this square
    /// (beside `from` for FIDE pawns; where it landed for Berolina pawns).
    EnPassant(Square),
    /// A multi-leg move that takes the enemy on this square on an earlier leg and ends on
    /// `to`, an empty square or `from` itself (a locust capture, the lion's igui): UCI
    /// `d4d5,d5d4`, SAN `Lxd5-d4`.
    Locust(Square),
    /// Castling: `from` is the king, `to` is the castling rook's square.
    Castle(Wing),
    /// A piece of this type from the mover's hand onto `to` (`from` equals `to`).
    Drop(PieceType),
    /// A pass (Janggi): nothing moves; `from` and `to` are the mover's royal square.
    Pass,
}

/// A move. Castling is encoded as "king takes own rook" so that Chess960 needs no special case.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// Where the moving piece stands.
    pub from: Square,
    /// Where it goes (the rook's square for castling).
    pub to: Square,
    /// The kind of move.
    pub kind: MoveKind,
    /// Whether it captures an enemy piece.
    pub capture: bool,
    /// The type a pawn promotes to.
    pub promotion: Option<PieceType>,
    /// A piece from the hand placed on a square the move vacates (Seirawan gating).
    pub gate: Option<Gate>,
    /// Where the duck goes after the piece has moved (Duck chess): UCI `e2e4,e4e5`.
    pub wall: Option<Square>,
}

/// A gating: which type from the hand goes onto which vacated square.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Gate {
    /// The type placed.
    pub kind: PieceType,
    /// Where (the moving piece's start square, or the rook's when castling).
    pub square: Square,
}

impl Move {
    /// A normal move.
    #[inline]
    pub fn normal(from: Square, to: Square, capture: bool) -> Move {
        Move { from, to, kind: MoveKind::Normal, capture, promotion: None, gate: None, wall: None }
    }

    /// A drop of `kind` onto `to`.
    #[inline]
    pub fn drop(kind: PieceType, to: Square) -> Move {
        Move { from: to, to, kind: MoveKind::Drop(kind), capture: false, promotion: None, gate: None, wall: None }
    }

    /// The type dropped, for a drop.
    #[inline]
    pub fn dropped(&self) -> Option<PieceType> {
        match self.kind {
            MoveKind::Drop(t) => Some(t),
            _ => None,
        }
    }

    /// Where the piece it captures stands: `to`, or the square taken en passant or on an
    /// earlier leg.
    #[inline]
    pub fn victim_square(&self) -> Square {
        match self.kind {
            MoveKind::EnPassant(v) | MoveKind::Locust(v) => v,
            _ => self.to,
        }
    }

    /// Where a capture by it explodes (Atomic): where it lands, or, for a capture on an
    /// earlier leg, where it took (the piece has gone on from there).
    #[inline]
    pub fn blast_square(&self) -> Square {
        match self.kind {
            MoveKind::Locust(v) => v,
            _ => self.to,
        }
    }

    /// Whether it is castling.
    #[inline]
    pub fn is_castle(&self) -> bool {
        matches!(self.kind, MoveKind::Castle(_))
    }
}
