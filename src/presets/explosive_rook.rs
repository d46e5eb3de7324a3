//! `explosive-rook`: a rook that captures explodes.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{
    ApplySystems, Board, DamageKind, Effect, EffectKind, Hook, PendingMove, Rules, deal_damage, emit_effect, retract_piece,
};

/// The preset.
pub const EXPLOSIVE_ROOK: PresetDef = PresetDef {
    id: "explosive-rook",
    name: "Exploding rooks",
    description: "A rook that captures explodes instead of moving: the captured piece and every piece next to it except kings take one point of explosion damage (without hit points that removes them), and the rook is destroyed.",
    hooks,
    ..PresetDef::BASE
};

fn hooks(_a: &Activation) -> Vec<Hook> {
    vec![
        Hook::new("explosive-rook", ApplySystems::BeforeCapture, move |world: &mut World| {
            let p = world.resource::<PendingMove>();
            let (Some(victim), Some(rook), mover) = (p.victim, p.piece, p.mover) else { return };
            let rules = world.resource::<Rules>().0.clone();
            if p.piece_type != rules.registry.by_name("rook") || p.capture_consumed_by.is_some() {
                return;
            }
            world.resource_mut::<PendingMove>().consume_capture("explosive-rook");
            emit_effect(world, Effect::new(EffectKind::Explosion, victim.square, "explosive-rook").side(mover));
            let king = rules.registry.by_name("king");
            let g = rules.geometry;
            let (f, r) = (g.file(victim.square) as i32, g.rank(victim.square) as i32);
            let board = world.resource::<Board>();
            let mut targets: Vec<(Entity, crate::rules::Side)> = Vec::new();
            for dy in -1..=1 {
                for dx in -1..=1 {
                    let Some(sq) = g.square(f + dx, r + dy) else { continue };
                    let c = board.cell(sq);
                    if c.is_piece()
                        && Some(c.kind()) != king
                        && let Some(e) = board.entity(sq).filter(|&e| e != rook)
                    {
                        targets.push((e, c.side()));
                    }
                }
            }
            for (e, side) in targets {
                if deal_damage(world, e, side, 1, DamageKind::Explosion, Some(rook)) {
                    retract_piece(world, e);
                }
            }
            retract_piece(world, rook);
        }),
        Hook::new("explosive-rook", ApplySystems::Describe, |mut p: ResMut<PendingMove>| {
            if p.capture_consumed_by == Some("explosive-rook") {
                let side = p.mover;
                p.effects.push(format!("{side} rook exploded"));
            }
        }),
    ]
}
