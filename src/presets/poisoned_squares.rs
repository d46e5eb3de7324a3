//! `poisoned-squares`: the centre of the board is poisoned.

use bevy::prelude::*;

use super::{Activation, PresetDef, PresetState, change_preset_state};
use crate::rules::{
    ApplySystems, Board, DamageKind, Effect, EffectKind, Geometry, Hook, Location, PendingMove, Rules, Square, deal_damage, emit_effect,
    retract_piece,
};

/// The preset.
pub const POISONED_SQUARES: PresetDef = PresetDef {
    id: "poisoned-squares",
    name: "Poisoned squares",
    description: "The central squares (d4, e4, d5 and e5 on a standard board) are poisoned. A piece other than a king that ends its move on one takes one point of poison damage: without hit points it dies there. The poisoned squares are kept in the preset's state.",
    hooks,
    on_activate,
    looks: &[super::FactLook::StateSquares { colour: [77, 217, 51, 89] }],
    ..PresetDef::BASE
};

/// The centre squares of a board: the middle two (or one) files by the middle two (or one) ranks.
pub fn centre_squares(g: Geometry) -> Vec<Square> {
    let middle = |n: u8| if n.is_multiple_of(2) { vec![n / 2 - 1, n / 2] } else { vec![n / 2] };
    let mut out = Vec::new();
    for r in middle(g.ranks) {
        for f in middle(g.files) {
            out.push(Square(r * g.files + f));
        }
    }
    out
}

/// Whether `square` is poisoned now.
pub fn is_poisoned(state: &PresetState, square: Square) -> bool {
    state.squares("poisoned-squares").contains(square)
}

fn on_activate(world: &mut World, _a: &Activation) {
    let g = world.resource::<Rules>().0.geometry;
    change_preset_state(world, "poisoned-squares", |bag| centre_squares(g).into_iter().for_each(|sq| bag.squares.insert(sq)));
}

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    // After-move hooks are unscoped by the engine: the preset checks the mover itself.
    vec![Hook::new("poisoned-squares", ApplySystems::AfterMove, move |world: &mut World| {
        let p = world.resource::<PendingMove>();
        let (Some(piece), mover) = (p.piece, p.mover) else { return };
        if !scope.covers(mover) {
            return;
        }
        let Some(Location::Board(sq)) = world.get::<Location>(piece).copied() else { return };
        if !is_poisoned(world.resource::<PresetState>(), sq) {
            return;
        }
        let cell = world.resource::<Board>().cell(sq);
        if world.resource::<Rules>().0.registry.def(cell.kind()).royal {
            return;
        }
        emit_effect(world, Effect::new(EffectKind::Poison, sq, "poisoned-squares").amount(1).side(mover));
        let died = deal_damage(world, piece, mover, 1, DamageKind::Poison, None);
        if died {
            retract_piece(world, piece);
        }
        let name = world.resource::<Rules>().0.geometry.name(sq);
        let note = if died { format!("poison kills the piece on {name}") } else { format!("poison hurts the piece on {name}") };
        world.resource_mut::<PendingMove>().effects.push(note);
    })]
}
