//! The window's icon (issue "Desktop feel", item 6): the white king, set on the window once
//! it exists. Bevy 0.19 has no window setting for an icon; winit has, on the main thread.

use super::shared::GameSystems;
use bevy::asset::RenderAssetUsages;
use bevy::ecs::system::NonSendMarker;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy::winit::WINIT_WINDOWS;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, set_icon.in_set(GameSystems::Present));
}

/// The icon from the embedded piece image, as winit takes it.
fn icon() -> Option<winit::window::Icon> {
    let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/pieces/king-w.png"));
    let usage = RenderAssetUsages::default();
    let image =
        Image::from_buffer(bytes, ImageType::Extension("png"), CompressedImageFormats::NONE, true, ImageSampler::Default, usage).ok()?;
    let (width, height) = (image.width(), image.height());
    winit::window::Icon::from_rgba(image.data?, width, height).ok()
}

/// Sets the icon once the primary window has its winit window.
fn set_icon(_main_thread: NonSendMarker, windows: Query<Entity, With<PrimaryWindow>>, mut done: Local<bool>) {
    if *done {
        return;
    }
    let Ok(entity) = windows.single() else { return };
    WINIT_WINDOWS.with_borrow(|winit_windows| {
        if let Some(window) = winit_windows.get_window(entity) {
            window.set_window_icon(icon());
            *done = true;
        }
    });
}
