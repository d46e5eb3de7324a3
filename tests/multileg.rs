//! Multi-leg moves (XBetza `a`): the legs a Betza string describes, the moves they make on the
//! board (a locust capture taken on the way, the lion's igui), their UCI and SAN, check through
//! them, and the equivalences with Fairy-Stockfish's lame leapers (`mafsW` is `nN`, `mafsmafW`
//! is `nZ`). Fairy-Stockfish (pyffish 0.0.90) skips the letter `a`, so these are Chimera's own
//! tests; the equivalences tie the legs to perft counts that pyffish agrees with.

use chimera::ai::Evaluator;
use chimera::rules::{Engine, LegStep, Mode, MoveKind, PieceTypeDef, Variant, parse_betza, parse_movement};
use chimera::variants;

/// Where each path of `betza` ends, from white's side, sorted.
fn ends(betza: &str) -> Vec<(i8, i8)> {
    let m = parse_movement(betza).unwrap_or_else(|e| panic!("{betza}: {e}"));
    assert!(m.atoms.is_empty(), "{betza}: only legs");
    let mut v: Vec<(i8, i8)> = m.legs.iter().map(|p| p.iter().fold((0, 0), |(x, y), s| (x + s.dx, y + s.dy))).collect();
    v.sort();
    v
}

/// Chess plus one piece `S` moving as `betza`.
fn with_piece(betza: &str) -> Variant {
    let mut types = PieceTypeDef::fide();
    types.push(PieceTypeDef::from_betza("shooter", 'S', 400, betza).unwrap_or_else(|e| panic!("{betza}: {e}")));
    Variant::chess().with_types(types).unwrap()
}

fn moves_from(e: &mut Engine, from: &str) -> Vec<String> {
    let mut v: Vec<String> = e.legal_moves().iter().map(|m| e.to_uci(m)).filter(|u| u.starts_with(from)).collect();
    v.sort();
    v
}

#[test]
fn legs_read_as_xbetza_reads_them() {
    // The Xiangqi horse: an orthogonal step, then a diagonal one turned 45° outwards.
    let knight: Vec<(i8, i8)> = {
        let mut v = vec![(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        v.sort();
        v
    };
    assert_eq!(ends("mafsW"), knight);
    let horse = parse_movement("mafsW").unwrap();
    assert!(horse.legs.iter().all(|p| p.len() == 2 && p[0].mode == Mode::Move && (p[0].dx == 0 || p[0].dy == 0)));
    // The Janggi elephant: one orthogonal step, then two diagonal ones outwards (Fairy-
    // Stockfish's own spelling of its nZ).
    let mut zebra = vec![(2, 3), (3, 2), (3, -2), (2, -3), (-2, -3), (-3, -2), (-3, 2), (-2, 3)];
    zebra.sort();
    assert_eq!(ends("mafsmafW"), zebra);
    // Straight on, back, and a right angle: relative to the leg before.
    assert_eq!(ends("mafW"), vec![(-2, 0), (0, -2), (0, 2), (2, 0)]);
    assert_eq!(ends("fmafW"), vec![(0, 2)]);
    assert_eq!(ends("fmarW"), vec![(1, 1)]);
    assert_eq!(ends("fmalW"), vec![(-1, 1)]);
    assert_eq!(ends("fmasW"), vec![(-1, 1), (1, 1)]);
    // A leg without directions takes the leaper's own, turned with the leg before: W's four
    // (back to the start included), K's eight.
    assert_eq!(parse_movement("fcaW").unwrap().legs.len(), 4);
    assert_eq!(parse_movement("fcaK").unwrap().legs.len(), 3 * 8, "fK is three steps, each followed by eight");
    // An oblique leaper turns among its own leaps: straight on is twice the leap, back is home.
    assert_eq!(ends("fcafN"), vec![(-2, 4), (2, 4)]);
    assert_eq!(ends("cabN"), vec![(0, 0); 8]);
    // The leg modes: a leg before the last moves unless it says `c`; the last moves or captures.
    let igui = parse_movement("cabW").unwrap();
    assert!(igui.legs.iter().all(|p| p[0].mode == Mode::Capture && p[1].mode == Mode::Move));
    let step = parse_movement("mafW").unwrap();
    assert!(step.legs.iter().all(|p| p[1].mode == Mode::Both));
    // Atoms and legs side by side.
    let lion = parse_movement("KNADcaK").unwrap();
    assert_eq!(lion.atoms.len(), 8 + 8 + 4 + 4);
    assert_eq!(lion.legs.len(), 8 * 8);
    assert!(lion.legs.iter().all(|p| p.len() == 2 && p[0].mode == Mode::Capture && p[1].mode == Mode::Move));
    assert!(lion.legs.iter().any(|p| p[0] == LegStep { dx: 0, dy: 1, mode: Mode::Capture }));
}

#[test]
fn unsupported_legs_are_refused_with_a_reason() {
    for (betza, says) in [
        ("caR", "take a leaper"),
        ("caWW", "single leaps"),
        ("caW2", "single leaps"),
        ("ca*", "cannot end a multi-leg move"),
        ("cacW", "one piece at most"),
        ("cacaW", "one piece at most"),
        ("mamamamaW", "at most four"),
        ("pamW", "only directions"),
        ("mahW", "'h'"),
        ("mcaW", "both 'm' and 'c'"),
    ] {
        let e = parse_movement(betza).expect_err(betza);
        assert!(e.message.contains(says), "{betza}: {e}");
    }
    // Where atoms are drawn (the move painter), a multi-leg move is refused by name.
    let e = parse_betza("WcabW").unwrap_err();
    assert!(e.message.contains("multi-leg"), "{e}");
    assert_eq!(e.position, 3);
}

#[test]
fn a_locust_capture_takes_on_the_way_and_is_written_leg_by_leg() {
    // `caW`: take an orthogonal neighbour, then one more step (on, aside, or back home).
    let mut e = Engine::from_fen(with_piece("caW"), "4k3/8/8/2Np4/3S4/8/8/4K3 w - - 0 1").unwrap();
    // d5 holds the enemy: on to d6, aside to e5 (c5 holds a friend), back to d4.
    assert_eq!(moves_from(&mut e, "d4"), ["d4d5,d5d4", "d4d5,d5d6", "d4d5,d5e5"]);
    let m = e.parse_uci("d4d5,d5e5").unwrap();
    assert_eq!(m.kind, MoveKind::Locust(e.variant().geometry.parse_square("d5").unwrap()));
    assert_eq!(e.to_san(&m), "Sxd5-e5");
    assert_eq!(e.parse_san("Sxd5-e5").unwrap(), m);
    // The plain squares are no move of it: d5 and e5 are reached only by taking on d5.
    assert!(e.parse_uci("d4e5").is_err());
    assert!(e.parse_uci("d4d5").is_err());
    e.play_uci("d4d5,d5e5").unwrap();
    assert_eq!(e.fen(), "4k3/8/8/2N1S3/8/8/8/4K3 b - - 0 1");
    e.undo();
    assert_eq!(e.fen(), "4k3/8/8/2Np4/3S4/8/8/4K3 w - - 0 1");
}

#[test]
fn igui_takes_and_stays() {
    // `cabW`: take a neighbour and come back (the lion's igui); the piece does not move.
    let mut e = Engine::from_fen(with_piece("cabW"), "4k3/8/8/3p4/3S4/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(moves_from(&mut e, "d4"), ["d4d5,d5d4"]);
    let m = e.parse_uci("d4d5,d5d4").unwrap();
    assert_eq!(e.to_san(&m), "Sxd5-d4");
    e.apply(m).unwrap();
    assert!(m.capture && m.from == m.to);
    assert_eq!(e.fen(), "4k3/8/8/8/3S4/8/8/4K3 b - - 0 1");
}

#[test]
fn a_move_takes_one_piece_at_most() {
    // `caW`'s last leg would land on a second enemy on d6: that move is not made.
    let mut e = Engine::from_fen(with_piece("caW"), "4k3/8/3r4/3p4/3S4/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(moves_from(&mut e, "d4"), ["d4d5,d5c5", "d4d5,d5d4", "d4d5,d5e5"]);
}

#[test]
fn check_through_a_capture_on_the_way() {
    // The igui piece next to the king gives check: it could take the king and step back.
    let mut e = Engine::from_fen(with_piece("cabW"), "8/8/8/4k3/4S3/8/8/4K3 b - - 0 1").unwrap();
    assert!(e.is_check());
    // `cafW` takes and goes straight on: only if the square beyond is free.
    let mut e = Engine::from_fen(with_piece("cafW"), "8/8/4p3/4k3/4S3/8/8/4K3 b - - 0 1").unwrap();
    assert!(!e.is_check(), "e6 holds a piece of the king's own side: the capture cannot go on");
    let mut e = Engine::from_fen(with_piece("cafW"), "8/8/8/4k3/4S3/8/8/4K3 b - - 0 1").unwrap();
    assert!(e.is_check());
    // And the king may not step next to it where it would be taken so.
    let mut e = Engine::from_fen(with_piece("cabW"), "8/8/4k3/8/4S3/8/8/4K3 b - - 0 1").unwrap();
    let king = moves_from(&mut e, "e6");
    assert!(!king.contains(&"e6e5".to_string()), "{king:?}");
    assert!(king.contains(&"e6d5".to_string()), "{king:?}");
}

#[test]
fn perft_by_hand() {
    // White: king e1, `cabW` piece d4; black: king e8, pawns d5 and a7.
    // Depth 1: the king's five steps (d1 d2 e2 f2 f1) and the one igui on d5: 6.
    let mut e = Engine::from_fen(with_piece("cabW"), "4k3/p7/8/3p4/3S4/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(e.perft(1), 6);
    // Depth 2: after a king move black has its king's five steps (d8 d7 e7 f7 f8), a7-a6 and
    // a7-a5 (d5 is blocked by the piece on d4): 7 each, 35 in all; after the igui black has
    // the same 7: 42.
    assert_eq!(e.perft(2), 42);
}

#[test]
fn lame_leapers_written_as_legs_count_as_fairy_stockfish_counts() {
    // Xiangqi with its horse as `mafsW` and its elephant as `mafF` (each confined as before),
    // and Janggi with its horse as `mafsW` and its elephant as `mafsmafW`: the same perft as
    // the built-ins, whose counts equal pyffish's (tests/variants.rs).
    for (id, swaps, depth) in [("xiangqi", [("nN", "mafsW"), ("nA", "mafF")], 4), ("janggi", [("nN", "mafsW"), ("nZ", "mafsmafW")], 4)] {
        let mut file = variants::builtin_resolved(id).unwrap();
        let mut legs = file.clone();
        for p in legs.pieces.as_mut().unwrap() {
            if let Some((_, to)) = swaps.iter().find(|(from, _)| p.betza == *from) {
                p.betza = to.to_string();
            }
        }
        assert_ne!(legs.pieces, file.pieces.take());
        let plain = variants::builtin(id).unwrap();
        let legged = variants::compile(&legs).unwrap();
        let mut a = Engine::new(plain);
        let mut b = Engine::new(legged);
        assert_eq!(a.perft(depth), b.perft(depth), "{id}");
        // The computer values the pieces alike too (it counts where a path ends).
        let (va, vb) = (Evaluator::new(a.variant()).values, Evaluator::new(b.variant()).values);
        assert_eq!(va, vb, "{id}");
    }
}

#[test]
fn the_computer_values_a_piece_by_its_legs() {
    // Without its legs the piece would be worth nothing; with a capture on the way it is
    // worth something, less than the same squares reached by plain leaps.
    let v = with_piece("mafsW");
    let s = v.registry.by_letter('S').unwrap();
    let horse = Evaluator::new(&v).value(s);
    let n = Variant::chess().registry.by_letter('N').unwrap();
    let knight = Evaluator::new(&Variant::chess()).value(n);
    assert!(horse > knight / 2 && horse < knight, "horse {horse}, knight {knight}");
    let v = with_piece("cabW");
    let shooter = Evaluator::new(&v).value(v.registry.by_letter('S').unwrap());
    assert!(shooter > 0, "{shooter}");
}

#[test]
fn fairy_stockfish_files_neither_take_nor_get_legs() {
    use chimera::variants::fairy::{export, import::import};
    // Fairy-Stockfish skips the letter `a` (pyffish 0.0.90 moves `mafW` as `fmW`): the import
    // refuses the piece by name and line rather than read it otherwise than Fairy-Stockfish.
    let all = import("[legs:chess]\ncustomPiece1 = h:mafsW\nstartFen = 4k3/8/8/8/8/8/8/H3K3 w - - 0 1\n").expect("reads");
    let Err(why) = &all[0].result else { panic!("converted") };
    assert!(why.iter().any(|r| r.key == "customPiece1" && r.line == Some(2) && r.message.contains("multi-leg")), "{why:?}");
    // The export names the piece as what Fairy-Stockfish cannot express.
    let mut file = variants::builtin_resolved("xiangqi").unwrap();
    for p in file.pieces.as_mut().unwrap() {
        if p.betza == "nN" {
            p.betza = "mafsW".into();
        }
    }
    let refused = export(&file, "xiangqi-legs").expect_err("refused");
    assert!(refused.iter().any(|u| u.key.ends_with(".betza") && u.message.contains("multi-leg")), "{refused:?}");
}

#[test]
fn legs_count_where_captures_and_material_are_judged() {
    // Andernach: a piece that takes on the way and comes home changes side where it stands.
    let mut v = with_piece("cabW");
    v.switches.captures_change_side = true;
    let mut e = Engine::from_fen(v, "4k3/8/8/3p4/3S4/8/8/4K3 w - - 0 1").unwrap();
    e.play_uci("d4d5,d5d4").unwrap();
    assert_eq!(e.fen(), "4k3/8/8/8/3s4/8/8/4K3 b - - 0 1");
    // A king and a piece that moves only by legs against a king is no dead draw, even where
    // the piece keeps to one colour of square (two mafsW horses may mate as two horses can).
    let mut e = Engine::from_fen(with_piece("mafW"), "4k3/8/8/8/3S4/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(e.outcome(), None);
}
