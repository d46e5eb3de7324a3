//! Janggi's rules beyond Xiangqi's: moves along the palace diagonals, the cannon's screen
//! rules, passing, and the bikjang and double-pass ends scored by material.

use chimera::rules::{Engine, Side};
use chimera::variants;

fn engine(fen: &str) -> Engine {
    Engine::from_fen(variants::builtin("janggi").unwrap(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(e: &mut Engine) -> Vec<String> {
    let moves = e.legal_moves();
    let mut out: Vec<String> = moves.iter().map(|m| e.to_uci(m)).collect();
    out.sort();
    out
}

#[test]
fn palace_pieces_move_along_the_diagonals() {
    // The general in the palace centre steps all eight ways; a guard in a corner steps to the
    // centre diagonally but not out of the palace.
    let mut e = engine("3k5/9/9/9/9/9/9/9/4K4/3A5 w - - 0 1");
    let moves = legal(&mut e);
    for m in ["e2f1", "e2d3", "e2f3", "e2e3", "e2d2", "e2f2", "d1e1"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    assert!(!moves.contains(&"d1c2".to_string()));
    // A guard on an edge midpoint has no diagonal line.
    let mut e = engine("3k5/9/9/9/9/9/9/5K3/9/4A4 w - - 0 1");
    assert!(!legal(&mut e).iter().any(|m| m == "e1d2" || m == "e1f2"));
    // A chariot slides corner to corner through the empty palace centre.
    let mut e = engine("4k4/9/9/9/9/9/9/3R5/9/3K5 w - - 0 1");
    let moves = legal(&mut e);
    assert!(moves.contains(&"d3e2".to_string()) && moves.contains(&"d3f1".to_string()), "{moves:?}");
    // A soldier in the enemy palace steps forward along the diagonal.
    let mut e = engine("5k3/9/3P5/9/9/9/9/9/9/4K4 w - - 0 1");
    assert!(legal(&mut e).contains(&"d8e9".to_string()));
}

#[test]
fn cannons_need_a_screen_that_is_not_a_cannon_and_never_take_cannons() {
    // The cannon on b1 jumps the horse on b3 to b4..b10, taking the chariot on b8 but not
    // going beyond it; it cannot move without a screen along the first rank.
    let mut e = engine("3k5/9/1r7/9/9/9/9/1N7/9/1C2K4 w - - 0 1");
    let moves = legal(&mut e);
    assert!(moves.contains(&"b1b4".to_string()) && moves.contains(&"b1b8".to_string()), "{moves:?}");
    assert!(!moves.contains(&"b1b9".to_string()) && !moves.contains(&"b1c1".to_string()) && !moves.contains(&"b1b2".to_string()));
    // A cannon is no screen, and a cannon cannot be taken by one (the general is a screen).
    let mut e = engine("3k5/9/1c7/9/9/9/9/1C7/9/1C2K4 w - - 0 1");
    let moves = legal(&mut e);
    assert!(!moves.iter().any(|m| m.starts_with("b1b")), "{moves:?}");
    assert!(moves.contains(&"b1f1".to_string()));
    assert!(!moves.contains(&"b3b8".to_string()));
}

#[test]
fn a_side_may_pass_out_of_check_and_two_passes_end_the_game_on_points() {
    let mut e = engine("3k5/9/9/9/9/9/9/9/4A4/3K1R3 w - - 0 1");
    assert!(legal(&mut e).contains(&"d1d1".to_string()));
    e.play_san("pass").unwrap();
    assert_eq!(e.move_log().0.last().and_then(|r| r.san.clone()).as_deref(), Some("pass"));
    e.play_uci("d10d10").unwrap();
    // White: chariot 13 + guard 3 = 16 against black's 1.5.
    let o = e.outcome().expect("two passes end the game");
    assert_eq!(o.winner, Some(Side::White), "{o:?}");
    // In check, passing is not offered.
    let mut e = engine("3k5/9/9/9/9/9/9/9/9/3K1r3 w - - 0 1");
    assert!(!legal(&mut e).contains(&"d1d1".to_string()));
}

#[test]
fn facing_generals_must_be_answered_and_facing_twice_ends_the_game() {
    // The generals face each other on the e-file: white must block, step aside, or pass.
    let mut e = engine("4k4/9/9/9/9/9/9/9/4K4/RC7 w - - 0 1");
    let moves = legal(&mut e);
    assert!(moves.contains(&"e2e2".to_string()) && moves.contains(&"e2d2".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a1a2".to_string()), "a move that leaves the generals facing is not allowed: {moves:?}");
    // Passing keeps them facing after two moves in a row: the count decides (13 + 7 > 1.5).
    e.play_uci("e2e2").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), None, "one move facing is not yet bikjang");
    let mut e = engine("4k4/9/9/9/9/9/9/9/3K5/RC7 w - - 0 1");
    e.play_uci("d2e2").unwrap();
    e.play_uci("e10e10").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
}
