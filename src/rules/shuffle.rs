//! Shuffled starts: Chess960 positions by their standard number, and the same shuffle of any
//! variant's first rank (Capablanca Random Chess's ten files, a designer's pieces).

use super::movement::Hop;
use super::registry::PieceTypeRegistry;

/// The back rank of Chess960 position `n` (0 to 959, Scharnagl's numbering; 518 is the
/// classical start), as FEN letters for white.
pub fn chess960_back_rank(n: u16) -> [char; 8] {
    let mut n = (n % 960) as usize;
    let mut rank = [' '; 8];
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let place_nth_empty = |rank: &mut [char; 8], k: usize, piece: char| {
        if let Some(i) = (0..8).filter(|&i| rank[i] == ' ').nth(k) {
            rank[i] = piece;
        }
    };
    place_nth_empty(&mut rank, n % 6, 'Q');
    n /= 6;
    // The ten ways to place two knights on the five remaining squares.
    const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
    let (a, b) = KNIGHTS[n];
    let empty: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    rank[empty[a]] = 'N';
    rank[empty[b]] = 'N';
    for piece in ['R', 'K', 'R'] {
        place_nth_empty(&mut rank, 0, piece);
    }
    rank
}

/// The FEN of Chess960 position `n`, with castling rights written as X-FEN.
pub fn chess960_fen(n: u16) -> String {
    let white: String = chess960_back_rank(n).iter().collect();
    let black = white.to_ascii_lowercase();
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w KQkq - 0 1")
}

/// A start of `start` (a FEN of a board `ranks` high) with white's first rank shuffled as
/// Chess960 shuffles chess's, and black's last rank its mirror:
///
/// - the chess set on eight files gets Chess960 position `pick(960)` (Scharnagl's numbering);
/// - any other first rank is dealt square by square: each pair of pieces of one colour-bound
///   type (every move an even distance: bishops, alfils) on squares of both colours, the other
///   pieces anywhere, and with `castling` the king between its two rooks (the castling
///   partners); a king whose rooks are not exactly two stays where it is, with them.
///
/// `pick(n)` chooses a number below `n`. Black's rank follows only where it mirrors white's in
/// `start`; the rest of the FEN (castling rights included: `KQkq` names the outermost rooks)
/// is kept. A start without two pieces to shuffle comes back as it is.
pub fn shuffle_start(start: &str, registry: &PieceTypeRegistry, castling: bool, ranks: u8, mut pick: impl FnMut(u16) -> u16) -> String {
    let (placement, rest) = start.split_once(' ').unwrap_or((start, ""));
    // Pockets written in brackets stay as they are.
    let (board, pocket) = match placement.find('[') {
        Some(i) => placement.split_at(i),
        None => (placement, ""),
    };
    let mut rows: Vec<String> = board.split('/').map(str::to_string).collect();
    let white_row = usize::from(ranks).saturating_sub(1);
    if rows.len() <= white_row || white_row == 0 {
        return start.to_string();
    }
    let white = expand_row(&rows[white_row]);
    let black = expand_row(&rows[0]);
    let files: Vec<usize> =
        (0..white.len()).filter(|&f| white[f].as_deref().and_then(letter).is_some_and(|c| c.is_ascii_uppercase())).collect();
    if files.len() < 2 {
        return start.to_string();
    }
    let men: Vec<String> = files.iter().map(|&f| white[f].clone().unwrap_or_default()).collect();
    let mut letters: Vec<char> = men.iter().filter_map(|t| letter(t)).collect();
    letters.sort_unstable();
    let order: Vec<String> = if white.len() == 8 && files.len() == 8 && letters == ['B', 'B', 'K', 'N', 'N', 'Q', 'R', 'R'] {
        // The chess set: Chess960 by its number, each letter taking its own token along.
        let rank = chess960_back_rank(pick(960));
        let mut pool = men.clone();
        rank.iter()
            .map(|&c| {
                let i = pool.iter().position(|t| letter(t) == Some(c)).expect("the chess set has every letter");
                pool.remove(i)
            })
            .collect()
    } else {
        deal(&files, &men, registry, castling, &mut pick)
    };
    let mut new_white = white.clone();
    for (&f, t) in files.iter().zip(&order) {
        new_white[f] = Some(t.clone());
    }
    let mirrored = black.len() == white.len() && (0..white.len()).all(|f| lower(&white[f]) == black[f]);
    rows[white_row] = write_row(&new_white);
    if mirrored {
        rows[0] = write_row(&new_white.iter().map(lower).collect::<Vec<_>>());
    }
    let mut out = rows.join("/");
    out.push_str(pocket);
    if !rest.is_empty() {
        out.push(' ');
        out.push_str(rest);
    }
    out
}

/// The men of `men` (on `files`, in order) dealt anew; see [`shuffle_start`].
fn deal(files: &[usize], men: &[String], registry: &PieceTypeRegistry, castling: bool, pick: &mut impl FnMut(u16) -> u16) -> Vec<String> {
    let def = |t: &str| letter(t).and_then(|c| registry.by_letter(c)).map(|k| registry.def(k));
    let colour_bound = |t: &str| {
        def(t).is_some_and(|d| {
            d.zones == Default::default()
                && !d.atoms.is_empty()
                && d.atoms.iter().all(|a| !a.any_square && a.hop == Hop::None && (i32::from(a.dx) + i32::from(a.dy)) % 2 == 0)
        })
    };
    let count = |c: Option<char>| men.iter().filter(|t| letter(t) == c).count();
    let mut slots: Vec<Option<String>> = vec![None; files.len()];
    let mut free: Vec<usize> = (0..files.len()).collect();
    let mut left: Vec<String> = men.to_vec();
    // Castling: a lone king and its two rooks keep the last three free squares, in the order
    // rook, king, rook; a king with other than two rooks keeps its square, and so do they.
    let king = men.iter().find(|t| def(t).is_some_and(|d| d.castles)).cloned();
    let rooks: Vec<String> = men.iter().filter(|t| def(t).is_some_and(|d| d.castling_partner)).cloned().collect();
    let mut rkr = None;
    if let Some(king) = king.filter(|k| castling && count(letter(k)) == 1) {
        let castlers = |t: &String| *t == king || rooks.contains(t);
        if rooks.len() == 2 {
            rkr = Some([rooks[0].clone(), king.clone(), rooks[1].clone()]);
        } else {
            for (i, t) in men.iter().enumerate().filter(|(_, t)| castlers(t)) {
                slots[i] = Some(t.clone());
                free.retain(|&s| s != i);
            }
        }
        left.retain(|t| !castlers(t));
    }
    let reserved = if rkr.is_some() { 3 } else { 0 };
    // Pairs of a colour-bound type: one on each colour, while both colours have room.
    let mut bound: Vec<String> = left.iter().filter(|t| colour_bound(t) && count(letter(t)) == 2).cloned().collect();
    bound.sort();
    bound.dedup();
    for t in bound {
        let colour = |parity: usize| -> Vec<usize> { free.iter().copied().filter(|&s| files[s] % 2 == parity).collect() };
        let (light, dark) = (colour(1), colour(0));
        // Three squares stay for the king and its rooks.
        if light.is_empty() || dark.is_empty() || free.len() < 2 + reserved {
            continue;
        }
        let a = light[usize::from(pick(light.len() as u16))];
        let b = dark[usize::from(pick(dark.len() as u16))];
        for s in [a, b] {
            slots[s] = Some(t.clone());
            free.retain(|&x| x != s);
        }
        for _ in 0..2 {
            let i = left.iter().position(|x| *x == t).expect("a pair has two");
            left.remove(i);
        }
    }
    // The other pieces anywhere; the three squares left over go to the rooks and the king.
    for t in left {
        let i = usize::from(pick(free.len() as u16));
        slots[free.remove(i)] = Some(t);
    }
    if let Some(rkr) = rkr {
        for (s, t) in free.into_iter().zip(rkr) {
            slots[s] = Some(t);
        }
    }
    slots.into_iter().map(|s| s.expect("every square dealt")).collect()
}

/// A FEN row as one entry per file: the piece's token (`N`, `+P`, `Q~`) or nothing.
fn expand_row(row: &str) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::new();
    let mut digits = String::new();
    let mut token = String::new();
    for c in row.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.extend(std::iter::repeat_n(None, digits.parse().unwrap_or(0)));
            digits.clear();
        }
        match c {
            '+' => token.push(c),
            '~' => {
                if let Some(Some(last)) = out.last_mut() {
                    last.push(c);
                }
            }
            _ => {
                token.push(c);
                out.push(Some(std::mem::take(&mut token)));
            }
        }
    }
    if !digits.is_empty() {
        out.extend(std::iter::repeat_n(None, digits.parse().unwrap_or(0)));
    }
    out
}

/// A row written back as FEN.
fn write_row(row: &[Option<String>]) -> String {
    let mut out = String::new();
    let mut empty = 0;
    for cell in row {
        match cell {
            None => empty += 1,
            Some(t) => {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(t);
            }
        }
    }
    if empty > 0 {
        out.push_str(&empty.to_string());
    }
    out
}

/// The letter of a token.
fn letter(token: &str) -> Option<char> {
    token.chars().find(char::is_ascii_alphabetic)
}

/// A white token as black's.
fn lower(cell: &Option<String>) -> Option<String> {
    cell.as_ref().map(|t| t.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_518_is_the_classical_start() {
        assert_eq!(chess960_back_rank(518).iter().collect::<String>(), "RNBQKBNR");
        assert_eq!(chess960_back_rank(0).iter().collect::<String>(), "BBQNNRKR");
    }

    #[test]
    fn all_960_are_distinct_and_legal() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..960 {
            let r = chess960_back_rank(n);
            assert!(seen.insert(r), "{n} repeats");
            let pos = |c: char| r.iter().position(|&x| x == c).unwrap();
            let bishops: Vec<usize> = (0..8).filter(|&i| r[i] == 'B').collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on one colour");
            let rooks: Vec<usize> = (0..8).filter(|&i| r[i] == 'R').collect();
            assert!(rooks[0] < pos('K') && pos('K') < rooks[1], "{n}: king not between the rooks");
        }
    }
}
