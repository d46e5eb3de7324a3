//! The computer opponent: values from movement, tactics found through the engine's own rules,
//! extra turns searched without a sign flip, levels, stopping, and the UCI mode.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use chimera::ai::{Computer, Evaluator, Limits, MATE};
use chimera::presets::new_game;
use chimera::rules::{Engine, PresetRequest, Side, Variant};
use chimera::variants::builtin;

fn best(engine: &Engine, level: u8, depth: u32) -> (String, chimera::ai::SearchResult) {
    let mut c = Computer::new(engine, level);
    let stop = AtomicBool::new(false);
    let r = c.think(engine, Limits { depth: Some(depth), ..Limits::default() }, &stop, |_| {});
    (engine.to_uci(&r.best.expect("a move")), r)
}

const INVENTED: &str = r#"(
    id: "invented",
    name: "Invented",
    description: "Pieces made up for a test, with no value hints.",
    rules_summary: "Capture the king.",
    board: (files: 8, ranks: 8),
    pieces: [
        (letter: 'P', name: "pawn", betza: "fmWfceF", pawn: true, promotes: true),
        (letter: 'S', name: "stepper", betza: "fW"),
        (letter: 'W', name: "waffle", betza: "WD"),
        (letter: 'R', name: "runner", betza: "R"),
        (letter: 'C', name: "charger", betza: "RN"),
        (letter: 'K', name: "king", betza: "K", royal: true),
    ],
    start: "rwsckswr/pppppppp/8/8/8/8/PPPPPPPP/RWSCKSWR w - - 0 1",
    castling: Off,
    promotion: (rank: 8, choices: "CRWS"),
    end: [Checkmate, Stalemate(Draw), MoveRule(100), Repetition(3)],
)"#;

#[test]
fn piece_values_follow_mobility_for_invented_pieces_and_the_variant_plays_to_its_end() {
    let dir = std::env::temp_dir().join(format!("chimera-ai-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("invented.ron");
    std::fs::write(&path, INVENTED).unwrap();
    let variant = chimera::variants::find(path.to_str().unwrap()).unwrap();
    let eval = Evaluator::new(&variant);
    let reg = &variant.registry;
    let v = |name: &str| eval.value(reg.by_name(name).unwrap());
    assert!(v("stepper") < v("waffle"), "fW {} < WD {}", v("stepper"), v("waffle"));
    assert!(v("waffle") < v("runner"), "WD {} < R {}", v("waffle"), v("runner"));
    assert!(v("runner") < v("charger"), "R {} < RN {}", v("runner"), v("charger"));
    assert_eq!(v("king"), 0, "royal pieces carry no material value");
    // And the computer plays the variant to its end.
    let mut game = new_game(variant, "startpos").unwrap();
    let mut white = Computer::new(&game, 8);
    let mut black = Computer::new(&game, 8);
    let stop = AtomicBool::new(false);
    for _ in 0..600 {
        if game.outcome().is_some() {
            break;
        }
        let side = game.state().turn;
        let c = if side == Side::White { &mut white } else { &mut black };
        let r = c.think(&game, Limits { depth: Some(3), ..Limits::default() }, &stop, |_| {});
        game.apply(r.best.expect("a move while the game goes on")).unwrap();
    }
    let plies = game.move_log().0.len();
    assert!(game.outcome().is_some(), "the game ends (mate, stalemate or a draw rule) within 600 plies: {plies}");
}

#[test]
fn the_fide_pieces_come_out_near_their_classical_values() {
    let eval = Evaluator::new(&Variant::chess());
    let reg = &Variant::chess().registry;
    let v = |name: &str| eval.value(reg.by_name(name).unwrap());
    for (name, lo, hi) in [("pawn", 70, 140), ("knight", 250, 350), ("bishop", 260, 380), ("rook", 420, 600), ("queen", 800, 1050)] {
        assert!((lo..=hi).contains(&v(name)), "{name}: {}", v(name));
    }
}

#[test]
fn finds_mate_in_one_and_in_two() {
    // Back-rank mate in one.
    let e = Engine::from_fen(Variant::chess(), "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
    let (m, r) = best(&e, 8, 3);
    assert_eq!(m, "a1a8");
    assert_eq!(r.info.score, MATE - 1);
    // Mate in two: a queen sacrifice then a rook mate (1. Qxh7+ Kxh7 2. Rh3#)... a known
    // position: 1. Qf8+ Rxf8 2. Rxf8#.
    let e = Engine::from_fen(Variant::chess(), "5r1k/6pp/8/8/8/8/5Q2/5RK1 w - - 0 1").unwrap();
    let (_, r) = best(&e, 8, 5);
    assert!(r.info.score >= MATE - 5, "a forced mate is seen: {}", r.info.score);
}

#[test]
fn takes_a_hanging_piece_in_variants_with_their_own_rules() {
    // Xiangqi: the chariot takes the undefended chariot on its file.
    let e = Engine::from_fen(builtin("xiangqi").unwrap(), "4k4/9/9/9/4r4/9/9/9/4R4/3K5 w - - 0 1").unwrap();
    assert_eq!(best(&e, 8, 3).0, "e2e6");
    let e = Engine::from_fen(Variant::chess(), "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    assert_eq!(best(&e, 8, 3).0, "d2d5");
}

#[test]
fn a_king_walks_to_the_hill() {
    // King of the Hill: the white king reaches the centre in one move and wins.
    let e = new_game(builtin("kingofthehill").unwrap(), "4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap();
    let (m, r) = best(&e, 8, 2);
    assert!(["e3d4", "e3e4"].contains(&m.as_str()), "{m}");
    assert_eq!(r.info.score, MATE - 1);
}

#[test]
fn double_moves_are_searched_as_two_moves_of_the_same_side() {
    // With two moves a turn, Ra7 then Rb8 mates within white's turn: the search must keep the
    // score's sign across the first move, which leaves white to move.
    let mut v = Variant::chess();
    v.presets = vec![PresetRequest { id: "double-move".into(), sides: [true, true], ..Default::default() }];
    let e = new_game(v, "7k/8/8/8/8/8/8/RR2K3 w - - 0 1").unwrap();
    let (_, r) = best(&e, 8, 3);
    assert_eq!(r.info.score, MATE - 2, "mate on the second move of the turn");
    // Without the preset the same position is no mate in one turn.
    let e = Engine::from_fen(Variant::chess(), "7k/8/8/8/8/8/8/RR2K3 w - - 0 1").unwrap();
    let (_, r) = best(&e, 8, 2);
    assert!(r.info.score < MATE - 2, "{}", r.info.score);
}

#[test]
fn levels_pick_only_within_their_margin() {
    let e = Engine::from_fen(Variant::chess(), "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1").unwrap();
    for level in 1..=8 {
        let (_, r) = best(&e, level, 2);
        let margin = chimera::ai::level(level).margin;
        let top = r.root_scores[0].1;
        let chosen = r.root_scores.iter().find(|(m, _)| Some(*m) == r.best).unwrap().1;
        assert!(chosen >= top - margin, "level {level}: chose {chosen}, best {top}, margin {margin}");
    }
}

/// A weak level picks among its few best moves only, and in a quiet position (nothing to
/// capture, nothing attacked) within `QUIET_MARGIN` of the best: no …f6 or …h5 from the start.
#[test]
fn weak_levels_choose_among_their_best_few_and_keep_quiet_positions_calm() {
    let e = Engine::from_fen(Variant::chess(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    for level in 1..=4 {
        let spec = chimera::ai::level(level);
        assert!(spec.choices > 0 && spec.choices <= 4, "level {level}");
        for seed in 0..8u64 {
            let mut c = Computer::new(&e, level);
            c.seed = seed;
            let stop = AtomicBool::new(false);
            let r = c.think(&e, Limits { depth: Some(spec.depth), ..Limits::default() }, &stop, |_| {});
            let top = r.root_scores[0].1;
            let rank = r.root_scores.iter().position(|(m, _)| Some(*m) == r.best).unwrap();
            let chosen = r.root_scores[rank].1;
            assert!(rank < spec.choices, "level {level} seed {seed}: the move ranked {rank}");
            assert!(chosen >= top - chimera::ai::search::QUIET_MARGIN, "level {level} seed {seed}: {chosen} against {top}");
        }
    }
}

#[test]
fn a_stopped_search_still_returns_a_legal_move() {
    let e = Engine::from_fen(Variant::chess(), "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
    let mut c = Computer::new(&e, 8);
    let stop = AtomicBool::new(true);
    let r = c.think(&e, Limits { infinite: true, ..Limits::default() }, &stop, |_| {});
    let mut e2 = e.fork();
    assert!(e2.legal_moves().contains(&r.best.unwrap()));
}

fn uci(script: &str) -> String {
    let buffer: Arc<Mutex<Vec<u8>>> = Arc::new(Mutex::new(Vec::new()));
    struct Sink(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let out: chimera::uci::Output = Arc::new(Mutex::new(Sink(buffer.clone())));
    // A line `wait N` (not part of the protocol) holds the input back until N best moves have
    // been written, as a GUI waits for the engine's answer.
    let seen = buffer.clone();
    let lines = script.lines().map(String::from).collect::<Vec<_>>().into_iter().filter_map(move |line| {
        let Some(n) = line.strip_prefix("wait ") else { return Some(line) };
        let n: usize = n.parse().unwrap();
        while String::from_utf8_lossy(&seen.lock().unwrap()).matches("bestmove").count() < n {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        None
    });
    chimera::uci::run(lines, out);
    String::from_utf8(buffer.lock().unwrap().clone()).unwrap()
}

#[test]
fn uci_speaks_the_protocol_and_survives_bad_input() {
    let out = uci("uci\nisready\nsetoption name UCI_Variant value nosuchvariant\nposition fen garbage\ngo depth x\n\
         position startpos moves e2e5\nsetoption name Presets value piece-hp(hp=3,scope=white,turns=6),piece-shield\n\
         setoption name Presets value no-such-preset\nbogus\nsetoption name Presets value <empty>\n\
         setoption name UCI_Variant value crazyhouse\nposition startpos moves e2e4 d7d5 e4d5 d8d5\ngo depth 3\nisready\nwait 2\nquit\n");
    assert!(out.contains("uciok"), "{out}");
    assert!(out.contains("option name Skill Level type spin default 8 min 1 max 8"), "{out}");
    assert!(out.matches("readyok").count() == 2, "{out}");
    assert!(out.contains("info string unknown variant 'nosuchvariant'"), "{out}");
    assert!(out.contains("info string bad position 'garbage'"), "{out}");
    assert!(out.contains("info string go depth needs a number"), "{out}");
    assert!(out.contains("info string illegal move 'e2e5'"), "{out}");
    assert!(out.contains("no preset 'no-such-preset'"), "{out}");
    assert!(out.contains("info string unknown command 'bogus'"), "{out}");
    assert!(out.contains("info depth 3 "), "{out}");
    let bestmoves: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(bestmoves.len(), 2, "{out}");
    // The crazyhouse search answers with a legal move of that position.
    let mv = bestmoves[1].trim_start_matches("bestmove ").split_whitespace().next().unwrap();
    let mut game = new_game(builtin("crazyhouse").unwrap(), "startpos").unwrap();
    for m in ["e2e4", "d7d5", "e4d5", "d8d5"] {
        game.play_uci(m).unwrap();
    }
    assert!(game.parse_uci(mv).is_ok(), "{mv} is legal");
}

/// A line over the limit is skipped with a word and the engine goes on; CR-LF ends and invalid
/// UTF-8 are read.
#[test]
fn uci_skips_a_line_over_the_limit_and_goes_on() {
    let long = format!("position fen {}\n", "x".repeat(3 * chimera::uci::MAX_LINE));
    let mut input = long.into_bytes();
    input.extend_from_slice(b"isready\r\nbo\xffgus\nposition startpos moves e2e4\nd");
    let lines: Vec<chimera::uci::Input> = chimera::uci::lines(std::io::Cursor::new(input)).collect();
    assert_eq!(lines[0], chimera::uci::Input::TooLong(13 + 3 * chimera::uci::MAX_LINE));
    assert_eq!(lines[1..], ["isready", "bo\u{fffd}gus", "position startpos moves e2e4", "d"].map(chimera::uci::Input::from));
    let out = uci(&format!("{}\nisready\n", "y".repeat(chimera::uci::MAX_LINE)));
    assert!(out.contains("readyok"), "{out}");
    assert!(out.len() < 500, "a long line under the limit is not echoed whole: {}", &out[..out.len().min(500)]);
}

#[test]
fn uci_plays_presets_and_reports_mates() {
    let out = uci("setoption name Presets value piece-hp(hp=2)\nposition startpos\ngo nodes 3000\nwait 1\n\
         setoption name Presets value <empty>\nposition fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3\nwait 2\nquit\n");
    assert!(out.contains("score mate 1"), "{out}");
    assert!(out.lines().any(|l| l == "bestmove a1a8"), "{out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("bestmove ")).count(), 2, "{out}");
}

/// Past a rule's end of the game (a third repetition, bare kings) the moves given are played
/// and the search answers with a move, as Fairy-Stockfish does: over UCI the GUI adjudicates.
#[test]
fn uci_plays_on_past_a_rules_end() {
    let out = uci("position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8 e2e4\nd\ngo depth 2\nwait 1\n\
         position fen k7/8/8/8/8/8/8/7K w - - 0 1\ngo depth 2\nwait 2\nquit\n");
    assert!(!out.contains("ignored"), "{out}");
    assert!(out.contains("fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 5"), "{out}");
    let bestmoves: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(bestmoves.len(), 2, "{out}");
    assert!(bestmoves.iter().all(|b| *b != "bestmove (none)"), "{out}");
}

#[test]
fn uci_plays_with_a_modifier_profile() {
    // a3b4 is the rook's added diagonal step: legal only under the profile.
    let out = uci("uci\nsetoption name Profile value sturdy-rooks\nposition startpos moves a2a4 h7h5 a1a3 h8h6 a3b4\ngo depth 2\nwait 1\n\
         setoption name Profile value no-such-profile\nquit\n");
    assert!(out.contains("option name Profile type string"), "{out}");
    assert!(!out.contains("a3b4"), "the move was accepted: {out}");
    assert_eq!(out.lines().filter(|l| l.starts_with("bestmove ")).count(), 1, "{out}");
    assert!(out.contains("info string profile 'no-such-profile'"), "{out}");
    let plain = uci("position startpos moves a2a4 h7h5 a1a3 h8h6 a3b4\nquit\n");
    assert!(plain.contains("a3b4"), "without the profile the move is refused, naming it: {plain}");
}

#[test]
fn a_weak_level_picks_a_repeating_move_only_when_it_is_the_best() {
    let mut e = Engine::new(Variant::chess());
    for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        e.play_uci(m).unwrap();
    }
    // Black's f6g8 would repeat the start position.
    for seed in 0..12u64 {
        let mut c = Computer::new(&e, 1);
        c.seed = seed;
        let stop = AtomicBool::new(false);
        let r = c.think(&e, Limits { depth: Some(2), ..Limits::default() }, &stop, |_| {});
        let chosen = e.to_uci(&r.best.unwrap());
        let top = e.to_uci(&r.root_scores[0].0);
        assert!(chosen != "f6g8" || top == "f6g8", "seed {seed}: chose the repetition {chosen} though {top} is best");
    }
}

/// `MultiPV` reports that many lines a depth, best first, each from another move, with how full
/// the table is; `searchmoves` limits the moves searched (a word that is no move is reported).
#[test]
fn uci_reports_several_lines_and_searches_only_the_moves_named() {
    let out = uci("uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 4\nwait 1\n\
         setoption name MultiPV value 1\nposition startpos\ngo depth 3 searchmoves a2a3 h2h3\nwait 2\n\
         position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\ngo depth 3 searchmoves a1a2 bogus\nwait 3\n\
         setoption name MultiPV value 2\ngo depth 3\nwait 4\nquit\n");
    assert!(out.contains("option name MultiPV type spin default 1 min 1 max 16"), "{out}");
    let score = |l: &str| -> i32 {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "score").unwrap();
        let n: i32 = w[i + 2].parse().unwrap();
        if w[i + 1] == "mate" { if n > 0 { 100_000 - n } else { -100_000 - n } } else { n }
    };
    let field = |l: &str, name: &str| -> String {
        let w: Vec<&str> = l.split_whitespace().collect();
        w[w.iter().position(|x| *x == name).unwrap() + 1].to_string()
    };
    let section: Vec<&str> = out.split("bestmove").collect();
    // Three lines at depth 4, numbered, best first, each starting with another move.
    let depth4: Vec<&str> = section[0].lines().filter(|l| l.starts_with("info depth 4 ")).collect();
    assert_eq!(depth4.len(), 3, "{out}");
    assert_eq!(depth4.iter().map(|l| field(l, "multipv")).collect::<Vec<_>>(), ["1", "2", "3"]);
    let firsts: std::collections::HashSet<String> = depth4.iter().map(|l| field(l, "pv")).collect();
    assert_eq!(firsts.len(), 3, "{out}");
    assert!(score(depth4[0]) >= score(depth4[1]) && score(depth4[1]) >= score(depth4[2]), "{out}");
    assert!(out.lines().filter(|l| l.starts_with("info depth")).all(|l| field(l, "hashfull").parse::<u32>().unwrap() <= 1000), "{out}");
    let bestmoves: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove ")).collect();
    assert_eq!(bestmoves.len(), 4, "{out}");
    assert!(bestmoves[1] == "bestmove a2a3" || bestmoves[1] == "bestmove h2h3", "{out}");
    // The mate a1a8 is not among the moves named.
    assert_eq!(bestmoves[2], "bestmove a1a2", "{out}");
    assert!(out.contains("info string searchmoves 'bogus'"), "{out}");
    // Two lines: the mate first, then another move (the mate found, the search stops deepening).
    let depth1: Vec<&str> = section[3].lines().filter(|l| l.starts_with("info depth 1 ")).collect();
    assert_eq!(depth1.len(), 2, "{out}");
    assert!(depth1[0].contains("multipv 1 score mate 1") && depth1[0].contains("pv a1a8"), "{out}");
    assert!(depth1[1].contains("multipv 2 ") && !depth1[1].contains("pv a1a8"), "{out}");
    assert_eq!(bestmoves[3], "bestmove a1a8", "{out}");
}

/// A real UCI client analyses with Chimera: python-chess's engine module (`scripts/setup.sh`
/// installs it) calls `analyse(…, multipv=3)` on a chess and two crazyhouse positions (one with
/// pieces in hand) through `scripts/uci_client_analyse.py`, which replays every line on its own
/// board. Each position gets three lines at the depth asked, numbered 1–3, starting with three
/// different moves, each with a score, best first.
#[test]
fn a_uci_client_gets_three_distinct_scored_lines() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let python = crate::common::python();
    let positions = [
        "chess:r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "crazyhouse:rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR[] w KQkq - 2 3",
        "crazyhouse:r1b1kbnr/ppp2ppp/2n5/4p3/2B1P3/5N2/PPP2PPP/RNB1K2R[QPqp] b KQkq - 0 6",
    ];
    let output = std::process::Command::new(&python)
        .arg(root.join("scripts/uci_client_analyse.py"))
        .args(["--engine", &format!("{} uci", env!("CARGO_BIN_EXE_chimera")), "--multipv", "3", "--depth", "4"])
        .args(positions)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}); run `bash scripts/setup.sh` (or set CHIMERA_PYTHON)", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "python-chess's analysis failed:\n{stdout}\n{stderr}");
    let reports: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(reports.len(), positions.len(), "{stdout}");
    for report in &reports {
        let lines = report["lines"].as_array().expect("lines");
        assert_eq!(lines.len(), 3, "three lines: {report}");
        let numbers: Vec<u64> = lines.iter().map(|l| l["multipv"].as_u64().expect("multipv")).collect();
        assert_eq!(numbers, [1, 2, 3], "{report}");
        assert!(lines.iter().all(|l| l["depth"] == 4), "every line at the depth asked: {report}");
        let firsts: std::collections::HashSet<&str> = lines.iter().map(|l| l["pv"][0].as_str().expect("a move")).collect();
        assert_eq!(firsts.len(), 3, "three different first moves: {report}");
        let scores: Vec<i64> = lines
            .iter()
            .map(|l| {
                let s = l["score"].as_str().unwrap_or_else(|| panic!("a score: {report}"));
                let (kind, n) = s.split_once(' ').expect("kind and number");
                let n: i64 = n.parse().expect("a number");
                if kind == "mate" { if n > 0 { 100_000 - n } else { -100_000 - n } } else { n }
            })
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first: {report}");
    }
}
