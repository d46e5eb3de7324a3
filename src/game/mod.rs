//! The game window: the board ([`board`]), input ([`play`]), the side panel ([`ui`]), the start
//! screen and the variant editor, and the automation used by tests and people to check the
//! screen without clicking (`--moves`, `--screenshot`).
//!
//! Shape: the screen shown is a Bevy state ([`Screen`]: the game, the start screen over it, the
//! editor); the game's `Update` systems are ordered by one chained set enum ([`GameSystems`]),
//! its steps running only on the game's screen; piece facts are drawn from the descriptors
//! presets declare ([`crate::presets::FactLook`]). *Departure*: the start screen and the editor
//! are egui layers, not entities, so `DespawnOnExit` scopes what the game spawns that belongs to
//! its screen (particles); the board itself stays, under the start screen as under the editor.
//!
//! Layer: the highest; uses every other module.

mod bench;
mod board;
pub mod browse;
pub mod clocks;
pub mod computer;
pub mod editor_screen;
pub mod effects;
pub mod files;
mod icon;
mod idle;
mod marks;
mod particles;
mod pieces;
pub mod play;
mod premove;
mod profile_panel;
mod screens;
mod screenshot;
pub mod settings;
mod sound;
mod typing;
mod ui;

use std::collections::VecDeque;
use std::process::ExitCode;

use bevy::prelude::*;
use bevy::window::WindowResolution;

use crate::presets::{Activation, GameDefinition, Start, by_id};
use crate::rules::{Board, Rules, RulesWorld, Square, parse_uci};
use crate::variants;

/// Options of the game window: the command line's.
pub use crate::cli::GameArgs as GameOptions;

/// The game being played: its variant and the presets it started with.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameSetup {
    /// Variant id or path.
    pub variant_id: String,
    /// Presets switched on at the start, in order.
    pub presets: Vec<Activation>,
    /// The position the game started from (FEN).
    pub start_fen: String,
    /// A user variant's definition, self-contained (`extends` resolved), as saves carry it;
    /// `None` for a built-in.
    pub definition: Option<variants::VariantFile>,
}

/// Start a new game: another variant, other presets, or the same again (a rematch).
#[derive(Message, Clone, Debug, Default)]
pub struct NewGame {
    /// Variant id or path; `None` keeps the current one.
    pub variant: Option<String>,
    /// Preset ids; `None` keeps the current ones.
    pub presets: Option<Vec<&'static str>>,
}

/// The screen shown: the game (the board and its panel), the start screen (a new game, over
/// the board), or the variant editor (over the whole window). The game's input, moves, computer
/// and clocks run only on the game's screen ([`playing`]); its clocks stand still elsewhere.
#[derive(States, Default, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Screen {
    /// The board and its panel.
    #[default]
    Game,
    /// The start screen.
    Start,
    /// The variant editor.
    Editor,
}

/// Whether the game's screen is shown (true in a bare app without screens, as tests build).
pub fn playing(screen: Option<Res<State<Screen>>>) -> bool {
    screen.is_none_or(|s| *s.get() == Screen::Game)
}

/// The game's `Update` systems, in this order (chained once, by [`order`]): a plugin puts its
/// systems in the step they belong to instead of naming another module's systems.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameSystems {
    /// What a person or a script asks for before a move is made: keys, the mouse on the board
    /// and on the marks, typed moves, file actions, new games, `--moves`; and the clocks' tick
    /// (a flag falls before a late move). (Test games, settings and profile requests come
    /// before it, on every screen.)
    Input,
    /// The board's inputs made into moves ([`play::handle_input`]): after it, the position is
    /// the game's for this frame.
    Play,
    /// Replies to the position: the computer's move, a premove played.
    Respond,
    /// What follows the position: the clocks follow the turn, a look at an earlier position
    /// returns to the game after a move, the autosave, the position's facts for the panel, the
    /// list of typed moves.
    Follow,
    /// Drawing and sound, of the position as it now is: the board laid out and dressed, pieces
    /// placed and gliding, effects, marks, hints, badges, the window's title.
    Present,
}

/// Chains [`GameSystems`] in `Update`, the game's steps running only while it is shown (every
/// plugin with systems in it calls this; chaining again adds nothing).
pub(crate) fn order(app: &mut App) {
    app.configure_sets(
        Update,
        (GameSystems::Input, GameSystems::Play, GameSystems::Respond, GameSystems::Follow, GameSystems::Present).chain(),
    );
    app.configure_sets(Update, (GameSystems::Input, GameSystems::Play, GameSystems::Respond, GameSystems::Follow).run_if(playing));
}

/// Switches the window between fullscreen and a window.
#[derive(Message, Clone, Copy, Debug, Default)]
pub struct ToggleFullscreen;

/// Royal squares of the side to move that are attacked (drawn with a red glow).
#[derive(Resource, Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckSquares(pub Vec<Square>);

/// UCI moves still to play through the input path (`--moves`).
#[derive(Resource, Clone, Debug, Default)]
pub struct Script(pub VecDeque<String>);

/// The game `variant_id` names (a built-in, a `.ron` file, or `file.ini:section`) with the
/// presets `presets` on too, and its file when it is a user's.
///
/// # Errors
/// An unknown variant, a bad variant file, or a preset set that cannot be active.
fn definition_for(world: &World, variant_id: &str, presets: &[String]) -> Result<(GameDefinition, Option<variants::VariantFile>), String> {
    let (variant, file) = if variant_id.ends_with(".ron") || variants::fairy::ini_spec(variant_id).is_some() {
        let loaded = match variants::fairy::ini_spec(variant_id) {
            // A section of a Fairy-Stockfish ini file, converted.
            Some((path, section)) => variants::fairy::import_section(std::path::Path::new(path), section)
                .and_then(|file| Ok((variants::compile(&file).map_err(|e| e.to_string())?, file))),
            None => {
                let path = std::path::Path::new(variant_id);
                variants::load_path(path).and_then(|v| Ok((v, variants::resolve_path(path)?))).map_err(|e| e.to_string())
            }
        };
        match loaded {
            Ok((variant, file)) => (variant, Some(file)),
            Err(e) => {
                // A resumed game's variant whose file has gone since: its saved definition.
                let kept = world.get_resource::<GameSetup>().filter(|s| s.variant_id == variant_id).and_then(|s| s.definition.clone());
                let Some(file) = kept else { return Err(format!("variant: {e}")) };
                (variants::compile(&file).map_err(|e| format!("variant: {e}"))?, Some(file))
            }
        }
    } else {
        (variants::builtin(variant_id).map_err(|e| format!("variant: {e}"))?, None)
    };
    Ok((GameDefinition::new(variant)?.with_preset_ids(presets)?, file))
}

/// Sets up a new game of `variant_id` with `presets` in `world`: the old presets are switched
/// off on the old pieces, the rules installed, the new presets switched on, and the start (a
/// new one for a variant that shuffles it) set up.
///
/// # Errors
/// An unknown variant, a bad variant file, or a preset set that cannot be active.
pub fn start_game(world: &mut World, variant_id: &str, presets: &[String]) -> Result<(), String> {
    let (definition, file) = definition_for(world, variant_id, presets)?;
    start_definition(world, variant_id, file, &definition, Start::New(&mut |n| rand::random_range(0..n)))
}

/// Sets up a game of `definition` (labelled `variant_id`, with its `file` when it is a
/// user's) from `from`, with fresh clocks.
///
/// # Errors
/// A start the presets refuse, or a profile that does not fit it.
pub fn start_definition(
    world: &mut World,
    variant_id: &str,
    file: Option<variants::VariantFile>,
    definition: &GameDefinition,
    from: Start,
) -> Result<(), String> {
    definition.start_in(world, from)?;
    let start_fen = world.fen();
    world.insert_resource(GameSetup {
        variant_id: variant_id.to_string(),
        presets: definition.presets.clone(),
        start_fen,
        definition: file,
    });
    clocks::fresh(world);
    Ok(())
}

/// Opens the game window and runs until it closes.
pub fn run(options: GameOptions) -> ExitCode {
    let mut app = App::new();
    // Without a display the windowing plugin panics while it is added: that is said in one
    // line, and the program exits with an error, instead of a backtrace.
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let windowed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        app.add_plugins(DefaultPlugins.set(WindowPlugin {
            primary_window: Some(Window { title: "Chimera".into(), resolution: WindowResolution::new(1240, 880), ..default() }),
            ..default()
        }));
    }));
    std::panic::set_hook(quiet);
    if let Err(panic) = windowed {
        let why =
            panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
        eprintln!("chimera: {}", no_window(&why));
        return ExitCode::FAILURE;
    }
    app.add_plugins(bevy_egui::EguiPlugin::default());
    // The game from the command line: its variant and presets, a profile in place of the
    // variant's own, and the position given or a new start.
    let variant_id = options.variant.as_deref().unwrap_or("chess");
    let (mut definition, file) = match definition_for(app.world(), variant_id, &options.presets) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("chimera: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(name) = &options.profile {
        match crate::modifiers::load_profile(name) {
            Ok(p) => definition.profile = Some(p),
            Err(e) => {
                eprintln!("chimera: --profile: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let started = match &options.fen {
        Some(fen) => start_definition(app.world_mut(), variant_id, file, &definition, Start::Given(fen)).map_err(|e| format!("--fen: {e}")),
        None => start_definition(app.world_mut(), variant_id, file, &definition, Start::New(&mut |n| rand::random_range(0..n))),
    };
    if let Err(e) = started {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    app.insert_resource(Script(options.moves.iter().cloned().collect()));
    app.insert_resource(options);
    app.init_resource::<CheckSquares>();
    app.add_message::<NewGame>();
    app.add_message::<ToggleFullscreen>();
    app.add_plugins((
        settings::plugin,
        play::plugin,
        effects::plugin,
        board::plugin,
        ui::plugin,
        profile_panel::plugin,
        sound::plugin,
        screenshot::plugin,
        bench::plugin,
        files::plugin,
        screens::plugin,
        computer::plugin,
        idle::plugin,
        marks::plugin,
        typing::plugin,
    ));
    app.add_plugins((premove::plugin, icon::plugin, clocks::plugin, browse::plugin, editor_screen::plugin));
    // `--editor`: the editor opens at once.
    let mut first_screen = Screen::Game;
    if let Some(what) = app.world().resource::<GameOptions>().editor.clone() {
        if let Err(e) = app.world_mut().resource_mut::<editor_screen::EditorScreen>().open(&what) {
            eprintln!("chimera: --editor: {e}");
            return ExitCode::FAILURE;
        }
        first_screen = Screen::Editor;
    }
    // Clocks from the command line, set once the position is.
    if let Some(control) = app.world().resource::<GameOptions>().clock {
        app.world_mut().resource_mut::<clocks::Clocks>().control = Some(control);
        clocks::fresh(app.world_mut());
    }
    {
        let o = app.world().resource::<GameOptions>().clone();
        let mut cp = app.world_mut().resource_mut::<computer::ComputerPlay>();
        let level = o.level.unwrap_or(3);
        cp.sides = o.computer.map(|on| on.then_some(level));
        if let Some(ms) = o.pace_ms {
            cp.pace = ms as f32 / 1000.0;
        }
        if o.computer == [true, false] {
            // The person plays black: black at the bottom.
            app.world_mut().resource_mut::<board::BoardView>().bottom = crate::rules::Side::Black;
        }
    }
    // Started plainly (no variant, moves or automation): show the start screen.
    let plain = {
        let o = app.world().resource::<GameOptions>();
        o.variant.is_none()
            && o.fen.is_none()
            && o.moves.is_empty()
            && o.screenshot.is_none()
            && o.bench_frames.is_none()
            && o.editor.is_none()
    };
    if plain {
        let offer = files::autosave_path().and_then(|p| screens::resume_offer(&p));
        let mut screen = app.world_mut().resource_mut::<screens::StartScreen>();
        screen.selected = Some("chess".into());
        screen.resume = offer;
        first_screen = Screen::Start;
    }
    app.insert_state(first_screen);
    // The game is autosaved after every change, except under automation (a screenshot or a
    // benchmark must not overwrite a player's game).
    let automated = {
        let o = app.world().resource::<GameOptions>();
        o.screenshot.is_some() || o.bench_frames.is_some()
    };
    if !automated {
        app.insert_resource(files::Autosave::to(files::autosave_path()));
    }
    app.add_systems(Update, (run_script, keyboard, new_game).chain().in_set(GameSystems::Input));
    app.add_systems(Update, ui::refresh_position_facts.in_set(GameSystems::Follow));
    app.add_systems(Update, (window_title.run_if(resource_changed::<GameSetup>), fullscreen).in_set(GameSystems::Present));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
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
    if !world.resource::<play::PendingChoice>().0.is_empty() {
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
            for input in play::inputs_for(&m, &legal) {
                play::handle(world, input);
            }
            let played = world.resource::<crate::rules::MoveLog>().0.len() > played_before;
            let notice = world.resource::<play::Notice>().0.clone().map(|n| n.0);
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
    mut inputs: MessageWriter<play::BoardInput>,
    mut browse: MessageWriter<browse::BrowseTo>,
    mut view: ResMut<board::BoardView>,
    mut notice: ResMut<play::Notice>,
    mut contexts: bevy_egui::EguiContexts,
) {
    if contexts.ctx_mut().is_ok_and(|c| c.egui_wants_keyboard_input()) {
        return;
    }
    if keys.just_pressed(KeyCode::KeyU) {
        inputs.write(play::BoardInput::Takeback);
    }
    if keys.just_pressed(KeyCode::KeyR) {
        inputs.write(play::BoardInput::Redo);
    }
    for (key, to) in [
        (KeyCode::ArrowLeft, browse::BrowseTo::Back),
        (KeyCode::ArrowRight, browse::BrowseTo::Forward),
        (KeyCode::Home, browse::BrowseTo::Start),
        (KeyCode::End, browse::BrowseTo::Live),
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
    }
    if keys.just_pressed(KeyCode::Escape) {
        inputs.write(play::BoardInput::Cancel);
    }
}

/// Starts the game a [`NewGame`] asks for; a failure is shown as a notice and changes nothing.
fn new_game(world: &mut World) {
    let requests: Vec<NewGame> = world.resource_mut::<Messages<NewGame>>().drain().collect();
    let Some(request) = requests.into_iter().last() else { return };
    let setup = world.resource::<GameSetup>().clone();
    let variant_id = request.variant.unwrap_or(setup.variant_id.clone());
    let presets: Vec<String> = match request.presets {
        Some(ids) => ids.iter().map(|s| s.to_string()).collect(),
        None if variant_id == setup.variant_id => setup.presets.iter().map(|a| a.id.to_string()).collect(),
        None => Vec::new(),
    };
    match start_game(world, &variant_id, &presets) {
        Ok(()) => after_new_game(world),
        Err(e) => world.resource_mut::<play::Notice>().0 = Some((e, 5.0)),
    }
}

/// After a new game is set up: the board is laid out and drawn again, and the old game's
/// selection, redo moves and pending choice go.
pub(super) fn after_new_game(world: &mut World) {
    world.resource_mut::<board::LayoutVersion>().0 += 1;
    world.resource_mut::<play::PositionVersion>().0 += 1;
    *world.resource_mut::<play::Selection>() = play::Selection::default();
    world.resource_mut::<play::RedoStack>().0.clear();
    world.resource_mut::<play::PendingChoice>().0.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every new game of a variant that shuffles its start starts from a shuffled position (a
    /// rematch too); a variant that does not shuffle starts from its start.
    #[test]
    fn a_shuffled_variant_starts_each_game_anew() {
        let mut world = World::new();
        let mut starts = std::collections::BTreeSet::new();
        for _ in 0..6 {
            start_game(&mut world, "chess960", &[]).unwrap();
            let fen = world.resource::<GameSetup>().start_fen.clone();
            let ranks: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
            assert_eq!(ranks[0], ranks[7].to_ascii_lowercase(), "black mirrors white: {fen}");
            starts.insert(fen);
        }
        assert!(starts.len() > 1, "six games, one start: {starts:?}");
        start_game(&mut world, "chess", &[]).unwrap();
        assert_eq!(world.resource::<GameSetup>().start_fen, crate::rules::Variant::chess().start_fen);
    }
}
