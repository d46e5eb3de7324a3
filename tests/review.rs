//! Game review (`chimera::ai::review`, `chimera review`): blunders are marked where a move
//! throws a game away and nowhere a move was the best, the reviewed PGN carries `[%eval]`
//! comments and marks and reads back, and a review leaves the game as it found it, in a
//! catalogue variant, a preset game and a variant file.

use std::sync::atomic::AtomicBool;

use chimera::ai::review::{Budget, Judgement, review};
use chimera::presets::{GameDefinition, Start};
use chimera::rules::{Engine, Side};

const BUDGET: Budget = Budget { nodes: 20_000 };

fn play(game: &mut Engine, moves: &str) {
    for m in moves.split_whitespace() {
        game.play_uci(m).unwrap_or_else(|e| panic!("{m}: {e:?}"));
    }
}

/// Reviews `game` and checks that it is left as it was: the same position and move log.
fn reviewed(game: &mut Engine) -> chimera::ai::review::Review {
    let (fen, plies) = (game.fen(), game.move_log().0.len());
    let stop = AtomicBool::new(false);
    let mut seen = Vec::new();
    let r = review(game, BUDGET, &stop, |done, total| seen.push((done, total))).expect("not stopped");
    assert_eq!((game.fen(), game.move_log().0.len()), (fen, plies), "the game is left as it was");
    assert_eq!(r.positions.len(), plies + 1);
    assert_eq!(r.moves.len(), plies);
    assert_eq!(seen.last(), Some(&(plies + 1, plies + 1)), "progress reaches the end");
    r
}

#[test]
fn the_cli_marks_the_blunder_writes_evaluations_and_the_file_reads_back() {
    let dir = std::env::temp_dir().join(format!("chimera-review-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scholar.pgn");
    std::fs::write(&path, "[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n").unwrap();
    let (mut out, mut summary) = (Vec::new(), Vec::new());
    let r = chimera::cli::run_review(path.to_str().unwrap(), BUDGET.nodes, false, &mut out, &mut summary, |_, _| {}).unwrap();
    let (pgn, summary) = (String::from_utf8(out).unwrap(), String::from_utf8(summary).unwrap());
    // 3… Nf6 allows mate in one: a blunder, with the better move named.
    assert_eq!(r.moves[5].judgement, Some(Judgement::Blunder), "{pgn}");
    assert!(pgn.contains("Nf6?? {[%eval #1] Blunder."), "{pgn}");
    // The mate itself is the best move: no mark; White made no mistake at all.
    assert_eq!(r.moves[6].judgement, None);
    assert_eq!(r.count(Side::White, Judgement::Blunder) + r.count(Side::White, Judgement::Mistake), 0, "{pgn}");
    assert!(summary.contains("Black: 0 inaccuracies, 0 mistakes, 1 blunder;"), "{summary}");
    // Every move but the mate carries an evaluation; the file reads back to the same game.
    assert_eq!(pgn.matches("[%eval ").count(), 6, "{pgn}");
    let back = chimera::pgn::parse_pgn(&pgn).unwrap();
    let (mut replayed, id, _) = chimera::pgn::replay(&back).unwrap();
    assert_eq!(id, "chess");
    assert_eq!(replayed.move_log().0.len(), 7);
    assert!(replayed.outcome().is_some_and(|o| o.winner == Some(Side::White)));
    // As JSON: every move's loss and mark, every position's evaluation.
    let mut json = Vec::new();
    chimera::cli::run_review(path.to_str().unwrap(), BUDGET.nodes, true, &mut json, &mut Vec::new(), |_, _| {}).unwrap();
    let json: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(json["moves"].as_array().map(Vec::len), Some(7));
    assert_eq!(json["moves"][5]["judgement"], "blunder");
    assert_eq!(json["moves"][5]["mover"], "black");
    assert_eq!(json["positions"][6]["eval"], "#1");
    std::fs::remove_dir_all(&dir).ok();
}

/// In "first capture wins", 1… d5 offers a capture (a blunder), and 2. a3 passes the win up
/// and offers one back (a blunder too); the evaluation after it is Black's mate in one. (The
/// search judges 1. e4 itself lost against best play, so the first move is not checked.)
#[test]
fn a_preset_game_is_reviewed_by_its_own_rules() {
    let variant = chimera::variants::builtin("chess").unwrap();
    let definition = GameDefinition::new(variant).unwrap().with_preset_ids(&["capture-to-win".into()]).unwrap();
    let mut game = definition.start(Start::Given("startpos")).unwrap();
    play(&mut game, "e2e4 d7d5 a2a3");
    let r = reviewed(&mut game);
    assert_eq!(r.moves[1].judgement, Some(Judgement::Blunder), "{r:?}");
    assert_eq!(r.moves[2].judgement, Some(Judgement::Blunder), "{r:?}");
    assert_eq!(r.moves[2].better.as_deref(), Some("exd5"), "{r:?}");
    assert_eq!(r.positions[3].white_mate(), Some(-1), "{r:?}");
    assert_eq!(r.positions[3].pgn_eval(), "#-1");
}

/// A variant file with invented pieces: reviewed move by move, the game left as it was, and a
/// hung piece marked.
#[test]
fn a_variant_file_is_reviewed() {
    const FILE: &str = r#"(
    id: "review-invented",
    name: "Review invented",
    description: "Pieces made up for a test.",
    rules_summary: "Checkmate the king.",
    board: (files: 8, ranks: 8),
    pieces: [
        (letter: 'P', name: "pawn", betza: "fmWfceF", pawn: true, promotes: true),
        (letter: 'W', name: "waffle", betza: "WD"),
        (letter: 'C', name: "charger", betza: "RN"),
        (letter: 'K', name: "king", betza: "K", royal: true),
    ],
    start: "wc1k2cw/pppppppp/8/8/8/8/PPPPPPPP/WC1K2CW w - - 0 1",
    castling: Off,
    promotion: (rank: 8, choices: "CW"),
    end: [Checkmate, Stalemate(Draw), MoveRule(100), Repetition(3)],
)"#;
    let dir = std::env::temp_dir().join(format!("chimera-review-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("review-invented.ron");
    std::fs::write(&path, FILE).unwrap();
    let variant = chimera::variants::find(path.to_str().unwrap()).unwrap();
    let mut game = chimera::presets::new_game(variant, "startpos").unwrap();
    // 3. Cc3–d5?? puts the charger where the e-pawn takes it.
    play(&mut game, "e2e3 e7e6 b1c3 a7a6 c3d5");
    let r = reviewed(&mut game);
    assert!(r.moves[4].judgement >= Some(Judgement::Mistake), "the charger hung: {r:?}");
    assert!(r.positions.iter().skip(1).all(|p| p.depth > 0), "every position searched: {r:?}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A stop ends the review with nothing, and the game is still as it was.
#[test]
fn a_stopped_review_returns_nothing_and_leaves_the_game() {
    let mut game = chimera::presets::new_game(chimera::variants::builtin("crazyhouse").unwrap(), "startpos").unwrap();
    play(&mut game, "e2e4 d7d5 e4d5 d8d5");
    let fen = game.fen();
    let stop = AtomicBool::new(false);
    let r = review(&mut game, BUDGET, &stop, |done, _| {
        if done == 2 {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    });
    assert!(r.is_none());
    assert_eq!(game.fen(), fen);
    assert_eq!(game.move_log().0.len(), 4);
}
