//! What a piece's move generator sees and the default generator over the compiled tables:
//! shared by the query, the movement layers and the code pieces.

use bevy::prelude::*;

use super::geometry::{Geometry, Side, Square};
use super::movement::{LegPath, RayKind, walk_legs, walk_ray};
use super::moves::{Move, MoveKind};
use super::piece::{Cell, PieceType};
use super::registry::PieceTypeRegistry;
use super::state::GameState;
use super::variant::Variant;

/// Generates the pseudo-legal moves of one piece (step 2.2 of the legal-move query).
pub type GeneratorFn = fn(&GenContext, &PieceSlot, &mut Vec<Move>);

/// One piece of the side to move, as the per-piece steps see it.
#[derive(Copy, Clone, Debug)]
pub struct PieceSlot {
    /// The piece entity.
    pub entity: Entity,
    /// Its square.
    pub square: Square,
    /// Its type.
    pub kind: PieceType,
    /// Its side.
    pub side: Side,
    /// The hook that overrode its moves, if any.
    pub overridden_by: Option<&'static str>,
    /// Its mark on the square index (a modifier profile's per-instance entry; 0: none).
    pub mark: u8,
}

/// What a generator sees.
pub struct GenContext<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The compiled piece types.
    pub registry: &'a PieceTypeRegistry,
    /// Board size.
    pub geometry: Geometry,
    /// Occupancy.
    pub cells: &'a [Cell],
    /// Game-level facts.
    pub state: &'a GameState,
}

/// The default generator: walk each compiled ray (slides to the first blocker, lame leaps,
/// hops, any-square moves).
pub fn generate_from_tables(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    let start = out.len();
    generate_rays(ctx, slot, out);
    let legs = &ctx.registry.def(slot.kind).legs;
    if !legs.is_empty() {
        generate_legs(ctx, slot, legs, start, out);
    }
}

/// The moves along a type's multi-leg paths, each once (several paths may lead to one move,
/// and a path that takes nothing on the way may repeat a ray's move: those from `start` on).
fn generate_legs(ctx: &GenContext, slot: &PieceSlot, legs: &[LegPath], start: usize, out: &mut Vec<Move>) {
    let region = ctx.registry.def(slot.kind).zones.confinement.as_ref().map(|c| &c[slot.side.index()]);
    for path in legs {
        walk_legs(ctx.geometry, path, ctx.cells, slot.side, slot.square, None, |to, taken, capture| {
            // A confined piece ends its move inside its region (its legs may pass outside).
            if region.is_some_and(|r| !r.contains(to)) {
                return;
            }
            let m = match taken {
                // Taking on the square it ends on is an ordinary capture.
                Some(t) if t != to => Move { kind: MoveKind::Locust(t), ..Move::normal(slot.square, to, true) },
                Some(_) => Move::normal(slot.square, to, true),
                None => Move::normal(slot.square, to, capture),
            };
            if !out[start..].contains(&m) {
                out.push(m);
            }
        });
    }
}

/// The moves along the compiled rays.
fn generate_rays(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    let table = &ctx.registry.tables[slot.kind.0 as usize];
    for ray in table.rays(ctx.geometry.len(), slot.side, slot.square) {
        let first = ctx.cells[ray.first.index()];
        let enemy = first.is_piece() && first.side() != slot.side;
        match ray.kind {
            // One-square slides (every leap, pawn step and pawn capture) without the walk.
            RayKind::Slide if ray.len == 1 => {
                let to = ray.first;
                if first.is_empty() {
                    if ray.mode.moves() {
                        let kind = if ray.double_from == 0 { MoveKind::DoubleStep } else { MoveKind::Normal };
                        out.push(Move { from: slot.square, to, kind, capture: false, promotion: None, gate: None, wall: None });
                    }
                } else if enemy && ray.mode.captures() {
                    out.push(Move {
                        from: slot.square,
                        to,
                        kind: MoveKind::Normal,
                        capture: true,
                        promotion: None,
                        gate: None,
                        wall: None,
                    });
                }
                continue;
            }
            // A slide whose first square holds a friend or a wall goes nowhere, nor does a lame
            // leap whose first leg is blocked.
            RayKind::Slide if !first.is_empty() && !enemy => continue,
            RayKind::Lame { path } if path > 0 && !first.is_empty() => continue,
            _ => {}
        }
        walk_ray(table, ray, ctx.cells, slot.side, |to, capture, double| {
            let kind = if double { MoveKind::DoubleStep } else { MoveKind::Normal };
            out.push(Move { from: slot.square, to, kind, capture, promotion: None, gate: None, wall: None });
        });
    }
}
