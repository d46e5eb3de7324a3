//! `double-move` and `monster-rules`: vetoing the turn flip so a side moves more than once.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{ApplySystems, GameState, Hook, PendingMove, Side};

/// Both sides play two half-moves per turn.
pub const DOUBLE_MOVE: PresetDef = PresetDef {
    id: "double-move",
    name: "Double move",
    description: "Each player makes two moves in a row before the turn passes (within the preset's scope). Check must be answered by the first of the two.",
    incompatible_with: &["monster-rules"],
    hooks: double_move_hooks,
    ..PresetDef::BASE
};

/// White plays two half-moves per turn, black one.
pub const MONSTER_RULES: PresetDef = PresetDef {
    id: "monster-rules",
    name: "Monster rules",
    description: "White makes two moves in a row every turn; black makes one.",
    incompatible_with: &["double-move"],
    hooks: monster_hooks,
    ..PresetDef::BASE
};

fn veto_until(owner: &'static str, half_moves: u8, applies: impl Fn(Side) -> bool + Clone + Send + Sync + 'static) -> Hook {
    Hook::new(owner, ApplySystems::AdvanceTurn, move |mut p: ResMut<PendingMove>, s: Res<GameState>| {
        if applies(p.mover) && s.half_moves_this_turn < half_moves {
            p.veto_turn_advance(owner);
        }
    })
}

fn double_move_hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    vec![veto_until("double-move", 2, move |side| scope.covers(side))]
}

fn monster_hooks(_a: &Activation) -> Vec<Hook> {
    vec![veto_until("monster-rules", 2, |side| side == Side::White)]
}
