//! Actions (rules as data, issue 34) against the Rust presets they re-express: seeded random
//! games played move for move under the Rust preset and under the same rule written as the
//! variant's actions, in chess and two other catalogue variants. At every ply the two games
//! must agree on the legal moves, the position (the FEN's six fields: a Rust preset's own state
//! is written in the facts field, which the data version does not keep) and the result with
//! its reason. A disagreement is a bug in one or the other.

use chimera::presets::new_game;
use chimera::rules::{Engine, PresetRequest, Variant};
use chimera::variants;

use crate::common::{Rng, seed};

/// The rules written as data: the Rust preset's id, and the actions that say the same.
fn data_presets(g: chimera::rules::Geometry) -> Vec<(&'static str, String)> {
    let centre: Vec<String> = chimera::presets::centre_squares(g).into_iter().map(|sq| format!("{:?}", g.name(sq))).collect();
    vec![
        (
            "explosive-rook",
            r#"[(name: "explosive-rook", when: Capture, if: [Is(Mover, "rook")], then: [
                TakeCapture, Show(Explosion, Victim), Damage((at: Victim, around: 1, kind: Explosion, spare: ["king"])),
                Remove(Mover), Note("rook exploded")])]"#
                .to_string(),
        ),
        ("capture-to-win", r#"[(name: "capture-to-win", when: Result, if: [Captures], then: [Win(Mover, "first capture")])]"#.to_string()),
        (
            "poisoned-squares",
            format!(
                r#"[(name: "poisoned-squares", when: Moved, if: [In(Mover, "poison"), Not(Royal(Mover))], then: [
                    Show(Poison, Mover), Damage((at: Mover, kind: Poison))])]
                   REGIONS {{"poison": Squares([{}])}}"#,
                centre.join(", ")
            ),
        ),
    ]
}

/// The variant `id` with `actions` (and regions, after `REGIONS`) written into its file.
fn with_actions(id: &str, written: &str) -> Variant {
    let file = file_with_actions(id, written);
    variants::compile(&file).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// [`with_actions`]' file.
fn file_with_actions(id: &str, written: &str) -> variants::VariantFile {
    let mut file = variants::builtin_resolved(id).unwrap();
    let (actions, regions) = written.split_once("REGIONS").unwrap_or((written, ""));
    let text = format!("(id: \"{id}\", format: 2, actions: {actions})");
    let parsed = variants::parse_variant_file(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    file.format = parsed.format;
    file.actions = parsed.actions;
    if !regions.trim().is_empty() {
        let parsed = variants::parse_variant_file(&format!("(id: \"{id}\", regions: {regions})")).unwrap();
        file.regions.get_or_insert_with(Default::default).extend(parsed.regions.unwrap());
    }
    file
}

fn legal(e: &mut Engine) -> Vec<String> {
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    moves.sort();
    moves
}

fn board_fen(e: &mut Engine) -> String {
    e.fen().split(' ').take(6).collect::<Vec<_>>().join(" ")
}

#[test]
fn data_presets_play_as_the_rust_presets_do() {
    let mut rng = Rng(seed("CHIMERA_ACTIONS_SEED", "actions"));
    let (games, plies) = (7, 80);
    for id in ["chess", "capablanca", "shatranj"] {
        let g = variants::builtin(id).unwrap().geometry;
        for (preset, written) in data_presets(g) {
            let mut rust = variants::builtin(id).unwrap();
            rust.presets.push(PresetRequest { id: preset.into(), sides: [true, true], ..Default::default() });
            let data = with_actions(id, &written);
            let mut compared = 0;
            for game in 0..games {
                let mut a = new_game(rust.clone(), "startpos").unwrap();
                let mut b = new_game(data.clone(), "startpos").unwrap();
                let mut played: Vec<String> = Vec::new();
                for _ in 0..plies {
                    let at = format!("{preset} in {id}, game {game}, after {played:?}");
                    let moves = legal(&mut a);
                    assert_eq!(legal(&mut b), moves, "{at}: legal moves");
                    assert_eq!(board_fen(&mut b), board_fen(&mut a), "{at}: position");
                    assert_eq!(b.outcome(), a.outcome(), "{at}: result");
                    compared += 1;
                    if moves.is_empty() || a.outcome().is_some() {
                        break;
                    }
                    let m = &moves[rng.below(moves.len())];
                    a.play_uci(m).unwrap_or_else(|e| panic!("{at}: {m}: {e}"));
                    b.play_uci(m).unwrap_or_else(|e| panic!("{at}: {m} (data): {e}"));
                    played.push(m.clone());
                }
            }
            println!("{preset} in {id}: {games} games, {compared} positions compared");
        }
    }
}

/// Files with actions say their format, name real pieces, and use effects where their event
/// allows them; each problem has its code and key path.
#[test]
fn actions_are_checked_with_codes_and_paths() {
    let problems = |actions: &str, format: &str| -> Vec<(String, String)> {
        let text = format!("(id: \"x\", extends: \"chess\", name: \"X\", {format} actions: {actions})");
        let file = variants::resolve(variants::parse_variant_file(&text).unwrap(), &variants::builtin_file).unwrap();
        match variants::compile(&file) {
            Ok(_) => Vec::new(),
            Err(variants::LoadError::Invalid(ps)) => ps.into_iter().map(|p| (p.code.to_string(), p.path)).collect(),
            Err(e) => panic!("{e}"),
        }
    };
    let ok = r#"[(name: "a", when: Result, if: [Captures], then: [Win(Mover, "first")])]"#;
    assert_eq!(problems(ok, "format: 2,"), []);
    assert_eq!(problems(ok, ""), [("E_ACTION_FORMAT".into(), "format".into())]);
    assert_eq!(problems(ok, "format: 3,"), [("E_FORMAT_NEWER".into(), "format".into())]);
    let bad = r#"[(name: "a", when: Moved, if: [Is(Mover, "dragon")], then: [TakeCapture, Win(Victim, "no")]),
                  (name: "a", when: Capture, if: [In(Victim, "nowhere")], then: [Damage((at: Victim, amount: 0, kind: Poison))]),
                  (name: "b", when: Capture, then: [])]"#;
    let got = problems(bad, "format: 2,");
    for want in [
        ("E_ACTION_PIECE", "actions[0].if[0]"),
        ("E_ACTION_EFFECT", "actions[0].then[0]"),
        ("E_ACTION_EFFECT", "actions[0].then[1]"),
        ("E_ACTION_NAME", "actions[1].name"),
        ("E_UNKNOWN_REGION", "regions.nowhere"),
        ("E_ACTION_DAMAGE", "actions[1].then[0]"),
        ("E_ACTION_EFFECT", "actions[2].then"),
    ] {
        assert!(got.iter().any(|(c, p)| c == want.0 && p == want.1), "{want:?} not in {got:?}");
    }
    // Fairy-Stockfish's format has no actions: the export names each one it leaves out.
    let mut file = variants::builtin_resolved("chess").unwrap();
    file.format = Some(2);
    file.actions = variants::parse_variant_file(&format!("(id: \"c\", actions: {ok})")).unwrap().actions;
    let refused = variants::fairy::export(&file, "c").unwrap_err();
    assert!(refused.iter().any(|u| u.key == "actions[0]" && u.message.contains("'a'")), "{refused:?}");
    // A file without actions loads as before, and does not ask for the actions preset.
    let plain = variants::compile(&variants::builtin_resolved("chess").unwrap()).unwrap();
    assert!(plain.actions.is_empty() && !plain.presets.iter().any(|p| p.id == "actions"));
}

/// A rule no preset has, written only as data: a knight that captures wins; taken back, the
/// game goes on.
#[test]
fn a_rule_of_the_variants_own() {
    let v = with_actions(
        "chess",
        r#"[(name: "knight-wins", when: Result, if: [Is(Mover, "knight"), Captures], then: [Win(Mover, "a knight took")])]"#,
    );
    let mut e = new_game(v, "startpos").unwrap();
    for m in ["g1f3", "e7e5", "d2d3", "f8c5"] {
        e.play_uci(m).unwrap();
    }
    assert_eq!(e.outcome(), None);
    e.play_uci("f3e5").unwrap();
    let outcome = e.outcome().expect("the knight's capture ends it");
    assert!(format!("{outcome:?}").contains("a knight took"), "{outcome:?}");
    // Said in the rules in words.
    let v = with_actions("chess", &data_presets(variants::builtin("chess").unwrap().geometry)[0].1);
    let words = chimera::rules::describe_rules(&v);
    assert!(
        words.ends_with(
            "When a rook captures a piece: it does not take the piece as usual, every piece within 1 square of the captured piece \
             takes 1 point of explosion damage, kings excepted, the moving piece is removed."
        ),
        "{words}"
    );
    // Undone, the game goes on.
    e.undo().expect("a move to take back");
    assert_eq!(e.outcome(), None);
}

/// A game of a variant with actions saves (its definition carries them) and resumes to the
/// same position, an explosion included; the file round-trips through RON.
#[test]
fn a_game_with_actions_saves_and_resumes() {
    let written = &data_presets(variants::builtin("chess").unwrap().geometry)[0].1;
    let file = file_with_actions("chess", written);
    let text = variants::write_variant_file(&file).unwrap();
    assert_eq!(variants::parse_variant_file(&text).unwrap(), file, "{text}");
    let mut e = new_game(variants::compile(&file).unwrap(), "startpos").unwrap();
    for m in ["a2a4", "b7b5", "a4b5", "c7c6", "a1a7"] {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    assert!(fen.starts_with("2bqkbnr/3ppppp/2p5/1P6/8/8/1PPPPPPP/1NBQKBNR b"), "the rook blew up a7, b8, a8 and itself: {fen}");
    let input = chimera::save::SaveInput {
        variant_id: "mine.ron",
        definition: Some(&file),
        presets: &[],
        start_fen: "startpos",
        seats: chimera::save::Seats::default(),
        redo: &[],
        date: "2026.11.29",
        clock: None,
    };
    let saved = chimera::save::write_save(e.world_mut(), &input);
    let mut back = chimera::save::resume(&chimera::save::read_save(&saved).unwrap()).unwrap();
    assert_eq!(back.fen(), fen);
}
