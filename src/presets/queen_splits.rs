//! `queen-splits`: a capturing queen splits into a rook and a bishop.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{
    ApplySystems, DamageKind, Effect, EffectKind, Hook, PendingMove, Rules, deal_damage, emit_effect, retract_piece, spawn_piece,
};

/// The preset.
pub const QUEEN_SPLITS: PresetDef = PresetDef {
    id: "queen-splits",
    name: "Splitting queens",
    description: "A queen that captures splits in two: the captured piece is removed, a rook appears on its square and a bishop on the square the queen left (unless a piece is gated there). (With hit points, a victim that survives the hit keeps its square and the queen stays whole.)",
    hooks,
    ..PresetDef::BASE
};

fn hooks(_a: &Activation) -> Vec<Hook> {
    vec![
        // Scoped by the mover; the first consumer owns the capture.
        Hook::new("queen-splits", ApplySystems::BeforeCapture, move |world: &mut World| {
            let p = world.resource::<PendingMove>();
            let (Some(victim), Some(queen), mover, m) = (p.victim, p.piece, p.mover, p.mv()) else { return };
            let reg = &world.resource::<Rules>().0.registry;
            let (Some(queen_type), Some(rook), Some(bishop)) = (reg.by_name("queen"), reg.by_name("rook"), reg.by_name("bishop")) else {
                return;
            };
            if p.piece_type != Some(queen_type) || p.capture_consumed_by.is_some() || m.promotion.is_some() {
                return;
            }
            if !world.resource_mut::<PendingMove>().consume_capture("queen-splits") {
                return;
            }
            if !deal_damage(world, victim.entity, mover.opponent(), 1, DamageKind::Capture, Some(queen)) {
                // The victim survived: it keeps its square, and the queen stays where it was.
                world.resource_mut::<PendingMove>().victim_survived = true;
                return;
            }
            retract_piece(world, victim.entity);
            world.resource_mut::<PendingMove>().victim_died = true;
            retract_piece(world, queen);
            emit_effect(world, Effect::new(EffectKind::Fission, m.to, "queen-splits").side(mover));
            // Both squares are empty now, so spawning cannot fail. A move that gates a piece
            // from the hand onto the square the queen left (Seirawan) keeps that square for
            // the gated piece: no bishop appears.
            let _ = spawn_piece(world, rook, mover, m.to);
            if m.gate.is_none_or(|g| g.square != m.from) {
                let _ = spawn_piece(world, bishop, mover, m.from);
            }
        }),
        Hook::new("queen-splits", ApplySystems::Describe, |mut p: ResMut<PendingMove>| {
            if p.capture_consumed_by == Some("queen-splits") && p.victim_died {
                let side = p.mover;
                p.effects.push(format!("{side} queen split into a rook and a bishop"));
            }
        }),
    ]
}
