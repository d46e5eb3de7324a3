//! What presets keep between moves, typed: whole numbers by name, marked squares, and pieces
//! by name (each as the square it stands on). Hooks read it through [`PresetState`] and change
//! it through [`PresetStore`] (or [`change_preset_state`] from exclusive code); every change is
//! recorded for undo, the state is cleared when its preset is switched off, it is part of the
//! position's hash, and it is saved in Chimera's trailing FEN field (`state=`).
//!
//! In that field each value is `preset/key:value`, as it was when the state was untyped: a
//! number under its name (`berserker/count:3`), a marked square under the square's name with
//! the value 1 (`poisoned-squares/d4:1`), and a piece under its name with the index of its
//! square (`berserker/raging-on:35`); a preset names its piece keys in
//! [`PresetDef::state_pieces`](super::PresetDef::state_pieces), so that a reader tells them
//! from numbers.

use std::collections::BTreeMap;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use crate::rules::{Geometry, Square, SquareSet, UndoLog, mix};

/// One preset's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PresetBag {
    /// Whole numbers (counters), by name.
    pub numbers: BTreeMap<String, i64>,
    /// Squares the preset marks (the poisoned squares).
    pub squares: SquareSet,
    /// Pieces the preset follows, by name: the square each stands on (the berserker's raging
    /// piece).
    pub pieces: BTreeMap<String, Square>,
}

impl PresetBag {
    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.numbers.is_empty() && self.squares.is_empty() && self.pieces.is_empty()
    }
}

/// Per-preset state, by preset id (see the module's docs).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct PresetState(pub BTreeMap<String, PresetBag>);

impl PresetState {
    /// `preset`'s state, if it has any.
    pub fn bag(&self, preset: &str) -> Option<&PresetBag> {
        self.0.get(preset)
    }

    /// A number of `preset`'s state.
    pub fn number(&self, preset: &str, key: &str) -> Option<i64> {
        self.bag(preset)?.numbers.get(key).copied()
    }

    /// A piece `preset` follows: the square it stands on.
    pub fn piece(&self, preset: &str, key: &str) -> Option<Square> {
        self.bag(preset)?.pieces.get(key).copied()
    }

    /// The squares `preset` marks.
    pub fn squares(&self, preset: &str) -> SquareSet {
        self.bag(preset).map_or(SquareSet::EMPTY, |b| b.squares)
    }
}

/// Records `preset`'s state as it is now, to be restored if the move being made is undone.
fn record_bag(undo: &mut UndoLog, state: &PresetState, preset: &str) {
    if undo.entries.is_empty() {
        return;
    }
    let (preset, old) = (preset.to_string(), state.0.get(preset).cloned());
    undo.record_restore(move |world| {
        let mut state = world.resource_mut::<PresetState>();
        match &old {
            Some(bag) => state.0.insert(preset.clone(), bag.clone()),
            None => state.0.remove(&preset),
        };
    });
}

/// Reads and changes per-preset state from hook systems; every change is recorded for undo.
#[derive(SystemParam)]
pub struct PresetStore<'w> {
    state: ResMut<'w, PresetState>,
    undo: ResMut<'w, UndoLog>,
}

impl PresetStore<'_> {
    /// The state as it is.
    pub fn state(&self) -> &PresetState {
        &self.state
    }

    /// Changes `preset`'s state; a change that changes nothing records nothing.
    pub fn change(&mut self, preset: &str, change: impl FnOnce(&mut PresetBag)) {
        let mut bag = self.state.0.get(preset).cloned().unwrap_or_default();
        change(&mut bag);
        if self.state.0.get(preset).map_or(bag.is_empty(), |old| *old == bag) {
            return;
        }
        record_bag(&mut self.undo, &self.state, preset);
        if bag.is_empty() {
            self.state.0.remove(preset);
        } else {
            self.state.0.insert(preset.to_string(), bag);
        }
    }

    /// Sets (`Some`) or deletes (`None`) a number of `preset`'s state.
    pub fn set_number(&mut self, preset: &str, key: &str, value: Option<i64>) {
        self.change(preset, |bag| set_entry(&mut bag.numbers, key, value));
    }
}

fn set_entry<V>(map: &mut BTreeMap<String, V>, key: &str, value: Option<V>) {
    match value {
        Some(v) => {
            map.insert(key.to_string(), v);
        }
        None => {
            map.remove(key);
        }
    }
}

/// Changes `preset`'s state from exclusive code (recorded for undo).
pub fn change_preset_state(world: &mut World, preset: &str, change: impl FnOnce(&mut PresetBag)) {
    world.init_resource::<PresetState>();
    let mut bag = world.resource::<PresetState>().0.get(preset).cloned().unwrap_or_default();
    change(&mut bag);
    let _ = world.run_system_cached_with(
        |In((preset, bag)): In<(String, PresetBag)>, mut store: PresetStore| store.change(&preset, |b| *b = bag),
        (preset.to_string(), bag),
    );
}

/// Sets (`Some`) or deletes (`None`) a number of `preset`'s state from exclusive code.
pub fn set_preset_number(world: &mut World, preset: &str, key: &str, value: Option<i64>) {
    change_preset_state(world, preset, |bag| set_entry(&mut bag.numbers, key, value));
}

/// Sets (`Some`) or forgets (`None`) a piece `preset` follows, from exclusive code.
pub fn set_preset_piece(world: &mut World, preset: &str, key: &str, square: Option<Square>) {
    change_preset_state(world, preset, |bag| set_entry(&mut bag.pieces, key, square));
}

/// Clears `preset`'s state (after its on-deactivate), recorded for undo.
pub(super) fn clear_state(world: &mut World, preset: &str) {
    world.init_resource::<PresetState>();
    world.resource_scope(|world, mut state: Mut<PresetState>| {
        if state.0.contains_key(preset) {
            record_bag(&mut world.resource_mut::<UndoLog>(), &state, preset);
            state.0.remove(preset);
        }
    });
}

/// Per-preset state as a position-hash term.
pub(super) fn hash_preset_state(world: &mut World) -> u64 {
    let Some(state) = world.get_resource::<PresetState>() else { return 0 };
    let mut h = 0x57A7_E000u64;
    for (preset, bag) in &state.0 {
        let p = super::hash_bytes(preset.as_bytes());
        for (key, value) in &bag.numbers {
            h ^= mix(p ^ super::hash_bytes(key.as_bytes()).rotate_left(17) ^ *value as u64);
        }
        for sq in bag.squares.iter() {
            h ^= mix(p ^ 0x5000_0000 ^ u64::from(sq.0));
        }
        for (key, sq) in &bag.pieces {
            h ^= mix(p ^ super::hash_bytes(key.as_bytes()).rotate_left(29) ^ 0x9000_0000 ^ u64::from(sq.0));
        }
    }
    h
}

/// The state's section of the trailing FEN field, each preset's values in the order of their
/// keys as written; `None` when there is no state.
pub(super) fn write_section(state: &PresetState, g: Geometry) -> Option<String> {
    let mut values = Vec::new();
    for (preset, bag) in &state.0 {
        let mut entries: Vec<(String, String)> = bag.numbers.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
        entries.extend(bag.squares.iter().map(|sq| (g.name(sq), "1".to_string())));
        entries.extend(bag.pieces.iter().map(|(k, sq)| (k.clone(), sq.0.to_string())));
        entries.sort();
        values.extend(entries.into_iter().map(|(k, v)| format!("{preset}/{k}:{v}")));
    }
    (!values.is_empty()).then(|| format!("state={}", values.join(",")))
}

/// Reads the state's section of the trailing FEN field (its body, after `state=`).
///
/// # Errors
/// A value that is not `preset/key:value`, not a whole number, or a piece's square off the
/// board.
pub(super) fn read_section(body: &str, g: Geometry) -> Result<PresetState, String> {
    let mut state = PresetState::default();
    for v in body.split(',').filter(|v| !v.is_empty()) {
        let (key, value) = v.rsplit_once(':').ok_or_else(|| format!("trailing field: '{v}' in state is not key:value"))?;
        let (preset, key) = key.split_once('/').ok_or_else(|| format!("trailing field: '{key}' is not preset/key"))?;
        let value: i64 = value.parse().map_err(|_| format!("trailing field: '{value}' is not a whole number"))?;
        let bag = state.0.entry(preset.to_string()).or_default();
        if super::by_id(preset).is_some_and(|def| def.state_pieces.contains(&key)) {
            let sq = u8::try_from(value).ok().map(Square).filter(|sq| sq.index() < g.len());
            let sq = sq.ok_or_else(|| format!("trailing field: {preset}/{key}: '{value}' is not a square of this board"))?;
            bag.pieces.insert(key.to_string(), sq);
        } else if let Some(sq) = g.parse_square(key) {
            bag.squares.insert(sq);
        } else {
            bag.numbers.insert(key.to_string(), value);
        }
    }
    Ok(state)
}
