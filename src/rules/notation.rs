//! Move notation: UCI and SAN, in and out.

use std::fmt;

use super::geometry::{Geometry, Square};
use super::moves::{Move, MoveKind, Wing};
use super::piece::Cell;
use super::variant::Variant;

/// Why a move was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in that notation.
    Unparsable {
        /// The text given.
        text: String,
        /// What is wrong with it.
        why: String,
    },
    /// The move is well-formed but not legal here.
    Illegal {
        /// The move as given.
        text: String,
        /// Why (e.g. no piece there, leaves the king in check).
        why: String,
    },
    /// A SAN move that fits more than one legal move.
    Ambiguous {
        /// The text given.
        text: String,
        /// The legal moves it could mean, in SAN.
        candidates: Vec<String>,
    },
    /// A preset's before-move hook cancelled it.
    Cancelled {
        /// The preset id.
        preset: String,
        /// Its reason.
        reason: String,
    },
    /// The game is over.
    GameOver(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Unparsable { text, why } => write!(f, "cannot read move '{text}': {why}"),
            MoveError::Illegal { text, why } => write!(f, "illegal move '{text}': {why}"),
            MoveError::Ambiguous { text, candidates } => {
                write!(f, "ambiguous move '{text}': it could be {}", candidates.join(" or "))
            }
            MoveError::Cancelled { preset, reason } => write!(f, "move cancelled by {preset}: {reason}"),
            MoveError::GameOver(why) => write!(f, "the game is over ({why})"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The square a castling king lands on.
pub fn castle_king_square(variant: &Variant, m: &Move, wing: Wing) -> Square {
    let g = variant.geometry;
    let files = variant.castling.as_ref().map(|r| r.king_files).unwrap_or([g.files - 2, 2]);
    Square(g.rank(m.from) * g.files + files[wing.index()])
}

/// Whether castling is written as the king going to its destination: not in Chess960 mode,
/// and not where the king moves less than two files (its move to that square could be a king's
/// plain move, so castling is written king-takes-rook there, as Fairy-Stockfish writes it).
fn castle_to_king_square(variant: &Variant, m: &Move, wing: Wing) -> bool {
    let g = variant.geometry;
    !variant.chess960 && g.file(castle_king_square(variant, m, wing)).abs_diff(g.file(m.from)) >= 2
}

/// A move in UCI: `e2e4`, `e7e8q`; castling as king to its destination, or king to rook
/// in Chess960 mode (and where the king moves less than two files).
pub fn to_uci(variant: &Variant, m: &Move) -> String {
    let g = variant.geometry;
    if let MoveKind::Drop(kind) = m.kind {
        return format!("{}@{}", variant.registry.def(kind).letter, g.name(m.to));
    }
    let to = match m.kind {
        MoveKind::Castle(wing) if castle_to_king_square(variant, m, wing) => castle_king_square(variant, m, wing),
        _ => m.to,
    };
    // Gating onto the rook's square when castling is written rook-to-king (Seirawan).
    let (from, to) = match (m.kind, m.gate) {
        (MoveKind::Castle(_), Some(gate)) if gate.square == m.to => (m.to, m.from),
        _ => (m.from, to),
    };
    let mut s = g.name(from);
    // A capture on an earlier leg is written leg by leg, as Fairy-Stockfish writes a move in
    // two parts (`d4d5,d5d4`: the first leg, then from there to where it ends).
    if let MoveKind::Locust(via) = m.kind {
        s.push_str(&g.name(via));
        s.push(',');
        s.push_str(&g.name(via));
    }
    s.push_str(&g.name(to));
    if let Some(p) = m.promotion {
        // Shogi-style promotion (to the one type the piece promotes to) is written `+`.
        let per_type = variant.piece_promotion.is_some() && variant.registry.types.iter().any(|t| t.promotes_to == Some(p));
        s.push(if per_type { '+' } else { variant.registry.def(p).letter.to_ascii_lowercase() });
    }
    if let Some(gate) = m.gate {
        s.push(variant.registry.def(gate.kind).letter.to_ascii_lowercase());
    }
    // The duck's move, as Fairy-Stockfish writes it: from where the piece landed to the duck's
    // square (`e2e4,e4e5`).
    if let Some(wall) = m.wall {
        s.push(',');
        s.push_str(&g.name(to));
        s.push_str(&g.name(wall));
    }
    s
}

/// Splits UCI text into its two squares and optional promotion letter.
fn split_uci(g: Geometry, text: &str) -> Result<(Square, Square, Option<char>), String> {
    let bytes = text.as_bytes();
    let mut i = 1;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    let from = g.parse_square(&text[..i.min(text.len())]).ok_or("the first square is not on this board")?;
    let rest = &text[i..];
    let mut j = 1;
    let rb = rest.as_bytes();
    while j < rb.len() && rb[j].is_ascii_digit() {
        j += 1;
    }
    if rest.is_empty() {
        return Err("expected two squares, like e2e4".into());
    }
    let to = g.parse_square(&rest[..j.min(rest.len())]).ok_or("the second square is not on this board")?;
    let tail = &rest[j.min(rest.len())..];
    let promo = match tail.len() {
        0 => None,
        1 => Some(tail.chars().next().unwrap_or(' ')),
        _ => return Err(format!("unexpected '{tail}' after the squares")),
    };
    Ok((from, to, promo))
}

/// Finds the legal move written as `text` in UCI. In standard mode castling may be written
/// king-to-destination or king-to-rook.
///
/// # Errors
/// Unparsable text, or a move not among `legal`.
pub fn parse_uci(variant: &Variant, cells: &[Cell], legal: &[Move], text: &str) -> Result<Move, MoveError> {
    let g = variant.geometry;
    // A multi-leg move's two parts (`d4d5,d5d4`).
    if let Some(m) = legal.iter().find(|m| matches!(m.kind, MoveKind::Locust(_)) && to_uci(variant, m) == text) {
        return Ok(*m);
    }
    if let Some((piece_move, duck)) = text.split_once(',') {
        let m = parse_with_duck(variant, legal, text, duck, |legal| parse_uci(variant, cells, legal, piece_move), true)?;
        // The duck's part starts where the piece landed.
        let written = to_uci(variant, &m);
        if written != text {
            return Err(MoveError::Unparsable { text: text.into(), why: format!("the duck moves from where the piece lands: {written}") });
        }
        return Ok(m);
    }
    if let Some((piece, square)) = text.split_once('@') {
        return parse_drop(variant, legal, text, piece, square);
    }
    if let Some(m) = legal.iter().find(|m| to_uci(variant, m) == text || (text == "pass" && m.kind == MoveKind::Pass)) {
        return Ok(*m);
    }
    // A trail's wall goes where the piece left, whether or not the text says so.
    if variant.switches.trail_walls
        && let Some(m) = legal.iter().find(|m| to_uci(variant, &Move { wall: None, ..**m }) == text)
    {
        return Ok(*m);
    }
    if !text.is_ascii() || text.len() < 4 {
        return Err(MoveError::Unparsable {
            text: text.into(),
            why: "expected squares like e2e4, with an optional promotion letter".into(),
        });
    }
    let (from, to, promo) = split_uci(g, text).map_err(|why| MoveError::Unparsable { text: text.into(), why })?;
    let promotion = match promo {
        None => None,
        Some(c) => Some(
            variant
                .registry
                .by_letter(c)
                .ok_or_else(|| MoveError::Unparsable { text: text.into(), why: format!("'{c}' is not a piece letter of this variant") })?,
        ),
    };
    let found = legal.iter().find(|m| {
        m.from == from
            && m.gate.is_none()
            && m.promotion == promotion
            && match m.kind {
                MoveKind::Castle(wing) => {
                    m.to == to || castle_king_square(variant, m, wing) == to && castle_to_king_square(variant, m, wing)
                }
                // Written with both legs, read above.
                MoveKind::Locust(_) => false,
                _ => m.to == to,
            }
    });
    found
        .copied()
        .ok_or_else(|| MoveError::Illegal { text: text.into(), why: illegal_reason(variant, cells, legal, from, to, promotion.is_some()) })
}

/// Reads a move with the duck's (`e2e4,e4e5` in UCI, `e4,e5` in SAN): the piece's move is
/// read by `piece_move` among the legal moves that put the duck on the named square.
fn parse_with_duck(
    variant: &Variant,
    legal: &[Move],
    text: &str,
    duck: &str,
    piece_move: impl Fn(&[Move]) -> Result<Move, MoveError>,
    uci: bool,
) -> Result<Move, MoveError> {
    let g = variant.geometry;
    let bad = |why: String| MoveError::Unparsable { text: text.into(), why };
    if !variant.switches.duck && !variant.switches.trail_walls {
        return Err(bad("this variant has no duck to move after the piece (the part after ',')".into()));
    }
    // UCI names the square the piece landed on before the duck's square; SAN the duck's only.
    let square = if uci {
        let digits = duck.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic()).map(|(i, _)| i);
        digits.map(|i| &duck[i..]).ok_or_else(|| bad(format!("'{duck}': expected the duck's move, like e4e5")))?
    } else {
        duck
    };
    let to = g.parse_square(square).ok_or_else(|| bad(format!("'{square}' is not a square of this board")))?;
    // The piece's move is read among the moves with the duck there, written without it.
    let with_duck: Vec<Move> = legal.iter().filter(|m| m.wall == Some(to)).map(|m| Move { wall: None, ..*m }).collect();
    if with_duck.is_empty() {
        return Err(MoveError::Illegal {
            text: text.into(),
            why: format!("the duck cannot go to {square}: it must move to an empty square"),
        });
    }
    piece_move(&with_duck).map(|m| Move { wall: Some(to), ..m })
}

/// Reads a drop `N@f3` (an empty letter means a pawn, as in SAN's `@e4`).
fn parse_drop(variant: &Variant, legal: &[Move], text: &str, piece: &str, square: &str) -> Result<Move, MoveError> {
    let bad = |why: String| MoveError::Unparsable { text: text.into(), why };
    let kind = match piece {
        "" => variant.registry.ids().find(|&t| variant.registry.def(t).pawn),
        p if p.len() == 1 => variant.registry.by_letter(p.chars().next().unwrap_or(' ')),
        _ => None,
    }
    .ok_or_else(|| bad(format!("'{piece}' is not a piece letter of this variant")))?;
    let to = variant.geometry.parse_square(square).ok_or_else(|| bad(format!("'{square}' is not a square of this board")))?;
    legal.iter().find(|m| m.kind == MoveKind::Drop(kind) && m.to == to).copied().ok_or_else(|| MoveError::Illegal {
        text: text.into(),
        why: format!("no {} can be dropped on {} now", variant.registry.def(kind).name, variant.geometry.name(to)),
    })
}

fn illegal_reason(variant: &Variant, cells: &[Cell], legal: &[Move], from: Square, to: Square, promoting: bool) -> String {
    let g = variant.geometry;
    let c = cells[from.index()];
    if !c.is_piece() {
        return format!("there is no piece on {}", g.name(from));
    }
    let name = &variant.registry.def(c.kind()).name;
    if legal.is_empty() {
        return "there are no legal moves in this position".into();
    }
    let turn = cells[legal[0].from.index()].side();
    if c.side() != turn {
        return format!("it is {turn}'s turn, and the {name} on {} is {}'s", g.name(from), c.side());
    }
    if legal.iter().all(|m| m.from != from) {
        return format!("the {name} on {} has no legal move (blocked, pinned, or the king is in check)", g.name(from));
    }
    if legal.iter().any(|m| m.from == from && m.to == to && m.promotion.is_some()) && !promoting {
        return "a promotion must name the piece, e.g. e7e8q".into();
    }
    format!("the {name} on {} cannot go to {}", g.name(from), g.name(to))
}

/// SAN of `m` without the check suffix: `Nbd7`, `exd5`, `e8=Q`, `O-O`.
pub fn san_body(variant: &Variant, cells: &[Cell], legal: &[Move], m: &Move) -> String {
    let g = variant.geometry;
    let reg = &variant.registry;
    // The duck's square follows the piece's move (`e4,e5`); the rivals that need telling apart
    // are those that put the duck on the same square.
    if let Some(wall) = m.wall {
        let rivals: Vec<Move> = legal.iter().filter(|o| o.wall == m.wall).map(|o| Move { wall: None, ..*o }).collect();
        return format!("{},{}", san_body(variant, cells, &rivals, &Move { wall: None, ..*m }), g.name(wall));
    }
    if let MoveKind::Castle(wing) = m.kind {
        let mut s: String = if wing == Wing::King { "O-O".into() } else { "O-O-O".into() };
        if let Some(gate) = m.gate {
            s.push_str(&format!("/{}{}", reg.def(gate.kind).letter, g.name(gate.square)));
        }
        return s;
    }
    if let MoveKind::Drop(kind) = m.kind {
        return format!("{}@{}", reg.def(kind).letter, g.name(m.to));
    }
    if m.kind == MoveKind::Pass {
        return "pass".into();
    }
    let kind = cells[m.from.index()].kind();
    let def = reg.def(kind);
    let mut s = String::new();
    // A rival makes the same kind of move: a drop, or a move that promotes where this one
    // does not (or the other way round), needs no telling apart (Fairy-Stockfish's rule);
    // nor does a Cambodian met's jump, which is no move of the met's own kind.
    let jump = |o: &Move| variant.switches.cambodian_moves && g.file(o.from) == g.file(o.to) && g.rank(o.from).abs_diff(g.rank(o.to)) == 2;
    let rivals: Vec<&Move> = legal
        .iter()
        .filter(|o| {
            o.to == m.to
                && o.from != m.from
                && !o.is_castle()
                && o.dropped().is_none()
                && o.promotion.is_some() == m.promotion.is_some()
                && cells[o.from.index()].kind() == kind
                && !(jump(o) && def.betza == "F")
                // A capture on the way is told apart from moves taking elsewhere or nothing.
                && (o.kind == m.kind || !matches!((o.kind, m.kind), (MoveKind::Locust(_), _) | (_, MoveKind::Locust(_))))
        })
        .collect();
    // A pawn's push is written by its square alone, unless another pawn could make it too
    // (Berolina's diagonal steps: `Pab3` and `Pcb3`, as Fairy-Stockfish writes them).
    if def.pawn && (m.capture || rivals.is_empty()) {
        if m.capture {
            s.push((b'a' + g.file(m.from)) as char);
        }
    } else {
        s.push(def.letter);
        if !rivals.is_empty() {
            let same_file = rivals.iter().any(|o| g.file(o.from) == g.file(m.from));
            let same_rank = rivals.iter().any(|o| g.rank(o.from) == g.rank(m.from));
            if !same_file {
                s.push((b'a' + g.file(m.from)) as char);
            } else if !same_rank {
                s.push_str(&(g.rank(m.from) + 1).to_string());
            } else {
                s.push_str(&g.name(m.from));
            }
        }
    }
    if m.capture {
        s.push('x');
    }
    // A capture on an earlier leg: where it took, then where it ends (`Lxd5-d4`).
    if let MoveKind::Locust(via) = m.kind {
        s.push_str(&g.name(via));
        s.push('-');
    }
    s.push_str(&g.name(m.to));
    if let Some(p) = m.promotion {
        s.push('=');
        s.push(reg.def(p).letter);
    }
    if let Some(gate) = m.gate {
        s.push('/');
        s.push(reg.def(gate.kind).letter);
    }
    s
}

/// Finds the legal move written as `text` in SAN (check marks and `!?` annotations are
/// ignored; `0-0` is read as `O-O`; `e8Q` as `e8=Q`).
///
/// # Errors
/// Unparsable, illegal or ambiguous text.
pub fn parse_san(variant: &Variant, cells: &[Cell], legal: &[Move], text: &str) -> Result<Move, MoveError> {
    let trimmed = text.trim().trim_end_matches(['+', '#', '!', '?']);
    let trimmed = trimmed.strip_suffix("e.p.").unwrap_or(trimmed).trim();
    let core = if trimmed.starts_with("0-0") { trimmed.replace('0', "O") } else { trimmed.to_string() };
    if core.is_empty() || !core.is_ascii() {
        return Err(MoveError::Unparsable { text: text.into(), why: "expected a move like Nf3, exd5, e8=Q or O-O".into() });
    }
    if let Some((piece_move, duck)) = core.split_once(',') {
        return parse_with_duck(variant, legal, text, duck, |legal| parse_san(variant, cells, legal, piece_move), false);
    }
    if let Some((piece, square)) = core.split_once('@') {
        return parse_drop(variant, legal, text, piece, square);
    }
    if core == "pass" || core == "--" {
        return legal
            .iter()
            .find(|m| m.kind == MoveKind::Pass)
            .copied()
            .ok_or_else(|| MoveError::Illegal { text: text.into(), why: "passing is not allowed here".into() });
    }
    // Text written exactly as a move's SAN names that move, even where a looser reading fits
    // another too (`Ba3` beside the gating `Ba3/H`).
    let bodies: Vec<String> = legal.iter().map(|m| san_body(variant, cells, legal, m)).collect();
    let exact = |body: &String| *body == core || body.replacen('=', "", 1) == core;
    let mut matches: Vec<Move> = legal.iter().zip(&bodies).filter(|(_, b)| exact(b)).map(|(m, _)| *m).collect();
    if matches.is_empty() {
        matches = legal.iter().zip(&bodies).filter(|(m, b)| loose_match(variant, cells, m, b, &core)).map(|(m, _)| *m).collect();
    }
    match matches.len() {
        1 => Ok(matches[0]),
        0 => {
            let looks_like_san = core.starts_with("O-O") || core.chars().any(|c| c.is_ascii_digit());
            if looks_like_san {
                Err(MoveError::Illegal { text: text.into(), why: "no legal move matches it".into() })
            } else {
                Err(MoveError::Unparsable { text: text.into(), why: "expected a move like Nf3, exd5, e8=Q or O-O".into() })
            }
        }
        _ => Err(MoveError::Ambiguous {
            text: text.into(),
            candidates: matches.iter().map(|m| san_body(variant, cells, legal, m)).collect(),
        }),
    }
}

/// Accepts over-specified SAN (`Ng1f3`, `Pe4`): same piece letter, destination, promotion,
/// and a source square consistent with the given file and rank.
fn loose_match(variant: &Variant, cells: &[Cell], m: &Move, body: &str, core: &str) -> bool {
    if m.is_castle() || body.starts_with('O') || m.dropped().is_some() || matches!(m.kind, MoveKind::Locust(_)) {
        return false;
    }
    let g = variant.geometry;
    let def = variant.registry.def(cells[m.from.index()].kind());
    let mut rest = core;
    if let Some(first) = rest.chars().next().filter(|c| c.is_ascii_uppercase()) {
        if first != def.letter {
            return false;
        }
        rest = &rest[1..];
    } else if !def.pawn {
        return false;
    }
    let (rest, promo) = match rest.rfind('=') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let want_promo = m.promotion.map(|p| variant.registry.def(p).letter.to_string());
    if promo.map(str::to_string) != want_promo {
        return false;
    }
    let dest = g.name(m.to);
    let Some(prefix) = rest.strip_suffix(dest.as_str()) else { return false };
    let prefix = prefix.trim_end_matches(['x', '-']);
    let from_name = g.name(m.from);
    prefix.is_empty() || from_name == prefix || from_name.starts_with(prefix) || from_name[1..] == *prefix
}
