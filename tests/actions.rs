//! Rules as data (issue 34) against the Rust presets they re-express: seeded random games
//! played move for move under the Rust presets and under the same rules written as data — the
//! shipped data presets (`data-presets/*.ron`), alone and in pairs, and rules written as a
//! variant's own actions — in chess and other catalogue variants. At every ply the two games
//! must agree on the legal moves, the FEN with its facts field (hit points, shields), and the
//! result with its reason. A disagreement is a bug in one or the other.

use chimera::presets::data;
use chimera::presets::new_game;
use chimera::rules::{Engine, PresetRequest, Variant};
use chimera::variants;

use crate::common::{Rng, seed};

/// The FEN with the data presets' ids written as their oracles', its sections sorted, and the preset state left
/// out (a Rust preset's own bookkeeping, such as poisoned-squares' list of squares, which the
/// data version keeps as a region of its file).
fn comparable_fen(e: &mut Engine) -> String {
    let mut fen = e.fen();
    for d in data::all() {
        fen = fen.replace(&d.file.id, d.file.oracle.as_deref().unwrap_or(&d.file.id));
    }
    let Some((board, facts)) = fen.split_once(" {") else { return fen };
    // (In any order: the Rust presets write theirs in a fixed order, declared facts follow the
    // order of activation.)
    let mut sections: Vec<&str> = facts.trim_end_matches('}').split(';').filter(|s| !s.starts_with("state=")).collect();
    sections.sort();
    if sections.is_empty() { board.to_string() } else { format!("{board} {{{}}}", sections.join(";")) }
}

/// Plays `games` random games of `plies` plies of `variant` with the Rust presets `rust` and
/// with `data`, comparing at every ply; returns the positions compared.
fn play_beside(rng: &mut Rng, variant: &str, rust: &[&str], data: &[&str], games: usize, plies: usize) -> usize {
    play_beside_for(rng, variant, [true, true], rust, data, games, plies)
}

/// [`play_beside`] with every preset switched on for `sides` only.
fn play_beside_for(rng: &mut Rng, variant: &str, sides: [bool; 2], rust: &[&str], data: &[&str], games: usize, plies: usize) -> usize {
    let with = |ids: &[&str]| {
        let mut v = variants::builtin(variant).unwrap();
        v.presets.extend(ids.iter().map(|id| PresetRequest { id: (*id).into(), sides, ..Default::default() }));
        v
    };
    compare_games(rng, &format!("{data:?} for {sides:?} in {variant}"), &with(rust), &with(data), games, plies)
}

/// Plays `games` random games of `plies` plies under `rust` and under `data` (the same moves
/// in both), comparing at every ply; returns the positions compared.
fn compare_games(rng: &mut Rng, label: &str, rust: &Variant, data: &Variant, games: usize, plies: usize) -> usize {
    let mut compared = 0;
    for game in 0..games {
        let mut a = new_game(rust.clone(), "startpos").unwrap();
        let mut b = new_game(data.clone(), "startpos").unwrap();
        let mut played: Vec<String> = Vec::new();
        for _ in 0..plies {
            let at = format!("{label}, game {game}, after {played:?}");
            let moves = legal(&mut a);
            assert_eq!(legal(&mut b), moves, "{at}: legal moves");
            assert_eq!(comparable_fen(&mut b), comparable_fen(&mut a), "{at}: position");
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
    compared
}

/// A data preset's set and its oracle's: the presets it requires first.
fn sets(d: &data::DataPreset) -> (Vec<&'static str>, Vec<&'static str>) {
    let oracle = |d: &data::DataPreset| chimera::presets::by_id(d.file.oracle.as_deref().expect("an oracle")).unwrap().id;
    let required: Vec<&data::DataPreset> = d.file.requires.iter().map(|id| data::by_id(id).unwrap()).collect();
    let rust = required.iter().map(|r| oracle(r)).chain([oracle(d)]).collect();
    let data = required.iter().map(|r| r.def.id).chain([d.def.id]).collect();
    (rust, data)
}

/// Every shipped data preset plays as its Rust oracle: 20 games of up to 80 plies each, in
/// chess and two other catalogue variants (ones with hands for the facts, with gating for
/// the splitting queen).
#[test]
fn data_presets_play_as_their_rust_oracles() {
    let mut rng = Rng(seed("CHIMERA_ACTIONS_SEED", "data-presets"));
    assert!(data::all().len() >= 10);
    for d in data::all() {
        let (rust, data) = sets(d);
        let others = match d.file.oracle.as_deref() {
            Some("piece-hp" | "piece-shield" | "king-heals" | "stamina") => ["crazyhouse", "capablanca"],
            Some("queen-splits") => ["seirawan", "capablanca"],
            _ => ["capablanca", "shatranj"],
        };
        for (variant, games) in [("chess", 8), (others[0], 6), (others[1], 6)] {
            let compared = play_beside(&mut rng, variant, &rust, &data, games, 80);
            println!("{} in {variant}: {games} games, {compared} positions compared", d.def.id);
        }
    }
}

/// Switched on for one side only, the data presets play as their oracles too (3 games for
/// each side in chess), but for the five whose Rust presets read the scope otherwise (see
/// `presets/README.md`, "Data presets").
#[test]
fn data_presets_play_as_their_rust_oracles_for_one_side() {
    let mut rng = Rng(seed("CHIMERA_ACTIONS_SEED", "data-presets-one-side"));
    let reads_otherwise =
        ["knight-immunity-data", "monster-rules-data", "capture-all-data", "suicide-chess-data", "last-piece-standing-data"];
    for d in data::all().iter().filter(|d| !reads_otherwise.contains(&d.def.id)) {
        let (rust, data) = sets(d);
        for sides in [[true, false], [false, true]] {
            let compared = play_beside_for(&mut rng, "chess", sides, &rust, &data, 3, 80);
            println!("{} for {sides:?}: {compared} positions compared", d.def.id);
        }
    }
}

/// The data presets in pairs, each pair the Rust presets allow together (in both orders of
/// activation where the order matters to them: damage absorbers), against the same pair of
/// Rust presets: 2 games of up to 80 plies each in chess.
#[test]
fn data_presets_pair_as_their_rust_oracles() {
    let mut rng = Rng(seed("CHIMERA_ACTIONS_SEED", "data-preset-pairs"));
    let all = data::all();
    let mut pairs = 0;
    for (i, x) in all.iter().enumerate() {
        for y in &all[i + 1..] {
            let ((mut rust, mut data), (rust_y, data_y)) = (sets(x), sets(y));
            for (r, d) in rust_y.into_iter().zip(data_y) {
                if !data.contains(&d) {
                    rust.push(r);
                    data.push(d);
                }
            }
            // Pairs the Rust presets refuse together are refused as data too.
            let mut v = variants::builtin("chess").unwrap();
            v.presets = rust.iter().map(|id| PresetRequest { id: (*id).into(), sides: [true, true], ..Default::default() }).collect();
            let refused = new_game(v.clone(), "startpos").is_err();
            v.presets = data.iter().map(|id| PresetRequest { id: (*id).into(), sides: [true, true], ..Default::default() }).collect();
            assert_eq!(new_game(v, "startpos").is_err(), refused, "{data:?} against {rust:?}");
            if refused {
                continue;
            }
            let compared = play_beside(&mut rng, "chess", &rust, &data, 2, 80);
            pairs += 1;
            println!("{data:?}: {compared} positions compared");
        }
    }
    assert!(pairs >= 30, "{pairs} pairs played");
}

/// Rules written as a variant's own actions: the Rust preset's id, and the actions that say
/// the same.
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
pub(crate) fn with_actions(id: &str, written: &str) -> Variant {
    let file = file_with_actions(id, written);
    variants::compile(&file).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// [`with_actions`]' file.
pub(crate) fn file_with_actions(id: &str, written: &str) -> variants::VariantFile {
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

pub(crate) fn legal(e: &mut Engine) -> Vec<String> {
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    moves.sort();
    moves
}

/// A variant's own actions play as the Rust presets (the loader's path to the same runtime
/// as the data presets': 2 games in each of three variants).
#[test]
fn a_variants_own_actions_play_as_the_rust_presets_do() {
    let mut rng = Rng(seed("CHIMERA_ACTIONS_SEED", "actions"));
    let (games, plies) = (2, 80);
    for id in ["chess", "capablanca", "shatranj"] {
        let g = variants::builtin(id).unwrap().geometry;
        for (preset, written) in data_presets(g) {
            let mut rust = variants::builtin(id).unwrap();
            rust.presets.push(PresetRequest { id: preset.into(), sides: [true, true], ..Default::default() });
            let data = with_actions(id, &written);
            let compared = compare_games(&mut rng, &format!("{preset} as actions in {id}"), &rust, &data, games, plies);
            println!("{preset} in {id}: {games} games, {compared} positions compared");
        }
    }
}

/// The problems (code, key path) of a chess file with these `actions`, after `format`
/// (`format: 2,` or nothing).
pub(crate) fn problems(actions: &str, format: &str) -> Vec<(String, String)> {
    let text = format!("(id: \"x\", extends: \"chess\", name: \"X\", {format} actions: {actions})");
    let file = variants::resolve(variants::parse_variant_file(&text).unwrap(), &variants::builtin_file).unwrap();
    match variants::compile(&file) {
        Ok(_) => Vec::new(),
        Err(variants::LoadError::Invalid(ps)) => ps.into_iter().map(|p| (p.code.to_string(), p.path)).collect(),
        Err(e) => panic!("{e}"),
    }
}

/// Files with actions say their format, name real pieces, and use effects where their event
/// allows them; each problem has its code and key path.
#[test]
fn actions_are_checked_with_codes_and_paths() {
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
    // Facts, the pieces an event has, and what goes with what.
    let facts = |facts: &str, actions: &str| -> Vec<(String, String)> {
        let text = format!("(id: \"x\", extends: \"chess\", name: \"X\", format: 2, facts: {facts}, actions: {actions})");
        let file = variants::resolve(variants::parse_variant_file(&text).unwrap(), &variants::builtin_file).unwrap();
        match variants::compile(&file) {
            Ok(v) => {
                assert!(v.presets.iter().any(|p| p.id == "actions"), "facts and actions ask for the actions preset");
                Vec::new()
            }
            Err(variants::LoadError::Invalid(ps)) => ps.into_iter().map(|p| (p.code.to_string(), p.path)).collect(),
            Err(e) => panic!("{e}"),
        }
    };
    let hp = r#"[(name: "Hp", start: 2, look: Pips(200, 0, 0))]"#;
    assert_eq!(facts(hp, r#"[(name: "a", when: Damaged, then: [Absorb("Hp")])]"#), []);
    let got = facts(
        r#"[(name: "Hp", start: 2), (name: "Hp", start: 1), (name: "2x", start: 0), (name: "Low", start: -1)]"#,
        r#"[(name: "a", when: Moved, if: [Fact(Hit, "Hp", AtLeast(1))], then: [AddFact(Mover, "Mana", 1)]),
            (name: "b", when: Listing, if: [Captures], then: [AllowCheck]),
            (name: "c", when: Moved, pieces: ["king"], then: [Remove(This)]),
            (name: "d", when: TurnStart, then: [Soak(1), ExtraMove, Cancel("no")]),
            (name: "e", when: Damaged, then: [Damage((at: Mover, kind: Poison)), Remove(Hit)])]"#,
    );
    for want in [
        ("E_ACTION_FACT", "facts[1]"),
        ("E_ACTION_FACT", "facts[2]"),
        ("E_ACTION_FACT", "facts[3]"),
        ("E_ACTION_WHO", "actions[0].if[0]"),
        ("E_ACTION_FACT", "actions[0].then[0]"),
        ("E_ACTION_EFFECT", "actions[1].then"),
        ("E_ACTION_PIECE", "actions[2].pieces"),
        ("E_ACTION_EFFECT", "actions[3].then[0]"),
        ("E_ACTION_EFFECT", "actions[3].then[1]"),
        ("E_ACTION_EFFECT", "actions[3].then[2]"),
        ("E_ACTION_EFFECT", "actions[4].then[0]"),
        ("E_ACTION_EFFECT", "actions[4].then[1]"),
    ] {
        assert!(got.iter().any(|(c, p)| c == want.0 && p == want.1), "{want:?} not in {got:?}");
    }
    // A fact name the game's presets declare too is refused, as are more than four facts.
    let clash =
        "(id: \"x\", extends: \"chess\", name: \"X\", format: 2, presets: [(id: \"piece-hp-data\")], facts: [(name: \"Hp\", start: 3)])";
    let file = variants::resolve(variants::parse_variant_file(clash).unwrap(), &variants::builtin_file).unwrap();
    let Err(variants::LoadError::Invalid(ps)) = variants::compile(&file) else { panic!("a clash of facts loads") };
    assert!(ps.iter().any(|p| p.code.to_string() == "E_ACTION_FACT" && p.path == "facts"), "{ps:?}");
    let mut v = variants::builtin("chess").unwrap();
    v.presets = ["piece-hp-data", "piece-hp"]
        .iter()
        .map(|id| PresetRequest { id: (*id).into(), sides: [true, true], ..Default::default() })
        .collect();
    assert!(new_game(v, "startpos").is_err(), "the data hit points and the Rust ones are one or the other");
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

/// Every shipped data preset reads, and its actions compile against every catalogue variant
/// with no problem but a piece type the variant lacks (which leaves that action out there).
#[test]
fn the_data_presets_compile_in_every_variant() {
    for d in data::all() {
        let chess = variants::builtin("chess").unwrap();
        let (actions, problems) = data::compiled(d, &chess);
        assert!(problems.is_empty() && actions.len() == d.file.actions.len(), "{} in chess: {problems:?}", d.def.id);
        for id in variants::builtin_ids() {
            let v = variants::builtin(id).unwrap();
            let (_, problems) = data::compiled(d, &v);
            assert!(
                problems.iter().all(|p| p.code == chimera::presets::action_compile::ActionCode::Piece),
                "{} in {id}: {problems:?}",
                d.def.id
            );
        }
        // Its words are the rules panel's.
        let words: Vec<String> = data::compiled(d, &chess).0.iter().map(|a| chimera::rules::describe_action(&chess, a)).collect();
        assert!(words.iter().all(|w| w.ends_with('.') && w.len() > 12), "{words:?}");
    }
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
    assert_eq!(saved_and_resumed(&mut e, "mine.ron", &file), fen);
}

/// The FEN of the game `e` of the variant `file` once saved (as `id`) and resumed.
fn saved_and_resumed(e: &mut Engine, id: &str, file: &variants::VariantFile) -> String {
    let input = chimera::save::SaveInput {
        variant_id: id,
        definition: Some(file),
        presets: &[],
        start_fen: "startpos",
        seats: chimera::save::Seats::default(),
        redo: &[],
        date: "2026.11.29",
        clock: None,
    };
    let saved = chimera::save::write_save(e.world_mut(), &input);
    chimera::save::resume(&chimera::save::read_save(&saved).unwrap()).unwrap().fen()
}

/// A rule example of `rule-examples/`, loaded as a player opens it.
fn example(name: &str) -> Engine {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rule-examples").join(name);
    let v = variants::load_path(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    new_game(v, "startpos").unwrap()
}

/// The hit points on a square, from the FEN's facts field.
fn hp(e: &mut Engine, square: &str) -> Option<i32> {
    let fen = e.fen();
    let (_, facts) = fen.split_once(" {")?;
    let hp = facts.trim_end_matches('}').split(';').find_map(|s| s.strip_prefix("Hp="))?;
    hp.split(',').find_map(|kv| kv.strip_prefix(&format!("{square}:"))).and_then(|v| v.parse().ok())
}

/// Three rules no preset has, written only as data (`rule-examples/`), each in a scripted
/// game that shows its effect, and undone.
#[test]
fn three_new_rules_written_only_as_data() {
    // Vampire chess: a piece that strikes another gains a hit point (up to 3); the piece
    // struck loses one and, alive, keeps its square.
    let mut e = example("vampire-chess.ron");
    for m in ["e2e4", "d7d5", "e4d5"] {
        e.play_uci(m).unwrap();
    }
    assert_eq!((hp(&mut e, "e4"), hp(&mut e, "d5")), (Some(3), Some(1)), "{}", e.fen());
    e.play_uci("d5e4").unwrap();
    assert_eq!((hp(&mut e, "e4"), hp(&mut e, "d5")), (Some(2), Some(2)), "{}", e.fen());
    e.undo().unwrap();
    assert_eq!((hp(&mut e, "e4"), hp(&mut e, "d5")), (Some(3), Some(1)), "{}", e.fen());

    // Centre knights: a pawn that reaches the centre becomes a knight; one that stops short
    // stays a pawn.
    let mut e = example("centre-knights.ron");
    e.play_uci("e2e4").unwrap();
    assert!(e.fen().starts_with("rnbqkbnr/pppppppp/8/8/4N3/8/PPPP1PPP/RNBQKBNR b"), "{}", e.fen());
    e.play_uci("a7a6").unwrap();
    e.play_uci("e4c5").expect("it moves as a knight now");
    e.play_uci("c7c6").unwrap();
    assert!(e.fen().starts_with("rnbqkbnr/1p1ppppp/p1p5/2N5/8/8/PPPP1PPP/RNBQKBNR w"), "{}", e.fen());
    e.undo().unwrap();
    e.undo().unwrap();
    e.undo().unwrap();
    e.undo().unwrap();
    assert!(e.fen().starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"), "{}", e.fen());

    // Knight's gallop: a knight that captures lets its side move again at once, once.
    let mut e = example("knights-gallop.ron");
    for m in ["g1f3", "e7e5", "f3e5"] {
        e.play_uci(m).unwrap();
    }
    assert!(e.fen().contains(" w "), "white moves again after the knight's capture: {}", e.fen());
    e.play_uci("e5f7").unwrap();
    assert!(e.fen().contains(" b "), "one extra move only: {}", e.fen());
    e.play_uci("e8f7").unwrap();
    assert!(e.fen().contains(" w "), "a king's capture is no gallop: {}", e.fen());
    let words = chimera::rules::describe_rules(e.variant());
    assert!(
        words.contains(
            "When a knight has moved, capturing a piece, before the turn passes and this turn has had at most 1 move: the same side \
             moves again."
        ),
        "{words}"
    );
}

/// The editor's Actions section builds an action from its pickers' values (no typing): "When
/// [a piece captures] · If [the moving piece is a pawn] and [the captured piece is a knight] ·
/// Then [the moving piece becomes a knight] [sparkle]"; it is said in words, plays at once,
/// and is duplicated, reordered, removed and undone as one step each.
#[test]
fn actions_are_built_in_the_editor_with_pickers() {
    use chimera::editor::actions::{Vocabulary, condition_kinds, duplicated, effect_kinds, moved, new_action, new_fact};
    use chimera::editor::{Edit, Editor, Section};
    use chimera::variants::actions::{ConditionSpec, EffectSpec, EventSpec, WhoSpec};
    let mut e = Editor::copy_of("chess").unwrap();
    let pieces: Vec<String> = e.file().pieces.iter().flatten().map(|p| p.name.clone()).collect();
    let v = Vocabulary { pieces: pieces.clone(), ..Default::default() };
    let pick_if = |words: &str| condition_kinds(&EventSpec::Capture, &v).into_iter().find(|(w, _)| *w == words).unwrap().1;
    let pick_then = |words: &str| effect_kinds(&EventSpec::Capture, &v).into_iter().find(|(w, _)| *w == words).unwrap().1;
    let mut a = new_action(&[]);
    assert_eq!(a.when, EventSpec::Capture);
    let ConditionSpec::Is(_, mut pawn) = pick_if("a piece is of a type") else { panic!() };
    pawn.clone_from(&pieces[0]);
    let knight = pieces.iter().find(|p| *p == "knight").unwrap().clone();
    a.conditions = vec![ConditionSpec::Is(WhoSpec::Mover, pawn), ConditionSpec::Is(WhoSpec::Victim, knight.clone())];
    let EffectSpec::Transform(who, _) = pick_then("a piece becomes another type") else { panic!() };
    a.then.insert(0, EffectSpec::Transform(who, knight));
    e.apply(&Edit::Actions(vec![a.clone()])).unwrap();
    assert_eq!(e.file().format, Some(2), "a file with actions says its format");
    assert!(e.problems().is_empty(), "{:?}", e.problems());
    let compiled = variants::compile(e.file()).unwrap();
    let words = chimera::rules::describe_rules(&compiled);
    assert!(words.contains("When a pawn captures a knight: the moving piece becomes a knight."), "{words}");
    // Test-play runs it at once: the pawn that takes the knight on c6 is a knight there.
    let mut game = new_game(compiled, "startpos").unwrap();
    for m in ["e2e4", "b8c6", "d2d4", "g8f6", "d4d5", "a7a6", "d5c6"] {
        game.play_uci(m).unwrap();
    }
    assert!(game.fen().starts_with("r1bqkb1r/1ppppppp/p1N2n2/"), "{}", game.fen());
    // Duplicated, reordered, removed: each one step of undo.
    let list = duplicated(&e.file().actions.clone().unwrap(), 0);
    e.apply(&Edit::Actions(list)).unwrap();
    let names = |e: &Editor| e.file().actions.iter().flatten().map(|a| a.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&e), ["rule", "rule 2"]);
    e.apply(&Edit::Actions(moved(&e.file().actions.clone().unwrap(), 1, true))).unwrap();
    assert_eq!(names(&e), ["rule 2", "rule"]);
    e.apply(&Edit::Actions(Vec::new())).unwrap();
    assert!(e.file().actions.is_none());
    assert!(e.undo() && e.undo());
    assert_eq!(names(&e), ["rule", "rule 2"]);
    // A fact from the picker, and a problem shown at its action in the Actions section.
    e.apply(&Edit::Facts(vec![new_fact(&[])])).unwrap();
    let mut list = e.file().actions.clone().unwrap();
    list[1].then = vec![EffectSpec::Absorb("Mana".into())];
    e.apply(&Edit::Actions(list)).unwrap();
    let problems = e.problems();
    let p = problems.iter().find(|p| p.path == "actions[1].then[0]").unwrap_or_else(|| panic!("{problems:?}"));
    assert_eq!(Section::of(&p.path), Section::Actions);
    assert_eq!(Section::of("facts[0]"), Section::Actions);
    // An action whose conditions contradict one another is a warning beside it.
    let mut list = e.file().actions.clone().unwrap();
    list[1].then = vec![EffectSpec::Note("x".into())];
    list[1].conditions = vec![ConditionSpec::Captures, ConditionSpec::Not(Box::new(ConditionSpec::Captures))];
    e.apply(&Edit::Actions(list)).unwrap();
    let problems = e.problems();
    assert!(problems.iter().any(|p| p.code.to_string() == "W_ACTION_NEVER" && p.path == "actions[1]"), "{problems:?}");
    // Another event keeps the effects it can have, and stands its first one in for the rest.
    let a = chimera::editor::actions::with_event(&e.file().actions.clone().unwrap()[0], EventSpec::Royalty, &v);
    assert_eq!(a.then, [EffectSpec::Royal(Vec::new())]);
    assert!(a.conditions.is_empty());
    let b = chimera::editor::actions::with_event(&e.file().actions.clone().unwrap()[0], EventSpec::Moved, &v);
    assert!(b.then.iter().any(|x| matches!(x, EffectSpec::Transform(..))), "{b:?}");
    // The file round-trips through RON.
    let text = variants::write_variant_file(e.file()).unwrap();
    assert_eq!(&variants::parse_variant_file(&text).unwrap(), e.file());
}

/// A saved game of a variant with facts of its own (vampire chess), and one with a data
/// preset switched on, resume to the same position, hit points included.
#[test]
fn games_with_declared_facts_save_and_resume() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rule-examples/vampire-chess.ron");
    let file = variants::resolve_path(&path).unwrap();
    let mut e = new_game(variants::compile(&file).unwrap(), "startpos").unwrap();
    for m in ["e2e4", "d7d5", "e4d5", "g8f6"] {
        e.play_uci(m).unwrap();
    }
    let fen = e.fen();
    assert!(fen.contains("Hp=") && fen.contains("e4:3"), "{fen}");
    assert_eq!(saved_and_resumed(&mut e, "vampire-chess.ron", &file), fen);
    // A data preset's facts, through the FEN alone: a game set up from it plays on alike.
    let mut v = variants::builtin("chess").unwrap();
    v.presets = vec![PresetRequest { id: "piece-hp-data".into(), sides: [true, true], ..Default::default() }];
    let mut a = new_game(v.clone(), "startpos").unwrap();
    for m in ["e2e4", "d7d5", "e4d5"] {
        a.play_uci(m).unwrap();
    }
    let mut b = new_game(v, &a.fen()).unwrap();
    assert_eq!(b.fen(), a.fen());
    a.play_uci("d5e4").unwrap();
    b.play_uci("d5e4").unwrap();
    assert_eq!(b.fen(), a.fen(), "the pawn on d5 had one hit point left in both");
}

/// The computer's evaluation weighs declared facts as it weighs the Rust presets' hit points
/// and shields: the same position scores the same under each data preset and its oracle, and
/// a wound counts.
#[test]
fn the_computer_weighs_declared_facts_as_the_rust_ones() {
    use chimera::ai::eval::{Evaluator, FactQueries};
    for (rust, data) in [("piece-hp", "piece-hp-data"), ("piece-shield", "piece-shield-data")] {
        let mut scores = Vec::new();
        for id in [rust, data] {
            let mut v = variants::builtin("chess").unwrap();
            v.presets = vec![PresetRequest { id: id.into(), sides: [true, true], ..Default::default() }];
            let mut e = new_game(v.clone(), "startpos").unwrap();
            let eval = Evaluator::new(&v);
            let start = {
                let w = e.world_mut();
                let mut facts = FactQueries::new(w);
                assert!(facts.is_some(), "{id}: the evaluation reads its facts");
                eval.evaluate(w, facts.as_mut())
            };
            // White's pawn strikes d5, which lives on, hurt; black to move.
            for m in ["e2e4", "d7d5", "e4d5"] {
                e.play_uci(m).unwrap();
            }
            let w = e.world_mut();
            let mut facts = FactQueries::new(w);
            let (with, without) = (eval.evaluate(w, facts.as_mut()), eval.evaluate(w, None));
            assert!(with < without, "{id}: black's hurt pawn counts against black ({with} against {without})");
            scores.push((start, with));
        }
        assert_eq!(scores[0], scores[1], "{rust} and {data} score alike");
    }
}
