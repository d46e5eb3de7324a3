//! The variant catalogue: every file loads and checks, round trips are lossless, perft
//! matches Fairy-Stockfish, and bad files get every problem reported with its place.

use chimera::cli::run_check;
use chimera::rules::{Engine, Outcome, Reason, Side, Variant, chess960_fen};
use chimera::variants::{self, LoadError, Problem, ProblemCode, Severity, compile, parse_variant_file, resolve, write_variant_file};

fn preset_files() -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/presets"))
        .expect("presets/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .map(|p| p.display().to_string())
        .collect();
    files.sort();
    files
}

#[test]
fn every_preset_file_is_built_in_and_checks() {
    let files = preset_files();
    let ids: Vec<String> = files.iter().map(|f| std::path::Path::new(f).file_stem().unwrap().to_string_lossy().into_owned()).collect();
    let mut builtin: Vec<String> = variants::builtin_ids().map(String::from).collect();
    builtin.sort();
    assert_eq!(ids, builtin, "presets/ and the built-in catalogue list the same variants");
    let mut out = Vec::new();
    assert!(run_check(&files, &mut out), "{}", String::from_utf8_lossy(&out));
    for id in variants::builtin_ids() {
        let v = variants::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        Engine::from_fen(v, "startpos").unwrap_or_else(|e| panic!("{id}: {e}"));
    }
}

#[test]
fn load_write_load_is_lossless() {
    for id in variants::builtin_ids() {
        let resolved = resolve(variants::builtin_file(id).unwrap(), &variants::builtin_file).unwrap();
        let text = write_variant_file(&resolved).unwrap();
        let again = resolve(parse_variant_file(&text).unwrap_or_else(|e| panic!("{id}: {e}\n{text}")), &variants::builtin_file).unwrap();
        assert_eq!(again, resolved, "{id}");
        compile(&again).unwrap();
    }
}

#[test]
fn chess_file_matches_the_built_in_rules() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let mut from_file = Engine::from_fen(variants::builtin("chess").unwrap(), fen).unwrap();
    let mut built_in = Engine::from_fen(Variant::chess(), fen).unwrap();
    assert_eq!(from_file.perft(3), built_in.perft(3));
    assert_eq!(from_file.fen(), built_in.fen());
}

/// Counts where Chimera still differs from the published ones (variant, FEN prefix, depth),
/// with the reason. Only that depth is left out of the suites below (the position's other
/// depths are checked), and `known_gaps_are_still_open` fails once one is fixed, so that the
/// entry gets removed.
const KNOWN_GAPS: &[(&str, &str, u32, u64, &str)] = &[
    ("atomic", "r3k1rR/5K2/8/8/8/8/8/8 b kq -", 3, 6753, "Chess960 castling next to the enemy king: a few castling lines differ"),
    ("atomic", "r3k1rR/5K2/8/8/8/8/8/8 b kq -", 4, 98729, "Chess960 castling next to the enemy king: a few castling lines differ"),
    ("atomic", "Rr2k1rR/3K4/3p4/8/8/8/7P/8 w kq -", 4, 241478, "Chess960 castling next to the enemy king: a few castling lines differ"),
];

fn known_gap(variant: &str, fen: &str, depth: u32) -> bool {
    KNOWN_GAPS.iter().any(|(v, f, d, ..)| *v == variant && fen.starts_with(f) && *d == depth)
}

#[test]
fn known_gaps_are_still_open() {
    for (variant, fen, depth, nodes, why) in KNOWN_GAPS {
        let mut e = Engine::from_fen(variants::builtin(variant).unwrap(), fen).unwrap();
        assert_ne!(e.perft(*depth), *nodes, "fixed: remove this entry from KNOWN_GAPS ({why})");
    }
}

/// How many counts each suite holds within its budget, less the known gaps (floors for the
/// tests below: an emptied or shortened data file fails).
const FS_PERFT_ROWS: usize = 109;
const PYFFISH_PERFT_ROWS: usize = 88;
const ROWS_ANTICHESS: usize = 23;
const ROWS_HORDE: usize = 12;
const ROWS_3CHECK: usize = 6;
const ROWS_RACINGKINGS: usize = 10;
const ROWS_CRAZYHOUSE: usize = 14;
const ROWS_ATOMIC: usize = 26;

/// Checks the rows of a perft table (variant, depth, nodes, position) up to a node budget;
/// returns how many were checked.
fn check_perft_rows(text: &str) -> usize {
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, depth, nodes, fen) = (cols[0], cols[1].parse().unwrap(), cols[2].parse::<u64>().unwrap(), cols[3]);
        if nodes > 1_000_000 || known_gap(id, fen, depth) {
            continue;
        }
        // With the variant's own presets and modifier profile, as a game has them.
        let mut e = chimera::presets::new_game(variants::builtin(id).unwrap(), fen).unwrap_or_else(|err| panic!("{id} {fen}: {err}"));
        assert_eq!(e.perft(depth), nodes, "{id} {fen} depth {depth}");
        checked += 1;
    }
    checked
}

/// Fairy-Stockfish's perft rows for the catalogue, up to a node budget.
#[test]
fn fairy_stockfish_perft() {
    let checked = check_perft_rows(include_str!("data/fairy-stockfish.tsv"));
    // A floor: a shortened data file fails here.
    assert!(checked >= FS_PERFT_ROWS, "{checked} rows checked; the suite had {FS_PERFT_ROWS}");
}

/// Start-position perft counted with pyffish (`scripts/pyffish_perft.py`) for the catalogue's
/// Fairy-Stockfish built-ins that Fairy-Stockfish's perft.sh has no row for.
#[test]
fn pyffish_perft() {
    let checked = check_perft_rows(include_str!("data/pyffish-perft.tsv"));
    assert!(checked >= PYFFISH_PERFT_ROWS, "{checked} rows checked; the table had {PYFFISH_PERFT_ROWS}");
}

/// Runs a `.perft` file (`id` / `epd` / `perft` lines, with an optional `# variant: <id>`
/// line before each case) for `default_variant`, up to `budget` nodes per count. Returns the
/// counts checked and the variants skipped because they are not in the catalogue yet.
fn run_perft_file(text: &str, default_variant: &str, budget: u64) -> (usize, Vec<String>) {
    let mut variant = default_variant.to_string();
    let mut fen = String::new();
    let mut checked = 0;
    let mut skipped = Vec::new();
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("# variant: ") {
            variant = v.trim().to_string();
        } else if let Some(epd) = line.strip_prefix("epd ") {
            fen = epd.to_string();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let (depth, nodes) = rest.split_once(' ').unwrap();
            let (depth, nodes): (u32, u64) = (depth.parse().unwrap(), nodes.trim().parse().unwrap());
            if nodes > budget || known_gap(&variant, &fen, depth) {
                continue;
            }
            let Ok(v) = variants::builtin(&variant) else {
                skipped.push(variant.clone());
                continue;
            };
            let mut e = Engine::from_fen(v, &fen).unwrap_or_else(|err| panic!("{variant} {fen}: {err}"));
            assert_eq!(e.perft(depth), nodes, "{variant} {fen} depth {depth}");
            checked += 1;
        }
    }
    skipped.dedup();
    (checked, skipped)
}

#[test]
fn lichess_variant_suites() {
    // Each suite with the number of its counts within the budget, less the known gaps: a
    // floor, so that a shortened or emptied file fails.
    let suites = [
        ("antichess", include_str!("data/antichess.perft"), ROWS_ANTICHESS),
        ("horde", include_str!("data/horde.perft"), ROWS_HORDE),
        ("3check", include_str!("data/3check.perft"), ROWS_3CHECK),
        ("racingkings", include_str!("data/racingkings.perft"), ROWS_RACINGKINGS),
        ("crazyhouse", include_str!("data/crazyhouse.perft"), ROWS_CRAZYHOUSE),
        ("atomic", include_str!("data/atomic.perft"), ROWS_ATOMIC),
    ];
    for (id, text, rows) in suites {
        let (checked, skipped) = run_perft_file(text, id, 2_100_000);
        assert!(skipped.is_empty(), "{id}: {skipped:?}");
        println!("{id}: {checked} counts");
        assert!(checked >= rows, "{id}: {checked} counts checked; the suite has {rows}");
    }
    // chessops' suite mixes variants, all of them in the catalogue now.
    let (checked, skipped) = run_perft_file(include_str!("data/chessops-variant.perft"), "chess", 2_000_000);
    assert!(skipped.is_empty(), "{skipped:?}");
    assert!(checked >= 40, "{checked}");
}

#[test]
fn three_check_counts_checks_in_fen() {
    let v = || variants::builtin("3check").unwrap();
    // Fairy-Stockfish's remaining-checks field and lichess's checks-given suffix are one position.
    let mut a = Engine::from_fen(v(), "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39").unwrap();
    let mut b = Engine::from_fen(v(), "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1 39 +2+0").unwrap();
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.fen(), "7r/1p4p1/pk3p2/RN6/8/P5Pp/3p1P1P/4R1K1 w - - 1+3 1 39");
    // The third check wins.
    let m = a.legal_moves().into_iter().find(|m| a.to_san(m).ends_with('+')).expect("a checking move");
    a.apply(m).unwrap();
    assert_eq!(a.outcome().map(|o| o.winner), Some(Some(Side::White)));
    assert!(a.legal_moves().is_empty());
    // A position already decided reads as such (white gave its third check, black is to
    // move); with white to move it could not have arisen and is refused.
    assert!(Engine::from_fen(v(), "4k3/8/8/8/8/8/8/4K3 w - - 0+3 0 1").is_err());
    let mut c = Engine::from_fen(v(), "4k3/8/8/8/8/8/8/4K3 b - - 0+3 0 1").unwrap();
    assert_eq!(c.outcome().and_then(|o| o.winner), Some(Side::White));
    assert!(c.legal_moves().is_empty());
}

#[test]
fn racing_kings_forbids_checks_and_lets_black_reply() {
    let v = || variants::builtin("racingkings").unwrap();
    // Rxb2 or Nxb... would check: every legal move leaves the black king unattacked.
    let mut e = Engine::from_fen(v(), "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1").unwrap();
    let moves = e.legal_moves();
    assert_eq!(moves.len(), 21);
    for m in moves {
        assert!(!e.to_san(&m).ends_with('+'), "{}", e.to_uci(&m));
    }
    // A rook that could check is not allowed to.
    let mut e = Engine::from_fen(v(), "k7/8/8/8/8/8/8/1R5K w - - 0 1").unwrap();
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert!(!moves.contains(&"b1a1".to_string()) && !moves.contains(&"b1b8".to_string()));
    assert!(moves.contains(&"b1b7".to_string()), "b7 attacks the king's neighbour, not the king");
    // No game reaches a check, so no set-up has one: neither side may stand in check.
    for fen in ["k7/8/8/8/8/8/8/r6K w - - 0 1", "k7/8/8/8/8/8/8/R6K b - - 0 1"] {
        let refused = Engine::from_fen(v(), fen).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains("check"), "{fen}: {refused}");
    }
    // White reaches the goal, black can too: a draw once it does.
    let mut e = Engine::from_fen(v(), "8/1K4k1/8/8/8/8/8/8 w - - 0 1").unwrap();
    e.play_uci("b7b8").unwrap();
    assert_eq!(e.outcome(), None, "black may still reply");
    e.play_uci("g7g8").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), Some(None));
    // If black cannot reach the goal, white wins at once.
    let mut e = Engine::from_fen(v(), "8/1K6/8/6k1/8/8/8/8 w - - 0 1").unwrap();
    e.play_uci("b7b8").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
}

#[test]
fn antichess_forces_captures_and_losing_everything_wins() {
    let v = || variants::builtin("antichess").unwrap();
    let mut e = Engine::from_fen(v(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert_eq!(moves, ["e4d5"]);
    let mut e = Engine::from_fen(v(), "8/8/8/3p4/4P3/8/8/8 w - - 0 1").unwrap();
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::Black), "black has no pieces left and wins");
}

#[test]
fn shakmatys_960_chess960_positions_at_depth_3() {
    // Counts from shakmaty's chess960.perft: 960 middle-game positions of Chess960 (not its
    // starts; the real starts are checked from `chess960-starts.tsv` in `tests/perft.rs`).
    let data = include_str!("data/chess960.perft");
    let mut n = 0u16;
    let mut fen = String::new();
    for line in data.lines() {
        if let Some(epd) = line.strip_prefix("epd ") {
            fen = epd.to_string();
        } else if let Some(rest) = line.strip_prefix("perft 3 ") {
            let mut e = Engine::from_fen(variants::builtin("chess960").unwrap(), &fen).unwrap();
            assert_eq!(e.perft(3), rest.trim().parse::<u64>().unwrap(), "{fen}");
            n += 1;
        }
    }
    assert_eq!(n, 960);
    // And the start generator gives legal, distinct starts.
    let mut e = Engine::from_fen(variants::builtin("chess960").unwrap(), &chess960_fen(518)).unwrap();
    assert_eq!(e.perft(2), 400);
    let v = variants::builtin("chess960").unwrap();
    assert_eq!(v.new_game_fen(|_| 518), Variant::chess().start_fen);
}

#[test]
fn king_of_the_hill_ends_on_the_hill() {
    let mut e = Engine::from_fen(variants::builtin("kingofthehill").unwrap(), "4k3/8/8/8/8/4K3/8/8 w - - 0 1").unwrap();
    assert_eq!(e.outcome(), None, "bare kings are no draw on the hill");
    e.play_uci("e3e4").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::win(Side::White, Reason::Rule("reached the goal".into()))));
    assert!(e.legal_moves().is_empty(), "no moves after the game is decided");
    e.undo();
    assert_eq!(e.outcome(), None);
}

#[test]
fn shatranj_stalemate_and_bare_king_lose() {
    let v = || variants::builtin("shatranj").unwrap();
    let mut e = Engine::from_fen(v(), "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    // The ferz on f7 covers g8, the king on g6 covers g7 and h7: black is stalemated, and loses.
    assert!(e.legal_moves().is_empty() && !e.is_check());
    assert_eq!(e.outcome(), Some(Outcome::win(Side::White, Reason::Stalemate)));
    let mut e = Engine::from_fen(v(), "7k/8/8/8/8/8/6q1/R5K1 w - - 0 1").unwrap();
    e.play_uci("g1g2").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::win(Side::White, Reason::Rule("bare king".into()))));
}

fn problems(text: &str) -> Vec<String> {
    let file = match parse_variant_file(text) {
        Ok(f) => f,
        Err(e) => return vec![e.to_string()],
    };
    match resolve(file, &variants::builtin_file).and_then(|f| compile(&f)) {
        Ok(_) => Vec::new(),
        Err(LoadError::Invalid(ps)) => ps.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    }
}

/// The problems of a file that parses, as compiled.
fn problem_list(text: &str) -> Vec<Problem> {
    let file = parse_variant_file(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    match resolve(file, &variants::builtin_file).and_then(|f| compile(&f)) {
        Ok(_) => Vec::new(),
        Err(LoadError::Invalid(ps)) => ps,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn problems_carry_a_code_and_the_key_path() {
    let chess = |keys: &str| format!(r#"(id: "bad", extends: "chess", name: "Bad", {keys})"#);
    let two_kings = r#"(
        id: "bad",
        name: "Bad",
        board: (files: 8, ranks: 8),
        pieces: [(letter: 'K', name: "king", betza: "K", royal: true), (letter: 'K', name: "kaiser", betza: "KN")],
        start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    )"#;
    let cases = [
        (chess("board: (files: 2, ranks: 8)"), ProblemCode::BoardSize, "board"),
        (two_kings.to_string(), ProblemCode::PieceLetterDuplicate, "pieces[K].letter"),
        (chess(r#"pieces: [(letter: 'X', name: "xiphos", betza: "fQx")]"#), ProblemCode::Betza, "pieces[X].betza"),
        (chess(r#"start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1""#), ProblemCode::StartFen, "start"),
        (chess(r#"presets: [(id: "no-such-preset")]"#), ProblemCode::UnknownPreset, "presets[0].id"),
        (chess(r#"presets: [(id: "double-move"), (id: "monster-rules")]"#), ProblemCode::PresetConflict, "presets"),
        (chess(r#"promotion: (rank: 8, choices: "QS")"#), ProblemCode::UnknownLetter, "promotion.choices"),
        (chess(r#"castling: On(king: ('g', 'c'), rook: ('f', 'd'), rank: 9)"#), ProblemCode::RankOffBoard, "castling.rank"),
        (chess(r#"end: [Checkmate, RegionReached(pieces: "K", region: "near")]"#), ProblemCode::UnknownRegion, "regions.near"),
        (r#"(id: "bad", extends: "nonesuch")"#.to_string(), ProblemCode::UnknownParent, "extends"),
    ];
    for (text, code, path) in cases {
        let p = problem_list(&text);
        assert!(p.iter().any(|x| x.code == code && x.path == path), "no {code} at {path} in {p:#?}");
        assert!(p.iter().all(|x| x.severity == Severity::Error), "{p:#?}");
    }
    let Err(LoadError::Invalid(p)) = variants::builtin("nonesuch") else { panic!("an unknown id loads") };
    assert_eq!((p[0].code, p[0].path.as_str(), p[0].severity), (ProblemCode::UnknownVariant, "id", Severity::Error));
}

#[test]
fn problem_codes_are_unique_and_say_their_severity() {
    let mut seen = std::collections::HashSet::new();
    for code in ProblemCode::ALL {
        let s = code.as_str();
        assert!(seen.insert(s), "{s} is used twice");
        assert!(s.starts_with("E_") || s.starts_with("W_"), "{s}");
        assert!(s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'), "{s}");
        // The profile ADR names its one warning with an E_ code.
        let warning = s.starts_with("W_") || *code == ProblemCode::ProfileOrphan;
        assert_eq!(code.severity(), if warning { Severity::Warning } else { Severity::Error }, "{s}");
    }
}

#[test]
fn every_problem_code_is_documented() {
    let readme = include_str!("../presets/README.md");
    for code in ProblemCode::ALL {
        assert!(readme.contains(&format!("| `{code}` |")), "presets/README.md does not list {code}");
    }
}

#[test]
fn syntax_errors_give_line_and_column() {
    let p = problems("(\n    id: \"x\",\n    name: \"X\"\n    board: (files: 8, ranks: 8),\n)");
    assert_eq!(p.len(), 1);
    assert!(p[0].starts_with("line 4, column"), "{p:?}");
    let p = problems("(id: \"x\", colour: \"blue\")");
    assert!(p[0].contains("colour"), "unknown keys are rejected: {p:?}");
}

#[test]
fn every_semantic_problem_is_reported_with_its_key_path() {
    let text = r#"(
        id: "broken",
        extends: "chess",
        board: (files: 8, ranks: 8),
        pieces: [
            (letter: 'X', name: "xiphos", betza: "fQx"),
            (letter: 'Y', name: "yak", betza: "W", initial_ranks: [9]),
        ],
        start: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1",
        promotion: (rank: 8, choices: "QRBNS"),
        regions: { "far": Rect("a1", "k9") },
        end: [Checkmate, RegionReached(pieces: "KW", region: "near")],
        presets: [(id: "no-such-preset")],
    )"#;
    let p = problems(text);
    let expect = [
        "pieces[X].betza: 'fQx' at character 3",
        "pieces[Y].initial_ranks: rank 9",
        "regions.far: Rect",
        "end[1].pieces: 'W'",
        "regions.near: no region named 'near'",
        "presets[0].id: no preset 'no-such-preset'",
    ];
    for e in expect {
        assert!(p.iter().any(|x| x.starts_with(e)), "missing '{e}' in {p:#?}");
    }
    assert!(p.iter().any(|x| x.starts_with("promotion.choices: 'S'")), "{p:#?}");
    // With the Betza fixed, the FEN is checked too.
    let p = problems(&text.replace("fQx", "fQ"));
    assert!(p.iter().any(|x| x.starts_with("start: bad FEN") && x.contains("'Z'")), "{p:#?}");
}

#[test]
fn a_variant_needs_a_way_to_win() {
    let text = r#"(id: "nowin", extends: "chess", pieces: [(letter: 'K', name: "king", betza: "K")])"#;
    let p = problems(text);
    assert!(p.iter().any(|x| x.starts_with("end: no piece type is royal")), "{p:#?}");
}

#[test]
fn files_must_be_named_after_their_id() {
    let dir = std::env::temp_dir().join(format!("chimera-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.ron");
    std::fs::write(&path, r#"(id: "other", extends: "chess", name: "Mine")"#).unwrap();
    let err = variants::load_path(&path).unwrap_err().to_string();
    assert!(err.contains("id: 'other' differs from the file name 'mine'"), "{err}");
    // A sibling file can be extended.
    std::fs::write(dir.join("base.ron"), r#"(id: "base", extends: "chess", name: "Base", start: "4k3/8/8/8/8/8/8/4K3 w - - 0 1")"#)
        .unwrap();
    std::fs::write(&path, r#"(id: "mine", extends: "base", name: "Mine")"#).unwrap();
    let v = variants::load_path(&path).unwrap();
    assert_eq!(v.start_fen, "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_lists_every_problem_with_its_code() {
    let dir = std::env::temp_dir().join(format!("chimera-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.ron");
    std::fs::write(&path, r#"(id: "mine", extends: "chess", name: "Mine", board: (files: 2, ranks: 8), profile: "arcade")"#).unwrap();
    let mut out = Vec::new();
    assert!(!run_check(&[path.display().to_string()], &mut out));
    let f = path.display();
    let expected = format!(
        "{f}: board: 2×8 is outside 3×3 to 16×16 [E_BOARD_SIZE]\n{f}: profile: no modifier profile 'arcade'; there are long-stride, sturdy-rooks [E_UNKNOWN_PROFILE]\n"
    );
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn crazyhouse_drops_and_demotion_round_trip() {
    let v = || variants::builtin("crazyhouse").unwrap();
    let fen = "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1";
    let mut e = Engine::from_fen(v(), fen).unwrap();
    assert_eq!(e.fen(), fen);
    // Taking the promoted queen puts a pawn in black's hand, which can be dropped.
    e.play_uci("e4b7").unwrap();
    assert_eq!(e.fen(), "4k3/1b6/8/8/8/8/Kpp5/8[p] w - - 0 2");
    e.play_uci("a2a3").unwrap();
    let m = e.parse_uci("P@e4").unwrap();
    assert_eq!(e.to_san(&m), "P@e4");
    assert_eq!(e.parse_san("@e4").unwrap(), m);
    e.apply(m).unwrap();
    assert!(e.fen().starts_with("4k3/1b6/8/8/4p3/K7/1pp5/8[] w"), "{}", e.fen());
    assert!(matches!(e.parse_uci("P@e1"), Err(chimera::rules::MoveError::Illegal { .. })));
    e.undo();
    e.undo();
    e.undo();
    assert_eq!(e.fen(), fen);
}

#[test]
fn atomic_captures_explode() {
    let v = || variants::builtin("atomic").unwrap();
    // Nxd7 blows up the knight, the bishop it takes, and the queen and king beside it; the
    // pawns around survive. Blowing up the king wins at once.
    let mut e = Engine::from_fen(v(), "rn1qkbnr/pppbpppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 1").unwrap();
    e.play_uci("f3e5").unwrap();
    e.play_uci("a7a6").unwrap();
    e.play_uci("e5d7").unwrap();
    assert_eq!(e.fen(), "rn3bnr/1pp1pppp/p7/8/8/8/PPPPPPPP/RNBQKB1R b KQ - 0 2");
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
    // Kings cannot capture, and a capture next to one's own king is illegal.
    let mut e = Engine::from_fen(v(), "4k3/8/8/8/8/8/3pP3/4K3 w - - 0 1").unwrap();
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert!(!moves.contains(&"e1d2".to_string()), "{moves:?}");
}

#[test]
fn grand_promotes_only_to_lost_pieces() {
    let v = || variants::builtin("grand").unwrap();
    let from = |e: &mut Engine, sq: &str| -> Vec<String> {
        let mut m: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with(sq)).collect();
        m.sort();
        m
    };
    // Nothing lost: all six promotions on the tenth rank.
    let mut e = Engine::from_fen(v(), "k9/4P5/10/10/10/10/10/10/10/K9 w - - 0 1").unwrap();
    assert_eq!(from(&mut e, "e9"), ["e9e10a", "e9e10b", "e9e10c", "e9e10n", "e9e10q", "e9e10r"]);
    // Everything still on the board: no promotion is open, so the pawn cannot reach rank 10,
    // while on rank 8 it may still step without promoting.
    let full = "7k2/4P5/10/4P5/10/10/10/10/1NBQKCABN1/R8R w - - 0 1";
    let mut e = Engine::from_fen(v(), full).unwrap();
    assert!(from(&mut e, "e9").is_empty());
    assert_eq!(from(&mut e, "e7"), ["e7e8"]);
    // With the queen gone, the rank-8 step may also promote to a queen.
    let mut e = Engine::from_fen(v(), &full.replace("1NBQKCABN1", "1NB1KCABN1")).unwrap();
    assert_eq!(from(&mut e, "e7"), ["e7e8", "e7e8q"]);
}

#[test]
fn seirawan_gates_hawk_and_elephant() {
    let v = || variants::builtin("seirawan").unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";
    let mut e = Engine::from_fen(v(), start).unwrap();
    // Pockets are written from the last piece type to the first.
    assert_eq!(e.fen(), start.replace("[HEhe]", "[EHeh]"));
    e.play_uci("e2e4").unwrap();
    e.play_uci("e7e5").unwrap();
    let m = e.parse_uci("g1f3h").unwrap();
    assert_eq!(e.to_san(&m), "Nf3/H");
    e.apply(m).unwrap();
    assert_eq!(e.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKBHR[Eeh] b KQBCDFkqbcdfg - 1 2");
    // The g-file gate is used up; moving the hawk later gates nothing.
    e.undo();
    e.play_uci("g1f3").unwrap();
    assert!(e.fen().contains(" b KQBCDFkqbcdfg "), "{}", e.fen());
    assert!(matches!(
        e.parse_uci("f3g1h"),
        Err(chimera::rules::MoveError::Illegal { .. }) | Err(chimera::rules::MoveError::Unparsable { .. })
    ));
}

#[test]
fn variant_files_switch_presets_on() {
    let text = r#"(
        id: "tough",
        extends: "chess",
        name: "Tough chess",
        presets: [(id: "piece-hp", params: {"hp": 3}), (id: "capture-to-win", scope: White)],
    )"#;
    let v = compile(&resolve(parse_variant_file(text).unwrap(), &variants::builtin_file).unwrap()).unwrap();
    assert_eq!(v.presets.len(), 2);
    let e = chimera::presets::new_game(v, "startpos").unwrap();
    let e2 = e.variant().geometry.parse_square("e2").unwrap();
    let pawn = e.world().resource::<chimera::rules::Board>().entity(e2).unwrap();
    assert_eq!(e.world().get::<chimera::presets::Hp>(pawn), Some(&chimera::presets::Hp(3)));
    let active: Vec<&str> = e.world().resource::<chimera::presets::ActivePresets>().0.iter().map(|a| a.id).collect();
    assert_eq!(active, ["piece-hp", "capture-to-win"]);
    // A set that cannot be active together is a problem of the file.
    let bad = text.replace(r#"(id: "capture-to-win", scope: White)"#, r#"(id: "double-move"), (id: "monster-rules")"#);
    let p = problems(&bad);
    assert!(p.iter().any(|x| x == "presets: 'double-move' and 'monster-rules' cannot be active together"), "{p:#?}");
}

#[test]
fn orda_and_ordamirror_start_positions_counted_by_hand() {
    // No published perft rows exist for these two; the first plies are counted by hand.
    // Orda, black's replies to any white first move: lancers 1 + 1 (c7, f7), kheshigs 4 + 4,
    // archers 2 + 2, the yurt 3 (c7, d7, e7), the khan 3, pawns 8 (no double steps from the
    // sixth rank) = 28; white has chess's 20.
    let mut orda = Engine::from_fen(variants::builtin("orda").unwrap(), "startpos").unwrap();
    assert_eq!(orda.perft(1), 20);
    assert_eq!(orda.perft(2), 20 * 28);
    // Orda Mirror, white: lancers 1 + 1, kheshigs 4 + 4, archers 2 + 2, the falcon 3, the king 3,
    // pawns 8 = 28.
    let mut mirror = Engine::from_fen(variants::builtin("ordamirror").unwrap(), "startpos").unwrap();
    assert_eq!(mirror.perft(1), 28);
    // A bare khan can still win by reaching the far rank: no insufficient-material draw
    // (Fairy-Stockfish's insufficient_material row for orda says the same).
    let mut bare = Engine::from_fen(variants::builtin("orda").unwrap(), "k7/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
    assert_eq!(bare.outcome(), None);
    // Campmate: a king on the far rank wins at once.
    let mut camp = Engine::from_fen(variants::builtin("orda").unwrap(), "8/1K6/8/7k/8/8/8/8 w - - 0 1").unwrap();
    camp.play_uci("b7b8").unwrap();
    assert_eq!(camp.outcome().and_then(|o| o.winner), Some(chimera::rules::Side::White));
}

/// A shuffled start dealt with a seeded xorshift as the random source.
fn deal(v: &Variant, seed: u64) -> String {
    let mut x = seed.max(1);
    v.new_game_fen(|n| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % u64::from(n.max(1))) as u16
    })
}

/// Checks a dealt start of `v` against its fixed start: white's first rank holds the same men,
/// each pair of `bound` letters on both colours, the king between the rooks; black's last rank
/// mirrors it; every other rank and field is the start's. Returns white's first rank.
fn check_dealt(v: &Variant, fen: &str, bound: &[char]) -> String {
    let split = |f: &str| -> (Vec<String>, String) {
        let (placement, rest) = f.split_once(' ').unwrap();
        (placement.split('/').map(str::to_string).collect(), rest.to_string())
    };
    let (start_rows, start_rest) = split(&v.start_fen);
    let (rows, rest) = split(fen);
    assert_eq!(rest, start_rest, "{fen}");
    let last = rows.len() - 1;
    assert_eq!(rows[1..last], start_rows[1..last], "only the back ranks move: {fen}");
    assert_eq!(rows[0], rows[last].to_ascii_lowercase(), "black mirrors white: {fen}");
    let expand = |row: &str| -> Vec<char> {
        let mut out = Vec::new();
        let mut n = 0;
        for c in row.chars() {
            match c.to_digit(10) {
                Some(d) => n = n * 10 + d as usize,
                None => {
                    out.extend(std::iter::repeat_n(' ', n));
                    n = 0;
                    out.push(c);
                }
            }
        }
        out.extend(std::iter::repeat_n(' ', n));
        out
    };
    let (rank, start) = (expand(&rows[last]), expand(&start_rows[last]));
    assert_eq!(rank.len(), v.geometry.files as usize, "{fen}");
    let (mut a, mut b) = (rank.clone(), start.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b, "the same men: {fen}");
    let files = |c: char| (0..rank.len()).filter(|&f| rank[f] == c).collect::<Vec<_>>();
    for &c in bound {
        let f = files(c);
        assert!(f.len() == 2 && f[0] % 2 != f[1] % 2, "{c} on both colours: {fen}");
    }
    let (k, r) = (files('K'), files('R'));
    assert!(r[0] < k[0] && k[0] < r[1], "the king between the rooks: {fen}");
    Engine::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    rank.iter().collect()
}

/// Capablanca Random Chess shuffles all ten files (Chess960's shuffle used to deal an
/// eight-file rank onto any board): bishops on both colours, the king between the rooks, the
/// other pieces anywhere, black mirroring white.
#[test]
fn caparandom_deals_ten_file_starts() {
    let v = variants::builtin("caparandom").unwrap();
    let mut seen = std::collections::BTreeSet::new();
    let mut queen_files = std::collections::BTreeSet::new();
    for seed in 1..=400 {
        let fen = deal(&v, seed);
        let rank = check_dealt(&v, &fen, &['B']);
        queen_files.insert(rank.find('Q').unwrap());
        seen.insert(rank);
    }
    assert!(seen.len() > 350, "{} distinct starts in 400", seen.len());
    assert_eq!(queen_files.len(), 10, "the queen stands on every file in some start");
    // Chess960 keeps Scharnagl's numbering.
    assert_eq!(variants::builtin("chess960").unwrap().new_game_fen(|_| 518), Variant::chess().start_fen);
}

/// Starts that Chimera deals for Capablanca Random Chess, with Fairy-Stockfish's verdict and
/// perft: pyffish's `validate_fen` accepts each (see the data file's header), and its counts
/// agree with Chimera's.
#[test]
fn caparandom_starts_agree_with_fairy_stockfish() {
    let v = variants::builtin("caparandom").unwrap();
    let mut n = 0;
    for line in include_str!("data/caparandom-starts.tsv").lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (seed, fen): (u64, &str) = (cols[0].parse().unwrap(), cols[1]);
        assert_eq!(deal(&v, seed), fen, "seed {seed}");
        let mut e = Engine::from_fen(v.clone(), fen).unwrap();
        for (depth, col) in [(1, 2), (2, 3), (3, 4)] {
            assert_eq!(e.perft(depth), cols[col].parse::<u64>().unwrap(), "seed {seed} ({fen}) depth {depth}");
        }
        n += 1;
    }
    assert_eq!(n, 24, "every row is checked");
}

/// Any variant's first rank shuffles as Chess960's: Almost Chess (a chancellor for the queen)
/// with the shuffle switched on, and a board of other width (Gardner's five files, no castling).
#[test]
fn chess960_shuffle_deals_any_first_rank() {
    let mut almost = variants::builtin("almost").unwrap();
    almost.shuffle = Some(chimera::rules::Shuffle::Chess960);
    let starts: std::collections::BTreeSet<String> = (1..=60).map(|s| check_dealt(&almost, &deal(&almost, s), &['B'])).collect();
    assert!(starts.len() > 30, "{starts:?}");
    let mut centaur = variants::builtin("centaur").unwrap();
    centaur.shuffle = Some(chimera::rules::Shuffle::Chess960);
    for seed in 1..=60 {
        check_dealt(&centaur, &deal(&centaur, seed), &['B']);
    }
    // Without castling the king goes anywhere; black still mirrors white.
    let mut gardner = variants::builtin("gardner").unwrap();
    gardner.shuffle = Some(chimera::rules::Shuffle::Chess960);
    let starts: std::collections::BTreeSet<String> = (1..=60)
        .map(|s| {
            let fen = deal(&gardner, s);
            let rows: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
            assert_eq!(rows[0], rows[4].to_ascii_lowercase(), "{fen}");
            Engine::from_fen(gardner.clone(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            rows[4].to_string()
        })
        .collect();
    assert!(starts.len() > 20, "{starts:?}");
}

/// Loop and Chessgi: a promoted piece taken joins the captor's hand as what it became (the FENs
/// are pyffish 0.0.90's), where Crazyhouse gives back a pawn.
#[test]
fn promoted_pieces_taken_stay_promoted_in_loop() {
    for (id, after) in [
        ("loop", "1q2k3/8/8/8/8/8/8/4K3[q] w - - 0 2"),
        ("chessgi", "1q2k3/8/8/8/8/8/8/4K3[q] w - - 0 2"),
        ("crazyhouse", "1q2k3/8/8/8/8/8/8/4K3[p] w - - 0 2"),
    ] {
        let mut e = Engine::from_fen(variants::builtin(id).unwrap(), "2q1k3/1P6/8/8/8/8/8/4K3[] w - - 0 1").unwrap();
        e.play_uci("b7b8q").unwrap();
        e.play_uci("c8b8").unwrap();
        assert_eq!(e.fen(), after, "{id}");
    }
}

/// Suicide chess: a side that cannot move wins with fewer pieces on the board than the other,
/// and draws with as many (the positions scored so by pyffish 0.0.90).
#[test]
fn suicide_scores_a_stalemate_by_the_pieces_left() {
    let outcome = |fen: &str| Engine::from_fen(variants::builtin("suicide").unwrap(), fen).unwrap().outcome();
    let (white, black) = (Some(Side::White), Some(Side::Black));
    assert_eq!(outcome("8/8/8/8/p7/P7/8/7k w - - 0 1").map(|o| o.winner), Some(white));
    assert_eq!(outcome("8/8/8/8/p7/P7/8/7K b - - 0 1").map(|o| o.winner), Some(black));
    assert_eq!(outcome("8/8/8/8/p7/P7/7K/7k w - - 0 1"), None, "white can move");
    let drawn = outcome("8/8/8/8/8/p7/P7/8 w - - 0 1").expect("stalemate");
    assert_eq!(drawn.winner, None);
}

/// Armageddon: every result that would be a draw goes to Black (stalemate of either side,
/// the fifty-move rule), as pyffish 0.0.90 scores them.
#[test]
fn armageddon_gives_black_the_draws() {
    let outcome = |fen: &str| Engine::from_fen(variants::builtin("armageddon").unwrap(), fen).unwrap().outcome();
    let black = Some(Side::Black);
    // White stalemated, then black stalemated: black wins both.
    assert_eq!(outcome("k7/8/8/8/8/8/2q5/K7 w - - 0 1").map(|o| o.winner), Some(black));
    assert_eq!(outcome("k7/8/1Q6/8/8/8/8/K7 b - - 0 1").map(|o| o.winner), Some(black));
    // A hundred half-moves without a capture or a pawn move.
    assert_eq!(outcome("k7/8/2Q5/8/8/8/8/K7 b - - 100 80").map(|o| o.winner), Some(black));
    // Checkmate is still checkmate.
    assert_eq!(outcome("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1").map(|o| o.winner), Some(Some(Side::White)));
}

/// Atomar: a king survives the explosion of its own capture and any other, and no king takes
/// the other (as pyffish 0.0.90 plays it).
#[test]
fn atomar_kings_survive_blasts_and_never_take_each_other() {
    let mut e = Engine::from_fen(variants::builtin("atomar").unwrap(), "8/8/8/3k4/3Kn3/8/8/8 w - - 0 1").unwrap();
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert!(!moves.contains(&"d4d5".to_string()), "the king may not take the king: {moves:?}");
    e.play_uci("d4e4").unwrap();
    // The knight is gone, the king stands on e4, and the black king next to it is unharmed.
    assert_eq!(e.fen(), "8/8/8/3k4/4K3/8/8/8 b - - 0 1");
    assert_eq!(e.outcome(), None);
}

/// Chigorin and Sort-of-almost: each side's pawns promote to its own army's pieces
/// (`promotion.black_choices`), as pyffish 0.0.90 offers them.
#[test]
fn unequal_armies_promote_to_their_own_pieces() {
    let offered = |id: &str, fen: &str, from: &str| -> String {
        let mut e = Engine::from_fen(variants::builtin(id).unwrap(), fen).unwrap();
        let moves = e.legal_moves();
        let mut letters: Vec<char> =
            moves.iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with(from) && u.len() == 5).map(|u| u.chars().last().unwrap()).collect();
        letters.sort_unstable();
        letters.into_iter().collect()
    };
    let (white, black) = ("8/1k5P/8/8/8/3K4/p7/8 w - - 0 1", "8/1k5P/8/8/8/3K4/p7/8 b - - 0 1");
    assert_eq!(offered("chigorin", white, "h7h8"), "cnr");
    assert_eq!(offered("chigorin", black, "a2a1"), "bqr");
    assert_eq!(offered("sortofalmost", white, "h7h8"), "bcnr");
    assert_eq!(offered("sortofalmost", black, "a2a1"), "bnqr");
}

/// Sho shogi: while a side has a king and a prince neither is royal; the last one is (as
/// pyffish 0.0.90 plays it).
#[test]
fn sho_shogi_royalty_is_the_last_king_or_prince() {
    let moves = |fen: &str| sorted_moves("shoshogi", fen);
    // King and prince: the king may stay on the rook's file, and the prince may move.
    let both = moves("4k4/4r4/9/9/+E8/9/9/9/4K4 w - - 0 1");
    assert_eq!(both, ["a5a4", "a5a6", "a5b4", "a5b5", "a5b6", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]);
    // The king alone is royal: it must leave the file.
    assert_eq!(moves("4k4/4r4/9/9/9/9/9/9/4K4 w - - 0 1"), ["e1d1", "e1d2", "e1f1", "e1f2"]);
    // Taking the king leaves the prince, now royal; the game goes on.
    let mut e = Engine::from_fen(variants::builtin("shoshogi").unwrap(), "4k4/4r4/9/9/+E8/9/9/9/4K4 b - - 0 1").unwrap();
    e.play_uci("e8e1").unwrap();
    assert_eq!(e.fen(), "4k4/9/9/9/+E8/9/9/9/4r4 w - - 0 2");
    assert_eq!(e.outcome(), None);
    // No move for the lone king: a loss.
    let mut e = Engine::from_fen(variants::builtin("shoshogi").unwrap(), "4k4/9/9/9/9/9/9/3r1r3/4K4 w - - 0 1").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(Side::Black)));
}

/// Makpong: a king in check may only take the one piece checking it (positions and moves as
/// pyffish 0.0.90 gives them).
#[test]
fn makpong_kings_in_check_do_not_flee() {
    let moves = |fen: &str| sorted_moves("makpong", fen);
    // A distant check: blocks and captures by other pieces only.
    assert_eq!(moves("4k3/2R5/8/8/8/1N6/8/r2K4 w - - 0 1"), ["b3a1", "b3c1", "c7c1"]);
    // The unprotected checker may be taken by the king, the knight beside it not.
    assert_eq!(moves("4k3/8/8/8/8/8/2s1n3/3K4 w - - 0 1"), ["d1c2"]);
    // Double check is mate; a lone king checked from afar too.
    let mut e = Engine::from_fen(variants::builtin("makpong").unwrap(), "4k3/8/8/8/8/4n3/3r4/3K4 w - - 0 1").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(Side::Black)));
    let mut e = Engine::from_fen(variants::builtin("makpong").unwrap(), "4k3/8/8/8/8/8/8/r2K4 w - - 0 1").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(Side::Black)));
    // Out of check the king moves as in Makruk.
    assert_eq!(moves("4k3/8/8/8/8/8/2n5/3K4 w - - 0 1"), ["d1c1", "d1c2", "d1d2", "d1e2"]);
}

/// The legal moves of a catalogue variant's position in UCI, sorted.
fn sorted_moves(id: &str, fen: &str) -> Vec<String> {
    let mut e = Engine::from_fen(variants::builtin(id).unwrap(), fen).unwrap();
    let legal = e.legal_moves();
    let mut out: Vec<String> = legal.iter().map(|m| e.to_uci(m)).collect();
    out.sort();
    out
}

/// Cambodian chess: the king's and the met's first-move leaps and how their rights go
/// (positions, moves and FENs as pyffish 0.0.90 gives them).
#[test]
fn cambodian_leaps_and_their_rights() {
    let moves = |fen: &str| sorted_moves("cambodian", fen);
    // Both leaps (d1b2, d1f2; e1e3), never onto a piece, the met's over anything.
    assert_eq!(
        moves("7k/8/6pp/8/6PP/8/8/3KM3 w DE - 0 1"),
        ["d1b2", "d1c1", "d1c2", "d1d2", "d1e2", "d1f2", "e1d2", "e1e3", "e1f2", "g4g5", "h4h5"]
    );
    assert_eq!(moves("7k/8/6pp/8/6PP/4s3/1s3s2/3KM3 w DE - 0 1"), ["d1c2", "e1d2", "e1f2", "g4g5", "h4h5"]);
    assert_eq!(
        moves("7k/8/6pp/8/6PP/8/4n3/3KM3 w DE - 0 1"),
        ["d1b2", "d1c2", "d1d2", "d1e2", "d1f2", "e1d2", "e1e3", "e1f2", "g4g5", "h4h5"]
    );
    // Not onto an attacked square; none for a king in check, but the met's may block.
    assert_eq!(moves("2r2r1k/8/6pp/8/6PP/8/8/3KM3 w DE - 0 1"), ["d1b2", "d1d2", "d1e2", "e1d2", "e1e3", "e1f2", "g4g5", "h4h5"]);
    assert_eq!(moves("3r3k/8/6pp/8/6PP/8/8/3KM3 w DE - 0 1"), ["d1c1", "d1c2", "d1e2", "e1d2"]);
    assert_eq!(moves("7k/8/6pp/8/6PP/3K3r/8/4M3 w E - 0 1"), ["d3c2", "d3c4", "d3d2", "d3d4", "d3e2", "d3e4", "e1e3"]);
    // A rook coming onto the king's file takes the king's leap, even blocked; the met's stays.
    let fen_after = |fen: &str, moves: &str| {
        let mut e = Engine::from_fen(variants::builtin("cambodian").unwrap(), fen).unwrap();
        for m in moves.split_whitespace() {
            e.play_uci(m).unwrap();
        }
        e.fen()
    };
    assert_eq!(fen_after("r6k/8/6pp/8/6PP/8/3S4/3KM3 b DE - 0 1", "a8d8"), "3r3k/8/6pp/8/6PP/8/3S4/3KM3 w E - 1 2");
    assert_eq!(fen_after("r6k/8/6pp/8/6PP/8/3S4/3KM3 b DE - 0 1", "a8e8"), "4r2k/8/6pp/8/6PP/8/3S4/3KM3 w DE - 1 2");
    // A right once left is gone; a capture on the square takes it too. (The
    // clocks differ: Fairy-Stockfish's FEN counts by the Cambodian rules, Chimera's does not.)
    let rights = |fen: String| fen.split_whitespace().nth(2).unwrap().to_string();
    assert_eq!(rights(fen_after("7k/8/6pp/8/6PP/8/8/3KM3 w DE - 0 1", "e1f2 h8g8 f2e1 g8h8")), "D");
    assert_eq!(rights(fen_after("7k/8/6pp/8/6PP/5n2/8/3KM3 b DE - 0 1", "f3e1")), "D");
}

/// Shatar's mate rule and robado (positions, moves and results as pyffish 0.0.90 gives them).
#[test]
fn shatar_mates_need_a_shak() {
    let after = |fen: &str, moves: &str| {
        let mut e = Engine::from_fen(variants::builtin("shatar").unwrap(), fen).unwrap();
        for m in moves.split_whitespace() {
            e.play_uci(m).unwrap();
        }
        e.outcome().map(|o| o.winner)
    };
    let (white, black) = (Some(Some(Side::White)), Some(Some(Side::Black)));
    // A knight alone mates: the mated side wins.
    assert_eq!(after("6rk/6pp/3N4/8/8/8/8/4K3 w - - 0 1", "d6f7"), black);
    // A rook's mate (a shak) wins.
    assert_eq!(after("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", "a1a8"), white);
    // A bishop's mate with no shak before it is a draw ...
    assert_eq!(after("6bk/7p/8/5N2/8/8/8/1K2B3 w - - 0 1", "e1c3"), Some(None));
    // ... unless a knight's check began the series; a quiet move in between breaks it.
    assert_eq!(after("6b1/p5kp/8/8/8/4N3/8/1K2B3 w - - 0 1", "e3f5 g7h8 e1c3"), white);
    assert_eq!(after("6b1/p5kp/8/8/8/4N3/8/1K2B3 w - - 0 1", "e3f5 g7h8 b1c1 a7a6 e1c3"), Some(None));
    // A knight's check already on the board when the game is set up counts the same.
    assert_eq!(after("6b1/p5kp/8/5N2/8/8/8/1K2B3 b - - 1 1", "g7h8 e1c3"), white);
    // Robado: a bare king draws at once.
    assert_eq!(after("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1", "a1a2"), Some(None));
}

/// Tori shogi: two swallows a file, compulsory promotion in and out of the zone (positions and
/// moves as pyffish 0.0.90 gives them).
#[test]
fn tori_shogi_swallows_and_promotions() {
    let moves = |fen: &str| sorted_moves("torishogi", fen);
    let drops_on_d = |fen: &str| moves(fen).into_iter().filter(|m| m.starts_with("S@d")).collect::<Vec<_>>();
    // One swallow on the d-file: a second may join it; two: no third; the enemy's do not count.
    assert_eq!(drops_on_d("5k1/7/7/3S3/7/7/1K5[S] w - - 0 1"), ["S@d1", "S@d2", "S@d3", "S@d5", "S@d6"]);
    assert_eq!(drops_on_d("5k1/7/7/3S3/3S3/7/1K5[S] w - - 0 1"), Vec::<String>::new());
    assert_eq!(drops_on_d("5k1/7/7/3S3/3s3/7/1K5[S] w - - 0 1"), ["S@d1", "S@d2", "S@d5", "S@d6"]);
    // A falcon in the zone promotes on every move, even one that leaves it.
    assert_eq!(
        moves("5k1/3F3/7/7/7/7/1K5[-] w - - 0 1"),
        ["b1a1", "b1a2", "b1b2", "b1c1", "b1c2", "d6c5+", "d6c6+", "d6c7+", "d6d7+", "d6e5+", "d6e6+", "d6e7+"]
    );
}

/// Musketeer chess's fixed gating. Perft: each side's twenty first moves are chess's (the
/// b-knight's two moves now bring the cannon in, and no plain knight move is left), and no
/// first move of white's changes black's twenty: 20 and 20 × 20 = 400, counted by hand; depth
/// 4 is fsmosca's published count for this start (github.com/fsmosca/musketeer-chess,
/// Leopard/Cannon: 195507).
#[test]
fn musketeer_gates_its_pieces_in_on_fixed_files() {
    let musketeer = || variants::builtin("musketeer").unwrap();
    let mut e = Engine::from_fen(musketeer(), "startpos").unwrap();
    assert_eq!([1, 2].map(|d| e.perft(d)), [20, 400]);
    assert_eq!(e.perft(4), 195_507, "fsmosca's count");
    // The knight below the cannon brings it in; its plain move is gone.
    let moves = sorted_moves("musketeer", musketeer().start_fen.as_str());
    assert!(moves.contains(&"b1c3c".to_string()) && !moves.contains(&"b1c3".to_string()), "{moves:?}");
    e.play_uci("b1c3c").unwrap();
    assert_eq!(e.fen(), "lc******/rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RCBQKBNR/L******* b KQkq - 1 1");
    // A piece taken before it moves takes its waiting piece out of the game.
    let mut e = Engine::from_fen(musketeer(), "********/4k2b/8/8/8/8/8/8/R3K3/L******* b Q - 0 1").unwrap();
    e.play_uci("h8a1").unwrap();
    assert_eq!(e.fen(), "********/4k3/8/8/8/8/8/8/b3K3/******** w - - 0 2");
    // Castling lets the rook's waiting piece in on the square the rook left.
    let castles = sorted_moves("musketeer", "********/4k3/8/8/8/8/8/8/R3K3/L******* w Q - 0 1");
    // (Written from the rook's square, as Fairy-Stockfish writes a gate there.)
    assert!(castles.contains(&"a1e1l".to_string()) && !castles.contains(&"e1a1".to_string()), "{castles:?}");
    assert_eq!(castles.len(), 16, "ten rook moves and castling, all bringing the leopard in, and five king moves: {castles:?}");
    // Malformed gate rows are refused, never a panic or a huge allocation.
    for row in ["l99999999999999999999", "l999999999", "l9", "lc*******", "l0c"] {
        let fen = format!("{row}/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/LC****** w KQkq - 0 1");
        assert!(Engine::from_fen(musketeer(), &fen).is_err(), "{fen}");
    }
    // A gate row must stand above a piece of its side.
    assert!(Engine::from_fen(musketeer(), "********/4k3/8/8/8/8/8/8/4K3/L******* w - - 0 1").is_err());
}

/// Across the catalogue, pieces whose moves differ get different sentences, and every piece and
/// variant gets words (`CHIMERA_SHOW_WORDS=1` prints them).
#[test]
fn different_moves_get_different_words() {
    use chimera::rules::{describe_moves, describe_piece, describe_rules, parse_movement};
    use std::collections::BTreeMap;
    let show = std::env::var("CHIMERA_SHOW_WORDS").is_ok();
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for id in variants::builtin_ids() {
        let v = variants::builtin(id).unwrap();
        let rules = describe_rules(&v);
        assert!(rules.starts_with("Played on a board of"), "{id}: {rules}");
        if show {
            println!("{id}: {rules}");
        }
        for def in &v.registry.types {
            let Ok(m) = parse_movement(&def.betza) else { continue };
            let words = describe_moves(&m.atoms, &m.legs);
            assert!(describe_piece(def).starts_with(&words[..words.len() - 1]), "{id} {}", def.name);
            // The moves as a set: each move (its mode aside) with whether it moves and captures.
            let mut moves: BTreeMap<String, (bool, bool)> = BTreeMap::new();
            for a in &m.atoms {
                let e = moves.entry(format!("{:?}", chimera::rules::Atom { mode: chimera::rules::Mode::Both, ..*a })).or_default();
                e.0 |= a.mode.moves();
                e.1 |= a.mode.captures();
            }
            let key = format!("{moves:?} {:?}", m.legs);
            if show {
                println!("  {:<12} {:<16} {words}", def.name, def.betza);
            }
            if let Some(other) = seen.insert(words.clone(), key.clone()) {
                assert_eq!(other, key, "{id} {} ({}): {words}", def.name, def.betza);
            }
        }
    }
    assert!(seen.len() > 60, "{}", seen.len());
    // Rules the words once got wrong: the promotion rank, black's own choices, Shatar's mate.
    let words = |id: &str| describe_rules(&variants::builtin(id).unwrap());
    assert!(words("makruk").contains("Pawns promote on their 6th rank to met."), "{}", words("makruk"));
    assert!(words("chigorin").contains("Black's to queen, rook or bishop"), "{}", words("chigorin"));
    assert!(words("kingofthehill").contains("by getting a king to d4, e4, d5 or e5"), "{}", words("kingofthehill"));
    assert!(words("shatar").contains("a checkmate given by a knight alone loses"), "{}", words("shatar"));
}
