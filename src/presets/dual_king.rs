//! `dual-king` and `weak-dual-king`: each side's queen becomes a second king.

use std::sync::Arc;

use bevy::prelude::*;

use super::{Activation, PresetDef, hash_fact, take_from_every_piece};
use crate::rules::{
    ApplySystems, Board, BoardWriter, Cell, DecidedOutcome, Hook, IntFact, Location, MoveQuery, Outcome, PendingMove, PieceType,
    QuerySystems, Reason, RoyalRule, Rules, Side, Square, UndoLog, Variant,
};

/// Two kings, both royal.
pub const DUAL_KING: PresetDef = PresetDef {
    id: "dual-king",
    name: "Two kings",
    description: "Each side's queen is replaced by a second king. Both kings are royal: neither may be left attacked, and a side that cannot protect both is checkmated. Switching the preset off turns the second kings back into queens.",
    incompatible_with: &["weak-dual-king", "coregal", "knightmate-rules", "capture-all", "last-piece-standing"],
    hooks: dual_hooks,
    royalty: dual_royalty,
    piece_attributes: &[crate::rules::CROWNED_FACT],
    hash_facts: Some(hash_fact::<Crowned>),
    on_activate,
    on_deactivate,
    ..PresetDef::BASE
};

/// Two kings; only the last one is royal.
pub const WEAK_DUAL_KING: PresetDef = PresetDef {
    id: "weak-dual-king",
    name: "Two kings (weak)",
    description: "Each side's queen is replaced by a second king. While a side has two kings neither is royal: a king may be left attacked and captured. The last king left is royal as usual, and checkmating it wins.",
    incompatible_with: &["dual-king", "coregal", "knightmate-rules", "capture-all", "last-piece-standing"],
    hooks: weak_hooks,
    royalty: weak_royalty,
    piece_attributes: &[crate::rules::CROWNED_FACT],
    hash_facts: Some(hash_fact::<Crowned>),
    on_activate,
    on_deactivate,
    ..PresetDef::BASE
};

fn kings(v: &Variant, cells: &[Cell], side: Side) -> Vec<Square> {
    let Some(king) = v.registry.by_name("king") else { return Vec::new() };
    cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| (c.is_piece() && c.side() == side && c.kind() == king).then_some(Square(i as u8)))
        .collect()
}

/// Whether the variant's king is royal at all. Where it is not (Atomar, Antichess, the
/// extinction variants: no check), the presets add no royalty: the royal set stays the
/// variant's own, as it would be without them.
fn royal_king(v: &Variant) -> bool {
    v.registry.by_name("king").is_some_and(|k| v.registry.royal_mask & (1u64 << k.0) != 0)
}

/// The variant's own royal set: every piece of a royal type.
fn default_royals(v: &Variant, cells: &[Cell], side: Side, out: &mut Vec<Square>) {
    let mask = v.registry.royal_mask;
    out.extend(
        cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_piece() && c.side() == side && mask & (1u64 << c.kind().0) != 0)
            .map(|(i, _)| Square(i as u8)),
    );
}

fn dual_royalty(_a: &Activation) -> Vec<RoyalRule> {
    vec![RoyalRule {
        owner: "dual-king",
        run: Arc::new(|v: &Variant, cells: &[Cell], side: Side, out: &mut Vec<Square>| {
            if royal_king(v) {
                out.extend(kings(v, cells, side));
            } else {
                default_royals(v, cells, side, out);
            }
        }),
    }]
}

fn weak_royalty(_a: &Activation) -> Vec<RoyalRule> {
    // Two or more kings: none is royal (an empty contribution); one: it is.
    vec![RoyalRule {
        owner: "weak-dual-king",
        run: Arc::new(|v: &Variant, cells: &[Cell], side: Side, out: &mut Vec<Square>| {
            if !royal_king(v) {
                return default_royals(v, cells, side, out);
            }
            let kings = kings(v, cells, side);
            if kings.len() == 1 {
                out.extend(kings);
            }
        }),
    }]
}

fn dual_hooks(_a: &Activation) -> Vec<Hook> {
    vec![crowned_kings_do_not_castle()]
}

/// The castling rights are the first king's: a crowned king standing on the back rank does not
/// castle with them.
fn crowned_kings_do_not_castle() -> Hook {
    Hook::new("dual-king", QuerySystems::PieceFilter, |mut q: ResMut<MoveQuery>, board: Res<Board>, crowned: Query<&Crowned>| {
        q.moves.retain(|m| !m.is_castle() || board.entity(m.from).is_none_or(|e| crowned.get(e).is_err()));
    })
    .scoped([true, true])
}

fn weak_hooks(_a: &Activation) -> Vec<Hook> {
    // A side whose kings are all gone (both taken in one blow) has lost.
    vec![
        crowned_kings_do_not_castle(),
        Hook::new(
            "weak-dual-king",
            ApplySystems::GameResult,
            |p: Res<PendingMove>, board: Res<Board>, rules: Res<Rules>, mut d: ResMut<DecidedOutcome>| {
                let Some(king) = rules.registry.by_name("king") else { return };
                let victim = p.mover.opponent();
                if d.0.is_none() && board.find(victim, 1u64 << king.0).next().is_none() {
                    d.0 = Some(Outcome::win(p.mover, Reason::Rule("both kings captured".into())));
                }
            },
        ),
    ]
}

/// Marks a king that was a queen before the preset crowned it (its value is always 1), so that
/// switching the preset off turns exactly those back.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct Crowned(pub i32);

impl IntFact for Crowned {
    fn value(&self) -> i32 {
        self.0
    }
    fn with_value(v: i32) -> Crowned {
        Crowned(v)
    }
}

fn on_activate(world: &mut World, _a: &Activation) {
    let reg = &world.resource::<Rules>().0.registry;
    let (Some(queen), Some(king)) = (reg.by_name("queen"), reg.by_name("king")) else { return };
    let queens: Vec<Entity> = world
        .query::<(Entity, &PieceType, &Location)>()
        .iter(world)
        .filter_map(|(e, k, l)| (*k == queen && l.square().is_some()).then_some(e))
        .collect();
    for e in queens {
        world.run_system_cached_with(|In((e, king)): In<(Entity, PieceType)>, mut w: BoardWriter| w.retype(e, king), (e, king)).ok();
        world.resource_mut::<UndoLog>().record_fact::<Crowned>(e, None);
        world.entity_mut(e).insert(Crowned(1));
    }
}

/// Turns a crowned king back into the queen it was (a FEN that does not name it crowned).
pub(super) fn uncrown(world: &mut World, e: Entity) {
    let Some(queen) = world.resource::<Rules>().0.registry.by_name("queen") else { return };
    world.run_system_cached_with(|In((e, queen)): In<(Entity, PieceType)>, mut w: BoardWriter| w.retype(e, queen), (e, queen)).ok();
    world.entity_mut(e).remove::<Crowned>();
}

fn on_deactivate(world: &mut World, _a: &Activation) {
    let reg = &world.resource::<Rules>().0.registry;
    let (Some(queen), Some(king)) = (reg.by_name("queen"), reg.by_name("king")) else { return };
    let crowned: Vec<Entity> =
        world.query::<(Entity, &PieceType, &Crowned)>().iter(world).filter_map(|(e, k, _)| (*k == king).then_some(e)).collect();
    for e in crowned {
        world.run_system_cached_with(|In((e, queen)): In<(Entity, PieceType)>, mut w: BoardWriter| w.retype(e, queen), (e, queen)).ok();
    }
    take_from_every_piece::<Crowned>(world);
}
