//! The square index: which piece stands where, kept in step with the piece entities'
//! [`Location`](super::Location) components, and the position hash.

use bevy::prelude::*;

use super::geometry::{Geometry, Side, Square};
use super::piece::{Cell, PieceType};

/// The occupancy of every square, as cell codes and entities, with an incremental
/// Zobrist-style hash of the pieces. It mirrors the pieces' components exactly; only
/// [`BoardWriter`](super::apply::BoardWriter) and setup code change it.
#[derive(Resource, Clone, Debug)]
pub struct Board {
    /// Board size.
    pub geometry: Geometry,
    /// Cell code per square.
    pub cells: Vec<Cell>,
    /// The entity per square, when a piece stands there.
    pub entities: Vec<Option<Entity>>,
    /// Hash of the pieces on the board (side, castling and en passant are added by
    /// [`GameState::hash`](super::GameState::hash)).
    pub hash: u64,
}

/// A well-mixed 64-bit hash of one number (splitmix64's finaliser).
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The hash contribution of `cell` on `sq`.
#[inline]
pub fn piece_key(sq: Square, cell: Cell) -> u64 {
    mix(((sq.0 as u64) << 8) | cell.0 as u64)
}

impl Board {
    /// An empty board.
    pub fn empty(geometry: Geometry) -> Board {
        Board { geometry, cells: vec![Cell::EMPTY; geometry.len()], entities: vec![None; geometry.len()], hash: 0 }
    }

    /// The cell on `sq`.
    #[inline]
    pub fn cell(&self, sq: Square) -> Cell {
        self.cells[sq.index()]
    }

    /// The piece entity on `sq`.
    #[inline]
    pub fn entity(&self, sq: Square) -> Option<Entity> {
        self.entities[sq.index()]
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, sq: Square, kind: PieceType, side: Side, entity: Entity) {
        let cell = Cell::piece(kind, side);
        debug_assert!(self.cells[sq.index()].is_empty());
        self.cells[sq.index()] = cell;
        self.entities[sq.index()] = Some(entity);
        self.hash ^= piece_key(sq, cell);
    }

    /// Takes the piece off `sq`, returning its cell and entity.
    #[inline]
    pub fn take(&mut self, sq: Square) -> (Cell, Option<Entity>) {
        let cell = self.cells[sq.index()];
        if cell.is_piece() {
            self.hash ^= piece_key(sq, cell);
        }
        self.cells[sq.index()] = Cell::EMPTY;
        (cell, self.entities[sq.index()].take())
    }

    /// Walls a square off (a hole in the board).
    pub fn set_wall(&mut self, sq: Square) {
        self.cells[sq.index()] = Cell::WALL;
        self.entities[sq.index()] = None;
    }

    /// The squares of `side`'s pieces of types in `mask`.
    pub fn find(&self, side: Side, mask: u64) -> impl Iterator<Item = Square> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter_map(move |(i, c)| (c.is_piece() && c.side() == side && mask & (1u64 << c.kind().0) != 0).then_some(Square(i as u8)))
    }
}
