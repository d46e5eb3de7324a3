//! `king-heals`: with hit points, a wounded king recovers one point at the start of each of
//! its side's turns.

use bevy::prelude::*;

use super::{Activation, ActivePresets, Hp, PresetDef};
use crate::rules::{ApplySystems, Effect, EffectKind, Effects, GameState, Hook, Location, Owner, PendingMove, PieceType, Rules, UndoLog};

/// The preset.
pub const KING_HEALS: PresetDef = PresetDef {
    id: "king-heals",
    name: "Healing kings",
    description: "Needs hit points. At the start of each of your turns your wounded king regains one hit point, up to the hit points pieces started with.",
    requires: &["piece-hp"],
    hooks,
    ..PresetDef::BASE
};

fn hooks(_a: &Activation) -> Vec<Hook> {
    vec![Hook::new(
        "king-heals",
        ApplySystems::TurnStart,
        move |state: Res<GameState>,
              rules: Res<Rules>,
              active: Res<ActivePresets>,
              mut pending: ResMut<PendingMove>,
              mut kings: Query<(Entity, &PieceType, &Owner, &Location, &mut Hp)>,
              mut undo: ResMut<UndoLog>,
              mut effects: Effects| {
            let side = state.turn;
            let max = super::starting_hp(&active).unwrap_or(2);
            for (e, kind, owner, loc, mut hp) in &mut kings {
                let Some(sq) = loc.square() else { continue };
                if owner.0 != side || !rules.registry.def(*kind).royal || hp.0 >= max {
                    continue;
                }
                undo.record_fact::<Hp>(e, Some(hp.0));
                hp.0 += 1;
                effects.emit(Effect::new(EffectKind::Heal, sq, "king-heals").amount(1).side(side));
                pending.effects.push(format!("{side} king heals to {} HP", hp.0));
            }
        },
    )]
}
