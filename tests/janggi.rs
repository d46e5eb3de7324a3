//! Janggi's rules beyond Xiangqi's: moves along the palace diagonals, the cannon's screen
//! rules, passing, and the bikjang, double-pass and repetition ends scored by material.

use chimera::rules::{Engine, Reason, Side};
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

#[test]
fn a_repetition_without_perpetual_check_is_scored_on_points() {
    // The generals shuffle, no check given: the third occurrence ends the game on points, as
    // Fairy-Stockfish scores it (is_optional_game_end: black wins on its 1.5 points against
    // none, white with a chariot, 13 to 1.5).
    let shuffle = "e2f2 d10d9 f2e2 d9d10 e2f2 d10d9 f2e2 d9d10";
    for (fen, winner) in [("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", Side::Black), ("3k5/9/9/9/9/R8/9/9/4K4/9 w - - 0 1", Side::White)] {
        let mut e = engine(fen);
        let moves: Vec<&str> = shuffle.split(' ').collect();
        for (i, m) in moves.iter().enumerate() {
            assert_eq!(e.outcome(), None, "{fen}: over before {m}");
            e.play_uci(m).unwrap_or_else(|err| panic!("{fen} {i} {m}: {err:?}"));
        }
        let o = e.outcome().expect("threefold repetition");
        assert_eq!(o.winner, Some(winner), "{fen}: {o:?}");
        assert!(matches!(&o.reason, Reason::Rule(r) if r.starts_with("repetition")), "{o:?}");
    }
    // A long random playout's end (differential seed 0x5c60b9c97f9117e0): 50 points for white
    // against 57.5 for black, white to move loses.
    let mut e = engine("2rk1ab1b/3ra4/9/1c6p/6p2/1P3cR2/BPPN5/5K2C/6C2/3AA1B2 b - - 0 61");
    for m in "g6f6 f3e2 e9e10 e2f3 f10f9 f3e2 f9f10 i3i9 e10e9 i9i3 e9e10".split(' ') {
        e.play_uci(m).unwrap();
    }
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::Black));
    // Without a count (casual rules), the repetition draws.
    let mut e = Engine::from_fen(variants::builtin("janggicasual").unwrap(), "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1").unwrap();
    for m in shuffle.split(' ') {
        e.play_uci(m).unwrap();
    }
    let o = e.outcome().expect("threefold repetition");
    assert_eq!((o.winner, o.reason), (None, Reason::Repetition));
}
