//! The computer in the window: who plays which side, the search on Bevy's
//! `AsyncComputeTaskPool` over a fork of the game (the board stays responsive while it
//! thinks), its moves played through the same input path a player uses (so every effect and
//! sound happens), cancelling on takeback, new game or leaving, the pace of computer against
//! computer, and the hint arrow.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, futures::check_ready};

use super::play::{self};
use super::shared::{
    Analysis, AnalysisLine, AnalysisRun, BoardView, Browse, Clocks, ComputerPlay, GameSetup, GameSystems, PendingChoice, PositionVersion,
    Running, inputs_for, order, square_centre,
};
use crate::ai::{Computer, Limits};
use crate::rules::{Engine, GameState, Move, MoveKind, Rules, RulesWorld};

pub(super) fn plugin(app: &mut App) {
    logic(app);
    app.add_systems(Update, (draw_hint, draw_analysis).in_set(GameSystems::Present));
    app.add_systems(Startup, |mut config: ResMut<GizmoConfigStore>| {
        let (c, _) = config.config_mut::<DefaultGizmoConfigGroup>();
        c.line.width = 7.0;
    });
}

/// Lowers the calling thread's priority (nice 10), for a search nobody waits on (analysis, a
/// review): on two cores the window's own threads then draw first, and the search takes what
/// they leave. Linux only, where the nice value belongs to a thread (elsewhere it would slow the
/// whole game); elsewhere nothing changes.
pub(super) fn behind_the_window() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority reads only its three numbers; with PRIO_PROCESS and 0, Linux changes
    // the calling thread alone. A refusal leaves the priority as it was, which is harmless.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// The computer's turn-taking without drawing (for tests on a bare app).
fn logic(app: &mut App) {
    app.init_resource::<ComputerPlay>();
    app.init_resource::<Analysis>();
    order(app);
    app.add_systems(Update, (computer_turn, analyse).in_set(GameSystems::Respond));
}

fn game_key(world: &World) -> String {
    let setup = world.resource::<GameSetup>();
    let presets: Vec<&str> = setup.presets.iter().map(|a| a.id).collect();
    format!("{}|{}|{}", setup.variant_id, setup.start_fen, presets.join(","))
}

/// Starts and finishes searches: the computer's turn, a hint, computer against computer.
pub(super) fn computer_turn(world: &mut World) {
    let version = world.resource::<PositionVersion>().0;
    let key = game_key(world);
    {
        let mut cp = world.resource_mut::<ComputerPlay>();
        if cp.game_key != key && cp.game_key.is_empty() {
            cp.game_key = key;
        } else if cp.game_key != key {
            // A new game: the computers learn the new variant; a search for the old one stops.
            cp.game_key = key;
            cp.computers = [None, None];
            cp.cancel();
            cp.last_move = None;
        }
    }
    // A running search: cancel it when the position changed under it; play its move when done.
    let finished = {
        let mut cp = world.resource_mut::<ComputerPlay>();
        let Some(running) = &mut cp.running else { return start_if_due(world, version) };
        if running.version != version {
            running.stop.store(true, Ordering::Relaxed);
            running.cancelled.store(true, Ordering::Relaxed);
        }
        let elapsed = running.started.elapsed().as_secs_f32();
        let hint = running.hint;
        cp.status = Some(if hint { format!("Looking for a hint… {elapsed:.1} s") } else { format!("Thinking… {elapsed:.1} s") });
        let running = cp.running.as_mut().expect("checked above");
        check_ready(&mut running.task)
    };
    let Some((computer, result)) = finished else { return };
    let mut cp = world.resource_mut::<ComputerPlay>();
    let running = cp.running.take().expect("a finished search was running");
    cp.status = None;
    let side = running.side;
    let stale = running.cancelled.load(Ordering::Relaxed) || running.version != version;
    if running.game_key != cp.game_key {
        return;
    }
    if running.hint {
        if let (false, Some(m)) = (stale, result.best) {
            cp.hint = Some((m, version));
        }
        // The hint's searcher is the side's own computer when it has one; otherwise dropped.
        if cp.computers[side.index()].is_none() && cp.plays(side) {
            cp.computers[side.index()] = Some(computer);
        }
        return;
    }
    cp.computers[side.index()] = Some(computer);
    if stale {
        return;
    }
    let Some(m) = result.best else { return };
    play_as_player(world, m);
    world.resource_mut::<ComputerPlay>().last_move = Some(Instant::now());
}

/// Plays `m` through the board's input path (press, release, choose), as a person would.
fn play_as_player(world: &mut World, m: Move) {
    let legal = world.legal_moves().to_vec();
    if !legal.contains(&m) {
        return;
    }
    for input in inputs_for(&m, &legal) {
        play::handle(world, input);
    }
}

/// Starts a search when it is the computer's turn (after the pace delay when it plays both
/// sides), or a hint search when one is asked for.
fn start_if_due(world: &mut World, version: u64) {
    let turn = world.resource::<GameState>().turn;
    let (level, hint) = {
        let cp = world.resource::<ComputerPlay>();
        match (cp.sides[turn.index()], cp.hint_requested) {
            (Some(level), _) => {
                // Watching, moves come at the pace asked for; with clocks, as the clocks allow
                // (a pause would be time off the clock).
                let both = !cp.person_plays() && world.get_resource::<Clocks>().is_none_or(|c| c.clock.is_none());
                if both && cp.last_move.is_some_and(|t| t.elapsed().as_secs_f32() < cp.pace) {
                    return;
                }
                (level, false)
            }
            (None, true) => (crate::ai::MAX_LEVEL, true),
            (None, false) => return,
        }
    };
    if !world.resource::<PendingChoice>().0.is_empty() || world.outcome().is_some() {
        world.resource_mut::<ComputerPlay>().hint_requested = false;
        return;
    }
    let fork = Engine::fork_of(world);
    let clocked = if hint { None } else { super::clocks::computer_movetime(world, turn, level) };
    let mut cp = world.resource_mut::<ComputerPlay>();
    cp.hint_requested = false;
    let mut computer = match cp.computers[turn.index()].take() {
        Some(c) => c,
        None => Computer::new(&fork, level),
    };
    let limits = if hint {
        Limits { movetime: Some(Duration::from_millis(1500)), ..Limits::default() }
    } else {
        computer.level = level;
        Limits { movetime: clocked, ..Limits::default() }
    };
    let level_before = computer.level;
    if hint {
        computer.level = crate::ai::MAX_LEVEL;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let mut fork = fork;
    let task = AsyncComputeTaskPool::get().spawn(async move {
        let result = computer.think_on(&mut fork, limits, &flag, |_| {});
        computer.level = level_before;
        (computer, result)
    });
    cp.running = Some(Running {
        task,
        stop,
        cancelled: Arc::new(AtomicBool::new(false)),
        version,
        side: turn,
        hint,
        started: Instant::now(),
        game_key: cp.game_key.clone(),
    });
}

/// The longest the analysis thinks about one position.
pub(super) const ANALYSIS_TIME: Duration = Duration::from_secs(120);

/// The analysis mode's search: started for the position on the board (again whenever it
/// changes, or the number of lines does), stopped when the mode closes or the game is over; its
/// reports turned into lines in SAN, from White's point of view.
pub(super) fn analyse(world: &mut World) {
    let (on, lines) = {
        let a = world.resource::<Analysis>();
        (a.on, a.lines.clamp(1, 3))
    };
    let version = world.resource::<PositionVersion>().0;
    // The position shown: an earlier one while the move list is browsed.
    let plies = world.resource::<crate::rules::MoveLog>().0.len();
    let ply = world.get_resource::<Browse>().and_then(|b| b.ply).filter(|&p| p < plies);
    // (The game's end is judged only while the mode is on: this runs every frame.)
    if !on || (ply.is_none() && world.outcome().is_some()) {
        let mut a = world.resource_mut::<Analysis>();
        if a.run.is_some() || !a.shown.is_empty() {
            a.run = None;
            a.shown.clear();
        }
        return;
    }
    let current = world.resource::<Analysis>().run.as_ref().is_some_and(|r| r.version == version && r.ply == ply && r.lines == lines);
    if !current {
        let root = match ply {
            // An earlier position: the game replayed from its save (a fork has no moves to
            // take back), then taken back to it.
            Some(p) => {
                let Ok(mut engine) = super::files::replayed_game(world) else { return };
                for _ in p..plies {
                    engine.undo();
                }
                engine
            }
            None => Engine::fork_of(world),
        };
        let mut search = root.fork();
        let stop = Arc::new(AtomicBool::new(false));
        let found = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (flag, sink) = (stop.clone(), found.clone());
        // A thread of its own: an endless search on the task pool would hold up the computer's
        // moves there.
        std::thread::spawn(move || {
            behind_the_window();
            let mut computer = Computer::new(&search, crate::ai::MAX_LEVEL);
            computer.memory = crate::ai::SearchMemory::new(32);
            // Two minutes a position at most: a window left open on a position does not keep a
            // core busy for ever.
            let limits = Limits { movetime: Some(ANALYSIS_TIME), multipv: lines, ..Limits::default() };
            computer.think_on(&mut search, limits, &flag, |info| sink.lock().expect("not poisoned").push(info.clone()));
        });
        let mut a = world.resource_mut::<Analysis>();
        a.shown.clear();
        a.run = Some(AnalysisRun { stop, version, ply, lines, found, seen: 0, root });
        return;
    }
    let mut a = world.resource_mut::<Analysis>();
    let Some(run) = a.run.as_mut() else { return };
    let found = {
        let found = run.found.lock().expect("not poisoned");
        if found.len() == run.seen {
            return;
        }
        found.clone()
    };
    run.seen = found.len();
    // The latest report of each line.
    let mut latest: Vec<&crate::ai::Info> = Vec::new();
    for info in &found {
        let i = info.multipv.max(1) - 1;
        if latest.len() <= i {
            latest.push(info);
        } else {
            latest[i] = info;
        }
    }
    let root = &run.root;
    let white = root.state().turn == crate::rules::Side::White;
    let shown: Vec<AnalysisLine> = latest
        .iter()
        .map(|info| {
            let sign = if white { 1 } else { -1 };
            AnalysisLine {
                depth: info.depth,
                white_cp: sign * info.score,
                white_mate: info.mate_in().map(|n| sign * n),
                san: san_line(root, &info.pv),
                first: info.pv.first().copied(),
                nodes: info.nodes,
            }
        })
        .collect();
    a.shown = shown;
}

/// A line in SAN, numbered from the position of `root` ("12. e4 e5 13. Nf3", "12… e5 13. Nf3").
fn san_line(root: &Engine, pv: &[Move]) -> String {
    let mut game = root.fork();
    let fen = game.fen();
    let mut number: u32 = fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut out = Vec::new();
    for (i, m) in pv.iter().enumerate() {
        let white = game.state().turn == crate::rules::Side::White;
        if white {
            out.push(format!("{number}."));
        } else if i == 0 {
            out.push(format!("{number}…"));
        }
        out.push(game.to_san(m));
        if game.apply(*m).is_err() {
            break;
        }
        if !white {
            number += 1;
        }
    }
    out.join(" ")
}

/// The analysis's best move as an arrow, green, while the position is the one it is for.
fn draw_analysis(
    mut gizmos: Gizmos,
    analysis: Res<Analysis>,
    (version, browse): (Res<PositionVersion>, Res<Browse>),
    rules: Res<Rules>,
    view: Res<BoardView>,
) {
    let Some(run) = &analysis.run else { return };
    let Some(m) = analysis.shown.first().and_then(|l| l.first) else { return };
    if run.version != version.0 || run.ply.is_some() != browse.ply.is_some() || run.ply.is_some_and(|p| Some(p) != browse.ply) {
        return;
    }
    arrow(&mut gizmos, rules.0.geometry, *view, (m.from, m.to), Color::srgba(0.2, 0.75, 0.3, 0.8));
}

/// An arrow from one square to another (a ring when they are one: a pass).
fn arrow(
    gizmos: &mut Gizmos,
    g: crate::rules::Geometry,
    view: BoardView,
    (from, to): (crate::rules::Square, crate::rules::Square),
    colour: Color,
) {
    let (a, b) = (square_centre(g, view, from), square_centre(g, view, to));
    if a == b {
        gizmos.circle_2d(a, 30.0, colour);
    } else {
        gizmos.arrow_2d(a, b, colour).with_tip_length(28.0);
    }
}

/// The hint: an arrow from the piece to its destination (through the square it takes on, for a
/// capture on the way), while the position is the one it is for.
fn draw_hint(mut gizmos: Gizmos, cp: Res<ComputerPlay>, version: Res<PositionVersion>, rules: Res<Rules>, view: Res<BoardView>) {
    let Some((m, at)) = cp.hint else { return };
    if at != version.0 {
        return;
    }
    let g = rules.0.geometry;
    let colour = Color::srgba(0.15, 0.55, 0.95, 0.8);
    let legs = match m.kind {
        MoveKind::Locust(via) => vec![(m.from, via), (via, m.to)],
        _ => vec![(m.from, m.to)],
    };
    for leg in legs {
        arrow(&mut gizmos, g, *view, leg, colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::shared::BoardInput;
    use crate::rules::MoveLog;
    use crate::rules::{Side, Square};

    fn app(computer: [Option<u8>; 2]) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins(play::plugin);
        logic(&mut app);
        app.world_mut().resource_mut::<ComputerPlay>().sides = computer;
        app.world_mut().resource_mut::<ComputerPlay>().pace = 0.0;
        app
    }

    fn sq(name: &str) -> Square {
        crate::rules::Variant::chess().geometry.parse_square(name).unwrap()
    }

    /// Updates until `done` holds (the search runs on the task pool), at most a few seconds.
    fn run_until(app: &mut App, done: impl Fn(&World) -> bool) {
        for _ in 0..3000 {
            app.update();
            if done(app.world()) {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        panic!("the computer did not answer in time");
    }

    fn plies(world: &World) -> usize {
        world.resource::<MoveLog>().0.len()
    }

    #[test]
    fn the_computer_answers_through_the_board_and_takeback_returns_to_the_person() {
        let mut app = app([None, Some(1)]);
        // The person cannot move the computer's pieces, and plays their own.
        app.world_mut().write_message(BoardInput::Press(sq("e2")));
        app.world_mut().write_message(BoardInput::Release(sq("e4")));
        app.update();
        assert_eq!(plies(app.world()), 1);
        run_until(&mut app, |w| plies(w) == 2);
        assert_eq!(app.world().resource::<GameState>().turn, Side::White);
        // Takeback goes back to the person's last turn: both moves.
        app.world_mut().write_message(BoardInput::Takeback);
        app.update();
        assert_eq!(plies(app.world()), 0);
        assert_eq!(app.world().resource::<GameState>().turn, Side::White);
    }

    #[test]
    fn the_board_refuses_a_person_on_the_computers_turn_and_a_takeback_cancels_its_search() {
        let mut app = app([Some(8), None]);
        app.update();
        assert!(app.world().resource::<ComputerPlay>().busy(), "white's computer starts thinking");
        app.world_mut().write_message(BoardInput::Press(sq("e2")));
        app.world_mut().write_message(BoardInput::Release(sq("e4")));
        app.update();
        assert_eq!(plies(app.world()), 0, "the person may not move white's pieces");
        // A new position under the search (here: a takeback with nothing to take back still
        // counts nothing; a new game does) cancels it: its move is not played.
        crate::game::shared::start_game(app.world_mut(), "crazyhouse", &[]).unwrap();
        app.world_mut().resource_mut::<PositionVersion>().0 += 1;
        run_until(&mut app, |w| plies(w) == 1);
        // The move played is crazyhouse's, from a fresh search of the new game.
        assert!(app.world().resource::<crate::rules::Rules>().0.drops.is_some());
    }

    /// Behind the editor or the start screen the game stands still: the computer does not
    /// move, and the board takes no input; back on the game's screen it goes on.
    #[test]
    fn the_game_waits_while_another_screen_shows() {
        let mut app = app([Some(1), Some(1)]);
        app.add_plugins(bevy::state::app::StatesPlugin);
        app.insert_state(crate::game::shared::Screen::Editor);
        for _ in 0..200 {
            app.update();
            std::thread::sleep(Duration::from_millis(2));
        }
        assert_eq!(plies(app.world()), 0, "no move behind the editor");
        app.world_mut().resource_mut::<NextState<crate::game::shared::Screen>>().set(crate::game::shared::Screen::Game);
        run_until(&mut app, |w| plies(w) >= 2);
    }

    #[test]
    fn computer_against_computer_plays_on() {
        let mut app = app([Some(1), Some(1)]);
        run_until(&mut app, |w| plies(w) >= 6);
    }

    #[test]
    fn a_hint_is_the_best_move_for_the_person_to_move() {
        let mut app = app([None, Some(1)]);
        app.world_mut().resource_mut::<ComputerPlay>().hint_requested = true;
        run_until(&mut app, |w| w.resource::<ComputerPlay>().hint.is_some());
        let (hint, at) = app.world().resource::<ComputerPlay>().hint.unwrap();
        assert_eq!(at, app.world().resource::<PositionVersion>().0);
        let legal = app.world_mut().legal_moves().to_vec();
        assert!(legal.contains(&hint));
        assert_eq!(plies(app.world()), 0, "a hint plays nothing");
    }

    /// The analysis finds lines for the position on the board (best first, from White's point
    /// of view, in SAN), starts again when a move is played, and stops when closed.
    #[test]
    fn analysis_follows_the_position_and_stops_when_closed() {
        let mut app = app([None, None]);
        {
            let mut a = app.world_mut().resource_mut::<Analysis>();
            a.on = true;
            a.lines = 2;
        }
        run_until(&mut app, |w| w.resource::<Analysis>().shown.len() == 2);
        let legal = app.world_mut().legal_moves().to_vec();
        let shown = app.world().resource::<Analysis>().shown.clone();
        assert!(shown.iter().all(|l| l.first.is_some_and(|m| legal.contains(&m)) && l.san.starts_with("1. ")), "{shown:?}");
        assert_ne!(shown[0].first, shown[1].first, "two lines, two first moves");
        // A move on the board: the lines are Black's, numbered "1…".
        app.world_mut().write_message(BoardInput::Press(sq("e2")));
        app.world_mut().write_message(BoardInput::Release(sq("e4")));
        app.update();
        assert_eq!(plies(app.world()), 1);
        run_until(&mut app, |w| w.resource::<Analysis>().shown.first().is_some_and(|l| l.san.starts_with("1… ")));
        let version = app.world().resource::<PositionVersion>().0;
        assert_eq!(app.world().resource::<Analysis>().run.as_ref().map(|r| r.version), Some(version));
        // The move list shows the start again: the analysis is of the start, White's lines.
        app.world_mut().get_resource_or_insert_with(Browse::default).ply = Some(0);
        run_until(&mut app, |w| w.resource::<Analysis>().shown.first().is_some_and(|l| l.san.starts_with("1. ")));
        assert_eq!(app.world().resource::<Analysis>().run.as_ref().map(|r| r.ply), Some(Some(0)));
        assert_eq!(plies(app.world()), 1, "the game itself is left as it is");
        // Closed: the search stops and the lines go.
        app.world_mut().resource_mut::<Analysis>().on = false;
        app.update();
        let a = app.world().resource::<Analysis>();
        assert!(a.run.is_none() && a.shown.is_empty());
    }
}
