//! The position kernel: legality judged on the position the move really leaves, per-piece
//! movement seen by check detection, the royal set used everywhere, royal loss ending the game,
//! and damage for every removal. One regression test per failure the kernel issue names.

use chimera::presets::{Activation, Hp, new_game, set_active_presets};
use chimera::rules::{Board, Engine, PresetRequest, RulesWorld, Side, Square, Variant, mix, split_trailing};
use chimera::variants::builtin;

fn with_presets(variant: Variant, fen: &str, presets: &[(&str, &[(&str, f64)])]) -> Engine {
    let mut v = variant;
    v.presets = presets
        .iter()
        .map(|(id, params)| PresetRequest {
            id: id.to_string(),
            params: params.iter().map(|(k, x)| (k.to_string(), *x)).collect(),
            sides: [true, true],
            turns: None,
        })
        .collect();
    new_game(v, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn ucis(e: &mut Engine) -> Vec<String> {
    let moves = e.legal_moves();
    let mut v: Vec<String> = moves.iter().map(|m| e.to_uci(m)).collect();
    v.sort();
    v
}

#[test]
fn an_exploding_rook_may_not_open_a_line_to_its_own_king() {
    // The rook takes on e5 and explodes: the e-file opens and the e8 rook would give check.
    let mut e = with_presets(Variant::chess(), "k3r3/8/8/4p3/8/8/4R3/4K3 w - - 0 1", &[("explosive-rook", &[])]);
    let moves = ucis(&mut e);
    assert!(!moves.contains(&"e2e5".to_string()), "{moves:?}");
    assert!(moves.contains(&"e2e4".to_string()), "the rook still moves along the pin: {moves:?}");
    // Without the preset the capture is legal: the rook stays on e5 and blocks.
    let mut plain = Engine::from_fen(Variant::chess(), "k3r3/8/8/4p3/8/8/4R3/4K3 w - - 0 1").unwrap();
    assert!(ucis(&mut plain).contains(&"e2e5".to_string()));
}

#[test]
fn a_side_whose_last_king_dies_loses_at_once() {
    let mut e = with_presets(Variant::chess(), "4k3/8/8/8/8/8/P7/4K2r w - - 0 1", &[("piece-hp", &[("hp", 1.0)])]);
    e.play_uci("a2a3").unwrap();
    e.play_uci("h1e1").unwrap();
    let outcome = e.outcome().expect("the white king is dead");
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.to_string(), "black wins by king killed");
    assert!(e.play_uci("a3a4").is_err(), "the game is over");
    assert!(e.legal_moves().is_empty());
    // Undo brings the king back and the game goes on.
    e.undo();
    assert!(e.outcome().is_none());
}

#[test]
fn a_reachable_position_under_hit_points_loads_back() {
    // White's king stands attacked with black to move: legal under hit points, which do not
    // enforce check.
    let fen = "4k3/8/8/8/8/P7/8/4K2r b - - 0 1";
    let mut e = with_presets(Variant::chess(), "4k3/8/8/8/8/8/P7/4K2r w - - 0 1", &[("piece-hp", &[("hp", 1.0)])]);
    e.play_uci("a2a3").unwrap();
    assert_eq!(split_trailing(&e.fen()).0, fen);
    let mut loaded = with_presets(Variant::chess(), fen, &[("piece-hp", &[("hp", 1.0)])]);
    assert_eq!(split_trailing(&loaded.fen()).0, fen);
    assert!(loaded.legal_moves().len() > 5);
    // Without hit points the same FEN is refused.
    assert!(Engine::from_fen(Variant::chess(), fen).is_err());
}

#[test]
fn berolina_pawns_give_check_straight_ahead_and_not_diagonally() {
    // A white pawn on e4; black's king on e5 (straight ahead) or f5 (diagonally ahead).
    let straight = "8/8/8/4k3/4P3/8/8/4K3 b - - 0 1";
    let diagonal = "8/8/8/5k2/4P3/8/8/4K3 b - - 0 1";
    let mut e = with_presets(Variant::chess(), straight, &[("berolina-pawns", &[])]);
    assert!(e.is_check(), "a Berolina pawn captures straight ahead");
    let mut e = with_presets(Variant::chess(), diagonal, &[("berolina-pawns", &[])]);
    assert!(!e.is_check(), "a Berolina pawn does not capture diagonally");
    assert!(!ucis(&mut e).contains(&"f5e5".to_string()), "e5 is attacked by the pawn");
    // A king may step diagonally in front of the pawn, and not straight in front of it.
    let fen = "8/8/6k1/8/4P3/8/8/K7 b - - 0 1";
    let mut e = with_presets(Variant::chess(), fen, &[("berolina-pawns", &[])]);
    let moves = ucis(&mut e);
    assert!(moves.contains(&"g6f5".to_string()), "f5 is not attacked by a Berolina pawn on e4: {moves:?}");
    let mut plain = Engine::from_fen(Variant::chess(), fen).unwrap();
    assert!(!ucis(&mut plain).contains(&"g6f5".to_string()));
}

#[test]
fn a_double_knight_leap_gives_check() {
    // b1-c3-d5: the knight reaches d5 in a double leap (c3 empty).
    let fen = "8/8/8/3k4/8/8/8/1N2K3 b - - 0 1";
    let mut e = with_presets(Variant::chess(), fen, &[("knights-leap-twice", &[])]);
    assert!(e.is_check());
    assert!(!Engine::from_fen(Variant::chess(), fen).unwrap().is_check());
    // And a king may not step onto a square a double leap reaches.
    let mut e = with_presets(Variant::chess(), "8/8/8/8/3k4/8/8/1N2K3 b - - 0 1", &[("knights-leap-twice", &[])]);
    let moves = ucis(&mut e);
    assert!(!moves.contains(&"d4d5".to_string()), "{moves:?}");
}

#[test]
fn attacks_across_the_wrapped_edge_give_check() {
    // A white rook on a4, blocked eastwards by a pawn on c4; black's king on h4 is next to a4
    // across the edge.
    let fen = "8/8/8/8/R1p4k/8/8/4K3 b - - 0 1";
    let mut e = with_presets(Variant::chess(), fen, &[("wrap-board", &[])]);
    assert!(e.is_check());
    assert!(!Engine::from_fen(Variant::chess(), fen).unwrap().is_check());
    let mut e = with_presets(Variant::chess(), "8/8/8/8/R1p3k1/8/8/4K3 b - - 0 1", &[("wrap-board", &[])]);
    let moves = ucis(&mut e);
    assert!(!moves.contains(&"g4h4".to_string()), "h4 is attacked across the edge: {moves:?}");
}

#[test]
fn the_atomic_blast_goes_through_the_damage_pipeline() {
    // The knight on e3 takes the pawn on d5, next to a knight on c6 and a bishop on e6.
    let fen = "4k3/8/2n1b3/3p4/8/4N3/8/4K3 w - - 0 1";
    // Without hit points the capturer, the victim and both neighbours are blown away.
    let mut plain = Engine::from_fen(builtin("atomic").unwrap(), fen).unwrap();
    plain.play_uci("e3d5").unwrap();
    assert_eq!(plain.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    // With two hit points the pawn survives the capture (the knight stays on e3), then dies in
    // the blast; the neighbours take one point each and survive.
    let mut e = with_presets(builtin("atomic").unwrap(), fen, &[("piece-hp", &[("hp", 2.0)])]);
    e.play_uci("e3d5").unwrap();
    assert_eq!(e.fen(), "4k3/8/2n1b3/8/8/4N3/8/4K3 b - - 0 1 {Hp=e1:2,e3:2,c6:1,e6:1,e8:2}");
    let g = e.variant().geometry;
    let hp = |e: &Engine, name: &str| {
        let entity = e.world().resource::<Board>().entity(g.parse_square(name).unwrap()).unwrap();
        e.world().get::<Hp>(entity).map(|h| h.0)
    };
    assert_eq!((hp(&e, "c6"), hp(&e, "e6"), hp(&e, "e3")), (Some(1), Some(1), Some(2)));
}

#[test]
fn checks_are_counted_on_every_royal_piece() {
    // Three-check with a royal queen: attacking the queen is a check and counts.
    let mut e = with_presets(builtin("3check").unwrap(), "4k3/8/8/8/8/8/q7/4K2R w - - 0 1", &[("coregal", &[])]);
    // Rh1-h2 attacks the black queen on a2 along the second rank.
    e.play_uci("h1h2").unwrap();
    assert!(e.is_check(), "the royal queen is attacked");
    assert_eq!(e.state().checks[Side::White.index()], 1);
}

#[test]
fn timed_layers_expire_with_their_preset() {
    // Berolina pawns for one turn: after it, pawns move as usual again, and undo brings the
    // Berolina movement back.
    let mut e = Engine::from_fen(Variant::chess(), "startpos").unwrap();
    let timed = Activation { turns_left: Some(1), ..Activation::of("berolina-pawns") };
    set_active_presets(e.world_mut(), vec![timed]).unwrap();
    assert!(ucis(&mut e).contains(&"e2d3".to_string()));
    e.play_uci("e2d3").unwrap();
    assert!(ucis(&mut e).contains(&"e7e5".to_string()), "black's pawns move as usual once it expired");
    e.undo();
    assert!(ucis(&mut e).contains(&"e2d3".to_string()));
}

#[test]
fn the_hash_covers_piece_facts_preset_state_and_counters() {
    use chimera::rules::{History, position_hash};
    let mut e = with_presets(Variant::chess(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &[("piece-hp", &[("hp", 2.0)])]);
    let start = position_hash(e.world_mut());
    assert_eq!(e.world().resource::<History>().0.last(), Some(&start), "the history holds the full hash");
    // The capture only deals damage: the pieces stand where they stood.
    e.play_uci("e4d5").unwrap();
    let after = position_hash(e.world_mut());
    assert_eq!(e.world().resource::<History>().0.last(), Some(&after));
    e.undo();
    assert_eq!(position_hash(e.world_mut()), start, "undo restores the hash");
    // A piece fact alone changes the hash.
    let d5 = e.variant().geometry.parse_square("d5").unwrap();
    let pawn = e.world().resource::<Board>().entity(d5).unwrap();
    e.world_mut().get_mut::<Hp>(pawn).unwrap().0 = 1;
    assert_ne!(position_hash(e.world_mut()), start);
    e.world_mut().get_mut::<Hp>(pawn).unwrap().0 = 2;
    assert_eq!(position_hash(e.world_mut()), start);
    // So does per-preset state, and the set of active presets.
    chimera::presets::set_preset_number(e.world_mut(), "piece-hp", "note", Some(1));
    assert_ne!(position_hash(e.world_mut()), start);
    chimera::presets::set_preset_number(e.world_mut(), "piece-hp", "note", None);
    assert_eq!(position_hash(e.world_mut()), start);
    let mut plain = Engine::from_fen(Variant::chess(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    assert_ne!(position_hash(plain.world_mut()), start, "the same placement without hit points is another position");
    // Counters: the same placement in the middle of a double move (one half-move played) is
    // another position than at the start of a turn.
    let mut d = with_presets(Variant::chess(), "4k3/7p/8/8/8/8/7P/4K3 w - - 0 1", &[("double-move", &[])]);
    let first = position_hash(d.world_mut());
    d.play_uci("e1e2").unwrap();
    d.play_uci("e2e1").unwrap();
    assert_eq!(d.state().turn, Side::Black);
    d.play_uci("e8e7").unwrap();
    d.play_uci("e7e8").unwrap();
    assert_eq!(position_hash(d.world_mut()), first, "the same position after two double moves");
    d.play_uci("e1e2").unwrap();
    let mid = position_hash(d.world_mut());
    assert_ne!(mid, {
        let mut other = with_presets(Variant::chess(), "4k3/7p/8/8/8/8/4K2P/8 w - - 0 1", &[("double-move", &[])]);
        position_hash(other.world_mut())
    });
}

#[test]
fn a_game_result_hook_can_switch_the_default_end_rules_off() {
    use bevy::prelude::*;
    use chimera::rules::{ApplySystems, GameState, Hook, Reason};
    // Fool's mate; a hook says this game knows no checkmate.
    let mut e = Engine::new(Variant::chess());
    e.add_hooks([Hook::new("no-mates", ApplySystems::GameResult, |mut s: ResMut<GameState>| s.default_end_suppressed = true)]);
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        e.play_uci(m).unwrap();
    }
    assert!(e.is_check());
    let outcome = e.outcome().expect("no legal move: the game cannot go on");
    assert_eq!((outcome.winner, outcome.reason), (None, Reason::Rule("no legal moves".into())));
    let mut plain = Engine::new(Variant::chess());
    for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        plain.play_uci(m).unwrap();
    }
    assert_eq!(plain.outcome().map(|o| o.reason), Some(Reason::Checkmate));
}

#[test]
fn a_fork_is_an_independent_copy_with_the_same_hash_and_rules() {
    use chimera::rules::position_hash;
    let mut e = with_presets(builtin("crazyhouse").unwrap(), "startpos", &[("piece-hp", &[("hp", 2.0)]), ("dual-king", &[])]);
    for m in ["e2e4", "d7d5", "e4d5", "g8f6"] {
        e.play_uci(m).unwrap();
    }
    let mut f = e.fork();
    assert_eq!(f.fen(), e.fen());
    assert_eq!(position_hash(f.world_mut()), position_hash(e.world_mut()));
    assert_eq!(ucis(&mut f), ucis(&mut e));
    assert_eq!(f.perft(2), e.perft(2));
    // Moves in the fork leave the game alone, and the fork's undo works for its own moves.
    let before = e.fen();
    f.play_uci("b1c3").unwrap();
    assert_eq!(e.fen(), before);
    f.undo();
    assert_eq!(f.fen(), before);
    // The presets came along: hit points on the pieces, two kings each.
    let d5 = f.variant().geometry.parse_square("d5").unwrap();
    let queen_or_king = f.world().resource::<Board>().entity(d5).unwrap();
    assert_eq!(
        f.world().get::<Hp>(queen_or_king).map(|h| h.0),
        e.world().get::<Hp>(e.world().resource::<Board>().entity(d5).unwrap()).map(|h| h.0)
    );
    assert_eq!(f.world().resource::<chimera::presets::ActivePresets>().0.len(), 2);
}

#[test]
fn a_fen_carries_piece_facts_preset_state_and_counters_and_loads_back_to_the_same_hash() {
    use chimera::rules::position_hash;
    // Hit points: after a capture that only wounds, the FEN says so, and loads back equal.
    let mut e = with_presets(Variant::chess(), "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &[("piece-hp", &[("hp", 2.0)])]);
    e.play_uci("e4d5").unwrap();
    let fen = e.fen();
    assert_eq!(fen, "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1 {Hp=e1:2,e4:2,d5:1,e8:2}");
    assert!(fen.contains("d5:1"), "{fen}");
    let mut back = with_presets(Variant::chess(), &fen, &[("piece-hp", &[("hp", 2.0)])]);
    assert_eq!(back.fen(), fen);
    assert_eq!(position_hash(back.world_mut()), position_hash(e.world_mut()));
    // A double move half-way through its turn.
    let mut d = with_presets(Variant::chess(), "startpos", &[("double-move", &[])]);
    d.play_uci("e2e4").unwrap();
    let fen = d.fen();
    assert!(fen.ends_with("{moves=1}"), "{fen}");
    let mut back = with_presets(Variant::chess(), &fen, &[("double-move", &[])]);
    assert_eq!(back.fen(), fen);
    assert_eq!(position_hash(back.world_mut()), position_hash(d.world_mut()));
    assert!(ucis(&mut back).contains(&"d2d4".to_string()), "white moves again");
    // Facts a game's presets do not have are refused; the standard fields alone still read.
    assert!(new_game(Variant::chess(), "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1 {Hp=d5:1}").is_err());
    assert!(Engine::from_fen(Variant::chess(), "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1").is_ok());
}

/// The reverse attack table (hoppers, lame leapers, confined and region-dependent pieces)
/// agrees with generation: a square is attacked by a side exactly when, with an enemy piece
/// standing there, one of that side's pieces generates a capture onto it. Random playouts in
/// the variants whose pieces the merged table cannot describe.
#[test]
fn reverse_attacks_agree_with_generation() {
    use chimera::rules::{Cell, GenContext, PieceSlot, PieceType, Square, piece_moves};
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    for id in ["xiangqi", "minixiangqi", "manchu", "grasshopper", "shako", "orda"] {
        let mut e = new_game(builtin(id).unwrap(), "startpos").unwrap();
        let mut probes = 0;
        for _ in 0..60 {
            let moves = e.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[next(moves.len())];
            e.apply(m).unwrap();
            let variant = e.variant().clone();
            let reg = &variant.registry;
            let cells = e.world().resource::<Board>().cells.clone();
            let fns = e.world().resource::<chimera::rules::RuleFns>().clone();
            let state = e.state();
            for by in Side::BOTH {
                for t in 0..cells.len() {
                    let target = Square(t as u8);
                    if cells[t] == Cell::WALL {
                        continue;
                    }
                    let mut probe = cells.clone();
                    if !(probe[t].is_piece() && probe[t].side() != by) {
                        probe[t] = Cell::piece(PieceType(0), by.opponent());
                    }
                    let ctx = GenContext { variant: &variant, registry: reg, geometry: variant.geometry, cells: &probe, state: &state };
                    let mut out = Vec::new();
                    let by_generation = probe.iter().enumerate().any(|(i, c)| {
                        if !(c.is_piece() && c.side() == by) {
                            return false;
                        }
                        let slot = PieceSlot {
                            entity: bevy::prelude::Entity::PLACEHOLDER,
                            square: Square(i as u8),
                            kind: c.kind(),
                            side: by,
                            overridden_by: None,
                            mark: 0,
                        };
                        out.clear();
                        piece_moves(&ctx, &fns, &slot, &mut out);
                        out.iter().any(|m| m.capture && m.to == target)
                    });
                    assert_eq!(
                        reg.square_attacked(&cells, target, by),
                        by_generation,
                        "{id}: is {target:?} attacked by {by:?}? after {:?}",
                        e.move_log().0.iter().map(|r| e.to_uci(&r.mv)).collect::<Vec<_>>()
                    );
                    probes += 1;
                }
            }
        }
        assert!(probes > 1000, "{id}: {probes} probes");
    }
}

/// A promotion cannot be undone: it starts the half-move clock again whatever promotes, as
/// in Fairy-Stockfish: Backward Pawns' pawns (which are no `pawn: true`, their other moves
/// being reversible) and Shogi's pieces. Chimera used to reset it only for pawns and captures.
#[test]
fn a_promotion_resets_the_half_move_clock() {
    let clock_after = |id: &str, fen: &str, uci: &str| -> String {
        let mut e = Engine::from_fen(builtin(id).unwrap(), fen).unwrap_or_else(|err| panic!("{id} {fen}: {err}"));
        e.play_uci(uci).unwrap_or_else(|err| panic!("{id} {uci}: {err}"));
        let fen = e.fen();
        fen.split(' ').rev().nth(1).unwrap().to_string()
    };
    assert_eq!(clock_after("pawnback", "4k3/P7/8/8/8/8/8/4K3 w - - 5 10", "a7a8q"), "0");
    assert_eq!(clock_after("pawnback", "4k3/8/8/8/8/P7/8/4K3 w - - 5 10", "a3a4"), "6", "a pawn step is no progress there");
    assert_eq!(clock_after("shogi", "4k4/9/9/4S4/9/9/9/9/4K4[-] w - - 5 10", "e6e7+"), "0");
    assert_eq!(clock_after("shogi", "4k4/9/9/4S4/9/9/9/9/4K4[-] w - - 5 10", "e6e7"), "6");
}

/// The side bit sets list exactly the pieces a scan of the cells finds, through moves,
/// captures, promotions and takebacks on a large board (squares beyond the first 64).
#[test]
fn occupancy_follows_the_cells() {
    let scan = |b: &Board, side: Side| -> Vec<Square> {
        b.cells.iter().enumerate().filter(|(_, c)| c.is_piece() && c.side() == side).map(|(i, _)| Square(i as u8)).collect()
    };
    let check = |e: &Engine| {
        let b = e.world().resource::<Board>();
        for side in Side::BOTH {
            assert_eq!(b.squares_of(side).collect::<Vec<_>>(), scan(b, side));
        }
    };
    for id in ["chess", "grand"] {
        let mut e = Engine::new(builtin(id).expect("a built-in variant"));
        let mut seed = 7u64;
        for _ in 0..60 {
            check(&e);
            let moves = e.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed = mix(seed);
            e.world_mut().apply_unchecked(moves[(seed % moves.len() as u64) as usize]).expect("a legal move applies");
        }
        while e.world_mut().undo_move().is_some() {
            check(&e);
        }
    }
}
