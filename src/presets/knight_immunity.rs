//! `knight-immunity`: knights cannot be captured.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{Board, Hook, MoveKind, MoveQuery, QuerySystems, Rules};

/// The preset.
pub const KNIGHT_IMMUNITY: PresetDef = PresetDef {
    id: "knight-immunity",
    name: "Immune knights",
    description: "Knights cannot be captured (within the preset's scope: only that side's knights are immune).",
    hooks,
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    // The scope says whose knights are immune, not whose moves are filtered: the hook runs for
    // both sides' moves and judges the victim's side itself.
    vec![
        Hook::new("knight-immunity", QuerySystems::PieceFilter, move |mut q: ResMut<MoveQuery>, board: Res<Board>, rules: Res<Rules>| {
            let Some(knight) = rules.registry.by_name("knight") else { return };
            q.moves.retain(|m| {
                if !m.capture || matches!(m.kind, MoveKind::EnPassant(_)) {
                    return true;
                }
                // (Where the victim stands: a capture on the way takes elsewhere than it ends.)
                let c = board.cell(m.victim_square());
                !(c.is_piece() && c.kind() == knight && scope.covers(c.side()))
            });
        })
        .scoped([true, true]),
    ]
}
