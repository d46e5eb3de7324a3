//! The variant catalogue: every file loads and checks, round trips are lossless, perft
//! matches Fairy-Stockfish, and bad files get every problem reported with its place.

use chimera::cli::run_check;
use chimera::rules::{Engine, Outcome, Reason, Side, Variant, chess960_fen};
use chimera::variants::{self, LoadError, compile, parse_variant_file, resolve, write_variant_file};

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

/// Fairy-Stockfish's perft rows for the catalogue, up to a node budget.
#[test]
fn fairy_stockfish_perft() {
    let mut checked = 0;
    for line in include_str!("data/fairy-stockfish.tsv").lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (id, depth, nodes, fen) = (cols[0], cols[1].parse().unwrap(), cols[2].parse::<u64>().unwrap(), cols[3]);
        if nodes > 1_000_000 {
            continue;
        }
        let mut e = Engine::from_fen(variants::builtin(id).unwrap(), fen).unwrap_or_else(|err| panic!("{id} {fen}: {err}"));
        assert_eq!(e.perft(depth), nodes, "{id} {fen} depth {depth}");
        checked += 1;
    }
    assert_eq!(checked, 9);
}

#[test]
fn all_960_chess960_starts_at_depth_3() {
    // Counts from shakmaty's chess960.perft, whose 960 positions are the starts in Scharnagl order.
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
        presets: [(id: "piece-hp")],
    )"#;
    let p = problems(text);
    let expect = [
        "pieces[X].betza: 'fQx' at character 3",
        "pieces[Y].initial_ranks: rank 9",
        "regions.far: Rect",
        "end[1].pieces: 'W'",
        "regions.near: no region named 'near'",
        "presets[0].id: no preset 'piece-hp'",
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
