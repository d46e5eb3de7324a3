//! The clocks in the window ([`crate::clock`] does the timekeeping): they follow the game's
//! moves, takebacks and redos, run for the side to move, warn once when time gets short (the
//! face turns red and a tick sounds), and end the game when a flag falls. The panel shows them
//! beside the board's top and bottom edges, each next to the side playing there. A takeback
//! gives both sides the time they had in the position it returns to; a redo is timed as a move
//! made at that moment. A loaded PGN or FEN starts fresh clocks from its position; a save
//! brings its own (or none).
//!
//! The window sleeps between changes (see [`super::idle`]), so a running clock wakes it itself:
//! a timer thread sends winit a wake-up when the face's digits next change, once a second (ten
//! times a second under ten seconds), and at no other time.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::shared::{Clocks, GameSystems, LowTime, Notice, PanelData, PositionVersion, Screen, Tone, order, playing};
use crate::clock::{GameClock, TimeControl};
use crate::rules::{GameState, MoveLog, RulesWorld, Side};

/// Wakes the window at an instant from another thread: the sleeping event loop has no timers.
struct Alarm {
    deadline: mpsc::Sender<Instant>,
    /// The last instant asked for.
    asked: Option<Instant>,
}

impl Alarm {
    fn new(proxy: winit::event_loop::EventLoopProxy<bevy::winit::WinitUserEvent>) -> Alarm {
        let (tx, rx) = mpsc::channel::<Instant>();
        std::thread::Builder::new()
            .name("chimera-clock-alarm".into())
            .spawn(move || {
                let mut next: Option<Instant> = None;
                loop {
                    let message = match next {
                        Some(at) => rx.recv_timeout(at.saturating_duration_since(Instant::now())),
                        None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                    };
                    match message {
                        Ok(at) => next = Some(at),
                        Err(mpsc::RecvTimeoutError::Timeout) => {
                            next = None;
                            if proxy.send_event(bevy::winit::WinitUserEvent::WakeUp).is_err() {
                                return;
                            }
                        }
                        Err(mpsc::RecvTimeoutError::Disconnected) => return,
                    }
                }
            })
            .expect("a thread for the clock's alarm");
        Alarm { deadline: tx, asked: None }
    }

    fn ring_at(&mut self, at: Instant) {
        if self.asked.is_some_and(|a| a.max(at) - a.min(at) < Duration::from_millis(2)) {
            return;
        }
        self.asked = Some(at);
        let _ = self.deadline.send(at);
    }
}

pub(super) fn plugin(app: &mut App) {
    logic(app);
}

/// The clocks without drawing (for tests on a bare app).
pub(super) fn logic(app: &mut App) {
    app.init_resource::<Clocks>();
    app.add_message::<LowTime>();
    order(app);
    // Time stands still while the start screen or the editor shows.
    app.add_systems(
        Update,
        (|screen: Option<Res<State<Screen>>>, mut clocks: ResMut<Clocks>| clocks.stand_still(!playing(screen))).before(GameSystems::Input),
    );
    app.add_systems(Update, tick.in_set(GameSystems::Input));
    app.add_systems(Update, follow.in_set(GameSystems::Follow));
}

/// Before input: the running clock is read; a flag that has fallen ends the game; a side whose
/// time is short is warned once; the window is woken when the face next changes.
fn tick(world: &mut World, mut alarm: Local<Option<Alarm>>) {
    if alarm.is_none()
        && let Some(proxy) = world.get_resource::<bevy::winit::EventLoopProxyWrapper>().map(|p| (**p).clone())
    {
        *alarm = Some(Alarm::new(proxy));
    }
    // A game already over (on the board) runs no clock: its flag must not change the result.
    let over = world.get_resource::<PanelData>().is_some_and(|p| p.outcome.is_some());
    let mut clocks = world.resource_mut::<Clocks>();
    let now = clocks.now();
    clocks.frame = now;
    let Some(clock) = clocks.clock.as_mut() else { return };
    if over && clock.running() {
        clock.stop(now);
    }
    let fallen = clock.tick(now);
    let turn = clock.turn();
    let reading = clock.reading(turn, now);
    let low = reading.low(&clock.control()) && clock.running();
    let next = clock.next_change(now);
    let warn = low && !clocks.warned[turn.index()];
    clocks.warned[turn.index()] = low;
    if let (Some(next), Some(alarm)) = (next, alarm.as_mut()) {
        alarm.ring_at(Instant::now() + next);
    }
    if warn && fallen.is_none() {
        world.write_message(LowTime);
    }
    if let Some(side) = fallen {
        crate::clock::declare_flag(world, side);
        world.resource_mut::<PositionVersion>().0 += 1;
        let name = if side == Side::White { "White" } else { "Black" };
        world.resource_mut::<Notice>().show(Tone::Info, format!("{name}'s time is up."), 5.0);
    }
}

/// After input and the computer: the moves made, taken back or replayed this frame are timed,
/// and the clocks stop when the game is over.
fn follow(world: &mut World) {
    let plies = world.resource::<MoveLog>().0.len();
    let seen = world.resource::<Clocks>().seen;
    if plies == seen {
        return;
    }
    let movers: Vec<Side> = world.resource::<MoveLog>().0.iter().map(|r| r.mover).collect();
    let turn = world.resource::<GameState>().turn;
    let over = world.outcome().is_some();
    let mut clocks = world.resource_mut::<Clocks>();
    let now = clocks.frame;
    clocks.seen = plies;
    let Some(clock) = clocks.clock.as_mut() else { return };
    if plies > seen {
        for i in seen..plies {
            let next = movers.get(i + 1).copied().unwrap_or(turn);
            // The flag was checked at this instant before the move: it has not fallen.
            let _ = clock.moved(now, next);
        }
    } else {
        for _ in plies..seen {
            clock.take_back(now, turn);
        }
    }
    if over {
        clock.stop(now);
    }
}

/// The limits for the computer's search with a clock: its level's time a move, or less when
/// the clock asks for less (the budget of [`crate::ai::Clock`]); `None` without clocks.
pub fn computer_movetime(world: &World, side: Side, level: u8) -> Option<Duration> {
    let clocks = world.get_resource::<Clocks>()?;
    let clock = clocks.clock.as_ref()?;
    let left = clock.left(side, clocks.now());
    let control = clock.control();
    let ai_clock = crate::ai::Clock {
        remaining: left.main,
        increment: if let TimeControl::Fischer { increment, .. } = control { increment } else { Duration::ZERO },
        delay: if let TimeControl::Delay { delay, .. } = control { delay } else { Duration::ZERO },
        byoyomi: if left.periods > 0 { control.extra() } else { Duration::ZERO },
        moves_to_go: None,
    };
    let (soft, _) = ai_clock.budget();
    Some(crate::ai::level(level).movetime.min(soft).max(Duration::from_millis(5)))
}

/// The two clocks in a column beside the board: the bottom side's at the column's foot, the
/// other's at its head.
pub(super) fn faces(ui: &mut bevy_egui::egui::Ui, clock: &GameClock, bottom: Side, now: Duration) {
    bevy_egui::egui::Panel::bottom("bottom-clock").resizable(false).show_separator_line(false).show(ui, |ui| face(ui, clock, bottom, now));
    face(ui, clock, bottom.opponent(), now);
}

/// Draws one clock: the side's colour, its face (red when short), byo-yomi periods or the
/// delay, a frame while it runs.
pub(super) fn face(ui: &mut bevy_egui::egui::Ui, clock: &GameClock, side: Side, now: Duration) {
    use bevy_egui::egui;
    let reading = clock.reading(side, now);
    let running = clock.running() && clock.turn() == side;
    let low = reading.low(&clock.control());
    let ink = if low {
        egui::Color32::from_rgb(235, 70, 60)
    } else if running {
        egui::Color32::from_rgb(250, 250, 250)
    } else {
        egui::Color32::from_gray(150)
    };
    let fill = if running { egui::Color32::from_rgb(38, 70, 45) } else { egui::Color32::from_gray(32) };
    egui::Frame::new().fill(fill).corner_radius(4.0).inner_margin(egui::Margin::symmetric(10, 4)).show(ui, |ui| {
        ui.set_min_width(230.0);
        ui.allocate_ui_with_layout(egui::vec2(230.0, 36.0), egui::Layout::left_to_right(egui::Align::Center), |ui| {
            let disc = if side == Side::White { egui::Color32::WHITE } else { egui::Color32::BLACK };
            let (rect, _) = ui.allocate_exact_size(egui::vec2(16.0, 16.0), egui::Sense::hover());
            ui.painter().circle(rect.center(), 7.0, disc, egui::Stroke::new(1.0, egui::Color32::GRAY));
            ui.label(egui::RichText::new(reading.digits()).monospace().size(28.0).color(ink));
            let note = if reading.flagged {
                "time is up".to_string()
            } else if let Some(delay) = reading.delay {
                format!("delay {}", crate::clock::show(delay))
            } else if let TimeControl::ByoYomi { period, .. } = clock.control() {
                match (reading.overtime.is_some(), reading.periods) {
                    (false, n) => format!("then {n} × {} s", period.as_secs_f64()),
                    (true, 1) => "last period".to_string(),
                    (true, n) => format!("{n} periods"),
                }
            } else {
                String::new()
            };
            if !note.is_empty() {
                ui.label(egui::RichText::new(note).size(13.0).color(ink));
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::play;
    use crate::game::shared::fresh;

    #[test]
    fn the_clocks_stand_still_while_another_screen_shows() {
        let mut clocks = Clocks::default();
        clocks.stand_still(true);
        let at = clocks.now();
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(clocks.now(), at, "no time passes while they stand");
        clocks.stand_still(true);
        clocks.stand_still(false);
        assert!(clocks.now() - at < Duration::from_millis(25), "they go on from where they stood");
        std::thread::sleep(Duration::from_millis(30));
        assert!(clocks.now() > at);
    }
    use crate::game::shared::BoardInput;

    fn app(control: &str) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        crate::game::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins(play::plugin);
        logic(&mut app);
        app.world_mut().resource_mut::<Clocks>().control = Some(TimeControl::parse(control).unwrap());
        fresh(app.world_mut());
        app
    }

    fn play(app: &mut App, uci: &str) {
        let world = app.world_mut();
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<crate::rules::Rules>().0.clone();
        let m = crate::rules::parse_uci(&rules, &world.resource::<crate::rules::Board>().cells, &legal, uci).unwrap();
        for input in crate::game::shared::inputs_for(&m, &legal) {
            world.write_message(input);
        }
        app.update();
    }

    /// Moves the clocks' time on by `by` (as if the player thought that long).
    fn wait(app: &mut App, by: Duration) {
        let mut clocks = app.world_mut().resource_mut::<Clocks>();
        clocks.epoch -= by;
    }

    fn left(app: &App, side: Side) -> Duration {
        let clocks = app.world().resource::<Clocks>();
        clocks.clock.as_ref().unwrap().left(side, clocks.now()).main
    }

    #[test]
    fn moves_and_takebacks_drive_the_clocks() {
        let mut app = app("1+2");
        app.update();
        play(&mut app, "e2e4");
        assert!(app.world().resource::<Clocks>().clock.as_ref().unwrap().running());
        wait(&mut app, Duration::from_secs(10));
        play(&mut app, "e7e5");
        let black = left(&app, Side::Black);
        assert!(black > Duration::from_secs(51) && black <= Duration::from_secs(52), "{black:?}");
        // Takeback (U): Black's move is gone and its time comes back.
        app.world_mut().write_message(BoardInput::Takeback);
        app.update();
        assert_eq!(left(&app, Side::Black).as_secs(), 59, "Black's clock runs again from a minute");
    }

    #[test]
    fn a_flag_ends_the_game_and_a_takeback_resumes_it() {
        let mut app = app("0.5");
        play(&mut app, "e2e4");
        play(&mut app, "e7e5");
        wait(&mut app, Duration::from_secs(31));
        app.update();
        let outcome = app.world_mut().outcome().map(|o| o.to_string());
        assert_eq!(outcome.as_deref(), Some("black wins by time forfeit"));
        assert!(app.world().resource::<crate::game::shared::Notice>().0.as_ref().is_some_and(|n| n.0.contains("White's time is up")));
        // No move now.
        play_refused(&mut app, "g1f3");
        app.world_mut().write_message(BoardInput::Takeback);
        app.update();
        assert!(app.world_mut().outcome().is_none());
        assert_eq!(left(&app, Side::Black).as_secs(), 29, "Black's clock shows what it showed after e4");
    }

    fn play_refused(app: &mut App, uci: &str) {
        let before = app.world().resource::<MoveLog>().0.len();
        let world = app.world_mut();
        assert!(world.legal_moves().is_empty(), "{uci}: no legal move after a flag");
        app.update();
        assert_eq!(app.world().resource::<MoveLog>().0.len(), before);
    }

    #[test]
    fn a_finished_game_loaded_again_keeps_its_result() {
        let mut app = app("1");
        for m in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            play(&mut app, m);
        }
        let result = |app: &mut App| app.world_mut().outcome().map(|o| o.to_string());
        assert_eq!(result(&mut app).as_deref(), Some("black wins by checkmate"));
        let text = crate::game::files::game_save(app.world_mut());
        let save = crate::save::read_save(&text).unwrap();
        crate::game::files::resume_save(app.world_mut(), &save).unwrap();
        assert!(!app.world().resource::<Clocks>().clock.as_ref().unwrap().running(), "a finished game's clocks stand still");
        wait(&mut app, Duration::from_secs(3600));
        app.update();
        assert_eq!(result(&mut app).as_deref(), Some("black wins by checkmate"), "no flag after the end");
    }

    #[derive(Resource, Default)]
    struct Warnings(usize);

    #[test]
    fn the_low_time_warning_sounds_once() {
        let mut app = app("0.5");
        app.init_resource::<Warnings>();
        app.add_systems(Update, (|mut r: MessageReader<LowTime>, mut n: ResMut<Warnings>| n.0 += r.read().count()).after(tick));
        play(&mut app, "e2e4");
        // 30 s for the game warns at 3 s.
        wait(&mut app, Duration::from_secs(26));
        app.update();
        assert_eq!(app.world().resource::<Warnings>().0, 0);
        wait(&mut app, Duration::from_millis(1500));
        app.update();
        app.update();
        app.update();
        assert_eq!(app.world().resource::<Warnings>().0, 1, "warned once");
        assert!(app.world().resource::<Clocks>().warned[Side::Black.index()]);
    }

    #[test]
    fn the_computer_thinks_within_its_clock() {
        let app = app("0.1");
        // 6 s for the game: far less than level 8's second a move.
        let t = computer_movetime(app.world(), Side::White, 8).unwrap();
        assert!(t < Duration::from_millis(300), "{t:?}");
        let mut slow = self::app("60+30");
        slow.update();
        assert_eq!(computer_movetime(slow.world(), Side::White, 8), Some(crate::ai::level(8).movetime));
    }
}
