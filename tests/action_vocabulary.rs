//! Rules as data (issue 34), the vocabulary beyond what the Rust presets re-express: the
//! events a move's kind or squares pick out (arriving in or leaving a region, check,
//! promotion, a drop), pieces appearing and leaving the board and the chains they make, the
//! turn's count; conditions on counts, hands, check, the move number, ranks, files and state;
//! and effects on hands and state. Each is shown by a scripted game that asserts what it does,
//! and undone.

use chimera::presets::new_game;
use chimera::rules::Engine;
use chimera::variants;

use crate::actions::{legal, problems, with_actions};

fn game(id: &str, written: &str, moves: &[&str]) -> Engine {
    let mut e = new_game(with_actions(id, written), "startpos").unwrap();
    for m in moves {
        e.play_uci(m).unwrap_or_else(|err| panic!("{m}: {err} in {}", e.fen()));
    }
    e
}

/// The state value `key` of the variant's own actions, as the FEN's state section writes it
/// (absent: 0).
fn state(e: &mut Engine, key: &str) -> i64 {
    let fen = e.fen();
    let needle = format!("actions/{key}:");
    fen.split(&needle).nth(1).map_or(0, |rest| rest.split(|c: char| !c.is_ascii_digit() && c != '-').next().unwrap().parse().unwrap())
}

#[test]
fn events_a_move_picks_out() {
    let written = r#"[
        (name: "in", when: Arrives("centre"), then: [AddState("arrivals", 1)]),
        (name: "out", when: Leaves("centre"), then: [AddState("departures", 1)]),
        (name: "check", when: Check, then: [AddState("checks", 1)]),
        (name: "ticks", when: Every(4), then: [AddState("ticks", 1)]),
    ] REGIONS {"centre": Squares(["d4", "e4", "d5", "e5"])}"#;
    // e4 arrives, and so does e5 (the region is the same squares for Black).
    let mut e = game("chess", written, &["e2e4", "e7e5"]);
    assert_eq!((state(&mut e, "arrivals"), state(&mut e, "departures")), (2, 0), "{}", e.fen());
    e.play_uci("g1f3").unwrap();
    e.play_uci("d7d6").unwrap();
    // Four half-moves: one tick, at the start of White's turn.
    assert_eq!(state(&mut e, "ticks"), 1, "{}", e.fen());
    e.play_uci("f3e5").unwrap(); // a knight captures into the centre
    assert_eq!(state(&mut e, "arrivals"), 3);
    e.play_uci("d6e5").unwrap(); // and is taken there
    assert_eq!(state(&mut e, "arrivals"), 4);
    e.play_uci("f1b5").unwrap(); // check
    assert_eq!(state(&mut e, "checks"), 1, "{}", e.fen());
    e.play_uci("c7c6").unwrap();
    e.play_uci("b5c6").unwrap();
    e.play_uci("b7c6").unwrap();
    assert_eq!(state(&mut e, "ticks"), 2);
    e.play_uci("d2d4").unwrap();
    e.play_uci("e5d4").unwrap(); // e5 → d4: within the centre, it leaves nothing
    assert_eq!((state(&mut e, "arrivals"), state(&mut e, "departures")), (6, 0), "{}", e.fen());
    e.play_uci("d1d4").unwrap();
    e.play_uci("d8d4").unwrap();
    e.play_uci("e1e2").unwrap();
    e.play_uci("d4a4").unwrap(); // the queen leaves the centre
    assert_eq!(state(&mut e, "departures"), 1, "{}", e.fen());
    // All of it is undone with the moves.
    while e.undo().is_some() {}
    assert!(!e.fen().contains("state="), "{}", e.fen());

    // A promotion and a drop, each as an event.
    let written = r#"[
        (name: "under", when: Promotion, then: [Transform(Mover, "knight"), Note("always a knight")]),
        (name: "dropped", when: Drop, if: [Is(Mover, "pawn")], then: [AddState("pawn-drops", 1)]),
    ]"#;
    let mut e = new_game(with_actions("crazyhouse", written), "4k3/1P6/8/8/8/8/8/4K3[Pp] w - - 0 1").unwrap();
    e.play_uci("b7b8q").unwrap();
    assert!(e.fen().starts_with("1N~2k3/"), "a queen's promotion becomes a knight: {}", e.fen());
    e.play_uci("e8f7").unwrap();
    e.play_uci("P@e4").unwrap();
    assert_eq!(state(&mut e, "pawn-drops"), 1, "{}", e.fen());
    e.play_uci("p@e5").unwrap();
    assert_eq!(state(&mut e, "pawn-drops"), 2, "{}", e.fen());
}

#[test]
fn conditions_on_counts_hands_check_turns_ranks_files_and_state() {
    // Forbidden moves are not listed: the conditions are read move by move.
    let written = r#"[
        (name: "no-castling-early", when: Listing, if: [Castles, Turn(AtMost(7))], then: [Forbid]),
        (name: "a-file-rooks-stay", when: Listing, if: [Is(Mover, "rook"), File(Mover, Exactly(1))], then: [Forbid]),
        (name: "no-pawn-past-half", when: Listing, if: [Is(Mover, "pawn"), Rank(Mover, AtLeast(4))], then: [Forbid]),
    ]"#;
    let mut e = game("chess", written, &["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "a2a4", "a7a5"]);
    let moves = legal(&mut e);
    assert!(!moves.contains(&"e1h1".to_string()) && !moves.contains(&"e1g1".to_string()), "castling forbidden before move 8: {moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("a1")), "the a-file rook stays: {moves:?}");
    assert!(!moves.iter().any(|m| m.starts_with("e4") || m.starts_with("a4")), "pawns on their 4th rank stay: {moves:?}");
    assert!(moves.contains(&"h2h4".to_string()) && moves.contains(&"h1f1".to_string()), "{moves:?}");
    // Black's ranks count from Black's side.
    e.play_uci("h2h3").unwrap();
    let moves = legal(&mut e);
    assert!(!moves.iter().any(|m| m.starts_with("e5") || m.starts_with("a5")), "{moves:?}");
    for m in ["h7h6", "h3h4", "h6h5"] {
        e.play_uci(m).unwrap_or_else(|err| panic!("{m}: {err}"));
    }
    // Move 8 for white: castling is listed again.
    assert!(legal(&mut e).iter().any(|m| m == "e1h1" || m == "e1g1"), "{:?}", legal(&mut e));

    // Counts, check and state: checks are counted (state), and a move that leaves the other
    // side in check once two have been given wins; a side left without its queen while the
    // other keeps one loses.
    let written = r#"[
        (name: "count", when: Check, then: [AddState("checks", 1)]),
        (name: "two-checks", when: Result, if: [InCheck(Other), State("checks", AtLeast(2))], then: [Win(Mover, "two checks")]),
        (name: "queenless", when: Result, if: [Count(Other, ["queen"], Exactly(0)), Count(Mover, ["queen"], AtLeast(1))], then: [Win(Mover, "the queen is gone")]),
    ]"#;
    let mut e = game("chess", written, &["e2e4", "e7e5", "f1c4", "b8c6", "c4f7"]);
    assert_eq!(state(&mut e, "checks"), 1);
    assert_eq!(e.outcome(), None, "{}", e.fen());
    e.play_uci("e8f7").unwrap();
    e.play_uci("d1h5").unwrap(); // check again: the second
    let outcome = e.outcome().expect("two checks win");
    assert!(format!("{outcome:?}").contains("two checks"), "{outcome:?}");
    e.undo().unwrap();
    assert_eq!(e.outcome(), None);
    e.play_uci("g1f3").unwrap();
    assert_eq!((state(&mut e, "checks"), e.outcome()), (1, None));
    // A queen taken: the side left without one loses.
    let mut e = game("chess", written, &["e2e4", "e7e5", "d1h5", "b8c6", "h5f7"]);
    assert_eq!(e.outcome(), None);
    e.play_uci("e8f7").unwrap();
    let outcome = e.outcome().expect("the queen is gone");
    assert!(format!("{outcome:?}").contains("the queen is gone") && outcome.winner == Some(chimera::rules::Side::Black), "{outcome:?}");

    // Pieces in hand (Crazyhouse): a side with two or more pawns in hand may not drop
    // anything but a pawn.
    let written = r#"[
        (name: "pawns-first", when: Listing, if: [Drops, InHand(Mover, ["pawn"], AtLeast(2)), Not(Is(Mover, "pawn"))], then: [Forbid]),
    ]"#;
    let mut e = new_game(with_actions("crazyhouse", written), "4k3/8/8/8/8/8/8/4K3[PPNn] w - - 0 1").unwrap();
    let moves = legal(&mut e);
    assert!(moves.iter().any(|m| m.starts_with("P@")) && !moves.iter().any(|m| m.starts_with("N@")), "{moves:?}");
    e.play_uci("P@e4").unwrap();
    e.play_uci("n@e6").expect("black has no pawn in hand: its knight drops");
    assert!(legal(&mut e).iter().any(|m| m.starts_with("N@")), "one pawn left in hand: the knight may drop");
}

#[test]
fn effects_on_hands_and_pieces_appearing_and_leaving() {
    // A piece that captures goes back to its owner's hand (Crazyhouse): the captured piece
    // to the captor's hand, as usual; and a king's move puts a pawn from the hand where the
    // king stood.
    let written = r#"[
        (name: "hit-and-run", when: Moved, if: [Captures, Not(Royal(Mover))], then: [ToHand(Mover, Mover)]),
        (name: "guard", when: Moved, if: [Is(Mover, "king")], then: [FromHand("pawn", From)]),
    ]"#;
    let start = "4k3/8/3p4/8/4N3/8/8/4K3[P] w - - 0 1";
    let mut e = new_game(with_actions("crazyhouse", written), start).unwrap();
    e.play_uci("e1d1").unwrap();
    assert!(e.fen().starts_with("4k3/8/3p4/8/4N3/8/8/3KP3[] b"), "the pawn from the hand where the king stood: {}", e.fen());
    e.play_uci("e8e7").unwrap();
    e.play_uci("e4d6").unwrap();
    let fen = e.fen();
    let (board, rest) = fen.split_once('[').unwrap();
    assert_eq!(board, "8/4k3/8/8/8/8/8/3KP3", "the knight took and went back to the hand: {fen}");
    let hand = rest.split(']').next().unwrap();
    assert!(hand.contains('N') && hand.contains('P') && hand.len() == 2, "{fen}");
    e.play_uci("e7e6").unwrap();
    e.play_uci("N@d4").expect("the knight drops from the hand");
    while e.undo().is_some() {}
    assert!(e.fen().starts_with("4k3/8/3p4/8/4N3/8/8/4K3[P] w"), "{}", e.fen());

    // A pawn that captures leaves a pawn behind; a pawn that appears past its third rank is
    // counted (This: the piece that appeared).
    let written = r#"[
        (name: "sprout", when: Moved, if: [Captures, Is(Mover, "pawn")], then: [Spawn("pawn", From)]),
        (name: "born", when: Spawned, pieces: ["pawn"], if: [Rank(This, AtLeast(4))], then: [AddState("born", 1), Show(Spawn, This)]),
    ]"#;
    let mut e = game("chess", written, &["e2e4", "d7d5", "e4d5"]);
    assert!(e.fen().starts_with("rnbqkbnr/ppp1pppp/8/3P4/4P3/8/PPPP1PPP/RNBQKBNR b"), "{}", e.fen());
    assert_eq!(state(&mut e, "born"), 1, "{}", e.fen());
    e.play_uci("c7c6").unwrap();
    e.play_uci("d5c6").unwrap(); // from d5: the fifth rank
    assert_eq!(state(&mut e, "born"), 2, "{}", e.fen());
    e.undo().unwrap();
    e.undo().unwrap();
    e.undo().unwrap();
    assert_eq!(state(&mut e, "born"), 0, "{}", e.fen());
    assert!(e.fen().starts_with("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w"), "{}", e.fen());
}

#[test]
fn chains_of_pieces_leaving_stop_at_the_documented_depth() {
    // Pawn domino (`rule-examples/pawn-domino.ron`): a black pawn that leaves the board blasts
    // the squares round it, and the pawns there fall in turn, each one event deeper. Eight
    // files: the a-pawn's capture reaches the h-pawn at depth 7, within the limit.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rule-examples/pawn-domino.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let domino = |extends: &str| {
        let text = text.replace("extends: \"chess\"", &format!("extends: \"{extends}\""));
        let file = variants::resolve(variants::parse_variant_file(&text).unwrap(), &variants::builtin_file).unwrap();
        variants::compile(&file).unwrap()
    };
    let mut e = new_game(domino("chess"), "4k3/pppppppp/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    e.play_uci("a1a7").unwrap();
    assert!(e.fen().starts_with("4k3/R7/8/8/8/8/8/4K3 b"), "the whole row falls: {}", e.fen());
    e.undo().unwrap();
    assert!(e.fen().starts_with("4k3/pppppppp/8/8/8/8/8/R3K3 w"), "{}", e.fen());
    // Ten files (Capablanca): the i-pawn's fall is an event at depth 8, the limit: the move is
    // refused, taken back, and the player told why.
    let mut e = new_game(domino("capablanca"), "5k4/pppppppppp/10/10/10/10/10/R4K4 w - - 0 1").unwrap();
    let before = e.fen();
    assert!(!legal(&mut e).contains(&"a1a7".to_string()), "a move the limit refuses is not listed");
    let err = e.play_uci("a1a7").expect_err("a chain past the limit is refused");
    assert!(err.to_string().contains(&format!("more than {}", chimera::rules::CHAIN_LIMIT)), "{err}");
    let err = e.parse_san("Rxa7").expect_err("and so it is in SAN");
    assert!(err.to_string().contains("chained more than"), "{err}");
    assert_eq!(e.fen(), before, "nothing changed");
    // Starting from the e-pawn, the chain runs at most five deep each way: it is played.
    e.play_uci("a1a2").unwrap();
    e.play_uci("f8g8").unwrap();
    e.play_uci("a2e2").unwrap();
    e.play_uci("g8f8").unwrap();
    e.play_uci("e2e7").unwrap();
    assert!(e.fen().starts_with("5k4/4R5/"), "{}", e.fen());
    // The refused try leaves nothing behind: from a position where it was tried, another rook's
    // capture whose chain is shallow is played.
    let mut e = new_game(domino("capablanca"), "5k4/pppppppppp/10/10/10/10/10/R3RK4 w - - 0 1").unwrap();
    e.play_uci("a1a7").unwrap_err();
    e.play_uci("e1e7").expect("five deep at most");
    assert!(e.fen().starts_with("5k4/4R5/"), "{}", e.fen());
}

/// `sides` on a piece leaving: the action answers only pieces of that side.
#[test]
fn a_removal_answers_the_sides_it_names() {
    let written = r#"[(name: "mourn", when: Removed, sides: Black, then: [AddState("lost", 1)])]"#;
    let mut e = game("chess", written, &["e2e4", "d7d5", "e4d5"]);
    assert_eq!(state(&mut e, "lost"), 1, "a black pawn left: {}", e.fen());
    e.play_uci("d8d5").unwrap();
    assert_eq!(state(&mut e, "lost"), 1, "a white pawn left: not counted: {}", e.fen());
}

/// Pieces appearing while pieces appear (a spawn answered by a spawn) are announced in turn,
/// with their facts; a hook reading a piece that left still reads it after a spawn.
#[test]
fn spawns_inside_spawns_and_removals() {
    let written = r#"[
        (name: "blast", when: Capture, if: [Is(Victim, "pawn")], then: [TakeCapture, Remove(Victim), Remove(Mover)]),
        (name: "ghost", when: Removed, pieces: ["pawn"], if: [Side(This, Black)], then: [Spawn("knight", At(This))]),
        (name: "count-pawns", when: Removed, if: [Is(This, "pawn")], then: [AddState("pawns", 1)]),
        (name: "escort", when: Spawned, pieces: ["knight"], then: [Spawn("bishop", From)]),
        (name: "count-bishops", when: Spawned, pieces: ["bishop"], then: [AddState("bishops", 1)]),
    ]"#;
    let mut file = crate::actions::file_with_actions("chess", written);
    file.facts = Some(vec![chimera::editor::actions::new_fact(&[])]);
    let mut e = new_game(variants::compile(&file).unwrap(), "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    e.play_uci("a1a7").unwrap();
    let fen = e.fen();
    assert!(fen.starts_with("4k3/N7/8/8/8/8/8/B3K3 b"), "{fen}");
    assert_eq!((state(&mut e, "pawns"), state(&mut e, "bishops")), (1, 1), "{fen}");
    assert!(fen.contains("a1:2") && fen.contains("a7:2"), "the pieces that appeared have their hit points: {fen}");
    e.undo().unwrap();
    assert!(e.fen().starts_with("4k3/p7/8/8/8/8/8/R3K3 w"), "{}", e.fen());
}

#[test]
fn loops_that_can_be_seen_are_refused_and_state_names_checked() {
    let codes = |actions: &str| problems(actions, "format: 2,");
    // A piece that leaves leaves a pawn behind; a pawn that appears is removed: round and round.
    let looped = codes(
        r#"[(name: "ghost", when: Removed, then: [Spawn("pawn", At(This))]),
            (name: "gone", when: Spawned, pieces: ["pawn"], then: [Remove(This)])]"#,
    );
    assert!(looped.contains(&("E_ACTION_CYCLE".into(), "actions".into())), "{looped:?}");
    // A piece that leaves comes back from the hand and is sent off again: round and round.
    let returns = problems(
        r#"[(name: "return", when: Removed, pieces: ["knight"], then: [FromHand("knight", At(This)), ToHand(This, Mover)])]"#,
        "format: 2,",
    );
    assert!(returns.iter().any(|(c, _)| c == "E_ACTION_EFFECT"), "chess has no hands: {returns:?}");
    let text = r#"(id: "x", extends: "crazyhouse", name: "X", format: 2, actions: [
        (name: "return", when: Removed, pieces: ["knight"], then: [FromHand("knight", At(This)), ToHand(This, Mover)])])"#;
    let file = variants::resolve(variants::parse_variant_file(text).unwrap(), &variants::builtin_file).unwrap();
    let refused = variants::compile(&file).map(|_| ()).unwrap_err().to_string();
    assert!(refused.contains("E_ACTION_CYCLE") || refused.contains("appear and leave in a loop"), "{refused}");
    // Removals alone end (each takes a piece away): allowed.
    let domino = codes(r#"[(name: "domino", when: Removed, then: [Damage((at: This, around: 1, kind: Explosion))])]"#);
    assert!(domino.is_empty(), "{domino:?}");
    // State: well named, only its own changed, another preset's read only when it is in the game.
    let bad = codes(
        r#"[(name: "a", when: Moved, then: [AddState("no good", 1)]),
            (name: "b", when: Moved, then: [SetState("berserker/count", 1)]),
            (name: "c", when: Moved, if: [State("berserker/count", AtLeast(1))], then: [Note("x")])]"#,
    );
    for path in ["actions[0].then[0]", "actions[1].then[0]", "actions[2].if[0]"] {
        assert!(bad.contains(&("E_ACTION_STATE".into(), path.into())), "{path}: {bad:?}");
    }
    // No hands in chess.
    let hands = codes(r#"[(name: "a", when: Moved, then: [ToHand(Mover, Other)])]"#);
    assert!(hands.contains(&("E_ACTION_EFFECT".into(), "actions[0].then[0]".into())), "{hands:?}");
    // A declared `Hp` beside a profile that gives hit points (which carry `Hp` too) is
    // refused; beside one that gives none, it is fine.
    let with_profile = |profile: &str| {
        let text = format!(
            "(id: \"x\", extends: \"chess\", name: \"X\", format: 2, profile: {profile}, facts: [(name: \"Hp\", start: 2)], \
             actions: [(name: \"a\", when: Damaged, then: [Absorb(\"Hp\")])])"
        );
        let file = variants::resolve(variants::parse_variant_file(&text).unwrap(), &variants::builtin_file).unwrap();
        match variants::compile(&file) {
            Ok(_) => Vec::new(),
            Err(variants::LoadError::Invalid(ps)) => ps.into_iter().map(|p| p.code.to_string()).collect(),
            Err(e) => panic!("{e}"),
        }
    };
    assert_eq!(with_profile("\"sturdy-rooks\""), ["E_ACTION_FACT"]);
    assert_eq!(with_profile("\"long-stride\""), Vec::<String>::new());
    // `pieces` on a piece-appearing event names the types it answers; This is that piece.
    let fine = codes(r#"[(name: "a", when: Spawned, pieces: ["queen"], then: [Show(Sparkle, This)])]"#);
    assert!(fine.is_empty(), "{fine:?}");
}

/// Every event the editor's Actions section offers, with every condition and effect its
/// pickers offer for that event, as they come out of the picker, compiles without a problem,
/// in Crazyhouse (with hands) and in chess (without), each with a region and a fact declared
/// so that nothing is left out: the pickers and the loader agree. Each is also said in words.
#[test]
fn every_picker_value_compiles() {
    use chimera::editor::actions::{Vocabulary, condition_kinds, effect_kinds, events, new_action, new_fact, with_event};
    use chimera::variants::actions::EventSpec;
    let mut tried = 0;
    for (id, hands) in [("crazyhouse", true), ("chess", false)] {
        let mut file = variants::builtin_resolved(id).unwrap();
        file.format = Some(2);
        let regions = variants::parse_variant_file(r#"(id: "x", regions: {"centre": Squares(["d4", "e4", "d5", "e5"])})"#).unwrap().regions;
        file.regions.get_or_insert_with(Default::default).extend(regions.unwrap());
        file.facts = Some(vec![new_fact(&[])]);
        let v = Vocabulary {
            pieces: file.pieces.iter().flatten().map(|p| p.name.clone()).collect(),
            regions: vec!["centre".into()],
            facts: vec!["Hp".into()],
            hands,
        };
        for (event, _) in events(&v) {
            assert!(!chimera::editor::actions::event_words(&event).is_empty(), "{event:?}");
            let base = with_event(&new_action(&[]), event.clone(), &v);
            let mut cases = Vec::new();
            for (_, c) in condition_kinds(&event, &v) {
                cases.push(chimera::variants::actions::ActionSpec { conditions: vec![c], ..base.clone() });
            }
            for (_, x) in effect_kinds(&event, &v) {
                cases.push(chimera::variants::actions::ActionSpec { then: vec![x], ..base.clone() });
            }
            for a in cases {
                let mut f = file.clone();
                f.actions = Some(vec![a.clone()]);
                match variants::compile(&f) {
                    Ok(compiled) => {
                        if event != EventSpec::Royalty {
                            let words = chimera::rules::describe_action(&compiled, &compiled.actions[0]);
                            assert!(words.len() > 8, "{id}: {a:?}: {words}");
                        }
                    }
                    Err(e) => panic!("{id}: {a:?}: {e}"),
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 600, "{tried}");
}
