//! The variant format's `actions` as written (see `presets/README.md`, "Actions"): compiled by
//! the loader into [`crate::rules::Action`]s, which the `actions` preset runs.

use serde::{Deserialize, Serialize};

/// The newest `format` this build reads. Format 2 brought `actions`; a file without `format`
/// is format 1.
pub const FORMAT: u32 = 2;

/// One action: `when` an event happens, `if` its conditions hold, `then` its effects.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionSpec {
    /// Its name (unique in the file): what it takes over is taken in its name.
    pub name: String,
    /// The event.
    pub when: EventSpec,
    /// Conditions, all of which must hold.
    #[serde(rename = "if", default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<ConditionSpec>,
    /// Effects, in order.
    pub then: Vec<EffectSpec>,
    /// Whose moves it answers: both sides when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sides: Option<crate::presets::Scope>,
}

/// An event.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventSpec {
    /// A capture, before it happens.
    Capture,
    /// A move, once made.
    Moved,
    /// The game's result being decided after a move.
    Result,
}

/// A piece an action speaks of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhoSpec {
    /// The piece that moves.
    Mover,
    /// The piece it captures.
    Victim,
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ConditionSpec {
    /// The move captures.
    Captures,
    /// The piece is of the type of this name (or letter).
    Is(WhoSpec, String),
    /// The piece's type is royal.
    Royal(WhoSpec),
    /// The piece stands in the region of this name.
    In(WhoSpec, String),
    /// The condition does not hold.
    Not(Box<ConditionSpec>),
}

/// An effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EffectSpec {
    /// Takes the capture over (only on `Capture`).
    TakeCapture,
    /// Deals damage.
    Damage(DamageSpec),
    /// Removes the piece.
    Remove(WhoSpec),
    /// The piece's side wins, for this reason (only on `Result`).
    Win(WhoSpec, String),
    /// Plays an animation at the piece's square.
    Show(ShowSpec, WhoSpec),
    /// Annotates the move.
    Note(String),
}

/// Damage to a piece or an area.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DamageSpec {
    /// The piece, or the area's centre.
    pub at: WhoSpec,
    /// 0 (or left out): the piece only; 1: the 3×3 square round it, and so on.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub around: u8,
    /// Points of damage (1 when left out).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub amount: i32,
    /// What kind of damage.
    pub kind: DamageKindSpec,
    /// Types (names or letters) an area spares.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spare: Vec<String>,
}

fn one() -> i32 {
    1
}

fn is_one(n: &i32) -> bool {
    *n == 1
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A kind of damage.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageKindSpec {
    /// An explosion.
    Explosion,
    /// Poison.
    Poison,
}

/// An animation.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShowSpec {
    /// A blast.
    Explosion,
    /// Poison.
    Poison,
    /// Sparkles.
    Sparkle,
}
