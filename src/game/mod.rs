//! The game window. For now a board that renders the engine's piece entities; the full game
//! (screens, input, effects, sound) is built on this.

mod board;
mod screenshot;

use std::process::ExitCode;
use std::sync::Arc;

use bevy::prelude::*;
use bevy::window::WindowResolution;

use crate::rules::{Board, Rules, RulesWorld, install_rules, parse_uci};
use crate::variants;

/// Options of the game window.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameOptions {
    /// Variant id or path of a `.ron` file; the default is chess.
    pub variant: Option<String>,
    /// UCI moves to play before the board is shown.
    pub moves: Vec<String>,
    /// Save a screenshot here once the board is drawn, then exit.
    pub screenshot: Option<String>,
}

/// Plays `moves` (UCI) on the rules installed in `world`.
///
/// # Errors
/// The first move that does not read or is not legal, with the reason.
fn play_moves(world: &mut World, moves: &[String]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        let legal = world.legal_moves().to_vec();
        let rules = world.resource::<Rules>().0.clone();
        let m = parse_uci(&rules, &world.resource::<Board>().cells, &legal, text).map_err(|e| format!("move {}: {e}", i + 1))?;
        world.apply_move(m).map_err(|e| format!("move {}: {e}", i + 1))?;
    }
    Ok(())
}

/// Opens the game window and runs until it closes.
pub fn run(options: GameOptions) -> ExitCode {
    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window { title: "Chimera".into(), resolution: WindowResolution::new(900, 900), ..default() }),
        ..default()
    }));
    let variant = match variants::find(options.variant.as_deref().unwrap_or("chess")) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("chimera: variant: {e}");
            return ExitCode::FAILURE;
        }
    };
    let requests = crate::presets::requested_by(&variant);
    if let Err(e) = install_rules(app.world_mut(), Arc::new(variant)) {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    if let Err(e) = crate::presets::set_active_presets(app.world_mut(), requests) {
        eprintln!("chimera: {e}");
        return ExitCode::FAILURE;
    }
    if let Err(e) = play_moves(app.world_mut(), &options.moves) {
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
