//! Insufficient material as lichess defines it for its variants (the rule chessops states per
//! variant; `chessops-variants.md` in the reference documents): whether a side can no longer
//! win, judged from the pieces alone. The game is drawn when neither side can win.
//!
//! Each rule is conservative as lichess's is: "cannot win" is said only where no series of
//! legal moves wins, and some positions that cannot be won are still played on.
//! - **Three-check**: a side with its king alone cannot give a check.
//! - **Crazyhouse**: three pieces at most on the board and in the hands together, none of them a
//!   pawn, rook or queen. (Lichess also asks that no piece on the board is a promoted one, which
//!   would go to its captor's hand as a pawn; Chimera's end rules do not see promotion marks, so
//!   a promoted minor piece in such an ending draws here. Such an ending needs a pawn promoted
//!   to a minor piece in a game of at most three pieces.)
//! - **Atomic**: a side cannot win once it has its king alone; against a king with company it
//!   can (a piece may blow up next to the king), unless every piece is a bishop and the two
//!   sides' bishops stand on squares of different colours; against a lone king, a queen or pawn
//!   can win, one minor piece or rook cannot, knights alone need three. A side whose opponent
//!   has no king left has won already.
//! - **Antichess** (a side wins by losing all its pieces): a side whose opponent has no piece
//!   left cannot win; with bishops alone on the board, a side cannot when one of its bishops
//!   stands on a square colour the opponent's bishops all avoid (that bishop can never be
//!   taken); with one knight each, it depends on their square colours and who is to move.
//! - **Horde**: the side with a king can always win by taking the horde. For the horde (no
//!   king), by counting its material (bishops at most two per square colour) against what the
//!   king's side has to block its own king with (see [`horde`]).
//!
//! King of the Hill and Racing Kings have no insufficient material: a king can always walk to
//! its goal.

use super::board::Board;
use super::geometry::{Side, Square};
use super::registry::PieceTypeRegistry;

/// Which variant's rule.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum MaterialRule {
    /// Three-check: only a bare king cannot win.
    ThreeCheck,
    /// Crazyhouse: three pieces at most, no pawn, rook or queen, on the board and in hand.
    Crazyhouse,
    /// Atomic chess.
    Atomic,
    /// Antichess (losing chess).
    Antichess,
    /// Horde.
    Horde,
}

/// The pieces of one side by role, as the rules count them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Material {
    pawns: u32,
    knights: u32,
    bishops: u32,
    rooks: u32,
    queens: u32,
    kings: u32,
    /// Any other piece (none in the lichess variants).
    others: u32,
    /// Bishops on light and dark squares.
    light_bishops: u32,
    dark_bishops: u32,
    /// Pieces (any) on light and dark squares.
    on_light: u32,
    on_dark: u32,
}

impl Material {
    fn all(&self) -> u32 {
        self.pawns + self.knights + self.bishops + self.rooks + self.queens + self.kings + self.others
    }

    fn non_kings(&self) -> u32 {
        self.all() - self.kings
    }

    /// Bishops on light squares (`light`) or on dark ones.
    fn bishops_on(&self, light: bool) -> u32 {
        if light { self.light_bishops } else { self.dark_bishops }
    }

    fn bishop_pair(&self) -> bool {
        self.light_bishops > 0 && self.dark_bishops > 0
    }
}

/// The material of both sides, `[white, black]`.
fn count(board: &Board, reg: &PieceTypeRegistry) -> [Material; 2] {
    let g = board.geometry;
    let role = |name: &str| reg.by_name(name);
    let (pawn, knight, bishop, rook, queen, king) =
        (role("pawn"), role("knight"), role("bishop"), role("rook"), role("queen"), role("king"));
    let mut m = [Material::default(); 2];
    for (i, c) in board.cells.iter().enumerate().filter(|(_, c)| c.is_piece()) {
        let sq = Square(i as u8);
        // a1 is dark: a square is light when its file and rank add up to an odd number.
        let light = (g.file(sq) + g.rank(sq)) % 2 == 1;
        let side = &mut m[c.side().index()];
        let kind = Some(c.kind());
        if light {
            side.on_light += 1;
        } else {
            side.on_dark += 1;
        }
        if kind == pawn {
            side.pawns += 1;
        } else if kind == knight {
            side.knights += 1;
        } else if kind == bishop {
            side.bishops += 1;
            if light {
                side.light_bishops += 1;
            } else {
                side.dark_bishops += 1;
            }
        } else if kind == rook {
            side.rooks += 1;
        } else if kind == queen {
            side.queens += 1;
        } else if kind == king {
            side.kings += 1;
        } else {
            side.others += 1;
        }
    }
    m
}

/// Whether `side` can no longer win under `rule` (`turn`: the side to move).
pub fn cannot_win(rule: MaterialRule, board: &Board, reg: &PieceTypeRegistry, side: Side, turn: Side) -> bool {
    let m = count(board, reg);
    let (us, them) = (&m[side.index()], &m[side.opponent().index()]);
    match rule {
        MaterialRule::ThreeCheck => us.non_kings() == 0,
        MaterialRule::Crazyhouse => crazyhouse(board, reg, &m),
        MaterialRule::Atomic => atomic(us, them, &m),
        MaterialRule::Antichess => antichess(us, them, side == turn),
        MaterialRule::Horde => horde(us, them),
    }
}

/// Whether neither side can win under `rule`: the game is drawn.
pub fn dead_position(rule: MaterialRule, board: &Board, reg: &PieceTypeRegistry, turn: Side) -> bool {
    Side::BOTH.iter().all(|&s| cannot_win(rule, board, reg, s, turn))
}

/// Crazyhouse (both sides alike): three pieces at most on the board and in the hands, and no
/// pawn, rook or queen among them.
fn crazyhouse(board: &Board, reg: &PieceTypeRegistry, m: &[Material; 2]) -> bool {
    let in_hand = |name: &str| reg.by_name(name).map_or(0, |k| board.hand_counts.iter().map(|h| u32::from(h[k.0 as usize])).sum::<u32>());
    let hands: u32 = board.hand_counts.iter().flat_map(|h| h.iter()).map(|&n| u32::from(n)).sum();
    let heavy = |s: &Material| s.pawns + s.rooks + s.queens + s.others;
    m[0].all() + m[1].all() + hands <= 3 && heavy(&m[0]) + heavy(&m[1]) + in_hand("pawn") + in_hand("rook") + in_hand("queen") == 0
}

/// Atomic: `us` cannot blow up `them`'s king.
fn atomic(us: &Material, them: &Material, m: &[Material; 2]) -> bool {
    if them.kings == 0 {
        return false;
    }
    if us.non_kings() == 0 {
        return true;
    }
    if them.non_kings() > 0 {
        // Only bishops, each side's on its own square colour: none can blow up next to another.
        let only_bishops = m.iter().all(|s| s.non_kings() == s.bishops);
        let apart =
            |a: &Material, b: &Material| (a.dark_bishops == 0 && b.light_bishops == 0) || (a.light_bishops == 0 && b.dark_bishops == 0);
        return only_bishops && apart(&m[0], &m[1]);
    }
    // Against a lone king.
    if us.queens + us.pawns > 0 {
        return false;
    }
    if us.knights + us.bishops + us.rooks == 1 {
        return true;
    }
    us.non_kings() == us.knights && us.knights <= 2
}

/// Antichess: `us` cannot lose all its pieces (or be stalemated). `to_move`: whether `us` is
/// to move.
fn antichess(us: &Material, them: &Material, to_move: bool) -> bool {
    if us.all() == 0 {
        return false;
    }
    if them.all() == 0 {
        return true;
    }
    let only = |role: fn(&Material) -> u32| role(us) == us.all() && role(them) == them.all();
    if only(|s| s.bishops) {
        // Our bishops can never be taken by theirs if one of ours stands on a colour theirs
        // never stand on (bishops keep their square colour).
        let they_all_dark = them.on_light == 0;
        let they_all_light = them.on_dark == 0;
        return (us.on_light > 0 && they_all_dark) || (us.on_dark > 0 && they_all_light);
    }
    if only(|s| s.knights) && us.all() == 1 && them.all() == 1 {
        // One knight each (a knight changes square colour with every move): on one colour with
        // `us` to move, or on two with `them` to move, our knight can never be taken.
        let same_colour = (us.on_light > 0) == (them.on_light > 0);
        return same_colour != to_move;
    }
    false
}

/// Horde: whether `us` cannot mate `them`. The side with a king can always win (it can take
/// the whole horde); the horde's chances are judged from its material against the pieces the
/// king's side has that could block its own king in.
fn horde(us: &Material, them: &Material) -> bool {
    if us.kings > 0 {
        return false;
    }
    // The horde's material, bishops at most two per square colour.
    let bishops = us.light_bishops.min(2) + us.dark_bishops.min(2);
    let n = us.pawns + us.knights + us.rooks + us.queens + us.others + bishops;
    // The square colour of the horde's bishops (light when it has a light one), and the other.
    let colour = us.light_bishops > 0;
    let theirs = them.all();
    let their_bishops = |light: bool| them.bishops_on(light);
    match n {
        0 => true,
        4.. => false,
        _ if (us.pawns > 0 || us.queens > 0) && n >= 2 => false,
        // A rook with another piece mates, except a rook and a bishop against a king whose
        // only company (if any) are bishops on the horde bishop's colour: that is judged below.
        _ if us.rooks > 0 && n >= 2 && !(n == 2 && us.rooks == 1 && us.bishops == 1 && theirs - their_bishops(colour) == 1) => false,
        1 => horde_one_piece(us, them, colour),
        2 => horde_two_minors(us, them, colour),
        _ => {
            // Three minor pieces: two knights and a bishop, three knights or the bishop pair
            // and another mate a cornered king; two bishops of one colour and a knight need the
            // king to have company.
            let mates = (us.knights == 2 && us.bishops == 1) || us.knights == 3 || us.bishop_pair();
            !mates && theirs == 1
        }
    }
}

/// Horde with one piece (`colour`: its bishop's square colour, if it is a bishop): it mates
/// only with the help of the king's own pieces boxing the king in.
fn horde_one_piece(us: &Material, them: &Material, colour: bool) -> bool {
    if them.all() == 1 {
        return true;
    }
    let other = them.bishops_on(!colour);
    if us.queens == 1 {
        // A queen mates a cornered king hemmed in by a pawn or rook, or by two bishops of one
        // colour.
        return !(them.pawns >= 1 || them.rooks >= 1 || them.light_bishops >= 2 || them.dark_bishops >= 2);
    }
    if us.pawns == 1 {
        // The pawn may promote to a queen or to a knight: insufficient only if both are.
        let queen = Material { pawns: 0, queens: 1, ..*us };
        let knight = Material { pawns: 0, knights: 1, ..*us };
        return horde(&queen, them) && horde(&knight, them);
    }
    if us.rooks == 1 {
        return !(them.pawns >= 2
            || (them.rooks >= 1 && them.pawns >= 1)
            || (them.rooks >= 1 && them.knights >= 1)
            || (them.pawns >= 1 && them.knights >= 1));
    }
    if us.bishops == 1 {
        return !(other >= 2 || (other >= 1 && them.pawns >= 1) || them.pawns >= 2);
    }
    if us.knights == 1 {
        let pairs = them.knights >= 2
            || them.pawns >= 2
            || (them.rooks >= 1 && (them.knights >= 1 || them.bishops >= 1 || them.pawns >= 1))
            || (them.knights >= 1 && (them.bishops >= 1 || them.pawns >= 1))
            || (them.bishops >= 1 && them.pawns >= 1)
            || (them.bishop_pair() && them.pawns >= 1);
        let crowded = |light: bool| them.bishops_on(light) < 2 || them.all() - them.bishops_on(light) >= 3;
        return !(them.all() >= 4 && pairs && crowded(false) && crowded(true));
    }
    true
}

/// Horde with two minor pieces.
fn horde_two_minors(us: &Material, them: &Material, colour: bool) -> bool {
    if them.all() == 1 {
        return true;
    }
    if us.knights == 2 {
        return them.pawns + them.bishops + them.knights == 0;
    }
    if us.bishop_pair() {
        return !(them.pawns >= 1 || them.bishops >= 1 || (them.knights >= 1 && them.rooks + them.queens >= 1));
    }
    let other = them.bishops_on(!colour);
    if us.bishops >= 1 && us.knights >= 1 {
        return !(them.pawns >= 1 || other >= 1 || them.all() - them.bishops_on(colour) >= 3);
    }
    // Two bishops of one colour mate only a king hemmed in by two of its own pieces that can
    // stand on the other colour (pawns, knights, bishops of that colour).
    them.pawns + them.knights + other < 2
}
