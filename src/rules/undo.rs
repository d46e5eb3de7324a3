//! The undo log: every change a move makes to pieces, recorded as it is made, and reverted
//! exactly, newest first. A leaf of the rules: the pipelines, the services and the presets
//! write it; nothing here knows about them.

use bevy::prelude::*;

use super::board::Board;
use super::geometry::{Side, Square};
use super::outcome::Outcome;
use super::piece::{Location, Owner, PieceType, Promoted};
use super::state::GameState;

/// A piece that appeared or left, as the lifecycle hooks see it.
#[derive(Resource, Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceEvent {
    /// The piece.
    pub entity: Entity,
    /// Where it appeared, or the square it left.
    pub square: Square,
    /// Its type at that moment.
    pub kind: PieceType,
    /// Its side at that moment.
    pub side: Side,
    /// How deep in a chain of events it is: 0 when the move made it appear or leave, `d + 1`
    /// when a hook answering an event at depth `d` did ([`EventDepth`](super::lifecycle::EventDepth)).
    pub depth: u8,
}

/// Puts something back as it was before a move (preset state, the active preset set).
#[derive(Clone)]
pub struct Restore(pub std::sync::Arc<dyn Fn(&mut World) + Send + Sync>);

impl std::fmt::Debug for Restore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Restore(..)")
    }
}

/// One reversible change.
#[derive(Clone, Debug)]
pub enum Change {
    /// The piece was at `from` before.
    Relocated { entity: Entity, from: Location },
    /// The piece had type `from` before.
    Retyped { entity: Entity, from: PieceType },
    /// The piece belonged to `from` before.
    Reowned { entity: Entity, from: Side },
    /// The piece's promoted-from type was `from` before.
    Promoted { entity: Entity, from: Option<PieceType> },
    /// The piece was created by this move.
    Spawned { entity: Entity },
    /// The duck went from `from` (`None`: it was not on the board yet) to `to`.
    Walled { from: Option<Square>, to: Square },
    /// A numeric piece fact owned by a preset (hit points, shields…) was `old` before
    /// (`None`: absent); `restore` puts it back.
    Fact { entity: Entity, old: Option<i32>, restore: fn(&mut World, Entity, Option<i32>) },
    /// Anything else: the closure restores it.
    Restore(Restore),
}

/// A numeric piece fact that presets own and the undo log can restore.
pub trait IntFact: Component<Mutability = bevy::ecs::component::Mutable> + Copy {
    /// The number.
    fn value(&self) -> i32;
    /// The fact with this number.
    fn with_value(v: i32) -> Self;
}

/// Puts a numeric fact back as it was (`None`: removes it).
pub fn restore_fact<C: IntFact>(world: &mut World, entity: Entity, old: Option<i32>) {
    let Ok(mut e) = world.get_entity_mut(entity) else { return };
    match old {
        Some(v) => {
            e.insert(C::with_value(v));
        }
        None => {
            e.remove::<C>();
        }
    }
}

impl UndoLog {
    /// Records that `entity`'s fact `C` was `old` before the change about to be made.
    pub fn record_fact<C: IntFact>(&mut self, entity: Entity, old: Option<i32>) {
        self.record(Change::Fact { entity, old, restore: restore_fact::<C> });
    }

    /// Records a change made during a move (outside a move there is nothing to undo).
    pub fn record(&mut self, change: Change) {
        if !self.entries.is_empty() {
            self.changes.push(change);
        }
    }

    /// Records how to put something back if the current move is undone.
    pub fn record_restore(&mut self, restore: impl Fn(&mut World) + Send + Sync + 'static) {
        self.record(Change::Restore(Restore(std::sync::Arc::new(restore))));
    }
}

/// What undo needs to restore one move.
#[derive(Clone, Debug)]
pub struct UndoEntry {
    /// Game facts before the move.
    pub state: GameState,
    /// The decided outcome before the move.
    pub decided: Option<Outcome>,
    /// Where this move's changes start in [`UndoLog::changes`].
    pub changes_start: usize,
}

/// Every change of every applied move, in order, so that undo is exact.
#[derive(Resource, Clone, Debug, Default)]
pub struct UndoLog {
    /// One entry per applied move.
    pub entries: Vec<UndoEntry>,
    /// All changes.
    pub changes: Vec<Change>,
    /// Pieces that left the board during the current move and were not yet announced to the
    /// retract hooks ([`announce_retractions`](super::lifecycle::announce_retractions)).
    pub retracted: Vec<PieceEvent>,
    /// A buffer for the changes being reverted, kept so that undo allocates nothing.
    spare: Vec<Change>,
}

impl UndoLog {
    /// Takes the changes of the last move off the log (oldest first) with its entry, into a
    /// reused buffer; give the buffer back with [`UndoLog::give_back`].
    pub fn pop_move(&mut self) -> Option<(UndoEntry, Vec<Change>)> {
        let entry = self.entries.pop()?;
        let mut changes = std::mem::take(&mut self.spare);
        changes.extend(self.changes.drain(entry.changes_start..));
        Some((entry, changes))
    }

    /// Returns the buffer [`UndoLog::pop_move`] lent.
    pub fn give_back(&mut self, mut changes: Vec<Change>) {
        changes.clear();
        self.spare = changes;
    }
}

/// Removes a piece from the square index or hand at `loc`.
pub(crate) fn unplace(board: &mut Board, loc: Location, kind: PieceType, side: Side, entity: Entity) {
    match loc {
        Location::Board(sq) => {
            board.take(sq);
        }
        Location::Hand => board.take_from_hand(side, kind, entity),
        Location::Captured => {}
    }
}

/// Adds a piece to the square index or hand at `loc`.
pub(crate) fn place(board: &mut Board, loc: Location, kind: PieceType, side: Side, entity: Entity) {
    match loc {
        Location::Board(sq) => board.put(sq, kind, side, entity),
        Location::Hand => board.put_in_hand(side, kind, entity),
        Location::Captured => {}
    }
}

/// Reverts `changes` (newest last) on the world.
pub fn revert_changes(world: &mut World, changes: &[Change]) {
    for change in changes.iter().rev() {
        match change.clone() {
            Change::Relocated { entity, from } => {
                // One entity access reads the facts and puts the location back.
                let (kind, owner, now) = {
                    let mut e = world.entity_mut(entity);
                    let kind = *e.get::<PieceType>().expect("a piece has a type");
                    let owner = e.get::<Owner>().expect("a piece has an owner").0;
                    let now = std::mem::replace(&mut *e.get_mut::<Location>().expect("a piece has a location"), from);
                    (kind, owner, now)
                };
                let mut board = world.resource_mut::<Board>();
                unplace(&mut board, now, kind, owner, entity);
                place(&mut board, from, kind, owner, entity);
            }
            Change::Retyped { entity, from } => {
                let (kind, owner, now) = piece_facts(world, entity);
                let mut board = world.resource_mut::<Board>();
                unplace(&mut board, now, kind, owner, entity);
                place(&mut board, now, from, owner, entity);
                set_component(world, entity, from);
            }
            Change::Reowned { entity, from } => {
                let (kind, owner, now) = piece_facts(world, entity);
                let mut board = world.resource_mut::<Board>();
                unplace(&mut board, now, kind, owner, entity);
                place(&mut board, now, kind, from, entity);
                set_component(world, entity, Owner(from));
            }
            Change::Promoted { entity, from } => set_component(world, entity, Promoted(from)),
            Change::Fact { entity, old, restore } => restore(world, entity, old),
            Change::Restore(r) => (r.0)(world),
            Change::Spawned { entity } => {
                let (kind, owner, now) = piece_facts(world, entity);
                unplace(&mut world.resource_mut::<Board>(), now, kind, owner, entity);
                world.despawn(entity);
            }
            Change::Walled { from, to } => {
                let mut board = world.resource_mut::<Board>();
                board.set_wall(to, false);
                if let Some(from) = from {
                    board.set_wall(from, true);
                }
            }
        }
    }
}

pub(crate) fn piece_facts(world: &World, entity: Entity) -> (PieceType, Side, Location) {
    let e = world.entity(entity);
    (
        *e.get::<PieceType>().expect("a piece has a type"),
        e.get::<Owner>().expect("a piece has an owner").0,
        *e.get::<Location>().expect("a piece has a location"),
    )
}

pub(crate) fn set_component<C: Component<Mutability = bevy::ecs::component::Mutable>>(world: &mut World, entity: Entity, value: C) {
    if let Some(mut c) = world.get_mut::<C>(entity) {
        *c = value;
    }
}
