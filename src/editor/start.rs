//! The start position as the editor's board shows it: a grid of pieces (and the pockets),
//! kept in step with the FEN both ways. A piece is its FEN token: an optional `+` (a promoted
//! Shogi piece), the letter (upper case white, lower case black), an optional `~` (promoted in
//! Crazyhouse); a wall is `*`. The fields after the placement (side to move, castling, …) are kept as they
//! are; the variant's rules check them (see [`super::Editor::problems`]).

use crate::rules::Side;

/// The start position being edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StartGrid {
    files: u8,
    ranks: u8,
    /// Rank by rank from rank 1, file by file from file a.
    cells: Vec<Option<String>>,
    /// The pockets as written in the FEN (`[Nn]`), without brackets; `None` when there are none.
    pockets: Option<String>,
    /// The fields after the placement.
    rest: String,
    /// Fixed gating's gate rows beyond the back ranks (black's, white's), as written; kept
    /// as they are.
    gate_rows: Option<(String, String)>,
}

impl StartGrid {
    /// An empty board, white to move.
    pub fn empty(files: u8, ranks: u8) -> StartGrid {
        StartGrid {
            files,
            ranks,
            cells: vec![None; files as usize * ranks as usize],
            pockets: None,
            rest: "w - - 0 1".into(),
            gate_rows: None,
        }
    }

    /// Reads a FEN for a board of `files` × `ranks`.
    ///
    /// # Errors
    /// A placement that does not fit the board, in words.
    pub fn parse(fen: &str, files: u8, ranks: u8) -> Result<StartGrid, String> {
        let fen = fen.trim();
        let (placement, rest) = fen.split_once(' ').unwrap_or((fen, "w - - 0 1"));
        let (placement, pockets) = match placement.split_once('[') {
            Some((p, pocket)) => {
                let pocket = pocket.strip_suffix(']').ok_or("a pocket '[' without ']'")?;
                (p, Some(pocket.to_string()))
            }
            None => (placement, None),
        };
        let mut rows: Vec<&str> = placement.split('/').collect();
        // Two rows more: fixed gating's gate rows (Musketeer), kept as written.
        let gate_rows = (rows.len() == ranks as usize + 2).then(|| {
            let white = rows.pop().unwrap_or_default().to_string();
            (rows.remove(0).to_string(), white)
        });
        let cells = crate::variants::placement::read_rows(&rows, files, ranks)?;
        Ok(StartGrid { files, ranks, cells, pockets, rest: rest.trim().to_string(), gate_rows })
    }

    /// The position as FEN.
    pub fn fen(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..self.ranks as usize).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for file in 0..self.files as usize {
                match &self.cells[rank * self.files as usize + file] {
                    Some(token) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(token);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        if let Some((black, white)) = &self.gate_rows {
            rows.insert(0, black.clone());
            rows.push(white.clone());
        }
        let pockets = self.pockets.as_ref().map_or(String::new(), |p| format!("[{p}]"));
        format!("{}{pockets} {}", rows.join("/"), self.rest)
    }

    /// The position on a board of `files` × `ranks`: white's half kept from the bottom, black's
    /// from the top, each piece on its file (what does not fit goes); pockets and the other
    /// fields stay.
    pub fn resized(&self, files: u8, ranks: u8) -> StartGrid {
        let mut out = StartGrid {
            files,
            ranks,
            cells: vec![None; files as usize * ranks as usize],
            pockets: self.pockets.clone(),
            rest: self.rest.clone(),
            gate_rows: self.gate_rows.clone(),
        };
        for rank in 0..ranks {
            // The lower half counts from the bottom, the upper half from the top.
            let from = if rank < ranks / 2 { Some(rank) } else { (self.ranks + rank).checked_sub(ranks) };
            let Some(from) = from.filter(|&r| r < self.ranks && (self.ranks == ranks || (rank < ranks / 2) == (r < self.ranks / 2))) else {
                continue;
            };
            for file in 0..files.min(self.files) {
                out.cells[rank as usize * files as usize + file as usize] = self.at(file, from).map(str::to_string);
            }
        }
        out
    }

    /// The piece on a square (file and rank from 0), as its FEN token.
    pub fn at(&self, file: u8, rank: u8) -> Option<&str> {
        self.index(file, rank).and_then(|i| self.cells[i].as_deref())
    }

    fn index(&self, file: u8, rank: u8) -> Option<usize> {
        (file < self.files && rank < self.ranks).then(|| rank as usize * self.files as usize + file as usize)
    }

    /// Puts a piece (a FEN token) on a square, or clears it. With `mirror`, the same piece of
    /// the other side goes on the mirrored square (the rank seen from the other side), as a
    /// symmetric start wants.
    /// A wall (`*`) stays: it belongs to the board, not to the position.
    pub fn set(&mut self, file: u8, rank: u8, piece: Option<&str>, mirror: bool) {
        let Some(i) = self.index(file, rank) else { return };
        if !self.is_wall(i) {
            self.cells[i] = piece.map(str::to_string);
        }
        if mirror {
            let other = self.ranks - 1 - rank;
            if other != rank
                && let Some(j) = self.index(file, other)
                && !self.is_wall(j)
            {
                self.cells[j] = piece.map(swap_side);
            }
        }
    }

    fn is_wall(&self, i: usize) -> bool {
        self.cells[i].as_deref() == Some("*")
    }

    /// Every square empty (the pockets too), the walls kept.
    pub fn clear(&mut self) {
        self.cells.iter_mut().filter(|c| c.as_deref() != Some("*")).for_each(|c| *c = None);
        self.pockets = None;
    }

    /// Black's half made the mirror of white's (white's pieces on the lower half, copied to
    /// the upper half in black).
    pub fn mirror_white(&mut self) {
        for rank in 0..self.ranks / 2 {
            for file in 0..self.files {
                let piece = self.at(file, rank).filter(|t| side_of(t) == Some(Side::White)).map(str::to_string);
                let other = self.ranks - 1 - rank;
                let j = self.index(file, other).expect("on the board");
                if !self.is_wall(j) {
                    self.cells[j] = piece.as_deref().map(swap_side);
                }
            }
        }
    }

    /// Whether black's pieces mirror white's (the same pieces on the mirrored squares); the
    /// middle rank of an odd board, its own mirror, is not judged.
    pub fn is_mirrored(&self) -> bool {
        (0..self.ranks).filter(|&rank| rank != self.ranks - 1 - rank).all(|rank| {
            (0..self.files).all(|file| {
                let mine = self.at(file, rank);
                let theirs = self.at(file, self.ranks - 1 - rank);
                mine.map(swap_side).as_deref() == theirs
            })
        })
    }

    /// The pockets, as the FEN writes them (without brackets).
    pub fn pockets(&self) -> Option<&str> {
        self.pockets.as_deref()
    }

    /// Sets the pockets (`None` for none).
    pub fn set_pockets(&mut self, pockets: Option<&str>) {
        self.pockets = pockets.map(str::to_string);
    }

    /// Puts one piece (a letter: upper case white's, lower case black's) in its side's pocket.
    /// The pocket is kept in order: white's pieces, then black's, each by letter.
    pub fn add_to_pocket(&mut self, letter: char) {
        let mut pieces: Vec<char> = self.pocket_pieces();
        pieces.push(letter);
        self.write_pocket(pieces);
    }

    /// Takes one piece of this letter out of the pocket; returns whether there was one.
    pub fn take_from_pocket(&mut self, letter: char) -> bool {
        let mut pieces = self.pocket_pieces();
        let Some(i) = pieces.iter().position(|&c| c == letter) else { return false };
        pieces.remove(i);
        self.write_pocket(pieces);
        true
    }

    /// The pieces in the pockets, one letter each (`-`, an empty pocket, has none).
    pub fn pocket_pieces(&self) -> Vec<char> {
        self.pockets.as_deref().unwrap_or("").chars().filter(char::is_ascii_alphabetic).collect()
    }

    fn write_pocket(&mut self, mut pieces: Vec<char>) {
        pieces.sort_by_key(|c| (c.is_ascii_lowercase(), c.to_ascii_uppercase()));
        self.pockets = Some(pieces.into_iter().collect());
    }

    /// White's pieces on its first rank shuffled as Chess960 shuffles them, and black's made
    /// their mirror: every letter in `opposite_colours` that has exactly two pieces there gets
    /// one on each colour of square, and with `castling` (the king's and the rook's letters) the
    /// king stands between two rooks. `pick(n)` chooses a number below `n` (a random source).
    ///
    /// # Errors
    /// The rules cannot be met by that rank (a king without a rook on each side of it possible,
    /// say): nothing changes.
    pub fn shuffle_first_rank(
        &mut self,
        opposite_colours: &str,
        castling: Option<(char, char)>,
        pick: &mut dyn FnMut(usize) -> usize,
    ) -> Result<(), String> {
        let men: Vec<String> =
            (0..self.files).filter_map(|f| self.at(f, 0).filter(|t| side_of(t) == Some(Side::White)).map(str::to_string)).collect();
        let squares: Vec<u8> = (0..self.files).filter(|&f| self.at(f, 0).is_some_and(|t| side_of(t) == Some(Side::White))).collect();
        if men.len() < 2 {
            return Err("white has fewer than two pieces on its first rank: nothing to shuffle".into());
        }
        let letter = |t: &str| t.chars().find(char::is_ascii_alphabetic).unwrap_or(' ');
        let ok = |order: &[String]| {
            let bound_ok = opposite_colours.chars().all(|l| {
                let at: Vec<u8> = order.iter().zip(&squares).filter(|(t, _)| letter(t) == l).map(|(_, &f)| f % 2).collect();
                at.len() != 2 || at[0] != at[1]
            });
            let castling_ok = castling.is_none_or(|(k, r)| {
                let files_of = |l: char| order.iter().zip(&squares).filter(|(t, _)| letter(t) == l).map(|(_, &f)| f).collect::<Vec<_>>();
                let rooks = files_of(r);
                files_of(k).iter().all(|&kf| rooks.iter().any(|&rf| rf < kf) && rooks.iter().any(|&rf| rf > kf))
            });
            bound_ok && castling_ok
        };
        // Rejection sampling: a fair shuffle, kept when it meets the rules (most do).
        for _ in 0..10_000 {
            let mut order = men.clone();
            for i in (1..order.len()).rev() {
                order.swap(i, pick(i + 1));
            }
            if ok(&order) {
                for (t, &f) in order.iter().zip(&squares) {
                    self.set(f, 0, Some(t), true);
                }
                return Ok(());
            }
        }
        Err("no order of white's first rank meets the rules (bishops on both colours, the king between the rooks)".into())
    }
}

/// Where a piece of the start position is carried from or to: the palette (a new piece), a
/// square (file and rank from 0), or the pockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// A new piece, from the palette (as a destination: nowhere).
    Palette,
    /// A square.
    Square(u8, u8),
    /// The pockets.
    Pocket,
}

impl StartGrid {
    /// The piece `token` carried (dragged) from `from` to `to` (`None`: off the board, gone).
    /// With `mirror`, a piece and its mirror image move as a pair, and a palette piece is placed
    /// with its mirror; a piece without its mirror image (Horde's, Orda's) moves alone, and a
    /// pair does not land on the middle rank of an odd board (its own mirror): there the piece
    /// moves alone and its partner stays. A piece from the pockets that lands on a piece sends
    /// that one to its owner's hand.
    pub fn carry(&mut self, token: &str, from: Spot, to: Option<Spot>, mirror: bool) {
        // Nothing lands on a wall: the piece stays where it was.
        if let Some(Spot::Square(f, r)) = to
            && self.at(f, r) == Some("*")
        {
            return;
        }
        let letter = token.chars().find(char::is_ascii_alphabetic).unwrap_or(' ');
        match (from, to) {
            (Spot::Palette, Some(Spot::Square(f, r))) => self.set(f, r, Some(token), mirror),
            (Spot::Palette, Some(Spot::Pocket)) => self.add_to_pocket(letter),
            (Spot::Square(file, rank), to) if to != Some(Spot::Square(file, rank)) => {
                if to == Some(Spot::Pocket) {
                    self.set(file, rank, None, false);
                    self.add_to_pocket(letter);
                    return;
                }
                let other = self.ranks - 1 - rank;
                let lands_alone = matches!(to, Some(Spot::Square(_, r)) if r == self.ranks - 1 - r);
                let pair = mirror && other != rank && !lands_alone && self.at(file, other) == Some(swap_side(token).as_str());
                self.set(file, rank, None, pair);
                if let Some(Spot::Square(f, r)) = to {
                    self.set(f, r, Some(token), pair);
                }
            }
            (Spot::Pocket, to) if to != Some(Spot::Pocket) => {
                self.take_from_pocket(letter);
                if let Some(Spot::Square(f, r)) = to {
                    if let Some(displaced) = self.at(f, r).and_then(|t| t.chars().find(char::is_ascii_alphabetic)) {
                        self.add_to_pocket(displaced);
                    }
                    self.set(f, r, Some(token), false);
                }
            }
            _ => {}
        }
    }
}

/// The side a FEN token belongs to.
pub fn side_of(token: &str) -> Option<Side> {
    let letter = token.chars().find(char::is_ascii_alphabetic)?;
    Some(if letter.is_ascii_uppercase() { Side::White } else { Side::Black })
}

/// The same piece for the other side.
pub fn swap_side(token: &str) -> String {
    token.chars().map(|c| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_stay_where_the_board_has_them() {
        let fen = "*2*/4/4/*2* w - - 0 1";
        let mut g = StartGrid::parse(fen, 4, 4).unwrap();
        g.set(0, 0, Some("K"), true);
        g.set(1, 0, Some("K"), true);
        assert_eq!(g.fen(), "*k1*/4/4/*K1* w - - 0 1");
        g.mirror_white();
        g.clear();
        assert_eq!(g.fen(), fen);
    }

    #[test]
    fn fen_and_grid_agree_both_ways() {
        for (fen, files, ranks) in [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 8, 8),
            ("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", 10, 8),
            ("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w - - 0 1", 9, 9),
            ("4k3/8/8/3+P4/8/8/8/4KQ~2[Nn] b - - 0 1", 8, 8),
        ] {
            let grid = StartGrid::parse(fen, files, ranks).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(grid.fen(), fen);
        }
        let g = StartGrid::parse("4k3/8/8/3+P4/8/8/8/4KQ~2[Nn] b - - 0 1", 8, 8).unwrap();
        assert_eq!(g.at(3, 4), Some("+P"));
        assert_eq!(g.at(5, 0), Some("Q~"));
        assert_eq!(g.pockets(), Some("Nn"));
        for bad in [
            "8/8 w - - 0 1",
            "9/8/8/8/8/8/8/8 w - - 0 1",
            "7/8/8/8/8/8/8/8 w - - 0 1",
            "0p7/8/8/8/8/8/8/8 w - - 0 1",
            "?7/8/8/8/8/8/8/8 w - - 0 1",
        ] {
            assert!(StartGrid::parse(bad, 8, 8).is_err(), "{bad}");
        }
    }

    #[test]
    fn placing_mirrors_and_clears() {
        let mut g = StartGrid::empty(10, 8);
        g.set(0, 2, Some("G"), true);
        g.set(9, 2, Some("G"), true);
        assert_eq!(g.at(0, 5), Some("g"));
        assert_eq!(g.fen(), "10/10/g8g/10/10/G8G/10/10 w - - 0 1");
        assert!(g.is_mirrored());
        g.set(4, 0, Some("K"), false);
        assert!(!g.is_mirrored());
        g.mirror_white();
        assert_eq!(g.at(4, 7), Some("k"));
        assert!(g.is_mirrored());
        g.clear();
        assert_eq!(g.fen(), "10/10/10/10/10/10/10/10 w - - 0 1");
    }

    #[test]
    fn carried_pieces_move_in_pairs_only_with_their_mirror() {
        let chess = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
        // A pawn and its mirror image move together.
        let mut g = StartGrid::parse(chess, 8, 8).unwrap();
        g.carry("P", Spot::Square(4, 1), Some(Spot::Square(4, 3)), true);
        assert_eq!(g.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[] w KQkq - 0 1");
        // Horde-like: no mirror image, the piece moves alone and nothing else is cleared.
        let mut h = StartGrid::parse("rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/8 w kq - 0 1", 8, 8).unwrap();
        h.carry("P", Spot::Square(0, 1), Some(Spot::Square(0, 2)), true);
        assert_eq!(h.fen(), "rnbqkbnr/1ppppppp/8/8/8/P7/1PPPPPPP/8 w kq - 0 1");
        // Off the board: the pair goes.
        let mut g = StartGrid::parse(chess, 8, 8).unwrap();
        g.carry("N", Spot::Square(1, 0), None, true);
        assert_eq!(g.fen(), "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R1BQKBNR[] w KQkq - 0 1");
        // Onto the middle rank of an odd board: alone, the partner stays.
        let mut o = StartGrid::parse("4k4/9/9/9/9/9/9/9/N3K4 w - - 0 1", 9, 9).unwrap();
        o.set(0, 8, Some("n"), false);
        o.carry("N", Spot::Square(0, 0), Some(Spot::Square(0, 4)), true);
        assert_eq!((o.at(0, 4), o.at(0, 8), o.at(0, 0)), (Some("N"), Some("n"), None));
        // Into the pockets, and from them onto a piece, which goes to its owner's hand.
        let mut g = StartGrid::parse(chess, 8, 8).unwrap();
        g.carry("N", Spot::Square(1, 0), Some(Spot::Pocket), true);
        assert_eq!((g.at(1, 0), g.at(1, 7), g.pockets()), (None, Some("n"), Some("N")));
        g.carry("N", Spot::Pocket, Some(Spot::Square(0, 6)), false);
        assert_eq!((g.at(0, 6), g.pockets()), (Some("N"), Some("p")));
        g.carry("q", Spot::Palette, Some(Spot::Pocket), false);
        assert_eq!(g.pockets(), Some("pq"));
        g.carry("q", Spot::Pocket, None, false);
        assert_eq!(g.pockets(), Some("p"));
    }

    #[test]
    fn pockets_take_and_give_pieces() {
        let mut g = StartGrid::parse("4k3/8/8/8/8/8/8/4K3[-] w - - 0 1", 8, 8).unwrap();
        assert!(g.pocket_pieces().is_empty());
        for c in ['p', 'N', 'P', 'n'] {
            g.add_to_pocket(c);
        }
        assert_eq!(g.pockets(), Some("NPnp"));
        assert!(g.take_from_pocket('n'));
        assert!(!g.take_from_pocket('q'));
        assert_eq!(g.fen(), "4k3/8/8/8/8/8/8/4K3[NPp] w - - 0 1");
    }

    #[test]
    fn a_shuffled_first_rank_keeps_the_rules_and_the_mirror() {
        let mut seed = 12345u64;
        let mut pick = move |n: usize| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) % n as u64) as usize
        };
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let mut g = StartGrid::parse("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", 10, 8).unwrap();
            g.shuffle_first_rank("B", Some(('K', 'R')), &mut pick).unwrap();
            let rank: String = (0..10).map(|f| g.at(f, 0).unwrap().chars().next().unwrap()).collect();
            let mut sorted: Vec<char> = rank.chars().collect();
            sorted.sort_unstable();
            assert_eq!(sorted.into_iter().collect::<String>(), "ABBCKNNQRR", "the same pieces");
            let bishops: Vec<usize> = rank.match_indices('B').map(|(i, _)| i % 2).collect();
            assert_ne!(bishops[0], bishops[1], "{rank}: bishops on both colours");
            let king = rank.find('K').unwrap();
            assert!(rank[..king].contains('R') && rank[king..].contains('R'), "{rank}: the king between the rooks");
            assert!(g.is_mirrored(), "black mirrors white");
            seen.insert(rank);
        }
        assert!(seen.len() > 50, "shuffles differ: {}", seen.len());
        let mut lone = StartGrid::parse("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 8, 8).unwrap();
        assert!(lone.shuffle_first_rank("B", None, &mut pick).is_err());
    }
}
