//! Pieces and rules in words: a sentence for a piece's moves, made from its atoms, and a
//! paragraph for a variant's rules, made from its compiled definition. The editor's piece list,
//! the game's rules panel and the start screen show them, so a player never needs Betza.
//!
//! A piece's moves are grouped by shape (a step along a line, or a jump such as the knight's),
//! by the directions taken and by how they are made (how far, jumping over pieces, blocked on
//! the way, only from the starting rank, en passant). Whole groups a chess player knows are
//! named — a king, a rook, a bishop, a queen, a knight, a camel, a zebra — as "as a knight" in
//! a piece of several parts, and by their definition in a piece of one ("one step in any
//! direction"). Every property of a move is said, so different moves give different sentences
//! (a test holds this over the whole catalogue). Directions are the owner's: forward is towards
//! the opponent.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::movement::{Atom, Hop, LegPath, Mode};
use super::registry::{MoveGenerator, PieceTypeDef};
use super::variant::{EndCondition, Variant, Verdict};

/// How a group of moves is made: everything about an atom but its vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct How {
    /// 0: modes kept apart below; the sort key of `Mode`.
    mode: u8,
    range: u8,
    hop: u8,
    lame: bool,
    initial: bool,
    en_passant: bool,
}

impl How {
    fn of(a: &Atom) -> How {
        How {
            mode: mode_key(a.mode),
            range: a.range,
            hop: match a.hop {
                Hop::None => 0,
                Hop::Any => 1,
                Hop::Adjacent => 2,
            },
            lame: a.lame,
            initial: a.initial,
            en_passant: a.en_passant,
        }
    }

    /// Plain: no jumping over pieces, not blocked, no first-move or en passant condition.
    fn plain(self) -> bool {
        self.hop == 0 && !self.lame && !self.initial && !self.en_passant
    }
}

fn mode_key(m: Mode) -> u8 {
    match m {
        Mode::Both => 0,
        Mode::Move => 1,
        Mode::Capture => 2,
    }
}

/// The shape of a vector: `(a, b)` with `0 <= a <= b`.
fn shape(dx: i8, dy: i8) -> (i8, i8) {
    let (x, y) = (dx.unsigned_abs() as i8, dy.unsigned_abs() as i8);
    (x.min(y), x.max(y))
}

/// Atoms with a quiet and a capturing copy of the same move merged into one that does both.
fn merged(atoms: &[Atom]) -> Vec<Atom> {
    let mut out: Vec<Atom> = Vec::new();
    for a in super::betza::atom_set(atoms) {
        let twin = |b: &Atom| Atom { mode: a.mode, ..*b } == a && b.mode != a.mode && b.mode != Mode::Both;
        if a.mode != Mode::Both
            && let Some(i) = out.iter().position(twin)
        {
            out[i].mode = Mode::Both;
            continue;
        }
        if !out.contains(&a) {
            out.push(a);
        }
    }
    out
}

/// Words for a set of unit-line directions: orthogonal (`diagonal` false) or diagonal.
fn line_words(dirs: &[(i8, i8)], diagonal: bool) -> String {
    let has = |v: (i8, i8)| dirs.iter().any(|&(x, y)| (x.signum(), y.signum()) == v);
    if !diagonal {
        let (f, b, l, r) = (has((0, 1)), has((0, -1)), has((-1, 0)), has((1, 0)));
        let mut parts: Vec<&str> = Vec::new();
        match (f, b, l, r) {
            (true, true, true, true) => return "orthogonally".into(),
            (_, _, true, true) => {
                if f {
                    parts.push("forward");
                }
                if b {
                    parts.push("backward");
                }
                parts.push("sideways");
            }
            _ => {
                for (on, w) in [(f, "forward"), (b, "backward"), (l, "to the left"), (r, "to the right")] {
                    if on {
                        parts.push(w);
                    }
                }
            }
        }
        return or_list(&parts.iter().map(ToString::to_string).collect::<Vec<_>>());
    }
    let (fl, fr, bl, br) = (has((-1, 1)), has((1, 1)), has((-1, -1)), has((1, -1)));
    match (fl, fr, bl, br) {
        (true, true, true, true) => "diagonally".into(),
        (true, true, false, false) => "diagonally forward".into(),
        (false, false, true, true) => "diagonally backward".into(),
        (true, false, true, false) => "diagonally to the left".into(),
        (false, true, false, true) => "diagonally to the right".into(),
        (true, true, true, false) => "diagonally, except backward to the right".into(),
        (true, true, false, true) => "diagonally, except backward to the left".into(),
        (true, false, true, true) => "diagonally, except forward to the right".into(),
        (false, true, true, true) => "diagonally, except forward to the left".into(),
        _ => {
            let parts: Vec<String> = [(fl, "forward-left"), (fr, "forward-right"), (bl, "backward-left"), (br, "backward-right")]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, w)| (*w).to_string())
                .collect();
            format!("diagonally {}", or_list(&parts))
        }
    }
}

/// Words for the directions of a line shape: orthogonal and diagonal vectors together.
fn line_dirs(dirs: &[(i8, i8)]) -> String {
    let orth: Vec<(i8, i8)> = dirs.iter().copied().filter(|&(x, y)| x == 0 || y == 0).collect();
    let diag: Vec<(i8, i8)> = dirs.iter().copied().filter(|&(x, y)| x != 0 && y != 0).collect();
    match (orth.len(), diag.len()) {
        (4, 4) => "in any direction".into(),
        (_, 0) => line_words(&orth, false),
        (0, _) => line_words(&diag, true),
        _ => format!("{} or {}", line_words(&orth, false), line_words(&diag, true)),
    }
}

/// Along whose lines a full set of line directions goes, for phrases about jumping over pieces.
fn lines_of(dirs: &[(i8, i8)]) -> Option<&'static str> {
    let orth = dirs.iter().filter(|&&(x, y)| x == 0 || y == 0).count();
    let diag = dirs.len() - orth;
    match (orth, diag) {
        (4, 4) => Some("along a queen's lines"),
        (4, 0) => Some("along a rook's lines"),
        (0, 4) => Some("along a bishop's lines"),
        _ => None,
    }
}

fn number(n: i8) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        5 => "five".into(),
        6 => "six".into(),
        7 => "seven".into(),
        _ => n.to_string(),
    }
}

fn squares(n: i8) -> String {
    if n == 1 { "one square".into() } else { format!("{} squares", number(n)) }
}

/// Words for a set of oblique vectors of shape `(a, b)`, `0 < a < b`: "two squares forward and
/// one to either side", or every vector named.
fn oblique_dirs((a, b): (i8, i8), dirs: &[(i8, i8)]) -> String {
    if dirs.len() == 8 {
        return format!("{} one way and {} to the side", squares(b), number(a));
    }
    let mut parts = Vec::new();
    // The steep vectors (b up or down, a across), then the wide ones (a up or down, b across).
    for steep in [true, false] {
        let part: Vec<(i8, i8)> = dirs.iter().copied().filter(|&(x, y)| if steep { y.abs() == b } else { x.abs() == b }).collect();
        if part.is_empty() {
            continue;
        }
        let ups: Vec<i8> = part.iter().map(|&(_, y)| y.signum()).collect();
        let across: Vec<i8> = part.iter().map(|&(x, _)| x.signum()).collect();
        let vert = |s: &[i8]| match (s.contains(&1), s.contains(&-1)) {
            (true, true) => "forward or backward",
            (true, false) => "forward",
            _ => "backward",
        };
        let side = |s: &[i8]| match (s.contains(&-1), s.contains(&1)) {
            (true, true) => "to either side",
            (true, false) => "to the left",
            _ => "to the right",
        };
        let product = {
            let vs: Vec<i8> = [1, -1].into_iter().filter(|v| ups.contains(v)).collect();
            let hs: Vec<i8> = [1, -1].into_iter().filter(|h| across.contains(h)).collect();
            vs.len() * hs.len() == part.len()
        };
        if product {
            let (long, short) = if steep { (b, a) } else { (a, b) };
            let (ws, wl) = if steep { (vert(&ups), side(&across)) } else { (side(&across), vert(&ups)) };
            parts.push(if steep {
                format!("{} {ws} and {} {wl}", squares(long), number(short))
            } else {
                format!("{} {ws} and {} {wl}", squares(short), number(long))
            });
        } else {
            for &(x, y) in &part {
                let v = if y > 0 { "forward" } else { "backward" };
                let h = if x > 0 { "to the right" } else { "to the left" };
                parts.push(if steep {
                    format!("{} {v} and {} {h}", squares(b), number(a))
                } else {
                    format!("{} {h} and {} {v}", squares(b), number(a))
                });
            }
        }
    }
    or_list(&parts)
}

/// "a", "a or b", "a, b or c".
fn or_list(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// The named jumps a chess player knows.
fn jump_name(s: (i8, i8)) -> Option<&'static str> {
    match s {
        (1, 2) => Some("knight"),
        (1, 3) => Some("camel"),
        (2, 3) => Some("zebra"),
        _ => None,
    }
}

/// One phrase, to follow "moves" or "captures": a group of atoms of one shape class (lines of
/// one length, or one oblique shape) made the same way.
struct Phrase {
    /// The piece a chess player knows it as, when the group is exactly that piece's moves.
    named: Option<&'static str>,
    /// The phrase when said on its own ("one step in any direction").
    words: String,
}

fn phrase(s: (i8, i8), dirs: &[(i8, i8)], how: How) -> Phrase {
    let orth = dirs.iter().all(|&(x, y)| x == 0 || y == 0);
    let diag = dirs.iter().all(|&(x, y)| x != 0 && y != 0);
    let full = dirs.len() == 8 || dirs.len() == 4 && (orth || diag);
    let line = s.0 == 0 || s.0 == s.1;
    let n = s.1;
    let named = if !how.plain() || !full {
        None
    } else if line && n == 1 && dirs.len() == 8 {
        Some(if how.range == 1 {
            "a king"
        } else if how.range == 0 {
            "a queen"
        } else {
            ""
        })
    } else if line && n == 1 && s.0 == 0 {
        Some(if how.range == 0 { "a rook" } else { "" })
    } else if line && n == 1 {
        Some(if how.range == 0 { "a bishop" } else { "" })
    } else if how.range == 1 {
        jump_name(s).map(|name| {
            if name == "knight" {
                "a knight"
            } else if name == "camel" {
                "a camel"
            } else {
                "a zebra"
            }
        })
    } else {
        None
    }
    .filter(|n| !n.is_empty());
    let mut words = if line {
        let d = line_dirs(dirs);
        let along = lines_of(dirs).map_or_else(|| d.clone(), str::to_string);
        let span = if n == 1 { String::new() } else { format!(" {} apart", squares(n)) };
        match (how.hop, how.range) {
            (1, r) => {
                let within = if r > 1 { format!(" within {r} squares") } else { String::new() };
                let beyond = if how.mode == 2 { "taking the next piece beyond it" } else { "to any square beyond it" };
                format!("by jumping over exactly one piece {along}{span}{within}, {beyond}")
            }
            (2, r) => {
                let within = if r > 1 { format!(" within {r} squares") } else { String::new() };
                format!("by jumping over the first piece {along}{span}{within}, landing just beyond it")
            }
            (_, 1) if n == 1 => format!("one step {d}"),
            (_, 1) if how.lame => format!("{} {d} (not over a piece)", squares(n)),
            (_, 1) => format!("by jumping {} {d}", squares(n)),
            (_, 0) if n == 1 => format!("any distance {d}"),
            (_, 0) => format!("in jumps of {} {d}, as many as the way is clear", squares(n)),
            (_, r) if n == 1 => format!("up to {} {d}", squares(r as i8)),
            (_, r) => format!("up to {} jumps of {} {d}", number(r as i8), squares(n)),
        }
    } else {
        let d = oblique_dirs(s, dirs);
        let known = jump_name(s).filter(|_| dirs.len() == 8);
        let what = known.map_or_else(|| format!("({}, {})", s.0, s.1), |k| format!("{k}'s"));
        let hop = match how.hop {
            1 => ", over exactly one piece on its line",
            2 => ", over the first piece on its line, landing just beyond it",
            _ => "",
        };
        match how.range {
            1 if how.lame => format!("{d}, stepping so that a piece on the way blocks it"),
            1 => format!("by jumping {d}"),
            0 => format!("by repeating {what} jump in a line ({d}) as long as the way is clear{hop}"),
            r => format!("by up to {} {what} jumps in a line ({d}){hop}", number(r as i8)),
        }
    };
    if how.initial {
        words.push_str(" from its starting rank");
    }
    if how.en_passant {
        words.push_str(", also en passant");
    }
    Phrase { named, words }
}

/// The phrases of a set of atoms of one mode: lines of each length grouped (orthogonal and
/// diagonal together when made the same way), then each oblique shape.
fn phrases(atoms: &[&Atom]) -> Vec<Phrase> {
    // (How, line?, length or shape) → vectors: jumps before lines made the same way ("as a
    // knight or as a king").
    let mut groups: BTreeMap<(How, bool, (i8, i8)), Vec<(i8, i8)>> = BTreeMap::new();
    for a in atoms {
        let s = shape(a.dx, a.dy);
        let line = s.0 == 0 || s.0 == s.1;
        let key = (How::of(a), line, if line { (0, s.1) } else { s });
        groups.entry(key).or_default().push((a.dx, a.dy));
    }
    let mut out = Vec::new();
    for ((how, line, key), mut dirs) in groups {
        dirs.sort_unstable();
        if !line {
            out.push(phrase(key, &dirs, how));
            continue;
        }
        // Orthogonal and diagonal moves made the same way are one phrase ("one step orthogonally
        // or diagonally forward"), unless one half is a rook's or a bishop's, which is named
        // ("as a rook or any distance diagonally forward").
        let orth: Vec<(i8, i8)> = dirs.iter().copied().filter(|&(x, y)| x == 0 || y == 0).collect();
        let diag: Vec<(i8, i8)> = dirs.iter().copied().filter(|&(x, y)| x != 0 && y != 0).collect();
        let n = key.1;
        let named_half = how.plain() && how.range == 0 && n == 1 && (orth.len() == 4 || diag.len() == 4);
        if orth.len() == 4 && diag.len() == 4 || orth.is_empty() || diag.is_empty() || !named_half {
            let s = if orth.is_empty() { (n, n) } else { (0, n) };
            out.push(phrase(s, &dirs, how));
        } else {
            out.push(phrase((0, n), &orth, how));
            out.push(phrase((n, n), &diag, how));
        }
    }
    out
}

/// A compound's phrases joined, naming the parts a chess player knows ("as a rook or one step
/// diagonally"); a piece of one part is said by its definition.
fn joined(list: &[Phrase], parts: usize) -> String {
    let words: Vec<String> = list
        .iter()
        .map(|p| match p.named {
            Some(name) if parts > 1 => format!("as {name}"),
            _ => p.words.clone(),
        })
        .collect();
    or_list(&words)
}

/// The sentence for a movement: its single-leg atoms and its multi-leg paths.
///
/// ```
/// use chimera::rules::{describe_moves, parse_movement};
/// let m = parse_movement("NK").unwrap();
/// assert_eq!(describe_moves(&m.atoms, &m.legs), "Moves as a knight or as a king.");
/// ```
pub fn describe_moves(atoms: &[Atom], legs: &[LegPath]) -> String {
    let atoms = merged(atoms);
    let any: Vec<&Atom> = atoms.iter().filter(|a| a.any_square).collect();
    let line: Vec<&Atom> = atoms.iter().filter(|a| !a.any_square).collect();
    let by_mode = |m: Mode| -> Vec<Phrase> {
        let mut out = phrases(&line.iter().copied().filter(|a| a.mode == m).collect::<Vec<_>>());
        for a in any.iter().filter(|a| a.mode == m) {
            let first = if a.initial { " from its starting rank" } else { "" };
            out.push(Phrase { named: None, words: format!("to any square of the board{first}") });
        }
        out
    };
    let (both, quiet, taking) = (by_mode(Mode::Both), by_mode(Mode::Move), by_mode(Mode::Capture));
    let parts = both.len() + quiet.len() + taking.len();
    let mut s = match (both.is_empty(), quiet.is_empty(), taking.is_empty()) {
        (true, true, true) => "Never moves".to_string(),
        (false, true, true) => format!("Moves {}", joined(&both, parts)),
        (true, false, false) => format!("Moves {}; captures {}", joined(&quiet, parts), joined(&taking, parts)),
        (true, false, true) => format!("Moves {}, never capturing", joined(&quiet, parts)),
        (true, true, false) => format!("Only captures, {}", joined(&taking, parts)),
        _ => {
            let mut s = format!("Moves {}", joined(&both, parts));
            if !quiet.is_empty() {
                let _ = write!(s, "; also moves {}, not capturing", joined(&quiet, parts));
            }
            if !taking.is_empty() {
                let _ = write!(s, "; also captures {}", joined(&taking, parts));
            }
            s
        }
    };
    if !legs.is_empty() {
        let _ = write!(s, "{}{}", if atoms.is_empty() { "" } else { ". It also moves " }, legs_words(legs, atoms.is_empty()));
    }
    s.push('.');
    s
}

/// The multi-leg moves in words: each path's legs, in turn.
fn legs_words(legs: &[LegPath], alone: bool) -> String {
    let step = |dx: i8, dy: i8| -> String {
        let s = shape(dx, dy);
        let d = if s.0 == 0 || s.0 == s.1 { line_dirs(&[(dx, dy)]) } else { oblique_dirs(s, &[(dx, dy)]) };
        if s.1 == 1 {
            format!("one step {d}")
        } else if s.0 == 0 || s.0 == s.1 {
            format!("{} {d}", squares(s.1))
        } else {
            d
        }
    };
    let paths: Vec<String> = legs
        .iter()
        .map(|path| {
            let n = path.len();
            let legs: Vec<String> = path
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    let how = match (i + 1 == n, l.mode) {
                        (false, Mode::Move) => " over an empty square",
                        (false, Mode::Capture) => " capturing what stands there",
                        (false, Mode::Both) => "",
                        (true, Mode::Move) => " to an empty square",
                        (true, Mode::Capture) => " to capture",
                        (true, Mode::Both) => "",
                    };
                    format!("{}{how}", step(l.dx, l.dy))
                })
                .collect();
            legs.join(" then ")
        })
        .collect();
    format!("{}in {}: {}", if alone { "Moves " } else { "" }, if paths.len() == 1 { "two legs" } else { "legs" }, paths.join("; or "))
}

/// The sentence for a piece type: its moves, and what is special about it (royal, a pawn's
/// promotion, castling, moves by a rule of its own).
pub fn describe_piece(def: &PieceTypeDef) -> String {
    let mut s = describe_moves(&def.atoms, &def.legs);
    if let MoveGenerator::Code(i) = def.generator {
        s.push_str(match i {
            0 => " Inside the palace it also moves along the diagonal lines.",
            1 => " Inside the enemy palace it also steps forward along the diagonal lines.",
            2 => " Inside a palace it also slides along the diagonal lines.",
            _ => " It never jumps over or captures another cannon, and inside a palace it also jumps along the diagonal lines.",
        });
    }
    if def.royal {
        s.push_str(" Royal: it must not be left in check.");
    }
    if def.castles {
        s.push_str(" Castles with its rook.");
    }
    if def.promotes {
        s.push_str(" Promotes on reaching the promotion rank.");
    }
    s
}

/// The sides' words for a verdict from the point of view of the side it is given to.
fn verdict(v: Verdict, win: &str, loss: &str) -> String {
    match v {
        Verdict::Win => win.into(),
        Verdict::Loss => loss.into(),
        Verdict::Draw => "draws".into(),
    }
}

/// The names of the types in a bit set, listed ("a king or a queen").
fn types_named(variant: &Variant, set: u64) -> String {
    let names: Vec<String> =
        variant.registry.types.iter().enumerate().filter(|(i, _)| set >> i & 1 == 1).map(|(_, d)| d.name.clone()).collect();
    or_list(&names)
}

/// The squares of a region, named ("d4, e4, d5 or e5"); more than eight are counted.
fn squares_named(variant: &Variant, set: super::geometry::SquareSet) -> String {
    let g = variant.registry.geometry;
    let names: Vec<String> = g.squares().filter(|sq| set.contains(*sq)).map(|sq| g.name(sq)).collect();
    match names.len() {
        0 => "a region with no squares yet".into(),
        n if n > 8 => format!("one of {n} squares"),
        _ => or_list(&names),
    }
}

/// A region's squares for a sentence: "the 8th rank" when it is a whole rank, else named.
fn region_named(variant: &Variant, set: super::geometry::SquareSet) -> String {
    let g = variant.registry.geometry;
    let ranks: Vec<u8> =
        (0..g.ranks).filter(|&r| (0..g.files).all(|f| g.square(f.into(), r.into()).is_some_and(|sq| set.contains(sq)))).collect();
    let count = g.squares().filter(|sq| set.contains(*sq)).count();
    match ranks[..] {
        [r] if count == usize::from(g.files) => format!("rank {}", r + 1),
        _ => squares_named(variant, set),
    }
}

fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

fn times(n: u8) -> String {
    match n {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{} times", number(n as i8)),
    }
}

/// A paragraph for a variant's rules, made from its definition: how games are won and drawn,
/// promotion, castling, hands and blasts. The presets a variant starts with describe themselves.
pub fn describe_rules(variant: &Variant) -> String {
    let g = variant.registry.geometry;
    let mut out = vec![format!("Played on a board of {} files and {} ranks.", g.files, g.ranks)];
    // Ways to win ("by checkmate"), other ends as sentences of their own, and draws.
    let mut wins = Vec::new();
    let mut ends = Vec::new();
    let mut draws = Vec::new();
    let wl = |v: &Verdict| verdict(*v, "wins", "loses");
    for e in &variant.end {
        match e {
            EndCondition::Checkmate => wins.push("by checkmate".to_string()),
            EndCondition::Checkmated(v) => ends.push(format!("A side that is checkmated {}.", wl(v))),
            EndCondition::ShatarMate { shak, knights } => {
                wins.push(format!("by checkmate, if a {} gave a check in the mating series", types_named(variant, *shak)));
                ends.push(format!(
                    "Any other checkmate is a draw, and a checkmate given by a {} alone loses for the side that gave it.",
                    types_named(variant, *knights)
                ));
            }
            EndCondition::Stalemate(Verdict::Draw) => draws.push("stalemate".to_string()),
            EndCondition::Stalemate(v) => ends.push(format!("A side left with no move {}.", wl(v))),
            EndCondition::StalemateByCount => ends.push("A side left with no move: the side with fewer pieces wins.".into()),
            EndCondition::RegionReached { types, regions, count, reply, safe } => {
                let who = types_named(variant, *types);
                let many = if *count > 1 { format!("{count} pieces ({who})") } else { format!("a {who}") };
                let (white, black) = (region_named(variant, regions[0]), region_named(variant, regions[1]));
                let mut w = format!("by getting {many} to {white}");
                if white != black {
                    let _ = write!(w, " (Black: {black})");
                }
                if *safe {
                    w.push_str(" where it cannot be taken");
                }
                if *reply {
                    w.push_str(" (if White gets there first, Black may still draw by getting there too with the next move)");
                }
                wins.push(w);
            }
            EndCondition::RegionHeld { types, regions } => wins.push(format!(
                "by a {} standing on {} at the start of its side's turn",
                types_named(variant, *types),
                region_named(variant, regions[0])
            )),
            EndCondition::BareKing(v) => ends.push(format!("A side left with only its king {}.", wl(v))),
            EndCondition::Extinction { types, fewer_than, pseudo_royal: true, .. } if variant.blast.is_none() => {
                let kinds = types_named(variant, *types);
                ends.push(format!(
                    "While a side has no more than {fewer_than} of its {kinds} pieces, they are royal: they must not be left in check, and checkmate ends the game."
                ));
            }
            EndCondition::Extinction { types, per_type, fewer_than, verdict: v, .. } => {
                let kinds = types_named(variant, *types);
                let one = types.count_ones() == 1;
                ends.push(match (*types == 0, *per_type && !one, *fewer_than > 1) {
                    (true, _, false) => format!("A side with no pieces left {}.", wl(v)),
                    (true, _, true) => format!("A side with fewer than {fewer_than} pieces left {}.", wl(v)),
                    (false, true, _) => format!("A side that loses every piece of any one kind ({kinds}) {}.", wl(v)),
                    (false, false, true) => format!("A side with fewer than {fewer_than} pieces of the kind {kinds} left {}.", wl(v)),
                    (false, false, false) if one => format!("A side with no {kinds} left {}.", wl(v)),
                    (false, false, false) => format!("A side with none of {kinds} left {}.", wl(v)),
                });
            }
            EndCondition::NCheck(n) => wins.push(format!("by giving check {}", times(*n))),
            EndCondition::MoveRule(n) => draws.push(format!("{} moves each without a capture or a pawn move", n / 2)),
            EndCondition::Repetition(n) => draws.push(format!("the same position {}", times(*n))),
            EndCondition::RepetitionScored { count, verdict: v, for_white } => {
                let who = if *for_white { "White" } else { "the side to move" };
                ends.push(match v {
                    Verdict::Draw => format!("The same position {} is a draw.", times(*count)),
                    _ => format!("The same position {} {} for {who}.", times(*count), verdict(*v, "is a win", "is a loss")),
                });
            }
            EndCondition::InsufficientMaterial | EndCondition::InsufficientMaterialAs(_) => {
                draws.push("neither side having the material to win".into());
            }
            EndCondition::Bikjang => ends.push("Kings facing each other on an open file end the game, scored by material.".into()),
            EndCondition::DoublePass => ends.push("Two passes in a row end the game, scored by material.".into()),
        }
    }
    if !wins.is_empty() {
        out.push(format!("Won {}.", or_list(&wins)));
    }
    out.extend(ends);
    if !draws.is_empty() {
        out.push(format!("Drawn by {}.", or_list(&draws)));
    }
    let name = |k: &super::piece::PieceType| variant.registry.def(*k).name.clone();
    let p = &variant.promotion;
    if !p.choices.is_empty() {
        let choices: Vec<String> = p.choices.iter().map(name).collect();
        let last = u16::from(p.rank) + 1 == u16::from(g.ranks);
        let at = match (p.squares.is_some(), p.optional_from) {
            (true, _) => "on their promotion squares".to_string(),
            (false, Some(from)) => format!("from their {} rank (by their {} at the latest)", ordinal(from + 1), ordinal(p.rank + 1)),
            (false, None) if last => "on the last rank".to_string(),
            (false, None) => format!("on their {} rank", ordinal(p.rank + 1)),
        };
        match &p.black_choices {
            Some(black) => {
                let black: Vec<String> = black.iter().map(name).collect();
                out.push(format!("Pawns promote {at}: White's to {}, Black's to {}.", or_list(&choices), or_list(&black)));
            }
            None => out.push(format!("Pawns promote {at} to {}.", or_list(&choices))),
        }
        if !p.limits.is_empty() {
            out.push("Only to a piece there are not too many of already.".into());
        }
    }
    if variant.piece_promotion.is_some() {
        out.push("Some pieces may promote when they move into, within or out of the far zone.".into());
    }
    if variant.castling.is_some() {
        out.push("Kings castle.".into());
    }
    if let Some(d) = &variant.drops {
        out.push(if d.captures_to_hand {
            "Captured pieces change sides and may be dropped on an empty square instead of a move.".into()
        } else {
            "Pieces in hand may be dropped on an empty square instead of a move.".into()
        });
    }
    if let Some(b) = &variant.blast {
        let spared = if b.immune == 0 { String::new() } else { format!(" but a {}", types_named(variant, b.immune)) };
        out.push(format!("A capture explodes: the capturing piece and every piece next to the square{spared} are removed."));
        if b.unharmed != 0 {
            out.push(format!("No blast harms a {}.", types_named(variant, b.unharmed)));
        }
    }
    if variant.switches.mandatory_capture {
        out.push("Capturing is compulsory.".into());
    }
    out.extend(variant.actions.iter().map(|a| describe_action(variant, a)));
    out.join(" ")
}

/// One action in words: "When a rook captures a piece: it does not take the piece as usual,
/// …". (The editor's Actions section says the same.)
pub fn describe_action(variant: &Variant, action: &super::actions::Action) -> String {
    use super::actions::{ActionEffect, Condition, Event, Who};
    let name = |k: super::piece::PieceType| variant.registry.def(k).name.clone();
    let attached: Vec<String> = action.pieces.iter().map(|k| name(*k)).collect();
    let this = if attached.len() == 1 { format!("the {}", attached[0]) } else { "the piece".to_string() };
    let whose = |w: Who| match w {
        Who::Mover => "the moving piece".to_string(),
        Who::Victim => "the captured piece".to_string(),
        Who::Hit => "the piece hit".to_string(),
        Who::This => this.clone(),
    };
    fn compared(c: super::actions::Compare) -> String {
        match c {
            super::actions::Compare::AtLeast(n) => format!("at least {n}"),
            super::actions::Compare::AtMost(n) => format!("at most {n}"),
            super::actions::Compare::Exactly(n) => format!("exactly {n}"),
        }
    }
    fn camp_words(camp: super::actions::Camp) -> &'static str {
        if camp == super::actions::Camp::Mover { "the side that moved" } else { "the other side" }
    }
    fn words(c: &Condition, variant: &Variant, whose: &dyn Fn(Who) -> String) -> String {
        let name = |k: super::piece::PieceType| variant.registry.def(k).name.clone();
        match c {
            Condition::Captures => "it captures".into(),
            Condition::Promotes => "it promotes".into(),
            Condition::Is(w, k) => format!("{} is a {}", whose(*w), name(*k)),
            Condition::Royal(w) => format!("{} is royal", whose(*w)),
            Condition::Side(w, side) => format!("{} is {side}'s", whose(*w)),
            Condition::On(w, sets) => format!("{} stands on {}", whose(*w), region_named(variant, sets[0])),
            Condition::Fact(w, fact, c) => format!("{} has {} {fact}", whose(*w), compared(*c)),
            Condition::MovesThisTurn(c) => {
                let one = matches!(
                    c,
                    super::actions::Compare::AtLeast(1) | super::actions::Compare::AtMost(1) | super::actions::Compare::Exactly(1)
                );
                format!("this turn has had {} move{}", compared(*c), if one { "" } else { "s" })
            }
            Condition::PiecesOf(camp, c) => {
                let whose = camp_words(*camp);
                match c {
                    super::actions::Compare::AtMost(0) | super::actions::Compare::Exactly(0) => format!("{whose} has no piece left"),
                    c => format!("{whose} has {} pieces", compared(*c)),
                }
            }
            Condition::CaptureListed => "a capture is possible".into(),
            Condition::ToMove(camp) => {
                if *camp == super::actions::Camp::Mover {
                    "the same side moves next".into()
                } else {
                    "the other side moves next".into()
                }
            }
            Condition::NoLegalMove => "the side to move has no legal move".into(),
            Condition::Drops => "it drops a piece".into(),
            Condition::Castles => "it castles".into(),
            Condition::Count(camp, types, c) => {
                let kinds: Vec<String> = types.iter().map(|k| format!("{}s", name(*k))).collect();
                let kinds = if kinds.is_empty() { "pieces".to_string() } else { or_list(&kinds).replace(" or ", " and ") };
                format!("{} has {} {kinds} on the board", camp_words(*camp), compared(*c))
            }
            Condition::InHand(camp, types, c) => {
                let kinds: Vec<String> = types.iter().map(|k| format!("{}s", name(*k))).collect();
                let kinds = if kinds.is_empty() { "pieces".to_string() } else { or_list(&kinds).replace(" or ", " and ") };
                format!("{} has {} {kinds} in hand", camp_words(*camp), compared(*c))
            }
            Condition::InCheck(camp) => format!("{} is in check", camp_words(*camp)),
            Condition::Turn(c) => format!("the move number is {}", compared(*c)),
            Condition::Rank(w, c) => format!("{} stands on a rank {} from its side", whose(*w), compared(*c)),
            Condition::File(w, c) => format!("{} stands on a file {} from the a-file", whose(*w), compared(*c)),
            Condition::State { preset: "", key, is } => format!("the count {key} is {}", compared(*is)),
            Condition::State { preset, key, is } => format!("{preset}'s count {key} is {}", compared(*is)),
            Condition::Not(inner) => match &**inner {
                Condition::Royal(w) => format!("{} is not royal", whose(*w)),
                Condition::Is(w, k) => format!("{} is not a {}", whose(*w), name(*k)),
                Condition::On(w, sets) => format!("{} is not on {}", whose(*w), region_named(variant, sets[0])),
                Condition::Captures => "it captures nothing".into(),
                Condition::Promotes => "it does not promote".into(),
                other => format!("not: {}", words(other, variant, whose)),
            },
            Condition::Any(list) => or_list(&list.iter().map(|c| words(c, variant, whose)).collect::<Vec<_>>()),
        }
    }
    // What the conditions say of the pieces' types, folded into the event's words.
    let mut mover = "a piece".to_string();
    let mut victim: Option<String> = None;
    let mut hit = "a piece".to_string();
    let mut more = Vec::new();
    for c in &action.conditions {
        match c {
            Condition::Is(Who::Mover, k) => mover = format!("a {}", name(*k)),
            Condition::Is(Who::Victim, k) => victim = Some(format!("a {}", name(*k))),
            Condition::Is(Who::Hit, k) => hit = format!("a {}", name(*k)),
            Condition::Captures => victim = victim.or_else(|| Some("a piece".into())),
            other => more.push(words(other, variant, &whose)),
        }
    }
    let each = if attached.is_empty() { String::new() } else { format!(", for each {}", or_list(&attached)) };
    let forbids = action.effects.contains(&ActionEffect::Forbid);
    let when = match (action.when, &victim) {
        (Event::BeforeMove, _) => format!("Before {mover} moves"),
        (Event::Capture, v) => format!("When {mover} captures {}", v.clone().unwrap_or_else(|| "a piece".into())),
        (Event::Damaged, _) => format!("When {hit} takes damage"),
        (Event::TurnEnd, v) => {
            let capturing = v.as_ref().map(|v| format!(", capturing {v}")).unwrap_or_default();
            format!("When {mover} has moved{capturing}, before the turn passes{each}")
        }
        (Event::Moved, Some(v)) => format!("When {mover} has moved, capturing {v}"),
        (Event::Moved, None) => format!("When {mover} has moved"),
        (Event::TurnStart, _) => format!("At the start of each turn{each}"),
        (Event::Result, Some(v)) => format!("When {mover} captures {v}"),
        (Event::Result, None) => format!("When {mover} moves"),
        (Event::Listing, Some(v)) if forbids => format!("{} may not capture {v}", capitalised(&mover)),
        (Event::Listing, None) if forbids => format!("{} may not move", capitalised(&mover)),
        (Event::Listing, _) => "Always".into(),
        (Event::Royalty, _) => "Royalty".into(),
        (Event::Arrives(sets), _) => format!("When {mover} arrives on {}", region_named(variant, sets[0])),
        (Event::Leaves(sets), _) => format!("When {mover} leaves {}", region_named(variant, sets[0])),
        (Event::Check, _) => format!("When {mover} gives check"),
        (Event::Promotion, _) => format!("When {mover} promotes"),
        (Event::Drop, _) => format!("When {mover} is dropped"),
        (Event::Spawned, _) => {
            format!("When {} appears", if attached.is_empty() { "a piece".to_string() } else { format!("a {}", or_list(&attached)) })
        }
        (Event::Removed, _) => {
            format!(
                "When {} leaves the board",
                if attached.is_empty() { "a piece".to_string() } else { format!("a {}", or_list(&attached)) }
            )
        }
        (Event::Every(n), _) => format!("Every {n} turn{}, at the start of the next", if n == 1 { "" } else { "s" }),
    };
    let side = match action.sides {
        [true, false] => " (White only)",
        [false, true] => " (Black only)",
        _ => "",
    };
    let condition =
        if more.is_empty() { String::new() } else { format!(" {} {}", if forbids { "when" } else { "and" }, more.join(" and ")) };
    let points = |n: i32| format!("{n} point{}", if n == 1 { "" } else { "s" });
    let place_words = |place: &super::actions::Place| match place {
        super::actions::Place::From => "on the square the move left".to_string(),
        super::actions::Place::To => "on the square the move went to".to_string(),
        super::actions::Place::At(w) => format!("where {} stands", whose(*w)),
    };
    let effects: Vec<String> = action
        .effects
        .iter()
        .filter_map(|e| match e {
            ActionEffect::TakeCapture => Some("it does not take the piece as usual".to_string()),
            ActionEffect::Strike(w) => Some(format!("{} is struck as a capture strikes (if it survives, nothing more happens)", whose(*w))),
            ActionEffect::Damage { at, around: 0, amount, kind, .. } => {
                Some(format!("{} takes {} of {} damage", whose(*at), points(*amount), damage_words(kind)))
            }
            ActionEffect::Damage { at, around, amount, kind, spare } => {
                let spared: Vec<String> = spare.iter().map(|k| format!("{}s", name(*k))).collect();
                let except = if spared.is_empty() { String::new() } else { format!(", {} excepted", or_list(&spared)) };
                Some(format!(
                    "every piece within {around} square{} of {} takes {} of {} damage{except}",
                    if *around == 1 { "" } else { "s" },
                    whose(*at),
                    points(*amount),
                    damage_words(kind)
                ))
            }
            ActionEffect::Absorb(fact) => Some(format!("the hit comes off its {fact}, and it is removed once none is left")),
            ActionEffect::Soak(n) => Some(format!("{} of the hit {} stopped", points(*n), if *n == 1 { "is" } else { "are" })),
            ActionEffect::AddFact(w, fact, n) if *n >= 0 => Some(format!("{} gains {n} {fact}", whose(*w))),
            ActionEffect::AddFact(w, fact, n) => Some(format!("{} loses {} {fact}", whose(*w), -n)),
            ActionEffect::SetFact(w, fact, n) => Some(format!("{}'s {fact} becomes {n}", whose(*w))),
            ActionEffect::Remove(w) => Some(format!("{} is removed", whose(*w))),
            ActionEffect::Transform(w, k) => Some(format!("{} becomes a {}", whose(*w), name(*k))),
            ActionEffect::ChangeSide(w) => Some(format!("{} changes sides", whose(*w))),
            ActionEffect::Spawn(k, place) => Some(format!("a {} appears {}", name(*k), place_words(place))),
            ActionEffect::Forbid => None,
            ActionEffect::AllowCheck => Some("check does not restrict moves".into()),
            ActionEffect::Royal(types) if types.is_empty() => Some("no piece is royal: there is no check and no checkmate".into()),
            ActionEffect::Royal(types) => {
                let names: Vec<String> = types.iter().map(|k| format!("{}s", name(*k))).collect();
                Some(format!("the royal pieces are the {}", or_list(&names).replace(" or ", " and ")))
            }
            ActionEffect::ExtraMove => Some("the same side moves again".into()),
            ActionEffect::Cancel(reason) => Some(format!("the move is not made ({reason})")),
            ActionEffect::Win(Who::Victim, reason) => Some(format!("the captured piece's side wins ({reason})")),
            ActionEffect::Win(_, reason) => Some(format!("its side wins ({reason})")),
            ActionEffect::Lose(Who::Victim, reason) => Some(format!("the captured piece's side loses ({reason})")),
            ActionEffect::Lose(_, reason) => Some(format!("its side loses ({reason})")),
            ActionEffect::Draw(reason) => Some(format!("the game is drawn ({reason})")),
            ActionEffect::Show(..) | ActionEffect::Note(_) => None,
            ActionEffect::ToHand(w, camp) => Some(format!("{} goes to the hand of {}", whose(*w), camp_words(*camp))),
            ActionEffect::FromHand(k, place) => Some(format!("a {} from the mover's hand is put {}", name(*k), place_words(place))),
            ActionEffect::SetState(key, n) => Some(format!("the count {key} becomes {n}")),
            ActionEffect::AddState(key, n) if *n >= 0 => Some(format!("the count {key} grows by {n}")),
            ActionEffect::AddState(key, n) => Some(format!("the count {key} falls by {}", -n)),
        })
        .collect();
    if effects.is_empty() {
        return format!("{when}{condition}{side}.");
    }
    // (Royalty holds for the whole game: it has no moment to name.)
    if action.when == Event::Royalty {
        return format!("{}.", capitalised(&effects.join(", ")));
    }
    format!("{when}{condition}{side}: {}.", effects.join(", "))
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
}

fn damage_words(kind: &super::damage::DamageKind) -> &str {
    match kind {
        super::damage::DamageKind::Capture => "capture",
        super::damage::DamageKind::Explosion => "explosion",
        super::damage::DamageKind::Poison => "poison",
        super::damage::DamageKind::Other(name) => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::parse_movement;

    fn says(betza: &str) -> String {
        let m = parse_movement(betza).unwrap();
        describe_moves(&m.atoms, &m.legs)
    }

    /// The sentences of the chess pieces and of the best-known fairy pieces, word for word.
    #[test]
    fn the_well_known_pieces_in_words() {
        for (betza, words) in [
            ("K", "Moves one step in any direction."),
            ("Q", "Moves any distance in any direction."),
            ("R", "Moves any distance orthogonally."),
            ("B", "Moves any distance diagonally."),
            ("N", "Moves by jumping two squares one way and one to the side."),
            (
                "fmWfceFifmnD",
                "Moves one step forward or two squares forward (not over a piece) from its starting rank; captures one step diagonally forward, also en passant.",
            ),
            ("C", "Moves by jumping three squares one way and one to the side."),
            ("Z", "Moves by jumping three squares one way and two to the side."),
            ("mRcpR", "Moves as a rook; captures by jumping over exactly one piece along a rook's lines, taking the next piece beyond it."),
            ("gQ", "Moves by jumping over the first piece along a queen's lines, landing just beyond it."),
            ("NK", "Moves as a knight or as a king."),
            ("RF", "Moves as a rook or one step diagonally."),
            ("fW", "Moves one step forward."),
            ("WfF", "Moves one step orthogonally or diagonally forward."),
            ("FfW", "Moves one step forward or diagonally."),
            ("RfB", "Moves as a rook or any distance diagonally forward."),
            ("BN", "Moves as a bishop or as a knight."),
            ("vRfB", "Moves any distance forward or backward or diagonally forward."),
            ("ffN", "Moves by jumping two squares forward and one to either side."),
        ] {
            assert_eq!(says(betza), words, "{betza}");
        }
    }
}
