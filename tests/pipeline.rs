//! Each step of the two pipelines: a hook system added to a step's set runs at that step,
//! with that step's semantics (first wins, union, veto, subset, always-runs).

use std::sync::Arc;

use bevy::prelude::*;
use chimera::rules::{
    ApplySystems, Board, Cell, DecidedOutcome, Engine, GameState, Hook, MoveError, MoveLog, MoveQuery, Outcome, PendingMove, QuerySystems,
    Reason, RoyalRule, RuleFns, Rules, Side, Square, Trial, Variant, decide,
};

#[derive(Resource, Default)]
struct Trace(Vec<String>);

fn engine(fen: &str) -> Engine {
    let mut e = Engine::from_fen(Variant::chess(), fen).expect("test FEN reads");
    e.world_mut().init_resource::<Trace>();
    e
}

fn sq(name: &str) -> Square {
    Variant::chess().geometry.parse_square(name).expect("square")
}

fn trace(e: &Engine) -> Vec<String> {
    e.world().resource::<Trace>().0.clone()
}

fn ucis(e: &mut Engine) -> Vec<String> {
    let moves = e.legal_moves();
    let mut v: Vec<String> = moves.iter().map(|m| e.to_uci(m)).collect();
    v.sort();
    v
}

const START: &str = "startpos";

#[test]
fn every_step_runs_in_reference_order() {
    let mut e = engine(START);
    let query_hooks = QuerySystems::ALL.map(|step| Hook::new("trace", step, move |mut t: ResMut<Trace>| t.0.push(format!("{step:?}"))));
    // Hooks that change the position after the mutations make the self-check filter judge
    // moves by trial applications, which run these hooks too; a trial says so.
    let apply_hooks = ApplySystems::ALL.map(|step| {
        Hook::new("trace", step, move |mut t: ResMut<Trace>, trial: Res<Trial>| {
            if !trial.0 {
                t.0.push(format!("{step:?}"))
            }
        })
    });
    e.add_hooks(query_hooks);
    e.add_hooks(apply_hooks);
    e.legal_moves();
    let expected: Vec<String> = QuerySystems::ALL.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(trace(&e), expected);
    let m = e.parse_uci("e2e4").unwrap();
    e.world_mut().resource_mut::<Trace>().0.clear();
    e.apply_unchecked(m).unwrap();
    let expected: Vec<String> = ApplySystems::ALL.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(trace(&e), expected);
}

#[test]
fn hooks_see_the_state_of_their_step() {
    let mut e = engine(START);
    let look = |label: &'static str| {
        move |mut t: ResMut<Trace>, board: Res<Board>, state: Res<GameState>, log: Res<MoveLog>, trial: Res<Trial>| {
            if trial.0 {
                return;
            }
            let e4 = board.cell(Square(28)).is_piece();
            t.0.push(format!("{label}: e4 {e4}, {} to move, {} logged", state.turn, log.0.len()));
        }
    };
    e.add_hooks([
        Hook::new("look", ApplySystems::BeforeMove, look("before-move")),
        Hook::new("look", ApplySystems::Mutate, look("mutate")),
        Hook::new("look", ApplySystems::AfterMove, look("after-move")),
        Hook::new("look", ApplySystems::Describe, look("describe")),
    ]);
    e.play_uci("e2e4").unwrap();
    assert_eq!(
        trace(&e),
        [
            "before-move: e4 false, white to move, 0 logged",
            "mutate: e4 true, white to move, 0 logged",
            "after-move: e4 true, black to move, 0 logged",
            "describe: e4 true, black to move, 0 logged",
        ]
    );
    assert_eq!(e.move_log().0.len(), 1);
}

fn royals_of(name: &'static str) -> RoyalRule {
    RoyalRule {
        owner: name,
        run: Arc::new(move |v: &Variant, cells: &[Cell], side: Side, out: &mut Vec<chimera::rules::Square>| {
            let kind = v.registry.by_name(name).expect("type");
            out.extend(
                cells
                    .iter()
                    .enumerate()
                    .filter_map(|(i, c)| (c.is_piece() && c.side() == side && c.kind() == kind).then_some(chimera::rules::Square(i as u8))),
            );
        }),
    }
}

fn with_royalty(e: &mut Engine, rules: Vec<RoyalRule>) {
    e.world_mut().resource_mut::<RuleFns>().royalty.extend(rules);
}

#[test]
fn royalty_empty_union_means_no_royalty() {
    // White is in check from the rook on e8; normally only king moves and blocks are legal.
    let fen = "4r2k/8/8/8/8/8/8/R3K3 w - - 0 1";
    let mut plain = engine(fen);
    assert!(plain.is_check());
    let normal = ucis(&mut plain);
    let mut e = engine(fen);
    with_royalty(&mut e, vec![RoyalRule { owner: "no-royals", run: Arc::new(|_: &Variant, _: &[Cell], _: Side, _: &mut Vec<_>| {}) }]);
    assert!(!e.is_check(), "an empty royal set is never in check");
    let free = ucis(&mut e);
    assert!(free.len() > normal.len());
    assert!(free.contains(&"a1a2".to_string()), "a move ignoring the check is legal without royalty");
    assert!(!normal.contains(&"a1a2".to_string()));
}

#[test]
fn royalty_is_the_union_of_contributions() {
    // A black bishop on b4 attacks the white queen on d2. With the queen royal as well as the
    // king, white is in check and must save the queen.
    let fen = "4k3/8/8/8/1b6/8/3Q4/4K3 w - - 0 1";
    let mut king_only = engine(fen);
    with_royalty(&mut king_only, vec![royals_of("king")]);
    let mut both = engine(fen);
    with_royalty(&mut both, vec![royals_of("king"), royals_of("queen")]);
    assert!(!king_only.is_check());
    assert!(both.is_check(), "the queen is royal and attacked");
    let moves = ucis(&mut both);
    assert!(moves.iter().all(|m| m.starts_with("d2")), "king moves leave the royal queen attacked: {moves:?}");
    assert!(!moves.contains(&"d2c3".to_string()), "c3 is attacked too");
    assert!(ucis(&mut king_only).contains(&"e1d1".to_string()));
    assert!(moves.contains(&"d2b4".to_string()));
}

fn override_g1(owner: &'static str, to: &'static str) -> Hook {
    Hook::new(owner, QuerySystems::Override, move |mut q: ResMut<MoveQuery>| {
        let (from, to) = (sq("g1"), sq(to));
        if q.side == Side::White {
            q.override_piece(from, owner, [chimera::rules::Move::normal(from, to, false)]);
        }
    })
}

#[test]
fn override_first_wins_in_activation_order() {
    let mut e = engine(START);
    e.add_hooks([override_g1("first", "h3"), override_g1("second", "e2")]);
    let from_g1: Vec<String> = ucis(&mut e).into_iter().filter(|m| m.starts_with("g1")).collect();
    assert_eq!(from_g1, ["g1h3"]);
    let mut e = engine(START);
    e.add_hooks([override_g1("second", "e2"), override_g1("first", "h3")]);
    let from_g1: Vec<String> = ucis(&mut e).into_iter().filter(|m| m.starts_with("g1")).collect();
    assert_eq!(from_g1, ["g1e2"]);
}

#[test]
fn override_skips_synthesis_for_that_piece() {
    // The a7 pawn is overridden with a plain push: no promotion choices are synthesized for it,
    // while the h7 pawn still promotes.
    let fen = "4k3/P6P/8/8/8/8/8/4K3 w - - 0 1";
    let mut e = engine(fen);
    e.add_hooks([Hook::new("plain-pawn", QuerySystems::Override, |mut q: ResMut<MoveQuery>| {
        let (a7, a8) = (sq("a7"), sq("a8"));
        q.override_piece(a7, "plain-pawn", [chimera::rules::Move::normal(a7, a8, false)]);
    })]);
    let moves = ucis(&mut e);
    assert!(moves.contains(&"a7a8".to_string()));
    assert!(!moves.iter().any(|m| m.starts_with("a7a8") && m.len() == 5));
    assert_eq!(moves.iter().filter(|m| m.starts_with("h7h8")).count(), 4);
}

#[test]
fn transform_rewrites_generated_moves_but_not_overrides() {
    // Drop every capture the generator made; the overridden knight keeps its capture.
    let fen = "4k3/8/8/3p4/4P3/5p2/8/4K1N1 w - - 0 1";
    let mut e = engine(fen);
    e.add_hooks([
        Hook::new("capture-knight", QuerySystems::Override, |mut q: ResMut<MoveQuery>| {
            let (g1, f3) = (sq("g1"), sq("f3"));
            q.override_piece(g1, "capture-knight", [chimera::rules::Move::normal(g1, f3, true)]);
        }),
        Hook::new("pacifist", QuerySystems::Transform, |mut q: ResMut<MoveQuery>| q.transform_generated(|m| !m.capture)),
    ]);
    let moves = ucis(&mut e);
    assert!(!moves.contains(&"e4d5".to_string()));
    assert!(moves.contains(&"e4e5".to_string()));
    assert!(moves.contains(&"g1f3".to_string()));
}

#[test]
fn extra_moves_append_except_for_overridden_pieces() {
    let mut e = engine(START);
    let extra = |mut q: ResMut<MoveQuery>| {
        if q.side == Side::White {
            for (from, to) in [("b1", "b4"), ("g1", "g4")] {
                let (from, to) = (sq(from), sq(to));
                q.add_extra_moves(from, [chimera::rules::Move::normal(from, to, false)]);
            }
        }
    };
    e.add_hooks([override_g1("first", "h3"), Hook::new("far-knights", QuerySystems::Extra, extra)]);
    let moves = ucis(&mut e);
    assert!(moves.contains(&"b1b4".to_string()));
    assert!(!moves.contains(&"g1g4".to_string()), "the overridden knight gets no extra moves");
    assert_eq!(moves.len(), 20 - 2 + 1 + 1);
}

#[test]
fn piece_filter_always_runs_even_on_overrides() {
    let mut e = engine(START);
    e.add_hooks([
        override_g1("first", "h3"),
        Hook::new("frozen-g1", QuerySystems::PieceFilter, |mut q: ResMut<MoveQuery>| q.filter_piece_moves(sq("g1"), |_| false)),
    ]);
    let moves = ucis(&mut e);
    assert!(moves.iter().all(|m| !m.starts_with("g1")));
    assert_eq!(moves.len(), 18);
}

#[test]
fn self_check_filter_can_be_suppressed() {
    // The knight on e2 is pinned by the rook on e8.
    let fen = "4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1";
    let mut e = engine(fen);
    assert!(ucis(&mut e).iter().all(|m| !m.starts_with("e2")));
    e.add_hooks([Hook::new("hp", QuerySystems::SelfCheckPoll, |mut q: ResMut<MoveQuery>| q.filter_self_check = false)]);
    assert_eq!(ucis(&mut e).iter().filter(|m| m.starts_with("e2")).count(), 6);
}

#[test]
fn legal_filters_run_in_order_each_seeing_the_previous_output() {
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let mut e = engine(fen);
    e.add_hooks([
        Hook::new("must-capture", QuerySystems::LegalFilter, |mut q: ResMut<MoveQuery>| {
            if q.moves.iter().any(|m| m.capture) {
                q.moves.retain(|m| m.capture);
            }
        }),
        Hook::new("count", QuerySystems::LegalFilter, |q: Res<MoveQuery>, mut t: ResMut<Trace>| t.0.push(q.moves.len().to_string())),
    ]);
    assert_eq!(ucis(&mut e), ["e4d5"]);
    assert_eq!(trace(&e), ["1"]);
}

#[test]
fn before_move_cancel_leaves_everything_unchanged() {
    let mut e = engine(START);
    e.add_hooks([Hook::new("stamina", ApplySystems::BeforeMove, |mut p: ResMut<PendingMove>, rules: Res<Rules>| {
        if p.piece_type.map(|k| rules.registry.def(k).name.as_str()) == Some("knight") {
            p.cancel("stamina", "the knight is too tired");
        }
    })]);
    let fen = e.fen();
    let err = e.play_uci("g1f3").unwrap_err();
    assert_eq!(err, MoveError::Cancelled { preset: "stamina".into(), reason: "the knight is too tired".into() });
    assert_eq!(e.fen(), fen);
    assert!(e.move_log().0.is_empty());
    e.play_uci("e2e4").unwrap();
    assert_eq!(e.state().turn, Side::Black);
}

#[test]
fn a_consumed_capture_skips_the_default_damage() {
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let mut e = engine(fen);
    e.add_hooks([Hook::new("armour", ApplySystems::BeforeCapture, |mut p: ResMut<PendingMove>| {
        p.consume_capture("armour");
    })]);
    e.play_uci("e4d5").unwrap();
    let board = e.world().resource::<Board>();
    assert!(board.cell(sq("d5")).is_piece() && board.cell(sq("d5")).side() == Side::Black, "the victim survives");
    assert!(board.cell(sq("e4")).is_piece(), "the attacker stays");
    assert_eq!(e.state().turn, Side::Black);
}

#[test]
fn turn_advance_veto_and_turn_start_gating() {
    let mut e = engine(START);
    e.add_hooks([
        Hook::new("double-move", ApplySystems::AdvanceTurn, |mut p: ResMut<PendingMove>, s: Res<GameState>| {
            if p.mover == Side::White && s.half_moves_this_turn < 2 {
                p.veto_turn_advance("double-move");
            }
        }),
        Hook::new("regen", ApplySystems::TurnStart, |mut t: ResMut<Trace>, s: Res<GameState>| t.0.push(format!("turn start {}", s.turn))),
    ]);
    e.play_uci("e2e4").unwrap();
    assert_eq!(e.state().turn, Side::White);
    assert_eq!(e.state().half_moves_this_turn, 1);
    assert!(trace(&e).is_empty(), "turn start is skipped on a veto");
    e.play_uci("d2d4").unwrap();
    assert_eq!(e.state().turn, Side::Black);
    assert_eq!(e.state().half_moves_this_turn, 0);
    assert_eq!(e.state().fullmove, 1);
    assert_eq!(trace(&e), ["turn start black"]);
    e.play_uci("e7e5").unwrap();
    assert_eq!(e.state().fullmove, 2);
    e.undo();
    e.undo();
    assert_eq!(e.state().turn, Side::White);
    assert_eq!(e.state().half_moves_this_turn, 1);
}

#[test]
fn game_result_hook_decides_and_undo_restores() {
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let mut e = engine(fen);
    e.add_hooks([Hook::new("capture-to-win", ApplySystems::GameResult, |p: Res<PendingMove>, mut d: ResMut<DecidedOutcome>| {
        if p.victim.is_some() {
            decide(&mut d, Outcome::win(p.mover, Reason::Rule("first capture".into())));
        }
    })]);
    e.play_uci("e4e5").unwrap();
    assert_eq!(e.outcome(), None);
    e.undo();
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.outcome(), Some(Outcome::win(Side::White, Reason::Rule("first capture".into()))));
    e.undo();
    assert_eq!(e.outcome(), None);
}

#[test]
fn describe_hooks_annotate_the_move_record() {
    let mut e = engine(START);
    e.add_hooks([Hook::new("narrator", ApplySystems::Describe, |mut p: ResMut<PendingMove>| {
        let text = format!("{} moved", p.mover);
        p.effects.push(text);
    })]);
    e.play_san("Nf3").unwrap();
    let record = &e.move_log().0[0];
    assert_eq!(record.san.as_deref(), Some("Nf3"));
    assert_eq!(record.effects, ["white moved"]);
}

#[derive(Resource, Default)]
struct QueryRuns(u32);

fn count_query_run(mut runs: ResMut<QueryRuns>) {
    runs.0 += 1;
}

/// A move made as a player makes it — the position judged, the move checked and played, its
/// SAN with the check mark written — runs the legal-move query once per position: once for the
/// position before it, once for the one after. Whatever else is asked about a position (its
/// moves, check, result, FEN, reading a move) answers from that run; a position left and come
/// back to is asked again.
#[test]
fn a_move_runs_the_query_once_per_position() {
    let mut e = engine(START);
    e.world_mut().init_resource::<QueryRuns>();
    e.add_hooks([Hook::new("count", QuerySystems::Royalty, count_query_run)]);
    let runs = |e: &Engine| e.world().resource::<QueryRuns>().0;
    e.play_san("e4").expect("e4 is legal");
    assert_eq!(runs(&e), 2, "the start and the position after e4");
    let _ = (e.legal_moves(), e.is_check(), e.outcome(), e.fen());
    let _ = e.parse_san("e5").expect("e5 is legal");
    assert_eq!(runs(&e), 2, "all asked of the position after e4");
    e.play_san("Qh4").expect_err("no queen move yet");
    e.play_san("f5").expect("f5 is legal");
    e.play_san("Qh5+").expect("Qh5+ is legal");
    assert_eq!(runs(&e), 4, "one run for each of the two new positions");
    e.undo();
    let _ = e.legal_moves();
    assert_eq!(runs(&e), 5, "the position after f5, come back to");
    // SAN with its check mark looks at the position after the move, then comes back.
    let m = e.parse_san("Qh5+").expect("Qh5+ is legal");
    assert_eq!(e.to_san(&m), "Qh5+");
    assert_eq!(runs(&e), 6);
    let _ = e.legal_moves();
    assert_eq!(runs(&e), 7);
}
