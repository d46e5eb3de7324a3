//! Rules as data as written: the `actions` and `facts` of a variant file and of a data preset
//! (see `presets/README.md`, "Actions"). [`super::action_compile`] turns them into
//! [`crate::rules::Action`]s and [`crate::rules::FactDecl`]s, which the `actions` preset and
//! the data presets run.

use serde::{Deserialize, Serialize};

/// The newest `format` this build reads. Format 2 brought `actions` and `facts`; a file
/// without `format` is format 1.
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
    pub sides: Option<super::Scope>,
    /// The piece types (names or letters) it is attached to: on `TurnStart` and `TurnEnd` it
    /// runs for each such piece, which `This` names; on `Spawned` and `Removed`, the types it
    /// answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pieces: Vec<String>,
}

/// An event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EventSpec {
    /// A move, before it is made.
    BeforeMove,
    /// A capture, before it happens.
    Capture,
    /// A piece takes damage.
    Damaged,
    /// The turn is about to pass.
    TurnEnd,
    /// A move, once made.
    Moved,
    /// A side's turn starts.
    TurnStart,
    /// The game's result being decided after a move.
    Result,
    /// The legal moves being listed, move by move.
    Listing,
    /// The royal pieces being gathered.
    Royalty,
    /// A move, once made, whose piece stands in the region of this name.
    Arrives(String),
    /// A move, once made, whose piece left the region of this name.
    Leaves(String),
    /// A move, once made, that gives check.
    Check,
    /// A move, once made, that promotes.
    Promotion,
    /// A move, once made, that drops a piece from the hand.
    Drop,
    /// A piece appears on the board.
    Spawned,
    /// A piece leaves the board.
    Removed,
    /// A turn starts after a multiple of this many turns.
    Every(u16),
}

/// A side, from the side that moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CampSpec {
    /// The side that moves.
    Mover,
    /// The other side.
    Other,
}

/// A piece an action speaks of.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WhoSpec {
    /// The piece that moves.
    Mover,
    /// The piece it captures.
    Victim,
    /// The piece a hit lands on.
    Hit,
    /// The piece the action is attached to.
    This,
}

/// A side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SideSpec {
    /// White.
    White,
    /// Black.
    Black,
}

/// A comparison with a number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CompareSpec {
    /// At least this.
    AtLeast(i32),
    /// At most this.
    AtMost(i32),
    /// Exactly this.
    Exactly(i32),
}

/// A condition.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ConditionSpec {
    /// The move captures.
    Captures,
    /// The move promotes.
    Promotes,
    /// The piece is of the type of this name (or letter).
    Is(WhoSpec, String),
    /// The piece's type is royal.
    Royal(WhoSpec),
    /// The piece belongs to this side.
    Side(WhoSpec, SideSpec),
    /// The piece stands in the region of this name.
    In(WhoSpec, String),
    /// The piece's fact of this name passes the comparison.
    Fact(WhoSpec, String, CompareSpec),
    /// The half-moves made this turn pass the comparison.
    MovesThisTurn(CompareSpec),
    /// The side's pieces on the board, counted, pass the comparison.
    PiecesOf(CampSpec, CompareSpec),
    /// One of the moves being listed captures (only on `Listing`).
    CaptureListed,
    /// The side now to move is this one.
    ToMove(CampSpec),
    /// The side now to move has no legal move (only on `Result`).
    NoLegalMove,
    /// The move drops a piece.
    Drops,
    /// The move castles.
    Castles,
    /// The side's pieces of these types (names or letters) on the board, counted, pass.
    Count(CampSpec, Vec<String>, CompareSpec),
    /// The side's pieces of these types (none: any type) in hand, counted, pass.
    InHand(CampSpec, Vec<String>, CompareSpec),
    /// A royal piece of the side is attacked.
    InCheck(CampSpec),
    /// The full-move number passes.
    Turn(CompareSpec),
    /// The piece's rank from its own side (1: its back rank) passes.
    Rank(WhoSpec, CompareSpec),
    /// The piece's file from the a-file (1) passes.
    File(WhoSpec, CompareSpec),
    /// A state value of this name (`key`, the preset's own; `preset/key`, another preset's)
    /// passes; absent, it is 0.
    State(String, CompareSpec),
    /// The condition does not hold.
    Not(Box<ConditionSpec>),
    /// One of the conditions holds.
    Any(Vec<ConditionSpec>),
}

/// Where a spawned piece appears.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlaceSpec {
    /// The square the move leaves.
    From,
    /// The square the move goes to.
    To,
    /// Where the piece stands.
    At(WhoSpec),
}

/// An effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum EffectSpec {
    /// Takes the capture over (only on `Capture`).
    TakeCapture,
    /// Strikes the piece as a capture does; if it lives, the rest is skipped.
    Strike(WhoSpec),
    /// Deals damage.
    Damage(DamageSpec),
    /// The hit piece's fact of this name takes the hit (only on `Damaged`).
    Absorb(String),
    /// Takes up to this many points off the hit (only on `Damaged`).
    Soak(i32),
    /// Adds to the piece's fact.
    AddFact(WhoSpec, String, i32),
    /// Sets the piece's fact.
    SetFact(WhoSpec, String, i32),
    /// Removes the piece.
    Remove(WhoSpec),
    /// The piece becomes one of this type (name or letter).
    Transform(WhoSpec, String),
    /// The piece changes sides.
    ChangeSide(WhoSpec),
    /// A piece of this type (name or letter) of the mover's side appears there.
    Spawn(String, PlaceSpec),
    /// The move is not listed (only on `Listing`).
    Forbid,
    /// Check does not restrict moves (only on `Listing`).
    AllowCheck,
    /// The pieces of these types (names or letters) are royal; none: nothing is (only on
    /// `Royalty`).
    Royal(Vec<String>),
    /// The side moves again (only on `TurnEnd`).
    ExtraMove,
    /// The move is not made, for this reason (only on `BeforeMove`).
    Cancel(String),
    /// The piece's side wins, for this reason (only on `Result`).
    Win(WhoSpec, String),
    /// The piece's side loses, for this reason (only on `Result`).
    Lose(WhoSpec, String),
    /// The game is drawn, for this reason (only on `Result`).
    Draw(String),
    /// The piece goes to this side's hand.
    ToHand(WhoSpec, CampSpec),
    /// A piece of this type (name or letter) comes from the mover's hand onto the board.
    FromHand(String, PlaceSpec),
    /// Sets the state value of this name.
    SetState(String, i32),
    /// Adds to the state value of this name.
    AddState(String, i32),
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
    /// Healing.
    Heal,
    /// A piece splitting.
    Fission,
    /// A shield breaking.
    ShieldBroken,
    /// A piece appearing.
    Spawn,
    /// A piece too tired to move.
    Tired,
}

/// A piece fact: every piece has it, from `start`, within `min..=max`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FactSpec {
    /// Its name: a letter, then letters and digits (`Hp`, `Charge2`).
    pub name: String,
    /// The value every piece starts with.
    pub start: i32,
    /// The lower limit (0 when left out).
    #[serde(default)]
    pub min: i32,
    /// The upper limit (99 when left out).
    #[serde(default = "ninety_nine")]
    pub max: i32,
    /// How the board shows it (not at all when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub look: Option<LookSpec>,
}

fn ninety_nine() -> i32 {
    99
}

/// How the board shows a fact.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LookSpec {
    /// Pips along the piece's bottom edge, in this colour (sRGB).
    Pips(u8, u8, u8),
    /// Pips along its top edge.
    TopPips(u8, u8, u8),
    /// A ring while the fact is above zero (sRGB and alpha).
    Ring(u8, u8, u8, u8),
}
