//! Presets: rule modifiers a player can switch on and combine. Each preset is a definition
//! ([`PresetDef`]) whose hooks are systems placed in the steps of the two pipelines (and the
//! damage pipeline); [`set_active_presets`] validates a set, runs the lifecycle hooks and
//! rebuilds the schedules so that the order inside every step is the activation order.
//!
//! Preset facts changed during a move (hit points, shields) are recorded in the undo log
//! through [`UndoLog::record_fact`](crate::rules::UndoLog::record_fact), so undo restores them.
//!
//! Still to come (issue 4): durations and their expiry, per-preset state, on-piece-spawn and
//! on-piece-retract, and the remaining canonical presets.

mod berolina_pawns;
mod capture_to_win;
mod double_move;
mod explosive_rook;
mod knight_immunity;
mod knights_leap_twice;
mod piece_hp;
mod piece_shield;
mod royalty;
mod suicide_chess;

use std::collections::BTreeMap;
use std::fmt;

use bevy::prelude::*;

use crate::rules::{Hook, Hooks, Location, Piece, Side, rebuild_pipelines};

pub use berolina_pawns::BEROLINA_PAWNS;
pub use capture_to_win::CAPTURE_TO_WIN;
pub use double_move::{DOUBLE_MOVE, MONSTER_RULES};
pub use explosive_rook::EXPLOSIVE_ROOK;
pub use knight_immunity::KNIGHT_IMMUNITY;
pub use knights_leap_twice::KNIGHTS_LEAP_TWICE;
pub use piece_hp::{Hp, PIECE_HP};
pub use piece_shield::{PIECE_SHIELD, Shield};
pub use royalty::{CAPTURE_ALL, COREGAL, KNIGHTMATE_RULES};
pub use suicide_chess::SUICIDE_CHESS;

/// Which sides a preset applies to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Scope {
    /// Both sides.
    #[default]
    Both,
    /// White only.
    White,
    /// Black only.
    Black,
}

impl Scope {
    /// Whether the scope covers `side`.
    pub fn covers(self, side: Side) -> bool {
        match self {
            Scope::Both => true,
            Scope::White => side == Side::White,
            Scope::Black => side == Side::Black,
        }
    }
}

/// One activation of a preset: its id, parameters, scope and remaining turns.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Activation {
    /// Preset id.
    pub id: &'static str,
    /// Parameters by name.
    pub params: BTreeMap<String, f64>,
    /// Sides it applies to.
    pub scope: Scope,
    /// Turns left; `None` lasts the whole game.
    pub turns_left: Option<u32>,
}

impl Activation {
    /// An activation of `id` for both sides, for the whole game.
    pub fn of(id: &'static str) -> Activation {
        Activation { id, ..Default::default() }
    }

    /// A parameter, or `default`.
    pub fn param(&self, name: &str, default: f64) -> f64 {
        self.params.get(name).copied().unwrap_or(default)
    }
}

/// A preset's definition.
pub struct PresetDef {
    /// Stable id (kebab-case).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// What it does, for players.
    pub description: &'static str,
    /// Presets that may not be active with it (mutual).
    pub incompatible_with: &'static [&'static str],
    /// Presets that must be active with it.
    pub requires: &'static [&'static str],
    /// Piece facts it owns (their union is the engine's effective piece attributes).
    pub piece_attributes: &'static [&'static str],
    /// Its hook systems for one activation.
    pub hooks: fn(&Activation) -> Vec<Hook>,
    /// Runs when it becomes active.
    pub on_activate: fn(&mut World, &Activation),
    /// Runs when it stops being active; its state is cleared afterwards.
    pub on_deactivate: fn(&mut World, &Activation),
}

impl fmt::Debug for PresetDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PresetDef").field("id", &self.id).finish()
    }
}

/// Every preset this build knows.
pub const ALL: &[&PresetDef] = &[
    &PIECE_HP,
    &PIECE_SHIELD,
    &CAPTURE_TO_WIN,
    &KNIGHT_IMMUNITY,
    &KNIGHTS_LEAP_TWICE,
    &BEROLINA_PAWNS,
    &EXPLOSIVE_ROOK,
    &SUICIDE_CHESS,
    &CAPTURE_ALL,
    &COREGAL,
    &KNIGHTMATE_RULES,
    &DOUBLE_MOVE,
    &MONSTER_RULES,
];

/// Lifecycle hook for presets that keep no state.
pub fn no_state(_world: &mut World, _a: &Activation) {}

/// Gives every piece on the board the fact `value` (on-activate of attribute presets).
pub fn give_every_piece<C: Component + Copy>(world: &mut World, value: C) {
    let pieces: Vec<Entity> = world
        .query_filtered::<(Entity, &Location), With<Piece>>()
        .iter(world)
        .filter(|(_, l)| l.square().is_some())
        .map(|(e, _)| e)
        .collect();
    for e in pieces {
        world.entity_mut(e).insert(value);
    }
}

/// Removes the fact `C` from every piece (on-deactivate of attribute presets).
pub fn take_from_every_piece<C: Component>(world: &mut World) {
    let pieces: Vec<Entity> = world.query_filtered::<Entity, With<C>>().iter(world).collect();
    for e in pieces {
        world.entity_mut(e).remove::<C>();
    }
}

/// The preset with this id.
pub fn by_id(id: &str) -> Option<&'static PresetDef> {
    ALL.iter().copied().find(|p| p.id == id)
}

/// The active presets, in activation order.
#[derive(Resource, Clone, Debug, Default)]
pub struct ActivePresets(pub Vec<Activation>);

/// Why a set of presets cannot be activated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PresetError {
    /// No preset has this id.
    Unknown(String),
    /// Two presets that exclude each other.
    Incompatible(String, String),
    /// A preset without one it requires.
    Missing {
        /// The preset.
        preset: String,
        /// What it needs.
        requires: String,
    },
    /// The same preset twice.
    Duplicate(String),
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::Unknown(id) => write!(f, "no preset '{id}'"),
            PresetError::Incompatible(a, b) => write!(f, "'{a}' and '{b}' cannot be active together"),
            PresetError::Missing { preset, requires } => write!(f, "'{preset}' needs '{requires}' to be active too"),
            PresetError::Duplicate(id) => write!(f, "'{id}' is listed twice"),
        }
    }
}

impl std::error::Error for PresetError {}

/// Checks a set of activations: known ids, no duplicates, no incompatible pair, every
/// requirement present.
///
/// # Errors
/// The first problem, naming the presets involved.
pub fn validate(set: &[Activation]) -> Result<(), PresetError> {
    for (i, a) in set.iter().enumerate() {
        let def = by_id(a.id).ok_or_else(|| PresetError::Unknown(a.id.to_string()))?;
        if set[..i].iter().any(|b| b.id == a.id) {
            return Err(PresetError::Duplicate(a.id.to_string()));
        }
        for other in set.iter().filter(|b| b.id != a.id) {
            let other_def = by_id(other.id).ok_or_else(|| PresetError::Unknown(other.id.to_string()))?;
            if def.incompatible_with.contains(&other.id) || other_def.incompatible_with.contains(&a.id) {
                return Err(PresetError::Incompatible(a.id.to_string(), other.id.to_string()));
            }
        }
        for &needed in def.requires {
            if !set.iter().any(|b| b.id == needed) {
                return Err(PresetError::Missing { preset: a.id.to_string(), requires: needed.to_string() });
            }
        }
    }
    Ok(())
}

/// Replaces the active set: validates it (nothing changes on error), runs on-deactivate for
/// presets dropped and on-activate for presets added (in order), and rebuilds the pipelines
/// with every active preset's hooks in activation order.
///
/// # Errors
/// See [`validate`].
pub fn set_active_presets(world: &mut World, set: Vec<Activation>) -> Result<(), PresetError> {
    validate(&set)?;
    let old = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    for a in old.iter().filter(|a| !set.iter().any(|b| b.id == a.id)) {
        if let Some(def) = by_id(a.id) {
            (def.on_deactivate)(world, a);
        }
    }
    for a in set.iter().filter(|a| !old.iter().any(|b| b.id == a.id)) {
        if let Some(def) = by_id(a.id) {
            (def.on_activate)(world, a);
        }
    }
    let hooks: Vec<Hook> = set.iter().filter_map(|a| by_id(a.id).map(|def| (def.hooks)(a))).flatten().collect();
    world.insert_resource(Hooks(hooks));
    world.insert_resource(ActivePresets(set));
    rebuild_pipelines(world);
    Ok(())
}

/// The activations a variant asks for (unknown ids, already rejected when the variant was
/// loaded, are skipped).
pub fn requested_by(variant: &crate::rules::Variant) -> Vec<Activation> {
    variant
        .presets
        .iter()
        .filter_map(|r| {
            let def = by_id(&r.id)?;
            let scope = match r.sides {
                [true, false] => Scope::White,
                [false, true] => Scope::Black,
                _ => Scope::Both,
            };
            Some(Activation { id: def.id, params: r.params.clone(), scope, turns_left: r.turns })
        })
        .collect()
}

/// A game of `variant` from `fen` (or `startpos`) with the variant's presets switched on.
///
/// # Errors
/// A bad FEN, or (for a variant built in code) an invalid preset set.
pub fn new_game(variant: crate::rules::Variant, fen: &str) -> Result<crate::rules::Engine, String> {
    let requests = requested_by(&variant);
    let mut engine = crate::rules::Engine::from_fen(variant, fen).map_err(|e| e.to_string())?;
    if !requests.is_empty() {
        set_active_presets(engine.world_mut(), requests).map_err(|e| e.to_string())?;
    }
    Ok(engine)
}
