//! The Shogi family's rules beyond chess: per-piece promotion in a zone, pieces that may not
//! be stranded, captured pieces changing sides unpromoted, doubled pawns and pawn-drop mate
//! forbidden, and Dobutsu's lion try.

use chimera::rules::{Engine, Outcome, Reason, Side};
use chimera::variants;

fn engine(id: &str, fen: &str) -> Engine {
    Engine::from_fen(variants::builtin(id).unwrap(), fen).unwrap_or_else(|e| panic!("{id} {fen}: {e}"))
}

fn legal(e: &mut Engine) -> Vec<String> {
    let moves = e.legal_moves();
    let mut out: Vec<String> = moves.iter().map(|m| e.to_uci(m)).collect();
    out.sort();
    out
}

#[test]
fn promotion_is_offered_entering_leaving_and_inside_the_zone() {
    // A silver on c6 entering the zone (c7), one inside it (g8) and one leaving it (e7 → e6).
    let mut e = engine("shogi", "4k4/6S2/4S4/2S6/9/9/9/9/4K4[-] w - - 0 1");
    let moves = legal(&mut e);
    for m in ["c6c7", "c6c7+", "g8g9", "g8g9+", "e7d6", "e7d6+", "e7e8+"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    // Outside the zone there is nothing to promote.
    assert!(!moves.contains(&"c6d5+".to_string()));
}

#[test]
fn a_piece_that_could_never_move_again_must_promote() {
    let mut e = engine("shogi", "4k4/9/P1L6/4N4/9/9/9/9/4K4[-] w - - 0 1");
    let moves = legal(&mut e);
    // Pawn and lance on the last rank, knight on the last two ranks: promotion only.
    assert!(moves.contains(&"a7a8".to_string()) && moves.contains(&"a7a8+".to_string()));
    assert!(moves.contains(&"c7c9+".to_string()) && !moves.contains(&"c7c9".to_string()));
    assert!(moves.contains(&"e6d8+".to_string()) && !moves.contains(&"e6d8".to_string()));
    assert!(moves.contains(&"c7c8".to_string()), "a lance on the eighth rank can still move");
}

#[test]
fn captured_pieces_change_sides_unpromoted_and_fen_writes_plus() {
    let mut e = engine("shogi", "4k4/9/4+r4/9/4+P4/9/9/9/4K4[-] b - - 0 1");
    assert_eq!(e.fen(), "4k4/9/4+r4/9/4+P4/9/9/9/4K4[] b - - 0 1");
    e.play_uci("e7e5").unwrap();
    // The tokin goes to black's hand as a pawn; the dragon keeps its promotion on the board.
    assert_eq!(e.fen(), "4k4/9/9/9/4+r4/9/9/9/4K4[p] w - - 0 2");
    e.undo();
    assert_eq!(e.fen(), "4k4/9/4+r4/9/4+P4/9/9/9/4K4[] b - - 0 1");
}

#[test]
fn pawns_are_not_dropped_on_a_file_with_an_own_pawn_or_where_they_cannot_move() {
    let mut e = engine("shogi", "4k4/9/9/9/9/9/2P6/9/4K4[PN] w - - 0 1");
    let moves = legal(&mut e);
    assert!(!moves.iter().any(|m| m.starts_with("P@c")), "nifu: {moves:?}");
    assert!(moves.contains(&"P@d5".to_string()));
    assert!(!moves.contains(&"P@d9".to_string()), "a pawn on the last rank could never move");
    assert!(!moves.contains(&"N@d8".to_string()) && moves.contains(&"N@d7".to_string()));
    // A promoted pawn does not count as a pawn on its file.
    let mut e = engine("shogi", "4k4/9/9/9/9/9/2+P6/9/4K4[P] w - - 0 1");
    assert!(legal(&mut e).contains(&"P@c5".to_string()));
}

#[test]
fn a_pawn_drop_that_mates_is_a_foul_that_loses() {
    // The king on e9 is boxed in by its own lances; a gold on e7 guards e8. The drop is listed
    // (as Fairy-Stockfish lists it), and the mate it gives loses for the dropper.
    let mut e = engine("shogi", "3lkl3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1");
    assert!(legal(&mut e).contains(&"P@e8".to_string()), "the drop is a legal move");
    e.play_uci("P@e8").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::win(Side::Black, Reason::Rule(chimera::rules::FOUL_DROP.into()))));
    // The FEN keeps the verdict (`foul`), and reads back to it.
    let fen = e.fen();
    assert!(fen.ends_with("{foul}"), "{fen}");
    let mut again = engine("shogi", &fen);
    assert_eq!(again.outcome(), e.outcome());
    e.undo();
    assert_eq!(e.outcome(), None);
    // Without the gold the king can take the pawn: the drop is only a check.
    let mut e = engine("shogi", "3lkl3/9/9/9/9/9/9/9/4K4[P] w - - 0 1");
    assert!(legal(&mut e).contains(&"P@e8".to_string()));
    // Mating with a pawn that moves onto the square is fine, and so is a drop mate by another piece.
    let mut e = engine("shogi", "3lkl3/9/4G4/9/9/9/9/9/4K4[G] w - - 0 1");
    e.play_uci("G@e8").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::win(Side::White, Reason::Checkmate)));
}

#[test]
fn no_legal_move_loses_in_shogi() {
    // Silvers on g8 and h7 take every square from the king on i9 without attacking it.
    let mut e = engine("shogi", "8k/6S2/7S1/9/9/9/9/9/4K4[-] b - - 0 1");
    assert!(e.legal_moves().is_empty() && !e.is_check());
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(Side::White)));
}

#[test]
fn dobutsu_chicks_must_promote_and_lions_win_by_a_safe_try() {
    let mut e = engine("dobutsu", "g1e/C2/1l1/E1L[-] w - - 0 1");
    let moves = legal(&mut e);
    assert!(moves.contains(&"a3a4+".to_string()) && !moves.contains(&"a3a4".to_string()), "{moves:?}");
    // The lion may walk into an attack (it is not royal); capturing it wins.
    assert!(moves.contains(&"c1c2".to_string()));
    // A lion reaching the far rank where nothing attacks it wins at once.
    let mut e = engine("dobutsu", "2e/L2/1l1/3[-] w - - 0 1");
    e.play_uci("a3a4").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
    // Where the opponent attacks it, the game goes on — until the opponent leaves it alone.
    let mut e = engine("dobutsu", "3/L1e/l2/3[-] w - - 0 1");
    e.play_uci("a3b4").unwrap();
    assert_eq!(e.outcome(), None);
    e.play_uci("c3b2").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
}

/// Fairy-Stockfish writes the Shogi family's FENs without the castling and en-passant fields
/// (pyffish's `start_fen`, and `position fen` from its GUIs): they read as the same starts.
#[test]
fn fairy_stockfish_start_fens_without_castling_fields_read() {
    for (id, fen) in [
        ("shogi", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1"),
        ("minishogi", "rbsgk/4p/5/P4/KGSBR[-] w 0 1"),
        ("torishogi", "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[-] w 0 1"),
        ("dobutsu", "gle/1c1/1C1/ELG[-] w 0 1"),
    ] {
        let mut given = engine(id, fen);
        let mut start = engine(id, "startpos");
        assert_eq!(given.fen(), start.fen(), "{id}: {fen}");
        assert_eq!(legal(&mut given), legal(&mut start), "{id}");
    }
}
