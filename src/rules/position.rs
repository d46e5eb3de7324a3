//! The position kernel: how a move changes the square index, written once. Move application
//! runs it through [`BoardWriter`](super::BoardWriter), which keeps the piece components, the
//! square index, the hash and the undo log in step; every legality question (self-check,
//! checks forbidden, bikjang) runs the very same code through a [`TrialWriter`],
//! which changes only the square index and takes the move back exactly.
//!
//! The variant's own rules belong to the kernel: captures (off the board or into the captor's
//! hand, demoted), en passant, castling, drops, promotion, gating and blasts. What preset hooks
//! do to a move (a capture consumed, damage absorbed, a piece spawned) is not here: a query
//! that must see it makes a full trial application through the
//! [`MoveApplication`](super::MoveApplication) schedule instead (see `query.rs`).

use bevy::prelude::*;

use super::board::Board;
use super::geometry::{Geometry, Side, Square};
use super::layers::RuleFns;
use super::moves::{Move, MoveKind, Wing};
use super::piece::{Cell, Location, PieceType};
use super::registry::PieceTypeRegistry;
use super::state::GameState;
use super::variant::{EndCondition, Variant};

/// The captured piece of a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Victim {
    /// Its entity.
    pub entity: Entity,
    /// Its square.
    pub square: Square,
    /// Its type.
    pub kind: PieceType,
}

/// The changes the kernel makes, as one writer or another carries them out: the application's
/// [`BoardWriter`](super::BoardWriter) (components, square index, hash, undo log) or a
/// [`TrialWriter`] (square index and hash only). Every change names where the piece stands now,
/// so a writer that keeps only the square index need not search for it.
pub trait PositionWriter {
    /// Whether positions are made only to be looked at and taken back (the query's legality
    /// trials, [`TrialWriter`]): the game-level counters no trial reads (Janggi's bikjang
    /// streak) are not brought up to date.
    const TRIAL: bool = false;
    /// The square index as it stands.
    fn board(&self) -> &Board;
    /// Moves `entity`, which stands at `from`, to `to`.
    fn move_to(&mut self, entity: Entity, from: Location, to: Location);
    /// Changes the type of `entity`, which stands at `at`.
    fn change_type(&mut self, entity: Entity, at: Location, kind: PieceType);
    /// Changes the owner of `entity`, which stands at `at`.
    fn change_owner(&mut self, entity: Entity, at: Location, side: Side);
    /// Records what `entity` was promoted from (`None`: it is not promoted).
    fn mark_promoted(&mut self, entity: Entity, from: Option<PieceType>);
    /// What `entity` was promoted from.
    fn promoted_base(&self, entity: Entity) -> Option<PieceType>;
    /// Moves the duck from `from` (`None`: off the board) to the empty square `to`.
    fn move_wall(&mut self, from: Option<Square>, to: Square);
}

/// One change a [`TrialWriter`] made, to take back.
#[derive(Copy, Clone, Debug)]
pub enum TrialOp {
    /// A piece moved.
    Moved {
        /// The piece.
        entity: Entity,
        /// Its type and side while it moved.
        kind: PieceType,
        /// Its side.
        side: Side,
        /// Where it was.
        from: Location,
        /// Where it went.
        to: Location,
    },
    /// A piece changed type.
    Retyped {
        /// The piece.
        entity: Entity,
        /// Where it stands.
        at: Location,
        /// Its side.
        side: Side,
        /// Its type before.
        from: PieceType,
        /// Its type after.
        to: PieceType,
    },
    /// The duck moved.
    Walled {
        /// Where it stood (`None`: off the board).
        from: Option<Square>,
        /// Where it went.
        to: Square,
    },
    /// A piece changed sides.
    Reowned {
        /// The piece.
        entity: Entity,
        /// Where it stands.
        at: Location,
        /// Its type.
        kind: PieceType,
        /// Its side before.
        from: Side,
        /// Its side after.
        to: Side,
    },
}

/// A writer for trials: it changes the square index (cells, entities, hands, hash) and nothing
/// else, and [`TrialWriter::undo`] puts it back exactly. Promotion marks are not kept: nothing a
/// trial asks depends on them after the move.
pub struct TrialWriter<'a> {
    board: &'a mut Board,
    ops: Vec<TrialOp>,
    promoted: &'a dyn Fn(Entity) -> Option<PieceType>,
}

fn piece_at(board: &Board, entity: Entity, at: Location) -> Option<(PieceType, Side)> {
    match at {
        Location::Board(sq) => {
            let c = board.cell(sq);
            c.is_piece().then(|| (c.kind(), c.side()))
        }
        Location::Hand => {
            Side::BOTH.into_iter().find_map(|s| board.hand[s.index()].iter().find(|(_, e)| *e == entity).map(|&(k, _)| (k, s)))
        }
        Location::Captured => None,
    }
}

fn lift(board: &mut Board, entity: Entity, at: Location, kind: PieceType, side: Side) {
    match at {
        Location::Board(sq) => {
            board.take(sq);
        }
        Location::Hand => board.take_from_hand(side, kind, entity),
        Location::Captured => {}
    }
}

fn set_down(board: &mut Board, entity: Entity, at: Location, kind: PieceType, side: Side) {
    match at {
        Location::Board(sq) => board.put(sq, kind, side, entity),
        Location::Hand => board.put_in_hand(side, kind, entity),
        Location::Captured => {}
    }
}

impl<'a> TrialWriter<'a> {
    /// A trial on `board`, reusing `buffer` for its change list; `promoted` tells what a piece
    /// was promoted from (for captures into a hand).
    pub fn new(board: &'a mut Board, buffer: Vec<TrialOp>, promoted: &'a dyn Fn(Entity) -> Option<PieceType>) -> TrialWriter<'a> {
        let mut ops = buffer;
        ops.clear();
        TrialWriter { board, ops, promoted }
    }

    /// The square index, for a nested trial (a reply to this one).
    pub fn board_mut(&mut self) -> &mut Board {
        self.board
    }

    /// Where `entity` stands now, given where it stood before the trial.
    pub fn location_of(&self, entity: Entity, before: Location) -> Location {
        self.ops
            .iter()
            .rev()
            .find_map(|op| match *op {
                TrialOp::Moved { entity: e, to, .. } if e == entity => Some(to),
                _ => None,
            })
            .unwrap_or(before)
    }

    /// Takes every change back, newest first, and returns the emptied buffer for reuse.
    pub fn undo(self) -> Vec<TrialOp> {
        let TrialWriter { board, mut ops, .. } = self;
        for op in ops.iter().rev() {
            match *op {
                TrialOp::Moved { entity, kind, side, from, to } => {
                    lift(board, entity, to, kind, side);
                    set_down(board, entity, from, kind, side);
                }
                TrialOp::Retyped { entity, at, side, from, to } => {
                    lift(board, entity, at, to, side);
                    set_down(board, entity, at, from, side);
                }
                TrialOp::Reowned { entity, at, kind, from, to } => {
                    lift(board, entity, at, kind, to);
                    set_down(board, entity, at, kind, from);
                }
                TrialOp::Walled { from, to } => {
                    board.set_wall(to, false);
                    if let Some(from) = from {
                        board.set_wall(from, true);
                    }
                }
            }
        }
        ops.clear();
        ops
    }
}

impl PositionWriter for TrialWriter<'_> {
    const TRIAL: bool = true;

    fn board(&self) -> &Board {
        self.board
    }

    fn move_to(&mut self, entity: Entity, from: Location, to: Location) {
        // A piece set aside (castling lifts the rook while the king passes) is known by the
        // change that lifted it.
        let aside = || {
            self.ops.iter().rev().find_map(|op| match *op {
                TrialOp::Moved { entity: e, kind, side, to: Location::Captured, .. } if e == entity => Some((kind, side)),
                _ => None,
            })
        };
        let known = if from == Location::Captured { aside() } else { piece_at(self.board, entity, from) };
        let Some((kind, side)) = known else { return };
        lift(self.board, entity, from, kind, side);
        set_down(self.board, entity, to, kind, side);
        self.ops.push(TrialOp::Moved { entity, kind, side, from, to });
    }

    fn change_type(&mut self, entity: Entity, at: Location, kind: PieceType) {
        let Some((from, side)) = piece_at(self.board, entity, at) else { return };
        lift(self.board, entity, at, from, side);
        set_down(self.board, entity, at, kind, side);
        self.ops.push(TrialOp::Retyped { entity, at, side, from, to: kind });
    }

    fn change_owner(&mut self, entity: Entity, at: Location, side: Side) {
        let Some((kind, from)) = piece_at(self.board, entity, at) else { return };
        lift(self.board, entity, at, kind, from);
        set_down(self.board, entity, at, kind, side);
        self.ops.push(TrialOp::Reowned { entity, at, kind, from, to: side });
    }

    fn mark_promoted(&mut self, _entity: Entity, _from: Option<PieceType>) {}

    fn promoted_base(&self, entity: Entity) -> Option<PieceType> {
        (self.promoted)(entity)
    }

    fn move_wall(&mut self, from: Option<Square>, to: Square) {
        if let Some(from) = from {
            self.board.set_wall(from, false);
        }
        self.board.set_wall(to, true);
        self.ops.push(TrialOp::Walled { from, to });
    }
}

/// A move about to be made, with what the position says about it: the moving piece, its
/// type and the piece it captures.
#[derive(Copy, Clone, Debug)]
pub struct Making {
    /// The move.
    pub mv: Move,
    /// The side making it.
    pub mover: Side,
    /// The moving piece (for a drop: the piece taken from the hand).
    pub piece: Option<Entity>,
    /// Its type before the move.
    pub kind: Option<PieceType>,
    /// The piece it captures.
    pub victim: Option<Victim>,
}

impl Making {
    /// Reads `m`, made by `mover`, against the square index.
    pub fn of(board: &Board, m: Move, mover: Side) -> Making {
        let (piece, kind) = match m.kind {
            MoveKind::Drop(kind) => (board.in_hand(mover, kind), Some(kind)),
            _ => {
                let c = board.cell(m.from);
                (board.entity(m.from), c.is_piece().then(|| c.kind()))
            }
        };
        let victim = if m.capture {
            let sq = m.victim_square();
            let c = board.cell(sq);
            match (board.entity(sq), c.is_piece()) {
                (Some(entity), true) => Some(Victim { entity, square: sq, kind: c.kind() }),
                _ => None,
            }
        } else {
            None
        };
        Making { mv: m, mover, piece, kind, victim }
    }
}

/// The victim of a capture leaves the board: off for good, or into the captor's hand as what
/// it was promoted from (as what it is, where promoted pieces are kept: Loop), in variants whose
/// captures go to the hand.
pub fn remove_victim<W: PositionWriter>(w: &mut W, rules: &Variant, victim: Victim, captor: Side) {
    let at = Location::Board(victim.square);
    if rules.drops.as_ref().is_some_and(|d| d.captures_to_hand) {
        // Off the board first, so the retraction is announced with the victim's own side and
        // type; then it changes hands and loses its promotion.
        w.move_to(victim.entity, at, Location::Hand);
        w.change_owner(victim.entity, Location::Hand, captor);
        if let Some(base) = w.promoted_base(victim.entity) {
            if !rules.drops.as_ref().is_some_and(|d| d.keep_promoted) {
                w.change_type(victim.entity, Location::Hand, base);
            }
            w.mark_promoted(victim.entity, None);
        }
    } else {
        w.move_to(victim.entity, at, Location::Captured);
    }
}

/// Whether the castling piece of `side` that stood on `sq` before the move (the piece
/// `moved`, wherever it stands now, or a piece taken) was the side's castling king: on its
/// back rank, and the only castling piece of the side or the one
/// [`castling_king`](super::fen::castling_king) names.
fn is_castling_king(rules: &Variant, board: &Board, side: Side, sq: Square, moved: Option<Entity>) -> bool {
    let g = rules.geometry;
    let back = rules.castling_rank(side);
    if g.rank(sq) != back {
        return false;
    }
    // The side's other castling pieces, where they stood before the move: the files of those
    // on the back rank (at most one a file), and whether any stands elsewhere. (This runs on
    // every move of a king with castling rights: no allocation, only the side's squares.)
    let mut files = [0u8; 17];
    let (mut n, mut others, mut elsewhere) = (0, false, false);
    for s in board.squares_of(side) {
        if s == sq || (moved.is_some() && board.entity(s) == moved) || !rules.registry.def(board.cell(s).kind()).castles {
            continue;
        }
        others = true;
        if g.rank(s) == back {
            files[n] = g.file(s);
            n += 1;
        } else {
            elsewhere = true;
        }
    }
    if !others {
        return true;
    }
    files[n] = g.file(sq);
    let files = &mut files[..=n];
    files.sort_unstable();
    super::fen::castling_king(rules, side, files, elsewhere) == Some(g.file(sq))
}

/// Drops castling rights that the board can no longer back: the rook gone from its square
/// or no castling piece left on the back rank — a piece removed by a preset before or after
/// the move's own mutations (an exploding rook's blast takes the rook beside it). A FEN
/// could not write such a right (it would not read back). Seirawan's gates go the same way: a
/// gate needs its side's piece on the back-rank square.
pub fn prune_castling(rules: &Variant, board: &Board, st: &mut GameState) {
    let g = rules.geometry;
    for side in Side::BOTH {
        if st.gates[side.index()] == 0 {
            continue;
        }
        let back = if side == Side::White { 0 } else { g.ranks - 1 };
        for f in 0..g.files.min(16) {
            let c = board.cell(Square(back * g.files + f));
            if st.gates[side.index()] & (1u16 << f) != 0 && !(c.is_piece() && c.side() == side) {
                st.gates[side.index()] &= !(1u16 << f);
                st.fixed_gates[side.index()][usize::from(f)] = 0;
            }
        }
    }
    for side in Side::BOTH {
        if st.castling.rooks[side.index()].iter().all(Option::is_none) {
            continue;
        }
        let back = rules.castling_rank(side);
        let holds = |file: u8, castles: bool| {
            let c = board.cell(Square(back * g.files + file));
            let def = c.is_piece().then(|| rules.registry.def(c.kind()));
            c.is_piece() && c.side() == side && def.is_some_and(|d| if castles { d.castles } else { d.castling_partner })
        };
        if !(0..g.files).any(|f| holds(f, true)) {
            st.castling.rooks[side.index()] = [None, None];
            continue;
        }
        for wing in Wing::BOTH {
            if let Some(file) = st.castling.get(side, wing)
                && !holds(file, false)
            {
                st.castling.rooks[side.index()][wing.index()] = None;
            }
        }
    }
}

/// The move's mutations: the piece moves, castles, is dropped or promotes, a gate is filled,
/// and castling rights, gates, streaks, the en-passant square and the half-move clock follow.
pub fn mutate<W: PositionWriter>(w: &mut W, rules: &Variant, fns: &RuleFns, st: &mut GameState, mk: &Making) {
    let m = mk.mv;
    let side = mk.mover;
    // A drop that may not mate (Shogi's pawn): a mate it gives loses for the dropper.
    st.foul_drop = m.dropped().is_some_and(|k| rules.drops.as_ref().is_some_and(|d| d.no_drop_mate & (1u64 << k.0) != 0));
    let Some(piece) = mk.piece else { return };
    let reg = &rules.registry;
    let g = rules.geometry;
    let kind = mk.kind.unwrap_or(PieceType(0));
    let def = reg.def(kind);
    match m.kind {
        MoveKind::Castle(wing) => {
            let rule = rules.castling.as_ref().expect("castling moves exist only with a castling rule");
            let rank = g.rank(m.from);
            let rook = w.board().entity(m.to);
            if let Some(rook) = rook {
                w.move_to(rook, Location::Board(m.to), Location::Captured);
            }
            w.move_to(piece, Location::Board(m.from), Location::Board(Square(rank * g.files + rule.king_files[wing.index()])));
            if let Some(rook) = rook {
                w.move_to(rook, Location::Captured, Location::Board(Square(rank * g.files + rule.rook_files[wing.index()])));
            }
        }
        MoveKind::Drop(_) => w.move_to(piece, Location::Hand, Location::Board(m.to)),
        MoveKind::Pass => {}
        _ => {
            // The piece moves if it is still on its square (a hook may have destroyed it) and the
            // target is free (a victim that survived its damage keeps its square).
            // (A piece that takes on the way and comes home stays: it neither leaves nor lands.)
            let home = m.to == m.from;
            let target_free = w.board().cell(m.to).is_empty();
            if (target_free || home) && w.board().entity(m.from) == Some(piece) {
                if !home {
                    w.move_to(piece, Location::Board(m.from), Location::Board(m.to));
                }
                if let Some(p) = m.promotion {
                    w.change_type(piece, Location::Board(m.to), p);
                    // Where a promoted piece taken keeps its rank (Loop), or captures do not go to
                    // hand at all (Synochess, Pocket knight), it is not marked.
                    if rules.drops.as_ref().is_some_and(|d| d.captures_to_hand && !d.keep_promoted) || def.promotes_to == Some(p) {
                        w.mark_promoted(piece, Some(kind));
                    }
                }
                // Andernach: the capturer (promoted first) changes side where it took.
                if rules.switches.captures_change_side && mk.victim.is_some() && !def.royal {
                    w.change_owner(piece, Location::Board(m.to), side.opponent());
                }
            }
        }
    }
    // Castling rights: a castling king that moves or is taken (where kings are ordinary
    // pieces) loses both; a rook that moves or is taken loses its own. (A king a preset
    // crowned beside it is not the castling king, nor is a king dropped beside it, as in
    // Fairy-Stockfish, where a drop touches only the rights of its own square; that is asked
    // only where there are rights to lose, as the question scans the board.)
    let has_rights = st.castling.rooks.map(|r| r.iter().any(Option::is_some));
    if def.castles && has_rights[side.index()] && m.dropped().is_none() && is_castling_king(rules, w.board(), side, m.from, Some(piece)) {
        st.castling.rooks[side.index()] = [None, None];
    }
    if let Some(v) = mk.victim
        && reg.def(v.kind).castles
        && has_rights[side.opponent().index()]
        && is_castling_king(rules, w.board(), side.opponent(), v.square, None)
    {
        st.castling.rooks[side.opponent().index()] = [None, None];
    }
    for s in Side::BOTH {
        let back = rules.castling_rank(s);
        for wing in Wing::BOTH {
            if let Some(f) = st.castling.get(s, wing) {
                let sq = Square(back * g.files + f);
                if sq == m.from || sq == m.to || mk.victim.is_some_and(|v| v.square == sq) {
                    st.castling.rooks[s.index()][wing.index()] = None;
                }
            }
        }
    }
    // Placement: a king or rook dropped onto its castling square may bring a castling right.
    if m.dropped().is_some() && rules.drops.as_ref().is_some_and(|d| d.castling_on_drop) && (def.castles || def.castling_partner) {
        grant_castling_on_drop(rules, w.board(), st, side);
    }
    // Gating: a piece from the hand onto the square just vacated; the files of back-rank
    // squares that were left or captured on lose their gate. (A piece a preset kept where it
    // stood, its capture stopped by a shield, vacated nothing: no piece comes in.)
    if let Some(gate) = m.gate
        && w.board().entity(gate.square).is_none()
        && let Some(e) = w.board().in_hand(side, gate.kind)
    {
        w.move_to(e, Location::Hand, Location::Board(gate.square));
        if rules.switches.fixed_gating {
            st.fixed_gates[side.index()][g.file(gate.square) as usize] = 0;
        }
        // With nothing left to gate, the side's gating rights are gone (as Fairy-Stockfish
        // writes them: one position, one FEN), unless captures may fill the hand again.
        let refilled = rules.drops.as_ref().is_some_and(|d| d.captures_to_hand);
        if !refilled && w.board().hand_counts[side.index()].iter().all(|&n| n == 0) {
            st.gates[side.index()] = 0;
        }
    }
    if st.gates != [0, 0] {
        for s in Side::BOTH {
            let back = if s == Side::White { 0 } else { g.ranks - 1 };
            for sq in [m.from, m.to, m.victim_square()] {
                if g.rank(sq) == back {
                    st.gates[s.index()] &= !(1u16 << g.file(sq));
                }
            }
            if m.is_castle() && s == side {
                st.gates[s.index()] &= !(1u16 << g.file(m.from));
                st.gates[s.index()] &= !(1u16 << g.file(m.to));
            }
        }
        // Fixed gating: a piece whose file lost its gate without it entering (the piece below
        // was taken, or castling could not let it in) is out of the game.
        if rules.switches.fixed_gating {
            for s in Side::BOTH {
                for f in 0..(g.files as usize).min(16) {
                    let kind = st.fixed_gates[s.index()][f];
                    if kind != 0 && st.gates[s.index()] & (1u16 << f) == 0 {
                        st.fixed_gates[s.index()][f] = 0;
                        if let Some(e) = w.board().in_hand(s, PieceType(kind - 1)) {
                            w.move_to(e, Location::Hand, Location::Captured);
                        }
                    }
                }
            }
        }
        // Cambodian: a rook landing on the rank or file of an enemy king still on its square
        // takes the king's leap away, whatever stands between (as Fairy-Stockfish judges it).
        let them = side.opponent();
        if rules.switches.cambodian_moves && def.betza == "R" && m.dropped().is_none() {
            let back = if them == Side::White { 0 } else { g.ranks - 1 };
            let gates = st.gates[them.index()];
            for f in (0..g.files).filter(|f| gates & (1u16 << f) != 0) {
                let sq = Square(back * g.files + f);
                let c = w.board().cell(sq);
                let king = c.is_piece() && c.side() == them && reg.def(c.kind()).royal;
                if king && (g.file(sq) == g.file(m.to) || g.rank(sq) == g.rank(m.to)) {
                    st.gates[them.index()] &= !(1u16 << f);
                }
            }
        }
    }
    // Duck chess: the duck leaves its square for the one the move names. A trail's walls
    // stay where they were put, and one more goes up.
    if let Some(to) = m.wall
        && w.board().cell(to).is_empty()
    {
        let from = if rules.switches.duck { w.board().walls().find(|s| !rules.walls.contains(s)) } else { None };
        w.move_wall(from, to);
    }
    // Janggi's streaks, kept only where an end condition counts them (so that other positions
    // hash and read alike): passes, and positions with the royal pieces facing each other
    // (not in trials, which no end condition reads: the look for the royal pieces was a fifth
    // of Janggi's move generation). (Matched by kind, not compared: this runs on every move
    // made.)
    if rules.end.iter().any(|e| matches!(e, EndCondition::DoublePass)) {
        st.pass_streak = if m.kind == MoveKind::Pass { st.pass_streak.saturating_add(1) } else { 0 };
    }
    if !W::TRIAL && rules.end.iter().any(|e| matches!(e, EndCondition::Bikjang)) {
        let facing = fns.generals_facing(rules, w.board(), side);
        st.facing_streak = if facing { st.facing_streak.saturating_add(1) } else { 0 };
    }
    // En passant: only when an enemy piece could take it, so equal positions hash equally.
    st.ep_square = None;
    st.ep_victim = None;
    if m.kind == MoveKind::DoubleStep {
        // The square passed over: straight (FIDE) or diagonal (Berolina) double steps.
        let mid = Square(((g.rank(m.from) + g.rank(m.to)) / 2) * g.files + (g.file(m.from) + g.file(m.to)) / 2);
        if en_passant_takers(reg, g, &w.board().cells, mid, side.opponent()) {
            st.ep_square = Some(mid);
            st.ep_victim = Some(m.to);
        }
    }
    // Captures, pawn moves and promotions cannot be undone: the half-move clock (the fifty-move
    // count, and how far back a repetition is looked for) starts again, as in Fairy-Stockfish,
    // where a promotion resets it whatever promotes (Shogi's pieces, Backward Pawns' pawns).
    if m.capture || def.pawn || m.promotion.is_some() {
        st.halfmove_clock = 0;
    } else {
        st.halfmove_clock = st.halfmove_clock.saturating_add(1);
    }
}

/// A blast on `at` (a capture in a variant with exploding captures): every piece on `at` and
/// every non-immune piece next to it is hit; `hit` deals the damage and says whether the piece
/// died, and a dead piece leaves the board. Rooks and kings blown away lose their castling rights.
pub fn blast<W: PositionWriter>(
    w: &mut W,
    rules: &Variant,
    st: &mut GameState,
    at: Square,
    mut hit: impl FnMut(&mut W, Entity, Side) -> bool,
) {
    let Some(rule) = &rules.blast else { return };
    let g = rules.geometry;
    for sq in blast_squares(g, at) {
        let c = w.board().cell(sq);
        let bit = 1u64 << c.kind().0;
        if !c.is_piece() || rule.unharmed & bit != 0 || (sq != at && rule.immune & bit != 0) {
            continue;
        }
        let Some(e) = w.board().entity(sq) else { continue };
        if !hit(w, e, c.side()) {
            continue;
        }
        w.move_to(e, Location::Board(sq), Location::Captured);
        if rules.registry.def(c.kind()).castles {
            st.castling.rooks[c.side().index()] = [None, None];
        }
        for s in Side::BOTH {
            let back = rules.castling_rank(s);
            for wing in Wing::BOTH {
                if st.castling.get(s, wing).is_some_and(|f| Square(back * g.files + f) == sq) {
                    st.castling.rooks[s.index()][wing.index()] = None;
                }
            }
        }
    }
}

/// Makes `m` for `mover` with the variant's own rules only (no preset hooks): the victim
/// leaves, the piece moves, the blast goes off. Returns what was read of the move.
pub fn make<W: PositionWriter>(w: &mut W, rules: &Variant, fns: &RuleFns, st: &mut GameState, m: Move, mover: Side) -> Making {
    let mk = Making::of(w.board(), m, mover);
    if let Some(v) = mk.victim {
        remove_victim(w, rules, v, mover);
    }
    mutate(w, rules, fns, st, &mk);
    if mk.victim.is_some() {
        blast(w, rules, st, m.blast_square(), |_, _, _| true);
    }
    mk
}

/// Placement: a king on its castling square with a rook in a corner of the same rank gains
/// the right to castle on that wing (rights are never given twice or taken here).
fn grant_castling_on_drop(rules: &Variant, board: &Board, state: &mut GameState, side: Side) {
    let Some(rule) = rules.castling.as_ref() else { return };
    let g = board.geometry;
    let reg = &rules.registry;
    let rank = rule.rank_of(side, g.ranks);
    let at = |f: u8| board.cell(Square(rank * g.files + f));
    let is = |f: u8, castles: bool| {
        let c = at(f);
        c.is_piece() && c.side() == side && if castles { reg.def(c.kind()).castles } else { reg.def(c.kind()).castling_partner }
    };
    if !is(g.files / 2, true) {
        return;
    }
    for (wing, file) in [(Wing::King, g.files - 1), (Wing::Queen, 0)] {
        if is(file, false) && state.castling.get(side, wing).is_none() {
            state.castling.rooks[side.index()][wing.index()] = Some(file);
        }
    }
}

/// The square and its (up to eight) neighbours: what a capture on `at` blows up.
pub fn blast_squares(g: Geometry, at: Square) -> impl Iterator<Item = Square> {
    let (f, r) = (g.file(at) as i32, g.rank(at) as i32);
    (-1..=1).flat_map(move |dy| (-1..=1).filter_map(move |dx| g.square(f + dx, r + dy)))
}

/// Whether a piece of `side` next to `ep` could capture en passant onto it: it has an
/// en-passant capture ray whose first square is `ep` (a FIDE pawn beside the double-stepped
/// pawn, a Berolina pawn behind the square passed over).
pub fn en_passant_takers(reg: &PieceTypeRegistry, g: Geometry, cells: &[Cell], ep: Square, side: Side) -> bool {
    let (f, r) = (g.file(ep) as i32, g.rank(ep) as i32);
    (-1..=1).flat_map(|dx| (-1..=1).map(move |dy| (dx, dy))).filter_map(|(dx, dy)| g.square(f + dx, r + dy)).any(|sq| {
        let c = cells[sq.index()];
        c.is_piece() && c.side() == side && reg.captures_en_passant(c.kind()) && {
            let table = &reg.tables[c.kind().0 as usize];
            table
                .rays(g.len(), side, sq)
                .iter()
                .any(|ray| ray.en_passant && ray.mode.captures() && table.ray_squares(ray).first() == Some(&ep))
        }
    })
}
