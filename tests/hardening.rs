//! Bad input that once crashed, hung or was taken silently (issue "Hardening"): each case is
//! refused with a message or handled, never a panic or a hang.

use chimera::rules::{Engine, FenField, Variant};
use chimera::variants::{self, LoadError, ProblemCode, compile, parse_variant_file, resolve};

fn fen_error(variant: Variant, fen: &str) -> chimera::rules::FenError {
    match Engine::from_fen(variant, fen) {
        Ok(_) => panic!("{fen} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn a_huge_empty_run_is_refused_not_an_overflow() {
    let e = fen_error(Variant::chess(), "99999999999999999999/8/8/8/8/8/8/4K2k w - - 0 1");
    assert_eq!(e.field, FenField::Board);
    assert!(e.to_string().contains("more than 8 squares"), "{e}");
    let e = fen_error(Variant::chess(), "4k3/8/8/8/8/8/8/4K3 9 w - - 0 1");
    assert!(!e.to_string().is_empty());
}

#[test]
fn a_pocket_beyond_the_count_limit_is_refused() {
    // 256 black pawns in hand once loaded as none in a release build (the count wrapped).
    let crazyhouse = variants::builtin("crazyhouse").unwrap();
    let pawns = "p".repeat(256);
    let e = fen_error(crazyhouse.clone(), &format!("4k3/8/8/8/8/8/8/4K3[{pawns}] w - - 0 1"));
    assert!(e.to_string().contains("at most 255"), "{e}");
    // The most that fits loads, keeps its count and plays on.
    let pawns = "p".repeat(255);
    let mut full = Engine::from_fen(crazyhouse, &format!("4k3/8/8/8/8/8/8/4K3[{pawns}] b - - 0 1")).unwrap();
    assert!(full.fen().contains(&pawns));
    full.play_uci("P@e4").unwrap();
}

#[test]
fn a_royal_piece_cannot_be_held_in_hand() {
    let crazyhouse = variants::builtin("crazyhouse").unwrap();
    let e = fen_error(crazyhouse, "4k3/8/8/8/8/8/8/4K3[Kk] w - - 0 1");
    assert!(e.to_string().contains("royal"), "{e}");
}

#[test]
fn more_kings_than_the_variant_allows_are_refused() {
    // Fairy-Stockfish: "Invalid number of white kings. Maximum: 1. Given: 2".
    let e = fen_error(Variant::chess(), "4k3/8/8/8/8/8/8/4K2K w - - 0 1");
    assert!(e.to_string().contains("white has 2 pieces of the royal type king; at most 1"), "{e}");
    let e = fen_error(variants::builtin("xiangqi").unwrap(), "3kk4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    assert!(e.to_string().contains("black has 2"), "{e}");
    let placement = variants::builtin("placement").unwrap();
    fen_error(placement.clone(), "8/pppppppp/8/8/8/8/PPPPPPPP/8[KKQRRBBNNkqrrbbnn] w - - 0 1");
    Engine::from_fen(placement, "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1").unwrap();
    // Where kings are ordinary pieces, or royal pieces come by promotion, more are fine.
    Engine::from_fen(variants::builtin("antichess").unwrap(), "4k3/8/8/8/8/8/8/4K2K w - - 0 1").unwrap();
    Engine::from_fen(variants::builtin("coregal").unwrap(), "4k3/8/8/8/8/8/8/3QK2Q w - - 0 1").unwrap();
}

#[test]
fn an_unclosed_pocket_is_refused() {
    let e = fen_error(variants::builtin("crazyhouse").unwrap(), "4k3/8/8/8/8/8/8/4K3[Pp w - - 0 1");
    assert!(e.to_string().contains("not closed"), "{e}");
}

#[test]
fn counters_at_their_limit_do_not_overflow() {
    // A half-move clock at the top of its range, then moves (perft plays on where the game
    // itself has ended by the move rule).
    // (Chess refuses a clock past its move rule, so the rule is taken out here.)
    let mut endless = Variant::chess();
    endless.end.retain(|e| !matches!(e, chimera::rules::EndCondition::MoveRule(_)));
    let at_limit = "4k3/8/8/8/8/8/8/4K2R w - - 4294967295 7";
    let mut e = Engine::from_fen(endless.clone(), at_limit).unwrap();
    assert_eq!(e.perft(2), Engine::from_fen(endless, "4k3/8/8/8/8/8/8/4K2R w - - 0 7").unwrap().perft(2));
    assert_eq!(e.fen(), at_limit);
    // A full-move number at the top of its range, then a black move.
    let mut e = Engine::from_fen(Variant::chess(), "4k3/8/8/8/8/8/8/4K2R b - - 0 4294967295").unwrap();
    e.play_uci("e8d8").unwrap();
    assert_eq!(e.fen(), "3k4/8/8/8/8/8/8/4K2R w - - 1 4294967295");
    e.undo();
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/4K2R b - - 0 4294967295");
}

fn problems(text: &str) -> Vec<chimera::variants::Problem> {
    let file = parse_variant_file(text).unwrap();
    match resolve(file, &variants::builtin_file).and_then(|f| compile(&f)) {
        Ok(_) => Vec::new(),
        Err(LoadError::Invalid(ps)) => ps,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_region_that_names_itself_is_one_loop_reported_at_once() {
    // Eight self-references once took minutes and gigabytes (every path walked to a depth
    // limit) and printed the loop message hundreds of thousands of times.
    let text = r#"(id: "loop", extends: "chess", name: "Loop",
        regions: { "r": Union(["r", "r", "r", "r", "r", "r", "r", "r"]) })"#;
    let p = problems(text);
    let loops: Vec<_> = p.iter().filter(|x| x.code == ProblemCode::RegionLoop).collect();
    assert_eq!(loops.len(), 1, "{p:#?}");
    assert_eq!(loops[0].path, "regions.r");
    // Four names in a ring: one report, naming the ring.
    let text = r#"(id: "ring", extends: "chess", name: "Ring",
        regions: { "a": Union(["b", "b"]), "b": Union(["c", "c"]), "c": Union(["d", "d"]), "d": Union(["a", "a"]) })"#;
    let p = problems(text);
    let loops: Vec<_> = p.iter().filter(|x| x.code == ProblemCode::RegionLoop).collect();
    assert_eq!(loops.len(), 1, "{p:#?}");
    assert!(loops[0].message.contains("a → b → c → d → a"), "{}", loops[0].message);
    // Deep nesting without a loop is fine, and linear.
    let mut regions: Vec<String> = (0..200).map(|i| format!(r#""n{i}": Union(["n{}", "n{}"])"#, i + 1, i + 1)).collect();
    regions.push(r#""n200": Rect("a1", "h1")"#.to_string());
    let text = format!(r#"(id: "deep", extends: "chess", name: "Deep", regions: {{ {} }})"#, regions.join(", "));
    assert!(problems(&text).is_empty());
}

#[test]
fn variant_file_slips_once_taken_silently_are_reported() {
    let chess = |keys: &str| format!(r#"(id: "bad", extends: "chess", name: "Bad", {keys})"#);
    let cases = [
        (chess(r#"promotion: (rank: 8, choices: "QK")"#), ProblemCode::PromotionRoyal, "promotion.choices"),
        (chess("end: []"), ProblemCode::EndEmpty, "end"),
        (chess("end: [Checkmate, NCheck(0)]"), ProblemCode::EndCount, "end[1]"),
        (chess("end: [Checkmate, MoveRule(0)]"), ProblemCode::EndCount, "end[1]"),
        (chess("end: [Checkmate, Repetition(1)]"), ProblemCode::EndCount, "end[1]"),
        (chess(r#"presets: [(id: "piece-hp", params: {"hp": -3})]"#), ProblemCode::PresetParam, "presets"),
        (chess(r#"presets: [(id: "piece-hp", params: {"hp": 2.5})]"#), ProblemCode::PresetParam, "presets"),
        (chess(r#"presets: [(id: "piece-hp", params: {"hpx": 3})]"#), ProblemCode::PresetParam, "presets"),
        (chess(r#"presets: [(id: "double-move", params: {"n": 3})]"#), ProblemCode::PresetParam, "presets"),
        (chess(r#"pieces: [(letter: 'X', name: "x", betza: "gggR")]"#), ProblemCode::Betza, "pieces[X].betza"),
        (chess(r#"pieces: [(letter: 'X', name: "x", betza: "pgR")]"#), ProblemCode::Betza, "pieces[X].betza"),
        (chess(r#"pieces: [(letter: 'X', name: "x", betza: "( 1 , 2 )")]"#), ProblemCode::Betza, "pieces[X].betza"),
    ];
    for (text, code, path) in cases {
        let p = problems(&text);
        assert!(p.iter().any(|x| x.code == code && x.path == path), "{text}: expected {code} at {path}, got {p:#?}");
    }
    // What these rules allow still loads: Coregal promotes to its second royal type, parameters
    // in range, directions that repeat, a leap without spaces.
    for keys in [
        r#"presets: [(id: "piece-hp", params: {"hp": 3}), (id: "stamina", params: {"max": 4})]"#,
        r#"pieces: [(letter: 'X', name: "x", betza: "ffN(1,2)")]"#,
        "end: [Checkmate, NCheck(1), MoveRule(1), Repetition(2)]",
    ] {
        assert!(problems(&chess(keys)).is_empty(), "{keys}: {:#?}", problems(&chess(keys)));
    }
    assert!(variants::builtin("coregal").is_ok());
}

/// A fresh folder under the system's temporary one, for variant files.
fn folder(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("chimera-hardening-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The problems `chimera check` finds: the file's, then its start's.
fn load_problems(path: &std::path::Path) -> Vec<chimera::variants::Problem> {
    match variants::load_path(path).and_then(|v| variants::playable(&v)) {
        Ok(_) => Vec::new(),
        Err(LoadError::Invalid(ps)) => ps,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn extends_names_an_id_never_a_path() {
    let dir = folder("extends");
    let file = dir.join("sneaky.ron");
    std::fs::write(&file, r#"(id: "sneaky", extends: "../../etc/passwd", name: "Sneaky")"#).unwrap();
    let p = load_problems(&file);
    assert!(p.iter().any(|x| x.code == ProblemCode::ExtendsId && x.path == "extends"), "{p:#?}");
    // Files beside each other that extend each other under other ids: a loop, found at once.
    std::fs::write(dir.join("a.ron"), r#"(id: "x", extends: "b", name: "A")"#).unwrap();
    std::fs::write(dir.join("b.ron"), r#"(id: "y", extends: "a", name: "B")"#).unwrap();
    let p = load_problems(&dir.join("a.ron"));
    assert!(p.iter().any(|x| x.code == ProblemCode::ExtendsCycle), "{p:#?}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn check_judges_the_start_as_a_game_sets_it_up() {
    let dir = folder("start");
    // Black in check with white to move: `check` once passed it and `perft` refused it.
    let file = dir.join("checked.ron");
    std::fs::write(&file, r#"(id: "checked", extends: "chess", name: "C", start: "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1")"#).unwrap();
    let p = load_problems(&file);
    assert!(p.iter().any(|x| x.code == ProblemCode::StartFen && x.message.contains("in check")), "{p:#?}");
    // Under hit points check is not enforced: the same start is a game (it once panicked).
    let file = dir.join("wounded.ron");
    let text = r#"(id: "wounded", extends: "chess", name: "W", start: "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", presets: [(id: "piece-hp")])"#;
    std::fs::write(&file, text).unwrap();
    let variant = variants::load_path(&file).unwrap();
    let mut game = chimera::presets::new_game(variant, "startpos").unwrap();
    assert!(game.perft(2) > 0);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn positions_no_game_could_reach_are_refused() {
    let chess = Variant::chess();
    let e = fen_error(chess.clone(), "4k3/8/8/8/8/8/8/P3K3 w - - 0 1");
    assert!(e.to_string().contains("white pawn on a1 stands behind"), "{e}");
    let e = fen_error(chess.clone(), "4k2p/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(e.to_string().contains("black pawn on h8"), "{e}");
    let e = fen_error(chess.clone(), "P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(e.to_string().contains("white pawn on a8"), "{e}");
    // Horde's white pawns start on the first rank; crazyhouse drops never reach it either.
    let horde = variants::builtin("horde").unwrap();
    Engine::from_fen(horde.clone(), &horde.start_fen).unwrap();
    fen_error(variants::builtin("crazyhouse").unwrap(), "4k3/8/8/8/8/8/8/P3K3[] w - - 0 1");

    let xiangqi = variants::builtin("xiangqi").unwrap();
    let e = fen_error(xiangqi.clone(), "4k4/9/9/9/9/9/9/9/A8/4K4 w - - 0 1");
    assert!(e.to_string().contains("outside the region"), "{e}");
    let e = fen_error(xiangqi.clone(), "3k5/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert!(e.to_string().contains("face each other"), "{e}");
    Engine::from_fen(xiangqi.clone(), "3k5/9/9/9/3P5/9/9/9/9/3K5 w - - 0 1").unwrap();
    Engine::from_fen(xiangqi.clone(), &xiangqi.start_fen).unwrap();
    // Janggi's generals may face each other (bikjang).
    let janggi = variants::builtin("janggi").unwrap();
    Engine::from_fen(janggi.clone(), &janggi.start_fen).unwrap();

    let shogi = variants::builtin("shogi").unwrap();
    Engine::from_fen(shogi.clone(), &shogi.start_fen).unwrap();
    let e = fen_error(shogi.clone(), "P3k4/9/9/9/9/9/9/9/4K4[-] w - - 0 1");
    assert!(e.to_string().contains("pawn on a9"), "{e}");
    // A knight two ranks from the end has no move either (it may promote before; unpromoted it
    // can never stand there).
    let e = fen_error(shogi.clone(), "4k4/N8/9/9/9/9/9/9/4K4[-] w - - 0 1");
    assert!(e.to_string().contains("knight on a8"), "{e}");
    let e = fen_error(shogi.clone(), "4k4/9/9/9/9/9/P8/P8/4K4[-] w - - 0 1");
    assert!(e.to_string().contains("two shogi pawns on the a file"), "{e}");
    // A promoted pawn is another piece: it may share the file.
    Engine::from_fen(shogi, "4k4/9/9/9/9/9/+P8/P8/4K4[-] w - - 0 1").unwrap();
}

#[test]
fn counters_past_what_play_allows_are_refused() {
    let e = fen_error(Variant::chess(), "4k3/8/8/8/8/8/8/4K3 w - - 150 80");
    assert_eq!(e.field, FenField::HalfmoveClock);
    assert!(e.to_string().contains("drawn at 100"), "{e}");
    Engine::from_fen(Variant::chess(), "4k3/8/8/8/8/8/8/4K3 w - - 100 80").unwrap();
    let e = fen_error(Variant::chess(), &format!("4k3/8/8/8/8/8/8/4K3 w {} - 0 1", "KQkq".repeat(50)));
    assert_eq!(e.field, FenField::Castling);
    let three = variants::builtin("3check").unwrap();
    let e = fen_error(three.clone(), "4k3/8/8/8/8/8/8/4K3 w - - 0+0 0 1");
    assert!(e.to_string().contains("all 3 checks"), "{e}");
    Engine::from_fen(three, "4k3/8/8/8/8/8/8/4K3 w - - 1+0 0 1").unwrap();
}

#[test]
fn a_game_over_by_a_blast_loads_its_final_position() {
    // White's king was just blown up: the position is the end of a game, as Fairy-Stockfish
    // reads it too; the side that moved cannot be the one without a king.
    let atomic = variants::builtin("atomic").unwrap();
    let fen = "4kbnr/r2Q1p1p/pp4p1/2p5/PPP5/N7/3P1P1P/R1B4R w k - 0 19";
    let mut e = Engine::from_fen(atomic.clone(), fen).unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(chimera::rules::Side::Black));
    assert!(e.legal_moves().is_empty());
    assert_eq!(e.fen(), fen);
    let e = fen_error(atomic, "4kbnr/r2Q1p1p/pp4p1/2p5/PPP5/N7/3P1P1P/R1B4R b k - 0 19");
    assert!(e.to_string().contains("white has no king"), "{e}");
    fen_error(Variant::chess(), "4k3/8/8/8/8/8/8/8 w - - 0 1");
}

// Found by the soak (tests/soak.rs) and the fuzzer (tests/fuzz.rs); each failed before its fix.

/// A game of `id` with `presets` (UCI's `Presets` syntax) from `fen`.
fn game(id: &str, presets: &str, fen: &str) -> Engine {
    let mut v = variants::builtin(id).unwrap();
    v.presets = chimera::uci::parse_presets(presets).unwrap();
    chimera::presets::new_game(v, fen).unwrap()
}

/// The FEN of `e` loads, in a game with the same presets, to the same FEN, hash and result.
fn reloads_exactly(id: &str, presets: &str, e: &mut Engine) {
    let fen = e.fen();
    let mut again = game(id, presets, &fen);
    assert_eq!(again.fen(), fen);
    assert_eq!(again.world().resource::<chimera::rules::Board>().hash, e.world().resource::<chimera::rules::Board>().hash, "{fen}");
    assert_eq!(again.outcome(), e.outcome(), "{fen}");
    let uci = |e: &mut Engine| e.legal_moves().iter().map(|m| e.to_uci(m)).collect::<Vec<_>>();
    assert_eq!(uci(&mut again), uci(e), "{fen}");
}

#[test]
fn san_names_one_move() {
    // Two Berolina pawns can step to b3: each is named (as Fairy-Stockfish writes them).
    let mut e = Engine::new(variants::builtin("berolina").unwrap());
    let sans: Vec<String> = e.legal_moves().iter().map(|m| e.to_san(m)).collect();
    assert!(sans.contains(&"Pab3".to_string()) && sans.contains(&"Pcb3".to_string()), "{sans:?}");
    e.play_san("Pab3").unwrap();
    // A move written exactly is that move, even beside the same move with a gate (Seirawan).
    let mut e = Engine::new(variants::builtin("seirawan").unwrap());
    e.play_uci("b2b3").unwrap();
    e.play_uci("e7e6").unwrap();
    let m = e.play_san("Ba3").unwrap();
    assert!(m.gate.is_none());
}

#[test]
fn timed_presets_keep_their_turns_in_the_fen() {
    let presets = "knights-leap-twice(turns=2)";
    let mut e = game("chess", presets, "startpos");
    e.play_uci("e2e4").unwrap();
    assert!(e.fen().contains("turns=knights-leap-twice:1"), "{}", e.fen());
    reloads_exactly("chess", presets, &mut e);
    e.play_uci("e7e5").unwrap();
    assert!(e.fen().contains("turns=knights-leap-twice:0"), "{}", e.fen());
    reloads_exactly("chess", presets, &mut e);
}

#[test]
fn results_decided_during_a_move_survive_the_fen() {
    // The first capture wins: nothing on the board says so, the FEN does.
    let mut e = game("chess", "capture-to-win", "startpos");
    for m in ["e2e4", "d7d5", "e4d5"] {
        e.play_uci(m).unwrap();
    }
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(chimera::rules::Side::White));
    assert!(e.fen().contains("end=w:"), "{}", e.fen());
    reloads_exactly("chess", "capture-to-win", &mut e);
    // A berserker's follow-up capture that takes the king ends the game.
    let mut e = game("chess", "berserker", "4k3/8/8/8/3p4/4q3/4PP2/3K4 b - - 0 1");
    e.play_uci("e3e2").unwrap();
    e.play_uci("e2d1").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(chimera::rules::Side::Black));
    assert!(e.legal_moves().is_empty());
    reloads_exactly("chess", "berserker", &mut e);
}

#[test]
fn preset_moves_are_listed_once_and_apply() {
    // A queen on an open rank reaches d3 both ways round a wrapped board: one move.
    let mut e = game("chess", "wrap-board", "k7/8/8/8/8/4Q3/8/4K3 w - - 0 1");
    let moves = e.legal_moves();
    let mut unique = moves.clone();
    unique.sort_by_key(|m| (m.from.0, m.to.0, m.promotion.map(|p| p.0)));
    unique.dedup();
    assert_eq!(unique.len(), moves.len());
    e.play_san("Qd3").unwrap();
    // A splitting queen that gates a piece onto the square it left (Seirawan) does not crash.
    let mut e = game("seirawan", "queen-splits", "4k3/8/8/8/8/8/3p4/3QK3[H] w D - 0 1");
    e.play_uci("d1d2h").unwrap();
    assert!(e.fen().starts_with("4k3/8/8/8/8/8/3R4/3HK3"), "{}", e.fen());
}

/// A start that a preset decides as it switches on (dual-king crowns the queens; in Extinction
/// chess a side without queens has lost) has no legal moves, whether the game starts from the
/// variant's position or from its FEN (found by the save test: one had twenty moves).
#[test]
fn a_start_decided_by_a_preset_has_no_moves_either_way() {
    let mut v = variants::builtin("extinction").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "dual-king".into(), sides: [true, true], ..Default::default() });
    let mut fresh = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    let fen = fresh.fen();
    let mut loaded = chimera::presets::new_game(v, &fen).unwrap();
    for e in [&mut fresh, &mut loaded] {
        assert!(e.outcome().is_some());
        assert_eq!(e.legal_moves(), vec![]);
    }
}

/// Seirawan with shields on a wrapped board: a gating move whose capture a shield stops leaves
/// its piece where it stood, so the gated piece stays in hand (it was put on the occupied
/// square and the engine panicked; found by the save test, seed 6).
#[test]
fn a_gating_capture_stopped_by_a_shield_gates_nothing() {
    let mut v = variants::builtin("seirawan").unwrap();
    let shield = [("shield".to_string(), 6.0)].into();
    v.presets.push(chimera::rules::PresetRequest { id: "piece-shield".into(), params: shield, sides: [true, true], turns: None });
    v.presets.push(chimera::rules::PresetRequest { id: "wrap-board".into(), sides: [true, true], ..Default::default() });
    let mut e = chimera::presets::new_game(v, "startpos").unwrap();
    for m in ["b1c3h", "b7b5", "e2e3", "c8b7h"] {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    let moves = e.legal_moves();
    assert!(moves.iter().any(|m| m.gate.is_some()));
    for m in moves {
        e.apply(m).unwrap();
        e.undo().unwrap();
        assert_eq!(e.fen(), fen);
    }
}

/// Every kind of FEN problem has its stable code (and is an error): one bad FEN a code.
#[test]
fn fen_problems_carry_stable_codes() {
    use chimera::rules::FenCode;
    let chess = Variant::chess;
    let crazyhouse = || variants::builtin("crazyhouse").unwrap();
    let xiangqi = || variants::builtin("xiangqi").unwrap();
    let cases: Vec<(Variant, String, FenCode)> = vec![
        (chess(), "".into(), FenCode::Empty),
        (chess(), "4k3/8/8/8/8/8/4K3 w - - 0 1".into(), FenCode::RankCount),
        (chess(), "4k3/8/8/8/8/8/8/4K4 w - - 0 1".into(), FenCode::RankWidth),
        (chess(), "4k3/8/8/8/8/8/8/4K2Z w - - 0 1".into(), FenCode::PieceLetter),
        (chess(), "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1".into(), FenCode::Pocket),
        (crazyhouse(), format!("4k3/8/8/8/8/8/8/4K3[{}] w - - 0 1", "p".repeat(256)), FenCode::PieceCount),
        (chess(), "4k3/8/8/8/8/8/8/4K3 x - - 0 1".into(), FenCode::Turn),
        (chess(), "4k3/8/8/8/8/8/8/4K3 w Q - 0 1".into(), FenCode::Castling),
        (chess(), "4k3/8/8/8/8/8/8/4K3 w - e3 0 1".into(), FenCode::EnPassant),
        (chess(), "4k3/8/8/8/8/8/8/4K3 w - - x 1".into(), FenCode::Number),
        (chess(), "4k3/8/8/8/8/8/8/4K3 w - - 150 1".into(), FenCode::ClockRange),
        (variants::builtin("3check").unwrap(), "4k3/8/8/8/8/8/8/4K3 w - - 0+0 0 1".into(), FenCode::CheckCounters),
        (chess(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1 more".into(), FenCode::ExtraText),
        (chess(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1 {Hp=e1:2}".into(), FenCode::Trailing),
        (chess(), "4k2P/8/8/8/8/8/8/4K3 w - - 0 1".into(), FenCode::PromotionRank),
        (chess(), "4k3/8/8/8/8/8/8/4K2P w - - 0 1".into(), FenCode::Unreachable),
        (crazyhouse(), "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1".into(), FenCode::RoyalInHand),
        (chess(), "4k3/8/8/8/8/8/8/4K2K w - - 0 1".into(), FenCode::RoyalCount),
        (xiangqi(), "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into(), FenCode::GeneralsFace),
        (chess(), "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1".into(), FenCode::WaitingInCheck),
        (chess(), "4k3/8/8/3*4/8/8/8/4K3 w - - 0 1".into(), FenCode::Walls),
    ];
    let mut seen = std::collections::HashSet::new();
    for (v, fen, code) in cases {
        let e = fen_error(v, &fen);
        assert_eq!(e.code, code, "{fen}: {e}");
        assert_eq!(e.severity(), variants::Severity::Error);
        seen.insert(code);
    }
    assert_eq!(seen.len(), FenCode::ALL.len(), "a code without a case");
    let strings: std::collections::HashSet<&str> = FenCode::ALL.iter().map(|c| c.as_str()).collect();
    assert_eq!(strings.len(), FenCode::ALL.len(), "two codes share a string");
}

/// Crazyhouse's `~` (a promoted piece, which goes back to a pawn when taken) is read only on a
/// type a promotion can give: not on a pawn, not on a king, not where nothing promotes.
#[test]
fn the_promoted_mark_is_read_only_on_pieces_a_promotion_gives() {
    let crazyhouse = || variants::builtin("crazyhouse").unwrap();
    for fen in ["4k3/8/8/8/8/8/8/3QK~3[] w - - 0 1", "4k3/8/8/8/8/8/3P~4/4K3[] w - - 0 1"] {
        let e = fen_error(crazyhouse(), fen);
        assert_eq!(e.code, chimera::rules::FenCode::PieceLetter, "{fen}: {e}");
        assert!(e.to_string().contains("'~' marks a promoted piece"), "{e}");
    }
    let e = fen_error(variants::builtin("xiangqi").unwrap(), "4k4/9/9/9/9/9/9/9/4R~4/3K5 w - - 0 1");
    assert!(e.to_string().contains("'~' marks a promoted piece"), "{e}");
    // A queen, knight or rook may carry it, and it is written back.
    let fen = "4k3/8/8/8/8/8/8/N~2Q~K2R~[] w - - 0 1";
    let mut e = chimera::presets::new_game(crazyhouse(), fen).unwrap();
    assert_eq!(e.fen(), fen);
}

/// Seirawan with dual-king: once the king has left the back rank, the crowned queen there is
/// no castling king, so the rooks' gates read back as gates (they read as castling rights;
/// found by the soak, seed 18).
#[test]
fn gates_beside_a_crowned_king_stay_gates() {
    let mut v = variants::builtin("seirawan").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "dual-king".into(), sides: [true, true], ..Default::default() });
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    let moves = "g2g3 h7h6 g1h3e c7c6 g3g4 g8f6h c2c4 g8h7 h3g5 a7a5 f1g2 h6h5 g5f7 e8f7";
    for m in moves.split_whitespace() {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    assert!(fen.contains(" KQBCDabcdfh "), "{fen}");
    assert_eq!(chimera::presets::new_game(v.clone(), &fen).unwrap().fen(), fen);
    // The crowned queen moving (and gating behind it) leaves the king's castling rights alone
    // (they were lost; found by the soak, seed 18, game 133).
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    for m in ["b1a3", "c7c6", "b2b4", "d8c7h"] {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    assert!(fen.contains(" KQCDFGkqbcfg "), "{fen}");
    assert_eq!(chimera::presets::new_game(v.clone(), &fen).unwrap().fen(), fen);
    // The king steps aside on the back rank beside the crowned queen: the rooks' letters are
    // gates (seed 21, game 29).
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    for m in ["e2e4", "e7e5", "f1e2", "f8e7", "e1f1"] {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    assert!(fen.contains(" ABCDGHkqbcdg "), "{fen}");
    assert_eq!(chimera::presets::new_game(v, &fen).unwrap().fen(), fen);
    // The king gone, a crowned queen alone on the back rank: it never castles, so its gate
    // letter grants the rooks nothing and their letters stay gates (they read back as castling
    // rights; found by the soak, seed 16208871530623216926, in S-House with explosive-rook and
    // weak-dual-king). Without the crown, the king on d1 castles with both rooks, as
    // Fairy-Stockfish reads it.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBK1BNR[EHeh] w ABDHkqdg - 0 1";
    let crowned = format!("{fen} {{Crowned=d1:1}}");
    for id in ["seirawan", "shouse"] {
        let mut v = variants::builtin(id).unwrap();
        let plain = chimera::presets::new_game(v.clone(), fen).unwrap().fen();
        assert!(plain.contains(" w KQBkqdg "), "{id}: {plain}");
        v.presets.push(chimera::rules::PresetRequest { id: "weak-dual-king".into(), sides: [true, true], ..Default::default() });
        let mut e = chimera::presets::new_game(v, &crowned).unwrap();
        assert_eq!(e.fen(), crowned, "{id}");
    }
}

/// A rook blown up beside an exploding rook's capture takes its castling right with it (the
/// FEN kept `H` and did not read back; found by the soak, seed 21, in Nightrider chess).
#[test]
fn a_rook_lost_to_a_blast_loses_its_castling_right() {
    let mut v = variants::builtin("nightrider").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "explosive-rook".into(), sides: [false, true], ..Default::default() });
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    let moves = "e2e3 g8f6 c2c3 h8g8 b2b4 g8h8 e3e4 f6b4 b1a3 c7c5 f1e2 b7b5 a3e5 c8a6 c3b4 b8d4 e2f3 a8b8 d2d3 g7g5 \
                 c1g5 d4c6 g5h6 b8c8 h6f4 f7f6 g1a4 h8g8 e5c4 b5c4 a4e2 c4c3 e2d4 a6b7 d1b1 g8g2";
    for m in moves.split_whitespace() {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    assert!(fen.contains(" w Q - "), "{fen}");
    assert_eq!(chimera::presets::new_game(v, &fen).unwrap().fen(), fen);
}

/// Under presets a side may lose its king on its own move (Atomic with a double move: the
/// second move's blast took its own king); the final position loads (it was refused with
/// "black has no king"; found by the soak, seed 21).
#[test]
fn a_king_lost_on_its_own_double_move_leaves_a_position_that_loads() {
    let mut v = variants::builtin("atomic").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "monster-rules".into(), sides: [false, true], ..Default::default() });
    let fen = "8/4n3/8/7p/3K3P/4P3/8/8 w - - 0 48 {moves=1}";
    let mut e = chimera::presets::new_game(v.clone(), fen).unwrap();
    assert_eq!(e.fen(), fen);
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(chimera::rules::Side::White));
    // Without presets the side not to move must have its king.
    assert_eq!(
        fen_error(variants::builtin("atomic").unwrap(), "8/4n3/8/7p/3K3P/4P3/8/8 w - - 0 48").code,
        chimera::rules::FenCode::RoyalCount
    );
}

/// Found by the soak on a new seed (0x3beca01595bfa25f): with two kings (the dual-king preset)
/// under fixed gating (Musketeer), the FEN's castling rights did not read back, because the
/// castling king's home file was looked up in the start FEN without its gate rows taken off.
#[test]
fn two_kings_under_fixed_gating_keep_their_castling_rights_in_the_fen() {
    let mut v = chimera::variants::builtin("musketeer").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "dual-king".into(), sides: [true, true], turns: None, params: Default::default() });
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    e.play_uci("c2c4").unwrap();
    let fen = e.fen();
    let mut again = chimera::presets::new_game(v, &fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
    assert_eq!(again.fen(), fen);
}

/// Found by the soak on a new seed (16335630175316684766): an exploding rook's blast took a
/// Seirawan back-rank piece whose gate right stayed, and the FEN could not be read back (a gate
/// with no piece to gate behind). Gates now follow the board after a move, as castling does.
#[test]
fn a_gate_goes_with_the_piece_a_preset_removes() {
    let mut v = chimera::variants::builtin("seirawan").unwrap();
    for (id, sides) in [("berolina-pawns", [true, false]), ("explosive-rook", [true, true])] {
        v.presets.push(chimera::rules::PresetRequest { id: id.into(), sides, turns: None, params: Default::default() });
    }
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    let moves = "f2h4 h7h5 a2c4 f7f5 e1f2e g8f6 d2e3 h8g8 f2f3 f6e4 h2f4 b8a6h h1h3 e7e6 b1c3 g7g5 e1d3 g5h4 d3d5 e4c5 c3b1 f8e7e \
                 f4f5 c5a4 f3f4 b7b5 e3d4 g8g6 d1d3 g6g4 f4e5 f8f5 d3f5 c8b7 b2c3 e7b4 g2f3 b4f8 c1b2 a4c3 d5c3 d8e7 c3a3 g4g1";
    for m in moves.split_whitespace() {
        e.play_uci(m).unwrap_or_else(|err| panic!("{m}: {err}"));
        let fen = e.fen();
        let mut again = chimera::presets::new_game(v.clone(), &fen).unwrap_or_else(|err| panic!("after {m}: {fen}: {err}"));
        assert_eq!(again.fen(), fen);
    }
}

/// S-House with Knightmate's rules (and white's berserkers, as the soak had them): a king (a
/// common piece there, so it can be taken and dropped) dropped beside the castling king leaves
/// its castling rights alone, so the gates and rights read back as written (the rights were
/// lost, and the rook gates then read back as castling rights; found by the soak at seed
/// 0xfef6d1b9f8132d29).
#[test]
fn a_king_dropped_beside_the_castling_king_keeps_its_rights() {
    let mut v = variants::builtin("shouse").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "berserker".into(), sides: [true, false], ..Default::default() });
    v.presets.push(chimera::rules::PresetRequest { id: "knightmate-rules".into(), sides: [true, true], ..Default::default() });
    let mut e = chimera::presets::new_game(v.clone(), "startpos").unwrap();
    let moves = "E@f5 E@e6 H@d3 H@a6 g1h3 a6c4 f2f3 b8c6 f5d5 c6b8 d5b4 e6d6 b4b3 d6f5 b3b7 b7d8 f5f6 Q@d4 b8a6 b2b4 \
                 f6g4 P@b2 g4g5 h3g5 g8h6 e2e4 h6g8 d1e2 f7f5 e2d1 a6b8 d4f6 a7a6 d8e8 e8c7 c4b2 P@a3 g7f6 g5h3 c8b7q \
                 E@e6 b2e5 e6d6 P@c6 d6d4 e5d3 d4d3 d3d7 c8d7 H@a5 E@c8";
    for m in moves.split_whitespace() {
        e.play_uci(m).unwrap();
    }
    let before = e.fen();
    e.play_uci("K@b3").unwrap();
    let fen = e.fen();
    let rights = |fen: &str| fen.split(' ').nth(2).unwrap().to_string();
    assert_eq!(rights(&fen), rights(&before), "the drop keeps the rights: {before} → {fen}");
    assert_eq!(chimera::presets::new_game(v, &fen).unwrap().fen(), fen);
}
