//! Declared piece facts at run time: the facts a variant's own actions and the active data
//! presets declare ([`FactDecl`]), each held in a slot, a component [`DataFact<I>`], so that
//! undo, the position hash, forks and the FEN's facts field treat them as they treat the Rust
//! presets' facts (hit points, shields). A fact keeps its slot for the life of the game once
//! given one ([`FactSlots`]); there are [`MAX_FACTS`] slots.

use bevy::prelude::*;

use super::action_compile::MAX_FACTS;
use crate::rules::{EntityMap, ExtraHasher, FactDecl, Hook, IntFact, Piece, PieceEvent, Step, UndoLog};

/// The value of the fact in slot `I` on a piece.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct DataFact<const I: usize>(pub i32);

impl<const I: usize> IntFact for DataFact<I> {
    fn value(&self) -> i32 {
        self.0
    }
    fn with_value(v: i32) -> Self {
        DataFact(v)
    }
}

/// The declared facts of the game, by slot.
#[derive(Resource, Clone, Debug, Default)]
pub struct FactSlots(pub Vec<FactDecl>);

/// What a slot does, for its component.
struct SlotFns {
    get: fn(&World, Entity) -> Option<i32>,
    set: fn(&mut World, Entity, i32),
    clear: fn(&mut World, Entity),
    record: fn(&mut UndoLog, Entity, Option<i32>),
    hash: ExtraHasher,
    copy: fn(&World, &mut World, &EntityMap),
    give: fn(&mut World, i32),
    take: fn(&mut World),
}

fn record<C: IntFact>(undo: &mut UndoLog, e: Entity, old: Option<i32>) {
    undo.record_fact::<C>(e, old);
}

fn give<C: IntFact>(world: &mut World, v: i32) {
    super::give_every_piece(world, C::with_value(v));
}

const fn slot<const I: usize>() -> SlotFns {
    SlotFns {
        get: super::fact_get::<DataFact<I>>,
        set: super::fact_set::<DataFact<I>>,
        clear: super::fact_clear::<DataFact<I>>,
        record: record::<DataFact<I>>,
        hash: super::hash_fact::<DataFact<I>>,
        copy: super::copy_fact::<DataFact<I>>,
        give: give::<DataFact<I>>,
        take: super::take_from_every_piece::<DataFact<I>>,
    }
}

const SLOTS: [SlotFns; MAX_FACTS] = [slot::<0>(), slot::<1>(), slot::<2>(), slot::<3>()];

/// Makes `decls` the declared facts: a fact declared before keeps its slot (with the new
/// declaration's limits); a new one takes a free slot, or the slot of a fact no longer
/// declared (whose preset's on-deactivate took it from every piece). Slots are never taken
/// away, so that a preset that runs out, and comes back when its move is undone, finds its
/// facts where they were. [`super::set_active_presets`] refuses more than [`MAX_FACTS`].
pub fn declare(world: &mut World, decls: &[FactDecl]) {
    let mut slots = world.get_resource::<FactSlots>().cloned().unwrap_or_default();
    for d in decls {
        if let Some(s) = slots.0.iter_mut().find(|s| s.name == d.name) {
            *s = d.clone();
        } else if slots.0.len() < MAX_FACTS {
            slots.0.push(d.clone());
        } else if let Some(s) = slots.0.iter_mut().find(|s| !decls.iter().any(|x| x.name == s.name)) {
            *s = d.clone();
        }
    }
    world.insert_resource(slots);
}

/// The slot and declaration of the fact `name`.
pub fn slot_of(world: &World, name: &str) -> Option<(usize, FactDecl)> {
    let slots = world.get_resource::<FactSlots>()?;
    slots.0.iter().position(|d| d.name == name).map(|i| (i, slots.0[i].clone()))
}

/// The fact `name` on a piece.
pub fn value(world: &World, e: Entity, name: &str) -> Option<i32> {
    let (i, _) = slot_of(world, name)?;
    (SLOTS[i].get)(world, e)
}

/// The fact `name` on a piece viewed by reference (for views that draw facts).
pub fn value_of(slots: &FactSlots, piece: &bevy::ecs::world::EntityRef, name: &str) -> Option<i32> {
    Some(match slots.0.iter().position(|d| d.name == name)? {
        0 => piece.get::<DataFact<0>>()?.0,
        1 => piece.get::<DataFact<1>>()?.0,
        2 => piece.get::<DataFact<2>>()?.0,
        _ => piece.get::<DataFact<3>>()?.0,
    })
}

/// Sets the fact `name` on a piece that has it, within its limits, recorded for undo; returns
/// the value it now has.
pub fn set_value(world: &mut World, e: Entity, name: &str, v: i32) -> Option<i32> {
    let (i, d) = slot_of(world, name)?;
    let old = (SLOTS[i].get)(world, e)?;
    let v = v.clamp(d.min, d.max);
    if v != old {
        (SLOTS[i].record)(&mut world.resource_mut::<UndoLog>(), e, Some(old));
        (SLOTS[i].set)(world, e, v);
    }
    Some(v)
}

/// Sets the fact `name` on a piece, as a FEN says, without undo (a position being set up).
pub fn put(world: &mut World, e: Entity, name: &str, v: i32) -> bool {
    let Some((i, d)) = slot_of(world, name) else { return false };
    (SLOTS[i].set)(world, e, v.clamp(d.min, d.max));
    true
}

/// Takes the fact `name` off a piece, as a FEN that does not name it says.
pub fn clear(world: &mut World, e: Entity, name: &str) {
    if let Some((i, _)) = slot_of(world, name) {
        (SLOTS[i].clear)(world, e);
    }
}

/// Gives every piece each of `decls` at its start (on-activate; the slots are declared when
/// the set is installed).
pub fn give_all(world: &mut World, decls: &[FactDecl]) {
    for d in decls {
        if let Some((i, _)) = slot_of(world, d.name) {
            (SLOTS[i].give)(world, d.start);
        }
    }
}

/// Takes each of `decls` from every piece (on-deactivate).
pub fn take_all(world: &mut World, decls: &[FactDecl]) {
    for d in decls {
        if let Some((i, _)) = slot_of(world, d.name) {
            (SLOTS[i].take)(world);
        }
    }
}

/// The position-hash terms of the slots in use.
pub fn hashers(world: &World) -> Vec<ExtraHasher> {
    let n = world.get_resource::<FactSlots>().map_or(0, |s| s.0.len());
    SLOTS[..n].iter().map(|s| s.hash).collect()
}

/// Copies the slots and every piece's facts into a fork.
pub fn fork(src: &World, dst: &mut World, map: &EntityMap) {
    let Some(slots) = src.get_resource::<FactSlots>() else { return };
    dst.insert_resource(slots.clone());
    for s in &SLOTS[..slots.0.len()] {
        (s.copy)(src, dst, map);
    }
}

/// How the board shows a declared fact, if at all.
pub fn look_of(d: &FactDecl) -> Option<super::FactLook> {
    match d.look {
        crate::rules::FactShow::Hidden => None,
        crate::rules::FactShow::Pips { top, colour } => Some(super::FactLook::Pips { fact: d.name, top, colour }),
        crate::rules::FactShow::Ring { colour } => Some(super::FactLook::Ring { fact: d.name, colour }),
    }
}

/// The spawn and retract hooks of `decls` for `owner`: a piece that appears gets each fact's
/// start; one that leaves the board is given its start again (recorded for undo), so that a
/// piece captured into a hand comes back fresh.
pub fn hooks(owner: &'static str, decls: &[FactDecl]) -> Vec<Hook> {
    if decls.is_empty() {
        return Vec::new();
    }
    let (spawned, retracted) = (decls.to_vec(), decls.to_vec());
    vec![
        Hook::new(owner, Step::Spawn, move |world: &mut World| {
            let e = world.resource::<PieceEvent>().entity;
            for d in &spawned {
                if let Some((i, _)) = slot_of(world, d.name)
                    && world.get::<Piece>(e).is_some()
                {
                    (SLOTS[i].set)(world, e, d.start);
                }
            }
        }),
        Hook::new(owner, Step::Retract, move |world: &mut World| {
            let e = world.resource::<PieceEvent>().entity;
            for d in &retracted {
                if value(world, e, d.name).is_some_and(|v| v != d.start) {
                    set_value(world, e, d.name, d.start);
                }
            }
        }),
    ]
}
