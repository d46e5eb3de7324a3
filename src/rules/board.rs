//! The square index: which piece stands where, kept in step with the piece entities'
//! [`Location`](super::Location) components, and the position hash.

use bevy::prelude::*;

use super::geometry::{Geometry, Side, Square, SquareSet};
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
    /// Hash of the pieces on the board and in hand (side, castling and en passant are added
    /// by [`GameState::hash`](super::GameState::hash)).
    pub hash: u64,
    /// Pieces in each side's hand, `hand[side]`, as `(type, entity)`, sorted.
    pub hand: [Vec<(PieceType, Entity)>; 2],
    /// Count of pieces in hand per side and type.
    pub hand_counts: [[u8; 64]; 2],
    /// The squares of each side's pieces as a bit set (bit `i` of word `i / 64`), so that a
    /// side's pieces are listed without a scan of every cell.
    occupancy: [SquareSet; 2],
    /// Per square, the mark of the piece standing there (0: none): the modifier profile's
    /// per-instance entry bound to it, so that a piece's own movement is known on any position
    /// the kernel makes, trials included.
    pub marks: Vec<u8>,
    /// The marked pieces and their marks (empty without per-instance entries).
    pub bound: Vec<(Entity, u8)>,
}

#[inline]
fn hand_key(side: Side, kind: PieceType, count: u8) -> u64 {
    mix(0x4A4D_0000_0000 | (side as u64) << 16 | (kind.0 as u64) << 8 | count as u64)
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

/// The hash contribution of a piece's mark on `sq`.
#[inline]
fn mark_key(sq: Square, mark: u8) -> u64 {
    mix(0x4D41_524B_0000_0000 | ((sq.0 as u64) << 8) | mark as u64)
}

impl Board {
    /// Marks pieces (a modifier profile's per-instance entries; an empty list unmarks every
    /// piece): the marks of the pieces on the board and the hash follow at once.
    pub fn bind(&mut self, bound: Vec<(Entity, u8)>) {
        for i in 0..self.marks.len() {
            let mark = std::mem::take(&mut self.marks[i]);
            if mark != 0 {
                self.hash ^= mark_key(Square(i as u8), mark);
            }
        }
        self.bound = bound;
        for i in 0..self.marks.len() {
            if let Some(e) = self.entities[i]
                && let Some(&(_, mark)) = self.bound.iter().find(|(b, _)| *b == e)
            {
                self.marks[i] = mark;
                self.hash ^= mark_key(Square(i as u8), mark);
            }
        }
    }

    /// The mark of the piece on `sq` (0: none).
    #[inline]
    pub fn mark(&self, sq: Square) -> u8 {
        self.marks[sq.index()]
    }

    /// An empty board.
    pub fn empty(geometry: Geometry) -> Board {
        Board {
            geometry,
            cells: vec![Cell::EMPTY; geometry.len()],
            entities: vec![None; geometry.len()],
            hash: 0,
            hand: [Vec::new(), Vec::new()],
            hand_counts: [[0; 64]; 2],
            occupancy: [SquareSet::EMPTY; 2],
            marks: vec![0; geometry.len()],
            bound: Vec::new(),
        }
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

    /// Makes an empty square a wall, or a wall an empty square again (the duck moves).
    #[inline]
    pub fn set_wall(&mut self, sq: Square, wall: bool) {
        let (from, to) = if wall { (Cell::EMPTY, Cell::WALL) } else { (Cell::WALL, Cell::EMPTY) };
        debug_assert_eq!(self.cells[sq.index()], from);
        self.cells[sq.index()] = to;
        self.hash ^= piece_key(sq, Cell::WALL);
    }

    /// The walls on the board, in square order.
    pub fn walls(&self) -> impl Iterator<Item = Square> + '_ {
        self.cells.iter().enumerate().filter(|(_, c)| **c == Cell::WALL).map(|(i, _)| Square(i as u8))
    }

    /// Puts a piece on an empty square.
    #[inline]
    pub fn put(&mut self, sq: Square, kind: PieceType, side: Side, entity: Entity) {
        let cell = Cell::piece(kind, side);
        debug_assert!(self.cells[sq.index()].is_empty());
        self.cells[sq.index()] = cell;
        self.entities[sq.index()] = Some(entity);
        self.hash ^= piece_key(sq, cell);
        self.occupancy[side.index()].insert(sq);
        if !self.bound.is_empty()
            && let Some(&(_, mark)) = self.bound.iter().find(|(e, _)| *e == entity)
        {
            self.marks[sq.index()] = mark;
            self.hash ^= mark_key(sq, mark);
        }
    }

    /// Takes the piece off `sq`, returning its cell and entity.
    #[inline]
    pub fn take(&mut self, sq: Square) -> (Cell, Option<Entity>) {
        let cell = self.cells[sq.index()];
        if cell.is_piece() {
            self.hash ^= piece_key(sq, cell);
            self.occupancy[cell.side().index()].remove(sq);
            // Without bound pieces no square is marked.
            if !self.bound.is_empty() {
                let mark = std::mem::take(&mut self.marks[sq.index()]);
                if mark != 0 {
                    self.hash ^= mark_key(sq, mark);
                }
            }
        }
        self.cells[sq.index()] = Cell::EMPTY;
        (cell, self.entities[sq.index()].take())
    }

    /// Puts a piece into `side`'s hand.
    pub fn put_in_hand(&mut self, side: Side, kind: PieceType, entity: Entity) {
        let count = &mut self.hand_counts[side.index()][kind.0 as usize];
        self.hash ^= hand_key(side, kind, *count);
        // Positions hold at most 255 pieces of a type (the FEN reader refuses more).
        *count = count.saturating_add(1);
        self.hash ^= hand_key(side, kind, *count);
        // Kept sorted, so that a hand taken from and given back is the same list (exact undo).
        let list = &mut self.hand[side.index()];
        let at = list.partition_point(|&x| x < (kind, entity));
        list.insert(at, (kind, entity));
    }

    /// Takes `entity` out of `side`'s hand.
    pub fn take_from_hand(&mut self, side: Side, kind: PieceType, entity: Entity) {
        let list = &mut self.hand[side.index()];
        if let Some(i) = list.iter().rposition(|&(_, e)| e == entity) {
            list.remove(i);
            let count = &mut self.hand_counts[side.index()][kind.0 as usize];
            self.hash ^= hand_key(side, kind, *count);
            *count = count.saturating_sub(1);
            self.hash ^= hand_key(side, kind, *count);
        }
    }

    /// A piece of `kind` in `side`'s hand, if there is one.
    pub fn in_hand(&self, side: Side, kind: PieceType) -> Option<Entity> {
        self.hand[side.index()].iter().rev().find(|(k, _)| *k == kind).map(|&(_, e)| e)
    }

    /// The squares of `side`'s pieces, in square order.
    #[inline]
    pub fn squares_of(&self, side: Side) -> impl Iterator<Item = Square> + '_ {
        self.occupancy[side.index()].iter()
    }

    /// The squares of `side`'s pieces of types in `mask`.
    pub fn find(&self, side: Side, mask: u64) -> impl Iterator<Item = Square> + '_ {
        self.squares_of(side).filter(move |sq| mask & (1u64 << self.cells[sq.index()].kind().0) != 0)
    }
}

/// Whether a royal piece of `mine` faces one of `theirs` along an open file or rank
/// ([`open_line`]: Xiangqi's flying general, Janggi's bikjang).
pub fn generals_face(g: Geometry, cells: &[Cell], mine: &[Square], theirs: &[Square]) -> bool {
    mine.iter().any(|&a| theirs.iter().any(|&b| open_line(g, cells, a, b)))
}

/// Whether `a` and `b` share a file or a rank with every square between them empty: the lines
/// along which royal pieces may not face each other, the file and the rank, as
/// Fairy-Stockfish's `flyingGeneral` judges it (kings held in palaces, as in Xiangqi, only ever
/// meet on a file).
#[inline]
pub fn open_line(g: Geometry, cells: &[Cell], a: Square, b: Square) -> bool {
    let (fa, ra, fb, rb) = (g.file(a) as i32, g.rank(a) as i32, g.file(b) as i32, g.rank(b) as i32);
    if a == b || (fa != fb && ra != rb) {
        return false;
    }
    let (dx, dy) = ((fb - fa).signum(), (rb - ra).signum());
    let step = dy * g.files as i32 + dx;
    let mut i = a.index() as i32 + step;
    while i != b.index() as i32 {
        if !cells[i as usize].is_empty() {
            return false;
        }
        i += step;
    }
    true
}
