//! Andernach chess (`presets/andernach.ron`): a piece that captures changes side. Fairy-Stockfish
//! has no such variant, so each special case has a rule test, and perft is counted by hand.

use chimera::rules::Engine;
use chimera::variants;

fn game(fen: &str) -> Engine {
    Engine::from_fen(variants::builtin("andernach").expect("built in"), fen).expect("position")
}

fn legal_uci(e: &mut Engine) -> Vec<String> {
    let legal = e.legal_moves();
    let mut out: Vec<String> = legal.iter().map(|m| e.to_uci(m)).collect();
    out.sort();
    out
}

fn play(e: &mut Engine, uci: &str) {
    e.play_uci(uci).unwrap_or_else(|err| panic!("{uci}: {err}"));
}

#[test]
fn the_capturing_piece_changes_side_on_the_square_it_took() {
    let mut e = game("4k3/8/8/8/8/8/1p6/1R2K3 w - - 0 1");
    play(&mut e, "b1b2");
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/1r6/4K3 b - - 0 1");
}

#[test]
fn the_king_never_changes_side() {
    let mut e = game("4k2r/8/8/8/8/8/3n4/R3K3 w - - 0 1");
    play(&mut e, "e1d2");
    assert_eq!(e.fen(), "4k2r/8/8/8/8/8/3K4/R7 b - - 0 1");
}

#[test]
fn a_capture_that_would_leave_the_king_to_the_changed_piece_is_illegal() {
    // Qxd2 would put a black queen beside the white king: not allowed. Kxd2 is.
    let mut e = game("4k3/8/8/8/8/8/Q2n4/4K3 w - - 0 1");
    let moves = legal_uci(&mut e);
    assert!(!moves.contains(&"a2d2".to_string()), "{moves:?}");
    assert!(moves.contains(&"e1d2".to_string()), "{moves:?}");
    // A rook taking there is allowed: from d2 it does not attack e1.
    let mut e = game("4k3/8/8/8/8/8/R2n4/4K3 w - - 0 1");
    assert!(legal_uci(&mut e).contains(&"a2d2".to_string()));
}

#[test]
fn a_pawn_promotes_by_capturing_then_changes_side() {
    let mut e = game("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    play(&mut e, "a7b8q");
    assert_eq!(e.fen(), "1q2k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn en_passant_changes_side_too() {
    let mut e = game("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    play(&mut e, "e5d6");
    assert_eq!(e.fen(), "4k3/8/3p4/8/8/8/8/4K3 b - - 0 1");
}

#[test]
fn a_pawn_that_changes_side_on_its_new_second_rank_may_step_twice() {
    let mut e = game("4k3/2n5/1P6/8/8/8/8/4K3 w - - 0 1");
    play(&mut e, "b6c7");
    assert!(legal_uci(&mut e).contains(&"c7c5".to_string()));
}

/// Counted by hand. White: Ka1, Rb2; black: Kh8, Pb7. White has 15 moves: the king 2 (a2,
/// b1), the rook 13 (b3-b6, b7 taking, b1; a2, c2-h2). Black's replies: after a king move or
/// Rb1, Rb3, Rb4, Ra2, Rc2, Rd2, Re2 and Rf2, 5 each (the king's 3 and the pawn's 2); after
/// Rb5, 4 (the pawn's double step is blocked); after Rb6, 3 (the pawn cannot move); after Rg2,
/// 3 (g8 and g7 are attacked); after Rh2, check: the king's 2 (g8, g7); after Rxb7 the rook
/// is black's: its 14 moves (b8, b6-b1; a7, c7-h7) and the king's 3 (g8, g7, h7: nothing
/// attacks them), 17, where chess would leave black the king's one move. 2×5 + 3×5 (Rb1 Rb3
/// Rb4) + 4 + 3 + 17 + 5×5 (Ra2 Rc2 Rd2 Re2 Rf2) + 3 + 2 = 79.
#[test]
fn perft_counted_by_hand() {
    let fen = "7k/1p6/8/8/8/8/1R6/K7 w - - 0 1";
    assert_eq!(game(fen).perft(1), 15);
    assert_eq!(game(fen).perft(2), 79);
    // From the start no capture is possible in two plies: as chess.
    assert_eq!(game("startpos").perft(2), 400);
}
