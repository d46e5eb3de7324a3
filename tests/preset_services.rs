//! Engine services for presets and the reference's semantic rules: per-preset state, the move
//! log with annotations, effect messages, spawn and retract hooks, timed presets and their
//! expiry, the scope of each hook, first-wins game results, and mutual incompatibility.

use bevy::prelude::*;
use chimera::presets::{ALL, Activation, ActivePresets, Hp, PresetState, by_id, set_active_presets, set_preset_number};
use chimera::rules::{
    ApplySystems, Board, DecidedOutcome, Effect, EffectKind, Engine, Hook, Outcome, PendingMove, PieceEvent, Reason, Side, Step, Trial,
    Variant, decide, subscribe_effects, take_effects,
};
use chimera::variants::builtin;

fn engine(fen: &str) -> Engine {
    Engine::from_fen(Variant::chess(), fen).unwrap()
}

fn sq(e: &Engine, name: &str) -> chimera::rules::Square {
    e.variant().geometry.parse_square(name).unwrap()
}

fn piece_on(e: &Engine, name: &str) -> Entity {
    e.world().resource::<Board>().entity(sq(e, name)).expect("a piece there")
}

#[derive(Resource, Default)]
struct Seen(Vec<String>);

fn recorder(step: Step, label: &'static str) -> Hook {
    // Trial applications (the self-check filter judging captures a preset changes) run the
    // hooks too; a trial says so, and a recorder of the game's events skips it.
    Hook::new("recorder", step, move |event: Res<PieceEvent>, mut seen: ResMut<Seen>, trial: Res<Trial>| {
        if !trial.0 {
            seen.0.push(format!("{label} {} {:?} {}", event.side, event.kind, event.square.0));
        }
    })
}

#[test]
fn preset_state_is_kept_undone_cleared_and_saved() {
    let mut e = engine("startpos");
    set_active_presets(e.world_mut(), vec![Activation::of("berserker")]).unwrap();
    set_preset_number(e.world_mut(), "berserker", "note", Some(7));
    assert_eq!(e.world().resource::<PresetState>().number("berserker", "note"), Some(7));
    // It is saved with the game (in the FEN's trailing field) and reads back equal.
    let fen = e.fen();
    assert!(fen.contains("state=berserker/note:7"), "{fen}");
    let definition = chimera::presets::GameDefinition::new(Variant::chess()).unwrap().with_preset_ids(&["berserker".into()]).unwrap();
    let back = definition.start(chimera::presets::Start::Given(&fen)).unwrap();
    assert_eq!(back.world().resource::<PresetState>(), e.world().resource::<PresetState>());
    // A change made during a move is undone with it.
    e.add_hooks([Hook::new("counter", ApplySystems::AfterMove, |mut store: chimera::presets::PresetStore| {
        let n = store.state().number("berserker", "note").unwrap_or(0);
        store.set_number("berserker", "note", Some(n + 1));
    })]);
    e.play_uci("e2e4").unwrap();
    assert_eq!(e.world().resource::<PresetState>().number("berserker", "note"), Some(8));
    e.undo();
    assert_eq!(e.world().resource::<PresetState>().number("berserker", "note"), Some(7));
    // Deactivation clears it after on-deactivate.
    set_active_presets(e.world_mut(), vec![]).unwrap();
    assert_eq!(e.world().resource::<PresetState>().number("berserker", "note"), None);
}

#[test]
fn the_move_log_carries_san_and_preset_annotations() {
    let mut e = engine("4k3/8/8/3p4/8/8/8/R2QK3 w - - 0 1");
    set_active_presets(e.world_mut(), vec![Activation::of("queen-splits"), Activation::of("explosive-rook")]).unwrap();
    e.play_uci("d1d5").unwrap();
    e.play_uci("e8e7").unwrap();
    let log = &e.move_log().0;
    assert_eq!(log.len(), 2);
    assert_eq!(
        (log[0].san.as_deref(), log[0].effects.as_slice()),
        (Some("Qxd5"), ["white queen split into a rook and a bishop".to_string()].as_slice())
    );
    assert_eq!((log[1].san.as_deref(), log[1].effects.len()), (Some("Ke7"), 0));
    e.undo();
    assert_eq!(e.move_log().0.len(), 1);
}

#[test]
fn effects_are_messages_and_cost_nothing_without_a_subscriber() {
    // Atomic: the capture explodes.
    let mut e = Engine::from_fen(builtin("atomic").unwrap(), "startpos").unwrap();
    subscribe_effects(e.world_mut());
    for m in ["e2e4", "d7d5"] {
        e.play_uci(m).unwrap();
    }
    assert!(take_effects(e.world_mut()).is_empty());
    e.play_uci("e4d5").unwrap();
    let effects = take_effects(e.world_mut());
    assert_eq!(effects, [Effect::new(EffectKind::Explosion, sq(&e, "d5"), "rules").side(Side::White)]);

    // Damage through the pipeline shows a number: with hit points the pawn survives one.
    let mut e = engine("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    set_active_presets(e.world_mut(), vec![Activation::of("piece-shield"), Activation::of("piece-hp")]).unwrap();
    subscribe_effects(e.world_mut());
    e.play_uci("e4d5").unwrap();
    let kinds: Vec<(EffectKind, i32)> = take_effects(e.world_mut()).into_iter().map(|f| (f.kind, f.amount)).collect();
    assert_eq!(kinds, [(EffectKind::ShieldBroken, 0), (EffectKind::Damage, 1)]);

    // No subscriber: emitting is a no-op and the store is never created.
    let mut e = Engine::from_fen(builtin("atomic").unwrap(), "startpos").unwrap();
    for m in ["e2e4", "d7d5", "e4d5"] {
        e.play_uci(m).unwrap();
    }
    assert!(e.world().get_resource::<Messages<Effect>>().is_none());
    assert!(take_effects(e.world_mut()).is_empty());
}

#[test]
fn spawn_hooks_run_for_every_spawned_piece() {
    let mut e = engine("4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1");
    set_active_presets(e.world_mut(), vec![Activation::of("queen-splits")]).unwrap();
    e.world_mut().init_resource::<Seen>();
    e.add_hooks([recorder(Step::Spawn, "spawn")]);
    subscribe_effects(e.world_mut());
    e.play_uci("d1d5").unwrap();
    let (rook, bishop) = (sq(&e, "d5").0, sq(&e, "d1").0);
    assert_eq!(e.world().resource::<Seen>().0, [format!("spawn white PieceType(3) {rook}"), format!("spawn white PieceType(2) {bishop}")]);
    let kinds: Vec<EffectKind> = take_effects(e.world_mut()).into_iter().map(|f| f.kind).collect();
    assert_eq!(kinds, [EffectKind::Death, EffectKind::Fission, EffectKind::Spawn, EffectKind::Spawn]);
    // Without hit points the taken pawn's death carries no number to show.
    e.undo().unwrap();
    e.play_uci("d1d5").unwrap();
    assert_eq!(take_effects(e.world_mut())[0].amount, 0);
}

#[test]
fn retract_hooks_see_every_piece_that_leaves_the_board() {
    // A capture into the hand (Crazyhouse) is announced with the victim's own side.
    let mut e = Engine::from_fen(builtin("crazyhouse").unwrap(), "startpos").unwrap();
    e.world_mut().init_resource::<Seen>();
    e.add_hooks([recorder(Step::Retract, "gone")]);
    for m in ["e2e4", "d7d5", "e4d5"] {
        e.play_uci(m).unwrap();
    }
    let d5 = sq(&e, "d5").0;
    assert_eq!(e.world().resource::<Seen>().0, [format!("gone black PieceType(0) {d5}")]);

    // An explosion takes several at once: the victim, the capturer and the neighbours.
    let mut e = Engine::from_fen(builtin("atomic").unwrap(), "startpos").unwrap();
    e.world_mut().init_resource::<Seen>();
    e.add_hooks([recorder(Step::Retract, "gone")]);
    for m in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5d2"] {
        e.play_uci(m).unwrap();
    }
    let seen = &e.world().resource::<Seen>().0;
    // exd5: the pawn on d5 and the capturing pawn (no neighbours). Qxd2: the pawn on d2, the
    // queen, and the pieces next to d2: Bc1, Qd1, Ke1 and Nc3 (the pawn on c2 is immune).
    assert_eq!(seen.len(), 2 + 6, "{seen:?}");
    assert!(seen[2..].iter().filter(|s| s.starts_with("gone white")).count() == 5, "{seen:?}");
}

#[test]
fn a_timed_preset_expires_and_undo_brings_it_back() {
    let fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1";
    let mut e = engine(fen);
    let timed = Activation { turns_left: Some(2), ..Activation::of("piece-hp") };
    set_active_presets(e.world_mut(), vec![timed]).unwrap();
    let pawn = piece_on(&e, "d5");
    e.play_uci("e1e2").unwrap();
    assert_eq!(e.world().resource::<ActivePresets>().0[0].turns_left, Some(1));
    e.play_uci("e8e7").unwrap();
    assert!(e.world().resource::<ActivePresets>().0.is_empty(), "expired after two turns");
    assert_eq!(e.world().get::<Hp>(pawn), None, "on-deactivate took the hit points");
    // Its hooks are gone: a capture kills outright again.
    e.play_uci("e4d5").unwrap();
    assert!(e.fen().starts_with("8/4k3/8/3P4/8/8/4K3/8 b"), "{}", e.fen());
    e.undo();
    e.undo();
    assert_eq!(e.world().resource::<ActivePresets>().0[0].turns_left, Some(1), "undo restores the active set");
    assert_eq!(e.world().get::<Hp>(pawn), Some(&Hp(2)));
    // Replaying a different move expires it again; undoing that restores it again.
    e.play_uci("e8d8").unwrap();
    assert!(e.world().resource::<ActivePresets>().0.is_empty());
    e.undo();
    assert_eq!(e.world().resource::<ActivePresets>().0.len(), 1);
    // With one turn left, a capture now only damages: the hooks are back in the schedules.
    e.play_uci("e8e7").unwrap();
    e.undo();
    e.world_mut().resource_mut::<ActivePresets>().0[0].turns_left = Some(5);
    e.play_uci("e8e7").unwrap();
    e.play_uci("e4d5").unwrap();
    assert_eq!(e.world().get::<Hp>(pawn), Some(&Hp(1)));
}

#[test]
fn before_move_and_before_capture_are_scoped_by_the_mover() {
    // Exploding rooks for black only: white's rook captures normally.
    let fen = "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1";
    let mut e = engine(fen);
    let black_only = Activation { scope: chimera::presets::Scope::Black, ..Activation::of("explosive-rook") };
    set_active_presets(e.world_mut(), vec![black_only]).unwrap();
    e.play_uci("a1a2").unwrap();
    assert!(e.fen().starts_with("4k3/8/8/8/8/8/R7/4K3 b"), "{}", e.fen());
    let mut e = with_scope(fen, chimera::presets::Scope::White);
    e.play_uci("a1a2").unwrap();
    assert!(e.fen().starts_with("4k3/8/8/8/8/8/8/4K3 b"), "the white rook exploded: {}", e.fen());
}

fn with_scope(fen: &str, scope: chimera::presets::Scope) -> Engine {
    let mut e = engine(fen);
    set_active_presets(e.world_mut(), vec![Activation { scope, ..Activation::of("explosive-rook") }]).unwrap();
    e
}

#[test]
fn after_move_hooks_are_unscoped_and_game_results_first_wins() {
    let mut e = engine("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    e.world_mut().init_resource::<Seen>();
    e.add_hooks([Hook::new("after", ApplySystems::AfterMove, |p: Res<PendingMove>, mut seen: ResMut<Seen>, trial: Res<Trial>| {
        if !trial.0 {
            seen.0.push(p.mover.to_string())
        }
    })]);
    e.play_uci("e1e2").unwrap();
    e.play_uci("e8e7").unwrap();
    assert_eq!(e.world().resource::<Seen>().0, ["white", "black"]);

    let decider = |owner: &'static str, winner: Side| {
        Hook::new(owner, ApplySystems::GameResult, move |p: Res<PendingMove>, mut d: ResMut<DecidedOutcome>| {
            if p.victim.is_some() {
                decide(&mut d, Outcome::win(winner, Reason::Rule(owner.into())));
            }
        })
    };
    for (first, second, winner) in [(Side::White, Side::Black, Side::White), (Side::Black, Side::White, Side::Black)] {
        let mut e = engine("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        e.add_hooks([decider("first", first), decider("second", second)]);
        e.play_uci("e4d5").unwrap();
        assert_eq!(e.outcome(), Some(Outcome::win(winner, Reason::Rule("first".into()))));
    }
}

#[test]
fn incompatibilities_are_mutual_and_requirements_exist() {
    for p in ALL {
        for other in p.incompatible_with {
            let o = by_id(other).unwrap_or_else(|| panic!("{} names unknown '{other}'", p.id));
            assert!(o.incompatible_with.contains(&p.id), "{} excludes {other} but not the other way", p.id);
        }
        for needed in p.requires {
            assert!(by_id(needed).is_some(), "{} requires unknown '{needed}'", p.id);
        }
        assert!(p.description.len() > 40, "{} needs a description a player understands", p.id);
    }
    let mut e = engine("startpos");
    let err = set_active_presets(e.world_mut(), vec![Activation::of("dual-king"), Activation::of("coregal")]).unwrap_err();
    assert_eq!(err.to_string(), "'dual-king' and 'coregal' cannot be active together");
    assert_eq!(e.fen().split(' ').next(), Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"), "nothing changed");
}

#[test]
fn a_piece_leaving_the_board_keeps_only_its_starting_facts() {
    // Crazyhouse with hit points: a pawn killed by two hits goes to the hand, and comes back
    // with full hit points when dropped.
    let mut e = Engine::from_fen(builtin("crazyhouse").unwrap(), "4k3/8/8/3p4/4P3/8/8/4K3[] w - - 0 1").unwrap();
    set_active_presets(e.world_mut(), vec![Activation::of("piece-shield"), Activation::of("piece-hp")]).unwrap();
    assert_eq!(chimera::presets::effective_piece_attributes(e.world()), ["Shield", "Hp"]);
    let pawn = piece_on(&e, "d5");
    for m in ["e4d5", "e8e7", "e4d5", "e7e8", "e4d5"] {
        e.play_uci(m).unwrap();
    }
    assert!(e.fen().starts_with("4k3/8/8/3P4/8/8/8/4K3[P] b"), "{}", e.fen());
    assert_eq!(
        (e.world().get::<Hp>(pawn), e.world().get::<chimera::presets::Shield>(pawn)),
        (Some(&Hp(2)), Some(&chimera::presets::Shield(1)))
    );
    e.play_uci("e8d8").unwrap();
    e.play_uci("P@a3").unwrap();
    let dropped = piece_on(&e, "a3");
    assert_eq!(e.world().get::<Hp>(dropped), Some(&Hp(2)));
    // Undo of the killing blow restores the facts it had when it died.
    e.undo();
    e.undo();
    e.undo();
    assert_eq!(e.world().get::<Hp>(pawn), Some(&Hp(1)));
}
