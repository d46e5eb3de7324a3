//! Presets: activation rules, the damage pipeline and its composition, ordered by activation.

use chimera::presets::{Activation, Hp, PresetError, Scope, Shield, set_active_presets};
use chimera::rules::{Board, Engine, Side, Variant};

fn engine(fen: &str) -> Engine {
    Engine::from_fen(Variant::chess(), fen).unwrap()
}

fn piece_on(e: &Engine, sq: &str) -> bevy::prelude::Entity {
    let sq = e.variant().geometry.parse_square(sq).unwrap();
    e.world().resource::<Board>().entity(sq).expect("a piece there")
}

const CAPTURE: &str = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";

#[test]
fn unknown_and_duplicate_presets_are_refused_and_nothing_changes() {
    let mut e = engine(CAPTURE);
    let err = set_active_presets(e.world_mut(), vec![Activation::of("no-such-thing")]).unwrap_err();
    assert_eq!(err, PresetError::Unknown("no-such-thing".into()));
    let err = set_active_presets(e.world_mut(), vec![Activation::of("piece-hp"), Activation::of("piece-hp")]).unwrap_err();
    assert_eq!(err.to_string(), "'piece-hp' is listed twice");
    assert!(e.world().get::<Hp>(piece_on(&e, "e4")).is_none());
}

#[test]
fn hit_points_absorb_a_capture_and_the_attacker_stays() {
    let mut e = engine(CAPTURE);
    set_active_presets(e.world_mut(), vec![Activation::of("piece-hp")]).unwrap();
    let victim = piece_on(&e, "d5");
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.world().get::<Hp>(victim), Some(&Hp(1)));
    assert!(e.fen().starts_with("4k3/8/8/3p4/4P3/8/8/4K3 b"), "{}", e.fen());
    e.play_uci("e8e7").unwrap();
    e.play_uci("e4d5").unwrap();
    assert!(e.fen().starts_with("8/4k3/8/3P4/8/8/8/4K3 b"), "the second hit kills: {}", e.fen());
    // Undo puts the piece back with the hit points it had.
    e.undo();
    assert_eq!(e.world().get::<Hp>(victim), Some(&Hp(1)));
    e.undo();
    e.undo();
    assert_eq!(e.world().get::<Hp>(victim), Some(&Hp(2)));
    assert!(e.fen().starts_with("4k3/8/8/3p4/4P3/8/8/4K3 w"), "{}", e.fen());
}

#[test]
fn undo_restores_shields_and_hit_points() {
    let mut e = engine(CAPTURE);
    set_active_presets(e.world_mut(), vec![Activation::of("piece-shield"), Activation::of("piece-hp")]).unwrap();
    let victim = piece_on(&e, "d5");
    e.play_uci("e4d5").unwrap();
    e.play_uci("e8e7").unwrap();
    e.play_uci("e4d5").unwrap();
    assert_eq!((e.world().get::<Shield>(victim), e.world().get::<Hp>(victim)), (Some(&Shield(0)), Some(&Hp(1))));
    for _ in 0..3 {
        e.undo();
    }
    assert_eq!((e.world().get::<Shield>(victim), e.world().get::<Hp>(victim)), (Some(&Shield(1)), Some(&Hp(2))));
}

#[test]
fn first_activated_absorber_wins_and_reversing_the_order_reverses_it() {
    // Shield then HP: the shield takes the hit.
    let mut e = engine(CAPTURE);
    set_active_presets(e.world_mut(), vec![Activation::of("piece-shield"), Activation::of("piece-hp")]).unwrap();
    let victim = piece_on(&e, "d5");
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.world().get::<Shield>(victim), Some(&Shield(0)));
    assert_eq!(e.world().get::<Hp>(victim), Some(&Hp(2)));
    // HP then shield: hit points take it and the shield is never reached.
    let mut e = engine(CAPTURE);
    set_active_presets(e.world_mut(), vec![Activation::of("piece-hp"), Activation::of("piece-shield")]).unwrap();
    let victim = piece_on(&e, "d5");
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.world().get::<Shield>(victim), Some(&Shield(1)));
    assert_eq!(e.world().get::<Hp>(victim), Some(&Hp(1)));
}

#[test]
fn damage_hooks_are_scoped_by_the_target_side() {
    // Hit points for white only: a black piece captured dies at once.
    let mut e = engine(CAPTURE);
    let hp_white = Activation { scope: Scope::White, ..Activation::of("piece-hp") };
    set_active_presets(e.world_mut(), vec![hp_white]).unwrap();
    e.play_uci("e4d5").unwrap();
    assert!(e.fen().starts_with("4k3/8/8/3P4/8/8/8/4K3 b"), "{}", e.fen());
    assert!(Scope::White.covers(Side::White) && !Scope::White.covers(Side::Black));
}

#[test]
fn deactivating_removes_the_facts() {
    let mut e = engine(CAPTURE);
    set_active_presets(e.world_mut(), vec![Activation::of("piece-hp")]).unwrap();
    let p = piece_on(&e, "e4");
    assert!(e.world().get::<Hp>(p).is_some());
    set_active_presets(e.world_mut(), vec![]).unwrap();
    assert!(e.world().get::<Hp>(p).is_none());
    e.play_uci("e4d5").unwrap();
    assert!(e.fen().starts_with("4k3/8/8/3P4/8/8/8/4K3 b"), "plain chess again: {}", e.fen());
}

#[test]
fn capture_to_win_ends_the_game_on_the_first_capture() {
    let mut plain = engine(CAPTURE);
    plain.play_uci("e4d5").unwrap();
    assert_eq!(plain.outcome(), None);
    let mut e = engine(CAPTURE);
    set_active_presets(e.world_mut(), vec![Activation::of("capture-to-win")]).unwrap();
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
    assert!(e.legal_moves().is_empty());
}

#[test]
fn immune_knights_cannot_be_taken() {
    let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
    let mut plain = engine(fen);
    assert!(plain.parse_uci("e4d5").is_ok());
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("knight-immunity")]).unwrap();
    assert!(e.parse_uci("e4d5").is_err());
    // Scoped to white's knights, black's knight can be taken again.
    let white_only = Activation { scope: Scope::White, ..Activation::of("knight-immunity") };
    set_active_presets(e.world_mut(), vec![white_only]).unwrap();
    assert!(e.parse_uci("e4d5").is_ok());
}

#[test]
fn suicide_chess_forces_captures_and_ignores_check() {
    // White is in check from the rook; in plain chess the pawn may not take d5.
    let fen = "4r2k/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let mut plain = engine(fen);
    assert!(plain.parse_uci("e4d5").is_err());
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("suicide-chess")]).unwrap();
    let moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).collect();
    assert_eq!(moves, ["e4d5"], "the only capture is compulsory, check does not matter");
}

#[test]
fn double_move_and_monster_rules() {
    let mut e = engine("startpos");
    set_active_presets(e.world_mut(), vec![Activation::of("monster-rules")]).unwrap();
    e.play_uci("e2e4").unwrap();
    assert_eq!(e.state().turn, Side::White);
    e.play_uci("d2d4").unwrap();
    e.play_uci("e7e5").unwrap();
    assert_eq!(e.state().turn, Side::White, "black plays one move");
    let err = set_active_presets(e.world_mut(), vec![Activation::of("monster-rules"), Activation::of("double-move")]).unwrap_err();
    assert_eq!(err, PresetError::Incompatible("monster-rules".into(), "double-move".into()));
    let mut e = engine("startpos");
    set_active_presets(e.world_mut(), vec![Activation::of("double-move")]).unwrap();
    for m in ["e2e4", "d2d4", "e7e5"] {
        e.play_uci(m).unwrap();
    }
    assert_eq!(e.state().turn, Side::Black, "black plays two moves too");
}

#[test]
fn coregal_makes_the_queen_royal() {
    // The bishop on b4 attacks the queen on d2: with coregal, white is in check.
    let fen = "4k3/8/8/8/1b6/8/3Q4/4K3 w - - 0 1";
    let mut plain = engine(fen);
    assert!(!plain.is_check());
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("coregal")]).unwrap();
    assert!(e.is_check());
    assert!(e.legal_moves().iter().all(|m| e.to_uci(m).starts_with("d2")));
}

#[test]
fn knightmate_rules_move_royalty_to_the_knights() {
    // The rook gives check to the king, which no longer matters; the knight is royal.
    let fen = "4k3/8/8/8/8/8/8/r3K1N1 w - - 0 1";
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("knightmate-rules")]).unwrap();
    assert!(!e.is_check());
    assert!(e.parse_uci("g1f3").is_ok());
    let mut plain = engine(fen);
    assert!(plain.parse_uci("g1f3").is_err(), "in chess the king must answer the check");
}

#[test]
fn capture_all_wins_by_taking_everything() {
    // Black's king is attacked by the rook: in chess it must leave the h-file.
    let fen = "7k/8/8/8/8/8/8/4K2R b - - 0 1";
    let mut plain = engine(fen);
    assert!(plain.parse_uci("h8h7").is_err());
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("capture-all")]).unwrap();
    e.play_uci("h8h7").unwrap();
    e.play_uci("h1h7").unwrap();
    assert_eq!(e.outcome().and_then(|o| o.winner), Some(Side::White));
}

#[test]
fn knights_leap_twice_adds_double_leaps() {
    let fen = "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1";
    let mut plain = engine(fen);
    assert!(plain.parse_uci("g1g5").is_err());
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("knights-leap-twice")]).unwrap();
    assert!(e.parse_uci("g1g5").is_ok(), "g1-f3-g5 or g1-h3-g5");
    assert!(e.parse_uci("g1f3").is_ok());
}

#[test]
fn berolina_pawns_move_diagonally_and_capture_straight() {
    let fen = "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1";
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("berolina-pawns")]).unwrap();
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with("d2")).collect();
    moves.sort();
    assert_eq!(moves, ["d2b4", "d2c3", "d2e3", "d2f4"]);
    // Straight ahead onto an enemy piece is a capture; a promotion is still offered.
    let mut e = engine("k2n4/3P4/8/8/8/8/8/4K3 w - - 0 1");
    set_active_presets(e.world_mut(), vec![Activation::of("berolina-pawns")]).unwrap();
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with("d7")).collect();
    moves.sort();
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(moves.contains(&"d7d8q".to_string()) && moves.contains(&"d7c8n".to_string()));
}

#[test]
fn berolina_pawns_promote_on_the_variants_own_promotion_squares() {
    // Troitzky's black pawns promote on the last square of their file: j5 on the j-file. A
    // Berolina pawn arriving there diagonally must promote (the soak once found one left
    // unpromoted there); h5 is no promotion square.
    let v = chimera::variants::builtin("troitzky").unwrap();
    let mut e = Engine::from_fen(v, "****k1****/**6**/*8*/*8*/8p1/10/*8*/*8*/**6**/****1K**** b - - 0 1").unwrap();
    set_active_presets(e.world_mut(), vec![Activation::of("berolina-pawns")]).unwrap();
    let mut moves: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with("i6")).collect();
    moves.sort();
    assert_eq!(moves, ["i6h5", "i6j5b", "i6j5n", "i6j5q", "i6j5r"]);
}

#[test]
fn overrides_are_scoped_by_the_piece_owner() {
    // Berolina pawns for black only: white's pawn still moves straight.
    let fen = "4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1";
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation { scope: Scope::Black, ..Activation::of("berolina-pawns") }]).unwrap();
    let mut white: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with("d2")).collect();
    white.sort();
    assert_eq!(white, ["d2d3", "d2d4"]);
    e.play_uci("e1e2").unwrap();
    let mut black: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with("d7")).collect();
    black.sort();
    assert_eq!(black, ["d7b5", "d7c6", "d7e6", "d7f5"]);
}

#[test]
fn exploding_rooks_blow_up_the_neighbourhood() {
    // Rxd5: the knight on d5 and the bishop on e6 go, the pawn on c4 of white too; the king on
    // e8 is two squares away; the rook itself is destroyed.
    let fen = "4k3/8/4b3/3n4/2P5/8/8/3RK3 w - - 0 1";
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("explosive-rook")]).unwrap();
    let before = e.fen();
    e.play_uci("d1d5").unwrap();
    assert_eq!(e.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    e.undo();
    assert_eq!(e.fen(), before);
    // With hit points the blast only wounds: the neighbours keep one hit point, and the rook
    // is destroyed all the same.
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation::of("explosive-rook"), Activation::of("piece-hp")]).unwrap();
    e.play_uci("d1d5").unwrap();
    // The FEN's trailing field carries the hit points.
    assert_eq!(e.fen(), "4k3/8/4b3/3n4/2P5/8/8/4K3 b - - 0 1 {Hp=e1:2,c4:1,d5:1,e6:1,e8:2}");
    let knight = piece_on(&e, "d5");
    assert_eq!(e.world().get::<Hp>(knight), Some(&Hp(1)));
}
