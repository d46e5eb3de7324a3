//! What a person does on the board, and the state of the move being made: the selection, a
//! choice waiting, moves to redo, the premove queued, a notice for the player, and the
//! position's version that views follow.

use bevy::prelude::*;

use crate::rules::{Move, MoveKind, PieceType, Square, Variant, castle_king_square};

/// What the player did on the board.
#[derive(Message, Clone, Debug, PartialEq)]
pub enum BoardInput {
    /// Mouse button down on a square.
    Press(Square),
    /// Mouse button down on a piece in the mover's pocket.
    PressPocket(PieceType),
    /// Mouse button up on a square.
    Release(Square),
    /// Mouse button up off the board: a drag is abandoned.
    ReleaseOff,
    /// One of the pending choices (promotion piece, gate).
    Choose(usize),
    /// Drop the selection and any pending choice.
    Cancel,
    /// Take back the last move.
    Takeback,
    /// Replay a move taken back.
    Redo,
    /// Pass, where the variant allows it (Janggi) and it is legal now.
    Pass,
    /// Play the drop waiting in [`FoulWarning`] after all.
    ConfirmFoul,
}

/// Where the selected piece comes from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A piece on the board.
    Square(Square),
    /// A piece in the mover's pocket.
    Pocket(PieceType),
}

/// The selected piece and its legal moves.
#[derive(Resource, Clone, Debug, Default)]
pub struct Selection {
    /// The selected piece.
    pub origin: Option<Origin>,
    /// Its legal moves.
    pub moves: Vec<Move>,
    /// Whether the mouse is down on it (a drag in progress).
    pub dragging: bool,
    /// Duck chess: the piece's move is chosen, and `moves` are it with each square the duck
    /// may go to; the next press on one of them plays it.
    pub duck: bool,
    /// A multi-leg move: the square taken on the way is chosen, and `moves` are the moves
    /// through it (with the plain capture there, if any); the next press picks where it ends.
    pub leg: bool,
    /// Castling moves among `moves` that also play by putting the king on the square it lands
    /// on (see [`castle_landing`]), with that square.
    pub castles: Vec<(Move, Square)>,
}

impl Selection {
    /// Whether `sq` is a target of the selected piece (of the duck, once its move is chosen).
    pub fn targets(&self, sq: Square) -> bool {
        !self.candidates(sq).is_empty()
    }

    /// The moves a press or release on `sq` may play: those whose target it is, and castling
    /// where `sq` is the king's landing square.
    pub fn candidates(&self, sq: Square) -> Vec<Move> {
        let mut out: Vec<Move> = self.moves.iter().filter(|m| self.target(m) == sq).copied().collect();
        if !self.duck && !self.leg {
            out.extend(self.castles.iter().filter(|(_, at)| *at == sq).map(|(m, _)| *m));
        }
        out
    }

    /// Where a press plays `m`: its square, or the duck's once the piece's move is chosen; a
    /// move that takes on the way is pressed where it takes, then where it ends.
    pub fn target(&self, m: &Move) -> Square {
        match m.kind {
            _ if self.duck => m.wall.unwrap_or(m.to),
            MoveKind::Locust(via) if !self.leg => via,
            _ => m.to,
        }
    }
}

/// Where a player may also put the king to castle with `m` (castling is king onto rook in the
/// engine): the square the king lands on, unless the king stands there already, or the king
/// also reaches it by a plain move (Chess960's king on f1 castling to g1: there the plain
/// move is meant, and castling is king onto rook). `legal` are the position's legal moves.
pub fn castle_landing(variant: &Variant, m: &Move, legal: &[Move]) -> Option<Square> {
    let MoveKind::Castle(wing) = m.kind else { return None };
    let at = castle_king_square(variant, m, wing);
    let plain = legal.iter().any(|c| c.from == m.from && c.to == at && !c.is_castle() && c.dropped().is_none());
    (at != m.from && at != m.to && !plain).then_some(at)
}

/// Moves that differ only in a choice the player still has to make.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingChoice(pub Vec<Move>);

/// A drop waiting for the player's yes: it mates, and the variant counts such a mate as a foul
/// that loses for the dropper (Shogi's pawn-drop mate, `no_drop_mate`).
#[derive(Resource, Default)]
pub struct FoulWarning(pub Option<Move>);

/// Moves taken back, newest last, for redo.
#[derive(Resource, Clone, Debug, Default)]
pub struct RedoStack(pub Vec<Move>);

/// A message for the player (a refused move and why), with its time left on screen, and what
/// kind of news it is (its colour).
#[derive(Resource, Clone, Debug, Default)]
pub struct Notice(pub Option<(String, f32)>, pub Tone);

impl Notice {
    /// Shows `text` for `secs` seconds.
    pub fn show(&mut self, tone: Tone, text: impl Into<String>, secs: f32) {
        self.0 = Some((text.into(), secs));
        self.1 = tone;
    }
}

/// What kind of news a [`Notice`] is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tone {
    /// A hint or an event (what to do next, a flag fell).
    #[default]
    Info,
    /// Something done (saved, loaded, copied).
    Done,
    /// Something refused or failed, and why.
    Problem,
}

/// Bumped whenever the position changes, so views redraw only then.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PositionVersion(pub u64);

/// The inputs that play `m` as a player would: press the piece (or the pocket), release on the
/// target, and pick the choice if one is asked for. `legal` are the position's legal moves.
pub fn inputs_for(m: &Move, legal: &[Move]) -> Vec<BoardInput> {
    if m.kind == MoveKind::Pass {
        return vec![BoardInput::Pass];
    }
    let bare = |c: &Move| Move { wall: None, ..*c };
    // The duck's square is pressed; a trail's wall (the only one, where the piece left) is not.
    let walls = legal.iter().filter(|c| bare(c) == bare(m)).count();
    let wall = m.wall.filter(|&w| !(walls == 1 && w == m.from)).map(BoardInput::Press);
    // A capture on the way: the piece, the square it takes on, then where it ends.
    if let MoveKind::Locust(via) = m.kind {
        let mut out = vec![BoardInput::Press(m.from), BoardInput::Release(via), BoardInput::Press(m.to)];
        let mut same: Vec<Move> = legal.iter().filter(|c| c.from == m.from && c.kind == m.kind && c.to == m.to).copied().collect();
        same.dedup_by_key(|c| bare(c));
        if same.len() > 1
            && let Some(i) = same.iter().position(|c| bare(c) == bare(m))
        {
            out.push(BoardInput::Choose(i));
        }
        out.extend(wall);
        return out;
    }
    let mut out = match m.dropped() {
        Some(kind) => vec![BoardInput::PressPocket(kind), BoardInput::Release(m.to)],
        None => vec![BoardInput::Press(m.from), BoardInput::Release(m.to)],
    };
    // The choice offered is among the piece's moves (one per duck square would repeat it).
    let mut same: Vec<Move> = legal
        .iter()
        .filter(|c| c.from == m.from && c.to == m.to && c.dropped() == m.dropped() && !matches!(c.kind, MoveKind::Locust(_)))
        .copied()
        .collect();
    same.dedup_by_key(|c| bare(c));
    if same.len() > 1
        && let Some(i) = same.iter().position(|c| bare(c) == bare(m))
    {
        out.push(BoardInput::Choose(i));
    }
    out.extend(wall);
    out
}

/// A premove being made (its piece picked up) or queued.
#[derive(Resource, Default, Debug, PartialEq, Eq)]
pub struct Premove {
    /// The square of the piece picked up.
    pub from: Option<Square>,
    /// The move queued: from, to.
    pub queued: Option<(Square, Square)>,
    /// How many moves the game had when the premove was made (a takeback drops it).
    pub(in crate::game) made_at: usize,
}
