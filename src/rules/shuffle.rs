//! Shuffled starts: Chess960 positions by their standard number.

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
