//! The game window: one plugin per concern, listed in `run`. The game's screen is the board
//! (`board`, with `marks` and `effects`), input (`play`, `premove`, `typing`), the
//! computer (`computer`, and `review` for the game review), the clocks (`clocks`), looking back
//! (`browse`), files (`files`), the position set-up board (`setup_board`) and the side panel (`ui`, `profile_panel`); the other screens are the start
//! screen (`screens`) and the variant editor (`editor_screen`), which share `pictures` (board
//! previews, move diagrams, rules in words) with the panel; `shell` opens the window
//! and holds what belongs to no screen; automation (`--moves`, `--screenshot`, `--bench-frames`)
//! lets tests and people check the screen without clicking.
//!
//! Shape: what more than one plugin reads or writes (resources, messages, the screen state, the
//! order of a frame's steps, setting a game up) lives in `shared`, below every plugin; a
//! plugin uses `shared` and the plugins below it, never one above (`tests/layers.rs` holds
//! this). The screen shown is a Bevy state (`shared::Screen`: the game, the start screen over
//! it, the editor); the game's `Update` systems are ordered by one chained set enum
//! (`shared::GameSystems`), its steps running only on the game's screen; piece facts are drawn
//! from the descriptors presets declare (`crate::presets::FactLook`). *Departure*: the start
//! screen and the editor are egui layers, not entities, so `DespawnOnExit` scopes what the game
//! spawns that belongs to its screen (particles); the board itself stays, under the start screen
//! as under the editor.
//!
//! Layer: the highest; uses every other module.

mod bench;
mod board;
mod browse;
mod clocks;
mod computer;
mod editor_screen;
mod effects;
mod files;
mod icon;
mod idle;
mod marks;
mod particles;
mod pictures;
mod pieces;
mod play;
mod premove;
mod profile_panel;
mod review;
mod screens;
mod screenshot;
mod settings;
mod setup_board;
mod shared;
mod shell;
mod sound;
mod typing;
mod ui;

use std::process::ExitCode;

use bevy::prelude::*;

/// Options of the game window: the command line's.
pub use crate::cli::GameArgs as GameOptions;

/// Opens the game window and runs until it closes.
pub fn run(options: GameOptions) -> ExitCode {
    let mut app = App::new();
    if let Err(e) = shell::open_window(&mut app) {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    app.add_plugins(bevy_egui::EguiPlugin::default());
    if let Err(e) = shell::start_from(&mut app, &options) {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    app.insert_resource(options);
    // The window and what all screens share.
    app.add_plugins((shared::plugin, settings::plugin, pieces::plugin, icon::plugin, shell::plugin));
    // The game: moves made, replies, time, looking back, files.
    app.add_plugins((play::plugin, premove::plugin, typing::plugin, computer::plugin, clocks::plugin, browse::plugin, files::plugin));
    app.add_plugins((review::plugin, setup_board::plugin));
    // The game's screen: the board, its marks and effects, sound, the panel.
    app.add_plugins((board::plugin, marks::plugin, effects::plugin, sound::plugin, idle::plugin, ui::plugin, profile_panel::plugin));
    // The other screens, and automation.
    app.add_plugins((screens::plugin, editor_screen::plugin, screenshot::plugin, bench::plugin));
    if let Err(e) = shell::apply_options(&mut app) {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
