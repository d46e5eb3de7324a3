//! FEN in and out, with X-FEN and Shredder castling so Chess960 positions read exactly.

use std::fmt;

use super::geometry::{Geometry, Side, Square};
use super::moves::Wing;
use super::piece::{Cell, PieceType};
use super::registry::PieceTypeRegistry;
use super::state::CastlingRights;
use super::variant::{CastlingRule, Variant};

/// The FEN field a problem is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    /// Piece placement.
    Board,
    /// Side to move.
    Turn,
    /// Castling rights.
    Castling,
    /// En-passant square.
    EnPassant,
    /// Half-move clock.
    HalfmoveClock,
    /// Full-move number.
    Fullmove,
    /// The position as a whole (e.g. the side not to move is in check).
    Position,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "piece placement (field 1)",
            FenField::Turn => "side to move (field 2)",
            FenField::Castling => "castling rights (field 3)",
            FenField::EnPassant => "en-passant square (field 4)",
            FenField::HalfmoveClock => "half-move clock (field 5)",
            FenField::Fullmove => "full-move number (field 6)",
            FenField::Position => "position",
        })
    }
}

/// The most pieces of one type a position may hold, on the board and in both hands together
/// (hands count a type's pieces in one byte).
pub const MAX_PIECES_OF_A_TYPE: usize = 255;

/// A FEN that cannot be read, with the field and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    /// The kind of problem.
    pub code: FenCode,
    /// Where the problem is.
    pub field: FenField,
    /// What is wrong and, where possible, what was expected.
    pub message: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN, {}: {}", self.field, self.message)
    }
}

impl std::error::Error for FenError {}

impl FenError {
    /// Every FEN problem is an error: the position is refused. (Warnings are for variant
    /// files, which may load and still not say what their author meant.)
    pub const fn severity(&self) -> super::codes::Severity {
        super::codes::Severity::Error
    }
}

super::codes::stable_codes! {
    /// The kind of a [`FenError`], one per kind of mistake and stable across versions, so
    /// that tools and the editor can key on it (the field and message say where and what).
    FenCode, "E_FEN_RANK_WIDTH" {
    /// Nothing to read.
    Empty = "E_FEN_EMPTY",
    /// Not as many ranks as the board has.
    RankCount = "E_FEN_RANK_COUNT",
    /// A rank with more or fewer squares than the board's files, or an empty run of 0.
    RankWidth = "E_FEN_RANK_WIDTH",
    /// A letter that is no piece of the variant, or a `+`/`~` mark in the wrong place.
    PieceLetter = "E_FEN_PIECE_LETTER",
    /// A pocket in a variant without hands, an unclosed pocket, or an unknown letter in it.
    Pocket = "E_FEN_POCKET",
    /// More pieces of one type, on the board and in hand, than the engine counts.
    PieceCount = "E_FEN_PIECE_COUNT",
    /// The side to move is not `w` or `b`.
    Turn = "E_FEN_TURN",
    /// A castling right that does not read or has no king or rook to go with it.
    Castling = "E_FEN_CASTLING",
    /// An en-passant square off the board or without the pawn that made the double step.
    EnPassant = "E_FEN_EN_PASSANT",
    /// A clock or move number that is not a whole number.
    Number = "E_FEN_NUMBER",
    /// A half-move clock past the variant's move rule.
    ClockRange = "E_FEN_CLOCK_RANGE",
    /// Check counters that do not read, or that say the game should have ended.
    CheckCounters = "E_FEN_CHECK_COUNTERS",
    /// Text after the last field.
    ExtraText = "E_FEN_EXTRA_TEXT",
    /// The trailing field (Chimera's facts) does not read or is not for this game.
    Trailing = "E_FEN_TRAILING",
    /// A piece that promotes stands on its promotion rank.
    PromotionRank = "E_FEN_PROMOTION_RANK",
    /// A piece where the variant's moves could never have brought it (a pawn on its first
    /// rank, a general outside its palace, a shogi pawn on its last rank or doubled).
    Unreachable = "E_FEN_UNREACHABLE",
    /// A royal piece held in hand.
    RoyalInHand = "E_FEN_ROYAL_IN_HAND",
    /// Too many or too few royal pieces.
    RoyalCount = "E_FEN_ROYAL_COUNT",
    /// The generals face each other on an open file or rank.
    GeneralsFace = "E_FEN_GENERALS_FACE",
    /// The side that is not to move is in check.
    WaitingInCheck = "E_FEN_WAITING_IN_CHECK",
    /// Walls (`*`) where the board has none, or a wall of the board not written as `*`.
    Walls = "E_FEN_WALLS",
}
}

fn err(code: FenCode, field: FenField, message: impl Into<String>) -> FenError {
    FenError { code, field, message: message.into() }
}

/// A position as read from FEN, before it is set up on a world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Pieces on the board, in square order.
    pub pieces: Vec<(Square, PieceType, Side)>,
    /// Walls (`*`), in square order: the board's own, and the duck where the variant has one.
    pub walls: Vec<Square>,
    /// Side to move.
    pub turn: Side,
    /// Castling rights.
    pub castling: CastlingRights,
    /// En-passant square as written.
    pub ep_square: Option<Square>,
    /// A second square in the en-passant field (Fairy-Stockfish writes Berolina's as the square
    /// passed over and the pawn's square, in board order, e.g. `c5d6`).
    pub ep_other: Option<Square>,
    /// Half-move clock.
    pub halfmove_clock: u32,
    /// Full-move number.
    pub fullmove: u32,
    /// Checks given by each side, when the FEN has check counters.
    pub checks: Option<[u8; 2]>,
    /// Pieces in hand (`[...]` or an extra rank after the board).
    pub hand: Vec<(PieceType, Side)>,
    /// Squares of promoted pieces (written `~` after the letter), with the type they were
    /// promoted from.
    pub promoted: Vec<(Square, PieceType)>,
    /// Gating files per side (Seirawan).
    pub gates: [u16; 2],
    /// Per side and file, the piece waiting in the gate row (type index plus one), under
    /// fixed gating (Musketeer).
    pub fixed_gates: [[u8; 16]; 2],
    /// Chimera's own trailing field (`{...}`, after the standard fields, which stay exactly
    /// Fairy-Stockfish's): the turn counters the rules read and the sections presets write
    /// (their piece facts and state), which [`Setup::extra`] keeps for them.
    pub counters: Counters,
    /// The trailing field's sections that are not the rules' own, for the presets to read.
    pub extra: Vec<String>,
}

impl Setup {
    /// How many pieces of `kind` and `side` the position holds, on the board and in hand.
    pub fn count(&self, kind: PieceType, side: Side) -> usize {
        let on_board = self.pieces.iter().filter(|&&(_, k, s)| k == kind && s == side).count();
        on_board + self.hand.iter().filter(|&&(k, s)| k == kind && s == side).count()
    }
}

/// Game-level counters a position may need beyond the standard FEN fields (all zero in a
/// position reached without presets, Janggi aside).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Half-moves already played in this turn (double moves).
    pub half_moves_this_turn: u8,
    /// Moves in a row with the generals facing each other (Janggi's bikjang).
    pub facing_streak: u8,
    /// Passes in a row (Janggi).
    pub pass_streak: u8,
    /// A game-result hook switched the default end rules off for this position.
    pub default_end_suppressed: bool,
    /// The last move was a drop that may not mate, and it mated (`foul`): the dropper loses.
    /// (Written only at such a mate, where it changes the verdict.)
    pub foul_drop: bool,
    /// The game ended here by a rule judged during a move that the position alone does not
    /// show (a preset's: the first capture, a king taken by a second move): `end=b:first_capture`.
    pub decided: Option<super::outcome::Outcome>,
}

/// Splits Chimera's trailing field off a FEN: `(standard fields, field content)`.
pub fn split_trailing(fen: &str) -> (&str, Option<&str>) {
    let t = fen.trim_end();
    if t.ends_with('}')
        && let Some(open) = t.rfind(" {")
    {
        return (&t[..open], Some(&t[open + 2..t.len() - 1]));
    }
    (fen, None)
}

/// The name under which the trailing field lists the kings a preset crowned (dual-king's
/// queens), which never castle.
pub const CROWNED_FACT: &str = "Crowned";

/// The squares the trailing field's [`CROWNED_FACT`] section gives a non-zero value.
fn crowned_squares(g: Geometry, sections: &[String]) -> Vec<Square> {
    let Some(body) = sections.iter().find_map(|s| s.strip_prefix(CROWNED_FACT)?.strip_prefix('=')) else { return Vec::new() };
    body.split(',')
        .filter_map(|entry| {
            let (sq, v) = entry.split_once(':')?;
            (v.parse::<i32>().ok()? != 0).then(|| g.parse_square(sq)).flatten()
        })
        .collect()
}

/// Reads the rules' own sections of the trailing field (`moves=1`, `facing=1`, `pass=1`,
/// `noend`, `foul`); returns the others.
fn parse_trailing(text: &str) -> Result<(Counters, Vec<String>), FenError> {
    let mut counters = Counters::default();
    let mut others = Vec::new();
    for section in text.split(';').filter(|s| !s.is_empty()) {
        let number = |v: &str| {
            v.parse::<u8>().map_err(|_| {
                err(FenCode::Trailing, FenField::Position, format!("trailing field: '{section}' needs a number from 0 to 255"))
            })
        };
        match section.split_once('=') {
            Some(("moves", v)) => counters.half_moves_this_turn = number(v)?,
            Some(("facing", v)) => counters.facing_streak = number(v)?,
            Some(("pass", v)) => counters.pass_streak = number(v)?,
            None if section == "noend" => counters.default_end_suppressed = true,
            None if section == "foul" => counters.foul_drop = true,
            Some(("end", v)) => {
                counters.decided = Some(read_end(v).ok_or_else(|| {
                    err(FenCode::Trailing, FenField::Position, format!("trailing field: '{section}' is not end=w|b|d:reason"))
                })?)
            }
            _ => others.push(section.to_string()),
        }
    }
    Ok((counters, others))
}

/// Writes the rules' own sections of the trailing field.
pub fn write_counters(c: &Counters) -> Vec<String> {
    let mut out = Vec::new();
    for (name, v) in [("moves", c.half_moves_this_turn), ("facing", c.facing_streak), ("pass", c.pass_streak)] {
        if v != 0 {
            out.push(format!("{name}={v}"));
        }
    }
    if c.default_end_suppressed {
        out.push("noend".into());
    }
    if c.foul_drop {
        out.push("foul".into());
    }
    if let Some(o) = &c.decided {
        out.push(format!("end={}", write_end(o)));
    }
    out
}

/// `w:first_capture`, `d:repetition`: the winner (`d` for a draw) and the reason, spaces as `_`.
fn write_end(o: &super::outcome::Outcome) -> String {
    use super::outcome::Reason;
    let who = match o.winner {
        Some(Side::White) => 'w',
        Some(Side::Black) => 'b',
        None => 'd',
    };
    let why = match &o.reason {
        Reason::Checkmate => "#checkmate".to_string(),
        Reason::Stalemate => "#stalemate".to_string(),
        Reason::FiftyMoves => "#fifty-moves".to_string(),
        Reason::Repetition => "#repetition".to_string(),
        Reason::InsufficientMaterial => "#insufficient-material".to_string(),
        Reason::Rule(words) => words
            .chars()
            .map(|c| {
                if c == ' ' {
                    '_'
                } else if matches!(c, ';' | '}' | '{') {
                    ','
                } else {
                    c
                }
            })
            .collect(),
    };
    format!("{who}:{why}")
}

fn read_end(text: &str) -> Option<super::outcome::Outcome> {
    use super::outcome::{Outcome, Reason};
    let (who, why) = text.split_once(':')?;
    let reason = match why {
        "#checkmate" => Reason::Checkmate,
        "#stalemate" => Reason::Stalemate,
        "#fifty-moves" => Reason::FiftyMoves,
        "#repetition" => Reason::Repetition,
        "#insufficient-material" => Reason::InsufficientMaterial,
        words if !words.is_empty() && !words.starts_with('#') => Reason::Rule(words.replace('_', " ")),
        _ => return None,
    };
    match who {
        "w" => Some(Outcome::win(Side::White, reason)),
        "b" => Some(Outcome::win(Side::Black, reason)),
        "d" => Some(Outcome::draw(reason)),
        _ => None,
    }
}

/// Reads check counters: `r+r` as checks remaining of `limit` (Fairy-Stockfish, X-FEN), or
/// `+g+g` as checks given (lichess).
fn parse_checks(text: &str, limit: u8) -> Option<[u8; 2]> {
    if let Some(rest) = text.strip_prefix('+') {
        let (w, b) = rest.split_once('+')?;
        return Some([w.parse().ok()?, b.parse().ok()?]);
    }
    let (w, b) = text.split_once('+')?;
    let (w, b): (u8, u8) = (w.parse().ok()?, b.parse().ok()?);
    Some([limit.checked_sub(w)?, limit.checked_sub(b)?])
}

/// Reads a FEN for `variant`. The clocks may be missing (EPD), and default to `0 1`.
///
/// # Errors
/// A [`FenError`] naming the field and the problem.
pub fn parse_fen(variant: &Variant, fen: &str) -> Result<Setup, FenError> {
    let g = variant.geometry;
    let reg = &variant.registry;
    let (fen, trailing) = split_trailing(fen);
    let (counters, extra) = match trailing {
        Some(t) => parse_trailing(t)?,
        None => (Counters::default(), Vec::new()),
    };
    let mut fields = fen.split_whitespace();
    let placement = fields.next().ok_or_else(|| err(FenCode::Empty, FenField::Board, "the FEN is empty"))?;
    let (placement, pocket) = split_pocket(g, placement);
    // Fixed gating: a gate row beyond each back rank (black's first, white's last).
    let (placement, gate_rows) = match variant.switches.fixed_gating {
        true => split_gate_rows(g, placement)?,
        false => (placement.to_string(), None),
    };
    let (pieces, promoted_squares, walls) = parse_placement(g, reg, &placement)?;
    check_walls(variant, &walls)?;
    // `~` marks a piece a promotion made: a type the variant's promotions give, or (a modifier
    // profile may offer other choices) any type that neither promotes itself nor is royal,
    // where something promotes at all.
    let promotes = reg.types.iter().any(|d| d.promotes || d.promotes_to.is_some());
    for &(sq, _) in promoted_squares.iter().filter(|(_, from)| from.is_none()) {
        let Some(&(_, kind, _)) = pieces.iter().find(|p| p.0 == sq) else { continue };
        let def = reg.def(kind);
        let given = variant.promotion.offers(kind) || reg.ids().any(|t| reg.def(t).promotes_to == Some(kind));
        let may_be_given = promotes && !def.promotes && def.promotes_to.is_none() && !def.royal;
        if !(given || may_be_given) {
            let name = &reg.def(kind).name;
            let message = format!("{}: '~' marks a promoted piece, but no promotion gives a {name} in this variant", g.name(sq));
            return Err(err(FenCode::PieceLetter, FenField::Board, message));
        }
    }
    let mut hand = Vec::new();
    // An empty pocket (`[]`, `[-]`) in a variant without hands says nothing: Fairy-Stockfish
    // reads it so (its tests write Xiangqi's FENs with one).
    let hands = variant.drops.is_some() || variant.switches.gating;
    let pocket = pocket.filter(|p| hands || !(p.is_empty() || *p == "-"));
    if let Some(pocket) = pocket {
        if !hands {
            return Err(err(FenCode::Pocket, FenField::Board, "this variant has no hands, but the FEN has a pocket"));
        }
        if pocket.starts_with('[') {
            return Err(err(FenCode::Pocket, FenField::Board, "pocket: the '[' is not closed by ']'"));
        }
        // `[-]` is an empty pocket, as Fairy-Stockfish writes Shogi's start.
        for c in pocket.chars().filter(|_| pocket != "-") {
            let kind = reg
                .by_letter(c)
                .filter(|_| c.is_ascii_alphabetic())
                .ok_or_else(|| err(FenCode::Pocket, FenField::Board, format!("pocket: unknown piece letter '{c}'")))?;
            hand.push((kind, if c.is_ascii_uppercase() { Side::White } else { Side::Black }));
        }
        // A type's pieces, on the board and in both pockets, are counted in one byte each way a
        // capture can move them.
        for kind in reg.ids() {
            let total = hand.iter().filter(|(k, _)| *k == kind).count() + pieces.iter().filter(|p| p.1 == kind).count();
            if total > MAX_PIECES_OF_A_TYPE {
                let letter = reg.def(kind).letter;
                return Err(err(
                    FenCode::PieceCount,
                    FenField::Board,
                    format!("pocket: {total} pieces of type '{letter}' on the board and in hand; at most {MAX_PIECES_OF_A_TYPE}"),
                ));
            }
        }
    }
    // `X~` was promoted from the first promoting type (the pawn); `+X` from X.
    let pawn = reg.ids().find(|&t| reg.def(t).promotes);
    let promoted = promoted_squares.into_iter().filter_map(|(sq, base)| base.or(pawn).map(|b| (sq, b))).collect();
    // A bare placement (as lichess and Fairy-Stockfish accept) means white to move, no
    // castling, no en passant, clocks at the start.
    let turn = match fields.next() {
        None => Side::White,
        Some("w") => Side::White,
        Some("b") => Side::Black,
        Some(other) => return Err(err(FenCode::Turn, FenField::Turn, format!("'{other}'; expected 'w' or 'b'"))),
    };
    // Fairy-Stockfish writes the Shogi family's FENs without the castling and en-passant fields
    // (`…[-] w 0 1`, pyffish's `start_fen`, and what its GUIs send): two numbers right after the
    // side to move are the clocks.
    let rest: Vec<&str> = fields.collect();
    let rest = match rest[..] {
        [half, full] if half.parse::<u32>().is_ok() && full.parse::<u32>().is_ok() => vec!["-", "-", half, full],
        _ => rest,
    };
    let mut fields = rest.into_iter();
    let mut fixed_gates = [[0u8; 16]; 2];
    let mut gated_hand = Vec::new();
    if let Some(rows) = gate_rows {
        for (side, row) in [(Side::Black, rows.0), (Side::White, rows.1)] {
            let back = if side == Side::White { 0 } else { g.ranks - 1 };
            for (f, c) in row.into_iter().enumerate() {
                let Some(c) = c else { continue };
                let kind = reg
                    .by_letter(c)
                    .filter(|_| c.is_ascii_uppercase() == (side == Side::White))
                    .ok_or_else(|| err(FenCode::Pocket, FenField::Board, format!("gate row: '{c}' is not a {side} piece")))?;
                let below = Square(back * g.files + f as u8);
                if !pieces.iter().any(|&(sq, _, s)| sq == below && s == side) {
                    let at = g.name(below);
                    return Err(err(
                        FenCode::Pocket,
                        FenField::Board,
                        format!("gate row: '{c}' waits above {at}, which holds no {side} piece"),
                    ));
                }
                fixed_gates[side.index()][f] = kind.0 + 1;
                gated_hand.push((kind, side));
            }
        }
    }
    hand.extend(gated_hand);
    let (castling, mut gates) = match fields.next() {
        None => (CastlingRights::default(), [0, 0]),
        Some(text) => {
            // (A king a preset crowned, written in the trailing field, never castles: it is no
            // castling king, and its gate letter grants the rooks nothing.)
            let crowned = crowned_squares(g, &extra);
            let homes = Side::BOTH.map(|side| {
                let back = variant.castling_rank(side);
                let castlers = || pieces.iter().filter(|(sq, k, s)| *s == side && reg.def(*k).castles && !crowned.contains(sq));
                let files: Vec<u8> = castlers().filter(|(sq, _, _)| g.rank(*sq) == back).map(|(sq, _, _)| g.file(*sq)).collect();
                let elsewhere = castlers().any(|(sq, _, _)| g.rank(*sq) != back);
                castling_king(variant, side, &files, elsewhere)
            });
            parse_castling(
                g,
                reg,
                variant.castling.as_ref(),
                variant.switches.gating || variant.switches.cambodian_moves,
                homes,
                &pieces,
                text,
            )?
        }
    };
    for side in Side::BOTH {
        for f in 0..g.files.min(16) {
            if fixed_gates[side.index()][f as usize] != 0 {
                gates[side.index()] |= 1 << f;
            }
        }
    }
    // A side with nothing in hand has nothing to gate: its gating rights are void (unless
    // captures may fill the hand again, as in S-House).
    // (Cambodian rights are no gates for the hand.)
    let refilled = variant.drops.as_ref().is_some_and(|d| d.captures_to_hand) || variant.switches.cambodian_moves;
    for side in Side::BOTH {
        if !refilled && !hand.iter().any(|&(_, s)| s == side) {
            gates[side.index()] = 0;
        }
    }
    let (ep_square, ep_other) = match fields.next() {
        None | Some("-") => (None, None),
        Some(text) => {
            // One square, or two run together (`c5d6`): split before the second file letter.
            let split = text.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic()).map_or(text.len(), |(i, _)| i);
            let square = |t: &str| {
                g.parse_square(t)
                    .ok_or_else(|| err(FenCode::EnPassant, FenField::EnPassant, format!("'{t}' is not a square of this board")))
            };
            let first = square(&text[..split])?;
            let second = if split < text.len() { Some(square(&text[split..])?) } else { None };
            (Some(first), second)
        }
    };
    let number = |field: FenField, text: Option<&str>, default: u32| -> Result<u32, FenError> {
        match text {
            None => Ok(default),
            Some(t) => t.parse::<u32>().map_err(|_| err(FenCode::Number, field, format!("'{t}' is not a whole number"))),
        }
    };
    let limit = variant.check_limit();
    let mut rest: Vec<&str> = fields.collect();
    let mut checks = None;
    if let Some(limit) = limit {
        // Counters may stand before the clocks (`3+3`) or after them (`+0+0`).
        if let Some(i) = rest.iter().position(|t| t.contains('+')) {
            let t = rest.remove(i);
            checks = Some(parse_checks(t, limit).filter(|c| c[0] <= limit && c[1] <= limit).ok_or_else(|| {
                err(
                    FenCode::CheckCounters,
                    FenField::Position,
                    format!("check counters '{t}'; expected remaining checks like 3+3, or checks given like +0+0"),
                )
            })?);
        }
    }
    // A side that has given its last check has won: the game would not have gone on to its turn
    // (half-way through a turn of two moves, it is still the turn of the side that gave it).
    if let (Some(c), Some(limit)) = (checks, limit)
        && c[turn.index()] >= limit
        && counters.half_moves_this_turn == 0
    {
        return Err(err(
            FenCode::CheckCounters,
            FenField::Position,
            format!("check counters: {turn} has given all {limit} checks, but the game went on"),
        ));
    }
    let mut rest = rest.into_iter();
    let halfmove_clock = number(FenField::HalfmoveClock, rest.next(), 0)?;
    // Where the move rule ends the game by itself, the clock cannot pass it.
    if let Some(n) = variant.end.iter().find_map(|e| if let super::variant::EndCondition::MoveRule(n) = e { Some(*n) } else { None })
        && halfmove_clock > n
    {
        return Err(err(FenCode::ClockRange, FenField::HalfmoveClock, format!("{halfmove_clock} half-moves; the game is drawn at {n}")));
    }
    let fullmove = number(FenField::Fullmove, rest.next(), 1)?.max(1);
    if let Some(extra) = rest.next() {
        return Err(err(FenCode::ExtraText, FenField::Fullmove, format!("unexpected text '{extra}' after the last field")));
    }
    Ok(Setup {
        pieces,
        walls,
        turn,
        castling,
        ep_square,
        ep_other,
        halfmove_clock,
        fullmove,
        checks,
        hand,
        promoted,
        gates,
        fixed_gates,
        counters,
        extra,
    })
}

/// Splits fixed gating's gate rows off a placement: the board's ranks, and per side
/// (`(black, white)`) the piece letter waiting above each file (`*` or a digit: none).
#[allow(clippy::type_complexity)]
fn split_gate_rows(g: Geometry, placement: &str) -> Result<(String, Option<(Vec<Option<char>>, Vec<Option<char>>)>), FenError> {
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != usize::from(g.ranks) + 2 {
        let message = format!("{} rows; this variant writes its {} ranks between two gate rows", rows.len(), g.ranks);
        return Err(err(FenCode::RankCount, FenField::Board, message));
    }
    let row = |text: &str| -> Result<Vec<Option<char>>, FenError> {
        let files = usize::from(g.files);
        let wide = || err(FenCode::RankWidth, FenField::Board, format!("gate row '{text}' is not {files} files wide"));
        let mut out = Vec::new();
        let mut run = 0usize;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                // A run of empty files, bounded by the board's width (never a huge allocation).
                run = run.saturating_mul(10).saturating_add(d as usize);
                if run > files {
                    return Err(wide());
                }
                continue;
            }
            out.extend(std::iter::repeat_n(None, run));
            run = 0;
            out.push(if c == '*' { None } else { Some(c) });
            if out.len() > files {
                return Err(wide());
            }
        }
        out.extend(std::iter::repeat_n(None, run));
        if out.len() != files {
            return Err(wide());
        }
        Ok(out)
    };
    let (black, white) = (row(rows[0])?, row(rows[rows.len() - 1])?);
    Ok((rows[1..rows.len() - 1].join("/"), Some((black, white))))
}

/// Writes fixed gating's gate row for one side: the waiting pieces' letters, `*` elsewhere.
pub fn write_gate_row(variant: &Variant, side: Side, gates: &[u8; 16]) -> String {
    (0..variant.geometry.files as usize)
        .map(|f| match gates[f] {
            0 => '*',
            k => {
                let l = variant.registry.def(PieceType(k - 1)).letter;
                if side == Side::White { l } else { l.to_ascii_lowercase() }
            }
        })
        .collect()
}

/// The walls a FEN writes must be the board's, and beside them at most the duck where the
/// variant has one.
fn check_walls(variant: &Variant, walls: &[Square]) -> Result<(), FenError> {
    let g = variant.geometry;
    if let Some(&missing) = variant.walls.iter().find(|w| !walls.contains(w)) {
        return Err(err(FenCode::Walls, FenField::Board, format!("{} is a wall of this board; write it as '*'", g.name(missing))));
    }
    let extra: Vec<Square> = walls.iter().copied().filter(|w| !variant.walls.contains(w)).collect();
    // (A trail of walls may have any length.)
    let allowed = if variant.switches.trail_walls { usize::MAX } else { usize::from(variant.switches.duck) };
    if extra.len() > allowed {
        let names: Vec<String> = extra.iter().map(|&s| g.name(s)).collect();
        let message = if variant.switches.duck {
            format!("one duck ('*') at most; the FEN has walls on {}", names.join(", "))
        } else {
            format!("{} is not a wall of this board ('*' marks walls)", names.join(", "))
        };
        return Err(err(FenCode::Walls, FenField::Board, message));
    }
    Ok(())
}

/// Splits a pocket off the placement: `board[pocket]`, or one rank more than the board has.
fn split_pocket(g: Geometry, placement: &str) -> (&str, Option<&str>) {
    if let Some(open) = placement.find('[') {
        // An unclosed pocket keeps its '[': the letters check then refuses it.
        let pocket = placement[open + 1..].strip_suffix(']').unwrap_or(&placement[open..]);
        return (&placement[..open], Some(pocket));
    }
    if placement.split('/').count() == g.ranks as usize + 1 {
        let cut = placement.rfind('/').unwrap_or(placement.len());
        return (&placement[..cut], Some(&placement[cut + 1..]));
    }
    (placement, None)
}

/// Pieces on the board, and the squares of promoted ones with the type they were promoted
/// from when the FEN says it (`+X`), or `None` for Crazyhouse's `~`.
type Placement = (Vec<(Square, PieceType, Side)>, Vec<(Square, Option<PieceType>)>, Vec<Square>);

fn parse_placement(g: Geometry, reg: &PieceTypeRegistry, text: &str) -> Result<Placement, FenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != g.ranks as usize {
        return Err(err(FenCode::RankCount, FenField::Board, format!("{} ranks; this board has {}", rows.len(), g.ranks)));
    }
    let mut pieces = Vec::new();
    let mut promoted = Vec::new();
    let mut walls = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = g.ranks as usize - 1 - i;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        while let Some(mut c) = chars.next() {
            // Shogi's `+X`: a piece of the type X promotes to, promoted from X.
            let mut promoted_from = None;
            if c == '+' {
                let base = chars.next().and_then(|b| reg.by_letter(b).filter(|_| b.is_ascii_alphabetic()).map(|t| (b, t)));
                match base {
                    Some((b, t)) if reg.def(t).promotes_to.is_some() => {
                        promoted_from = Some(t);
                        c = b;
                    }
                    _ => {
                        return Err(err(
                            FenCode::PieceLetter,
                            FenField::Board,
                            format!("rank {}: '+' must precede the letter of a piece that promotes", rank + 1),
                        ));
                    }
                }
            }
            if c.is_ascii_digit() {
                let mut n = c.to_digit(10).unwrap_or(0) as usize;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                    n = n.saturating_mul(10).saturating_add(d as usize);
                    chars.next();
                }
                if n == 0 {
                    return Err(err(FenCode::RankWidth, FenField::Board, format!("rank {}: an empty run of 0 squares", rank + 1)));
                }
                file = file.saturating_add(n);
                if file > g.files as usize {
                    return Err(err(FenCode::RankWidth, FenField::Board, format!("rank {} has more than {} squares", rank + 1, g.files)));
                }
            } else if c == '*' && promoted_from.is_none() {
                if file >= g.files as usize {
                    return Err(err(FenCode::RankWidth, FenField::Board, format!("rank {} has more than {} squares", rank + 1, g.files)));
                }
                walls.push(Square((rank * g.files as usize + file) as u8));
                file += 1;
            } else if c == '~' {
                match pieces.last() {
                    Some(&(sq, _, _)) if file > 0 && Square((rank * g.files as usize + file - 1) as u8) == sq => promoted.push((sq, None)),
                    _ => {
                        return Err(err(
                            FenCode::PieceLetter,
                            FenField::Board,
                            format!("rank {}: '~' must follow a piece letter", rank + 1),
                        ));
                    }
                }
            } else if let Some(kind) = reg.by_letter(c).filter(|_| c.is_ascii_alphabetic()) {
                if file >= g.files as usize {
                    return Err(err(FenCode::RankWidth, FenField::Board, format!("rank {} has more than {} squares", rank + 1, g.files)));
                }
                let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
                let sq = Square((rank * g.files as usize + file) as u8);
                match promoted_from {
                    Some(base) => {
                        pieces.push((sq, reg.def(base).promotes_to.unwrap_or(kind), side));
                        promoted.push((sq, Some(base)));
                    }
                    None => pieces.push((sq, kind, side)),
                }
                file += 1;
            } else {
                let letters: String = reg.types.iter().map(|t| t.letter).collect();
                return Err(err(
                    FenCode::PieceLetter,
                    FenField::Board,
                    format!("rank {}: unknown piece letter '{c}'; this variant's letters are {letters}", rank + 1),
                ));
            }
            if file > g.files as usize {
                return Err(err(FenCode::RankWidth, FenField::Board, format!("rank {} has more than {} squares", rank + 1, g.files)));
            }
        }
        if file != g.files as usize {
            return Err(err(FenCode::RankWidth, FenField::Board, format!("rank {} has {file} squares; expected {}", rank + 1, g.files)));
        }
    }
    pieces.sort_by_key(|p| p.0);
    walls.sort();
    Ok((pieces, promoted, walls))
}

fn parse_castling(
    g: Geometry,
    reg: &PieceTypeRegistry,
    rule: Option<&CastlingRule>,
    gating: bool,
    // The file of the piece that castles on each side's back rank (see [`castling_king`]).
    homes: [Option<u8>; 2],
    pieces: &[(Square, PieceType, Side)],
    text: &str,
) -> Result<(CastlingRights, [u16; 2]), FenError> {
    let mut rights = CastlingRights::default();
    let mut gates = [0u16; 2];
    if text == "-" {
        return Ok((rights, gates));
    }
    for (i, c) in text.chars().enumerate() {
        if text.chars().take(i).any(|d| d == c) {
            return Err(err(FenCode::Castling, FenField::Castling, format!("'{c}' is written twice")));
        }
        let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
        let back = rule.map(|r| r.rank_of(side, g.ranks)).unwrap_or(if side == Side::White { 0 } else { g.ranks - 1 });
        let king = homes[side.index()];
        let rooks: Vec<u8> = pieces
            .iter()
            .filter(|(sq, k, s)| *s == side && reg.def(*k).castling_partner && g.rank(*sq) == back)
            .map(|(sq, _, _)| g.file(*sq))
            .collect();
        // Seirawan: a file letter without a castling rook there is a gate only.
        if gating
            && let l @ 'A'..='P' = c.to_ascii_uppercase()
            && l != 'K'
            && l != 'Q'
        {
            let f = l as u8 - b'A';
            if f >= g.files {
                return Err(err(FenCode::Castling, FenField::Castling, format!("'{c}' is not a file of this board")));
            }
            let occupied = pieces.iter().any(|(sq, _, s)| *s == side && g.rank(*sq) == back && g.file(*sq) == f);
            if !occupied {
                return Err(err(
                    FenCode::Castling,
                    FenField::Castling,
                    format!("gate '{c}' but {side} has no piece on that square to gate behind"),
                ));
            }
            gates[side.index()] |= 1 << f;
            // A rook's letter grants castling too while the king may still gate (its own file
            // letter, or K/Q, is there): after the king has moved, `ABCFH` are gates only, as
            // Fairy-Stockfish writes them.
            let king_gates = king.is_some_and(|k| {
                let own = (b'A' + k) as char;
                let own = if side == Side::White { own } else { own.to_ascii_lowercase() };
                let (kq, q) = if side == Side::White { ('K', 'Q') } else { ('k', 'q') };
                text.contains(own) || text.contains(kq) || text.contains(q)
            });
            if !rooks.contains(&f) || !king_gates {
                continue;
            }
        }
        let king =
            king.ok_or_else(|| err(FenCode::Castling, FenField::Castling, format!("'{c}' but {side} has no king on its back rank")))?;
        let preferred = |wing: Wing| rule.and_then(|r| r.rook_start).map(|s| s[wing.index()]).filter(|f| rooks.contains(f));
        let (wing, file) = match c.to_ascii_uppercase() {
            'K' => (Wing::King, preferred(Wing::King).or(rooks.iter().copied().filter(|&f| f > king).max())),
            'Q' => (Wing::Queen, preferred(Wing::Queen).or(rooks.iter().copied().filter(|&f| f < king).min())),
            l @ 'A'..='P' => {
                let f = l as u8 - b'A';
                let wing = if f > king { Wing::King } else { Wing::Queen };
                (wing, rooks.contains(&f).then_some(f))
            }
            _ => {
                return Err(err(
                    FenCode::Castling,
                    FenField::Castling,
                    format!("'{c}'; expected '-', KQkq or rook files (Shredder/X-FEN)"),
                ));
            }
        };
        let file =
            file.ok_or_else(|| err(FenCode::Castling, FenField::Castling, format!("'{c}' but {side} has no rook there to castle with")))?;
        rights.rooks[side.index()][wing.index()] = Some(file);
        if gating {
            // A castling right keeps the king's and that rook's squares open for gating.
            gates[side.index()] |= 1 << file | 1 << king;
        }
    }
    Ok((rights, gates))
}

/// Writes the en-passant field: the square passed over, or, when the pawn does not stand
/// straight behind it (Berolina), both squares in board order as Fairy-Stockfish does.
pub fn write_en_passant(g: Geometry, ep: Square, victim: Square) -> String {
    if g.file(ep) == g.file(victim) { g.name(ep) } else { format!("{}{}", g.name(ep.min(victim)), g.name(ep.max(victim))) }
}

/// Writes the piece placement field; `promoted` pieces (square, type promoted from) are
/// written `+X` where X promotes to them (Shogi), otherwise with a `~` (Crazyhouse).
pub fn write_placement(g: Geometry, reg: &PieceTypeRegistry, cells: &[Cell], promoted: &[(Square, PieceType)]) -> String {
    let mut out = String::new();
    for rank in (0..g.ranks).rev() {
        let mut empty = 0;
        for file in 0..g.files {
            let c = cells[(rank * g.files + file) as usize];
            if c.is_piece() {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                let base = promoted.iter().find(|(s, _)| *s == Square(rank * g.files + file)).map(|&(_, b)| b);
                let plus = base.filter(|&b| reg.def(b).promotes_to == Some(c.kind()));
                if plus.is_some() {
                    out.push('+');
                }
                let l = reg.def(plus.unwrap_or(c.kind())).letter;
                out.push(if c.side() == Side::White { l } else { l.to_ascii_lowercase() });
                if base.is_some() && plus.is_none() {
                    out.push('~');
                }
            } else if c == Cell::WALL {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push('*');
            } else {
                empty += 1;
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Writes castling rights as X-FEN: `K`/`Q` when the right belongs to the outermost rook on
/// that wing, the rook's file letter otherwise; `-` when there are none.
/// The file of the piece that castles among the castling pieces of `side` standing on its back
/// rank on `files`: the only one, when the side has no other (`elsewhere` says whether it has
/// one off its back rank); otherwise — a preset crowned a second king — the one on the file
/// where the variant's start puts it, or none: a king that left its start file has lost its
/// rights, and a crowned queen never castles, so the rook files written beside them are gates
/// only (they once read back as castling rights).
pub fn castling_king(variant: &Variant, side: Side, files: &[u8], elsewhere: bool) -> Option<u8> {
    if files.len() < 2 && !elsewhere {
        return files.first().copied();
    }
    let (g, reg) = (variant.geometry, &variant.registry);
    let back = variant.castling_rank(side);
    let start = variant.start_fen.split(' ').next().unwrap_or_default();
    let start = start.split_once('[').map_or(start, |(p, _)| p);
    // (Fixed gating writes a gate row beyond each back rank: the board is between them.)
    let board = if variant.switches.fixed_gating { split_gate_rows(g, start).ok().map(|(b, _)| b) } else { Some(start.to_string()) };
    let home = board.and_then(|b| parse_placement(g, reg, &b).ok()).and_then(|(placed, _, _)| {
        placed.iter().find(|(sq, k, s)| *s == side && reg.def(*k).castles && g.rank(*sq) == back).map(|(sq, _, _)| g.file(*sq))
    });
    // Two or more on the back rank, or one beside another elsewhere: a preset crowned one, and
    // only the king on its start file castles.
    home.filter(|f| files.contains(f))
}

/// Writes the castling field (with Seirawan's gates).
pub fn write_castling(variant: &Variant, cells: &[Cell], rights: &CastlingRights, gates: [u16; 2]) -> String {
    let (g, reg, rule) = (variant.geometry, &variant.registry, variant.castling.as_ref());
    let mut out = String::new();
    for side in Side::BOTH {
        let back = variant.castling_rank(side);
        for wing in Wing::BOTH {
            let Some(file) = rights.get(side, wing) else { continue };
            let rook_files = (0..g.files).filter(|&f| {
                let c = cells[(back * g.files + f) as usize];
                c.is_piece() && c.side() == side && reg.def(c.kind()).castling_partner
            });
            let rook_files: Vec<u8> = rook_files.collect();
            let preferred = rule.and_then(|r| r.rook_start).map(|s| s[wing.index()]).filter(|f| rook_files.contains(f));
            let outermost = preferred.or(match wing {
                Wing::King => rook_files.iter().copied().max(),
                Wing::Queen => rook_files.iter().copied().min(),
            });
            let letter = if outermost == Some(file) { if wing == Wing::King { 'K' } else { 'Q' } } else { (b'A' + file) as char };
            out.push(if side == Side::White { letter } else { letter.to_ascii_lowercase() });
        }
        // Gates not implied by a castling right (the king's file and the castling rooks').
        let mut implied = 0u16;
        if rights.rooks[side.index()].iter().any(Option::is_some) {
            let castler = |i: usize| {
                let c = cells[i];
                c.is_piece() && c.side() == side && reg.def(c.kind()).castles
            };
            let files: Vec<u8> = (0..g.files).filter(|&f| castler((back * g.files + f) as usize)).collect();
            let elsewhere = (0..cells.len()).any(|i| castler(i) && g.rank(Square(i as u8)) != back);
            if let Some(k) = castling_king(variant, side, &files, elsewhere) {
                implied |= 1 << k;
            }
            for f in rights.rooks[side.index()].iter().flatten() {
                implied |= 1 << f;
            }
        }
        for f in 0..g.files {
            if gates[side.index()] & !implied & (1 << f) != 0 {
                let l = (b'A' + f) as char;
                out.push(if side == Side::White { l } else { l.to_ascii_lowercase() });
            }
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// Writes a pocket as `[...]`: white's pieces then black's, each from the last type to the first
/// (`[QRBNPqrbnp]` in chess).
pub fn write_pocket(reg: &PieceTypeRegistry, counts: &[[u8; 64]; 2]) -> String {
    let mut out = String::from("[");
    for side in Side::BOTH {
        for kind in reg.ids().collect::<Vec<_>>().into_iter().rev() {
            let l = reg.def(kind).letter;
            let l = if side == Side::White { l } else { l.to_ascii_lowercase() };
            for _ in 0..counts[side.index()][kind.0 as usize] {
                out.push(l);
            }
        }
    }
    out.push(']');
    out
}
