//! `knights-leap-twice`: a knight may make two knight leaps in one move.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{Board, Hook, Move, MoveQuery, QuerySystems, Rules};

/// The preset.
pub const KNIGHTS_LEAP_TWICE: PresetDef = PresetDef {
    id: "knights-leap-twice",
    name: "Double-leap knights",
    description: "A knight may make two knight leaps in one move, as long as it lands on an empty square after the first; the second may capture.",
    hooks,
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    vec![Hook::new("knights-leap-twice", QuerySystems::Extra, move |mut q: ResMut<MoveQuery>, board: Res<Board>, rules: Res<Rules>| {
        let Some(knight) = rules.registry.by_name("knight") else { return };
        if !scope.covers(q.side) {
            return;
        }
        let g = board.geometry;
        let side = q.side;
        let leaps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        let knights: Vec<_> = q.pieces.iter().filter(|s| s.kind == knight).map(|s| s.square).collect();
        for from in knights {
            let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
            let mut extra: Vec<Move> = Vec::new();
            for (dx1, dy1) in leaps {
                let Some(mid) = g.square(f + dx1, r + dy1) else { continue };
                if !board.cell(mid).is_empty() {
                    continue;
                }
                for (dx2, dy2) in leaps {
                    let Some(to) = g.square(f + dx1 + dx2, r + dy1 + dy2) else { continue };
                    if to == from || extra.iter().any(|m| m.to == to) {
                        continue;
                    }
                    let c = board.cell(to);
                    let capture = c.is_piece() && c.side() != side;
                    // Squares a single leap reaches are already the knight's own moves.
                    let single = leaps.iter().any(|&(x, y)| g.square(f + x, r + y) == Some(to));
                    if (c.is_empty() || capture) && !single {
                        extra.push(Move::normal(from, to, capture));
                    }
                }
            }
            q.add_extra_moves(from, extra);
        }
    })]
}
