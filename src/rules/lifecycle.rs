//! Pieces appearing and leaving: the spawn service with its on-piece-spawn hooks, and
//! on-piece-retract, fired whenever a piece leaves the board for any reason (captured, taken
//! into a hand, exploded, killed by damage, retracted by a preset).
//!
//! Retractions are collected where they happen ([`BoardWriter::relocate`](super::BoardWriter),
//! [`retract_piece`](super::retract_piece)) and announced to the retract hooks at the end of
//! the steps that move pieces (damage, mutations, after-move, turn start), one piece at a
//! time, in the order they left. Both schedules exist only while some hook needs them.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::prelude::*;

use super::board::Board;
use super::effects::{Effect, EffectKind, emit_effect};
use super::geometry::{Side, Square};
use super::piece::{Location, PieceType, piece_bundle};
pub use super::undo::PieceEvent;
use super::undo::{Change, UndoLog};

/// The on-piece-spawn pipeline, run once per spawned piece.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpawnPipeline;

/// The on-piece-retract pipeline, run once per piece that left the board.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RetractPipeline;

/// The single step of the spawn and retract pipelines: every active preset's hook, in
/// activation order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LifecycleSystems {
    /// on-piece-spawn.
    OnSpawn,
    /// on-piece-retract.
    OnRetract,
}

/// Why [`spawn_piece`] could not place a piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpawnError {
    /// The square is occupied (or a wall).
    Occupied(Square),
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpawnError::Occupied(sq) => write!(f, "square {} is not empty", sq.0),
        }
    }
}

impl std::error::Error for SpawnError {}

/// Creates a piece of `kind` and `side` on the empty `square`, records it for undo (inside a
/// move), runs every on-piece-spawn hook for it, and emits a spawn effect.
///
/// # Errors
/// The square is not empty; nothing changes then.
pub fn spawn_piece(world: &mut World, kind: PieceType, side: Side, square: Square) -> Result<Entity, SpawnError> {
    if !world.resource::<Board>().cell(square).is_empty() {
        return Err(SpawnError::Occupied(square));
    }
    let entity = world.spawn(piece_bundle(kind, side, Location::Board(square))).id();
    world.resource_mut::<Board>().put(square, kind, side, entity);
    let mut undo = world.resource_mut::<UndoLog>();
    if !undo.entries.is_empty() {
        undo.changes.push(Change::Spawned { entity });
    }
    let depth = world.get_resource::<EventDepth>().map_or(0, |d| d.0);
    announce_spawn(world, PieceEvent { entity, square, kind, side, depth });
    emit_effect(world, Effect::new(EffectKind::Spawn, square, "rules").side(side));
    Ok(entity)
}

/// The depth of the events that hooks make happen now: a hook answering an event at depth `d`
/// sets `d + 1` while it acts, so that the pieces it makes appear or leave are one deeper
/// ([`PieceEvent::depth`]); 0 otherwise.
#[derive(Resource, Copy, Clone, Debug, Default)]
pub struct EventDepth(pub u8);

/// Spawns announced while the spawn hooks run, to be announced after them, in order.
#[derive(Resource, Default)]
struct SpawnQueue {
    running: bool,
    waiting: std::collections::VecDeque<PieceEvent>,
}

/// Runs the spawn hooks for `event`. A spawn made by a spawn hook waits until the hooks
/// running finish (a schedule does not run inside itself), then is announced in turn; the
/// piece event a hook of another pipeline was reading is given back after.
fn announce_spawn(world: &mut World, event: PieceEvent) {
    let reading = world.get_resource::<PieceEvent>().copied();
    let mut queue = world.get_resource_or_init::<SpawnQueue>();
    if queue.running {
        queue.waiting.push_back(event);
        return;
    }
    queue.running = true;
    let mut next = Some(event);
    while let Some(event) = next {
        world.insert_resource(event);
        let _ = world.try_run_schedule(SpawnPipeline);
        next = world.resource_mut::<SpawnQueue>().waiting.pop_front();
    }
    world.resource_mut::<SpawnQueue>().running = false;
    if let Some(e) = reading {
        world.insert_resource(e);
    }
}

/// Announces every piece that left the board since the last call to the retract hooks
/// (exclusive system placed after the steps that move pieces, when retract hooks exist).
/// Hooks may retract more pieces; those are announced too.
pub fn announce_retractions(world: &mut World) {
    loop {
        let next = {
            let mut undo = world.resource_mut::<UndoLog>();
            if undo.retracted.is_empty() { None } else { Some(undo.retracted.remove(0)) }
        };
        let Some(event) = next else { break };
        world.insert_resource(event);
        let _ = world.try_run_schedule(RetractPipeline);
    }
}
