//! `wrap-board`: the board is a cylinder; the a-file and the last file are neighbours. The moves
//! across the edge are a movement layer, so check detection sees attacks across the edge too.

use std::sync::Arc;

use super::{Activation, PresetDef};
use crate::rules::{
    Cell, GenContext, Geometry, Hop, LayerKind, Move, MoveLayer, PieceSlot, PieceType, PieceTypeRegistry, Side, Square, Variant,
};

/// The preset.
pub const WRAP_BOARD: PresetDef = PresetDef {
    id: "wrap-board",
    name: "Wrap-around board",
    description: "The board is a cylinder: the left and right edges are joined. Pieces may move and capture across the edge (a rook on h1 can go on to a1, a knight on h3 can leap to b4, a pawn on a4 can take on h5), and attacks across the edge give check. Castling and en passant stay as usual.",
    layers,
    ..PresetDef::BASE
};

/// Walks every simple atom of the piece of `kind` and `side` on `from` around the cylinder and
/// calls `visit(square, cell)` for each square reached only by crossing the side edge, until
/// a piece or wall blocks (the blocking square is visited too). Quiet-only atoms report
/// `captures == false`. Lame, hopping and whole-board atoms do not wrap.
fn wrapped_walk(
    reg: &PieceTypeRegistry,
    g: Geometry,
    cells: &[Cell],
    from: Square,
    kind: PieceType,
    side: Side,
    mut visit: impl FnMut(Square, Cell, bool, bool) -> bool,
) {
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let files = g.files as i32;
    let def = reg.def(kind);
    if def.zones.confinement.is_some() || def.zones.region_atoms.is_some() {
        return;
    }
    for atom in &def.atoms {
        if atom.lame || atom.hop != Hop::None || atom.any_square || atom.initial {
            continue;
        }
        let (dx, dy) = atom.oriented(side);
        if dx == 0 {
            continue;
        }
        let range = if atom.range == 0 { i32::from(g.files.max(g.ranks)) * 2 } else { i32::from(atom.range) };
        let mut crossed = false;
        for step in 1..=range {
            let (nf, nr) = (f + dx * step, r + dy * step);
            if nr < 0 || nr >= g.ranks as i32 {
                break;
            }
            crossed |= nf < 0 || nf >= files;
            let Some(sq) = g.square(nf.rem_euclid(files), nr) else { break };
            if sq == from {
                break;
            }
            let cell = cells[sq.0 as usize];
            if cell == Cell::WALL {
                break;
            }
            if crossed && !visit(sq, cell, atom.mode.moves(), atom.mode.captures()) {
                return;
            }
            if !cell.is_empty() {
                break;
            }
        }
    }
}

/// Appends the moves of the piece on `from` that cross the side edge, each once: a square the
/// piece also reaches without crossing (a queen on an empty rank reaches every square both
/// ways), or by crossing in two directions, is one move.
fn wrapped_moves(v: &Variant, cells: &[Cell], from: Square, kind: PieceType, side: Side, out: &mut Vec<Move>) {
    let (reg, g) = (&v.registry, v.geometry);
    let promotes = reg.def(kind).promotes;
    let push = |out: &mut Vec<Move>, m: Move| {
        if !out.iter().any(|x| x.from == from && *x == m) {
            out.push(m);
        }
    };
    wrapped_walk(reg, g, cells, from, kind, side, |to, cell, moves, captures| {
        let capture = cell.is_piece() && cell.side() != side;
        if (cell.is_empty() && moves) || (capture && captures) {
            let zone = if promotes { v.promotion.zone_at(g, to, side) } else { None };
            match zone {
                None => push(out, Move::normal(from, to, capture)),
                Some(plain_allowed) => {
                    if plain_allowed {
                        push(out, Move::normal(from, to, capture));
                    }
                    for &p in v.promotion.offered(side) {
                        push(out, Move { promotion: Some(p), ..Move::normal(from, to, capture) });
                    }
                }
            }
        }
        true
    });
}

fn layers(a: &Activation, _v: &Variant) -> Vec<MoveLayer> {
    vec![MoveLayer {
        owner: "wrap-board",
        kind: LayerKind::Extra,
        sides: a.scope.sides(),
        types: u64::MAX,
        marked: false,
        betza: None,
        run: Arc::new(|ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>| {
            wrapped_moves(ctx.variant, ctx.cells, slot.square, slot.kind, slot.side, out);
            true
        }),
    }]
}
