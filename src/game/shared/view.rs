//! How the board is seen: its size and side, where its squares are drawn, the earlier position
//! looked at, and what the panel shows of the position.

use bevy::prelude::*;

use crate::rules::{Geometry, Move, PieceType, Side, Square};

/// Side length of one square in world units.
pub const SQUARE: f32 = 96.0;

/// Width of the side panel in logical pixels (the board's viewport is what is left).
pub const PANEL_WIDTH: f32 = 340.0;

/// How the board is seen.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardView {
    /// The side at the bottom.
    pub bottom: Side,
    /// Zen mode: the board alone (and the clocks, when the game has them).
    pub zen: bool,
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView { bottom: Side::White, zen: false }
    }
}

/// Width of the clocks' column in zen mode.
pub const ZEN_WIDTH: f32 = 260.0;

/// The width the panel takes beside the board: the whole panel, or in zen mode the clocks'
/// column (nothing without clocks).
pub fn side_width(view: &BoardView, clocks: bool) -> f32 {
    match (view.zen, clocks) {
        (false, _) => PANEL_WIDTH,
        (true, true) => ZEN_WIDTH,
        (true, false) => 0.0,
    }
}

/// Bumped when the board must be laid out again (flip, new variant).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayoutVersion(pub u64);

/// Where the centre of `sq` is drawn.
pub fn square_centre(g: Geometry, view: BoardView, sq: Square) -> Vec2 {
    let (w, h) = (g.files as f32, g.ranks as f32);
    let (mut f, mut r) = (g.file(sq) as f32, g.rank(sq) as f32);
    if view.bottom == Side::Black {
        f = w - 1.0 - f;
        r = h - 1.0 - r;
    }
    Vec2::new((f - (w - 1.0) / 2.0) * SQUARE, (r - (h - 1.0) / 2.0) * SQUARE)
}

/// The square under a world position.
pub fn square_at(g: Geometry, view: BoardView, at: Vec2) -> Option<Square> {
    let (w, h) = (g.files as f32, g.ranks as f32);
    let f = (at.x / SQUARE + w / 2.0).floor();
    let r = (at.y / SQUARE + h / 2.0).floor();
    if f < 0.0 || r < 0.0 || f >= w || r >= h {
        return None;
    }
    let (mut f, mut r) = (f as i32, r as i32);
    if view.bottom == Side::Black {
        f = g.files as i32 - 1 - f;
        r = g.ranks as i32 - 1 - r;
    }
    g.square(f, r)
}

/// One earlier position, as the board draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct Past {
    /// Each piece on the board: square, type, side, and the type it promoted from.
    pub pieces: Vec<(Square, PieceType, Side, Option<PieceType>)>,
    /// Pieces in hand per side and type.
    pub hands: [[u8; 64]; 2],
    /// The move that led to it.
    pub last: Option<Move>,
    /// The board's hash (the key of its arrows and circles).
    pub hash: u64,
}

/// What the board shows: the game's position, or an earlier one.
#[derive(Resource, Default)]
pub struct Browse {
    /// The ply viewed (positions after that many moves), when not the game's own.
    pub ply: Option<usize>,
    /// The game's positions from the start, made for the position version in `made_for`.
    pub(in crate::game) positions: Vec<Past>,
    pub(in crate::game) made_for: Option<u64>,
}

impl Browse {
    /// The earlier position viewed, if any.
    pub fn shown(&self) -> Option<&Past> {
        self.ply.and_then(|p| self.positions.get(p))
    }
}

/// Where to look.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrowseTo {
    /// One move back.
    Back,
    /// One move on (past the last: the game).
    Forward,
    /// The start.
    Start,
    /// The game's position.
    Live,
    /// The position after this many moves.
    Ply(usize),
}

/// What the panel needs from the world: the game's result, read with the check squares after
/// each change of position (by the side panel's plugin).
#[derive(Resource, Default)]
pub struct PanelData {
    /// The game's result, if it is over (as PGN comments and the end sound say it).
    pub outcome: Option<String>,
    /// The result in a player's words: "Checkmate: White wins", "Black's king was blown up".
    pub headline: Option<String>,
}
