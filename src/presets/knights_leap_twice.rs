//! `knights-leap-twice`: a knight may make two knight leaps in one move. The double leaps are a
//! movement layer, so a double leap gives check like any other move.

use std::sync::Arc;

use super::{Activation, PresetDef};
use crate::rules::{GenContext, LayerKind, Move, MoveLayer, PieceSlot, Variant};

/// The preset.
pub const KNIGHTS_LEAP_TWICE: PresetDef = PresetDef {
    id: "knights-leap-twice",
    name: "Double-leap knights",
    description: "A knight may make two knight leaps in one move, as long as it lands on an empty square after the first; the second may capture.",
    layers,
    ..PresetDef::BASE
};

fn layers(a: &Activation, v: &Variant) -> Vec<MoveLayer> {
    let Some(knight) = v.registry.by_name("knight") else { return Vec::new() };
    vec![MoveLayer {
        owner: "knights-leap-twice",
        kind: LayerKind::Extra,
        sides: a.scope.sides(),
        types: 1u64 << knight.0,
        marked: false,
        betza: None,
        run: Arc::new(double_leaps),
    }]
}

const LEAPS: [(i32, i32); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

fn double_leaps(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) -> bool {
    let g = ctx.geometry;
    let (from, side) = (slot.square, slot.side);
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let start = out.len();
    for (dx1, dy1) in LEAPS {
        let Some(mid) = g.square(f + dx1, r + dy1) else { continue };
        if !ctx.cells[mid.index()].is_empty() {
            continue;
        }
        for (dx2, dy2) in LEAPS {
            let Some(to) = g.square(f + dx1 + dx2, r + dy1 + dy2) else { continue };
            if to == from || out[start..].iter().any(|m| m.to == to) {
                continue;
            }
            let c = ctx.cells[to.index()];
            let capture = c.is_piece() && c.side() != side;
            // Squares a single leap reaches are already the knight's own moves.
            let single = LEAPS.iter().any(|&(x, y)| g.square(f + x, r + y) == Some(to));
            // The knight's own moves are listed before: one it already has is not listed twice
            // (New Zealand's knight takes like a rook, so a double leap may end where it takes
            // anyway; found by the soak, seed 1795933606).
            let m = Move::normal(from, to, capture);
            if (c.is_empty() || capture) && !single && !out[..start].contains(&m) {
                out.push(m);
            }
        }
    }
    true
}
