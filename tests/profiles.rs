//! Modifier profiles (`modifier-profiles-adr.md`): a test per decision — the wrap order shown by
//! move sets, each stacking formula, precedence, orphaned entries, swaps at the turn boundary,
//! hit-point reconciliation, each validator code with atomic rejection, and the round trips.

use chimera::modifiers::{
    E_PROFILE_ATTR_LIMIT, E_PROFILE_DEADLOCK, E_PROFILE_INVULN_KING, E_PROFILE_NO_KING, E_PROFILE_ORPHAN_INSTANCE, ModifierRegistry,
    Profile, ProfileProblem,
};
use chimera::presets::{Activation, ActiveProfile, Hp, PendingSwap, apply_profile, request_swap, resolved_of, set_active_presets};
use chimera::rules::{Board, Engine, position_hash};
use chimera::variants::builtin;

fn engine(variant: &str, fen: &str) -> Engine {
    Engine::from_fen(builtin(variant).expect("built-in variant"), fen).expect("FEN reads")
}

fn profile(text: &str) -> Profile {
    Profile::from_ron(text).unwrap_or_else(|e| panic!("{e}"))
}

fn apply(e: &mut Engine, text: &str) -> Vec<ProfileProblem> {
    apply_profile(e.world_mut(), Some(&profile(text))).unwrap_or_else(|p| panic!("{p:?}"))
}

fn presets(e: &mut Engine, ids: &[&'static str]) {
    set_active_presets(e.world_mut(), ids.iter().map(|&id| Activation::of(id)).collect()).expect("presets activate");
}

/// The destinations of the legal moves from `from`, sorted (promotions as `e8=n`).
fn moves_from(e: &mut Engine, from: &str) -> Vec<String> {
    let mut out: Vec<String> = e
        .legal_moves()
        .iter()
        .map(|m| e.to_uci(m))
        .filter(|u| u.starts_with(from))
        .map(|u| match u.len() {
            5 => format!("{}={}", &u[2..4], &u[4..]),
            _ => u[2..].to_string(),
        })
        .collect();
    out.sort();
    out
}

fn piece_on(e: &Engine, sq: &str) -> bevy::prelude::Entity {
    let sq = e.variant().geometry.parse_square(sq).unwrap();
    e.world().resource::<Board>().entity(sq).expect("a piece there")
}

/// Loads a variant file's text as `chimera --variant` would (through a file).
fn load_text(name: &str, text: &str) -> Result<chimera::rules::Variant, chimera::variants::LoadError> {
    let dir = std::env::temp_dir().join(format!("chimera-profiles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let path = dir.join(format!("{name}.ron"));
    std::fs::write(&path, text).expect("temp file");
    let loaded = chimera::variants::load_path(&path);
    let _ = std::fs::remove_file(&path);
    loaded
}

fn codes(problems: &[ProfileProblem]) -> Vec<&'static str> {
    problems.iter().map(|p| p.code).collect()
}

#[test]
fn the_registry_lists_six_self_describing_kinds() {
    let r = ModifierRegistry::builtin();
    let ids: Vec<&str> = r.list().iter().map(|d| d.id).collect();
    assert_eq!(ids, ["hp-bonus", "range-bonus", "direction-additions", "capture-flags", "promotion-override", "damage-resistance"]);
    for d in r.list() {
        assert!(!d.label.is_empty() && !d.attr_name.is_empty() && !d.ui_form.is_empty(), "{}", d.id);
    }
    assert!(r.has("hp-bonus") && !r.has("flying"));
    let mut again = ModifierRegistry::new();
    again.register(&chimera::modifiers::HP_BONUS).unwrap();
    assert!(again.register(&chimera::modifiers::HP_BONUS).is_err(), "an id registers once");
    assert_eq!(
        (chimera::modifiers::CAPTURE_FLAGS.describe)(&chimera::modifiers::Value::List(vec!["CANNOT_CAPTURE".into()])),
        "cannot capture"
    );
}

#[test]
fn added_directions_wrap_outside_a_preset_that_adds_double_leaps() {
    // A knight on d4 with a wazir step added, under knights-leap-twice: the double leaps are the
    // preset's, the wazir steps the profile's, and the preset does not double the steps.
    let fen = "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1";
    let mut plain = engine("chess", fen);
    presets(&mut plain, &["knights-leap-twice"]);
    let before = moves_from(&mut plain, "d4");
    let mut e = engine("chess", fen);
    presets(&mut e, &["knights-leap-twice"]);
    apply(&mut e, r#"(id: "t", types: {"N": {"direction-additions": "W"}})"#);
    let after = moves_from(&mut e, "d4");
    let mut want = before.clone();
    want.extend(["c4", "d3", "d5", "e4"].map(String::from));
    want.sort();
    want.dedup();
    assert_eq!(after, want, "the union of the chain's moves and the added steps");
    // Written out: the 8 leaps, the double leaps to every square two leaps reach, the 4 steps.
    let written: Vec<&str> = vec![
        "a1", "a3", "a5", "a7", "b3", "b4", "b5", "b8", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "d2", "d3", "d5", "d6", "d8", "e2", "e3",
        "e4", "e5", "e6", "e7", "f3", "f4", "f5", "f8", "g1", "g3", "g5", "g7", "h2", "h4", "h6",
    ];
    assert_eq!(after, written);
    // The same profile and presets give the same set whatever else: the order is the profile's.
    let mut again = engine("chess", fen);
    apply(&mut again, r#"(id: "t", types: {"N": {"direction-additions": "W"}})"#);
    presets(&mut again, &["knights-leap-twice"]);
    assert_eq!(moves_from(&mut again, "d4"), written, "activating the preset after the profile changes nothing");
}

#[test]
fn a_range_bonus_lengthens_the_override_not_the_type() {
    // Berolina pawns (the preset overrides the pawn's moves, declaring them as mfFcfWimfnA):
    // +1 range makes the double diagonal step a triple one; the pawn's own straight double
    // step (ifmnD) is not used, so no e5.
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let mut e = engine("chess", fen);
    presets(&mut e, &["berolina-pawns"]);
    assert_eq!(moves_from(&mut e, "e2"), ["c4", "d3", "f3", "g4"]);
    apply(&mut e, r#"(id: "t", types: {"P": {"range-bonus": 1}})"#);
    assert_eq!(moves_from(&mut e, "e2"), ["b5", "c4", "d3", "f3", "g4", "h5"]);
    // Without berolina the straight double step grows: e3 e4 e5.
    let mut plain = engine("chess", fen);
    apply(&mut plain, r#"(id: "t", types: {"P": {"range-bonus": 1}})"#);
    assert_eq!(moves_from(&mut plain, "e2"), ["e3", "e4", "e5"]);
    // A lengthened slide stops at the first piece (a blocker on e4: nothing beyond it).
    let mut blocked = engine("chess", "4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1");
    apply(&mut blocked, r#"(id: "t", types: {"P": {"range-bonus": 1}})"#);
    assert_eq!(moves_from(&mut blocked, "e2"), ["e3"]);
}

#[test]
fn added_moves_give_check() {
    // A rook that also steps diagonally attacks e7 from d6: the king on e8 may not go to e7.
    let mut e = engine("chess", "4k3/8/3R4/8/8/8/8/4K3 b - - 0 1");
    assert!(moves_from(&mut e, "e8").contains(&"e7".to_string()));
    apply(&mut e, r#"(id: "t", types: {"R": {"direction-additions": "F"}})"#);
    assert!(!moves_from(&mut e, "e8").contains(&"e7".to_string()), "{:?}", moves_from(&mut e, "e8"));
    // A piece that cannot capture gives no check.
    let mut e = engine("chess", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1");
    apply(&mut e, r#"(id: "t", types: {"white:R": {"capture-flags": ["CANNOT_CAPTURE"]}})"#);
    assert!(moves_from(&mut e, "e8").contains(&"d8".to_string()));
}

#[test]
fn each_stacking_rule() {
    let mut e = engine("chess", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    apply(
        &mut e,
        r#"(id: "t", types: {"R": {"hp-bonus": 2, "range-bonus": 5, "direction-additions": "F", "capture-flags": ["CANNOT_CAPTURE"],
                                  "promotion-override": "QR", "damage-resistance": 0.5}},
            instances: {"a1": {"hp-bonus": 3, "range-bonus": 5, "direction-additions": "FW", "capture-flags": ["CANNOT_BE_CAPTURED"],
                               "promotion-override": "N", "damage-resistance": 0.5}})"#,
    );
    let a1 = resolved_of(e.world(), piece_on(&e, "a1")).unwrap();
    let h1 = resolved_of(e.world(), piece_on(&e, "h1")).unwrap();
    assert_eq!((a1.hp_bonus, h1.hp_bonus), (5, 2), "additive");
    assert_eq!((a1.range_bonus, h1.range_bonus), (7, 5), "additive, clamped to 7 on 8×8");
    assert_eq!((a1.added.len(), h1.added.len()), (8, 4), "union: F ∪ FW");
    assert_eq!((a1.capture, h1.capture), (3, 2), "flags OR'd");
    let letters =
        |m: &chimera::modifiers::Mods| m.promotion.clone().unwrap().iter().map(|&k| e.variant().registry.def(k).letter).collect::<String>();
    assert_eq!((letters(&a1), letters(&h1)), ("N".to_string(), "QR".to_string()), "precedence: the instance wins");
    assert_eq!((a1.resistance_milli(), h1.resistance_milli()), (750, 500), "1 − (1 − ½)(1 − ½)");
    // On a 10-wide board the range bonus is clamped to 9.
    let mut wide = engine("capablanca", "startpos");
    apply(&mut wide, r#"(id: "t", types: {"R": {"range-bonus": 12}})"#);
    assert_eq!(resolved_of(wide.world(), piece_on(&wide, "a1")).unwrap().range_bonus, 9);
}

#[test]
fn promotion_override_by_precedence_in_the_moves() {
    let mut e = engine("chess", "4k3/PP6/8/8/8/8/8/4K3 w - - 0 1");
    apply(&mut e, r#"(id: "t", types: {"P": {"promotion-override": "R"}}, instances: {"b7": {"promotion-override": "NB"}})"#);
    assert_eq!(moves_from(&mut e, "a7"), ["a8=r"]);
    assert_eq!(moves_from(&mut e, "b7"), ["b8=b", "b8=n"]);
}

#[test]
fn per_instance_entries_follow_the_piece_and_end_with_its_capture() {
    let mut e = engine("chess", "startpos");
    apply(&mut e, r#"(id: "t", layout: Some("chess"), instances: {"g1": {"direction-additions": "W"}})"#);
    let knight = piece_on(&e, "g1");
    assert_eq!(moves_from(&mut e, "g1"), ["f3", "h3"], "the steps from g1 are all blocked");
    e.play_uci("g1f3").unwrap();
    e.play_uci("e7e5").unwrap();
    assert!(moves_from(&mut e, "f3").contains(&"f4".to_string()), "the mark moved with the knight");
    assert!(resolved_of(e.world(), knight).unwrap().added.len() == 4);
    // The knight is captured: its entry ends.
    e.play_uci("f3e5").unwrap();
    e.play_uci("d7d6").unwrap();
    e.play_uci("e5f7").unwrap();
    e.play_uci("e8f7").unwrap();
    assert!(!e.world().resource::<Board>().bound.iter().any(|(b, _)| *b == knight));
    // Undo brings the binding back.
    e.undo();
    assert!(e.world().resource::<Board>().bound.iter().any(|(b, _)| *b == knight));
}

#[test]
fn orphaned_instances_are_dropped_with_a_warning() {
    // A square without a piece at the start.
    let mut e = engine("chess", "startpos");
    let w = apply(&mut e, r#"(id: "t", instances: {"e4": {"hp-bonus": 1}, "b1": {"hp-bonus": 1}})"#);
    assert_eq!(codes(&w), [E_PROFILE_ORPHAN_INSTANCE]);
    assert!(w[0].message.contains("e4"), "{w:?}");
    assert_eq!(e.world().resource::<Board>().bound.len(), 1);
    // Another layout: every per-instance entry is dropped, the per-type ones kept.
    let mut c = engine("capablanca", "startpos");
    let w = apply(
        &mut c,
        r#"(id: "t", layout: Some("chess"), types: {"R": {"hp-bonus": 1}}, instances: {"b1": {"hp-bonus": 1}, "c1": {"hp-bonus": 1}})"#,
    );
    assert_eq!(codes(&w), [E_PROFILE_ORPHAN_INSTANCE, E_PROFILE_ORPHAN_INSTANCE]);
    assert!(c.world().resource::<Board>().bound.is_empty());
    assert_eq!(resolved_of(c.world(), piece_on(&c, "a1")).unwrap().hp_bonus, 1);
}

#[test]
fn a_swap_waits_for_the_turn_boundary_and_undo_takes_it_back() {
    let mut e = engine("chess", "startpos");
    let h0 = position_hash(e.world_mut());
    request_swap(e.world_mut(), Some(profile(r#"(id: "wide", types: {"N": {"direction-additions": "W"}})"#))).unwrap();
    assert!(e.world().get_resource::<ActiveProfile>().is_none(), "not before the boundary");
    let h_pending = position_hash(e.world_mut());
    assert_ne!(h_pending, h0, "a pending swap is in the hash");
    e.play_uci("e2e4").unwrap();
    let history = e.world().resource::<chimera::rules::History>().0.clone();
    assert_eq!(history.first(), Some(&h_pending), "the swap inside the move leaves the earlier position's hash alone");
    assert_eq!(history.last(), Some(&position_hash(e.world_mut())), "the move's hash is that of the new profile");
    assert!(e.world().get_resource::<ActiveProfile>().is_some(), "applied when the turn passed");
    assert!(e.world().get_resource::<PendingSwap>().is_none_or(|p| p.0.is_none()));
    let log = &e.world().resource::<chimera::rules::MoveLog>().0;
    assert!(log.last().unwrap().effects.iter().any(|x| x == "profile: wide"), "{:?}", log.last());
    e.undo();
    assert!(e.world().get_resource::<ActiveProfile>().is_none(), "taking back the move takes back the swap");
    assert!(e.world().get_resource::<PendingSwap>().is_some_and(|p| p.0.is_some()), "and queues it again");
    assert_eq!(position_hash(e.world_mut()), {
        let mut f = engine("chess", "startpos");
        request_swap(f.world_mut(), Some(profile(r#"(id: "wide", types: {"N": {"direction-additions": "W"}})"#))).unwrap();
        position_hash(f.world_mut())
    });
    // Under double-move the first half does not pass the turn: the swap waits for the second.
    let mut d = engine("chess", "startpos");
    presets(&mut d, &["double-move"]);
    request_swap(d.world_mut(), Some(profile(r#"(id: "wide", types: {"N": {"direction-additions": "W"}})"#))).unwrap();
    d.play_uci("e2e4").unwrap();
    assert!(d.world().get_resource::<ActiveProfile>().is_none(), "not between the halves of a double move");
    d.play_uci("d2d4").unwrap();
    assert!(d.world().get_resource::<ActiveProfile>().is_some());
}

#[test]
fn hit_points_after_a_swap_never_grow() {
    let mut e = engine("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    presets(&mut e, &["piece-hp"]);
    apply(&mut e, r#"(id: "a", types: {"R": {"hp-bonus": 3}})"#);
    let rook = piece_on(&e, "a1");
    assert_eq!(e.world().get::<Hp>(rook), Some(&Hp(5)), "piece-hp's 2 + 3");
    e.world_mut().entity_mut(rook).insert(Hp(4));
    request_swap(e.world_mut(), Some(profile(r#"(id: "b", types: {"R": {"hp-bonus": 1}})"#))).unwrap();
    e.play_uci("e1e2").unwrap();
    assert_eq!(e.world().get::<Hp>(rook), Some(&Hp(3)), "the most is now 3: min(4, 3)");
    e.play_uci("e8e7").unwrap();
    request_swap(e.world_mut(), Some(profile(r#"(id: "c", types: {"R": {"hp-bonus": 5}})"#))).unwrap();
    e.play_uci("e2e3").unwrap();
    assert_eq!(e.world().get::<Hp>(rook), Some(&Hp(3)), "a higher most does not heal");
    e.undo();
    e.undo();
    e.undo();
    assert_eq!(e.world().get::<Hp>(rook), Some(&Hp(4)), "undo restores the hit points");
}

#[test]
fn hit_point_bonus_without_piece_hp_and_resistance_with_carry() {
    // A rook with one extra hit point survives the first capture; the capturer stays.
    let mut e = engine("chess", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1");
    apply(&mut e, r#"(id: "t", types: {"white:R": {"hp-bonus": 1}})"#);
    let rook = piece_on(&e, "a1");
    assert_eq!(e.world().get::<Hp>(rook), Some(&Hp(2)));
    e.play_uci("a2a1").unwrap();
    assert_eq!(e.world().get::<Hp>(rook), Some(&Hp(1)));
    assert!(e.fen().starts_with("4k3/8/8/8/8/8/r7/R3K3 w"), "{}", e.fen());
    // Half of each hit resisted: the first hit deals floor(0.5) = 0 and carries 0.5, the second
    // deals floor(0.5 + 0.5) = 1.
    let mut r = engine("chess", "4k3/8/8/8/8/8/r7/R3K3 b - - 0 1");
    apply(&mut r, r#"(id: "t", types: {"white:R": {"damage-resistance": 0.5}})"#);
    let h = position_hash(r.world_mut());
    r.play_uci("a2a1").unwrap();
    assert!(r.fen().starts_with("4k3/8/8/8/8/8/r7/R3K3 w"), "resisted: {}", r.fen());
    assert_eq!(r.world().get::<chimera::presets::Carry>(piece_on(&r, "a1")), Some(&chimera::presets::Carry(500)));
    r.play_uci("e1d1").unwrap();
    let h_again = position_hash(r.world_mut());
    r.play_uci("a2a1").unwrap();
    assert!(r.fen().starts_with("4k3/8/8/8/8/8/8/r2K4 w"), "the second hit kills: {}", r.fen());
    r.undo();
    r.undo();
    r.undo();
    assert_eq!(position_hash(r.world_mut()), h, "the carry is in the hash and undone");
    assert_ne!(h, h_again);
}

#[test]
fn capture_flags_in_the_moves() {
    let mut b = engine("chess", "4k3/8/8/8/8/8/8/R1n1K3 w - - 0 1");
    apply(&mut b, r#"(id: "t", instances: {"c1": {"capture-flags": ["CANNOT_BE_CAPTURED"]}})"#);
    let want: Vec<String> = vec!["a2", "a3", "a4", "a5", "a6", "a7", "a8", "b1"].into_iter().map(String::from).collect();
    assert_eq!(moves_from(&mut b, "a1"), want, "no capture of the knight on c1");
}

#[test]
fn each_validator_code_rejects_atomically() {
    let check = |e: &mut Engine, text: &str, code: &str| {
        let fen = e.fen();
        let hash = position_hash(e.world_mut());
        let moves = e.legal_moves();
        let err = apply_profile(e.world_mut(), Some(&profile(text))).expect_err(code);
        assert!(codes(&err).contains(&code), "{err:?}");
        assert!(e.world().get_resource::<ActiveProfile>().is_none(), "{code}: nothing applied");
        assert_eq!((e.fen(), position_hash(e.world_mut()), e.legal_moves()), (fen, hash, moves), "{code}: nothing changed");
        let err = request_swap(e.world_mut(), Some(profile(text))).expect_err(code);
        assert!(codes(&err).contains(&code));
        assert!(e.world().get_resource::<PendingSwap>().is_none_or(|p| p.0.is_none()), "{code}: no swap queued");
    };
    check(&mut engine("chess", "startpos"), r#"(id: "t", types: {"K": {"capture-flags": ["CANNOT_BE_CAPTURED"]}})"#, E_PROFILE_INVULN_KING);
    // White's only move is Kxg2: a king that cannot capture has none.
    check(
        &mut engine("chess", "7k/8/8/8/8/8/6q1/7K w - - 0 1"),
        r#"(id: "t", types: {"K": {"capture-flags": ["CANNOT_CAPTURE"]}})"#,
        E_PROFILE_DEADLOCK,
    );
    check(&mut engine("chess", "startpos"), r#"(id: "t", types: {"N": {"direction-additions": "WFDAN"}})"#, E_PROFILE_ATTR_LIMIT);
    // Atomic: the black king exploded; black has no royal piece left.
    let mut a = engine("atomic", "4k3/4p3/8/8/8/8/8/4RK2 w - - 0 1");
    a.play_uci("e1e7").unwrap();
    check(&mut a, r#"(id: "t", types: {"R": {"hp-bonus": 1}})"#, E_PROFILE_NO_KING);
    // Horde: white has no royal piece, so a profile may apply there.
    let mut h = engine("horde", "startpos");
    assert!(apply_profile(h.world_mut(), Some(&profile(r#"(id: "t", types: {"P": {"hp-bonus": 1}})"#))).is_ok());
}

#[test]
fn a_profile_round_trips_through_its_file_and_a_variant_file() {
    for (id, text) in chimera::modifiers::BUILTIN {
        let p = profile(text);
        assert_eq!(&p.id, id);
        assert_eq!(Profile::from_ron(&p.to_ron()).unwrap(), p);
    }
    // A variant file naming a built-in profile starts its games with it.
    let ron = r#"(id: "sturdy", name: "Sturdy", extends: "chess", profile: "sturdy-rooks")"#;
    let v = load_text("sturdy", ron).expect("loads");
    let e = chimera::presets::new_game(v, "startpos").expect("starts");
    let rook = resolved_of(e.world(), piece_on(&e, "a1")).unwrap();
    assert_eq!((rook.hp_bonus, rook.added.len()), (2, 4));
    assert_eq!(e.world().get::<Hp>(piece_on(&e, "h8")), Some(&Hp(3)));
    assert_eq!(resolved_of(e.world(), piece_on(&e, "b1")).unwrap().capture, chimera::modifiers::CANNOT_BE_CAPTURED);
    // A bad entry is a problem of the file, with its code.
    let bad = r#"(id: "bad", name: "Bad", extends: "chess", profile: (id: "x", types: {"Z": {"hp-bonus": 1}}))"#;
    let err = format!("{:?}", load_text("bad", bad).unwrap_err());
    assert!(err.contains("E_PROFILE_ENTRY") || err.contains("no piece type 'Z'"), "{err}");
}

#[test]
fn a_profile_game_round_trips_through_its_fen() {
    let text =
        r#"(id: "t", types: {"B": {"damage-resistance": 0.5}, "R": {"hp-bonus": 1}}, instances: {"g1": {"direction-additions": "W"}})"#;
    let mut v = builtin("chess").unwrap();
    v.profile = Some(profile(text).to_ron());
    let mut e = chimera::presets::new_game(v.clone(), "startpos").expect("starts");
    for m in ["g1f3", "e7e5", "f3e5", "b7b6", "e5c6", "c8a6", "e2e3", "a6f1", "c6d4", "h7h6"] {
        e.play_uci(m).unwrap_or_else(|err| panic!("{m}: {err}"));
    }
    // The knight from g1 is on d4; the bishop on f1 was hit once and resisted half of it (it
    // stays, and carries 500 to the next hit; the attacker stayed on a6).
    let fen = e.fen();
    assert!(fen.contains("bound=d4:g1") && fen.contains("Carry=f1:500"), "{fen}");
    let mut back = chimera::presets::new_game(v, &fen).unwrap_or_else(|err| panic!("{fen}: {err}"));
    assert_eq!(back.fen(), fen);
    assert_eq!(position_hash(back.world_mut()), position_hash(e.world_mut()), "the same position, the same hash");
    assert_eq!(moves_from(&mut back, "d4"), moves_from(&mut e, "d4"));
    assert!(moves_from(&mut back, "d4").contains(&"d3".to_string()), "the wazir step came back with the binding");
}

#[test]
fn a_saved_game_carries_its_profile() {
    let mut v = builtin("chess").unwrap();
    v.profile = Some(chimera::modifiers::builtin("sturdy-rooks").unwrap().to_ron());
    let mut e = chimera::presets::new_game(v, "startpos").expect("starts");
    for m in ["a2a4", "h7h5", "a1a3", "h8h6", "a3b4"] {
        e.play_uci(m).unwrap_or_else(|err| panic!("{m}: {err}"));
    }
    let fen = e.fen();
    let text = chimera::pgn::write_pgn(e.world_mut(), "chess", &[], &fen_start(), "2026.11.25", &chimera::pgn::player_names([None, None]));
    assert!(text.contains("[Profile \"(id:\\\"sturdy-rooks\\\""), "{text}");
    let game = chimera::pgn::parse_pgn(&text).unwrap();
    let (mut back, _, _) = chimera::pgn::replay(&game).unwrap_or_else(|err| panic!("{err}\n{text}"));
    assert_eq!(back.fen(), fen, "a3b4 is the rook's added diagonal step: it replays only with the profile");
    assert_eq!(position_hash(back.world_mut()), position_hash(e.world_mut()));
    // A swap mid-game is saved with the move at whose end it applied, and replayed.
    request_swap(e.world_mut(), Some(chimera::modifiers::builtin("long-stride").unwrap())).unwrap();
    for m in ["h6e6", "b1c3", "e6e5", "c3c4"] {
        e.play_uci(m).unwrap_or_else(|err| panic!("{m}: {err}"));
    }
    // c3c4 is a knight's wazir step, legal only under the swapped-in profile; the rooks lost
    // their extra hit points with the swap.
    assert!(e.world().get::<Hp>(piece_on(&e, "b4")).is_none());
    let text = chimera::pgn::write_pgn(e.world_mut(), "chess", &[], &fen_start(), "2026.11.25", &chimera::pgn::player_names([None, None]));
    assert!(text.contains("[ProfileSwap \"6 (id:\\\"long-stride\\\""), "{text}");
    let (mut again, _, _) = chimera::pgn::replay(&chimera::pgn::parse_pgn(&text).unwrap()).unwrap_or_else(|err| panic!("{err}\n{text}"));
    assert_eq!(again.fen(), e.fen());
    assert_eq!(position_hash(again.world_mut()), position_hash(e.world_mut()), "the replay swapped at the same move");
}

fn fen_start() -> String {
    Engine::new(builtin("chess").unwrap()).fen()
}
