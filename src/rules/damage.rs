//! The one damage path: every source of damage (a capture, an explosion, poison) asks
//! [`deal_damage`], which runs the damage pipeline. Damage hooks run in activation order and
//! the first to consume the damage decides whether the target died; with none, it dies.
//! What death means (off the board, into a hand) is up to the caller.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use super::effects::{Effect, EffectKind, emit_effect};
use super::geometry::Side;
use super::piece::Location;

/// The damage pipeline, run once per damage event by [`deal_damage`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DamagePipeline;

/// The single step of the damage pipeline: on-damage hooks, scoped by the target's side,
/// in activation order; the first to [`DamageRequest::consume`] wins.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DamageSystems {
    /// on-damage.
    OnDamage,
}

/// What kind of damage, for hooks and annotations.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum DamageKind {
    /// A capture.
    #[default]
    Capture,
    /// An explosion.
    Explosion,
    /// Poison.
    Poison,
    /// Anything else a preset names.
    Other(String),
}

/// The damage being dealt, visible to on-damage hooks.
#[derive(Resource, Clone, Debug, Default)]
pub struct DamageRequest {
    /// The piece hit.
    pub target: Option<Entity>,
    /// Its side (hooks are scoped by it).
    pub target_side: Side,
    /// How much.
    pub amount: i32,
    /// What kind.
    pub kind: DamageKind,
    /// Who dealt it, if a piece did.
    pub attacker: Option<Entity>,
    /// The hook that consumed it.
    pub consumed_by: Option<&'static str>,
    /// Whether the target died (set by the consumer).
    pub died: bool,
}

impl DamageRequest {
    /// `preset` takes this damage and says whether the target died; returns false if an
    /// earlier hook already consumed it (first wins).
    pub fn consume(&mut self, preset: &'static str, died: bool) -> bool {
        if self.consumed_by.is_some() {
            return false;
        }
        self.consumed_by = Some(preset);
        self.died = died;
        true
    }
}

/// Functions that change a hit before the damage hooks see it (a modifier profile's damage
/// resistance). One that brings the amount to 0 leaves the target unharmed.
#[derive(Resource, Clone, Default)]
pub struct DamageAdjusters(pub Vec<fn(&mut World, &mut DamageRequest)>);

/// Deals `amount` of `kind` damage to `target`; returns whether it died. Without a damage
/// pipeline (no damage hooks) or with no hook consuming it, the target dies.
pub fn deal_damage(world: &mut World, target: Entity, target_side: Side, amount: i32, kind: DamageKind, attacker: Option<Entity>) -> bool {
    let mut request = DamageRequest { target: Some(target), target_side, amount, kind, attacker, consumed_by: None, died: false };
    if let Some(adjusters) = world.get_resource::<DamageAdjusters>().filter(|a| !a.0.is_empty()).cloned() {
        for adjust in adjusters.0 {
            adjust(world, &mut request);
        }
        if request.amount <= 0 {
            return false;
        }
    }
    world.insert_resource(request);
    let counted = world.try_run_schedule(DamagePipeline).is_ok() && world.resource::<DamageRequest>().consumed_by.is_some();
    let died = !counted || world.resource::<DamageRequest>().died;
    if let Some(square) = world.get::<Location>(target).and_then(|l| l.square()) {
        let shown = if died { EffectKind::Death } else { EffectKind::Damage };
        // The amount is shown only where a hook counted it (hit points); a plain kill has none.
        emit_effect(world, Effect::new(shown, square, "rules").amount(if counted { amount } else { 0 }).side(target_side));
    }
    died
}
