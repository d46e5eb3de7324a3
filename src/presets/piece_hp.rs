//! `piece-hp`: every piece has hit points; a capture deals one point of damage, and only a
//! piece brought to zero is removed (the capturing piece then stays where it was).

use bevy::prelude::*;

use super::{Activation, PresetDef, give_every_piece, give_on_spawn, reset_on_retract, take_from_every_piece};
use crate::rules::{DamageRequest, Hook, IntFact, QuerySystems, Step, UndoLog};

/// Hit points of a piece.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hp(pub i32);

impl IntFact for Hp {
    fn value(&self) -> i32 {
        self.0
    }
    fn with_value(v: i32) -> Hp {
        Hp(v)
    }
}

/// The preset.
pub const PIECE_HP: PresetDef = PresetDef {
    id: "piece-hp",
    name: "Hit points",
    description: "Every piece starts with hit points (2 unless set). A capture deals one point of damage instead of removing the piece; a piece at zero is removed. Kings can take hits too, so check does not restrict moves.",
    hash_facts: Some(super::hash_fact::<Hp>),
    piece_attributes: &["Hp"],
    params: &[super::ParamSpec { name: "hp", min: 1, max: 99, default: 2 }],
    hooks,
    on_activate,
    on_deactivate,
    looks: &[super::FactLook::Pips { fact: "Hp", top: false, colour: [230, 38, 38] }],
    ..PresetDef::BASE
};

/// The hit points every piece starts with while piece-hp is active (`None`: it is not).
pub fn starting_hp(active: &super::ActivePresets) -> Option<i32> {
    active.0.iter().find(|a| a.id == PIECE_HP.id).map(|a| a.param("hp", 2.0) as i32)
}

fn hooks(a: &Activation) -> Vec<Hook> {
    let start = a.param("hp", 2.0) as i32;
    vec![
        Hook::new("piece-hp", Step::Damage, |mut req: ResMut<DamageRequest>, mut hp: Query<&mut Hp>, mut undo: ResMut<UndoLog>| {
            take_hit("piece-hp", &mut req, &mut hp, &mut undo);
        }),
        give_on_spawn::<Hp>("piece-hp", start),
        // With hit points a king in check only takes damage: moves are not filtered.
        Hook::new("piece-hp", QuerySystems::SelfCheckPoll, |mut q: ResMut<crate::rules::MoveQuery>| q.filter_self_check = false),
        reset_on_retract::<Hp>("piece-hp", start),
    ]
}

/// The hit-point absorber: a target with hit points loses the hit's amount (recorded for
/// undo), and `owner` consumes the damage, the target dying at zero. Shared with a modifier
/// profile's extra hit points.
pub fn take_hit(owner: &'static str, req: &mut DamageRequest, hp: &mut Query<&mut Hp>, undo: &mut UndoLog) {
    // (The first consumer wins: a hit an earlier hook took is not counted again.)
    let (Some(target), None) = (req.target, req.consumed_by) else { return };
    let Ok(mut hp) = hp.get_mut(target) else { return };
    undo.record_fact::<Hp>(target, Some(hp.0));
    hp.0 -= req.amount;
    let died = hp.0 <= 0;
    req.consume(owner, died);
}

fn on_activate(world: &mut World, a: &Activation) {
    give_every_piece(world, Hp(a.param("hp", 2.0) as i32));
}

fn on_deactivate(world: &mut World, _a: &Activation) {
    take_from_every_piece::<Hp>(world);
}
