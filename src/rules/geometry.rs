//! Squares and board geometry: any board from 3×3 to 16×16, squares named `a1` … `p16`.

use std::fmt;

/// The largest number of files or ranks a board may have.
pub const MAX_FILES: u8 = 16;
/// The largest number of ranks a board may have.
pub const MAX_RANKS: u8 = 16;

/// A square index on a board: `rank * files + file`. Fits every board up to 16×16.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(pub u8);

impl Square {
    /// The index as a `usize`, for slices.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of squares, one bit per square, for boards of up to 256 squares: regions, zones,
/// occupancy, pins.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    /// No square.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.0[sq.index() >> 6] & (1u64 << (sq.0 & 63)) != 0
    }

    /// Puts `sq` in the set.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() >> 6] |= 1u64 << (sq.0 & 63);
    }

    /// Takes `sq` out of the set.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.index() >> 6] &= !(1u64 << (sq.0 & 63));
    }

    /// Adds every square of `other`.
    #[inline]
    pub fn union_with(&mut self, other: &SquareSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }

    /// Keeps only the squares also in `other`.
    #[inline]
    pub fn intersect_with(&mut self, other: &SquareSet) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a &= b;
        }
    }

    /// How many squares are in the set.
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether no square is in the set.
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// The squares in the set, lowest first.
    #[inline]
    pub fn iter(&self) -> SquareSetIter {
        SquareSetIter { words: self.0, word: 0 }
    }
}

/// The squares of a [`SquareSet`], lowest first (bit by bit, word by word).
#[derive(Clone, Debug)]
pub struct SquareSetIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for SquareSetIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < 4 {
            let bits = self.words[self.word];
            if bits != 0 {
                self.words[self.word] = bits & (bits - 1);
                return Some(Square((self.word as u32 * 64 + bits.trailing_zeros()) as u8));
            }
            self.word += 1;
        }
        None
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(squares: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in squares {
            set.insert(sq);
        }
        set
    }
}

/// The two sides. White moves first and starts on the low ranks.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, serde::Serialize, serde::Deserialize)]
pub enum Side {
    /// The side that moves first.
    #[default]
    White,
    /// The side that moves second.
    Black,
}

impl Side {
    /// Both sides, white first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The other side.
    #[inline]
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for white, 1 for black, for indexing tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case English name.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The size of a board and the arithmetic on its squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Geometry {
    /// Number of files (columns), 3 to 16.
    pub files: u8,
    /// Number of ranks (rows), 3 to 16.
    pub ranks: u8,
}

impl Geometry {
    /// The standard 8×8 board.
    pub const CHESS: Geometry = Geometry { files: 8, ranks: 8 };

    /// Number of squares.
    #[inline]
    pub fn len(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Whether the board has no squares (never true for a validated board).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The square at `file`, `rank` (0-based), if it is on the board.
    #[inline]
    pub fn square(self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some(Square((rank * self.files as i32 + file) as u8))
        }
    }

    /// The 0-based file of a square.
    #[inline]
    pub fn file(self, sq: Square) -> u8 {
        sq.0 % self.files
    }

    /// The 0-based rank of a square.
    #[inline]
    pub fn rank(self, sq: Square) -> u8 {
        sq.0 / self.files
    }

    /// The rank counted from `side`'s own back rank (0 = its first rank).
    #[inline]
    pub fn relative_rank(self, sq: Square, side: Side) -> u8 {
        match side {
            Side::White => self.rank(sq),
            Side::Black => self.ranks - 1 - self.rank(sq),
        }
    }

    /// Every square, in index order (a1, b1, …).
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.len()).map(|i| Square(i as u8))
    }

    /// The algebraic name of a square, e.g. `e4` or `j10`.
    pub fn name(self, sq: Square) -> String {
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file(sq)) as char);
        s.push_str(&(self.rank(sq) as u32 + 1).to_string());
        s
    }

    /// Parses an algebraic square name (`e4`, `j10`) on this board.
    pub fn parse_square(self, text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let rank: i32 = digits.parse().ok()?;
        self.square((f as u8 - b'a') as i32, rank - 1)
    }
}

/// Whether `k` stands next to one of `others`.
pub fn kings_touch(g: Geometry, k: Square, others: &[Square]) -> bool {
    others.iter().any(|&o| {
        let (df, dr) = (g.file(k) as i32 - g.file(o) as i32, g.rank(k) as i32 - g.rank(o) as i32);
        df.abs() <= 1 && dr.abs() <= 1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_large_boards() {
        let g = Geometry { files: 10, ranks: 10 };
        for sq in g.squares() {
            assert_eq!(g.parse_square(&g.name(sq)), Some(sq));
        }
        assert_eq!(g.name(Square(99)), "j10");
        assert_eq!(g.parse_square("k1"), None);
        assert_eq!(g.parse_square("a11"), None);
        assert_eq!(g.parse_square("a0"), None);
        assert_eq!(g.parse_square("a01"), None);
    }

    #[test]
    fn relative_rank_mirrors_for_black() {
        let g = Geometry::CHESS;
        let e2 = g.parse_square("e2").unwrap();
        assert_eq!(g.relative_rank(e2, Side::White), 1);
        assert_eq!(g.relative_rank(e2, Side::Black), 6);
    }
}
