//! The window's shell: opening it, the game the command line asks for, the first screen, and
//! what belongs to no screen in particular: the window's title, fullscreen, the keys of the
//! game's screen, new games asked for, and the `--moves` script.

use bevy::prelude::*;
use bevy::window::WindowResolution;

use super::shared::{
    BoardInput, BoardView, BrowseTo, Clocks, ComputerPlay, FoulWarning, GameSetup, GameSystems, NewGame, Notice, PendingChoice, Screen,
    Script, ToggleFullscreen, Tone, after_new_game, definition_for, fresh, inputs_for, start_definition, start_game,
};
use super::{GameOptions, editor_screen, files, play, screens, ui};
use crate::presets::{Start, by_id};
use crate::rules::{Board, Rules, RulesWorld, Side, parse_uci};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (run_script, keyboard, new_game).chain().in_set(GameSystems::Input));
    app.add_systems(Update, (window_title.run_if(resource_changed::<GameSetup>), fullscreen, fit_to_monitor).in_set(GameSystems::Present));
}

/// Opens the window. Without a display the windowing plugin panics while it is added: that is
/// said in one line instead of a backtrace.
///
/// # Errors
/// No window could be opened, and why.
pub(super) fn open_window(app: &mut App) -> Result<(), String> {
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let windowed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        app.add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window { title: "Chimera".into(), resolution: WindowResolution::new(1240, 880), ..default() }),
            ..default()
        }));
    }));
    std::panic::set_hook(quiet);
    windowed.map_err(|panic| {
        let why =
            panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
        no_window(&why)
    })
}

/// Sets up the game from the command line: its variant and presets, a profile in place of the
/// variant's own, and the position given or a new start; and the moves to play (`--moves`).
///
/// # Errors
/// The variant, profile or position cannot be played.
pub(super) fn start_from(app: &mut App, options: &GameOptions) -> Result<(), String> {
    let variant_id = options.variant.as_deref().unwrap_or("chess");
    let (mut definition, file) = definition_for(app.world(), variant_id, &options.presets)?;
    if let Some(name) = &options.profile {
        definition.profile = Some(crate::modifiers::load_profile(name).map_err(|e| format!("--profile: {e}"))?);
    }
    match &options.fen {
        Some(fen) => {
            start_definition(app.world_mut(), variant_id, file, &definition, Start::Given(fen)).map_err(|e| format!("--fen: {e}"))?
        }
        None => start_definition(app.world_mut(), variant_id, file, &definition, Start::New(&mut |n| rand::random_range(0..n)))?,
    }
    app.insert_resource(Script(options.moves.iter().cloned().collect()));
    Ok(())
}

/// What the command line asks of the window once its plugins are in: the editor open at once
/// (`--editor`), clocks, the computer's sides, level and pace, the start screen when started
/// plainly, and the autosave (not under automation).
///
/// # Errors
/// `--editor` names something the editor cannot open.
pub(super) fn apply_options(app: &mut App) -> Result<(), String> {
    let o = app.world().resource::<GameOptions>().clone();
    let mut first_screen = Screen::Game;
    if let Some(what) = &o.editor {
        app.world_mut().resource_mut::<editor_screen::EditorScreen>().open(what).map_err(|e| format!("--editor: {e}"))?;
        first_screen = Screen::Editor;
    }
    // Clocks from the command line, set once the position is.
    if let Some(control) = o.clock {
        app.world_mut().resource_mut::<Clocks>().control = Some(control);
        fresh(app.world_mut());
    }
    let mut cp = app.world_mut().resource_mut::<ComputerPlay>();
    cp.sides = o.computer.map(|on| on.then_some(o.level.unwrap_or(3)));
    if let Some(ms) = o.pace_ms {
        cp.pace = ms as f32 / 1000.0;
    }
    if o.analyse {
        app.world_mut().init_resource::<super::shared::Analysis>();
        app.world_mut().resource_mut::<super::shared::Analysis>().on = true;
    }
    if o.computer == [true, false] {
        // The person plays black: black at the bottom.
        app.world_mut().resource_mut::<BoardView>().bottom = Side::Black;
    }
    // Started plainly (no variant, moves or automation): show the start screen.
    let automated = o.screenshot.is_some() || o.bench_frames.is_some();
    let plain = o.variant.is_none() && o.fen.is_none() && o.moves.is_empty() && !automated && o.editor.is_none();
    if plain {
        let mut screen = app.world_mut().resource_mut::<screens::StartScreen>();
        screen.selected = Some("chess".into());
        first_screen = Screen::Start;
    }
    app.insert_state(first_screen);
    // The game is autosaved after every change, except under automation (a screenshot or a
    // benchmark must not overwrite a player's game).
    if !automated {
        app.insert_resource(files::Autosave::into(files::autosave_dir()));
    }
    Ok(())
}

/// The window's title names the game: "Chimera — Crazyhouse with Hit points, Stamina".
fn window_title(setup: Res<GameSetup>, rules: Res<Rules>, mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>) {
    let presets: Vec<&str> = setup.presets.iter().filter_map(|a| by_id(a.id)).map(|d| d.name).collect();
    let with = if presets.is_empty() { String::new() } else { format!(" with {}", presets.join(", ")) };
    let title = format!("Chimera — {}{with}", rules.0.name);
    for mut window in &mut windows {
        if window.title != title {
            window.title.clone_from(&title);
        }
    }
}

/// The window opens at 1240×880; on a smaller screen (1280×800) it shrinks once to fit, leaving
/// room for the desktop's bars, so that nothing is cut off below the screen's edge.
fn fit_to_monitor(
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
    monitors: Query<&bevy::window::Monitor, With<bevy::window::PrimaryMonitor>>,
    mut done: Local<bool>,
) {
    if *done {
        return;
    }
    let (Ok(mut window), Ok(monitor)) = (windows.single_mut(), monitors.single()) else { return };
    *done = true;
    let scale = monitor.scale_factor.max(0.5) as f32;
    let (room_w, room_h) = (monitor.physical_width as f32 / scale - 16.0, monitor.physical_height as f32 / scale - 64.0);
    let (w, h) = (window.resolution.width(), window.resolution.height());
    if w > room_w || h > room_h {
        window.resolution.set(w.min(room_w).max(640.0), h.min(room_h).max(480.0));
    }
}

/// Fullscreen on the window's monitor, or back to a window: F11 (on every screen) or the
/// panel's button.
fn fullscreen(
    mut toggles: MessageReader<ToggleFullscreen>,
    keys: Res<ButtonInput<KeyCode>>,
    mut windows: Query<&mut Window, With<bevy::window::PrimaryWindow>>,
) {
    let asked = toggles.read().count() + usize::from(keys.just_pressed(KeyCode::F11));
    if asked.is_multiple_of(2) {
        return;
    }
    for mut window in &mut windows {
        window.mode = match window.mode {
            bevy::window::WindowMode::Windowed => bevy::window::WindowMode::BorderlessFullscreen(bevy::window::MonitorSelection::Current),
            _ => bevy::window::WindowMode::Windowed,
        };
    }
}

/// One line for a window that could not be opened, from the windowing library's panic.
fn no_window(why: &str) -> String {
    let commands = "the commands perft, check, uci and list need none";
    if why.contains("neither WAYLAND_DISPLAY nor") || why.contains("DISPLAY is set") {
        return format!("no display to open the game's window on (neither DISPLAY nor WAYLAND_DISPLAY is set); {commands}");
    }
    if why.contains("XOpenDisplayFailed") {
        let display = std::env::var("DISPLAY").unwrap_or_default();
        return format!("cannot connect to the display '{display}' (is an X server running there?); {commands}");
    }
    let first = why.lines().next().unwrap_or("unknown reason");
    format!("cannot open the game's window ({first}); {commands}")
}

/// Plays the next `--moves` move through the same inputs a player makes; an illegal or refused
/// move ends the program with its reason.
fn run_script(world: &mut World) {
    // (The moves wait for the renderer, so that their effects are drawn as they play.)
    if !world.resource::<PendingChoice>().0.is_empty() || world.get_resource::<super::idle::Warming>().is_some_and(|w| w.busy()) {
        return;
    }
    let Some(text) = world.resource_mut::<Script>().0.pop_front() else { return };
    let played_before = world.resource::<crate::rules::MoveLog>().0.len();
    let legal = world.legal_moves().to_vec();
    let rules = world.resource::<Rules>().0.clone();
    let parsed = parse_uci(&rules, &world.resource::<Board>().cells, &legal, &text);
    let failure = match parsed {
        Err(e) => Some(format!("move '{text}': {e}")),
        Ok(m) => {
            for input in inputs_for(&m, &legal) {
                play::handle(world, input);
            }
            // A foul drop asks as it does a player; the script's last move leaves the question
            // open (for a screenshot), an earlier one answers yes.
            if world.resource::<FoulWarning>().0.is_some() {
                if world.resource::<Script>().0.is_empty() {
                    return;
                }
                play::handle(world, BoardInput::ConfirmFoul);
            }
            let played = world.resource::<crate::rules::MoveLog>().0.len() > played_before;
            let notice = world.resource::<Notice>().0.clone().map(|n| n.0);
            (!played).then(|| format!("move '{text}': {}", notice.unwrap_or_else(|| "not played".into())))
        }
    };
    if let Some(reason) = failure {
        eprintln!("chimera: {reason}");
        world.write_message(AppExit::from_code(2));
    }
}

/// U take back, R redo, ← → Home End look through the game (view only), F flip, Z zen mode,
/// F11 fullscreen, Esc cancel a selection or choice — on the game's screen (it runs in
/// [`GameSystems::Input`]), and not while a text field of the panel has the keyboard (typing
/// `F` in the move field does not flip the board).
fn keyboard(
    keys: Res<ButtonInput<KeyCode>>,
    mut inputs: MessageWriter<BoardInput>,
    mut browse: MessageWriter<BrowseTo>,
    mut view: ResMut<BoardView>,
    mut notice: ResMut<Notice>,
    mut contexts: bevy_egui::EguiContexts,
) {
    if contexts.ctx_mut().is_ok_and(|c| c.egui_wants_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyU) {
        inputs.write(BoardInput::Takeback);
    }
    if keys.just_pressed(KeyCode::KeyR) {
        inputs.write(BoardInput::Redo);
    }
    for (key, to) in [
        (KeyCode::ArrowLeft, BrowseTo::Back),
        (KeyCode::ArrowRight, BrowseTo::Forward),
        (KeyCode::Home, BrowseTo::Start),
        (KeyCode::End, BrowseTo::Live),
    ] {
        if keys.just_pressed(key) {
            browse.write(to);
        }
    }
    if keys.just_pressed(KeyCode::KeyF) {
        view.bottom = view.bottom.opponent();
    }
    if keys.just_pressed(KeyCode::KeyZ) {
        view.zen = !view.zen;
        notice.0 = view.zen.then(|| (ui::ZEN_NOTICE.to_string(), 3.0));
        notice.1 = Tone::Info;
    }
    if keys.just_pressed(KeyCode::Escape) {
        inputs.write(BoardInput::Cancel);
    }
}

/// Starts the game a [`NewGame`] asks for; a failure is shown as a notice and changes nothing
/// (a start the presets refuse once they are on included, as
/// [`GameDefinition::start_in`](crate::presets::GameDefinition::start_in) says).
fn new_game(world: &mut World) {
    let requests: Vec<NewGame> = world.resource_mut::<Messages<NewGame>>().drain().collect();
    let Some(request) = requests.into_iter().last() else { return };
    // A game in progress is replaced only once the player says yes.
    if !request.confirmed && files::in_progress(world) {
        world.resource_mut::<files::Replacing>().0 = Some(files::Replacement::New(request));
        return;
    }
    let setup = world.resource::<GameSetup>().clone();
    let seating = request.seating.clone();
    if let (Some(seating), Some(mut clocks)) = (&seating, world.get_resource_mut::<Clocks>()) {
        clocks.control = seating.clock;
    }
    let variant_id = request.variant.unwrap_or(setup.variant_id.clone());
    let presets: Vec<String> = match request.presets {
        Some(ids) => ids.iter().map(|s| s.to_string()).collect(),
        None if variant_id == setup.variant_id => setup.presets.iter().map(|a| a.id.to_string()).collect(),
        None => Vec::new(),
    };
    match start_game(world, &variant_id, &presets) {
        Ok(()) => {
            if let Some(seating) = seating {
                if let Some(mut computer) = world.get_resource_mut::<ComputerPlay>() {
                    computer.cancel();
                    computer.sides = seating.computer;
                    computer.pace = seating.pace;
                }
                if let (Some(bottom), Some(mut view)) = (seating.bottom, world.get_resource_mut::<BoardView>()) {
                    view.bottom = bottom;
                }
                if let (true, Some(mut analysis)) = (seating.analyse, world.get_resource_mut::<super::shared::Analysis>()) {
                    analysis.on = true;
                }
                if seating.set_up {
                    world.resource_mut::<super::shared::SetUpRequested>().0 = true;
                }
            }
            after_new_game(world);
        }
        Err(e) => world.resource_mut::<Notice>().show(Tone::Problem, e, 5.0),
    }
}
