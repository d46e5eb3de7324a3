//! Piece types whose movement is written in code and registered through the piece-type
//! registry's generator and attack-probe slots, for pieces Betza cannot say or where code is
//! clearer. A variant file picks one with `code: "<name>"` on a piece; its Betza string then
//! only draws the diagram.

use super::geometry::{Side, Square};
use super::moves::Move;
use super::piece::{Cell, PieceType};
use super::query::{GenContext, PieceSlot};
use super::registry::{AttackProbe, MoveGenerator, PieceTypeRegistry};

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

/// The cannon (Xiangqi's pao): moves like a rook; captures by jumping exactly one piece (the
/// screen, of either side) along a line to the first piece behind it. Betza `mRcpR`.
fn cannon_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    let g = ctx.geometry;
    let (f, r) = (g.file(slot.square) as i32, g.rank(slot.square) as i32);
    for (dx, dy) in ORTHOGONAL {
        let mut screened = false;
        let mut step = 1;
        while let Some(sq) = g.square(f + dx * step, r + dy * step) {
            let c = ctx.cells[sq.0 as usize];
            if c == Cell::WALL {
                break;
            }
            if !screened {
                if c.is_empty() {
                    out.push(Move::normal(slot.square, sq, false));
                } else {
                    screened = true;
                }
            } else if c.is_piece() {
                if c.side() != slot.side {
                    out.push(Move::normal(slot.square, sq, true));
                }
                break;
            }
            step += 1;
        }
    }
}

/// Whether a cannon of `by` on `from` attacks `target`: on one line with exactly one piece
/// between them.
fn cannon_attacks(reg: &PieceTypeRegistry, cells: &[Cell], _kind: PieceType, _by: Side, from: Square, target: Square) -> bool {
    let g = reg.geometry;
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let (tf, tr) = (g.file(target) as i32, g.rank(target) as i32);
    if from == target || (f != tf && r != tr) {
        return false;
    }
    let (dx, dy) = ((tf - f).signum(), (tr - r).signum());
    let mut between = 0;
    let mut step = 1;
    while let Some(sq) = g.square(f + dx * step, r + dy * step) {
        if sq == target {
            return between == 1;
        }
        match cells[sq.0 as usize] {
            Cell::WALL => return false,
            c if c.is_piece() => between += 1,
            _ => {}
        }
        step += 1;
    }
    false
}

/// The code-defined piece types by name: generator and attack probe.
pub fn code_piece(name: &str) -> Option<(MoveGenerator, AttackProbe)> {
    match name {
        "cannon" => Some((MoveGenerator::Custom(cannon_moves), AttackProbe::Custom(cannon_attacks))),
        _ => None,
    }
}

/// Names of the code-defined piece types.
pub const CODE_PIECES: &[&str] = &["cannon"];
