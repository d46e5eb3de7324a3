//! Modifier profiles (`modifier-profiles-adr.md`): per-type and per-piece modifiers that wrap a
//! piece's move generator, stack by kind, swap at turn boundaries and pass a validator.
//!
//! - **Registry** (ADR-8): each kind is one file here, a self-describing [`ModifierDef`] (id,
//!   attribute name, label, value schema, stacking rule, apply, describe, form), registered in
//!   [`ModifierRegistry`] (`register`, `get`, `list`, `has`).
//! - **Profiles** (ADR-2, ADR-7) are data ([`Profile`], RON): an optional layout (the variant id
//!   whose start the per-instance keys name), per-type entries keyed by piece letter (`"R"`, or
//!   `"white:R"` for one side), per-instance entries keyed by starting square. One profile is
//!   active per game. At game start a per-instance entry binds to the piece on its square and
//!   follows it (promotion included) until it is captured; pieces spawned or dropped later get
//!   per-type entries only. The binding is a *mark* on the square index
//!   ([`Board::marks`](crate::rules::Board)), so every position the kernel makes, trials
//!   included, knows which piece is which, and the hash covers it.
//! - **Wrap chain** (ADR-1, ADR-5): a profile's movement is one layer of the kind
//!   [`LayerKind::Profile`](crate::rules::LayerKind), outermost: the override or type generator,
//!   preset transforms in activation order, then the profile. Its per-type and per-instance
//!   entries stack first (both movement kinds are unions or sums, so the two wrappers commute and
//!   compose as one): the added directions' moves are appended, the finite slides of the piece's
//!   own movement are lengthened, and captures are dropped for `CANNOT_CAPTURE`. Generation and
//!   check detection both run it. *Departure*: the profile also wraps an overridden piece's
//!   moves (preset-api.md's step 2.1 would skip the later steps for it; ADR-5 puts the profile
//!   above presets). The range bonus lengthens the slides of the Betza that describes the inner
//!   generator: the type's own, or the one an overriding preset declares
//!   ([`MoveLayer::betza`](crate::rules::MoveLayer)); moves a preset adds in code are not lengthened.
//! - **Stacking** (ADR-4): [`Stacking`] per kind, applied in precedence order, per-type entries
//!   before per-instance ones. The range bonus is clamped to `0..=n-1` where n is the longer
//!   side of the board (7 on 8×8), the board's diagonal reach.
//! - **Hot swap** (ADR-3): [`request_swap`](crate::presets::request_swap) validates at once and queues; the swap is applied at
//!   the next turn boundary (after-move of a move that flips the turn, never between the halves
//!   of a double move), reconciled kind by kind, noted on that move's record, and taken back with
//!   it. Hit points: the maximum is recomputed, the current value never grows.
//! - **Validator** (ADR-6, [`validate_profile`](crate::presets::validate_profile)): `E_PROFILE_NO_KING`, `E_PROFILE_INVULN_KING`,
//!   `E_PROFILE_ORPHAN_INSTANCE` (a warning; the entry is dropped), `E_PROFILE_DEADLOCK`,
//!   `E_PROFILE_ATTR_LIMIT` (16 resolved attributes per piece). *Departure*: a profile cannot
//!   change which pieces are royal, so check 1 judges the sides the variant gives a royal piece
//!   (by the Royalty step's set on its start position): such a side with none left in the
//!   position (a king exploded in Atomic) refuses a profile; sides without royalty (Horde's
//!   white, Antichess) are not judged. Check 2 judges every royal piece on the board. Errors
//!   reject the whole apply; nothing changes.
//!   *Departure*: in a desktop game the engine in the same process is the authority; a rejection
//!   is returned to the caller (the "NACK") with its codes.
//!
//! This module is the profiles' model: their data, kinds, stacking and compilation against a
//! variant. Putting a profile in a game (binding pieces, its layer and hooks, hit points next
//! to piece-hp's, swaps) is `presets/profile.rs`, where it meets the presets.
//!
//! Layer: uses `rules` only.

mod capture_flags;
mod damage_resistance;
mod direction_additions;
mod hp_bonus;
mod promotion_override;
mod range_bonus;

use std::collections::BTreeMap;
use std::fmt;

use crate::rules::{Atom, PieceType, Side, Variant};

pub use capture_flags::{CANNOT_BE_CAPTURED, CANNOT_CAPTURE, CAPTURE_FLAGS};
pub use damage_resistance::DAMAGE_RESISTANCE;
pub use direction_additions::DIRECTION_ADDITIONS;
pub use hp_bonus::HP_BONUS;
pub use promotion_override::PROMOTION_OVERRIDE;
pub use range_bonus::RANGE_BONUS;

/// A modifier's value as a profile file writes it: `2`, `0.5`, `"F"`, `["CANNOT_CAPTURE"]`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A number with a fraction.
    Float(f64),
    /// Text: Betza, letters, one flag.
    Text(String),
    /// A list of names.
    List(Vec<String>),
}

/// What values a kind takes.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum ValueSchema {
    /// A whole number in `min..=max`.
    Whole {
        /// Smallest.
        min: i32,
        /// Largest.
        max: i32,
    },
    /// A fraction in `0..=1`.
    Fraction,
    /// Betza notation.
    Betza,
    /// A list of these flag names.
    Flags(&'static [&'static str]),
    /// Piece letters of the variant.
    Letters,
}

impl ValueSchema {
    /// A whole-number value, checked.
    pub fn whole(&self, v: &Value) -> Result<i32, String> {
        let ValueSchema::Whole { min, max } = *self else { return Err("not a whole-number modifier".into()) };
        match v {
            Value::Int(n) if (i64::from(min)..=i64::from(max)).contains(n) => Ok(*n as i32),
            Value::Float(x) if x.fract() == 0.0 && (f64::from(min)..=f64::from(max)).contains(x) => Ok(*x as i32),
            other => Err(format!("expected a whole number from {min} to {max}, found {}", show(other))),
        }
    }

    /// A fraction value, checked.
    pub fn fraction(&self, v: &Value) -> Result<f64, String> {
        let x = match v {
            Value::Int(n) => *n as f64,
            Value::Float(x) => *x,
            other => return Err(format!("expected a fraction from 0 to 1, found {}", show(other))),
        };
        if x.is_finite() && (0.0..=1.0).contains(&x) { Ok(x) } else { Err(format!("expected a fraction from 0 to 1, found {x}")) }
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::Int(n) => n.to_string(),
        Value::Float(x) => x.to_string(),
        Value::Text(t) => format!("\"{t}\""),
        Value::List(l) => format!("{l:?}"),
    }
}

/// How values from several sources combine (ADR-4).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stacking {
    /// The sum.
    Additive,
    /// The sum, clamped to the board's reach.
    AdditiveClamped,
    /// The union of sets.
    Union,
    /// Flags OR'd together.
    Or,
    /// The most specific source wins (per-instance > per-type > preset).
    Precedence,
    /// `1 − ∏(1 − rᵢ)`, clamped `≥ 0`.
    Multiplicative,
}

/// A control of the profile editor's form for a kind.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Widget {
    /// A whole number in `min..=max`.
    Whole {
        /// Smallest.
        min: i32,
        /// Largest.
        max: i32,
    },
    /// A slider from 0 to 1.
    Fraction,
    /// A Betza text field.
    Betza,
    /// Checkboxes: (flag, label).
    Checkboxes(&'static [(&'static str, &'static str)]),
    /// Piece letters.
    Letters,
}

/// One field of a kind's form.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct FormField {
    /// The value it edits (the kind's id).
    pub key: &'static str,
    /// Its label.
    pub label: &'static str,
    /// Its control.
    pub widget: Widget,
}

/// One modifier kind, self-described (ADR-8).
pub struct ModifierDef {
    /// Stable id, the key in a profile entry.
    pub id: &'static str,
    /// The attribute it sets.
    pub attr_name: &'static str,
    /// Label for players.
    pub label: &'static str,
    /// The values it takes.
    pub schema: ValueSchema,
    /// How several sources combine.
    pub stacking: Stacking,
    /// Adds one source's value to a piece's resolved modifiers (checking it).
    pub apply: fn(&mut Mods, &Value, &Variant) -> Result<(), String>,
    /// The value in words.
    pub describe: fn(&Value) -> String,
    /// The editor's form.
    pub ui_form: &'static [FormField],
}

impl fmt::Debug for ModifierDef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModifierDef").field("id", &self.id).finish()
    }
}

/// The modifier kinds by id.
#[derive(Clone, Debug)]
pub struct ModifierRegistry {
    defs: Vec<&'static ModifierDef>,
}

impl ModifierRegistry {
    /// An empty registry.
    pub fn new() -> ModifierRegistry {
        ModifierRegistry { defs: Vec::new() }
    }

    /// The six kinds of this build.
    pub fn builtin() -> ModifierRegistry {
        let mut r = ModifierRegistry::new();
        for def in [&HP_BONUS, &RANGE_BONUS, &DIRECTION_ADDITIONS, &CAPTURE_FLAGS, &PROMOTION_OVERRIDE, &DAMAGE_RESISTANCE] {
            r.register(def).expect("the built-in kinds have distinct ids");
        }
        r
    }

    /// Adds a kind.
    ///
    /// # Errors
    /// A kind with this id is already registered.
    pub fn register(&mut self, def: &'static ModifierDef) -> Result<(), String> {
        if self.has(def.id) {
            return Err(format!("a modifier '{}' is already registered", def.id));
        }
        self.defs.push(def);
        Ok(())
    }

    /// The kind with this id.
    pub fn get(&self, id: &str) -> Option<&'static ModifierDef> {
        self.defs.iter().copied().find(|d| d.id == id)
    }

    /// Every kind, in registration order.
    pub fn list(&self) -> &[&'static ModifierDef] {
        &self.defs
    }

    /// Whether a kind with this id is registered.
    pub fn has(&self, id: &str) -> bool {
        self.get(id).is_some()
    }
}

impl Default for ModifierRegistry {
    fn default() -> Self {
        Self::builtin()
    }
}

/// One entry: modifier id → value.
pub type Entry = BTreeMap<String, Value>;

/// A modifier profile, as its RON file writes it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Stable id.
    pub id: String,
    /// Display name.
    #[serde(default)]
    pub name: Option<String>,
    /// The variant (layout) whose start position the per-instance keys name; `None`: any.
    #[serde(default)]
    pub layout: Option<String>,
    /// Per-type entries: piece letter (`"R"`, both sides) or side and letter (`"white:R"`).
    #[serde(default)]
    pub types: BTreeMap<String, Entry>,
    /// Per-instance entries by starting square (`"b1"`).
    #[serde(default)]
    pub instances: BTreeMap<String, Entry>,
}

/// The profiles that come with the game (`profiles/*.ron`), as `(id, RON text)`.
pub const BUILTIN: &[(&str, &str)] =
    &[("long-stride", include_str!("../../profiles/long-stride.ron")), ("sturdy-rooks", include_str!("../../profiles/sturdy-rooks.ron"))];

/// A built-in profile by id.
pub fn builtin(id: &str) -> Option<Profile> {
    BUILTIN.iter().find(|(i, _)| *i == id).and_then(|(_, text)| Profile::from_ron(text).ok())
}

/// A profile named on the command line: a built-in id, or a `.ron` file.
///
/// # Errors
/// Neither a built-in id nor a readable profile file.
pub fn load_profile(name: &str) -> Result<Profile, String> {
    if let Some(p) = builtin(name) {
        return Ok(p);
    }
    if !name.ends_with(".ron") {
        let known: Vec<&str> = BUILTIN.iter().map(|(id, _)| *id).collect();
        return Err(format!("no modifier profile '{name}'; there are {} (or give a .ron file)", known.join(", ")));
    }
    let text = crate::rules::read_text(std::path::Path::new(name)).map_err(|e| format!("{name}: {e}"))?;
    Profile::from_ron(&text).map_err(|e| format!("{name}: {e}"))
}

impl Profile {
    /// Reads a profile from RON text.
    ///
    /// # Errors
    /// The text is not a profile (with line and column).
    pub fn from_ron(text: &str) -> Result<Profile, String> {
        ron::from_str(text).map_err(|e| format!("profile: {e}"))
    }

    /// The profile as RON text on one line (for a PGN tag).
    pub fn to_ron_line(&self) -> String {
        ron::to_string(self).unwrap_or_default()
    }

    /// The profile as RON text (reads back to the same profile).
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default()
    }
}

/// A problem with a profile, with its stable code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProfileProblem {
    /// Stable code (`E_PROFILE_…`).
    pub code: &'static str,
    /// Whether it only warns (the profile still applies).
    pub warning: bool,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for ProfileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}: {}", self.code, if self.warning { " (warning)" } else { "" }, self.message)
    }
}

/// Error: a profile entry names no kind or has a bad value, or a key is not a piece or square.
pub const E_PROFILE_ENTRY: &str = "E_PROFILE_ENTRY";
/// Error: a side that has a royal piece would have none.
pub const E_PROFILE_NO_KING: &str = "E_PROFILE_NO_KING";
/// Error: a royal piece would be `CANNOT_BE_CAPTURED`.
pub const E_PROFILE_INVULN_KING: &str = "E_PROFILE_INVULN_KING";
/// Warning: a per-instance entry names a square the layout does not hold; it is dropped.
pub const E_PROFILE_ORPHAN_INSTANCE: &str = "E_PROFILE_ORPHAN_INSTANCE";
/// Error: a side would have no legal move.
pub const E_PROFILE_DEADLOCK: &str = "E_PROFILE_DEADLOCK";
/// Error: a piece would have more than [`MAX_ATTRIBUTES`] resolved attributes.
pub const E_PROFILE_ATTR_LIMIT: &str = "E_PROFILE_ATTR_LIMIT";

/// The most resolved attributes a piece may have.
pub const MAX_ATTRIBUTES: usize = 16;

/// A piece's resolved modifiers: every source stacked.
#[derive(Clone, Debug, PartialEq)]
pub struct Mods {
    /// Extra hit points.
    pub hp_bonus: i32,
    /// Extra squares on finite slides (clamped when resolved).
    pub range_bonus: i32,
    /// Added atoms (union).
    pub added: Vec<Atom>,
    /// The Betza texts they came from, joined with `+`.
    pub added_betza: String,
    /// Capture flags ([`CANNOT_BE_CAPTURED`], [`CANNOT_CAPTURE`]).
    pub capture: u8,
    /// Promotion choices, when overridden.
    pub promotion: Option<Vec<PieceType>>,
    /// ∏(1 − rᵢ): the share of a hit that lands.
    pub keep: f64,
    /// Whether any resistance was given.
    pub resisted: bool,
}

impl Default for Mods {
    fn default() -> Mods {
        Mods {
            hp_bonus: 0,
            range_bonus: 0,
            added: Vec::new(),
            added_betza: String::new(),
            capture: 0,
            promotion: None,
            keep: 1.0,
            resisted: false,
        }
    }
}

impl Mods {
    /// Whether it changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == Mods::default()
    }

    /// Whether it changes the piece's movement.
    pub fn moves(&self) -> bool {
        self.range_bonus != 0 || !self.added.is_empty() || self.capture & CANNOT_CAPTURE != 0
    }

    /// The resisted share in thousandths (`1 − ∏(1 − rᵢ)`, clamped to 0..=1000).
    pub fn resistance_milli(&self) -> i32 {
        ((1.0 - self.keep) * 1000.0).round().clamp(0.0, 1000.0) as i32
    }

    /// How many attributes it resolves to: one per number or resistance, one per added
    /// direction, flag and promotion choice.
    pub fn attributes(&self) -> usize {
        usize::from(self.hp_bonus != 0)
            + usize::from(self.range_bonus != 0)
            + self.added.len()
            + self.capture.count_ones() as usize
            + self.promotion.as_ref().map_or(0, Vec::len)
            + usize::from(self.resisted)
    }

    /// Clamps the range bonus to the board's reach (ADR-4).
    fn finish(mut self, variant: &Variant) -> Mods {
        let reach = i32::from(variant.geometry.files.max(variant.geometry.ranks)) - 1;
        self.range_bonus = self.range_bonus.clamp(0, reach);
        self
    }

    /// Stacks one entry onto these modifiers.
    fn stack(&mut self, entry: &Entry, variant: &Variant, registry: &ModifierRegistry) -> Result<(), String> {
        for (id, value) in entry {
            let def = registry.get(id).ok_or_else(|| {
                let known: Vec<&str> = registry.list().iter().map(|d| d.id).collect();
                format!("no modifier '{id}'; there are {}", known.join(", "))
            })?;
            (def.apply)(self, value, variant).map_err(|e| format!("{id}: {e}"))?;
        }
        Ok(())
    }

    /// The modifiers in words, one phrase per entry value (`describe`), for the rules panel.
    pub fn describe_entry(entry: &Entry, registry: &ModifierRegistry) -> Vec<String> {
        entry.iter().filter_map(|(id, v)| registry.get(id).map(|d| (d.describe)(v))).collect()
    }
}

/// A profile read against a variant: per-type entries per side and type, per-instance entries
/// by square, every value checked.
#[derive(Clone, Debug, Default)]
pub struct Compiled {
    /// The profile.
    pub profile: Profile,
    /// `[side][type]`: the stacked per-type entries.
    pub per_type: [Vec<Mods>; 2],
    /// The per-instance entries kept, by square, each on its own (not stacked with its type).
    pub instances: Vec<(crate::rules::Square, Entry)>,
    /// Warnings (orphaned instances).
    pub warnings: Vec<ProfileProblem>,
}

impl Compiled {
    /// Whether it gives some piece extra hit points (the game's pieces then carry an `Hp`
    /// fact).
    pub fn gives_hp(&self) -> bool {
        self.per_type.iter().flatten().any(|m| m.hp_bonus != 0) || self.instances.iter().any(|(_, e)| e.contains_key(HP_BONUS.id))
    }
}

/// Reads a profile against a variant: every key and value checked; per-instance entries for
/// squares the layout does not hold are dropped with a warning, and all of them when the
/// layout names another variant.
///
/// # Errors
/// The problems (`E_PROFILE_ENTRY`), naming the entry.
pub fn compile(profile: &Profile, variant: &Variant) -> Result<Compiled, Vec<ProfileProblem>> {
    let registry = ModifierRegistry::builtin();
    let mut problems = Vec::new();
    let error = |message: String| ProfileProblem { code: E_PROFILE_ENTRY, warning: false, message };
    let n = variant.registry.types.len();
    let mut per_type = [vec![Mods::default(); n], vec![Mods::default(); n]];
    for (key, entry) in &profile.types {
        let (sides, letter) = match key.split_once(':') {
            Some(("white", l)) => (vec![Side::White], l),
            Some(("black", l)) => (vec![Side::Black], l),
            Some((other, _)) => {
                problems.push(error(format!("types.\"{key}\": '{other}' is not white or black")));
                continue;
            }
            None => (vec![Side::White, Side::Black], key.as_str()),
        };
        let kind = letter.chars().next().filter(|_| letter.chars().count() == 1).and_then(|c| variant.registry.by_letter(c));
        let Some(kind) = kind.or_else(|| variant.registry.by_name(&letter.to_lowercase())) else {
            problems.push(error(format!("types.\"{key}\": no piece type '{letter}' in this variant")));
            continue;
        };
        for side in sides {
            if let Err(e) = per_type[side.index()][kind.0 as usize].stack(entry, variant, &registry) {
                problems.push(error(format!("types.\"{key}\": {e}")));
            }
        }
    }
    let mut instances = Vec::new();
    let mut warnings = Vec::new();
    let other_layout = profile.layout.as_deref().filter(|l| !same_layout(l, variant));
    for (key, entry) in &profile.instances {
        // Each value is checked even when the entry is dropped.
        if let Err(e) = Mods::default().stack(entry, variant, &registry) {
            problems.push(error(format!("instances.\"{key}\": {e}")));
            continue;
        }
        let orphan = |why: String| ProfileProblem { code: E_PROFILE_ORPHAN_INSTANCE, warning: true, message: why };
        if let Some(layout) = other_layout {
            warnings.push(orphan(format!("instances.\"{key}\": the profile is for '{layout}', this game is '{}'; dropped", variant.id)));
            continue;
        }
        match variant.geometry.parse_square(key) {
            Some(sq) => instances.push((sq, entry.clone())),
            None => warnings.push(orphan(format!("instances.\"{key}\": not a square of this board; dropped"))),
        }
    }
    if instances.len() > usize::from(u8::MAX) {
        problems.push(error(format!("{} per-instance entries; at most {}", instances.len(), u8::MAX)));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Compiled { profile: profile.clone(), per_type, instances, warnings })
}

/// Whether `layout` (a catalogue variant's id) is the start of `variant`: its own id, or a
/// variant whose start position has the same pieces on the same squares (a variant that
/// extends chess keeps chess's layout).
fn same_layout(layout: &str, variant: &Variant) -> bool {
    let board = |fen: &str| fen.split_whitespace().next().unwrap_or_default().to_string();
    layout == variant.id
        || variant
            .layouts
            .and_then(|find| find(layout))
            .is_some_and(|(g, placement)| g == variant.geometry && placement == board(&variant.start_fen))
}

/// A piece's resolved modifiers: its type's entries (per side), then its own instance entry.
pub fn resolve(
    compiled: &Compiled,
    variant: &Variant,
    registry: &ModifierRegistry,
    kind: PieceType,
    side: Side,
    instance: Option<&Entry>,
) -> Mods {
    let mut mods = compiled.per_type[side.index()].get(kind.0 as usize).cloned().unwrap_or_default();
    if let Some(entry) = instance {
        // Checked when the profile was compiled.
        let _ = mods.stack(entry, variant, registry);
    }
    mods.finish(variant)
}
