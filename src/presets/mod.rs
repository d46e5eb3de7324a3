//! Presets: rule modifiers a player can switch on and combine. Each preset is a definition
//! ([`PresetDef`]) whose hooks are systems placed in the steps of the two pipelines (and the
//! damage pipeline); [`set_active_presets`] validates a set, runs the lifecycle hooks and
//! rebuilds the schedules so that the order inside every step is the activation order.
//!
//! Preset facts changed during a move (hit points, shields) are recorded in the undo log
//! through [`UndoLog::record_fact`](crate::rules::UndoLog::record_fact), and per-preset state
//! (typed: numbers, marked squares and pieces, `state.rs`, changed through [`PresetStore`]) and
//! the active set itself through restore records, so undo restores them.
//!
//! A timed activation (`turns_left`) counts down each time the turn passes (step 7 of move
//! application); at zero its on-deactivate runs, its state is cleared, and its hooks stop
//! running at once (they are gated on the preset still being active) and leave the schedules
//! when they are rebuilt after the move.
//!
//! A modifier profile is put in a game here too (`profile.rs`): it is built from
//! [`modifiers`](crate::modifiers)' model and rebuilds the rules together with the presets.
//! The one way a game is set up, from a variant with its presets and profile, is
//! [`GameDefinition`] (`definition.rs`).
//!
//! Layer: uses `rules` and `modifiers`.

pub mod action_compile;
pub mod action_spec;
mod actions;
mod berolina_pawns;
mod berserker;
mod capture_to_win;
pub mod data;
mod definition;
mod double_move;
mod dual_king;
mod explosive_rook;
mod facts;
mod king_heals;
mod knight_immunity;
mod knights_leap_twice;
mod last_piece_standing;
mod piece_hp;
mod piece_shield;
mod poisoned_squares;
mod profile;
mod queen_splits;
mod royalty;
mod stamina;
mod state;
mod suicide_chess;
mod wrap_board;

use std::collections::BTreeMap;
use std::fmt;

use bevy::prelude::*;

use crate::rules::{
    ApplySystems, EntityMap, ExtraHasher, FenExtras, ForkCopiers, HashExtras, History, Hook, Hooks, IntFact, Location, MoveLayer,
    PendingMove, Piece, RoyalRule, RuleFns, Rules, Side, SystemFactory, UndoLog, Variant, mix, position_hash, rebuild_pipelines,
};

pub use actions::{ACTIONS, ask_for_actions, royalty_of};
pub use berolina_pawns::BEROLINA_PAWNS;
pub use berserker::BERSERKER;
pub use capture_to_win::CAPTURE_TO_WIN;
pub use definition::{GameDefinition, Start, new_game};
pub use double_move::{DOUBLE_MOVE, MONSTER_RULES};
pub use dual_king::{Crowned, DUAL_KING, WEAK_DUAL_KING};
pub use explosive_rook::EXPLOSIVE_ROOK;
pub use facts::{DataFact, FactSlots};
pub use king_heals::KING_HEALS;
pub use knight_immunity::KNIGHT_IMMUNITY;
pub use knights_leap_twice::KNIGHTS_LEAP_TWICE;
pub use last_piece_standing::LAST_PIECE_STANDING;
pub use piece_hp::{Hp, PIECE_HP, starting_hp, take_hit};
pub use piece_shield::{PIECE_SHIELD, Shield};
pub use poisoned_squares::{POISONED_SQUARES, centre_squares, is_poisoned};
pub use profile::{
    ActiveProfile, Carry, PendingSwap, StartProfile, SwapHistory, Table, apply_profile, profile_hp, request_swap, resolved_of,
    validate_profile,
};
pub use queen_splits::QUEEN_SPLITS;
pub use royalty::{CAPTURE_ALL, COREGAL, KNIGHTMATE_RULES};
pub use stamina::{STAMINA, Stamina};
pub use state::{PresetBag, PresetState, PresetStore, change_preset_state, set_preset_number, set_preset_piece};
use state::{clear_state, hash_preset_state};
pub use suicide_chess::SUICIDE_CHESS;
pub use wrap_board::WRAP_BOARD;

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

    /// The sides it covers, `[white, black]`.
    pub fn sides(self) -> [bool; 2] {
        [self.covers(Side::White), self.covers(Side::Black)]
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
    /// The parameters it reads; any other parameter, or a value out of range, is refused.
    pub params: &'static [ParamSpec],
    /// Its hook systems for one activation.
    pub hooks: fn(&Activation) -> Vec<Hook>,
    /// Its hook systems for one activation in a variant (the `actions` preset's, one for each
    /// of the variant's actions), after those of `hooks`.
    pub variant_hooks: fn(&Activation, &Variant) -> Vec<Hook>,
    /// Its movement layers (override, transform, extra moves) for one activation in a variant:
    /// function values that generation and check detection both run.
    pub layers: fn(&Activation, &Variant) -> Vec<MoveLayer>,
    /// Its contribution to the royal set (get-royal-pieces), unscoped.
    pub royalty: fn(&Activation) -> Vec<RoyalRule>,
    /// The hash of the piece facts it owns ([`hash_fact`]), for the position hash.
    pub hash_facts: Option<ExtraHasher>,
    /// Runs when it becomes active.
    pub on_activate: fn(&mut World, &Activation),
    /// Runs when it stops being active; its state is cleared afterwards.
    pub on_deactivate: fn(&mut World, &Activation),
    /// The keys of its state that name pieces (see [`state`]).
    pub state_pieces: &'static [&'static str],
    /// How the board shows the facts and state it owns (the game draws from these, so a new
    /// preset needs no change of the game's code).
    pub looks: &'static [FactLook],
}

/// How the board shows something a preset owns: a piece fact, or squares its state names.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FactLook {
    /// The piece fact `fact` (its name in the FEN: `Hp`) as pips along the piece's bottom edge,
    /// or its top edge with `top` (a number past five).
    Pips {
        /// The fact's name.
        fact: &'static str,
        /// Along the top edge.
        top: bool,
        /// The pips' colour (sRGB).
        colour: [u8; 3],
    },
    /// A ring round the piece while the fact `fact` is above zero.
    Ring {
        /// The fact's name.
        fact: &'static str,
        /// The ring's colour (sRGB and alpha).
        colour: [u8; 4],
    },
    /// The squares the preset's state marks, tinted.
    StateSquares {
        /// The tint (sRGB and alpha).
        colour: [u8; 4],
    },
}

/// A parameter of a preset: a whole number in `min..=max`, `default` when not given.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParamSpec {
    /// Its name in a variant file (`params: {"hp": 3}`) or a `Presets` UCI option (`hp=3`).
    pub name: &'static str,
    /// The smallest value.
    pub min: i32,
    /// The largest value.
    pub max: i32,
    /// The value when it is not given.
    pub default: i32,
}

impl fmt::Debug for PresetDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PresetDef").field("id", &self.id).finish()
    }
}

impl PresetDef {
    /// The defaults a preset states only what differs from: no incompatibilities, requirements
    /// or piece attributes, no hooks, and no state to set up or clear.
    pub const BASE: PresetDef = PresetDef {
        id: "",
        name: "",
        description: "",
        incompatible_with: &[],
        requires: &[],
        piece_attributes: &[],
        params: &[],
        hooks: no_hooks,
        variant_hooks: no_variant_hooks,
        layers: no_layers,
        royalty: no_royalty,
        hash_facts: None,
        on_activate: no_state,
        on_deactivate: no_state,
        state_pieces: &[],
        looks: &[],
    };
}

fn no_hooks(_a: &Activation) -> Vec<Hook> {
    Vec::new()
}

fn no_variant_hooks(_a: &Activation, _v: &Variant) -> Vec<Hook> {
    Vec::new()
}

fn no_layers(_a: &Activation, _v: &Variant) -> Vec<MoveLayer> {
    Vec::new()
}

fn no_royalty(_a: &Activation) -> Vec<RoyalRule> {
    Vec::new()
}

/// The movement layers and royalty rules of an active set, in activation order.
pub fn rule_fns_of(set: &[Activation], variant: &Variant) -> RuleFns {
    let mut fns = RuleFns::default();
    for a in set {
        let Some(def) = by_id(a.id) else { continue };
        fns.layers.extend((def.layers)(a, variant));
        fns.royalty.extend((def.royalty)(a));
        // Royalty written as data: the variant's own actions', a data preset's.
        if a.id == ACTIONS.id {
            fns.royalty.extend(actions::royalty_of(&variant.actions));
        } else if let Some(d) = data::by_id(a.id) {
            fns.royalty.extend(actions::royalty_of(&data::compiled(d, variant).0));
        }
    }
    fns
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
    &KING_HEALS,
    &QUEEN_SPLITS,
    &POISONED_SQUARES,
    &WRAP_BOARD,
    &LAST_PIECE_STANDING,
    &DUAL_KING,
    &WEAK_DUAL_KING,
    &STAMINA,
    &BERSERKER,
];

/// Lifecycle hook for presets that keep no state.
pub fn no_state(_world: &mut World, _a: &Activation) {}

/// Gives every piece, on the board and in hand, the fact `value` (on-activate of attribute
/// presets), recorded for undo when it happens during a move. A piece in hand has it as it
/// will be dropped (a piece captured into a hand is reset to it), so that a drop brings its
/// fact with it, as in Placement, whose pieces all start in hand.
pub fn give_every_piece<C: IntFact>(world: &mut World, value: C) {
    let pieces: Vec<(Entity, Option<i32>)> =
        world.query_filtered::<(Entity, Option<&C>), With<Piece>>().iter(world).map(|(e, c)| (e, c.map(|c| c.value()))).collect();
    for (e, old) in pieces {
        world.resource_mut::<UndoLog>().record_fact::<C>(e, old);
        world.entity_mut(e).insert(value);
    }
}

/// Removes the fact `C` from every piece (on-deactivate of attribute presets), recorded for
/// undo when it happens during a move (an expiry).
pub fn take_from_every_piece<C: IntFact>(world: &mut World) {
    let pieces: Vec<(Entity, i32)> = world.query::<(Entity, &C)>().iter(world).map(|(e, c)| (e, c.value())).collect();
    for (e, old) in pieces {
        world.resource_mut::<UndoLog>().record_fact::<C>(e, Some(old));
        world.entity_mut(e).remove::<C>();
    }
}

/// The engine's effective piece attributes: the union of the piece facts the active presets
/// declare, in activation order (what a save writes per piece and what the game displays).
pub fn effective_piece_attributes(world: &World) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    // A modifier profile's extra hit points are hit points too.
    if world.get_resource::<profile::ActiveProfile>().is_some_and(|p| p.table.hp) {
        out.push("Hp");
    }
    for a in world.get_resource::<ActivePresets>().map(|a| a.0.as_slice()).unwrap_or_default() {
        for attr in by_id(a.id).map(|d| d.piece_attributes).unwrap_or_default() {
            if !out.contains(attr) {
                out.push(attr);
            }
        }
        // The facts a variant declares for its own actions.
        if a.id == ACTIONS.id
            && let Some(rules) = world.get_resource::<Rules>()
        {
            for d in &rules.0.facts {
                if !out.contains(&d.name) {
                    out.push(d.name);
                }
            }
        }
    }
    out
}

/// A spawn hook for an attribute preset: a piece that appears mid-game (a split queen's
/// halves) gets the fact's starting `value` (the pipeline applies the preset's scope).
pub fn give_on_spawn<C: IntFact>(owner: &'static str, value: i32) -> Hook {
    Hook::new(owner, crate::rules::Step::Spawn, move |event: Res<crate::rules::PieceEvent>, mut commands: Commands| {
        commands.entity(event.entity).insert(C::with_value(value));
    })
}

/// A retract hook for an attribute preset: a piece that leaves the board (for any reason)
/// loses what happened to its fact and keeps only the starting `value`, so a piece captured
/// into a hand comes back fresh when dropped. Recorded for undo.
pub fn reset_on_retract<C: IntFact>(owner: &'static str, value: i32) -> Hook {
    Hook::new(
        owner,
        crate::rules::Step::Retract,
        move |event: Res<crate::rules::PieceEvent>, mut facts: Query<&mut C>, mut undo: ResMut<UndoLog>| {
            if let Ok(mut fact) = facts.get_mut(event.entity)
                && fact.value() != value
            {
                undo.record_fact::<C>(event.entity, Some(fact.value()));
                *fact = C::with_value(value);
            }
        },
    )
}

/// Every preset a variant may name: the Rust presets, then the data presets.
pub fn every() -> impl Iterator<Item = &'static PresetDef> {
    ALL.iter().copied().chain(data::all().iter().map(|d| d.def))
}

/// The preset with this id.
pub fn by_id(id: &str) -> Option<&'static PresetDef> {
    // `actions` runs a variant's own actions: the loader asks for it, a player does not.
    // Data presets are switched on by id as the Rust presets are.
    ALL.iter().copied().chain([&ACTIONS]).find(|p| p.id == id).or_else(|| data::by_id(id).map(|d| d.def))
}

/// The active presets, in activation order.
#[derive(Resource, Clone, Debug, Default)]
pub struct ActivePresets(pub Vec<Activation>);

/// The set last given to [`set_active_presets`], timed presets with their full duration: what
/// a FEN's `turns` section is read against once some of them have run out.
#[derive(Resource, Clone, Debug, Default)]
pub struct ConfiguredPresets(pub Vec<Activation>);

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
    /// A parameter the preset does not have, or a value it does not take.
    BadParam {
        /// The preset.
        preset: String,
        /// The parameter.
        name: String,
        /// What is wrong, with what is allowed.
        why: String,
    },
    /// Declared piece facts that cannot share a game: one name declared twice, a name a Rust
    /// preset's fact has, or more than a game holds.
    Facts(String),
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PresetError::Unknown(id) => write!(f, "no preset '{id}'"),
            PresetError::Incompatible(a, b) => write!(f, "'{a}' and '{b}' cannot be active together"),
            PresetError::Missing { preset, requires } => write!(f, "'{preset}' needs '{requires}' to be active too"),
            PresetError::Duplicate(id) => write!(f, "'{id}' is listed twice"),
            PresetError::BadParam { preset, name, why } => write!(f, "'{preset}' parameter '{name}': {why}"),
            PresetError::Facts(why) => write!(f, "piece facts: {why}"),
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
        check_params(def, a)?;
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

/// Every parameter of `a` is one `def` reads, a whole number in its range.
///
/// # Errors
/// [`PresetError::BadParam`] for the first that is not.
pub fn check_params(def: &PresetDef, a: &Activation) -> Result<(), PresetError> {
    for (name, &value) in &a.params {
        let bad = |why: String| PresetError::BadParam { preset: def.id.to_string(), name: name.clone(), why };
        let Some(spec) = def.params.iter().find(|p| p.name == name) else {
            let known: Vec<&str> = def.params.iter().map(|p| p.name).collect();
            return Err(bad(if known.is_empty() {
                "this preset takes no parameters".into()
            } else {
                format!("no such parameter; it takes {}", known.join(", "))
            }));
        };
        if !value.is_finite() || value.fract() != 0.0 || value < f64::from(spec.min) || value > f64::from(spec.max) {
            return Err(bad(format!("{value} is not a whole number from {} to {}", spec.min, spec.max)));
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
    let own = if set.iter().any(|a| a.id == ACTIONS.id) { world.get_resource::<Rules>().map(|r| r.0.facts.clone()) } else { None };
    // (The variant's modifier profile, applied after its presets, is read for its hit points.)
    let profile_hp = world.get_resource::<Rules>().is_some_and(|r| {
        let v = &r.0;
        v.profile
            .as_deref()
            .and_then(|text| crate::modifiers::Profile::from_ron(text).ok())
            .is_some_and(|p| crate::modifiers::compile(&p, v).is_ok_and(|c| c.gives_hp()))
    });
    check_facts(&set, &own.unwrap_or_default(), profile_hp)?;
    world.init_resource::<PresetState>();
    let old = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    for a in old.iter().filter(|a| !set.iter().any(|b| b.id == a.id)) {
        if let Some(def) = by_id(a.id) {
            (def.on_deactivate)(world, a);
            clear_state(world, a.id);
        }
    }
    // The set is in place before on-activate runs, so that pieces an on-activate spawns
    // are seen by the spawn hooks of the presets activated before it.
    world.insert_resource(ActivePresets(set.clone()));
    world.insert_resource(ConfiguredPresets(set.clone()));
    let mut hooks = hooks_of(&set, world);
    hooks.extend(profile::hooks(world));
    world.insert_resource(Hooks(hooks));
    install_rule_fns(world, &set);
    rebuild_pipelines(world);
    for a in set.iter().filter(|a| !old.iter().any(|b| b.id == a.id)) {
        if let Some(def) = by_id(a.id) {
            (def.on_activate)(world, a);
        }
    }
    refresh_position_hash(world);
    Ok(())
}

/// Installs the movement layers, royalty rules and extra hashers of `set` for the world's
/// variant.
fn install_rule_fns(world: &mut World, set: &[Activation]) {
    let fns = match world.get_resource::<Rules>() {
        Some(rules) => rule_fns_of(set, &rules.0),
        None => RuleFns::default(),
    };
    world.insert_resource(fns);
    let mut extras: Vec<ExtraHasher> = Vec::new();
    if !set.is_empty() {
        extras.push(hash_active_presets);
        extras.push(hash_preset_state);
    }
    extras.extend(set.iter().filter_map(|a| by_id(a.id).and_then(|d| d.hash_facts)));
    // Declared facts have their slots before anything reads them.
    facts::declare(world, &declared_facts(world, set));
    extras.extend(facts::hashers(world));
    world.insert_resource(HashExtras(extras));
    world.insert_resource(ForkCopiers(vec![fork_presets]));
    // With timed presets the FEN says how many turns each has left, even once all have run out.
    let timed = world.get_resource::<ConfiguredPresets>().is_some_and(|c| c.0.iter().any(|a| a.turns_left.is_some()));
    world.insert_resource(FenExtras(if set.is_empty() && !timed { Vec::new() } else { vec![write_fen_sections] }));
    // The modifier profile's layer, hashers and copier come after the presets' (outermost).
    profile::contribute(world);
}

/// Whether the facts the data presets of `set` and the variant's `own` declare can share a
/// game: each name declared once, none a fact of a Rust preset of the set (or the modifier
/// profile's hit points, `profile_hp`), at most [`action_compile::MAX_FACTS`].
///
/// # Errors
/// The first conflict, in words.
pub fn check_facts(set: &[Activation], own: &[crate::rules::FactDecl], profile_hp: bool) -> Result<(), PresetError> {
    let mut seen: Vec<(&'static str, &'static str)> = own.iter().map(|d| (d.name, "the variant")).collect();
    for a in set {
        let decls = data::by_id(a.id).map(|d| d.facts.clone()).unwrap_or_default();
        for d in decls {
            if let Some((_, other)) = seen.iter().find(|(n, _)| *n == d.name) {
                return Err(PresetError::Facts(format!("'{}' is declared by both '{other}' and '{}'", d.name, a.id)));
            }
            seen.push((d.name, a.id));
        }
    }
    let rust: Vec<&str> = set
        .iter()
        .filter(|a| data::by_id(a.id).is_none())
        .flat_map(|a| by_id(a.id).map(|d| d.piece_attributes).unwrap_or_default().iter().copied())
        .chain(profile_hp.then_some("Hp"))
        .collect();
    if let Some((name, by)) = seen.iter().find(|(n, _)| rust.contains(n)) {
        return Err(PresetError::Facts(format!("'{by}' declares '{name}', which a Rust preset (or the modifier profile) of the game has")));
    }
    if seen.len() > action_compile::MAX_FACTS {
        return Err(PresetError::Facts(format!("{} declared; a game holds at most {}", seen.len(), action_compile::MAX_FACTS)));
    }
    Ok(())
}

/// The facts the data presets of `set` and the variant's own actions declare.
fn declared_facts(world: &World, set: &[Activation]) -> Vec<crate::rules::FactDecl> {
    let mut out: Vec<crate::rules::FactDecl> = Vec::new();
    for a in set {
        let decls = match data::by_id(a.id) {
            Some(d) => d.facts.clone(),
            None if a.id == ACTIONS.id => world.get_resource::<Rules>().map(|r| r.0.facts.clone()).unwrap_or_default(),
            None => Vec::new(),
        };
        out.extend(decls.into_iter().filter(|d| !out.iter().any(|o| o.name == d.name)).collect::<Vec<_>>());
    }
    out
}

/// Installs the rules again from the active presets and the modifier profile (after a profile
/// was applied, swapped or taken back): hooks, layers, hashers; the pipelines are rebuilt. The
/// history's hashes are left alone (a swap at a turn boundary happens inside a move, before the
/// move's hash is recorded); between moves call [`refresh_position_hash`] after it.
pub fn reinstall_rules(world: &mut World) {
    let set = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    let mut hooks = hooks_of(&set, world);
    hooks.extend(profile::hooks(world));
    world.insert_resource(Hooks(hooks));
    install_rule_fns(world, &set);
    rebuild_pipelines(world);
}

/// The piece facts presets own, by the name a FEN section and `piece_attributes` use: how to
/// read one off a piece and how to give it.
/// A piece fact's name in the FEN, how to read it, set it, and take it away from a piece.
type FactAccess = (&'static str, fn(&World, Entity) -> Option<i32>, fn(&mut World, Entity, i32), fn(&mut World, Entity));

/// The value of the piece fact `name` (`Hp`, `Shield`, `Stamina`, `Crowned`) on a piece, for
/// views that draw facts by name ([`FactLook`]).
/// A declared fact (a data preset's, a variant's own) of that name is read from its slot.
pub fn piece_fact(piece: &bevy::ecs::world::EntityRef, slots: Option<&FactSlots>, name: &str) -> Option<i32> {
    match name {
        "Hp" => piece.get::<Hp>().map(|c| c.value()),
        "Shield" => piece.get::<Shield>().map(|c| c.value()),
        "Stamina" => piece.get::<Stamina>().map(|c| c.value()),
        "Crowned" => piece.get::<Crowned>().map(|c| c.value()),
        _ => None,
    }
    .or_else(|| facts::value_of(slots?, piece, name))
}

/// How the computer weighs a declared fact (see [`declared_fact_roles`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FactRole {
    /// An action's `Absorb` takes hits off it: hit points.
    HitPoints,
    /// A `Damaged` action soaks hits while it holds: a shield.
    Shield,
}

/// The declared facts of the active set that act as hit points or shields, read from the
/// actions that use them (the variant's own, the data presets').
pub fn declared_fact_roles(world: &World) -> Vec<(&'static str, FactRole)> {
    let Some(rules) = world.get_resource::<Rules>() else { return Vec::new() };
    let variant = &rules.0;
    let mut actions: Vec<crate::rules::Action> = Vec::new();
    for a in world.get_resource::<ActivePresets>().map(|a| a.0.as_slice()).unwrap_or_default() {
        if a.id == ACTIONS.id {
            actions.extend(variant.actions.iter().cloned());
        } else if let Some(d) = data::by_id(a.id) {
            actions.extend(data::compiled(d, variant).0);
        }
    }
    let mut out: Vec<(&'static str, FactRole)> = Vec::new();
    for action in &actions {
        for e in &action.effects {
            if let crate::rules::ActionEffect::Absorb(fact) = e {
                out.push((fact, FactRole::HitPoints));
            }
        }
        if action.when == crate::rules::Event::Damaged && action.effects.iter().any(|e| matches!(e, crate::rules::ActionEffect::Soak(_))) {
            for c in &action.conditions {
                if let crate::rules::Condition::Fact(crate::rules::Who::Hit, fact, _) = c {
                    out.push((fact, FactRole::Shield));
                }
            }
        }
    }
    out.dedup();
    out
}

/// A declared fact's value on a piece (a data preset's, a variant's own).
pub fn declared_fact(world: &World, e: Entity, name: &str) -> Option<i32> {
    facts::value(world, e, name)
}

/// Every way a piece fact is shown: the Rust presets', then the data presets' and the
/// variant's own declared facts' (one look per fact name).
pub fn fact_looks(variant: Option<&Variant>) -> Vec<FactLook> {
    let named = |l: &FactLook| match l {
        FactLook::Pips { fact, .. } | FactLook::Ring { fact, .. } => Some(*fact),
        FactLook::StateSquares { .. } => None,
    };
    let own: Vec<FactLook> = variant.map(|v| v.facts.iter().filter_map(facts::look_of).collect()).unwrap_or_default();
    let mut out: Vec<FactLook> = Vec::new();
    for look in ALL.iter().flat_map(|d| d.looks.iter()).chain(data::all().iter().flat_map(|d| d.def.looks.iter())).chain(own.iter()) {
        if named(look).is_none_or(|n| !out.iter().any(|l| named(l) == Some(n))) {
            out.push(*look);
        }
    }
    out
}

fn fact_get<C: IntFact>(world: &World, e: Entity) -> Option<i32> {
    world.get::<C>(e).map(|c| c.value())
}

fn fact_set<C: IntFact>(world: &mut World, e: Entity, v: i32) {
    world.entity_mut(e).insert(C::with_value(v));
}

fn fact_clear<C: IntFact>(world: &mut World, e: Entity) {
    world.entity_mut(e).remove::<C>();
}

const FACTS: [FactAccess; 4] = [
    ("Hp", fact_get::<Hp>, fact_set::<Hp>, fact_clear::<Hp>),
    ("Shield", fact_get::<Shield>, fact_set::<Shield>, fact_clear::<Shield>),
    ("Stamina", fact_get::<Stamina>, fact_set::<Stamina>, fact_clear::<Stamina>),
    (crate::rules::CROWNED_FACT, fact_get::<Crowned>, fact_set::<Crowned>, dual_king::uncrown),
];

/// The presets' sections of Chimera's trailing FEN field: each piece fact on the board
/// (`Hp=d5:1,e1:2`), per-preset state (`state=berserker/raging-on:35`), then the turns each
/// timed preset has left, 0 once it has run out (`turns=double-move:3`).
fn write_fen_sections(world: &mut World) -> Vec<String> {
    let Some(board) = world.get_resource::<crate::rules::Board>() else { return Vec::new() };
    let g = board.geometry;
    let pieces: Vec<(crate::rules::Square, Entity)> =
        board.entities.iter().enumerate().filter_map(|(i, e)| Some((crate::rules::Square(i as u8), (*e)?))).collect();
    let mut out = Vec::new();
    // Every fact an active preset gives is written, even with no piece holding it (a broken
    // shield, no crowned king left), so that the reader knows the pieces not named lack it.
    let attributes = effective_piece_attributes(world);
    // A declared fact (a data preset's, a variant's own) is written from its slot, even under
    // a Rust preset's fact's name (the data version of hit points writes `Hp`).
    let active = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    let declared = declared_facts(world, &active);
    for (name, get, _, _) in FACTS.into_iter().filter(|f| !declared.iter().any(|d| d.name == f.0)) {
        let values: Vec<String> = pieces.iter().filter_map(|&(sq, e)| Some(format!("{}:{}", g.name(sq), get(world, e)?))).collect();
        if !values.is_empty() || attributes.contains(&name) {
            out.push(format!("{name}={}", values.join(",")));
        }
    }
    // Declared facts (a data preset's, a variant's own), unless a Rust preset's has the name.
    for d in &declared {
        let values: Vec<String> =
            pieces.iter().filter_map(|&(sq, e)| Some(format!("{}:{}", g.name(sq), facts::value(world, e, d.name)?))).collect();
        out.push(format!("{}={}", d.name, values.join(",")));
    }
    if let Some(section) = world.get_resource::<PresetState>().and_then(|s| state::write_section(s, g)) {
        out.push(section);
    }
    if let Some(configured) = world.get_resource::<ConfiguredPresets>() {
        let active = &world.resource::<ActivePresets>().0;
        let values: Vec<String> = configured
            .0
            .iter()
            .filter(|c| c.turns_left.is_some())
            .map(|c| format!("{}:{}", c.id, active.iter().find(|a| a.id == c.id).and_then(|a| a.turns_left).unwrap_or(0)))
            .collect();
        if !values.is_empty() {
            out.push(format!("turns={}", values.join(",")));
        }
    }
    out
}

/// Reads the presets' sections of a FEN's trailing field into a game just set up: piece facts
/// replace the ones the presets gave, state replaces the presets' state.
///
/// # Errors
/// A section no active preset owns, a square without a piece, or a value that is not a number.
pub fn read_fen_sections(world: &mut World, sections: &[String]) -> Result<(), String> {
    let attributes = effective_piece_attributes(world);
    let active = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    let declared = declared_facts(world, &active);
    let g = world.resource::<Rules>().0.geometry;
    for section in sections {
        let (name, body) = section.split_once('=').ok_or_else(|| format!("trailing field: '{section}' is not name=values"))?;
        // The modifier profile's sections (bindings, carried damage).
        if profile::read_fen_section(world, name, body)? {
            continue;
        }
        let values = body
            .split(',')
            .filter(|v| !v.is_empty())
            .map(|v| v.rsplit_once(':').ok_or_else(|| format!("trailing field: '{v}' in {name} is not key:value")));
        // Read before the position was set up (see `set_position`).
        if name == "turns" {
            continue;
        }
        if name == "state" {
            world.insert_resource(state::read_section(body, g)?);
            continue;
        }
        // A declared fact (a data preset's, a variant's own), or a Rust preset's.
        let declared = declared.iter().any(|d| d.name == name) && facts::slot_of(world, name).is_some();
        let rust = if declared { None } else { FACTS.iter().find(|f| f.0 == name && attributes.contains(&f.0)).copied() };
        if rust.is_none() && !declared {
            return Err(format!("trailing field: no active preset has the piece fact '{name}'"));
        }
        let get = |world: &World, e: Entity| match rust {
            Some((_, get, _, _)) => get(world, e),
            None => facts::value(world, e, name),
        };
        let clear = |world: &mut World, e: Entity| match rust {
            Some((_, _, _, clear)) => clear(world, e),
            None => facts::clear(world, e, name),
        };
        let set = |world: &mut World, e: Entity, v: i32| match rust {
            Some((_, _, set, _)) => set(world, e, v),
            None => {
                facts::put(world, e, name, v);
            }
        };
        // The section names every piece that has the fact: the others lose what the presets
        // gave them when the position was set up.
        let named: Vec<&str> = body.split(',').filter_map(|v| v.rsplit_once(':')).map(|(sq, _)| sq).collect();
        let board = world.resource::<crate::rules::Board>();
        let unnamed: Vec<Entity> = (0..board.cells.len())
            .filter(|&i| !named.contains(&g.name(crate::rules::Square(i as u8)).as_str()))
            .filter_map(|i| board.entity(crate::rules::Square(i as u8)))
            .collect();
        for e in unnamed {
            if get(world, e).is_some() {
                clear(world, e);
            }
        }
        for kv in values {
            let (square, value) = kv?;
            let sq = g.parse_square(square).ok_or_else(|| format!("trailing field: '{square}' is not a square of this board"))?;
            let e = world
                .resource::<crate::rules::Board>()
                .entity(sq)
                .ok_or_else(|| format!("trailing field: no piece on {square} for {name}"))?;
            let v: i32 = value.parse().map_err(|_| format!("trailing field: '{value}' is not a whole number"))?;
            set(world, e, v);
        }
    }
    Ok(())
}

/// The active set a FEN's trailing field gives a game whose presets were `configured`: each
/// timed preset with the turns its `turns` section says it has left, and the ones at 0 gone, as
/// when they run out in play (without a `turns` section, the configured set).
///
/// # Errors
/// A `turns` entry that is not a timed preset of the game, or more turns than it lasts.
fn active_set_from(configured: &[Activation], sections: &[String]) -> Result<Vec<Activation>, String> {
    let Some(body) = sections.iter().find_map(|s| s.strip_prefix("turns=")) else { return Ok(configured.to_vec()) };
    let mut left = BTreeMap::new();
    for v in body.split(',').filter(|v| !v.is_empty()) {
        let (id, n) = v.rsplit_once(':').ok_or_else(|| format!("trailing field: '{v}' in turns is not key:value"))?;
        let full = configured.iter().find(|a| a.id == id).and_then(|a| a.turns_left);
        let Some(full) = full else { return Err(format!("trailing field: '{id}' in turns is not a timed preset of this game")) };
        let n: u32 =
            n.parse().ok().filter(|&n| n <= full).ok_or_else(|| format!("trailing field: {id} has {n} turns left; at most {full}"))?;
        if left.insert(id, n).is_some() {
            return Err(format!("trailing field: '{id}' is named twice in turns"));
        }
    }
    Ok(configured
        .iter()
        .filter(|a| left.get(a.id) != Some(&0))
        .map(|a| Activation { turns_left: left.get(a.id).copied().or(a.turns_left), ..a.clone() })
        .collect())
}

/// Puts `set` in place as the active presets with their hooks, rule functions and pipelines
/// (no on-activate or on-deactivate runs).
fn install_set(world: &mut World, set: Vec<Activation>) {
    let mut hooks = hooks_of(&set, world);
    hooks.extend(profile::hooks(world));
    world.insert_resource(Hooks(hooks));
    install_rule_fns(world, &set);
    rebuild_pipelines(world);
    world.insert_resource(ActivePresets(set));
}

/// Copies the presets' resources and piece facts into a fork of a game.
fn fork_presets(src: &World, dst: &mut World, map: &EntityMap) {
    if let Some(active) = src.get_resource::<ActivePresets>() {
        dst.insert_resource(active.clone());
    }
    if let Some(state) = src.get_resource::<PresetState>() {
        dst.insert_resource(state.clone());
    }
    if let Some(configured) = src.get_resource::<ConfiguredPresets>() {
        dst.insert_resource(configured.clone());
    }
    copy_fact::<Hp>(src, dst, map);
    copy_fact::<Shield>(src, dst, map);
    copy_fact::<Stamina>(src, dst, map);
    copy_fact::<Crowned>(src, dst, map);
    facts::fork(src, dst, map);
}

/// Copies a numeric piece fact to the pieces of a fork.
fn copy_fact<C: IntFact>(src: &World, dst: &mut World, map: &EntityMap) {
    let Some(mut facts) = src.try_query::<(Entity, &C)>() else { return };
    for (e, c) in facts.iter(src) {
        if let Some(&to) = map.get(&e) {
            dst.entity_mut(to).insert(*c);
        }
    }
}

/// A stable 64-bit hash of bytes (FNV-1a), for names in the position hash.
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01B3))
}

/// The active presets (ids, scopes, parameters, turns left) as a position-hash term.
fn hash_active_presets(world: &mut World) -> u64 {
    let Some(active) = world.get_resource::<ActivePresets>() else { return 0 };
    let mut h = 0x0AC7_1BE5u64;
    for (i, a) in active.0.iter().enumerate() {
        let mut x =
            hash_bytes(a.id.as_bytes()) ^ (i as u64) << 56 ^ (a.scope as u64) << 48 ^ a.turns_left.map_or(0, |t| t as u64 + 1) << 32;
        for (k, v) in &a.params {
            x ^= hash_bytes(k.as_bytes()).rotate_left(7) ^ v.to_bits();
        }
        h = mix(h ^ x);
    }
    h
}

/// The position-hash term of a numeric piece fact: every piece on the board with its value.
pub fn hash_fact<C: IntFact>(world: &mut World) -> u64 {
    world
        .run_system_cached(|facts: Query<(&Location, &C)>| {
            let salt = hash_bytes(std::any::type_name::<C>().as_bytes());
            facts.iter().filter_map(|(l, c)| Some(mix(salt ^ (l.square()?.0 as u64) << 32 ^ c.value() as u32 as u64))).fold(0, |h, x| h ^ x)
        })
        .unwrap_or(0)
}

/// Puts the full hash of the position as it now stands in the history's last entry (after
/// presets or a profile were switched on or off between moves).
pub fn refresh_position_hash(world: &mut World) {
    if world.get_resource::<History>().is_none() || world.get_resource::<crate::rules::Board>().is_none() {
        return;
    }
    let h = position_hash(world);
    if let Some(last) = world.resource_mut::<History>().0.last_mut() {
        *last = h;
    }
}

/// The hook systems of an active set, in activation order. A timed preset's hooks are gated
/// on it still being active, and the duration tick is added when any preset is timed.
fn hooks_of(set: &[Activation], world: &World) -> Vec<Hook> {
    let variant = world.get_resource::<Rules>().map(|r| &*r.0);
    let mut hooks = Vec::new();
    for a in set {
        let Some(def) = by_id(a.id) else { continue };
        let own = variant.map(|v| (def.variant_hooks)(a, v)).unwrap_or_default();
        // The pipeline enforces the activation's scope in the scope-aware steps (a hook that
        // judges by another side than the step's declares its own).
        for h in (def.hooks)(a).into_iter().chain(own).map(|h| if h.scope.is_none() { h.scoped(a.scope.sides()) } else { h }) {
            if a.turns_left.is_some() {
                let (id, make) = (a.id, h.make.clone());
                let gated: SystemFactory =
                    std::sync::Arc::new(move || make().run_if(move |active: Res<ActivePresets>| active.0.iter().any(|x| x.id == id)));
                hooks.push(Hook { make: gated, ..h });
            } else {
                hooks.push(h);
            }
        }
    }
    if set.iter().any(|a| a.turns_left.is_some()) {
        hooks.push(Hook::new("preset-durations", ApplySystems::DurationTick, tick_durations));
    }
    hooks
}

/// Step 7: when the turn has passed, every timed preset has one turn less; those at zero
/// run on-deactivate, lose their state and leave the active set. Undo restores all of it.
fn tick_durations(world: &mut World) {
    if !world.resource::<PendingMove>().turn_advanced {
        return;
    }
    let active = world.resource::<ActivePresets>().0.clone();
    let mut next = active.clone();
    let mut expired = Vec::new();
    for a in &mut next {
        if let Some(n) = a.turns_left.as_mut() {
            *n = n.saturating_sub(1);
            if *n == 0 {
                expired.push(a.clone());
            }
        }
    }
    let rebuild = !expired.is_empty();
    // The hooks change only when something expires; only then are they kept for undo.
    let old_hooks =
        rebuild.then(|| (world.resource::<Hooks>().0.clone(), world.resource::<RuleFns>().clone(), world.resource::<HashExtras>().clone()));
    world.resource_mut::<UndoLog>().record_restore(move |world| {
        world.insert_resource(ActivePresets(active.clone()));
        if let Some((hooks, fns, extras)) = &old_hooks {
            world.insert_resource(Hooks(hooks.clone()));
            world.insert_resource(fns.clone());
            world.insert_resource(extras.clone());
            rebuild_pipelines(world);
        }
    });
    next.retain(|a| a.turns_left != Some(0));
    if rebuild {
        install_rule_fns(world, &next);
    }
    world.insert_resource(ActivePresets(next));
    for a in &expired {
        if let Some(def) = by_id(a.id) {
            (def.on_deactivate)(world, a);
        }
        clear_state(world, a.id);
    }
    if rebuild {
        world.resource_mut::<Hooks>().0.retain(|h| !expired.iter().any(|a| a.id == h.owner));
        world.resource_mut::<PendingMove>().rebuild_pipelines = true;
    }
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

/// Sets up the position of `fen` in a game whose presets are active: the position is judged by
/// their rules (under hit points a king may stand attacked), their on-activate gives the new
/// pieces their facts, and the FEN's trailing field (`{...}`) restores facts and state.
///
/// # Errors
/// The FEN does not read, the position is impossible, or the trailing field does not fit the
/// active presets; nothing changes when the FEN itself is refused. A position the presets make
/// impossible once they start on it (dual-king's crowned queen attacked) is refused after it is
/// set up, as a trailing field that does not fit is.
pub fn set_position(world: &mut World, fen: &str) -> Result<(), String> {
    let variant = world.resource::<Rules>().0.clone();
    let setup = crate::rules::parse_fen(&variant, fen).map_err(|e| e.to_string())?;
    // Timed presets: the ones the FEN's `turns` section says have run out are off, the others
    // on with the turns it gives (all of them on, in full, without the section). The position
    // is judged by that set's rules, leniently once one has run out: it may have arisen while
    // the preset was on (a king left attacked under hit points).
    let old = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    let configured = world.get_resource::<ConfiguredPresets>().map(|c| c.0.clone());
    let set = match &configured {
        Some(configured) => Some(active_set_from(configured, &setup.extra)?),
        None => None,
    };
    let ran_out = matches!((&set, &configured), (Some(s), Some(c)) if s.len() != c.len());
    world.insert_resource(crate::rules::RulesRanOut(ran_out));
    let changed = set.as_ref().is_some_and(|s| s.len() != old.len());
    if let Some(set) = set {
        for a in old.iter().filter(|a| !set.iter().any(|b| b.id == a.id)) {
            clear_state(world, a.id);
        }
        if changed {
            install_set(world, set);
        } else {
            world.insert_resource(ActivePresets(set));
        }
    }
    let result = crate::rules::setup_position(world, &setup);
    world.insert_resource(crate::rules::RulesRanOut(false));
    if let Err(e) = result {
        if changed {
            install_set(world, old);
        }
        return Err(e.to_string());
    }
    restart_presets(world);
    profile::restart(world);
    read_fen_sections(world, &setup.extra)?;
    // Presets that change pieces when they start (dual-king crowns the queens) may leave the
    // side not to move in check, which the position as written did not show.
    crate::rules::refuse_waiting_in_check(world, ran_out).map_err(|e| e.to_string())?;
    if !ran_out {
        crate::rules::rejudge_decided(world);
    }
    refresh_position_hash(world);
    Ok(())
}

/// Runs on-activate again for every active preset, on a position just set up (its pieces are
/// new), after clearing their state.
pub fn restart_presets(world: &mut World) {
    let active = world.get_resource::<ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
    for a in &active {
        world.init_resource::<PresetState>();
        world.resource_mut::<PresetState>().0.remove(a.id);
        if let Some(def) = by_id(a.id) {
            (def.on_activate)(world, a);
        }
    }
    refresh_position_hash(world);
}
