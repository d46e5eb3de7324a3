//! Betza notation: parsing piece movement such as `fmWfceFifmnD` (the pawn) or `mRcpR` (the
//! Xiangqi cannon) into [`Atom`]s, and drawing a piece's moves as a diagram.
//!
//! Supported, following the Bishop reference and Fairy-Stockfish's custom pieces:
//! - atoms `W F D N A C Z H G`, shorthands `K` (WF), `R` (W0), `B` (F0), `Q` (W0F0), any
//!   leap `(x,y)`, and `*` (any square);
//! - a range after an atom (`F2`; `0` means unlimited), or a doubled atom (`NN` = `N0`);
//! - direction modifiers `f b l r v s h` and their two-letter combinations (`fs`, `rb`, `fh`…);
//! - `m` (moves only), `c` (captures only), `n` (lame: blocked on its path), `i` (only from
//!   the type's initial ranks), `e` (may capture en passant), `p` (hopper: jumps one screen
//!   and lands anywhere beyond), `g` (grasshopper: lands right behind the screen).
//!
//! Modifiers apply to the atom that follows them, in any order (`igfrR` = `gfriR`).
//!
//! Multi-leg moves (XBetza `a`, [`parse_movement`]): `a` ends a leg and the legs share the
//! leaper at the end (`mafsW`, the Xiangqi horse). The subset, and where it departs from XBetza
//! (a move takes one piece at most), is in `presets/README.md` and at `leg_paths`. The atoms'
//! own reader, [`parse_betza`], refuses them: the painter and direction additions draw and
//! combine atoms only.
//!
//! Directions are read from white's side of the board. For a single letter on an oblique
//! atom (N, C, Z, `(x,y)` with x ≠ y), the letter picks the two moves that go furthest that
//! way (`fN` is the Shogi knight). A two-letter combination of a vertical and a horizontal
//! letter picks the moves going both ways, with the *second* letter's axis the longer one:
//! `rbN` goes from d4 to e2 and `fsN` to b5 and f5, as in the Bishop reference. On orthogonal
//! atoms a combination means both directions (`fsW` = forward and sideways); `h` means half
//! (`fhN` = all four forward knight moves).

use std::fmt;

use super::movement::{Atom, Hop, LegPath, LegStep, Mode};

/// A Betza string that cannot be read: where and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// 1-based character position of the problem.
    pub position: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Betza notation, character {}: {}", self.position, self.message)
    }
}

impl std::error::Error for BetzaError {}

/// The step of a single-letter atom and its default range.
fn atom_letter(c: char) -> Option<Vec<((i8, i8), u8)>> {
    Some(match c {
        'W' => vec![((1, 0), 1)],
        'F' => vec![((1, 1), 1)],
        'D' => vec![((2, 0), 1)],
        'N' => vec![((2, 1), 1)],
        'A' => vec![((2, 2), 1)],
        'C' => vec![((3, 1), 1)],
        'Z' => vec![((3, 2), 1)],
        'H' => vec![((3, 0), 1)],
        'G' => vec![((3, 3), 1)],
        'K' => vec![((1, 0), 1), ((1, 1), 1)],
        'R' => vec![((1, 0), 0)],
        'B' => vec![((1, 1), 0)],
        'Q' => vec![((1, 0), 0), ((1, 1), 0)],
        _ => return None,
    })
}

#[derive(Default)]
struct Modifiers {
    dirs: String,
    moves_only: bool,
    captures_only: bool,
    lame: bool,
    initial: bool,
    en_passant: bool,
    hop: Hop,
}

/// A piece's movement read from Betza notation: its atoms and its multi-leg moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Movement {
    /// The single-leg moves.
    pub atoms: Vec<Atom>,
    /// The multi-leg moves (XBetza `a`), each a path of legs.
    pub legs: Vec<LegPath>,
}

/// Parses Betza notation into atoms, for the places that draw or combine atoms (the move
/// painter, direction additions): a multi-leg move is refused there.
///
/// # Errors
/// A [`BetzaError`] naming the character position and what was expected there.
pub fn parse_betza(text: &str) -> Result<Vec<Atom>, BetzaError> {
    if text.is_empty() {
        return Err(BetzaError { position: 1, message: "empty; expected at least one atom such as W, N or Q".into() });
    }
    let movement = parse_movement(text)?;
    if !movement.legs.is_empty() {
        let at = text.find('a').unwrap_or(0);
        return Err(BetzaError {
            position: at + 1,
            message: "a multi-leg move ('a') cannot be drawn or combined here; write it in the piece's Betza text".into(),
        });
    }
    Ok(movement.atoms)
}

/// Parses Betza notation into a piece's movement: its atoms and its multi-leg moves. An empty
/// string is a piece that never moves (Fairy-Stockfish's `immobile`: it stands where it is
/// put, and may be taken).
///
/// # Errors
/// A [`BetzaError`] naming the character position and what was expected there.
pub fn parse_movement(text: &str) -> Result<Movement, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    let err = |i: usize, message: String| BetzaError { position: i + 1, message };
    let mut atoms: Vec<Atom> = Vec::new();
    let mut legs: Vec<LegPath> = Vec::new();
    let mut i = 0;
    if let Some(at) = chars.iter().position(|c| c.is_whitespace()) {
        return Err(err(at, "a space; Betza is written without spaces, e.g. (1,2) or fmWfceF".into()));
    }
    while i < chars.len() {
        let mut m = Modifiers::default();
        let mut flags_seen = String::new();
        // The modifiers of the legs before the last (XBetza `a` ends a leg).
        let mut earlier_legs: Vec<Modifiers> = Vec::new();
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            if chars[i] == 'a' {
                earlier_legs.push(std::mem::take(&mut m));
                flags_seen.clear();
                i += 1;
                continue;
            }
            // Directions may repeat (ff, rl); a flag given twice, or both hop flags, is a slip.
            if "mcniepg".contains(chars[i]) {
                if flags_seen.contains(chars[i]) {
                    return Err(err(i, format!("modifier '{}' given twice", chars[i])));
                }
                if (chars[i] == 'p' && flags_seen.contains('g')) || (chars[i] == 'g' && flags_seen.contains('p')) {
                    return Err(err(i, "'p' (hop over any distance) and 'g' (land just beyond) exclude each other".into()));
                }
                flags_seen.push(chars[i]);
            }
            match chars[i] {
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => m.dirs.push(chars[i]),
                'm' => m.moves_only = true,
                'c' => m.captures_only = true,
                'n' => m.lame = true,
                'i' => m.initial = true,
                'e' => m.en_passant = true,
                'p' => m.hop = Hop::Any,
                'g' => m.hop = Hop::Adjacent,
                'o' => return Err(err(i, "cylindrical moves ('o') are not supported; use the wrap-board preset".into())),
                'j' | 'x' | 'd' | 'u' | 'k' | 'y' | 'z' | 't' | 'q' | 'w' => {
                    return Err(err(i, format!("modifier '{}' is not supported; supported: f b l r v s h m c n i e p g", chars[i])));
                }
                other => return Err(err(i, format!("unknown modifier '{other}'"))),
            }
            i += 1;
        }
        if i >= chars.len() {
            return Err(err(i, "modifiers must be followed by an atom (W F D N A C Z H G K R B Q, (x,y) or *)".into()));
        }
        let at = i;
        let c = chars[i];
        if !earlier_legs.is_empty() {
            let (steps, next) = leg_atom(&chars, i).map_err(|(k, e)| err(k, e))?;
            i = next;
            earlier_legs.push(m);
            for path in leg_paths(&earlier_legs, &steps).map_err(|e| err(at, e))? {
                if !legs.contains(&path) {
                    legs.push(path);
                }
            }
            continue;
        }
        let (steps, any_square) = if c == '*' {
            i += 1;
            (vec![((0, 0), 1)], true)
        } else if c == '(' {
            let close =
                chars[i..].iter().position(|&x| x == ')').map(|p| p + i).ok_or_else(|| err(i, "'(' without ')'; expected (x,y)".into()))?;
            let inner: String = chars[i + 1..close].iter().collect();
            let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
            let parse = |s: &str| s.parse::<i8>().ok().filter(|v| (0..=15).contains(v));
            let (x, y) = match parts.as_slice() {
                [a, b] => (parse(a), parse(b)),
                _ => (None, None),
            };
            let (Some(x), Some(y)) = (x, y) else {
                return Err(err(i, format!("'({inner})' is not a leap; expected two numbers 0 to 15, like (4,1)")));
            };
            if x == 0 && y == 0 {
                return Err(err(i, "(0,0) goes nowhere".into()));
            }
            i = close + 1;
            (vec![((x, y), 1)], false)
        } else if let Some(steps) = atom_letter(c) {
            i += 1;
            // A doubled simple atom is its rider: NN = N0.
            if "WFDNACZHG".contains(c) && i < chars.len() && chars[i] == c {
                i += 1;
                (steps.into_iter().map(|(v, _)| (v, 0)).collect(), false)
            } else {
                (steps, false)
            }
        } else {
            return Err(err(i, format!("'{c}' is not an atom; expected W F D N A C Z H G K R B Q, (x,y) or *")));
        };
        let mut steps = steps;
        if i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            let range: u8 = n
                .parse()
                .ok()
                .filter(|&r: &u8| r <= 16)
                .ok_or_else(|| err(start, format!("range '{n}' is too large; use 0 for unlimited")))?;
            if any_square {
                return Err(err(start, "'*' takes no range".into()));
            }
            for s in &mut steps {
                s.1 = range;
            }
        }
        if m.moves_only && m.captures_only {
            return Err(err(at, "both 'm' and 'c': a move that neither moves nor captures; drop one".into()));
        }
        let mode = if m.moves_only {
            Mode::Move
        } else if m.captures_only {
            Mode::Capture
        } else {
            Mode::Both
        };
        for ((x, y), range) in steps {
            if m.hop != Hop::None && range == 1 && !any_square {
                return Err(err(at, "'p' and 'g' make a slider hop; use them on a rider such as R, B, Q or NN".into()));
            }
            if m.lame && range != 1 {
                return Err(err(at, "'n' (lame) is supported on leapers only".into()));
            }
            if any_square {
                push(
                    &mut atoms,
                    Atom {
                        dx: 0,
                        dy: 0,
                        range: 1,
                        mode,
                        lame: false,
                        hop: Hop::None,
                        initial: m.initial,
                        en_passant: false,
                        any_square: true,
                    },
                );
                continue;
            }
            let images = select_directions(x, y, &m.dirs).map_err(|e| err(at, e))?;
            if images.is_empty() {
                return Err(err(at, format!("directions '{}' leave no move for this atom", m.dirs)));
            }
            for (dx, dy) in images {
                let atom =
                    Atom { dx, dy, range, mode, lame: m.lame, hop: m.hop, initial: m.initial, en_passant: m.en_passant, any_square: false };
                push(&mut atoms, atom);
            }
        }
    }
    Ok(Movement { atoms, legs })
}

/// The atom of a multi-leg move at `chars[i]`: a leaper (`W F D N A C Z H G`, `K`, or `(x,y)`),
/// its base steps, and the index after it. Riders, ranges and `*` are refused.
fn leg_atom(chars: &[char], i: usize) -> Result<(Vec<(i8, i8)>, usize), (usize, String)> {
    let c = chars[i];
    let (steps, next) = if c == '(' {
        let close = chars[i..].iter().position(|&x| x == ')').map(|p| p + i).ok_or((i, "'(' without ')'; expected (x,y)".to_string()))?;
        let inner: String = chars[i + 1..close].iter().collect();
        let parse = |s: &str| s.trim().parse::<i8>().ok().filter(|v| (0..=15).contains(v));
        match inner.split(',').collect::<Vec<_>>().as_slice() {
            [a, b] => match (parse(a), parse(b)) {
                (Some(x), Some(y)) if (x, y) != (0, 0) => (vec![(x.max(y), x.min(y))], close + 1),
                _ => return Err((i, format!("'({inner})' is not a leap; expected two numbers 0 to 15, like (4,1)"))),
            },
            _ => return Err((i, format!("'({inner})' is not a leap; expected two numbers 0 to 15, like (4,1)"))),
        }
    } else if "WFDNACZHGK".contains(c) {
        let steps = atom_letter(c).expect("a leaper letter").into_iter().map(|(v, _)| v).collect();
        (steps, i + 1)
    } else {
        return Err((i, format!("'{c}' cannot end a multi-leg move; its legs take a leaper: W F D N A C Z H G K or (x,y)")));
    };
    if let Some(&d) = chars.get(next)
        && (d.is_ascii_digit() || d == c)
    {
        return Err((next, "the legs of a multi-leg move are single leaps; a range or a rider is not supported".into()));
    }
    Ok((steps, next))
}

/// The eight directions of the king's compass, clockwise from forward.
const COMPASS: [(i8, i8); 8] = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)];

/// Where `c` turns relative to `p`, clockwise in eighths: 0 straight on (`f`), 1 forward
/// right (`fr`), 2 right (`r`), 3 back right (`br`), 4 back (`b`), 5 `bl`, 6 `l`, 7 `fl`.
fn turn_class(p: (i8, i8), c: (i8, i8)) -> u8 {
    let (px, py, cx, cy) = (p.0 as i32, p.1 as i32, c.0 as i32, c.1 as i32);
    let cross = px * cy - py * cx;
    let dot = px * cx + py * cy;
    match (cross.signum(), dot.signum()) {
        (0, 1) => 0,
        (-1, 1) => 1,
        (-1, 0) => 2,
        (-1, -1) => 3,
        (0, _) => 4,
        (1, -1) => 5,
        (1, 0) => 6,
        _ => 7,
    }
}

/// The turns (bits of [`turn_class`]) that the direction letters of a later leg select.
fn relative_turns(dirs: &str) -> Result<u8, String> {
    let c: Vec<char> = dirs.chars().collect();
    let mut bits = 0u8;
    let mut i = 0;
    let single = |x: char| match x {
        'f' => Some(1u8),
        'b' => Some(1 << 4),
        'r' => Some(1 << 2),
        'l' => Some(1 << 6),
        'v' => Some(1 | 1 << 4),
        's' => Some(1 << 2 | 1 << 6),
        _ => None,
    };
    let side = |x: char| match x {
        'r' => Some(0b01),
        'l' => Some(0b10),
        's' => Some(0b11),
        _ => None,
    };
    let ahead = |x: char| match x {
        'f' => Some(0b01),
        'b' => Some(0b10),
        'v' => Some(0b11),
        _ => None,
    };
    while i < c.len() {
        if c[i] == 'h' {
            return Err("'h' (half) is not supported on a later leg of a multi-leg move".into());
        }
        let pair = c.get(i + 1).and_then(|&n| match (ahead(c[i]), side(n), side(c[i]), ahead(n)) {
            (Some(a), Some(s), _, _) | (_, _, Some(s), Some(a)) if c[i] != n => Some((a, s)),
            _ => None,
        });
        if let Some((a, s)) = pair {
            // Forward right 1, forward left 7, back right 3, back left 5.
            for (fa, turns) in [(0b01, [1u8, 7]), (0b10, [3, 5])] {
                if a & fa != 0 {
                    if s & 0b01 != 0 {
                        bits |= 1 << turns[0];
                    }
                    if s & 0b10 != 0 {
                        bits |= 1 << turns[1];
                    }
                }
            }
            i += 2;
            continue;
        }
        bits |= single(c[i]).ok_or_else(|| format!("'{}' is not a direction", c[i]))?;
        i += 1;
    }
    Ok(bits)
}

/// The paths of a multi-leg move whose legs have the modifiers `legs` (the last one last) and
/// share the leaper with base steps `steps`, as XBetza reads them: the first leg's directions
/// are the board's (as for an atom); a later leg's are relative to the leg before it (`f`
/// straight on, `b` back, `l`/`r` a right angle, `fr`, `fs`, `bl`… the turns between). A king-
/// family leaper (W F K, D A, H G) turns in eighths, so a W leg turned by `fs` steps diagonally
/// (`mafsW` is the Xiangqi horse, `mafsmafW` the Janggi elephant); an oblique one (N, C, Z)
/// turns among its own eight leaps. A later leg without directions takes the leaper's own
/// directions turned with the leg before it (all eight for K and the oblique leapers, the
/// four at right angles for the others). A leg before the last only moves unless it says `c`:
/// then it takes the enemy it lands on and the move goes on (a locust capture); the last leg
/// moves or captures as an atom does. A move takes one piece at most: after a capturing leg
/// the last leg only moves.
fn leg_paths(legs: &[Modifiers], steps: &[(i8, i8)]) -> Result<Vec<LegPath>, String> {
    if legs.len() > 4 {
        return Err(format!("{} legs; a multi-leg move has at most four", legs.len()));
    }
    let last = legs.len() - 1;
    let mut modes = Vec::with_capacity(legs.len());
    for (k, m) in legs.iter().enumerate() {
        if m.lame || m.initial || m.en_passant || m.hop != Hop::None {
            return Err(format!("leg {} of a multi-leg move: a leg takes only directions and 'm' or 'c'", k + 1));
        }
        if m.moves_only && m.captures_only {
            return Err(format!("leg {}: both 'm' and 'c'; drop one", k + 1));
        }
        modes.push(match (m.moves_only, m.captures_only, k == last) {
            (true, _, _) => Mode::Move,
            (_, true, _) => Mode::Capture,
            (_, _, true) => Mode::Both,
            _ => Mode::Move,
        });
    }
    let captures_before_last = modes[..last].iter().filter(|m| **m == Mode::Capture).count();
    if captures_before_last > 1 {
        return Err("two legs capture; a multi-leg move takes one piece at most".into());
    }
    if captures_before_last == 1 {
        match modes[last] {
            Mode::Capture => return Err("the last leg captures after an earlier leg did; a move takes one piece at most".into()),
            _ => modes[last] = Mode::Move,
        }
    }
    // King-family leapers: orthogonal or diagonal steps of one length.
    let length = |(x, y): (i8, i8)| (y == 0 || x == y).then_some(x.max(y));
    let family = steps.iter().map(|&s| length(s)).collect::<Option<Vec<i8>>>().filter(|l| l.windows(2).all(|w| w[0] == w[1]));
    let both_kinds = steps.len() > 1;
    let mut paths: Vec<LegPath> = Vec::new();
    let mut first: Vec<(i8, i8)> = Vec::new();
    for &(x, y) in steps {
        for v in select_directions(x, y, &legs[0].dirs)? {
            if !first.contains(&v) {
                first.push(v);
            }
        }
    }
    if first.is_empty() {
        return Err(format!("directions '{}' leave no first leg", legs[0].dirs));
    }
    for v in first {
        paths.push(vec![LegStep { dx: v.0, dy: v.1, mode: modes[0] }]);
    }
    for (k, m) in legs.iter().enumerate().skip(1) {
        let turns = if m.dirs.is_empty() { None } else { Some(relative_turns(&m.dirs)?) };
        let mut next: Vec<LegPath> = Vec::new();
        for path in &paths {
            let prev = path.last().expect("a path has a leg");
            let p = (prev.dx, prev.dy);
            let candidates: Vec<(i8, i8)> = match family.as_ref() {
                Some(l) => COMPASS.iter().map(|&(a, b)| (a * l[0], b * l[0])).collect(),
                None => images(steps[0].0, steps[0].1),
            };
            for c in candidates {
                let class = turn_class(p, c);
                let chosen = match turns {
                    Some(bits) => bits & (1 << class) != 0,
                    // The leaper's own directions, turned with the leg before.
                    None => family.is_none() || both_kinds || class.is_multiple_of(2),
                };
                if chosen {
                    let mut longer = path.clone();
                    longer.push(LegStep { dx: c.0, dy: c.1, mode: modes[k] });
                    next.push(longer);
                }
            }
        }
        if next.is_empty() {
            return Err(format!("the directions of leg {} leave no move", k + 1));
        }
        paths = next;
    }
    Ok(paths)
}

/// A sort key for atoms, so that sets of atoms compare whatever their order.
fn atom_key(a: &Atom) -> (bool, i8, i8, u8, u8, bool, u8, bool, bool) {
    let mode = match a.mode {
        Mode::Move => 0,
        Mode::Capture => 1,
        Mode::Both => 2,
    };
    let hop = match a.hop {
        Hop::None => 0,
        Hop::Any => 1,
        Hop::Adjacent => 2,
    };
    (a.any_square, a.dx, a.dy, a.range, mode, a.lame, hop, a.initial, a.en_passant)
}

/// The atoms as a set: sorted, each once. Two movements are the same when these are equal.
pub fn atom_set(atoms: &[Atom]) -> Vec<Atom> {
    let mut out = atoms.to_vec();
    out.sort_by_key(atom_key);
    out.dedup();
    out
}

/// The direction modifiers [`write_betza`] tries (it takes the widest selections first).
const DIRECTIONS: &[&str] =
    &["", "f", "b", "l", "r", "v", "s", "fh", "bh", "lh", "rh", "fs", "bs", "fl", "fr", "bl", "br", "lf", "rf", "lb", "rb"];

/// The vectors `dirs` selects on the leap `(x, y)`.
fn selected(x: i8, y: i8, dirs: &str) -> Vec<(i8, i8)> {
    select_directions(x, y, dirs).unwrap_or_default()
}

/// Writes `atoms` as Betza notation that [`parse_betza`] reads back to the same set of atoms
/// (see [`atom_set`]): each leap by its letter (`W F D N A C Z H G`, or `(x,y)`), riders with
/// their range (`R`, `B` and `Q` for the orthogonal and diagonal ones, `NN`-style riders as
/// `N0`), `K` and `Q` where both kings' or queens' steps share everything else, and direction
/// modifiers chosen by asking the parser what each selects, so the text is exact by
/// construction. It is not always the shortest spelling.
pub fn write_betza(atoms: &[Atom]) -> String {
    let atoms = atom_set(atoms);
    // Properties shared by a group: range, mode, lame, hop, initial, en passant.
    type Props = (u8, Mode, bool, Hop, bool, bool);
    let props = |a: &Atom| -> Props { (a.range, a.mode, a.lame, a.hop, a.initial, a.en_passant) };
    let prefix = |p: &Props, dirs: &str| {
        let (_, mode, lame, hop, initial, ep) = *p;
        let mut s = String::new();
        if initial {
            s.push('i');
        }
        s.push_str(dirs);
        match mode {
            Mode::Move => s.push('m'),
            Mode::Capture => s.push('c'),
            Mode::Both => {}
        }
        if ep {
            s.push('e');
        }
        if lame {
            s.push('n');
        }
        match hop {
            Hop::None => {}
            Hop::Any => s.push('p'),
            Hop::Adjacent => s.push('g'),
        }
        s
    };
    let mut out = String::new();
    for a in atoms.iter().filter(|a| a.any_square) {
        out.push_str(&prefix(&(1, a.mode, false, Hop::None, a.initial, false), ""));
        out.push('*');
    }
    // Groups: the leap (its larger and smaller step) and the shared properties.
    let mut groups: Vec<((i8, i8), Props, Vec<(i8, i8)>)> = Vec::new();
    for a in atoms.iter().filter(|a| !a.any_square) {
        let leap = (a.dx.abs().max(a.dy.abs()), a.dx.abs().min(a.dy.abs()));
        match groups.iter_mut().find(|(l, p, _)| *l == leap && *p == props(a)) {
            Some(g) => g.2.push((a.dx, a.dy)),
            None => groups.push((leap, props(a), vec![(a.dx, a.dy)])),
        }
    }
    // Shortest leaps first (W F D N A H C Z G), as people write them.
    groups.sort_by_key(|g| g.0);
    // Whole groups of king or queen steps with the same properties merge into `K` or `Q`.
    let whole = |leap: (i8, i8), p: &Props, vectors: &[(i8, i8)]| {
        let all = selected(leap.0, leap.1, "");
        all.len() == vectors.len() && all.iter().all(|v| vectors.contains(v)) && p.0 <= 1 && (leap == (1, 0) || leap == (1, 1))
    };
    let mut merged: Vec<Props> = Vec::new();
    for (leap, p, vectors) in &groups {
        if *leap == (1, 0) && whole(*leap, p, vectors) && groups.iter().any(|(l, q, v)| *l == (1, 1) && q == p && whole(*l, q, v)) {
            merged.push(*p);
        }
    }
    for p in &merged {
        out.push_str(&prefix(p, ""));
        out.push(if p.0 == 0 { 'Q' } else { 'K' });
    }
    for (leap, p, vectors) in &groups {
        if (*leap == (1, 0) || *leap == (1, 1)) && merged.contains(p) {
            continue;
        }
        let letter = match *leap {
            (1, 0) if p.0 == 0 => "R".to_string(),
            (1, 1) if p.0 == 0 => "B".to_string(),
            (1, 0) => "W".into(),
            (1, 1) => "F".into(),
            (2, 0) => "D".into(),
            (2, 1) => "N".into(),
            (2, 2) => "A".into(),
            (3, 1) => "C".into(),
            (3, 2) => "Z".into(),
            (3, 0) => "H".into(),
            (3, 3) => "G".into(),
            (x, y) => format!("({x},{y})"),
        };
        let range = match (letter.as_str(), p.0) {
            ("R" | "B", _) | (_, 1) => String::new(),
            (_, r) => r.to_string(),
        };
        let mut left: Vec<(i8, i8)> = vectors.clone();
        // The widest selections first (stable: the list's order among equals).
        let mut choices: Vec<(&str, Vec<(i8, i8)>)> = DIRECTIONS.iter().map(|d| (*d, selected(leap.0, leap.1, d))).collect();
        choices.sort_by_key(|(_, sel)| std::cmp::Reverse(sel.len()));
        for (dirs, sel) in choices {
            if sel.is_empty() || !sel.iter().all(|v| left.contains(v)) {
                continue;
            }
            left.retain(|v| !sel.contains(v));
            let chunk = format!("{}{letter}{range}", prefix(p, dirs));
            // `N` then `N2` would read as the rider `NN2`: the leap's range is written out.
            if let (Some(last), Some(first)) = (out.chars().last(), chunk.chars().next())
                && last == first
                && "WFDNACZHG".contains(last)
            {
                out.push('1');
            }
            out.push_str(&chunk);
            if left.is_empty() {
                break;
            }
        }
        debug_assert!(left.is_empty(), "a vector no direction modifier selects: {left:?} of {leap:?}");
    }
    out
}

fn push(atoms: &mut Vec<Atom>, atom: Atom) {
    if !atoms.contains(&atom) {
        atoms.push(atom);
    }
}

/// The symmetric images of the step `(x, y)`, each once.
fn images(x: i8, y: i8) -> Vec<(i8, i8)> {
    let mut out = Vec::with_capacity(8);
    for (a, b) in [(x, y), (y, x)] {
        for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            let v = (a * sa, b * sb);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// Whether image `(x, y)` is in the direction token `tok`.
fn in_token(tok: &str, x: i8, y: i8, oblique: bool) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    let vertical = |c: char| match c {
        'f' => y > 0,
        'b' => y < 0,
        _ => false,
    };
    let horizontal = |c: char| match c {
        'r' => x > 0,
        'l' => x < 0,
        _ => false,
    };
    // A single direction: the moves that go furthest that way.
    let single = |c: char| match c {
        'f' | 'b' => vertical(c) && ay >= ax,
        'l' | 'r' => horizontal(c) && ax >= ay,
        'v' => y != 0 && ay >= ax,
        's' => x != 0 && ax >= ay,
        _ => false,
    };
    let t: Vec<char> = tok.chars().collect();
    match t.as_slice() {
        [c] => single(*c),
        [a, 'h'] => vertical(*a) || horizontal(*a),
        [a, b] if a == b => single(*a),
        [a @ ('f' | 'b'), b @ ('l' | 'r')] | [b @ ('l' | 'r'), a @ ('f' | 'b')] => {
            if !oblique {
                if ax == ay {
                    return vertical(*a) && horizontal(*b);
                }
                return single(*a) || single(*b);
            }
            // The second letter's axis is the longer one.
            let vertical_major = matches!(t[1], 'f' | 'b');
            vertical(*a) && horizontal(*b) && if vertical_major { ay > ax } else { ax > ay }
        }
        [a @ ('f' | 'b'), 's'] => {
            if oblique {
                vertical(*a) && ax > ay
            } else {
                single(*a) || single('s')
            }
        }
        [a @ ('l' | 'r'), 'v'] => {
            if oblique {
                horizontal(*a) && ay > ax
            } else {
                single(*a) || single('v')
            }
        }
        [a, b] => single(*a) || single(*b),
        _ => false,
    }
}

/// Splits direction letters into tokens: a pair when the second letter qualifies the first.
fn tokens(dirs: &str) -> Vec<String> {
    let c: Vec<char> = dirs.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let pair = i + 1 < c.len()
            && match (c[i], c[i + 1]) {
                ('f' | 'b', 'l' | 'r' | 's' | 'h') | ('l' | 'r', 'f' | 'b' | 'v' | 'h') => true,
                (a, b) => a == b && "fblr".contains(a),
            };
        if pair {
            out.push(c[i..i + 2].iter().collect());
            i += 2;
        } else {
            out.push(c[i].to_string());
            i += 1;
        }
    }
    out
}

fn select_directions(x: i8, y: i8, dirs: &str) -> Result<Vec<(i8, i8)>, String> {
    let all = images(x, y);
    if dirs.is_empty() {
        return Ok(all);
    }
    if dirs.contains('h') && dirs.len() == 1 {
        return Err("'h' (half) needs a direction before it, like fh".into());
    }
    let oblique = x != 0 && y != 0 && x != y;
    let toks = tokens(dirs);
    Ok(all.into_iter().filter(|&(a, b)| toks.iter().any(|t| in_token(t, a, b, oblique))).collect())
}

/// What a piece can do on one square of its diagram.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DiagramCell {
    /// It may move here (to an empty square).
    pub moves: bool,
    /// It may capture here.
    pub captures: bool,
    /// It may reach here by hopping over a screen.
    pub hops: bool,
    /// The piece itself stands here.
    pub piece: bool,
}

impl DiagramCell {
    /// One character: `@` the piece, `*` moves and captures, `m` moves only, `c` captures
    /// only, `p` only by hopping, `+` moves, or captures by hopping, `.` nothing.
    pub fn symbol(self) -> char {
        match (self.piece, self.moves, self.captures, self.hops) {
            (true, ..) => '@',
            (_, true, true, _) => '*',
            (_, true, false, true) => '+',
            (_, true, false, false) => 'm',
            (_, false, true, _) => 'c',
            (_, false, false, true) => 'p',
            _ => '.',
        }
    }
}

/// A piece's moves from the middle of an empty board, as seen by white (forward is up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Side length.
    pub size: u8,
    /// Rows from the far (forward) side down, each `size` cells.
    pub rows: Vec<Vec<DiagramCell>>,
}

impl Diagram {
    /// Adds multi-leg moves: where each path ends (a move or a capture, as its last leg says)
    /// and where a capture on the way takes (a capture; the piece goes on from there).
    pub fn mark_legs(&mut self, legs: &[LegPath]) {
        let n = self.size as i32;
        let mid = n / 2;
        for path in legs {
            let (mut x, mut y) = (mid, mid);
            let mut took = false;
            for (k, step) in path.iter().enumerate() {
                (x, y) = (x + step.dx as i32, y + step.dy as i32);
                if !(0..n).contains(&x) || !(0..n).contains(&y) {
                    break;
                }
                let cell = &mut self.rows[(n - 1 - y) as usize][x as usize];
                if k + 1 < path.len() {
                    if step.mode == Mode::Capture {
                        cell.captures = true;
                        took = true;
                    }
                } else if (x, y) != (mid, mid) {
                    cell.moves |= step.mode.moves() || took;
                    cell.captures |= step.mode.captures() && !took;
                }
            }
        }
    }
}

impl fmt::Display for Diagram {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            for cell in row {
                write!(f, "{}", cell.symbol())?;
            }
        }
        Ok(())
    }
}

/// Draws the moves of `atoms` for a piece in the middle of an empty `size`×`size` board (odd
/// sizes centre it; 3 to 31). Initial-only moves are shown as for a piece on its initial
/// rank; hopping moves where a screen right next to the piece would allow them.
pub fn diagram(atoms: &[Atom], size: u8) -> Diagram {
    let size = size.clamp(3, 31);
    let n = size as i32;
    let mid = n / 2;
    let mut rows = vec![vec![DiagramCell::default(); size as usize]; size as usize];
    let mut mark = |x: i32, y: i32, mode: Mode, hop: bool| {
        if (0..n).contains(&x) && (0..n).contains(&y) && (x, y) != (mid, mid) {
            let cell = &mut rows[(n - 1 - y) as usize][x as usize];
            if hop {
                cell.hops = true;
            } else {
                cell.moves |= mode.moves();
                cell.captures |= mode.captures();
            }
        }
    };
    for a in atoms {
        if a.any_square {
            for y in 0..n {
                for x in 0..n {
                    mark(x, y, a.mode, false);
                }
            }
            continue;
        }
        let reach = if a.range == 0 { n } else { a.range as i32 };
        for k in 1..=reach {
            let (x, y) = (mid + a.dx as i32 * k, mid + a.dy as i32 * k);
            match a.hop {
                Hop::None => mark(x, y, a.mode, false),
                Hop::Any if k >= 2 => mark(x, y, a.mode, true),
                Hop::Adjacent if k == 2 => mark(x, y, a.mode, true),
                _ => {}
            }
        }
    }
    rows[(n - 1 - mid) as usize][mid as usize].piece = true;
    Diagram { size, rows }
}
