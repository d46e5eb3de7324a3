//! The canonical presets added for issue 4, each in a full game position where it changes
//! the outcome of a move compared with plain chess, plus the cannon through the registry.

use chimera::presets::{Activation, Hp, PresetState, Scope, Stamina, set_active_presets};
use chimera::rules::{Board, Engine, MoveError, Outcome, Reason, Side, Variant};
use chimera::variants::{builtin, builtin_file, compile};

fn engine(fen: &str) -> Engine {
    Engine::from_fen(Variant::chess(), fen).unwrap()
}

fn with(fen: &str, presets: &[&'static str]) -> Engine {
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), presets.iter().map(|&id| Activation::of(id)).collect()).unwrap();
    e
}

fn piece_on(e: &Engine, sq: &str) -> Option<bevy::prelude::Entity> {
    let sq = e.variant().geometry.parse_square(sq).unwrap();
    e.world().resource::<Board>().entity(sq)
}

fn placement(e: &mut Engine) -> String {
    e.fen().split(' ').take(2).collect::<Vec<_>>().join(" ")
}

fn ucis(e: &mut Engine) -> Vec<String> {
    let moves = e.legal_moves();
    let mut v: Vec<String> = moves.iter().map(|m| e.to_uci(m)).collect();
    v.sort();
    v
}

#[test]
fn a_wounded_king_heals_at_the_start_of_its_turn() {
    // White ignores the check (with hit points it may), and the rook hits the king.
    let fen = "4k3/4r3/8/8/8/8/P7/4K3 w - - 0 1";
    let mut hp_only = with(fen, &["piece-hp"]);
    let king = piece_on(&hp_only, "e1").unwrap();
    hp_only.play_uci("a2a3").unwrap();
    hp_only.play_uci("e7e1").unwrap();
    assert_eq!(hp_only.world().get::<Hp>(king), Some(&Hp(1)), "without healing the hit stays");

    let mut e = with(fen, &["piece-hp", "king-heals"]);
    let king = piece_on(&e, "e1").unwrap();
    e.play_uci("a2a3").unwrap();
    e.play_uci("e7e1").unwrap();
    assert_eq!(e.world().get::<Hp>(king), Some(&Hp(2)), "healed as white's turn starts");
    assert_eq!(e.move_log().0[1].effects, ["white king heals to 2 HP"]);
    e.undo();
    assert_eq!(e.world().get::<Hp>(king), Some(&Hp(2)));

    // Turn start is scoped by the side whose turn starts: healing for black only leaves
    // white's king wounded.
    let mut e = engine(fen);
    let black_heals = Activation { scope: Scope::Black, ..Activation::of("king-heals") };
    set_active_presets(e.world_mut(), vec![Activation::of("piece-hp"), black_heals]).unwrap();
    let king = piece_on(&e, "e1").unwrap();
    e.play_uci("a2a3").unwrap();
    e.play_uci("e7e1").unwrap();
    assert_eq!(e.world().get::<Hp>(king), Some(&Hp(1)));
}

#[test]
fn king_heals_requires_hit_points() {
    let mut e = engine("startpos");
    let err = set_active_presets(e.world_mut(), vec![Activation::of("king-heals")]).unwrap_err();
    assert_eq!(err.to_string(), "'king-heals' needs 'piece-hp' to be active too");
}

const QUEEN_TAKES: &str = "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1";

#[test]
fn a_capturing_queen_splits_into_rook_and_bishop() {
    let mut plain = engine(QUEEN_TAKES);
    plain.play_uci("d1d5").unwrap();
    assert_eq!(placement(&mut plain), "4k3/8/8/3Q4/8/8/8/4K3 b");

    let mut e = with(QUEEN_TAKES, &["queen-splits"]);
    let pieces_before = e.world_mut().query::<&chimera::rules::Piece>().iter(e.world()).count();
    e.play_uci("d1d5").unwrap();
    assert_eq!(placement(&mut e), "4k3/8/8/3R4/8/8/8/3BK3 b");
    let record = &e.move_log().0[0];
    assert_eq!(record.san.as_deref(), Some("Qxd5"));
    assert_eq!(record.effects, ["white queen split into a rook and a bishop"]);
    // Undo removes the two new pieces and brings back the queen and the pawn.
    e.undo();
    assert_eq!(placement(&mut e), "4k3/8/8/3p4/8/8/8/3QK3 w");
    assert_eq!(e.world_mut().query::<&chimera::rules::Piece>().iter(e.world()).count(), pieces_before);
}

#[test]
fn split_halves_get_hit_points_through_the_spawn_hook() {
    let mut e = with(QUEEN_TAKES, &["piece-hp", "queen-splits"]);
    e.play_uci("d1d5").unwrap();
    // The pawn survives the first hit: no split, the queen stays home.
    assert_eq!(placement(&mut e), "4k3/8/8/3p4/8/8/8/3QK3 b");
    e.play_uci("e8e7").unwrap();
    e.play_uci("d1d5").unwrap();
    assert_eq!(placement(&mut e), "8/4k3/8/3R4/8/8/8/3BK3 b");
    let rook = piece_on(&e, "d5").unwrap();
    let bishop = piece_on(&e, "d1").unwrap();
    assert_eq!((e.world().get::<Hp>(rook), e.world().get::<Hp>(bishop)), (Some(&Hp(2)), Some(&Hp(2))));
}

#[test]
fn poison_kills_a_piece_that_ends_its_move_in_the_centre() {
    let mut plain = engine("startpos");
    plain.play_uci("e2e4").unwrap();
    assert!(placement(&mut plain).starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));

    let mut e = with("startpos", &["poisoned-squares"]);
    let state = e.world().resource::<PresetState>();
    let g = e.world().resource::<chimera::rules::Rules>().0.geometry;
    let poisoned: Vec<String> = state.squares("poisoned-squares").iter().map(|sq| g.name(sq)).collect();
    assert_eq!(poisoned, ["d4", "e4", "d5", "e5"]);
    e.play_uci("e2e4").unwrap();
    assert_eq!(placement(&mut e), "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b");
    assert_eq!(e.move_log().0[0].effects, ["poison kills the piece on e4"]);
    e.play_uci("g8f6").unwrap();
    e.undo();
    e.undo();
    assert_eq!(placement(&mut e), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w");

    // With hit points the pawn only loses one.
    let mut e = with("startpos", &["piece-hp", "poisoned-squares"]);
    e.play_uci("e2e4").unwrap();
    let pawn = piece_on(&e, "e4").unwrap();
    assert_eq!(e.world().get::<Hp>(pawn), Some(&Hp(1)));

    // Kings are immune.
    let mut e = with("4k3/p7/8/8/8/4K3/8/8 w - - 0 1", &["poisoned-squares"]);
    e.play_uci("e3e4").unwrap();
    assert!(piece_on(&e, "e4").is_some());
    // Switching the preset off clears its state.
    set_active_presets(e.world_mut(), vec![]).unwrap();
    assert!(e.world().resource::<PresetState>().squares("poisoned-squares").is_empty());
}

#[test]
fn pieces_move_and_give_check_across_the_edge() {
    let rook = "4k3/8/8/8/8/8/8/4K2R w - - 0 1";
    assert!(!ucis(&mut engine(rook)).contains(&"h1a1".to_string()));
    let mut e = with(rook, &["wrap-board"]);
    let moves = ucis(&mut e);
    for m in ["h1a1", "h1b1", "h1c1", "h1d1"] {
        assert!(moves.contains(&m.to_string()), "{m} in {moves:?}");
    }
    // A knight on h3 leaps to b4 and g1 across the edge... and a pawn on a4 takes on h5.
    let mut e = with("4k3/8/8/7p/P7/7N/8/4K3 w - - 0 1", &["wrap-board"]);
    let moves = ucis(&mut e);
    assert!(moves.contains(&"h3b4".to_string()) && moves.contains(&"h3a1".to_string()) && moves.contains(&"a4h5".to_string()), "{moves:?}");

    // The rook on h1 checks the king on a1 across the edge; plain chess sees no check.
    let check = "4k3/8/8/8/8/8/8/K2N3r w - - 0 1";
    let mut plain = engine(check);
    assert!(!plain.is_check());
    let mut e = with(check, &["wrap-board"]);
    assert!(e.is_check());
    // b1 is attacked across the edge too; the king itself may step across and take the rook.
    assert_eq!(ucis(&mut e), ["a1a2", "a1b2", "a1h1"]);
}

#[test]
fn last_piece_standing_has_no_check_and_ends_by_annihilation() {
    let fen = "k7/8/8/8/8/8/8/KR6 b - - 0 1";
    assert!(engine(fen).parse_uci("a8b8").is_err(), "plain chess: the king may not step into check");
    let mut e = with(fen, &["last-piece-standing"]);
    e.play_uci("a8b8").unwrap();
    assert_eq!(e.outcome(), None);
    e.play_uci("b1b8").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::win(Side::White, Reason::Rule("last piece standing".into()))));
}

const TWO_KINGS: &str = "r3k3/8/8/8/8/8/8/3QK3 b - - 0 1";

#[test]
fn dual_kings_are_both_royal() {
    let mut start = with("startpos", &["dual-king"]);
    assert_eq!(placement(&mut start), "rnbkkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w");
    let mut plain = engine(TWO_KINGS);
    plain.play_uci("a8a1").unwrap();
    assert!(!plain.is_check() && plain.parse_uci("e1e2").is_ok(), "plain chess: only the queen is attacked");
    let mut e = with(TWO_KINGS, &["dual-king"]);
    e.play_uci("a8a1").unwrap();
    assert!(e.is_check());
    assert!(e.parse_uci("e1e2").is_err(), "leaving the d1 king attacked is illegal");
    // Switching off turns the second kings back into queens.
    set_active_presets(e.world_mut(), vec![]).unwrap();
    assert_eq!(placement(&mut e), "4k3/8/8/8/8/8/8/r2QK3 w");
}

#[test]
fn weak_dual_kings_may_lose_one_king() {
    let mut e = with(TWO_KINGS, &["weak-dual-king"]);
    e.play_uci("a8a1").unwrap();
    assert!(!e.is_check(), "with two kings neither is royal");
    e.play_uci("e1e2").unwrap();
    e.play_uci("a1d1").unwrap();
    assert_eq!(placement(&mut e), "4k3/8/8/8/8/8/4K3/3r4 w");
    assert_eq!(e.outcome(), None);
    // Now the last king is royal: it may not step next to... into the rook's file.
    assert!(e.parse_uci("e2d2").is_err());
}

/// Found by the soak (seed 18359552059553808011, Atomar): with blasts, a move that blows up
/// the last enemy royal piece is safe whatever else holds; a side with two kings under
/// weak-dual-king has no royal piece at all, and that was read as "blown up", so the other
/// side's lone king could walk into attack.
#[test]
fn a_lone_king_under_weak_dual_king_may_not_walk_into_attack_in_atomic() {
    // White has two kings (the queen is crowned; neither is royal); black's last king is royal.
    let fen = "8/8/3k4/R7/8/8/8/2RQK3 b - - 0 1";
    let mut e = Engine::from_fen(builtin("atomic").unwrap(), fen).unwrap();
    set_active_presets(e.world_mut(), vec![Activation::of("weak-dual-king")]).unwrap();
    let moves = ucis(&mut e);
    assert_eq!(moves, ["d6d7", "d6e6", "d6e7"], "the king may not walk into the rooks' attack");
}

/// Where the king is not royal (Atomar: no check), the king presets add no royalty: a lone
/// king may stand attacked, and the position after it loads.
#[test]
fn the_king_presets_keep_a_variant_without_check_without_check() {
    let fen = "8/8/3k4/R7/8/8/8/2RQK3 b - - 0 1";
    for preset in ["weak-dual-king", "dual-king"] {
        let mut v = builtin("atomar").unwrap();
        v.presets.push(chimera::rules::PresetRequest {
            id: preset.to_string(),
            sides: [true, true],
            turns: None,
            params: Default::default(),
        });
        let mut e = chimera::presets::new_game(v.clone(), fen).unwrap();
        assert!(ucis(&mut e).contains(&"d6d5".to_string()), "{preset}: Atomar has no check");
        e.play_uci("d6d5").unwrap();
        let after = e.fen();
        chimera::presets::new_game(v, &after).unwrap_or_else(|err| panic!("{preset}: {after} does not load: {err}"));
    }
}

/// Found by long-checks' soak (seed 1796030061, Atomar with knightmate rules and suicide chess
/// for Black): a blast took Black's last knight, its last royal piece under knightmate rules,
/// and play went on, while the position written loaded as the game's end. The variant's own
/// extinction rule names its kings; the loss of presets' royal pieces is judged too.
#[test]
fn a_blast_that_takes_the_last_royal_knight_ends_the_game() {
    let mut v = builtin("atomar").unwrap();
    v.presets.push(chimera::rules::PresetRequest {
        id: "knightmate-rules".to_string(),
        sides: [false, true],
        turns: None,
        params: Default::default(),
    });
    let mut e = chimera::presets::new_game(v.clone(), "4k1n1/7p/8/8/8/8/8/4K2R w - - 0 1").unwrap();
    e.play_uci("h1h7").unwrap();
    assert_eq!(e.outcome().map(|o| o.winner), Some(Some(Side::White)), "the blast on h7 took the knight on g8");
    let after = e.fen();
    let mut again = chimera::presets::new_game(v, &after).unwrap();
    assert_eq!(again.fen(), after, "the position written loads as the same end");
}

#[test]
fn tired_pieces_cannot_move_and_rest_restores_them() {
    let mut e = with("startpos", &["stamina"]);
    let knight = piece_on(&e, "g1").unwrap();
    e.play_uci("g1f3").unwrap();
    assert_eq!(e.world().get::<Stamina>(knight), Some(&Stamina(1)));
    e.play_uci("b8c6").unwrap();
    assert_eq!(e.world().get::<Stamina>(knight), Some(&Stamina(2)), "regained one as white's turn started");
    e.play_uci("f3g5").unwrap();
    e.play_uci("c6b8").unwrap();
    let before = e.fen();
    // The tired knight has no legal move; played without asking, its move is cancelled.
    let square = |name: &str| e.variant().geometry.parse_square(name).unwrap();
    let (g5, f3) = (square("g5"), square("f3"));
    assert!(e.legal_moves().iter().all(|m| m.from != g5), "a tired piece has no legal move");
    match e.play_uci("g5f3") {
        Err(MoveError::Illegal { why, .. }) => assert!(why.contains("too tired"), "{why}"),
        other => panic!("expected an illegal move, got {other:?}"),
    }
    let tired = chimera::rules::Move {
        from: g5,
        to: f3,
        kind: chimera::rules::MoveKind::Normal,
        capture: false,
        promotion: None,
        gate: None,
        wall: None,
    };
    match e.apply_unchecked(tired).unwrap_err() {
        MoveError::Cancelled { preset, reason } => {
            assert_eq!(preset, "stamina");
            assert!(reason.contains("too tired"), "{reason}");
        }
        other => panic!("expected a cancelled move, got {other:?}"),
    }
    assert_eq!(e.fen(), before, "a cancelled move changes nothing");
    assert_eq!(e.world().get::<Stamina>(knight), Some(&Stamina(1)));
    // Other pieces still move; after a turn's rest the knight moves again.
    e.play_uci("e2e4").unwrap();
    e.play_uci("e7e5").unwrap();
    e.play_uci("g5f3").unwrap();
    // Kings never tire.
    let mut k = with("4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", &["stamina"]);
    for m in ["e1e2", "e8e7", "e2e1", "e7e8", "e1e2"] {
        k.play_uci(m).unwrap();
    }
    // Scope white: black's knight never tires.
    let mut e = engine("startpos");
    set_active_presets(e.world_mut(), vec![Activation { scope: Scope::White, ..Activation::of("stamina") }]).unwrap();
    for m in ["e2e4", "g8f6", "d2d4", "f6g4", "c2c3", "g4f6"] {
        e.play_uci(m).unwrap();
    }
}

/// A drop brings a rested piece: it is legal and played under any maximum (with a maximum
/// below a move's cost the drop was listed legal and then cancelled; found by the save test,
/// seed 8), and the dropped piece can move on its next turn.
#[test]
fn drops_bring_rested_pieces_under_stamina() {
    let mut v = chimera::variants::builtin("crazyhouse").unwrap();
    let max = [("max".to_string(), 1.0)].into();
    v.presets.push(chimera::rules::PresetRequest { id: "stamina".into(), params: max, sides: [true, true], turns: None });
    let mut e = chimera::presets::new_game(v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1").unwrap();
    e.play_uci("N@e4").unwrap();
    e.play_uci("N@e5").unwrap();
    let mut v = chimera::variants::builtin("crazyhouse").unwrap();
    v.presets.push(chimera::rules::PresetRequest { id: "stamina".into(), sides: [true, true], ..Default::default() });
    let mut e = chimera::presets::new_game(v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nn] w KQkq - 0 1").unwrap();
    e.play_uci("N@e4").unwrap();
    e.play_uci("N@e5").unwrap();
    e.play_uci("e4f6").unwrap();
}

#[test]
fn a_berserker_captures_again_before_the_turn_passes() {
    let fen = "4k3/8/8/3p4/8/3p4/8/3RK3 w - - 0 1";
    let mut plain = engine(fen);
    plain.play_uci("d1d3").unwrap();
    assert_eq!(plain.state().turn, Side::Black);

    let mut e = with(fen, &["berserker"]);
    e.play_uci("d1d3").unwrap();
    assert_eq!(e.state().turn, Side::White, "the rook goes berserk");
    assert_eq!(ucis(&mut e), ["d3d5"], "only a capture by the same piece");
    assert_eq!(e.move_log().0[0].effects, ["berserk: the capturer strikes again"]);
    assert!(e.world().resource::<PresetState>().piece("berserker", "raging-on").is_some());
    e.play_uci("d3d5").unwrap();
    assert_eq!(e.state().turn, Side::Black, "one extra capture per turn");
    assert_eq!(e.world().resource::<PresetState>().piece("berserker", "raging-on"), None);
    e.undo();
    e.undo();
    assert_eq!(e.fen(), fen, "undo restores the position and the rage");
    assert_eq!(e.world().resource::<PresetState>().piece("berserker", "raging-on"), None);
    // With nothing more to take the turn passes as usual.
    let mut e = with("4k3/8/8/8/8/3p4/8/3RK3 w - - 0 1", &["berserker"]);
    e.play_uci("d1d3").unwrap();
    assert_eq!(e.state().turn, Side::Black);
}

#[test]
fn the_code_cannon_gives_check_through_a_screen() {
    let xiangqi = builtin("xiangqi").unwrap();
    let mut e = Engine::from_fen(xiangqi, "4k4/9/9/9/4p4/9/9/5C3/9/3K5 w - - 0 1").unwrap();
    e.play_uci("f3e3").unwrap();
    assert!(e.is_check());
    assert_eq!(e.move_log().0[0].san.as_deref(), Some("Ce3+"));
    // The screen may not step forward (it would still be the only screen), e9 is still on
    // the line, and d10 would face the white general: f10 is the only way out.
    assert_eq!(ucis(&mut e), ["e10f10"]);
}

#[test]
fn the_code_cannon_moves_exactly_as_its_betza() {
    let code = builtin("xiangqi").unwrap();
    let mut file = builtin_file("xiangqi").unwrap();
    for p in file.pieces.iter_mut().flatten() {
        p.code = None;
    }
    let betza = compile(&file).unwrap();
    let mut a = Engine::from_fen(code, "startpos").unwrap();
    let mut b = Engine::from_fen(betza, "startpos").unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _game in 0..12 {
        for _ply in 0..80 {
            let (ma, mb) = (ucis(&mut a), ucis(&mut b));
            assert_eq!(ma, mb, "at {}", a.fen());
            assert_eq!(a.is_check(), b.is_check(), "at {}", a.fen());
            if ma.is_empty() || a.outcome().is_some() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let m = &ma[(seed % ma.len() as u64) as usize];
            a.play_uci(m).unwrap();
            b.play_uci(m).unwrap();
        }
        while a.undo().is_some() {
            b.undo();
        }
    }
}

/// Double-leap knights in New Zealand chess, whose knight takes like a rook: a double leap that
/// ends where the knight takes anyway is not listed twice (its SAN read as ambiguous between a
/// move and itself; found by the soak, seed 1795933606).
#[test]
fn a_double_leap_the_knight_has_anyway_is_listed_once() {
    let mut e = Engine::from_fen(builtin("newzealand").unwrap(), "startpos").unwrap();
    set_active_presets(e.world_mut(), vec![Activation::of("knights-leap-twice")]).unwrap();
    for m in ["h2h3", "g8f6", "b1a4", "f6e4"] {
        e.play_uci(m).unwrap();
    }
    let all = ucis(&mut e);
    let mut once = all.clone();
    once.dedup();
    assert_eq!(all, once, "a move listed twice");
    assert!(all.contains(&"a4e4".to_string()));
    e.play_san("Nxe4+").unwrap();
}
