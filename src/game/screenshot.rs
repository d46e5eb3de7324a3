//! `--screenshot <file>`: save the window to a PNG once it has been drawn, then exit.

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured, save_to_disk};

use super::GameOptions;

/// Frames to wait before capturing, so that the window and text are fully laid out.
const SETTLE_FRAMES: u32 = 10;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, capture_when_settled);
}

fn capture_when_settled(mut commands: Commands, options: Res<GameOptions>, mut frames: Local<u32>) {
    let Some(path) = options.screenshot.clone() else { return };
    *frames += 1;
    if *frames != SETTLE_FRAMES {
        return;
    }
    let mut save = save_to_disk(path);
    commands.spawn(Screenshot::primary_window()).observe(move |captured: On<ScreenshotCaptured>, mut exit: MessageWriter<AppExit>| {
        save(captured);
        exit.write(AppExit::Success);
    });
}
