//! `berolina-pawns`: pawns move diagonally forward and capture straight forward. The preset
//! overrides the pawns' movement (a layer, so check detection sees it too: a Berolina pawn
//! gives check straight ahead, never diagonally), so it also owns their promotion (en passant
//! is not used).

use std::sync::Arc;

use super::{Activation, PresetDef};
use crate::rules::{GenContext, LayerKind, Move, MoveLayer, PieceSlot, Side, Variant};

/// The preset.
pub const BEROLINA_PAWNS: PresetDef = PresetDef {
    id: "berolina-pawns",
    name: "Berolina pawns",
    description: "Pawns move one square diagonally forward (two from their starting rank, over an empty square) and capture one square straight ahead. They promote as usual; there is no en passant.",
    layers,
    ..PresetDef::BASE
};

fn layers(a: &Activation, v: &Variant) -> Vec<MoveLayer> {
    let Some(pawn) = v.registry.by_name("pawn") else { return Vec::new() };
    vec![MoveLayer {
        owner: "berolina-pawns",
        kind: LayerKind::Override,
        sides: a.scope.sides(),
        types: 1u64 << pawn.0,
        marked: false,
        betza: Some("mfFcfWimfnA"),
        run: Arc::new(berolina_moves),
    }]
}

fn berolina_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) -> bool {
    let g = ctx.geometry;
    let (from, side) = (slot.square, slot.side);
    let dy = if side == Side::White { 1 } else { -1 };
    let promo = &ctx.variant.promotion;
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let empty = |s: crate::rules::Square| ctx.cells[s.index()].is_empty();
    // A pawn arriving in the promotion zone (a rank, or the variant's own promotion squares on an
    // irregular board) promotes; where the zone allows it, the plain move stays too.
    let mut push = |to, capture: bool| {
        let zone = if promo.offered(side).is_empty() { None } else { promo.zone_at(g, to, side) };
        if zone.is_none_or(|plain| plain) {
            out.push(Move::normal(from, to, capture));
        }
        if zone.is_some() {
            out.extend(promo.offered(side).iter().map(|&t| Move { promotion: Some(t), ..Move::normal(from, to, capture) }));
        }
    };
    for dx in [-1, 1] {
        if let Some(to) = g.square(f + dx, r + dy).filter(|&s| empty(s)) {
            push(to, false);
            if g.relative_rank(from, side) == 1
                && let Some(far) = g.square(f + 2 * dx, r + 2 * dy).filter(|&s| empty(s))
            {
                push(far, false);
            }
        }
    }
    if let Some(to) = g.square(f, r + dy) {
        let c = ctx.cells[to.index()];
        if c.is_piece() && c.side() != side {
            push(to, true);
        }
    }
    true
}
