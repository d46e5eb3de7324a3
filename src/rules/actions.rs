//! Rules as data, compiled: `when` an event happens, `if` its conditions hold, `then` its
//! effects, in order (the variant format's `actions`, see `presets/README.md`, "Actions"), and
//! the piece facts a variant or a data preset declares. The engine runs actions as hooks
//! (`presets::actions`), each at the step of the legal-move query or of move application its
//! event belongs to.
//!
//! The vocabulary: the events of a move about to be made, a capture, the damage a piece takes,
//! the turn ending and starting (and every N turns), a move made (and the moves that
//! arrive on or leave a region, give check, promote or drop), a piece appearing or leaving the
//! board, the game's result, and the legal-move list; conditions on the moving, captured, hit
//! or attached piece (type, side, royalty, region, rank, file, a fact's value), on the move
//! (capture, promotion, drop, castling), on the sides (pieces by type on the board and in hand,
//! check), on the turn and on a preset's state; and effects that take a capture over, strike,
//! deal or absorb damage, change facts and state, spawn, transform, turn and remove pieces,
//! move them to and from a hand, forbid or cancel a move, grant an extra move, lift the check
//! rule, declare a result, play an animation and annotate the move.

use super::Side;
use super::damage::DamageKind;
use super::effects::EffectKind;
use super::geometry::SquareSet;
use super::piece::PieceType;

/// One action.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Its name: it owns what it takes over (a capture, a hit, a veto), as a preset's id does.
    pub name: &'static str,
    /// The event it answers.
    pub when: Event,
    /// All must hold.
    pub conditions: Vec<Condition>,
    /// Done in order.
    pub effects: Vec<ActionEffect>,
    /// The sides whose moves (or, for `Damaged`, whose pieces; for `TurnStart`, whose turn) it
    /// answers, `[white, black]`.
    pub sides: [bool; 2],
    /// The piece types it is attached to: for `TurnStart` and `TurnEnd` it runs once for each
    /// piece of these types of the side concerned, which `This` names. Empty: once. For
    /// `Spawned` and `Removed`: the types it answers (empty: every type).
    pub pieces: Vec<PieceType>,
}

/// When an action runs: a step of the legal-move query or of move application.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Before a move is made (`before-move`): it may cancel the move.
    BeforeMove,
    /// Before a capture happens (`before-capture`): it may take the capture over.
    Capture,
    /// A piece takes damage (`on-damage`): it may absorb, soak or block the hit.
    Damaged,
    /// The turn is about to pass (`should-advance-turn`): it may grant an extra move.
    TurnEnd,
    /// After the move is made (`after-move`).
    Moved,
    /// A side's turn starts (`turn-start`), for the side now to move.
    TurnStart,
    /// When the game's result is decided (`game-result`).
    Result,
    /// The legal moves are listed (`filter-legal-moves`, after the check rule;
    /// `should-filter-self-check` for [`ActionEffect::AllowCheck`]): judged move by move, it
    /// may forbid one.
    Listing,
    /// The royal pieces are gathered (`get-royal-pieces`): [`ActionEffect::Royal`] says which.
    Royalty,
    /// After the move (`after-move`), when the moving piece stands on one of these squares,
    /// `[white's, black's]` by its side (a drop arrives too).
    Arrives([SquareSet; 2]),
    /// After the move (`after-move`), when the moving piece left one of these squares and no
    /// longer stands on one of them.
    Leaves([SquareSet; 2]),
    /// After the move (`after-move`), when it leaves a royal piece of the other side attacked.
    Check,
    /// After a move that promotes (`after-move`).
    Promotion,
    /// After a move that drops a piece from the hand (`after-move`).
    Drop,
    /// A piece appears on the board (`on-piece-spawn`, scoped by its side): `This` names it.
    Spawned,
    /// A piece leaves the board, for any reason (`on-piece-retract`, scoped by its side):
    /// `This` names it, where it stood.
    Removed,
    /// A turn starts (`turn-start`) when a multiple of this many turns has been played (each
    /// side's turn counts one, however many moves it has; counted from the position's move 1).
    Every(u16),
}

impl Event {
    /// Whether it answers one piece appearing or leaving (which `This` names, and which an
    /// action's effects may cause again: see [`CHAIN_LIMIT`]).
    pub fn is_chained(self) -> bool {
        matches!(self, Event::Spawned | Event::Removed)
    }

    /// Whether it runs after the move, as `Moved` does (the events a move's kind or squares
    /// pick out of `Moved`).
    pub fn after_move(self) -> bool {
        matches!(self, Event::Moved | Event::Arrives(_) | Event::Leaves(_) | Event::Check | Event::Promotion | Event::Drop)
    }
}

/// How deep events may chain within one move: a piece appearing or leaving because of a move
/// is at depth 0, and one an action makes appear or leave while answering an event at depth
/// `d` is at `d + 1`. An event at this depth is not answered: the move is refused and taken
/// back, and the player is told why.
pub const CHAIN_LIMIT: u8 = 8;

/// A side, from the side that moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Camp {
    /// The side that moves.
    Mover,
    /// The other side.
    Other,
}

/// A piece an action speaks of.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Who {
    /// The piece that moves.
    Mover,
    /// The piece it captures (none without a capture: conditions on it fail, effects skip it).
    Victim,
    /// The piece a hit lands on (`Damaged`).
    Hit,
    /// The piece the action is attached to (`pieces`, on `TurnStart` and `TurnEnd`), or the
    /// piece that appears or leaves (`Spawned`, `Removed`).
    This,
}

/// A comparison with a number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compare {
    /// At least this.
    AtLeast(i32),
    /// At most this.
    AtMost(i32),
    /// Exactly this.
    Exactly(i32),
}

impl Compare {
    /// Whether `v` passes.
    pub fn holds(self, v: i32) -> bool {
        match self {
            Compare::AtLeast(n) => v >= n,
            Compare::AtMost(n) => v <= n,
            Compare::Exactly(n) => v == n,
        }
    }
}

/// A condition.
#[derive(Clone, Debug, PartialEq)]
pub enum Condition {
    /// The move captures.
    Captures,
    /// The move promotes.
    Promotes,
    /// The piece is of this type (the mover's type before the move).
    Is(Who, PieceType),
    /// The piece's type is royal.
    Royal(Who),
    /// The piece belongs to this side.
    Side(Who, Side),
    /// The piece stands on one of these squares, `[white's, black's]` by the piece's side (the
    /// mover where it stands when the action runs: before a capture, its square of departure).
    On(Who, [SquareSet; 2]),
    /// The piece has the fact of this name and its value passes.
    Fact(Who, &'static str, Compare),
    /// The half-moves made this turn, this one included from `TurnEnd` on, pass.
    MovesThisTurn(Compare),
    /// The side's pieces on the board, counted, pass.
    PiecesOf(Camp, Compare),
    /// One of the moves being listed captures (`Listing` only: it then judges the list the
    /// check rule left).
    CaptureListed,
    /// The side now to move is this one (the other side, unless the turn did not pass).
    ToMove(Camp),
    /// The side now to move has no legal move (`Result` only).
    NoLegalMove,
    /// The move drops a piece from the hand.
    Drops,
    /// The move castles.
    Castles,
    /// The side's pieces of these types on the board, counted, pass.
    Count(Camp, Vec<PieceType>, Compare),
    /// The side's pieces of these types in hand (none listed: of every type), counted, pass.
    InHand(Camp, Vec<PieceType>, Compare),
    /// A royal piece of the side is attacked (before the move, for `BeforeMove`, `Capture` and
    /// `Listing`; as the position stands for the rest).
    InCheck(Camp),
    /// The full-move number passes.
    Turn(Compare),
    /// The piece's rank, counted from its own side (1: its back rank), passes.
    Rank(Who, Compare),
    /// The piece's file, counted from the a-file (1), passes.
    File(Who, Compare),
    /// A state value (absent: 0) passes: the preset's own (`preset` empty) or another
    /// preset's.
    State {
        /// The preset whose state it is; empty: the one running the action.
        preset: &'static str,
        /// Its name.
        key: &'static str,
        /// The comparison.
        is: Compare,
    },
    /// The condition does not hold.
    Not(Box<Condition>),
    /// One of the conditions holds.
    Any(Vec<Condition>),
}

/// Where a spawned piece appears.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The square the move leaves.
    From,
    /// The square the move goes to.
    To,
    /// Where the piece stands.
    At(Who),
}

/// An effect.
#[derive(Clone, Debug, PartialEq)]
pub enum ActionEffect {
    /// Takes the capture over (first taker wins; an action that would take a capture already
    /// taken does not run): the engine neither damages nor removes the victim, nor moves the
    /// mover there.
    TakeCapture,
    /// Strikes the piece as a capture does (one point of capture damage through the damage
    /// hooks): a piece that dies is removed; one that lives keeps its square, the move's
    /// capture fails (the mover stays), and the action's later effects are skipped.
    Strike(Who),
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
    /// The hit piece's fact takes the whole hit (`Damaged`): it loses the hit's amount, and the
    /// piece dies once it is at its lower limit. The hit is consumed (first consumer wins).
    Absorb(&'static str),
    /// Takes up to this many points off the hit (`Damaged`); a hit with nothing left is
    /// consumed and the piece lives.
    Soak(i32),
    /// Adds to the piece's fact (negative: takes away), within the fact's limits.
    AddFact(Who, &'static str, i32),
    /// Sets the piece's fact, within its limits.
    SetFact(Who, &'static str, i32),
    /// Removes the piece from the game.
    Remove(Who),
    /// The piece becomes one of this type (recorded for undo, as a promotion is).
    Transform(Who, PieceType),
    /// The piece changes sides.
    ChangeSide(Who),
    /// A piece of this type, of the mover's side, appears (unless the square is taken, or a
    /// piece is gated onto it by the move).
    Spawn(PieceType, Place),
    /// The move is not listed (`Listing`).
    Forbid,
    /// Moves that leave a royal piece attacked are not filtered out (`Listing`).
    AllowCheck,
    /// The pieces of these types are royal, and no others unless another rule says so; none:
    /// nothing is royal (`Royalty`).
    Royal(Vec<PieceType>),
    /// The side that moved moves again (`TurnEnd`; first veto wins).
    ExtraMove,
    /// The move is not made, for this reason (`BeforeMove`).
    Cancel(String),
    /// The piece's side wins, for this reason (`Result`).
    Win(Who, String),
    /// The piece's side loses, for this reason (`Result`).
    Lose(Who, String),
    /// The game is drawn, for this reason (`Result`).
    Draw(String),
    /// The piece leaves the board for the hand of this side (as a captured piece goes to its
    /// captor's in drop variants; a promoted piece as what it was promoted from).
    ToHand(Who, Camp),
    /// A piece of this type leaves the mover's hand for this square, if the hand has one and
    /// the square is empty.
    FromHand(PieceType, Place),
    /// Sets a state value of the preset running the action.
    SetState(&'static str, i32),
    /// Adds to a state value of the preset running the action (absent: from 0).
    AddState(&'static str, i32),
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

    /// The types it makes royal, when it is a royalty rule.
    pub fn royal_types(&self) -> Option<Vec<PieceType>> {
        if self.when != Event::Royalty {
            return None;
        }
        Some(self.effects.iter().flat_map(|e| if let ActionEffect::Royal(types) = e { types.clone() } else { Vec::new() }).collect())
    }
}

/// A piece fact a variant or a data preset declares: every piece has it, from `start`, kept
/// within `min..=max`; a piece that leaves the board is given `start` again.
#[derive(Clone, Debug, PartialEq)]
pub struct FactDecl {
    /// Its name (in the FEN's facts field too: `Hp=d5:1`).
    pub name: &'static str,
    /// The value every piece starts with.
    pub start: i32,
    /// The lower limit.
    pub min: i32,
    /// The upper limit.
    pub max: i32,
    /// How the board shows it.
    pub look: FactShow,
}

/// How the board shows a declared fact.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FactShow {
    /// Not at all.
    Hidden,
    /// Pips along the piece's bottom (or top) edge.
    Pips {
        /// Along the top edge.
        top: bool,
        /// sRGB.
        colour: [u8; 3],
    },
    /// A ring while it is above zero.
    Ring {
        /// sRGB and alpha.
        colour: [u8; 4],
    },
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
