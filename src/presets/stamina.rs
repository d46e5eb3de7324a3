//! `stamina`: moving tires a piece; pieces recover a little every turn.

use bevy::prelude::*;

use super::{Activation, PresetDef, give_every_piece, give_on_spawn, reset_on_retract, take_from_every_piece};
use crate::rules::{
    ApplySystems, Board, Effect, EffectKind, Effects, GameState, Hook, IntFact, Location, MoveQuery, Owner, PendingMove, QuerySystems,
    Rules, UndoLog,
};

/// How rested a piece is.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stamina(pub i32);

impl IntFact for Stamina {
    fn value(&self) -> i32 {
        self.0
    }
    fn with_value(v: i32) -> Stamina {
        Stamina(v)
    }
}

/// Stamina a move costs.
pub const MOVE_COST: i32 = 2;

/// The preset.
pub const STAMINA: PresetDef = PresetDef {
    id: "stamina",
    name: "Stamina",
    description: "Every piece has 3 stamina (or the `max` parameter). A move costs 2; a piece with less is too tired and the move is refused. At the start of your turn each of your pieces regains 1, so a piece can move two turns running and then needs a turn's rest. Kings never tire.",
    hash_facts: Some(super::hash_fact::<Stamina>),
    piece_attributes: &["Stamina"],
    params: &[super::ParamSpec { name: "max", min: 1, max: 99, default: 3 }],
    hooks,
    on_activate,
    on_deactivate,
    looks: &[super::FactLook::Pips { fact: "Stamina", top: true, colour: [242, 204, 51] }],
    ..PresetDef::BASE
};

fn hooks(a: &Activation) -> Vec<Hook> {
    let max = a.param("max", 3.0) as i32;
    let scope = a.scope;
    vec![
        // A tired piece of a side in scope has no legal move (kings never tire; drops bring a
        // rested piece). It still threatens what it attacks, as a pinned piece does: the
        // filter runs on the whole list, after the self-check filter.
        Hook::new(
            "stamina",
            QuerySystems::LegalFilter,
            move |mut q: ResMut<MoveQuery>, board: Res<Board>, rules: Res<Rules>, pieces: Query<&Stamina>| {
                if !scope.covers(q.side) {
                    return;
                }
                let mut held = Vec::new();
                q.moves.retain(|m| {
                    if m.dropped().is_some() || rules.registry.def(board.cell(m.from).kind()).royal {
                        return true;
                    }
                    let left = board.entity(m.from).and_then(|e| pieces.get(e).ok()).map_or(MOVE_COST, |s| s.0);
                    if left < MOVE_COST && !held.iter().any(|&(sq, _)| sq == m.from) {
                        held.push((m.from, format!("too tired (stamina {left} of {MOVE_COST} needed)")));
                    }
                    left >= MOVE_COST
                });
                q.held.extend(held);
            },
        ),
        // Scoped by the mover: a tired piece's move is cancelled with a reason (a move made
        // without asking the legal moves first).
        Hook::new(
            "stamina",
            ApplySystems::BeforeMove,
            move |mut p: ResMut<PendingMove>,
                  rules: Res<Rules>,
                  mut pieces: Query<(&mut Stamina, &Location)>,
                  mut undo: ResMut<UndoLog>,
                  mut effects: Effects| {
                let (Some(piece), Some(kind)) = (p.piece, p.piece_type) else { return };
                // As in the filter: kings never tire, and a drop brings a piece in rested
                // (under a maximum below a move's cost it was cancelled, though listed legal).
                if rules.registry.def(kind).royal || p.mv.is_some_and(|m| m.dropped().is_some()) {
                    return;
                }
                let Ok((mut stamina, loc)) = pieces.get_mut(piece) else { return };
                if stamina.0 < MOVE_COST {
                    let left = stamina.0;
                    if let Some(sq) = loc.square() {
                        effects.emit(Effect::new(EffectKind::Tired, sq, "stamina").amount(left).side(p.mover));
                    }
                    p.cancel("stamina", format!("that piece is too tired to move (stamina {left} of {MOVE_COST} needed)"));
                    return;
                }
                undo.record_fact::<Stamina>(piece, Some(stamina.0));
                stamina.0 -= MOVE_COST;
            },
        ),
        // Scoped by the new side to move: its pieces regain one point.
        Hook::new(
            "stamina",
            ApplySystems::TurnStart,
            move |state: Res<GameState>, mut pieces: Query<(Entity, &Owner, &Location, &mut Stamina)>, mut undo: ResMut<UndoLog>| {
                let side = state.turn;
                for (e, owner, loc, mut stamina) in &mut pieces {
                    if owner.0 == side && loc.square().is_some() && stamina.0 < max {
                        undo.record_fact::<Stamina>(e, Some(stamina.0));
                        stamina.0 += 1;
                    }
                }
            },
        ),
        // New pieces arrive rested.
        give_on_spawn::<Stamina>("stamina", max),
        reset_on_retract::<Stamina>("stamina", max),
    ]
}

fn on_activate(world: &mut World, a: &Activation) {
    give_every_piece(world, Stamina(a.param("max", 3.0) as i32));
}

fn on_deactivate(world: &mut World, _a: &Activation) {
    take_from_every_piece::<Stamina>(world);
}
