//! Sound with bevy_kira_audio: move, capture, check, explosion, damage, heal, game start and
//! end, low time on the clock, synthesised by `scripts/make_sounds.sh` and embedded in the binary. Volume and mute
//! come from the settings. Without an audio device the game runs silently: bevy_kira_audio
//! says so once in the log ("Failed to setup audio") and plays nothing.

use std::io::Cursor;

use bevy::prelude::*;
use bevy_kira_audio::AudioSource;
use bevy_kira_audio::prelude::*;

use super::settings::Settings;
use super::shared::{CheckSquares, GameSystems, LowTime, PanelData, PositionVersion};
use crate::rules::{Effect, EffectKind, MoveLog};

macro_rules! sound {
    ($name:literal) => {
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/sounds/", $name, ".ogg")).as_slice()
    };
}

/// The decoded sounds.
#[derive(Resource)]
struct Sounds {
    moved: Handle<AudioSource>,
    capture: Handle<AudioSource>,
    check: Handle<AudioSource>,
    explosion: Handle<AudioSource>,
    damage: Handle<AudioSource>,
    heal: Handle<AudioSource>,
    start: Handle<AudioSource>,
    end: Handle<AudioSource>,
    low_time: Handle<AudioSource>,
}

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(AudioPlugin);
    app.add_systems(Startup, load_sounds);
    app.add_systems(Update, (move_sounds, effect_sounds, low_time).run_if(resource_exists::<Sounds>).in_set(GameSystems::Present));
}

fn decode(assets: &mut Assets<AudioSource>, bytes: &'static [u8]) -> Handle<AudioSource> {
    match StaticSoundData::from_cursor(Cursor::new(bytes)) {
        Ok(sound) => assets.add(AudioSource { sound }),
        Err(e) => {
            warn!("an embedded sound does not decode: {e}");
            Handle::default()
        }
    }
}

fn load_sounds(mut commands: Commands, mut assets: ResMut<Assets<AudioSource>>, audio: Res<Audio>, settings: Res<Settings>) {
    let sounds = Sounds {
        moved: decode(&mut assets, sound!("move")),
        capture: decode(&mut assets, sound!("capture")),
        check: decode(&mut assets, sound!("check")),
        explosion: decode(&mut assets, sound!("explosion")),
        damage: decode(&mut assets, sound!("damage")),
        heal: decode(&mut assets, sound!("heal")),
        start: decode(&mut assets, sound!("start")),
        end: decode(&mut assets, sound!("end")),
        low_time: decode(&mut assets, sound!("lowtime")),
    };
    play(&audio, &settings, &sounds.start);
    commands.insert_resource(sounds);
}

fn play(audio: &Audio, settings: &Settings, sound: &Handle<AudioSource>) {
    if settings.muted || settings.volume <= 0.0 {
        return;
    }
    audio.play(sound.clone()).with_volume(Decibels(20.0 * settings.volume.clamp(0.01, 1.0).log10()));
}

/// After each move: the game-end, check, capture or move sound (the most important one).
fn move_sounds(
    version: Res<PositionVersion>,
    log: Res<MoveLog>,
    check: Res<CheckSquares>,
    panel: Res<PanelData>,
    sounds: Res<Sounds>,
    audio: Res<Audio>,
    settings: Res<Settings>,
    mut heard: Local<(u64, usize)>,
) {
    if heard.0 == version.0 || !panel.is_changed() {
        return;
    }
    let grew = log.0.len() > heard.1;
    *heard = (version.0, log.0.len());
    if !grew {
        return;
    }
    let last = log.0.last();
    let sound = if panel.outcome.is_some() {
        &sounds.end
    } else if !check.0.is_empty() {
        &sounds.check
    } else if last.is_some_and(|r| r.captured.is_some()) {
        &sounds.capture
    } else {
        &sounds.moved
    };
    play(&audio, &settings, sound);
}

/// A clock running short.
fn low_time(mut warnings: MessageReader<LowTime>, sounds: Res<Sounds>, audio: Res<Audio>, settings: Res<Settings>) {
    if warnings.read().count() > 0 {
        play(&audio, &settings, &sounds.low_time);
    }
}

/// Explosions, damage and healing as they happen.
fn effect_sounds(mut effects: MessageReader<Effect>, sounds: Res<Sounds>, audio: Res<Audio>, settings: Res<Settings>) {
    let mut played: Vec<EffectKind> = Vec::new();
    for effect in effects.read() {
        let sound = match effect.kind {
            EffectKind::Explosion => &sounds.explosion,
            EffectKind::Damage | EffectKind::Poison => &sounds.damage,
            EffectKind::Heal => &sounds.heal,
            _ => continue,
        };
        // One of each kind per frame: an explosion hitting eight pieces is one bang.
        if !played.contains(&effect.kind) {
            played.push(effect.kind.clone());
            play(&audio, &settings, sound);
        }
    }
}
