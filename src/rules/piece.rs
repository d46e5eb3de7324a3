//! Piece facts as ECS components: every piece is an entity with one component per fact.

use bevy::prelude::*;

use super::geometry::{Side, Square};

/// Index of a piece type in the variant's [`PieceTypeRegistry`](super::PieceTypeRegistry).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Component)]
pub struct PieceType(pub u8);

/// Which side a piece belongs to.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Component)]
pub struct Owner(pub Side);

/// Where a piece is. Pieces are never despawned by the rules: a captured piece changes
/// location, so undo restores the same entity and references to it stay valid.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Component)]
pub enum Location {
    /// On the board.
    Board(Square),
    /// In its owner's pocket (Crazyhouse, Shogi), ready to drop.
    Hand,
    /// Off the board for good (captured, exploded).
    Captured,
}

impl Location {
    /// The square, when the piece is on the board.
    #[inline]
    pub fn square(self) -> Option<Square> {
        match self {
            Location::Board(sq) => Some(sq),
            _ => None,
        }
    }
}

/// The type a piece was promoted from, if it was promoted (written `~` in FEN); a captured
/// promoted piece goes to the captor's hand as that type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Component)]
pub struct Promoted(pub Option<PieceType>);

/// The square each piece stood on when the position was set up (a modifier profile's
/// per-instance entries name pieces by it); pieces that appear later have none. A resource, not
/// a component, so that the pieces the search moves around stay as small as they were.
#[derive(Resource, Clone, PartialEq, Eq, Debug, Default)]
pub struct Homes(pub Vec<(Entity, super::geometry::Square)>);

/// Marks every piece entity; the rules never query anything else as a piece.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Component)]
pub struct Piece;

/// The components of a new piece.
pub fn piece_bundle(kind: PieceType, side: Side, location: Location) -> impl Bundle {
    (Piece, kind, Owner(side), location, Promoted(None))
}

/// A compact cell code used by the square index: 0 is empty, 1 is a wall,
/// otherwise `2 + 2 * type + side`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Cell(pub u8);

impl Cell {
    /// No piece.
    pub const EMPTY: Cell = Cell(0);
    /// A hole or wall: no piece may stand or pass here.
    pub const WALL: Cell = Cell(1);

    /// The cell of a piece.
    #[inline]
    pub fn piece(kind: PieceType, side: Side) -> Cell {
        Cell(2 + 2 * kind.0 + side as u8)
    }

    /// Whether nothing stands here.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether a piece stands here.
    #[inline]
    pub fn is_piece(self) -> bool {
        self.0 >= 2
    }

    /// The piece's side (only meaningful for a piece).
    #[inline]
    pub fn side(self) -> Side {
        if self.0 & 1 == 0 { Side::White } else { Side::Black }
    }

    /// The piece's type (only meaningful for a piece; 0 for an empty square or a wall).
    #[inline]
    pub fn kind(self) -> PieceType {
        PieceType(self.0.saturating_sub(2) >> 1)
    }
}
