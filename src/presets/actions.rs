//! `actions`: runs a variant's own actions ([`crate::rules::Action`], written in its file's
//! `actions`). One hook per action, at the step of the move-application sequence its event
//! belongs to (`Capture` → before-capture, `Moved` → after-move, `Result` → game-result), in
//! the file's order, at this preset's place in the active set: the loader asks for it after the
//! presets a file lists, unless the file lists it itself (then it runs where it is listed). The
//! hooks follow the preset rules: an action that takes a capture over does not run once the
//! capture is taken (first taker wins), and takes it in its own name; before-capture is scoped
//! by the engine (the mover's side), the other steps by the action itself. It keeps no state of
//! its own: what its effects change (pieces removed, damage, the result) is undone with the
//! move, as any preset's is. It is not one of the presets a player switches on.

use std::sync::Arc;

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{
    Action, ActionEffect, ApplySystems, Board, Condition, DecidedOutcome, Effect, Event, Hook, Location, Outcome, PendingMove, Reason,
    Rules, Side, Square, Variant, Who, deal_damage, decide, emit_effect, retract_piece,
};

/// The preset.
pub const ACTIONS: PresetDef = PresetDef {
    id: "actions",
    name: "The variant's own actions",
    description: "Runs the actions the variant's file writes: when an event happens, if its conditions hold, then its effects.",
    variant_hooks,
    ..PresetDef::BASE
};

/// Asks `variant` for this preset when it has actions and does not ask already (after the
/// presets it lists): the loader does, and so does a save, whose own list of presets replaces
/// the variant's.
pub fn ask_for_actions(variant: &mut Variant) {
    if !variant.actions.is_empty() && !variant.presets.iter().any(|p| p.id == ACTIONS.id) {
        variant.presets.push(crate::rules::PresetRequest { id: ACTIONS.id.into(), sides: [true, true], ..Default::default() });
    }
}

fn variant_hooks(a: &Activation, v: &Variant) -> Vec<Hook> {
    let scope = a.scope.sides();
    v.actions
        .iter()
        .map(|action| {
            let sides = [action.sides[0] && scope[0], action.sides[1] && scope[1]];
            let action = Arc::new(action.clone());
            let step = match action.when {
                Event::Capture => ApplySystems::BeforeCapture,
                Event::Moved => ApplySystems::AfterMove,
                Event::Result => ApplySystems::GameResult,
            };
            Hook::new(action.name, step, move |world: &mut World| run(world, &action, sides)).scoped(sides)
        })
        .collect()
}

/// A piece the action speaks of, as the move stands: its entity (when it is one), side, type
/// and square. The mover is where it stands (before a capture, its square of departure); one
/// no longer on the board is none: conditions on it fail and effects skip it.
fn piece(world: &World, who: Who) -> Option<(Option<Entity>, Side, crate::rules::PieceType, Square)> {
    let p = world.resource::<PendingMove>();
    match who {
        Who::Mover => {
            let entity = p.piece?;
            let Some(Location::Board(square)) = world.get::<Location>(entity).copied() else { return None };
            Some((Some(entity), p.mover, p.piece_type?, square))
        }
        Who::Victim => p.victim.map(|v| (Some(v.entity), p.mover.opponent(), v.kind, v.square)),
    }
}

fn holds(world: &World, c: &Condition) -> bool {
    match c {
        Condition::Captures => world.resource::<PendingMove>().victim.is_some(),
        Condition::Is(who, kind) => piece(world, *who).is_some_and(|(_, _, k, _)| k == *kind),
        Condition::Royal(who) => piece(world, *who).is_some_and(|(_, _, k, _)| world.resource::<Rules>().0.registry.def(k).royal),
        Condition::On(who, sets) => piece(world, *who).is_some_and(|(_, side, _, sq)| sets[side.index()].contains(sq)),
        Condition::Not(inner) => !holds(world, inner),
    }
}

fn run(world: &mut World, action: &Action, sides: [bool; 2]) {
    let (mover, consumed, captures) = {
        let p = world.resource::<PendingMove>();
        (p.mover, p.capture_consumed_by.is_some(), p.victim.is_some())
    };
    // (Before-capture is scoped by the engine; the other steps are the action's to judge.) The
    // capture event is a capture's: a move that takes nothing has none.
    if !sides[mover.index()] || (action.takes_capture() && consumed) || (action.when == Event::Capture && !captures) {
        return;
    }
    if !action.conditions.iter().all(|c| holds(world, c)) {
        return;
    }
    for effect in &action.effects {
        do_effect(world, action.name, effect);
    }
}

fn do_effect(world: &mut World, owner: &'static str, effect: &ActionEffect) {
    let mover = world.resource::<PendingMove>().mover;
    match effect {
        ActionEffect::TakeCapture => {
            world.resource_mut::<PendingMove>().consume_capture(owner);
        }
        ActionEffect::Show(kind, who) => {
            if let Some((_, _, _, sq)) = piece(world, *who) {
                let effect = Effect::new(kind.clone(), sq, owner).side(mover);
                let effect = if *kind == crate::rules::EffectKind::Poison { effect.amount(1) } else { effect };
                emit_effect(world, effect);
            }
        }
        ActionEffect::Damage { at, around, amount, kind, spare } => {
            let Some((entity, side, _, centre)) = piece(world, *at) else { return };
            let moving = world.resource::<PendingMove>().piece;
            // The targets first, then the damage (a piece that dies leaves the board).
            let targets: Vec<(Entity, Side)> = if *around == 0 {
                // (A captured piece, once the move is made, is off the board: nothing to hit.)
                entity.filter(|&e| matches!(world.get::<Location>(e), Some(Location::Board(_)))).map(|e| (e, side)).into_iter().collect()
            } else {
                let g = world.resource::<Rules>().0.geometry;
                let board = world.resource::<Board>();
                let (f, r, n) = (g.file(centre) as i32, g.rank(centre) as i32, i32::from(*around));
                let mut out = Vec::new();
                for dy in -n..=n {
                    for dx in -n..=n {
                        let Some(sq) = g.square(f + dx, r + dy) else { continue };
                        let c = board.cell(sq);
                        if c.is_piece()
                            && !spare.contains(&c.kind())
                            && let Some(e) = board.entity(sq).filter(|&e| Some(e) != moving)
                        {
                            out.push((e, c.side()));
                        }
                    }
                }
                out
            };
            for (e, side) in targets {
                let attacker = moving.filter(|&m| m != e);
                if deal_damage(world, e, side, *amount, kind.clone(), attacker) {
                    retract_piece(world, e);
                }
            }
        }
        ActionEffect::Remove(who) => {
            if let Some((Some(e), ..)) = piece(world, *who)
                && matches!(world.get::<Location>(e), Some(Location::Board(_)))
            {
                retract_piece(world, e);
            }
        }
        ActionEffect::Win(who, reason) => {
            let side = match who {
                Who::Mover => mover,
                Who::Victim => mover.opponent(),
            };
            decide(&mut world.resource_mut::<DecidedOutcome>(), Outcome::win(side, Reason::Rule(reason.clone())));
        }
        ActionEffect::Note(text) => world.resource_mut::<PendingMove>().effects.push(text.clone()),
    }
}
