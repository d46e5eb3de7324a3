//! How a game ends: the outcome type and the default FIDE end conditions.

use std::fmt;

use super::board::Board;
use super::geometry::{Side, Square};
use super::registry::PieceTypeRegistry;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// A hundred half-moves without a capture or a pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Neither side can possibly checkmate.
    InsufficientMaterial,
    /// A rule of a variant or preset, described in words.
    Rule(String),
}

/// The end of a game: who won (none for a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` is a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: Reason,
}

impl Outcome {
    /// A win for `side`.
    pub fn win(side: Side, reason: Reason) -> Outcome {
        Outcome { winner: Some(side), reason }
    }

    /// A draw.
    pub fn draw(reason: Reason) -> Outcome {
        Outcome { winner: None, reason }
    }

    /// The PGN result string: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_string(&self) -> &'static str {
        match self.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// The one mapping from a variant's verdict to an outcome: `verdict` is what the rule means
/// for `side` (the side it is judged for).
pub fn scored(verdict: super::variant::Verdict, side: Side, reason: Reason) -> Outcome {
    match verdict {
        super::variant::Verdict::Draw => Outcome::draw(reason),
        super::variant::Verdict::Win => Outcome::win(side, reason),
        super::variant::Verdict::Loss => Outcome::win(side.opponent(), reason),
    }
}

impl Reason {
    /// The reason in words ("checkmate", "threefold repetition", a rule's own).
    pub fn words(&self) -> &str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::FiftyMoves => "fifty-move rule",
            Reason::Repetition => "threefold repetition",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Rule(s) => s.as_str(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = self.reason.words();
        match self.winner {
            Some(side) => write!(f, "{side} wins by {why}"),
            None => write!(f, "draw by {why}"),
        }
    }
}

/// Whether `side` cannot checkmate by any series of legal moves, judged from material (the
/// FIDE piece set): a bare king; a single knight against a bare king; or only bishops while
/// every bishop on the board stands on one square colour and there are no knights or pawns.
/// Variants without knights, bishops and kings never count as insufficient.
pub fn cannot_mate(board: &Board, reg: &PieceTypeRegistry, side: Side) -> bool {
    let g = board.geometry;
    let (Some(knight), Some(bishop), Some(king)) = (reg.by_name("knight"), reg.by_name("bishop"), reg.by_name("king")) else {
        return false;
    };
    // Per side: knights, bishops, other non-king pieces.
    let mut knights = [0u32; 2];
    let mut bishops = [0u32; 2];
    let mut others = [0u32; 2];
    let mut bishop_colours = [false; 2];
    for (i, c) in board.cells.iter().enumerate() {
        if !c.is_piece() || c.kind() == king {
            continue;
        }
        let s = c.side().index();
        if c.kind() == knight {
            knights[s] += 1;
        } else if c.kind() == bishop {
            bishops[s] += 1;
            let sq = Square(i as u8);
            bishop_colours[((g.file(sq) + g.rank(sq)) & 1) as usize] = true;
        } else {
            others[s] += 1;
        }
    }
    let (me, them) = (side.index(), side.opponent().index());
    if others[me] > 0 {
        return false;
    }
    match (knights[me], bishops[me]) {
        (0, 0) => true,
        (1, 0) => knights[them] + bishops[them] + others[them] == 0,
        (0, _) => !(bishop_colours[0] && bishop_colours[1]) && knights[them] == 0 && others[them] == 0,
        _ => false,
    }
}

/// How many times the current position (the last of `history`) has occurred within the last
/// `reversible` half-moves, itself included.
pub fn repetitions(history: &[u64], reversible: u32) -> usize {
    let Some((&now, earlier)) = history.split_last() else { return 0 };
    let window = earlier.len().min(reversible as usize);
    let start = earlier.len() - window;
    1 + earlier[start..].iter().filter(|&&h| h == now).count()
}

/// How many half-moves back the current position (the last of `history`) occurred for the
/// `n - 1`-th time before, within the last `reversible` half-moves: the span of the cycle that
/// makes it an `n`-fold repetition, or `None` when it is not one.
pub fn repetition_span(history: &[u64], reversible: u32, n: usize) -> Option<usize> {
    let (&now, earlier) = history.split_last()?;
    let window = earlier.len().min(reversible as usize);
    let mut seen = 1;
    for back in 1..=window {
        if earlier[earlier.len() - back] == now {
            seen += 1;
            if seen >= n {
                return Some(back);
            }
        }
    }
    None
}

/// Who perpetual check decides a repetition for, where it loses (Fairy-Stockfish's
/// `perpetualCheckIllegal`): the repetition spans `span` half-moves back to its earliest counted
/// occurrence, and `streak` holds each side's checking moves in a row. The opponent of the side
/// to move checked throughout if the side to move stood in check in every position of the
/// cycle where it was to move, the earliest included (the opponent's last `span / 2 + 1` moves
/// were checks); the side to move did if the opponent stood in check in every position between
/// (its own last `span / 2` moves were checks). `Some(winner)` (`None` inside for both) when
/// someone checked throughout.
pub fn perpetual_checker(streak: [u16; 2], turn: Side, span: usize) -> Option<Option<Side>> {
    let them = turn.opponent();
    let perpetual_them = usize::from(streak[them.index()]) > span / 2;
    let perpetual_us = usize::from(streak[turn.index()]) >= span / 2;
    match (perpetual_them, perpetual_us) {
        (true, false) => Some(Some(turn)),
        (false, true) => Some(Some(them)),
        (true, true) => Some(None),
        (false, false) => None,
    }
}

/// Whether `side` has too little material to win in `variant`, for any variant: the rule
/// Fairy-Stockfish applies, restated. A side with another way to win (pieces in hand, captures
/// that refill hands, extinction of non-royal pieces, a flag piece that can still reach its
/// region) is never short of material. Otherwise kings and pieces that cannot reach the enemy
/// king's region (Xiangqi's advisors and elephants) do not count; one piece that can mate
/// alone with its king (rook-, king- or queen-like, a compound with the knight, or a pawn that
/// promotes to one) is enough; colour-bound pieces need both square colours covered, or any
/// other piece on the board; any other piece needs a second non-king piece of either side.
/// A stalemate that does not draw, or counted checks, make every piece enough.
pub fn has_insufficient_material(variant: &super::variant::Variant, board: &Board, side: Side) -> bool {
    use super::variant::{EndCondition, Verdict};
    let reg = &variant.registry;
    let g = board.geometry;
    let royal = |k: super::piece::PieceType| reg.royal_mask & (1u64 << k.0) != 0;
    // Other ways to win.
    if variant.drops.as_ref().is_some_and(|d| d.captures_to_hand) || board.hand_counts[side.index()].iter().any(|&n| n > 0) {
        return false;
    }
    for e in &variant.end {
        match e {
            EndCondition::Extinction { types, .. } if *types == 0 || reg.ids().any(|k| types & (1u64 << k.0) != 0 && !royal(k)) => {
                return false;
            }
            EndCondition::RegionReached { types, .. } | EndCondition::RegionHeld { types, .. }
                if board.find(side, *types).next().is_some() =>
            {
                return false;
            }
            _ => {}
        }
    }
    let loose_stalemate =
        variant.end.iter().any(|e| matches!(e, EndCondition::Stalemate(v) if *v != Verdict::Draw) || *e == EndCondition::StalemateByCount);
    let lenient = loose_stalemate || variant.check_limit().is_some();
    // Where the enemy royal piece can be: its confinement, or anywhere.
    let enemy_area: Vec<Square> = {
        let confined = reg.ids().filter(|&k| royal(k)).find_map(|k| reg.def(k).zones.confinement.map(|c| c[side.opponent().index()]));
        g.squares().filter(|&sq| confined.as_ref().is_none_or(|c| c.contains(sq))).collect()
    };
    let confined_away = |k: super::piece::PieceType, s: Side| {
        s == side && reg.def(k).zones.confinement.is_some_and(|c| !enemy_area.iter().any(|&sq| c[s.index()].contains(sq)))
    };
    let mates_alone = |k: super::piece::PieceType| {
        // (A piece with multi-leg moves is not judged: it may mate alone.)
        if !reg.def(k).legs.is_empty() {
            return true;
        }
        let atoms = &reg.def(k).atoms;
        let simple = |a: &&super::movement::Atom| a.mode.captures() && a.hop == super::movement::Hop::None && !a.lame;
        let rook = atoms.iter().filter(simple).any(|a| (a.dx == 0 || a.dy == 0) && a.range != 1);
        let steps_w = atoms.iter().filter(simple).any(|a| a.dx.abs() + a.dy.abs() == 1);
        let steps_f = atoms.iter().filter(simple).any(|a| a.dx.abs() == 1 && a.dy.abs() == 1);
        let knight = atoms.iter().filter(simple).any(|a| (a.dx.abs(), a.dy.abs()) == (1, 2) || (a.dx.abs(), a.dy.abs()) == (2, 1));
        let bishop = atoms.iter().filter(simple).any(|a| a.dx.abs() == a.dy.abs() && a.range != 1);
        rook || (steps_w && steps_f) || (knight && (bishop || steps_w || steps_f))
    };
    let colour_bound = |k: super::piece::PieceType| {
        let def = reg.def(k);
        def.atoms.iter().all(|a| !a.any_square && (a.dx + a.dy) % 2 == 0)
            && def.legs.iter().all(|path| {
                let (dx, dy) = super::movement::leg_displacement(path);
                (dx + dy) % 2 == 0
            })
    };
    let promotes_to_mater = reg.ids().any(|k| reg.def(k).promotes && board.find(side, 1u64 << k.0).next().is_some())
        && variant.promotion.offered(side).iter().any(|&p| mates_alone(p));
    if promotes_to_mater {
        return false;
    }
    let mut mine_colour_bound = false;
    let mut mine_unbound = false;
    let mut colours = [false; 2];
    let mut unbound_any = false;
    let mut free_pieces = 0;
    // One royal piece per side is the one that must not be lost; further royal pieces (Coregal's
    // queen beside the king) can help to mate like any other piece. The one kept back is one
    // that cannot mate alone, if the side has such a royal piece.
    let kept_royal = Side::BOTH.map(|s| {
        let royals = || board.cells.iter().enumerate().filter(move |(_, c)| c.is_piece() && c.side() == s && royal(c.kind()));
        royals().find(|(_, c)| !mates_alone(c.kind())).or_else(|| royals().next()).map(|(i, _)| i)
    });
    for (i, c) in board.cells.iter().enumerate() {
        if !c.is_piece() || kept_royal[c.side().index()] == Some(i) || confined_away(c.kind(), c.side()) {
            continue;
        }
        free_pieces += 1;
        let sq = Square(i as u8);
        if c.side() == side && mates_alone(c.kind()) {
            return false;
        }
        if colour_bound(c.kind()) {
            colours[((g.file(sq) + g.rank(sq)) % 2) as usize] = true;
            mine_colour_bound |= c.side() == side;
        } else {
            unbound_any = true;
            mine_unbound |= c.side() == side;
        }
    }
    if mine_colour_bound && ((colours[0] && colours[1]) || unbound_any || lenient) {
        return false;
    }
    if mine_unbound && (free_pieces >= 2 || lenient) {
        return false;
    }
    true
}
