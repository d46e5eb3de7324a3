//! The game window. For now a board that renders the engine's piece entities; the full game
//! (screens, input, effects, sound) is built on this.

mod board;
mod screenshot;

use std::process::ExitCode;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::WindowResolution;

use crate::rules::{Variant, install_rules};

/// Options of the game window.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameOptions {
    /// Save a screenshot here once the board is drawn, then exit.
    pub screenshot: Option<String>,
}

/// Opens the game window and runs until it closes.
pub fn run(options: GameOptions) -> ExitCode {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "Chimera".into(), resolution: WindowResolution::new(900, 900), ..default() }),
        ..default()
    }));
    if let Err(e) = install_rules(app.world_mut(), Arc::new(Variant::chess())) {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    app.insert_resource(options);
    app.add_plugins((board::plugin, screenshot::plugin));
    match app.run() {
        AppExit::Success => ExitCode::SUCCESS,
        AppExit::Error(code) => ExitCode::from(code.get()),
    }
}
