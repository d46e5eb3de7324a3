//! `berserker`: a piece that captures may go on capturing.

use bevy::prelude::*;

use super::{Activation, PresetDef, PresetState, set_preset_piece};
use crate::rules::{ApplySystems, Board, Hook, MoveQuery, PendingMove, Pipeline, QuerySystems, Trial, run_pipeline};

/// The preset's state key: the piece in its berserk half-move.
const RAGING: &str = "raging-on";

/// The preset.
pub const BERSERKER: PresetDef = PresetDef {
    id: "berserker",
    name: "Berserkers",
    description: "A piece that captures goes berserk: if it can capture again from where it landed, its side moves again at once, and that extra move must be a capture by the same piece. One extra capture per turn.",
    hooks,
    state_pieces: &[RAGING],
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    vec![
        // The berserk half-move: only captures by the raging piece.
        Hook::new("berserker", QuerySystems::LegalFilter, |mut q: ResMut<MoveQuery>, state: Res<PresetState>| {
            if let Some(sq) = state.piece("berserker", RAGING) {
                q.moves.retain(|m| m.capture && m.from == sq);
            }
        }),
        // Should the turn pass? Not if the capturer can capture again (first veto wins).
        Hook::new("berserker", ApplySystems::AdvanceTurn, move |world: &mut World| {
            // A trial application asks about the position, not whose turn follows.
            if world.resource::<Trial>().0 {
                return;
            }
            let p = world.resource::<PendingMove>();
            let (piece, mover, died, to) = (p.piece, p.mover, p.victim_died, p.mv().to);
            let raging = world.resource::<PresetState>().piece("berserker", RAGING).is_some();
            if raging {
                // The extra capture was made: the rage is spent.
                set_preset_piece(world, "berserker", RAGING, None);
                return;
            }
            if !scope.covers(mover) || !died || piece.is_none() || world.resource::<Board>().entity(to) != piece {
                return;
            }
            set_preset_piece(world, "berserker", RAGING, Some(to));
            run_pipeline(world, Pipeline::Query);
            if world.resource::<MoveQuery>().moves.is_empty() {
                set_preset_piece(world, "berserker", RAGING, None);
            } else {
                world.resource_mut::<PendingMove>().veto_turn_advance("berserker");
            }
        }),
        Hook::new("berserker", ApplySystems::Describe, |mut p: ResMut<PendingMove>| {
            if p.advance_vetoed_by == Some("berserker") {
                p.effects.push("berserk: the capturer strikes again".into());
            }
        }),
    ]
}
