//! Particles: sprites that move, grow and fade. The board leaves a trail of them behind a
//! gliding piece and the effects ([`super::effects`]) make explosions of them; both draw on
//! these types, so neither needs the other.

use super::shared::Screen;
use bevy::prelude::*;

/// One moving, fading sprite; it belongs to the game's screen and goes when another screen
/// shows.
#[derive(Component, Clone, Debug)]
#[require(DespawnOnExit<Screen>)]
pub struct Particle {
    /// World units per second.
    pub velocity: Vec2,
    /// Downward pull, world units per second squared.
    pub gravity: f32,
    /// Seconds left.
    pub life: f32,
    /// Seconds it started with.
    pub max_life: f32,
    /// Size change per second (a ring grows, a spark shrinks).
    pub grow: f32,
}

/// The round image particles are drawn with (set by the board when there is a renderer;
/// without one they are plain squares, which headless tests do not see).
#[derive(Resource, Default)]
pub struct ParticleImage(pub Option<Handle<Image>>);
