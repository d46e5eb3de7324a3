//! `berolina-pawns`: pawns move diagonally forward and capture straight forward. The preset
//! overrides the pawns' moves, so it also owns their promotion (en passant is not used).

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{Board, Hook, Move, MoveQuery, QuerySystems, Rules, Side};

/// The preset.
pub const BEROLINA_PAWNS: PresetDef = PresetDef {
    id: "berolina-pawns",
    name: "Berolina pawns",
    description: "Pawns move one square diagonally forward (two from their starting rank, over an empty square) and capture one square straight ahead. They promote as usual; there is no en passant.",
    hooks,
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    vec![Hook::new("berolina-pawns", QuerySystems::Override, move |mut q: ResMut<MoveQuery>, board: Res<Board>, rules: Res<Rules>| {
        let Some(pawn) = rules.registry.by_name("pawn") else { return };
        if !scope.covers(q.side) {
            return;
        }
        let g = board.geometry;
        let side = q.side;
        let dy = if side == Side::White { 1 } else { -1 };
        let promo = &rules.promotion;
        let pawns: Vec<_> = q.pieces.iter().filter(|s| s.kind == pawn).map(|s| s.square).collect();
        for from in pawns {
            let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
            let mut moves = Vec::new();
            let push = |to, capture: bool, moves: &mut Vec<Move>| {
                if g.relative_rank(to, side) == promo.rank && !promo.choices.is_empty() {
                    moves.extend(promo.choices.iter().map(|&t| Move { promotion: Some(t), ..Move::normal(from, to, capture) }));
                } else {
                    moves.push(Move::normal(from, to, capture));
                }
            };
            for dx in [-1, 1] {
                if let Some(to) = g.square(f + dx, r + dy).filter(|&s| board.cell(s).is_empty()) {
                    push(to, false, &mut moves);
                    if g.relative_rank(from, side) == 1
                        && let Some(far) = g.square(f + 2 * dx, r + 2 * dy).filter(|&s| board.cell(s).is_empty())
                    {
                        push(far, false, &mut moves);
                    }
                }
            }
            if let Some(to) = g.square(f, r + dy) {
                let c = board.cell(to);
                if c.is_piece() && c.side() != side {
                    push(to, true, &mut moves);
                }
            }
            q.override_piece(from, "berolina-pawns", moves);
        }
    })]
}
