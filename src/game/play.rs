//! Playing moves through the board: the input state machine shared by the mouse, the
//! keyboard shortcuts and the `--moves` script. It needs no window, so it is tested headless.
//!
//! Inputs arrive as [`BoardInput`] messages. Pressing on one of the mover's pieces selects it
//! (and starts a drag); releasing on another square, or pressing a highlighted target, tries
//! the move from the selection to that square (a king castles onto its rook, or by going to
//! the square it lands on where that is not also a plain king move: see
//! [`castle_landing`](super::shared::castle_landing)). One candidate is played at once; several (a
//! promotion, a gating choice) wait in [`PendingChoice`] for [`BoardInput::Choose`]. An
//! illegal target leaves the position untouched and just drops the selection (the piece snaps
//! back). A move a preset cancels leaves the position untouched and shows its reason. A drop
//! that mates where that is a foul (Shogi's pawn-drop mate: it loses) waits in [`FoulWarning`]
//! for [`BoardInput::ConfirmFoul`].

use bevy::prelude::*;

use super::shared::{
    BoardInput, ComputerPlay, FoulWarning, GameSystems, Notice, Origin, PendingChoice, PositionVersion, Premove, RedoStack, Selection,
    Tone, castle_landing, order,
};
use crate::rules::{Board, Engine, GameState, Move, MoveError, MoveKind, MoveLog, Reason, Rules, RulesWorld, Side, Square};

/// The play plugin: the input messages and their state machine.
pub fn plugin(app: &mut App) {
    app.add_message::<BoardInput>();
    app.init_resource::<Selection>();
    app.init_resource::<PendingChoice>();
    app.init_resource::<FoulWarning>();
    app.init_resource::<RedoStack>();
    app.init_resource::<Notice>();
    app.init_resource::<PositionVersion>();
    order(app);
    app.add_systems(Update, handle_input.in_set(GameSystems::Play));
}

fn mover_piece_at(world: &World, sq: Square) -> bool {
    let c = world.resource::<Board>().cell(sq);
    let turn = world.resource::<crate::rules::GameState>().turn;
    c.is_piece() && c.side() == turn
}

fn select(world: &mut World, origin: Origin) {
    let moves: Vec<Move> = world
        .legal_moves()
        .iter()
        .filter(|m| match origin {
            Origin::Square(sq) => m.from == sq && m.dropped().is_none(),
            Origin::Pocket(kind) => m.dropped() == Some(kind),
        })
        .copied()
        .collect();
    // A piece a rule holds back says why (stamina: too tired).
    if moves.is_empty()
        && let Origin::Square(sq) = origin
        && let Some((_, why)) = world.resource::<crate::rules::MoveQuery>().held.iter().find(|(s, _)| *s == sq)
    {
        let text = format!("That piece cannot move: {why}");
        world.resource_mut::<Notice>().show(Tone::Problem, text, 4.0);
    }
    let castles = {
        let legal = world.legal_moves().to_vec();
        let variant = &world.resource::<Rules>().0;
        moves.iter().filter_map(|m| Some((*m, castle_landing(variant, m, &legal)?))).collect()
    };
    *world.resource_mut::<Selection>() = Selection { origin: Some(origin), moves, dragging: true, castles, ..default() };
}

/// Duck chess: the piece's move `m` is chosen (any of its duck squares); the selection now
/// offers the squares the duck may go to.
fn place_duck(world: &mut World, m: Move) {
    let piece_move = Move { wall: None, ..m };
    let moves: Vec<Move> = world.legal_moves().iter().filter(|c| Move { wall: None, ..**c } == piece_move).copied().collect();
    let origin = match m.dropped() {
        Some(kind) => Origin::Pocket(kind),
        None => Origin::Square(m.from),
    };
    world.resource_mut::<PendingChoice>().0.clear();
    *world.resource_mut::<Selection>() = Selection { origin: Some(origin), moves, duck: true, ..default() };
    world.resource_mut::<Notice>().show(Tone::Info, "Now put the duck on an empty square.", 4.0);
}

fn clear_selection(world: &mut World) {
    *world.resource_mut::<Selection>() = Selection::default();
}

/// Plays `m` through the checked path; a refusal becomes a notice. Returns whether it was played.
pub fn play(world: &mut World, m: Move) -> bool {
    clear_selection(world);
    world.resource_mut::<PendingChoice>().0.clear();
    world.resource_mut::<FoulWarning>().0 = None;
    match world.apply_move(m) {
        Ok(()) => {
            world.resource_mut::<RedoStack>().0.clear();
            world.resource_mut::<PositionVersion>().0 += 1;
            world.resource_mut::<Notice>().0 = None;
            true
        }
        Err(e) => {
            let text = match e {
                MoveError::Cancelled { reason, .. } => format!("Move refused: {reason}"),
                other => other.to_string(),
            };
            world.resource_mut::<Notice>().show(Tone::Problem, text, 4.0);
            false
        }
    }
}

/// Whether `m` is a drop that mates where the variant counts that as a foul (Shogi's pawn-drop
/// mate), asked on a fork of the game.
pub fn foul_drop(world: &World, m: &Move) -> bool {
    let Some(kind) = m.dropped() else { return false };
    let foul_type = world.resource::<Rules>().0.drops.as_ref().is_some_and(|d| d.no_drop_mate & (1u64 << kind.0) != 0);
    foul_type && {
        let mut fork = Engine::fork_of(world);
        fork.apply(*m).is_ok() && fork.outcome().is_some_and(|o| o.reason == Reason::Rule(crate::rules::FOUL_DROP.into()))
    }
}

/// Plays the player's move `m`, unless it is a foul drop: that waits for the player's yes. (The
/// computer's moves come through here too, and are played without asking.)
fn offer(world: &mut World, m: Move) {
    if !computer_to_move(world) && foul_drop(world, &m) {
        clear_selection(world);
        world.resource_mut::<FoulWarning>().0 = Some(m);
    } else {
        play(world, m);
    }
}

/// Tries the move from the selection to `to`.
fn try_target(world: &mut World, to: Square) {
    let selection = world.resource::<Selection>();
    let mut candidates = selection.candidates(to);
    if !selection.leg && !selection.duck && candidates.iter().any(|m| matches!(m.kind, MoveKind::Locust(_))) {
        // A capture on the way: now where the piece ends (this square again to stop there).
        let stop = candidates.iter().any(|m| m.to == to);
        let origin = selection.origin;
        world.resource_mut::<PendingChoice>().0.clear();
        *world.resource_mut::<Selection>() = Selection { origin, moves: candidates, leg: true, ..default() };
        let text = if stop { "Now where it ends, or this square again to stop there." } else { "Now the square where it ends." };
        world.resource_mut::<Notice>().show(Tone::Info, text, 4.0);
        return;
    }
    let duck = world.resource::<Rules>().0.switches.duck;
    let selection = world.resource::<Selection>();
    if duck && !selection.duck && candidates.iter().any(|m| m.wall.is_some()) {
        // Duck chess: first the piece's move (a promotion still asks its choice), then the duck.
        candidates.dedup_by_key(|m| Move { wall: None, ..*m });
        if candidates.len() == 1 {
            place_duck(world, candidates[0]);
            return;
        }
    }
    match candidates.len() {
        0 => {
            if tell_refused(world, to) {
                return;
            }
            // Not a target: pressing another of the mover's pieces selects it; anything else
            // drops the selection (a dragged piece snaps back).
            if mover_piece_at(world, to) && world.resource::<Selection>().origin != Some(Origin::Square(to)) {
                select(world, Origin::Square(to));
                world.resource_mut::<Selection>().dragging = false;
            } else {
                clear_selection(world);
            }
        }
        1 => offer(world, candidates[0]),
        _ => {
            world.resource_mut::<PendingChoice>().0 = candidates;
            world.resource_mut::<Selection>().dragging = false;
        }
    }
}

/// A move from the selection to `to` that a rule refused when it was tried (a chain of
/// events past its limit) is not a target: the player is told why, and the selection dropped.
/// Returns whether it was one.
fn tell_refused(world: &mut World, to: Square) -> bool {
    let origin = world.resource::<Selection>().origin;
    let refused = world.resource::<crate::rules::MoveQuery>().refused.iter().find_map(|(m, why)| {
        let from_here = match origin {
            Some(Origin::Square(sq)) => m.from == sq && m.dropped().is_none(),
            Some(Origin::Pocket(kind)) => m.dropped() == Some(kind),
            None => false,
        };
        (from_here && m.to == to).then(|| why.clone())
    });
    let Some(why) = refused else { return false };
    clear_selection(world);
    world.resource_mut::<Notice>().show(Tone::Problem, format!("Move refused: {why}"), 4.0);
    true
}

/// Handles one input.
pub fn handle(world: &mut World, input: BoardInput) {
    let pending = !world.resource::<PendingChoice>().0.is_empty() || world.resource::<FoulWarning>().0.is_some();
    match input {
        BoardInput::ConfirmFoul => {
            if let Some(m) = world.resource_mut::<FoulWarning>().0.take() {
                play(world, m);
            }
        }
        BoardInput::Choose(i) => {
            let m = world.resource::<PendingChoice>().0.get(i).copied();
            match m {
                Some(m) if m.wall.is_some() && world.resource::<Rules>().0.switches.duck && !world.resource::<Selection>().duck => {
                    place_duck(world, m)
                }
                Some(m) => {
                    play(world, m);
                }
                None => {}
            }
        }
        BoardInput::Cancel => {
            world.resource_mut::<PendingChoice>().0.clear();
            world.resource_mut::<FoulWarning>().0 = None;
            clear_selection(world);
        }
        _ if pending => {
            // A choice is open: the board waits for it (pressing elsewhere cancels it).
            if matches!(input, BoardInput::Press(_) | BoardInput::PressPocket(_)) {
                world.resource_mut::<PendingChoice>().0.clear();
                world.resource_mut::<FoulWarning>().0 = None;
                clear_selection(world);
            }
        }
        BoardInput::Press(sq) => {
            let selection = world.resource::<Selection>().clone();
            if selection.origin.is_some() && selection.targets(sq) {
                try_target(world, sq);
            } else if selection.origin.is_some() && tell_refused(world, sq) {
                // (Told why the rules refuse that move.)
            } else if mover_piece_at(world, sq) {
                select(world, Origin::Square(sq));
            } else {
                clear_selection(world);
            }
        }
        BoardInput::PressPocket(kind) => {
            let turn = world.resource::<crate::rules::GameState>().turn;
            if world.resource::<Board>().in_hand(turn, kind).is_some() {
                select(world, Origin::Pocket(kind));
            }
        }
        BoardInput::Release(sq) => {
            let selection = world.resource::<Selection>().clone();
            if !selection.dragging {
                return;
            }
            world.resource_mut::<Selection>().dragging = false;
            if selection.origin != Some(Origin::Square(sq)) {
                try_target(world, sq);
            }
        }
        BoardInput::ReleaseOff => {
            if world.resource::<Selection>().dragging {
                clear_selection(world);
            }
        }
        BoardInput::Pass => {
            clear_selection(world);
            let pass = world.legal_moves().iter().find(|m| m.kind == MoveKind::Pass).copied();
            if let Some(m) = pass {
                play(world, m);
            }
        }
        BoardInput::Takeback => {
            clear_selection(world);
            if let Some(m) = world.undo_move() {
                world.resource_mut::<RedoStack>().0.push(m);
                world.resource_mut::<PositionVersion>().0 += 1;
            }
            // Against the computer, take back to the person's last turn.
            while computer_to_move(world) && world.get_resource::<ComputerPlay>().is_some_and(ComputerPlay::person_plays) {
                let Some(m) = world.undo_move() else { break };
                world.resource_mut::<RedoStack>().0.push(m);
                world.resource_mut::<PositionVersion>().0 += 1;
            }
        }
        BoardInput::Redo => {
            clear_selection(world);
            if let Some(m) = world.resource_mut::<RedoStack>().0.pop() {
                let redo = std::mem::take(&mut world.resource_mut::<RedoStack>().0);
                if play(world, m) {
                    world.resource_mut::<RedoStack>().0 = redo;
                }
            }
        }
    }
}

/// Whether the computer plays the side to move.
fn computer_to_move(world: &World) -> bool {
    let turn = world.resource::<crate::rules::GameState>().turn;
    world.get_resource::<ComputerPlay>().is_some_and(|c| c.plays(turn))
}

/// Feeds this frame's inputs (mouse, keys, panel) to the state machine. While the computer
/// is to move, the board takes no move from a person (takeback, redo and cancel still work).
pub fn handle_input(world: &mut World) {
    let inputs: Vec<BoardInput> = world.resource_mut::<Messages<BoardInput>>().drain().collect();
    for input in inputs {
        let moves = !matches!(input, BoardInput::Takeback | BoardInput::Redo | BoardInput::Cancel);
        if moves && computer_to_move(world) {
            // A person's move on the computer's turn is a premove, where a person plays.
            if !take_premove(world, input) {
                world.resource_mut::<Notice>().show(Tone::Info, "The computer is to move.", 2.0);
            }
            continue;
        }
        if input == BoardInput::Cancel
            && let Some(mut pm) = world.get_resource_mut::<Premove>()
        {
            *pm = Premove::default();
        }
        handle(world, input);
    }
}

/// The side a person plays while the computer is to move, if any.
fn waiting_person(world: &World) -> Option<Side> {
    let turn = world.resource::<GameState>().turn;
    let cp = world.get_resource::<ComputerPlay>()?;
    (cp.plays(turn) && !cp.plays(turn.opponent())).then_some(turn.opponent())
}

/// Takes a board input made while the computer is to move as part of a premove (see
/// `premove`, which plays it when the turn comes). Returns
/// whether it was one (otherwise the board refuses it as before).
fn take_premove(world: &mut World, input: BoardInput) -> bool {
    if !world.contains_resource::<Premove>() {
        return false;
    }
    let Some(person) = waiting_person(world) else { return false };
    let own = |world: &World, sq: Square| {
        let c = world.resource::<Board>().cell(sq);
        c.is_piece() && c.side() == person
    };
    let played = world.resource::<MoveLog>().0.len();
    let mut pm = std::mem::take(&mut *world.resource_mut::<Premove>());
    pm.made_at = played;
    match input {
        BoardInput::Press(sq) => match pm.from {
            Some(from) if from != sq => {
                pm = Premove { from: None, queued: Some((from, sq)), made_at: played };
            }
            Some(_) => pm = Premove::default(),
            None if own(world, sq) && pm.queued.is_none_or(|(f, _)| f != sq) => {
                pm = Premove { from: Some(sq), queued: None, made_at: played };
            }
            None => pm = Premove::default(),
        },
        BoardInput::Release(sq) => {
            if let Some(from) = pm.from
                && from != sq
            {
                pm = Premove { from: None, queued: Some((from, sq)), made_at: played };
            }
        }
        BoardInput::ReleaseOff => {}
        _ => {
            *world.resource_mut::<Premove>() = pm;
            return false;
        }
    }
    *world.resource_mut::<Premove>() = pm;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::shared::inputs_for;
    use crate::rules::{Engine, Variant, install_rules};

    fn app(fen: &str) -> App {
        app_for(Variant::chess(), fen)
    }

    /// The play plugin on `variant` from `fen` (or its start).
    fn app_for(variant: Variant, fen: &str) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        install_rules(app.world_mut(), std::sync::Arc::new(variant.clone())).unwrap();
        if fen != "startpos" {
            let setup = crate::rules::parse_fen(&variant, fen).unwrap();
            crate::rules::setup_position(app.world_mut(), &setup).unwrap();
        }
        app.add_plugins(plugin);
        app
    }

    /// `base` with a king that may also take a neighbour and step on (`KcaK`) as L.
    fn with_lion(base: Variant) -> Variant {
        let mut types = base.registry.types.clone();
        types.push(crate::rules::PieceTypeDef::from_betza("lion", 'L', 900, "KcaK").unwrap());
        base.with_types(types).unwrap()
    }

    fn sq(name: &str) -> Square {
        Variant::chess().geometry.parse_square(name).unwrap()
    }

    fn send(app: &mut App, inputs: &[BoardInput]) {
        for i in inputs {
            app.world_mut().write_message(i.clone());
        }
        app.update();
    }

    /// The last move played, in UCI.
    fn last_uci(app: &App) -> Option<String> {
        let rules = &app.world().resource::<Rules>().0;
        app.world().resource::<crate::rules::MoveLog>().0.last().map(|r| crate::rules::to_uci(rules, &r.mv))
    }

    /// Castling as a lichess player makes it: the king two squares by click or drag, or the
    /// king onto its rook.
    #[test]
    fn the_king_castles_by_two_squares_or_onto_its_rook() {
        let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
        for (inputs, want) in [
            (vec![BoardInput::Press(sq("e1")), BoardInput::Release(sq("g1"))], "e1g1"),
            (vec![BoardInput::Press(sq("e1")), BoardInput::Release(sq("e1")), BoardInput::Press(sq("c1"))], "e1c1"),
            (vec![BoardInput::Press(sq("e1")), BoardInput::Release(sq("h1"))], "e1g1"),
            (vec![BoardInput::Press(sq("e1")), BoardInput::Release(sq("e1")), BoardInput::Press(sq("a1"))], "e1c1"),
        ] {
            let mut app = app(fen);
            send(&mut app, &[BoardInput::Press(sq("e1"))]);
            let selection = app.world().resource::<Selection>().clone();
            assert!(selection.targets(sq("g1")) && selection.targets(sq("c1")) && !selection.targets(sq("b1")), "{:?}", selection.castles);
            send(&mut app, &[BoardInput::Cancel]);
            send(&mut app, &inputs);
            assert_eq!(last_uci(&app).as_deref(), Some(want), "{inputs:?}");
            assert!(app.world().resource::<crate::rules::MoveLog>().0[0].mv.is_castle());
        }
    }

    /// Chess960: the king onto its rook always castles; onto its castling square only where
    /// that is not also a plain king move.
    #[test]
    fn chess960_castles_onto_the_rook_and_onto_the_landing_square_only_when_not_a_king_step() {
        let variant = crate::variants::builtin("chess960").unwrap();
        // The king on f1 with rooks on b1 and h1: g1 is a plain step, c1 is castling only.
        let fen = "1r3kr1/pppppppp/8/8/8/8/PPPPPPPP/1R3K1R w HBgb - 0 1";
        let play = |inputs: &[BoardInput]| {
            let mut app = app_for(variant.clone(), fen);
            send(&mut app, inputs);
            let log = &app.world().resource::<crate::rules::MoveLog>().0;
            (last_uci(&app), log.last().is_some_and(|r| r.mv.is_castle()))
        };
        assert_eq!(play(&[BoardInput::Press(sq("f1")), BoardInput::Release(sq("g1"))]), (Some("f1g1".into()), false));
        assert_eq!(play(&[BoardInput::Press(sq("f1")), BoardInput::Release(sq("h1"))]), (Some("f1h1".into()), true));
        assert_eq!(play(&[BoardInput::Press(sq("f1")), BoardInput::Release(sq("c1"))]), (Some("f1b1".into()), true));
        assert_eq!(play(&[BoardInput::Press(sq("f1")), BoardInput::Release(sq("b1"))]), (Some("f1b1".into()), true));
    }

    #[derive(Resource, Default)]
    struct QueryRuns(u32);

    /// A move made on the board — the piece pressed, dragged to its square, played, and the
    /// frames after it — runs the legal-move query once for the position before it and once
    /// for the one after: the selection, the move's checks, its SAN and whatever the frames
    /// ask share each run.
    #[test]
    fn a_move_on_the_board_runs_the_query_once_per_position() {
        let mut app = app_for(Variant::chess(), "startpos");
        let world = app.world_mut();
        world.init_resource::<QueryRuns>();
        world.resource_mut::<crate::rules::Hooks>().0.push(crate::rules::Hook::new(
            "count",
            crate::rules::QuerySystems::Royalty,
            |mut runs: ResMut<QueryRuns>| runs.0 += 1,
        ));
        crate::rules::rebuild_pipelines(world);
        send(&mut app, &[BoardInput::Press(sq("e2"))]);
        send(&mut app, &[BoardInput::Release(sq("e4"))]);
        for _ in 0..3 {
            app.update();
        }
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.len(), 1);
        assert_eq!(app.world().resource::<QueryRuns>().0, 2);
    }

    #[test]
    fn a_duck_move_asks_for_the_duck_square_after_the_piece_move() {
        let mut app = app_for(crate::variants::builtin("duck").unwrap(), "startpos");
        send(&mut app, &[BoardInput::Press(sq("e2")), BoardInput::Release(sq("e4"))]);
        // Nothing is played yet: the selection now offers the duck's squares.
        assert!(app.world().resource::<crate::rules::MoveLog>().0.is_empty());
        let selection = app.world().resource::<Selection>().clone();
        assert!(selection.duck);
        assert_eq!(selection.moves.len(), 32, "every empty square once the pawn stands on e4");
        assert!(selection.targets(sq("e2")), "the square the pawn left");
        assert!(!selection.targets(sq("e4")), "the pawn's new square");
        // A press on one of them plays the move with the duck there.
        send(&mut app, &[BoardInput::Press(sq("e5"))]);
        let log = &app.world().resource::<crate::rules::MoveLog>().0;
        assert_eq!(log.len(), 1);
        assert_eq!((log[0].mv.to, log[0].mv.wall), (sq("e4"), Some(sq("e5"))));
        // The scripted inputs for a duck move end with the duck's square, and play it.
        let legal = app.world_mut().legal_moves();
        let m = *legal.iter().find(|m| m.from == sq("d7") && m.to == sq("d5") && m.wall == Some(sq("e2"))).unwrap();
        let inputs = inputs_for(&m, legal);
        assert_eq!(inputs.last(), Some(&BoardInput::Press(sq("e2"))));
        send(&mut app, &inputs);
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.last().map(|r| r.mv), Some(m));
    }

    #[test]
    fn a_capture_on_the_way_is_pressed_where_it_takes_then_where_it_ends() {
        // The lion on d4; a black pawn on d5.
        let mut app = app_for(with_lion(Variant::chess()), "4k3/8/8/3p4/3L4/8/8/4K3 w - - 0 1");
        send(&mut app, &[BoardInput::Press(sq("d4")), BoardInput::Release(sq("d5"))]);
        // Not played yet: the plain capture (d5 again) or one of the steps on from d5.
        assert!(app.world().resource::<crate::rules::MoveLog>().0.is_empty());
        let selection = app.world().resource::<Selection>().clone();
        assert!(selection.leg);
        for s in ["d5", "d6", "e6", "c6", "c5", "e5", "d4", "c4", "e4"] {
            assert!(selection.targets(sq(s)), "{s}");
        }
        assert!(!selection.targets(sq("d3")), "two steps from d5");
        // Coming back to d4 takes the pawn and stays.
        send(&mut app, &[BoardInput::Press(sq("d4"))]);
        let log = &app.world().resource::<crate::rules::MoveLog>().0;
        assert_eq!(log.len(), 1);
        assert_eq!((log[0].mv.from, log[0].mv.to, log[0].mv.kind), (sq("d4"), sq("d4"), MoveKind::Locust(sq("d5"))));
        // The scripted inputs of such a move play it.
        app.world_mut().undo_move();
        let legal = app.world_mut().legal_moves().to_vec();
        let m = *legal.iter().find(|m| m.kind == MoveKind::Locust(sq("d5")) && m.to == sq("e6")).unwrap();
        send(&mut app, &inputs_for(&m, &legal));
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.last().map(|r| r.mv), Some(m));
    }

    #[test]
    fn a_capture_on_the_way_in_duck_chess_then_asks_for_the_duck() {
        let mut app = app_for(with_lion(crate::variants::builtin("duck").unwrap()), "4k3/8/8/3p4/3L4/8/8/4K3 w - - 0 1");
        let legal = app.world_mut().legal_moves().to_vec();
        let m = *legal.iter().find(|m| m.kind == MoveKind::Locust(sq("d5")) && m.to == sq("e6") && m.wall == Some(sq("a1"))).unwrap();
        let inputs = inputs_for(&m, &legal);
        assert_eq!(inputs.last(), Some(&BoardInput::Press(sq("a1"))), "{inputs:?}");
        send(&mut app, &inputs);
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0.last().map(|r| r.mv), Some(m));
    }

    #[test]
    fn click_click_plays_the_engine_move() {
        let mut app = app("startpos");
        send(&mut app, &[BoardInput::Press(sq("g1")), BoardInput::Release(sq("g1"))]);
        let targets: Vec<Square> = app.world().resource::<Selection>().moves.iter().map(|m| m.to).collect();
        assert_eq!(targets.len(), 2, "g1 knight: f3 and h3");
        send(&mut app, &[BoardInput::Press(sq("f3"))]);
        assert!(app.world_mut().fen().starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b"));
        assert_eq!(app.world().resource::<crate::rules::MoveLog>().0[0].san.as_deref(), Some("Nf3"));
        assert!(app.world().resource::<Selection>().origin.is_none());
    }

    #[test]
    fn dragging_plays_and_an_illegal_drop_changes_nothing() {
        let mut app = app("startpos");
        let before = app.world_mut().fen();
        // Drag the e2 pawn to e5: not legal; it snaps back.
        send(&mut app, &[BoardInput::Press(sq("e2")), BoardInput::Release(sq("e5"))]);
        assert_eq!(app.world_mut().fen(), before);
        assert!(app.world().resource::<Selection>().origin.is_none());
        // Dragging a black piece on white's turn selects nothing.
        send(&mut app, &[BoardInput::Press(sq("e7")), BoardInput::Release(sq("e5"))]);
        assert_eq!(app.world_mut().fen(), before);
        // A legal drag plays.
        send(&mut app, &[BoardInput::Press(sq("e2")), BoardInput::Release(sq("e4"))]);
        assert!(app.world_mut().fen().starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
    }

    #[test]
    fn promotion_waits_for_the_choice() {
        let mut app = app("k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
        send(&mut app, &[BoardInput::Press(sq("e7")), BoardInput::Release(sq("e8"))]);
        let choices = app.world().resource::<PendingChoice>().0.clone();
        assert_eq!(choices.len(), 4, "queen, rook, bishop, knight");
        let knight =
            choices.iter().position(|m| m.promotion.map(|p| Variant::chess().registry.def(p).name.clone()) == Some("knight".into()));
        send(&mut app, &[BoardInput::Choose(knight.unwrap())]);
        assert!(app.world_mut().fen().starts_with("k3N3/8/8/8/8/8/8/4K3 b"), "{}", app.world_mut().fen());
    }

    #[test]
    fn takeback_restores_the_position_exactly_and_redo_replays() {
        let mut app = app("startpos");
        let mut reference = Engine::new(Variant::chess());
        let start = app.world_mut().fen();
        for (from, to) in [("e2", "e4"), ("d7", "d5"), ("e4", "d5")] {
            send(&mut app, &[BoardInput::Press(sq(from)), BoardInput::Release(sq(to))]);
            reference.play_uci(&format!("{from}{to}")).unwrap();
        }
        assert_eq!(app.world_mut().fen(), reference.fen());
        let after_two = {
            reference.undo();
            reference.fen()
        };
        send(&mut app, &[BoardInput::Takeback]);
        assert_eq!(app.world_mut().fen(), after_two);
        send(&mut app, &[BoardInput::Takeback, BoardInput::Takeback]);
        assert_eq!(app.world_mut().fen(), start);
        assert_eq!(app.world().resource::<RedoStack>().0.len(), 3);
        send(&mut app, &[BoardInput::Redo, BoardInput::Redo, BoardInput::Redo]);
        reference.play_uci("e4d5").unwrap();
        assert_eq!(app.world_mut().fen(), reference.fen());
    }

    #[test]
    fn a_held_piece_shows_why_it_cannot_move_and_nothing_changes() {
        let mut app = app("startpos");
        crate::presets::set_active_presets(app.world_mut(), vec![crate::presets::Activation::of("stamina")]).unwrap();
        for (from, to) in [("g1", "f3"), ("b8", "c6"), ("f3", "g5"), ("c6", "b8")] {
            send(&mut app, &[BoardInput::Press(sq(from)), BoardInput::Release(sq(to))]);
        }
        let before = app.world_mut().fen();
        send(&mut app, &[BoardInput::Press(sq("g5")), BoardInput::Release(sq("f3"))]);
        assert_eq!(app.world_mut().fen(), before);
        let notice = app.world().resource::<Notice>().0.clone().expect("a notice").0;
        assert!(notice.contains("too tired"), "{notice}");
    }

    #[test]
    fn a_move_the_rules_refuse_is_no_target_and_says_why() {
        // A black pawn leaving blasts round it (a rule written as data): on ten files the a-pawn's
        // capture sets off a chain past the limit, so the rook may not take it.
        let text = r#"(id: "x", extends: "capablanca", name: "X", format: 2, actions: [
            (name: "domino", when: Removed, pieces: ["pawn"], if: [Side(This, Black)],
             then: [Damage((at: This, around: 1, kind: Explosion, spare: ["king"]))])])"#;
        let file = crate::variants::resolve(crate::variants::parse_variant_file(text).unwrap(), &crate::variants::builtin_file).unwrap();
        let mut app = app_for(crate::variants::compile(&file).unwrap(), "5k4/pppppppppp/10/10/10/10/10/R4K4 w - - 0 1");
        crate::presets::set_active_presets(app.world_mut(), vec![crate::presets::Activation::of("actions")]).unwrap();
        let before = app.world_mut().fen();
        let a7 = app.world().resource::<crate::rules::Rules>().0.geometry.parse_square("a7").unwrap();
        let a1 = app.world().resource::<crate::rules::Rules>().0.geometry.parse_square("a1").unwrap();
        // Picked up, the rook does not offer a7.
        send(&mut app, &[BoardInput::Press(a1)]);
        assert!(app.world().resource::<Selection>().origin.is_some() && !app.world().resource::<Selection>().targets(a7));
        // By click, then by drag: nothing changes, and the notice says why.
        for input in [[BoardInput::Release(a1), BoardInput::Press(a7)], [BoardInput::Press(a1), BoardInput::Release(a7)]] {
            app.world_mut().resource_mut::<Notice>().0 = None;
            send(&mut app, &input);
            assert_eq!(app.world_mut().fen(), before);
            let notice = app.world().resource::<Notice>().0.clone().expect("a notice").0;
            assert!(notice.contains("chained more than"), "{notice}");
        }
    }

    #[test]
    fn a_pocket_piece_is_dropped_by_click_or_drag() {
        let mut app = app_for(crate::variants::builtin("crazyhouse").unwrap(), "4k3/8/8/8/8/8/8/4K3[Nn] w - - 0 1");
        let knight = app.world().resource::<crate::rules::Rules>().0.registry.by_letter('N').unwrap();
        // Click the pocket, then the square.
        send(&mut app, &[BoardInput::PressPocket(knight)]);
        assert!(app.world().resource::<Selection>().moves.len() > 50, "a knight may be dropped on any empty square");
        send(&mut app, &[BoardInput::Press(sq("d4"))]);
        assert!(app.world_mut().fen().starts_with("4k3/8/8/8/3N4/8/8/4K3[n] b"), "{}", app.world_mut().fen());
        // Drag from the pocket onto a square.
        send(&mut app, &[BoardInput::PressPocket(knight), BoardInput::Release(sq("f6"))]);
        assert!(app.world_mut().fen().starts_with("4k3/8/5n2/8/3N4/8/8/4K3[] w"), "{}", app.world_mut().fen());
    }

    #[test]
    fn a_foul_drop_asks_before_it_is_played() {
        let variant = crate::variants::builtin("shogi").unwrap();
        let e8 = variant.geometry.parse_square("e8").unwrap();
        let mut app = app_for(variant, "3lkl3/9/4G4/9/9/9/9/9/4K4[P] w - - 0 1");
        let pawn = app.world().resource::<crate::rules::Rules>().0.registry.by_letter('P').unwrap();
        let log = |app: &App| app.world().resource::<MoveLog>().0.len();
        // The drop that mates waits for a yes; Cancel drops it.
        send(&mut app, &[BoardInput::PressPocket(pawn), BoardInput::Press(e8)]);
        assert_eq!(app.world().resource::<FoulWarning>().0.and_then(|m| m.dropped()), Some(pawn));
        assert_eq!(log(&app), 0);
        send(&mut app, &[BoardInput::Cancel]);
        assert!(app.world().resource::<FoulWarning>().0.is_none());
        assert_eq!(log(&app), 0);
        // Asked again and answered yes: played, and lost.
        send(&mut app, &[BoardInput::PressPocket(pawn), BoardInput::Press(e8)]);
        send(&mut app, &[BoardInput::ConfirmFoul]);
        assert_eq!(log(&app), 1);
        let outcome = app.world_mut().outcome().expect("the game is over");
        assert_eq!((outcome.winner, outcome.reason), (Some(Side::Black), Reason::Rule(crate::rules::FOUL_DROP.into())));
        // A drop that only checks is played at once.
        let mut app = app_for(crate::variants::builtin("shogi").unwrap(), "3lkl3/9/9/9/9/9/9/9/4K4[P] w - - 0 1");
        send(&mut app, &[BoardInput::PressPocket(pawn), BoardInput::Press(e8)]);
        assert!(app.world().resource::<FoulWarning>().0.is_none());
        assert_eq!(log(&app), 1);
    }

    #[test]
    fn scripted_moves_use_the_same_inputs() {
        let mut app = app("startpos");
        let legal = app.world_mut().legal_moves().to_vec();
        let m = *legal.iter().find(|m| m.from == sq("b1") && m.to == sq("c3")).unwrap();
        send(&mut app, &inputs_for(&m, &legal));
        assert!(app.world_mut().fen().starts_with("rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/R1BQKBNR b"));
    }
}
