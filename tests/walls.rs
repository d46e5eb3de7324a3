//! Walls: squares that are not part of the board (Gustav III, Omicron), written `*` in the
//! FEN, and the duck of Duck chess, a wall every move also moves (UCI `e2e4,e4e5`, SAN
//! `e4,e5`). Their perft against Fairy-Stockfish is in `tests/variants.rs`, their playouts in
//! `tests/differential.rs`; these are the rules case by case.

use chimera::rules::{Engine, FenCode, Side, parse_fen};
use chimera::variants;

fn game(id: &str, fen: &str) -> Engine {
    Engine::from_fen(variants::builtin(id).expect("built in"), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal_uci(e: &mut Engine) -> Vec<String> {
    let legal = e.legal_moves();
    let mut out: Vec<String> = legal.iter().map(|m| e.to_uci(m)).collect();
    out.sort();
    out
}

const GUSTAV3_START: &str = "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1";

#[test]
fn the_fen_writes_and_reads_walls_where_the_board_has_them() {
    let mut e = game("gustav3", GUSTAV3_START);
    assert_eq!(e.fen(), GUSTAV3_START);
    let v = variants::builtin("gustav3").unwrap();
    // A wall of the board written as an empty square, and a wall where the board has none.
    let missing = "arnbqkbnra/1pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1";
    assert_eq!(parse_fen(&v, missing).unwrap_err().code, FenCode::Walls);
    let extra = "arnbqkbnra/*pppppppp*/*8*/*3*4*/*8*/*8*/*PPPPPPPP*/ARNBQKBNRA w KQkq - 0 1";
    assert_eq!(parse_fen(&v, extra).unwrap_err().code, FenCode::Walls);
    // Chess has no walls at all.
    let chess = variants::builtin("chess").unwrap();
    let err = parse_fen(&chess, "rnbqkbnr/pppppppp/8/3*4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap_err();
    assert_eq!(err.code, FenCode::Walls);
}

#[test]
fn no_piece_lands_on_or_slides_through_a_wall() {
    // The amazon on a1 goes nowhere up the a-file (a2 is a wall), along the long diagonal,
    // and as a knight to b3 and c2.
    let mut e = game("gustav3", "a4k3a/*8*/*8*/*8*/*8*/*8*/*8*/A4K3A w - - 0 1");
    let from_a1: Vec<String> = legal_uci(&mut e).into_iter().filter(|m| m.starts_with("a1")).collect();
    assert!(from_a1.iter().all(|m| !m.starts_with("a1a")), "nothing up the a-file: {from_a1:?}");
    assert!(from_a1.contains(&"a1h8".to_string()), "the long diagonal is open: {from_a1:?}");
    assert!(from_a1.contains(&"a1b3".to_string()) && from_a1.contains(&"a1c2".to_string()), "{from_a1:?}");
}

#[test]
fn gustav3_castles_two_files_with_the_rook_inside() {
    let mut e = game("gustav3", "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/AR3K2RA w KQkq - 0 1");
    e.play_san("O-O").unwrap();
    assert_eq!(e.fen(), "arnbqkbnra/*pppppppp*/*8*/*8*/*8*/*8*/*PPPPPPPP*/AR4RK1A b kq - 1 1");
}

#[test]
fn the_duck_enters_with_the_first_move_and_is_written_as_a_star() {
    let mut e = game("duck", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(e.legal_moves().len(), 20 * 32);
    let m = e.play_uci("e2e4,e4e5").unwrap();
    assert_eq!(m.wall.map(|w| e.variant().geometry.name(w)), Some("e5".to_string()));
    assert_eq!(e.fen(), "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    // The e-pawn is blocked by the duck; every move puts the duck elsewhere (31 squares).
    let moves = legal_uci(&mut e);
    assert!(!moves.iter().any(|m| m.starts_with("e7e5")), "the duck blocks e5");
    assert!(!moves.iter().any(|m| m.ends_with("e5") && m.contains(',')), "the duck must move");
    assert_eq!(moves.len(), 19 * 31);
    // Taking the move back takes the duck off the board again.
    e.undo();
    assert_eq!(e.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

#[test]
fn duck_moves_are_read_and_written_as_fairy_stockfish_does() {
    let mut e = game("duck", "rnbqkbnr/pppppppp/8/4*3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let m = e.parse_san("Nf6,e2").unwrap();
    assert_eq!(e.to_uci(&m), "g8f6,f6e2");
    assert_eq!(e.to_san(&m), "Nf6,e2");
    // A duck square that is taken, or a duck in a variant without one, is refused.
    assert!(e.parse_uci("g8f6,f6e4").is_err());
    assert!(e.parse_uci("g8f6,a1e2").is_err(), "the duck's part starts on the piece's new square");
    let mut chess = game("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(chess.parse_uci("e2e4,e4e5").is_err());
    // One duck at most.
    let v = variants::builtin("duck").unwrap();
    assert_eq!(parse_fen(&v, "rnbqkbnr/pppppppp/8/4*3/3*P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap_err().code, FenCode::Walls);
}

#[test]
fn castling_leaves_the_rooks_square_to_the_duck_but_not_the_rooks_new_one() {
    let mut e = game("duck", "rnbqk2r/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1");
    let castles: Vec<String> = legal_uci(&mut e).into_iter().filter(|m| m.starts_with("e1g1")).collect();
    assert!(castles.contains(&"e1g1,g1h1".to_string()), "{castles:?}");
    assert!(castles.contains(&"e1g1,g1e1".to_string()), "{castles:?}");
    assert!(!castles.iter().any(|m| m.ends_with("f1")), "the rook stands on f1: {castles:?}");
}

#[test]
fn taking_the_king_wins() {
    // No check in Duck chess: the king may be left attacked, and taking it ends the game.
    let mut e = game("duck", "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(legal_uci(&mut e).iter().any(|m| m.starts_with("h1h8")));
    e.play_uci("h1h7,h7a1").unwrap();
    assert!(legal_uci(&mut e).iter().any(|m| m.starts_with("e8f8")), "the king may step into the rook's line");
    e.play_uci("e8e7,e7a2").unwrap();
    e.play_uci("h7e7,e7b1").unwrap();
    let outcome = e.outcome().expect("the king is gone");
    assert_eq!(outcome.winner, Some(chimera::rules::Side::White));
}

#[test]
fn troitzky_pawns_promote_on_the_last_square_of_their_file() {
    // The c-file ends on c9, the b-file on b8: c8-c9 and b7-b8 promote, c7-c8 does not, and
    // a pawn cannot stand unpromoted on d9, the last square of the d-file.
    let mut e = game("troitzky", "****qk****/**6**/*1P6*/*8*/10/10/*8*/*8*/**6**/****QK**** w - - 0 1");
    let moves = legal_uci(&mut e);
    assert!(moves.contains(&"c8c9q".to_string()) && !moves.contains(&"c8c9".to_string()), "{moves:?}");
    let mut e = game("troitzky", "****qk****/**6**/*8*/*1P6*/10/10/*8*/*8*/**6**/****QK**** w - - 0 1");
    let moves = legal_uci(&mut e);
    assert!(moves.contains(&"c7c8".to_string()) && !moves.iter().any(|m| m.starts_with("c7c8") && m.len() > 4), "{moves:?}");
    let mut e = game("troitzky", "****qk****/**6**/*8*/*P7*/10/10/*8*/*8*/**6**/****QK**** w - - 0 1");
    let moves = legal_uci(&mut e);
    assert!(moves.contains(&"b7b8n".to_string()) && !moves.contains(&"b7b8".to_string()), "{moves:?}");
    let v = variants::builtin("troitzky").unwrap();
    let fen = "****qk****/**1P4**/*8*/*8*/10/10/*8*/*8*/**6**/****QK**** w - - 0 1";
    assert_eq!(Engine::from_fen(v, fen).err().map(|e| e.code), Some(FenCode::PromotionRank));
}

/// Joust and Snail trail: each move walls up the square the piece left; the side with no
/// move loses (FENs and SAN as pyffish 0.0.90 writes them).
#[test]
fn trails_of_walls_close_the_board() {
    let mut e = Engine::from_fen(variants::builtin("joust").unwrap(), "startpos").unwrap();
    let legal = e.legal_moves();
    let first = legal.iter().find(|m| e.to_uci(m) == "d4c2,c2d4").copied().expect("the wall goes where the knight left");
    assert_eq!(e.to_san(&first), "Nc2,d4");
    // The wall's part may be left out: it has only one place.
    e.play_uci("d4c2").unwrap();
    assert_eq!(e.fen(), "8/8/8/4n3/3*4/8/2N5/8 b - - 1 1");
    let mut e = Engine::from_fen(variants::builtin("snailtrail").unwrap(), "startpos").unwrap();
    e.play_uci("a1b1,b1a1").unwrap();
    assert_eq!(e.fen(), "6p/7/7/7/7/7/*P5 b - - 1 1");
    // A snail walled in has lost.
    let mut e = Engine::from_fen(variants::builtin("snailtrail").unwrap(), "6p/7/7/7/7/**5/P*5 w - - 0 9").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(Side::Black)));
}
