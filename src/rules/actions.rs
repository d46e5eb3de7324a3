//! A variant's own actions, compiled: `when` an event happens, `if` its conditions hold,
//! `then` its effects, in order (the variant format's `actions`, see `presets/README.md`). The
//! engine runs them as hooks of the `actions` preset (`presets::actions`), each at the step of
//! the move-application sequence its event belongs to.
//!
//! This is the first part of the vocabulary of «Rules as data»: the events of a capture, of a
//! move made and of the game's result; conditions on the moving and the captured piece; and
//! the effects that take a capture over, deal damage to a piece or an area, remove a piece,
//! declare a win, play an animation and annotate the move.

use super::damage::DamageKind;
use super::effects::EffectKind;
use super::geometry::SquareSet;
use super::piece::PieceType;

/// One action.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Its name: it owns what it takes over (a capture), as a preset's id does.
    pub name: &'static str,
    /// The event it answers.
    pub when: Event,
    /// All must hold.
    pub conditions: Vec<Condition>,
    /// Done in order.
    pub effects: Vec<ActionEffect>,
    /// The sides whose moves it answers, `[white, black]`.
    pub sides: [bool; 2],
}

/// When an action runs: a step of the move-application sequence.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Before a capture happens (`before-capture`): it may take the capture over.
    Capture,
    /// After the move is made (`after-move`).
    Moved,
    /// When the game's result is decided (`game-result`).
    Result,
}

/// A piece an action speaks of.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// The piece that moves.
    Mover,
    /// The piece it captures (none without a capture: conditions on it fail, effects skip it).
    Victim,
}

/// A condition.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// The move captures.
    Captures,
    /// The piece is of this type (the mover's type before the move).
    Is(Who, PieceType),
    /// The piece's type is royal.
    Royal(Who),
    /// The piece stands on one of these squares, `[white's, black's]` by the piece's side (the
    /// mover where it stands when the action runs: before a capture, its square of departure).
    On(Who, [SquareSet; 2]),
    /// The condition does not hold.
    Not(Box<Condition>),
}

/// An effect.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionEffect {
    /// Takes the capture over (first taker wins; an action that would take a capture already
    /// taken does not run): the engine neither damages nor removes the victim, nor moves the
    /// mover there.
    TakeCapture,
    /// Deals `amount` damage of `kind` to the piece (`around` 0), or to every piece within
    /// `around` squares of it (the mover excepted, and types in `spare`), through the damage
    /// hooks; a piece that dies is removed.
    Damage {
        /// The piece, or the centre.
        at: Who,
        /// 0: the piece only; 1: the 3×3 square round it, and so on.
        around: u8,
        /// Points of damage.
        amount: i32,
        /// What kind (damage resistances read it).
        kind: DamageKind,
        /// Types an area spares.
        spare: Vec<PieceType>,
    },
    /// Removes the piece from the game.
    Remove(Who),
    /// The piece's side wins, for this reason.
    Win(Who, String),
    /// Plays an animation at the piece's square.
    Show(EffectKind, Who),
    /// Annotates the move.
    Note(String),
}

impl Action {
    /// Whether it takes a capture over.
    pub fn takes_capture(&self) -> bool {
        self.effects.contains(&ActionEffect::TakeCapture)
    }
}

/// The name as a `&'static str`, as hooks and owners are named: each distinct name is kept
/// once for the life of the program (variants name few actions).
pub fn intern(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut names = NAMES.lock().expect("not poisoned");
    if let Some(&n) = names.iter().find(|&&n| n == name) {
        return n;
    }
    let n: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(n);
    n
}
