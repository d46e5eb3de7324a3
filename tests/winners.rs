//! The winner of every kind of game end the catalogue uses (issue "Hardening", item 6): each
//! row plays its last move from a position where the game goes on, and the game must then be
//! over with that winner. Every row's result was checked against pyffish (Fairy-Stockfish's
//! rules) when it was written, with one departure: Shatranj's bare king, which Chimera judges
//! at once and Fairy-Stockfish after the bared side's reply (in which it could bare back;
//! here it cannot), as `presets/shatranj.ron` says. Repetition ends only in a draw in
//! Chimera (perpetual check is not modelled; see `presets/xiangqi.ron`).

use chimera::rules::{Engine, Side};

/// Variant, start, moves, the winner (`None`: a draw), and what the row shows.
const ROWS: [(&str, &str, &str, Option<Side>, &str); 14] = [
    ("jesonmor", "n8/9/9/9/9/9/3N5/9/8N w - - 0 1", "d3e5 a9b7", Some(Side::White), "a region held through the reply"),
    ("extinction", "startpos", "e2e4 e7e5 d1h5 d8g5 h5g5", Some(Side::White), "extinction of one type"),
    ("threekings", "kk1k4/8/8/8/8/8/8/KKKR4 w - - 0 1", "d1d8", Some(Side::White), "extinction by count (fewer than three kings)"),
    ("horde", "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1", "d2e1", Some(Side::Black), "Horde: white without pieces loses"),
    ("antichess", "8/8/8/8/p7/8/P7/8 b - - 0 1", "a4a3", Some(Side::White), "stalemate as a win"),
    ("xiangqi", "3k5/9/9/9/9/9/9/9/4R4/R4K3 w - - 0 1", "a1a9", Some(Side::White), "stalemate as a loss"),
    ("losers", "startpos", "f2f3 e7e5 g2g4 d8h4", Some(Side::White), "checkmated as a win"),
    ("shatranj", "4k3/8/8/8/8/8/3r4/3RK3 w - - 0 1", "d1d2", Some(Side::White), "a bare king loses"),
    ("3check", "4k3/8/8/8/8/8/8/4K2R w K - 1+3 0 1", "h1h8", Some(Side::White), "the third check"),
    ("kingofthehill", "8/8/8/8/8/3K4/8/7k w - - 0 1", "d3d4", Some(Side::White), "a region reached"),
    ("racingkings", "8/1K6/8/8/8/8/k7/8 w - - 0 1", "b7b8", Some(Side::White), "the race won, no reply can draw"),
    ("capablanca", "4k5/10/10/10/10/10/10/R3K5 w - - 99 60", "a1a2", None, "the move rule outside chess"),
    ("atomic", "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1d8", Some(Side::White), "a king blown up"),
    ("chess", "7k/8/6QK/8/8/8/8/8 w - - 0 1", "g6f7", None, "stalemate as a draw (FIDE)"),
];

#[test]
fn every_kind_of_game_end_has_its_winner() {
    for (id, fen, moves, winner, what) in ROWS {
        let mut e = Engine::from_fen(chimera::variants::builtin(id).unwrap(), fen).unwrap();
        let moves: Vec<&str> = moves.split_whitespace().collect();
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(e.outcome(), None, "{id} ({what}): over before {m}");
            e.play_uci(m).unwrap_or_else(|err| panic!("{id} ({what}): move {} ({m}): {err}", i + 1));
        }
        let outcome = e.outcome().unwrap_or_else(|| panic!("{id} ({what}): the game goes on"));
        assert_eq!(outcome.winner, winner, "{id} ({what}): {outcome}");
    }
}
