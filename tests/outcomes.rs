//! Game ends: checkmate, stalemate, the fifty-move rule, threefold repetition and
//! insufficient material.

use chimera::rules::{Board, Engine, MoveError, Outcome, Reason, Rules, Side, Variant, cannot_mate};

fn chess(fen: &str) -> Engine {
    Engine::from_fen(Variant::chess(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(e: &mut Engine, ucis: &str) {
    for u in ucis.split_whitespace() {
        e.play_uci(u).unwrap_or_else(|err| panic!("{u}: {err}"));
    }
}

#[test]
fn fools_mate_is_checkmate() {
    let mut e = chess("startpos");
    play(&mut e, "f2f3 e7e5 g2g4");
    assert_eq!(e.outcome(), None);
    play(&mut e, "d8h4");
    assert!(e.is_check());
    assert_eq!(e.outcome(), Some(Outcome::win(Side::Black, Reason::Checkmate)));
    assert_eq!(e.move_log().0.last().and_then(|r| r.san.clone()).as_deref(), Some("Qh4#"));
    assert!(matches!(e.play_uci("a2a3"), Err(MoveError::GameOver(_))));
    e.undo();
    assert_eq!(e.outcome(), None);
}

#[test]
fn stalemate_is_a_draw() {
    let mut e = chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert!(!e.is_check());
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::Stalemate)));
}

#[test]
fn fifty_moves_without_capture_or_pawn_move() {
    let mut e = chess("4k3/8/8/8/8/8/8/4K2R w - - 98 80");
    play(&mut e, "h1h2");
    assert_eq!(e.outcome(), None);
    play(&mut e, "e8d8");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::FiftyMoves)));
    // A pawn move resets the clock.
    let mut e = chess("4k3/8/8/8/8/8/P7/4K2R w - - 99 80");
    play(&mut e, "a2a3");
    assert_eq!(e.state().halfmove_clock, 0);
    assert_eq!(e.outcome(), None);
}

#[test]
fn threefold_repetition() {
    let mut e = chess("startpos");
    play(&mut e, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    assert_eq!(e.outcome(), None);
    play(&mut e, "f6g8");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

/// Chess where perpetual check loses (Fairy-Stockfish's `perpetualCheckIllegal`).
fn perpetual_chess(fen: &str) -> Engine {
    let mut file = chimera::variants::builtin_resolved("chess").unwrap();
    file.perpetual_check_loses = Some(true);
    Engine::from_fen(chimera::variants::compile(&file).unwrap(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn perpetual_check_loses_where_the_variant_says_so() {
    // The queen checks from d8 and d3 while the king goes h8-h7-h8: the third time the same
    // position comes, white has checked with every move of the cycle and loses (pyffish 0.0.90,
    // `[perpchess:chess]` with `perpetualCheckIllegal = true`: is_optional_game_end gives the
    // side to move 32000 here, and 0 for plain chess and for the cycle with Qd4).
    let fen = "7k/6p1/8/8/8/8/8/3Q3K w - - 0 1";
    let cycle = "d1d8 h8h7 d8d3 h7h8 d3d8 h8h7 d8d3 h7h8";
    let mut e = perpetual_chess(fen);
    play(&mut e, cycle);
    assert_eq!(e.outcome(), None);
    play(&mut e, "d3d8");
    assert_eq!(e.outcome(), Some(Outcome::win(Side::Black, Reason::Rule("perpetual check".into()))));
    // Plain chess draws it.
    let mut e = chess(fen);
    play(&mut e, cycle);
    play(&mut e, "d3d8");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::Repetition)));
    // The side to move can be the one that checked throughout: white, to move after the third
    // occurrence, loses (pyffish: -32000 for the side to move).
    let mut e = perpetual_chess("6k1/6p1/8/8/8/8/3Q4/7K w - - 0 1");
    play(&mut e, "d2d3 g8h8 d3d8 h8h7 d8d3 h7h8 d3d8 h8h7 d8d3");
    assert_eq!(e.outcome(), None);
    play(&mut e, "h7h8");
    assert_eq!(e.outcome(), Some(Outcome::win(Side::Black, Reason::Rule("perpetual check".into()))));
    // A quiet move in the cycle (Qd4) makes it an ordinary repetition.
    let mut e = perpetual_chess(fen);
    play(&mut e, "d1d8 h8h7 d8d4 h7h8 d4d8 h8h7 d8d4 h7h8 d4d8");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::Repetition)));
}

#[test]
fn castling_rights_make_positions_different() {
    // The rook goes and comes back: same placement, but castling rights are gone, so the
    // start position has occurred only once.
    let mut e = chess("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut e, "h1h2 h8h7 h2h1 h7h8 h1h2 h8h7 h2h1 h7h8");
    assert_eq!(e.outcome(), None, "the first position had castling rights");
    play(&mut e, "h1h2 h8h7");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::Repetition)), "rooks on h2 and h7 with the same rights, a third time");
}

/// Per-side insufficient material from Fairy-Stockfish's tests (facts about chess).
#[test]
fn insufficient_material_per_side() {
    let cases = [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, false),
        ("k7/8/8/8/8/8/8/K7 w - - 0 1", true, true),
        ("k7/b7/8/8/8/8/8/K7 w - - 0 1", true, true),
        ("k7/n7/8/8/8/8/8/K7 w - - 0 1", true, true),
        ("k7/p7/8/8/8/8/8/K7 w - - 0 1", true, false),
        ("k7/r7/8/8/8/8/8/K7 w - - 0 1", true, false),
        ("k7/q7/8/8/8/8/8/K7 w - - 0 1", true, false),
        ("k7/nn6/8/8/8/8/8/K7 w - - 0 1", true, false),
        ("k7/bb6/8/8/8/8/8/K7 w - - 0 1", true, false),
        ("k7/b1b5/8/8/8/8/8/K7 w - - 0 1", true, true),
        ("kb6/8/8/8/8/8/8/KB6 w - - 0 1", false, false),
        ("8/8/8/8/8/6KN/8/6nk w - - 0 1", false, false),
    ];
    for (fen, white, black) in cases {
        let e = chess(fen);
        let (board, rules) = (e.world().resource::<Board>(), e.world().resource::<Rules>());
        assert_eq!(cannot_mate(board, &rules.registry, Side::White), white, "white in {fen}");
        assert_eq!(cannot_mate(board, &rules.registry, Side::Black), black, "black in {fen}");
    }
    let mut e = chess("k7/b1b5/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::InsufficientMaterial)));
    let mut e = chess("k7/nn6/8/8/8/8/8/K7 w - - 0 1");
    assert_eq!(e.outcome(), None);
}

#[test]
fn insufficient_material_knows_other_ways_to_win() {
    // Bare kings draw in chess, but not on King of the Hill, where a king can still climb it.
    let mut chess = Engine::from_fen(Variant::chess(), "8/8/8/8/8/k7/8/K7 w - - 0 1").unwrap();
    assert_eq!(chess.outcome(), Some(Outcome::draw(Reason::InsufficientMaterial)));
    let koth = chimera::variants::builtin("kingofthehill").unwrap();
    let mut hill = Engine::from_fen(koth, "8/8/8/8/8/k7/8/K7 w - - 0 1").unwrap();
    assert_eq!(hill.outcome(), None);
    // A lone amazon mates; a lone Capablanca archbishop too.
    let amazon = chimera::variants::builtin("amazon").unwrap();
    assert_eq!(Engine::from_fen(amazon, "8/8/8/8/A7/6k1/8/1K6 w - - 0 1").unwrap().outcome(), None);
    let capa = chimera::variants::builtin("capablanca").unwrap();
    assert_eq!(Engine::from_fen(capa, "k9/10/10/10/10/10/10/KA8 w - - 0 1").unwrap().outcome(), None);
}

#[test]
fn a_second_royal_piece_is_mating_material() {
    // Coregal: the royal queen beside the king can mate, so king and queen against king is no
    // draw by material (Fairy-Stockfish plays on; its insufficient-material facts agree).
    let variant = chimera::variants::builtin("coregal").unwrap();
    let mut e = Engine::from_fen(variant.clone(), "3qk3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(e.outcome(), None);
    let board = e.world().resource::<Board>();
    assert!(chimera::rules::has_insufficient_material(&variant, board, Side::White));
    assert!(!chimera::rules::has_insufficient_material(&variant, board, Side::Black));
    // Two bare kings still draw.
    let mut bare = Engine::from_fen(variant, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(bare.outcome(), Some(Outcome::draw(Reason::InsufficientMaterial)));
}

/// Xiangqi and Shogi lose perpetual check, at their own repetition counts (three and four),
/// as pyffish 0.0.90 scores these cycles (is_optional_game_end: +32000 for the checked side
/// to move).
#[test]
fn perpetual_check_loses_in_xiangqi_and_shogi() {
    let engine =
        |id: &str, fen: &str| Engine::from_fen(chimera::variants::builtin(id).unwrap(), fen).unwrap_or_else(|e| panic!("{id} {fen}: {e}"));
    let perpetual = Some(Outcome::win(Side::Black, Reason::Rule("perpetual check".into())));
    // The chariot checks from e3 and d3 while the general steps between e10 and d10.
    let mut e = engine("xiangqi", "4k4/9/9/9/9/9/9/R8/9/5K3 w - - 0 1");
    play(&mut e, "a3e3 e10d10 e3d3 d10e10 d3e3 e10d10 e3d3 d10e10");
    assert_eq!(e.outcome(), None);
    play(&mut e, "d3e3");
    assert_eq!(e.outcome(), perpetual);
    // Checking every other move is an ordinary repetition, a draw.
    let mut e = engine("xiangqi", "4k4/9/9/9/9/9/9/7R1/9/5K3 w - - 0 1");
    play(&mut e, "h3e3 e10d10 e3h3 d10e10 h3e3 e10d10 e3h3 d10e10");
    assert_eq!(e.outcome(), Some(Outcome::draw(Reason::Repetition)));
    // Shogi counts four.
    let mut e = engine("shogi", "4k4/9/9/9/9/9/R8/9/8K[-] w - - 0 1");
    play(&mut e, "a3e3 e9d9 e3d3 d9e9 d3e3 e9d9 e3d3 d9e9 d3e3");
    assert_eq!(e.outcome(), None, "three times");
    play(&mut e, "e9d9 e3d3 d9e9 d3e3");
    assert_eq!(e.outcome(), perpetual);
}
