//! Settings that persist between runs: board theme, piece set, effects level, sound volume and
//! mute, coordinates. Saved as RON in the platform's config directory, written atomically (a
//! temporary file renamed over the old one); a missing or unreadable file gives the defaults.

use std::path::{Path, PathBuf};

use super::shared::GameSystems;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

/// How much the effects show.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum EffectsLevel {
    /// No animation.
    Off,
    /// The default.
    #[default]
    Normal,
    /// More of everything.
    Arcade,
}

/// The board's colours.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardTheme {
    /// Light and dark wood.
    #[default]
    Brown,
    /// Blue and white.
    Blue,
    /// Green and cream.
    Green,
}

impl BoardTheme {
    /// Every theme.
    pub const ALL: [BoardTheme; 3] = [BoardTheme::Brown, BoardTheme::Blue, BoardTheme::Green];

    /// Light and dark square colours.
    pub fn colours(self) -> (Color, Color) {
        match self {
            BoardTheme::Brown => (Color::srgb_u8(240, 217, 181), Color::srgb_u8(181, 136, 99)),
            BoardTheme::Blue => (Color::srgb_u8(222, 227, 230), Color::srgb_u8(140, 162, 173)),
            BoardTheme::Green => (Color::srgb_u8(238, 238, 210), Color::srgb_u8(118, 150, 86)),
        }
    }
}

/// How pieces are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PieceSet {
    /// Drawn images (Noto Sans Symbols 2 glyphs).
    #[default]
    Glyphs,
    /// Discs with the piece letter, as in diagrams of variant notation.
    Letters,
    /// Flat silhouettes drawn for Chimera (the standard pieces and the knight compounds; other
    /// pieces keep their glyph images).
    Flat,
}

/// Everything the player can set.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Board colours.
    pub theme: BoardTheme,
    /// Piece drawing.
    pub pieces: PieceSet,
    /// Effects level.
    pub effects: EffectsLevel,
    /// Volume from 0 to 1.
    pub volume: f32,
    /// Sound off.
    pub muted: bool,
    /// Coordinates on the board's edge squares.
    pub coordinates: bool,
    /// How fast pieces glide and effects play: 1 is the usual pace, 2 twice as fast.
    pub animation_speed: f32,
}

/// The animation speed in force (from the settings), as a factor on the time animations see.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct AnimationSpeed(pub f32);

impl Default for AnimationSpeed {
    fn default() -> Self {
        AnimationSpeed(1.0)
    }
}

/// The slowest and fastest animation speeds.
pub const ANIMATION_SPEEDS: std::ops::RangeInclusive<f32> = 0.25..=4.0;

impl Default for Settings {
    fn default() -> Self {
        Settings {
            theme: BoardTheme::Brown,
            pieces: PieceSet::Glyphs,
            effects: EffectsLevel::Normal,
            volume: 0.7,
            muted: false,
            coordinates: true,
            animation_speed: 1.0,
        }
    }
}

/// The platform's config directory for Chimera: `$XDG_CONFIG_HOME/chimera` or
/// `~/.config/chimera` on Linux and BSD, `~/Library/Application Support/chimera` on macOS,
/// `%APPDATA%\chimera` on Windows.
pub fn config_dir() -> Option<PathBuf> {
    crate::save::platform_dir("XDG_CONFIG_HOME", ".config")
}

/// Where the settings live.
pub fn settings_path() -> Option<PathBuf> {
    config_dir().map(|d| d.join("settings.ron"))
}

/// Reads settings from `path`; a missing file gives the defaults, an unreadable one (not text,
/// not RON) the defaults with a warning saying why, and a value out of range its nearest
/// allowed value with a warning.
pub fn load(path: &Path) -> Settings {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Settings::default(),
        Err(e) => {
            warn!("settings in {} cannot be read ({e}); using the defaults", path.display());
            return Settings::default();
        }
    };
    let Ok(text) = String::from_utf8(bytes) else {
        warn!("settings in {} are not text; using the defaults", path.display());
        return Settings::default();
    };
    let mut settings: Settings = match ron::from_str(&text) {
        Ok(s) => s,
        Err(e) => {
            warn!("settings in {} do not read ({e}); using the defaults", path.display());
            return Settings::default();
        }
    };
    if !(0.0..=1.0).contains(&settings.volume) {
        let volume = if settings.volume.is_nan() { Settings::default().volume } else { settings.volume.clamp(0.0, 1.0) };
        warn!("settings in {}: volume {} is not between 0 and 1; using {volume}", path.display(), settings.volume);
        settings.volume = volume;
    }
    if !ANIMATION_SPEEDS.contains(&settings.animation_speed) {
        let speed = if settings.animation_speed.is_nan() {
            1.0
        } else {
            settings.animation_speed.clamp(*ANIMATION_SPEEDS.start(), *ANIMATION_SPEEDS.end())
        };
        warn!("settings in {}: animation speed {} is not between 0.25 and 4; using {speed}", path.display(), settings.animation_speed);
        settings.animation_speed = speed;
    }
    settings
}

/// Writes `settings` to `path` atomically: a temporary file beside it, then a rename.
///
/// # Errors
/// The directory cannot be made or the file written.
pub fn save(settings: &Settings, path: &Path) -> std::io::Result<()> {
    let text = ron::ser::to_string_pretty(settings, ron::ser::PrettyConfig::default()).map_err(std::io::Error::other)?;
    crate::save::write_atomically(path, &text)
}

/// Loads the settings at startup and saves them whenever they change.
pub fn plugin(app: &mut App) {
    let settings = settings_path().map(|p| load(&p)).unwrap_or_default();
    app.insert_resource(settings.effects);
    app.insert_resource(AnimationSpeed(settings.animation_speed));
    app.insert_resource(settings);
    // On every screen (the game's steps wait for the game's screen).
    app.add_systems(Update, apply_and_save.run_if(resource_changed::<Settings>).before(GameSystems::Input));
}

fn apply_and_save(settings: Res<Settings>, mut level: ResMut<EffectsLevel>, mut speed: ResMut<AnimationSpeed>, mut first: Local<bool>) {
    if *level != settings.effects {
        *level = settings.effects;
    }
    if speed.0 != settings.animation_speed {
        speed.0 = settings.animation_speed;
    }
    // The first run of this system is the load itself: nothing to save.
    if !*first {
        *first = true;
        return;
    }
    if let Some(path) = settings_path()
        && let Err(e) = save(&settings, &path)
    {
        warn!("could not save settings to {}: {e}", path.display());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_round_trip_through_the_file() {
        let dir = std::env::temp_dir().join(format!("chimera-settings-{}", std::process::id()));
        let path = dir.join("settings.ron");
        let settings = Settings {
            theme: BoardTheme::Green,
            pieces: PieceSet::Letters,
            effects: EffectsLevel::Arcade,
            volume: 0.25,
            muted: true,
            coordinates: false,
            animation_speed: 2.5,
        };
        save(&settings, &path).unwrap();
        assert_eq!(load(&path), settings);
        assert!(!path.with_extension("ron.tmp").exists(), "the temporary file was renamed");
        // A damaged file gives the defaults, and a file from an older version (missing keys)
        // keeps what it has.
        std::fs::write(&path, "(theme: Blue, volume: ").unwrap();
        assert_eq!(load(&path), Settings::default());
        std::fs::write(&path, "(theme: Blue)").unwrap();
        assert_eq!(load(&path), Settings { theme: BoardTheme::Blue, ..Settings::default() });
        // Binary garbage gives the defaults; a volume out of range its nearest allowed value.
        std::fs::write(&path, [0xff, 0xfe, 0x00, 0x9c, 0x28]).unwrap();
        assert_eq!(load(&path), Settings::default());
        std::fs::write(&path, "(volume: inf)").unwrap();
        assert_eq!(load(&path).volume, 1.0);
        std::fs::write(&path, "(volume: -3.0)").unwrap();
        assert_eq!(load(&path).volume, 0.0);
        std::fs::write(&path, "(volume: NaN)").unwrap();
        assert_eq!(load(&path).volume, Settings::default().volume);
        std::fs::write(&path, "(animation_speed: 100.0)").unwrap();
        assert_eq!(load(&path).animation_speed, 4.0);
        std::fs::write(&path, "(animation_speed: NaN)").unwrap();
        assert_eq!(load(&path).animation_speed, 1.0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
