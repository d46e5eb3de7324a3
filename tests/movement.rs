//! Non-simple movement through the engine: hoppers, lame leapers and grasshoppers generate
//! the right moves and give check the right way.

use chimera::rules::{Engine, PieceTypeDef, Variant};

/// Chess plus a cannon (C, `mRcpR`), a Xiangqi horse (H, `nN`) and a grasshopper (G, `gQ`).
fn fairy() -> Variant {
    let mut types = PieceTypeDef::fide();
    types.push(PieceTypeDef::from_betza("cannon", 'C', 450, "mRcpR").unwrap());
    types.push(PieceTypeDef::from_betza("horse", 'H', 300, "nN").unwrap());
    types.push(PieceTypeDef::from_betza("grasshopper", 'G', 200, "gQ").unwrap());
    Variant::chess().with_types(types).unwrap()
}

fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let mut e = Engine::from_fen(fairy(), fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
    let mut v: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with(from)).collect();
    v.sort();
    v
}

#[test]
fn cannon_moves_like_a_rook_and_captures_over_a_screen() {
    let fen = "r3k3/8/8/8/P7/8/8/C3K3 w - - 0 1";
    assert_eq!(moves_from(fen, "a1"), ["a1a2", "a1a3", "a1a8", "a1b1", "a1c1", "a1d1"]);
}

#[test]
fn cannon_gives_check_through_a_screen() {
    let mut e = Engine::from_fen(fairy(), "k7/8/8/P7/8/8/8/C3K3 b - - 0 1").unwrap();
    assert!(e.is_check());
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    moves.sort();
    assert_eq!(moves, ["a8b7", "a8b8"]);
    // Without the screen there is no check.
    let mut e = Engine::from_fen(fairy(), "k7/8/8/8/8/8/8/C3K3 b - - 0 1").unwrap();
    assert!(!e.is_check());
}

#[test]
fn a_piece_stepping_between_cannon_and_king_can_expose_it() {
    // Nothing stands between the cannon on a1 and the king on a8: the bishop may not step
    // onto the a-file, where it would become the cannon's screen.
    let mut e = Engine::from_fen(fairy(), "k7/1b6/8/8/8/8/8/C3K3 b - - 0 1").unwrap();
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert!(!moves.contains(&"b7a6".to_string()), "the bishop would become the cannon's screen");
    assert!(moves.contains(&"b7c6".to_string()));
}

#[test]
fn lame_horse_is_blocked_beside_it() {
    // Horse on d4; a piece on d5 blocks d4-c6 and d4-e6, one on e4 blocks e4-f5/f3 jumps.
    let fen = "4k3/8/8/3p4/3HP3/8/8/4K3 w - - 0 1";
    assert_eq!(moves_from(fen, "d4"), ["d4b3", "d4b5", "d4c2", "d4e2"]);
}

#[test]
fn grasshopper_lands_right_behind_its_screen() {
    let fen = "4k3/8/8/3p4/8/3G1P2/8/4K3 w - - 0 1";
    // Screens: d5 (two up, so it lands on d6), f3 (lands on g3). Nothing else to jump.
    assert_eq!(moves_from(fen, "d3"), ["d3d6", "d3g3"]);
}

#[test]
fn fairy_perft_is_consistent_with_make_and_undo() {
    // A busy position: every pseudo-legal path is exercised, and undo must restore it.
    let fen = "r1b1k2r/pp1pHppp/2n2n2/2C1p3/4P3/2N2G2/PPPP1PPP/R1B1K2R w KQkq - 0 1";
    let mut e = Engine::from_fen(fairy(), fen).unwrap();
    let before = e.fen();
    let nodes = e.perft(3);
    assert!(nodes > 10_000, "{nodes}");
    assert_eq!(e.fen(), before);
    let split: u64 = e.divide(3).iter().map(|(_, n)| n).sum();
    assert_eq!(split, nodes);
}

/// Torpedo chess: a pawn's double step from beyond its first rank (its `fmnD` is no initial
/// move) leaves an en-passant square, as Fairy-Stockfish has it. Chimera used to tie en passant
/// to initial double steps only: a5-a3 left no reply b3xa4 (perft 2 of a5a3 was 7, not 8).
#[test]
fn a_torpedo_double_step_from_any_rank_may_be_taken_en_passant() {
    let torpedo = || chimera::variants::builtin("torpedo").unwrap();
    let mut e = Engine::from_fen(torpedo(), "4k3/8/8/p7/8/1P6/8/4K3 b - - 0 1").unwrap();
    let divide: Vec<(String, u64)> = e.divide(2);
    let a5a3 = divide.iter().find(|(m, _)| m == "a5a3").map(|&(_, n)| n);
    assert_eq!(a5a3, Some(8), "{divide:?}");
    e.play_uci("a5a3").unwrap();
    assert_eq!(e.fen(), "4k3/8/8/8/8/pP6/8/4K3 w - a4 0 2");
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert!(moves.contains(&"b3a4".to_string()), "{moves:?}");
    e.play_uci("b3a4").unwrap();
    assert_eq!(e.fen(), "4k3/8/8/8/P7/8/8/4K3 b - - 0 2", "the pawn on a3 is taken");
    // Without a pawn beside it no square is written (as for chess's double steps).
    let mut e = Engine::from_fen(torpedo(), "4k3/8/8/p7/8/8/8/4K3 b - - 0 1").unwrap();
    e.play_uci("a5a3").unwrap();
    assert_eq!(e.fen(), "4k3/8/8/8/8/p7/8/4K3 w - - 0 2");
    // The FEN with the square reads back, and perft from the start is Fairy-Stockfish's.
    Engine::from_fen(torpedo(), "4k3/8/8/8/8/pP6/8/4K3 w - a4 0 2").unwrap();
    let mut e = Engine::from_fen(torpedo(), "startpos").unwrap();
    assert_eq!(e.perft(4), 209_719);
}

/// Yari Shogi's gold (`WfFbR`) steps one square back with its `W` and slides back with its
/// `bR`: the move is generated once (Chimera listed it twice, so perft counted it twice and
/// its SAN read as ambiguous). Fairy-Stockfish (pyffish) counts 12 moves here.
#[test]
fn a_move_two_atoms_share_is_generated_once() {
    let fen = "k6/7/7/7/3G3/7/7/7/6K[-] w - - 0 1";
    let mut e = Engine::from_fen(chimera::variants::builtin("yarishogi").unwrap(), fen).unwrap();
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    moves.sort();
    let count = moves.len();
    moves.dedup();
    assert_eq!(count, moves.len(), "a move listed twice: {moves:?}");
    assert_eq!(count, 12, "{moves:?}");
    e.play_san("Gd4").unwrap();
}
