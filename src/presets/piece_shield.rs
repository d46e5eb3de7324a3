//! `piece-shield`: every piece carries one shield that absorbs the first hit. Activate it
//! before `piece-hp` so that shields are spent before hit points.

use bevy::prelude::*;

use super::{Activation, PresetDef, give_every_piece, give_on_spawn, reset_on_retract, take_from_every_piece};
use crate::rules::{DamageRequest, Effect, EffectKind, Effects, Hook, IntFact, Location, Step, UndoLog};

/// Shield points of a piece.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct Shield(pub i32);

impl IntFact for Shield {
    fn value(&self) -> i32 {
        self.0
    }
    fn with_value(v: i32) -> Shield {
        Shield(v)
    }
}

/// The preset.
pub const PIECE_SHIELD: PresetDef = PresetDef {
    id: "piece-shield",
    name: "Shields",
    description: "Every piece has a shield that absorbs one hit. A hit on a shielded piece breaks the shield; the next hit is dealt normally.",
    hash_facts: Some(super::hash_fact::<Shield>),
    piece_attributes: &["Shield"],
    params: &[super::ParamSpec { name: "shield", min: 1, max: 99, default: 1 }],
    hooks,
    on_activate,
    on_deactivate,
    looks: &[super::FactLook::Ring { fact: "Shield", colour: [64, 140, 255, 230] }],
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let start = a.param("shield", 1.0) as i32;
    vec![
        Hook::new(
            "piece-shield",
            Step::Damage,
            move |mut req: ResMut<DamageRequest>,
                  mut shields: Query<(&mut Shield, &Location)>,
                  mut undo: ResMut<UndoLog>,
                  mut effects: Effects| {
                // (The first consumer wins: a hit an earlier hook took is not soaked again.)
                let (Some(target), None) = (req.target, req.consumed_by) else { return };
                let Ok((mut shield, loc)) = shields.get_mut(target) else { return };
                if shield.0 <= 0 {
                    return;
                }
                undo.record_fact::<Shield>(target, Some(shield.0));
                shield.0 -= 1;
                if let Some(sq) = loc.square() {
                    effects.emit(Effect::new(EffectKind::ShieldBroken, sq, "piece-shield").side(req.target_side));
                }
                // The shield takes one point; the rest of a bigger hit goes on to the next
                // absorber (hit points) or, with none, kills.
                req.amount -= 1;
                if req.amount <= 0 {
                    req.consume("piece-shield", false);
                }
            },
        ),
        give_on_spawn::<Shield>("piece-shield", start),
        reset_on_retract::<Shield>("piece-shield", start),
    ]
}

fn on_activate(world: &mut World, a: &Activation) {
    give_every_piece(world, Shield(a.param("shield", 1.0) as i32));
}

fn on_deactivate(world: &mut World, _a: &Activation) {
    take_from_every_piece::<Shield>(world);
}
