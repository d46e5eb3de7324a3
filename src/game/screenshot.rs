//! `--screenshot <file>`: once the `--moves` are played, their effects have played out and the
//! board has settled, save the window to a PNG and exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::GameOptions;
use super::shared::{GameSystems, PanelData, Script};

/// Frames to wait after the last move, so that the window, text and marks are laid out.
const SETTLE_FRAMES: u32 = 12;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, capture_when_settled.in_set(GameSystems::Present));
}

fn capture_when_settled(
    mut commands: Commands,
    options: Res<GameOptions>,
    script: Res<Script>,
    animating: Query<(), Or<(With<super::effects::Particle>, With<super::board::Glide>, With<super::effects::PopIn>)>>,
    log: Res<crate::rules::MoveLog>,
    panel: Res<PanelData>,
    warming: Option<Res<super::idle::Warming>>,
    mut frames: Local<u32>,
) {
    let Some(path) = options.screenshot.clone() else { return };
    // Nothing is counted while the renderer still compiles pipelines: sprites are not drawn yet
    // (a shot a few frames after the start once came out blank).
    if warming.is_some_and(|w| w.busy()) {
        *frames = 0;
        return;
    }
    // Wait for the moves (and, with --until-ply, for the game to reach that many moves or
    // end), then for the effects of the last one to play out (or a set number of frames, to
    // see them playing).
    let short = options.until_ply.is_some_and(|n| (log.0.len() as u32) < n && panel.outcome.is_none());
    if !script.0.is_empty() || short || (options.screenshot_after.is_none() && !animating.is_empty()) {
        *frames = 0;
        return;
    }
    *frames += 1;
    if *frames != options.screenshot_after.unwrap_or(SETTLE_FRAMES) {
        return;
    }
    let mut save = save_to_disk(path.clone());
    commands.spawn(Screenshot::primary_window()).observe(move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
        // Bevy's saver only logs a failure: the file must be there, written now, for success.
        let started = std::time::SystemTime::now() - std::time::Duration::from_secs(1);
        save(captured);
        let written = std::fs::metadata(&path).and_then(|m| m.modified()).is_ok_and(|t| t >= started);
        if written {
            exit.write(AppExit::Success);
        } else {
            error!("the screenshot could not be saved to {path}");
            exit.write(AppExit::from_code(3));
        }
    });
}
