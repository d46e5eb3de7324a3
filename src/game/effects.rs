//! Effects: every [`Effect`] message from the engine becomes an animation. Explosions burst
//! into particles and flash the blast squares, damage and healing float up as numbers, spawned
//! pieces pop in with a ring, a splitting queen flashes, poison bubbles, a broken shield
//! scatters blue shards. Particles are plain sprites simulated on the CPU (cheap under
//! software rendering); they never touch the rules, and the board takes the next move while
//! they play.

use bevy::prelude::*;
use rand::{Rng, SeedableRng, rngs::SmallRng};

pub use super::particles::{Particle, ParticleImage};
use super::settings::EffectsLevel;
use super::shared::{BoardView, GameSystems, SQUARE, square_centre};
use crate::rules::{Board, Effect, EffectKind};

/// The random source of the particles (seeded, so a run can be replayed).
#[derive(Resource)]
struct Sparks(SmallRng);

impl Default for Sparks {
    fn default() -> Self {
        Sparks(SmallRng::seed_from_u64(0x5eed))
    }
}

/// The effects plugin: reads effect messages, spawns and runs particles. Works without a window.
pub fn plugin(app: &mut App) {
    app.add_message::<Effect>();
    app.init_resource::<EffectsLevel>();
    app.init_resource::<super::settings::AnimationSpeed>();
    app.init_resource::<Sparks>();
    app.init_resource::<ParticleImage>();
    app.init_resource::<BoardView>();
    app.add_systems(Update, (spawn_effects, run_particles, pop_in).chain().in_set(GameSystems::Present));
}

/// The flash on one square of a blast.
#[derive(Component)]
struct BlastFlash;

/// A piece that just appeared grows from small to full size.
#[derive(Component, Clone, Debug)]
pub struct PopIn {
    /// Seconds since it appeared.
    pub elapsed: f32,
}

/// Seconds a spawned piece takes to grow to full size.
const POP_SECS: f32 = 0.3;

fn pop_in(
    mut commands: Commands,
    time: Res<Time>,
    speed: Res<super::settings::AnimationSpeed>,
    mut pieces: Query<(Entity, &mut PopIn, &mut Transform)>,
) {
    for (e, mut pop, mut t) in &mut pieces {
        pop.elapsed += time.delta_secs() * speed.0;
        let k = (pop.elapsed / POP_SECS).clamp(0.0, 1.0);
        // A little overshoot, then settle.
        let scale = if k < 1.0 { 0.2 + 0.95 * k + 0.25 * (k * std::f32::consts::PI).sin() } else { 1.0 };
        t.scale = Vec3::splat(scale);
        if k >= 1.0 {
            commands.entity(e).remove::<PopIn>();
        }
    }
}

fn particle(at: Vec2, colour: Color, size: f32, velocity: Vec2, life: f32) -> (Particle, Sprite, Transform) {
    (
        Particle { velocity, gravity: 0.0, life, max_life: life, grow: 0.0 },
        Sprite::from_color(colour, Vec2::splat(size)),
        Transform::from_xyz(at.x, at.y, 20.0),
    )
}

/// A round particle (when the renderer gave us the disc image).
fn round(mut p: (Particle, Sprite, Transform), image: &ParticleImage) -> (Particle, Sprite, Transform) {
    if let Some(handle) = &image.0 {
        p.1.image = handle.clone();
    }
    p
}

fn text_particle(at: Vec2, text: String, colour: Color, life: f32) -> (Particle, Text2d, TextFont, TextColor, Transform) {
    (
        Particle { velocity: Vec2::new(0.0, SQUARE * 0.9), gravity: 0.0, life, max_life: life, grow: 0.0 },
        Text2d::new(text),
        TextFont { font_size: FontSize::Px(SQUARE * 0.36), ..default() },
        TextColor(colour),
        Transform::from_xyz(at.x, at.y + SQUARE * 0.2, 25.0),
    )
}

/// Turns this frame's effect messages into particles.
fn spawn_effects(
    mut commands: Commands,
    mut effects: MessageReader<Effect>,
    level: Res<EffectsLevel>,
    view: Res<BoardView>,
    board: Option<Res<Board>>,
    mut sparks: ResMut<Sparks>,
    disc: Res<ParticleImage>,
) {
    let Some(board) = board else {
        effects.clear();
        return;
    };
    if *level == EffectsLevel::Off {
        effects.clear();
        return;
    }
    let many = if *level == EffectsLevel::Arcade { 2.0 } else { 1.0 };
    let g = board.geometry;
    let rng = &mut sparks.0;
    for effect in effects.read() {
        let at = square_centre(g, *view, effect.square);
        let life = effect.ttl;
        match &effect.kind {
            EffectKind::Explosion => {
                // Flash every square of the blast on the board, then a burst of sparks and smoke.
                for sq in blast_squares(g, effect.square) {
                    let c = square_centre(g, *view, sq);
                    let mut flash = particle(c, Color::srgba(1.0, 0.8, 0.35, 0.7), SQUARE, Vec2::ZERO, life * 0.8);
                    flash.2.translation.z = 15.0;
                    commands.spawn((flash, BlastFlash));
                }
                for _ in 0..(48.0 * many) as usize {
                    let angle = rng.random_range(0.0..std::f32::consts::TAU);
                    let speed = rng.random_range(0.6..3.2) * SQUARE;
                    let hue = rng.random_range(0.0..1.0f32);
                    let colour = Color::srgb(1.0, 0.35 + 0.5 * hue, 0.1 * hue);
                    let size = rng.random_range(0.06..0.16) * SQUARE;
                    let mut p = particle(at, colour, size, Vec2::from_angle(angle) * speed, life * rng.random_range(0.6..1.0));
                    p.0.gravity = SQUARE * 2.0;
                    p.0.grow = -size;
                    commands.spawn(round(p, &disc));
                }
                for _ in 0..(10.0 * many) as usize {
                    let v = Vec2::new(rng.random_range(-0.4..0.4), rng.random_range(0.2..0.8)) * SQUARE;
                    let mut p = particle(at, Color::srgba(0.3, 0.3, 0.3, 0.6), SQUARE * 0.3, v, life * 1.3);
                    p.0.grow = SQUARE * 0.6;
                    commands.spawn(round(p, &disc));
                }
            }
            EffectKind::Damage | EffectKind::Poison => {
                let colour = if effect.kind == EffectKind::Poison { Color::srgb(0.4, 0.95, 0.3) } else { Color::srgb(1.0, 0.3, 0.25) };
                if effect.amount > 0 {
                    commands.spawn(text_particle(at, format!("-{}", effect.amount), colour, life));
                }
                if effect.kind == EffectKind::Poison {
                    for _ in 0..(12.0 * many) as usize {
                        let start = at + Vec2::new(rng.random_range(-0.4..0.4), -0.4) * SQUARE;
                        let v = Vec2::new(0.0, rng.random_range(0.3..0.9)) * SQUARE;
                        commands.spawn(round(particle(start, Color::srgba(0.35, 0.85, 0.25, 0.8), SQUARE * 0.1, v, life), &disc));
                    }
                }
            }
            EffectKind::Death => {
                // The number only where hit points are counted (the engine sends 0 otherwise).
                if effect.amount > 0 {
                    commands.spawn(text_particle(at, format!("-{}", effect.amount), Color::srgb(1.0, 0.3, 0.25), life));
                }
                for _ in 0..(16.0 * many) as usize {
                    let v = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * SQUARE * rng.random_range(0.3..1.0);
                    commands.spawn(round(particle(at, Color::srgba(0.9, 0.9, 0.9, 0.7), SQUARE * 0.09, v, life * 0.7), &disc));
                }
            }
            EffectKind::Heal => {
                commands.spawn(text_particle(at, format!("+{}", effect.amount), Color::srgb(0.4, 1.0, 0.5), life));
                let mut glow = particle(at, Color::srgba(0.4, 1.0, 0.5, 0.35), SQUARE * 0.9, Vec2::ZERO, life);
                glow.0.grow = SQUARE * 0.3;
                commands.spawn(round(glow, &disc));
            }
            EffectKind::Spawn | EffectKind::Fission | EffectKind::ShieldBroken => {
                if effect.kind == EffectKind::Spawn
                    && let Some(piece) = board.entity(effect.square)
                {
                    commands.entity(piece).insert(PopIn { elapsed: 0.0 });
                }
                let colour = match effect.kind {
                    EffectKind::Spawn => Color::srgba(1.0, 1.0, 1.0, 0.6),
                    EffectKind::Fission => Color::srgba(0.85, 0.6, 1.0, 0.8),
                    _ => Color::srgba(0.4, 0.7, 1.0, 0.8),
                };
                let mut ring = particle(at, colour, SQUARE * 0.3, Vec2::ZERO, life);
                ring.0.grow = SQUARE * 1.2;
                commands.spawn(round(ring, &disc));
                for _ in 0..(14.0 * many) as usize {
                    let v = Vec2::from_angle(rng.random_range(0.0..std::f32::consts::TAU)) * SQUARE * rng.random_range(0.8..1.8);
                    commands.spawn(round(particle(at, colour, SQUARE * 0.1, v, life * 0.8), &disc));
                }
            }
            EffectKind::Tired => {
                commands.spawn(text_particle(at, "tired".into(), Color::srgb(0.95, 0.8, 0.4), life));
            }
            EffectKind::Other(_) => {
                let mut ring = particle(at, Color::srgba(1.0, 1.0, 1.0, 0.5), SQUARE * 0.4, Vec2::ZERO, life);
                ring.0.grow = SQUARE;
                commands.spawn(round(ring, &disc));
            }
        }
    }
}

/// The squares a blast on `at` covers: it and its neighbours, on the board.
fn blast_squares(g: crate::rules::Geometry, at: crate::rules::Square) -> impl Iterator<Item = crate::rules::Square> {
    let (file, rank) = (g.file(at) as i32, g.rank(at) as i32);
    (-1..=1).flat_map(move |dr| (-1..=1).filter_map(move |df| g.square(file + df, rank + dr)))
}

/// Moves, grows and fades particles; despawns them when their life is over.
fn run_particles(
    mut commands: Commands,
    time: Res<Time>,
    speed: Res<super::settings::AnimationSpeed>,
    mut particles: Query<(Entity, &mut Particle, &mut Transform, Option<&mut Sprite>, Option<&mut TextColor>)>,
) {
    let dt = time.delta_secs() * speed.0;
    for (e, mut p, mut t, sprite, text) in &mut particles {
        p.life -= dt;
        if p.life <= 0.0 {
            commands.entity(e).despawn();
            continue;
        }
        p.velocity.y -= p.gravity * dt;
        t.translation += (p.velocity * dt).extend(0.0);
        let fade = (p.life / p.max_life).clamp(0.0, 1.0);
        if let Some(mut s) = sprite {
            if let Some(size) = s.custom_size.as_mut() {
                *size = (*size + Vec2::splat(p.grow * dt)).max(Vec2::ZERO);
            }
            let alpha = s.color.alpha().min(fade);
            s.color.set_alpha(alpha);
        }
        if let Some(mut c) = text {
            c.0.set_alpha(fade);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use bevy::time::TimeUpdateStrategy;

    use super::*;
    use crate::rules::{Variant, install_rules};

    #[test]
    fn an_explosion_makes_particles_that_vanish_after_their_lifetime() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(50)));
        install_rules(app.world_mut(), std::sync::Arc::new(Variant::chess())).unwrap();
        app.add_plugins(plugin);
        app.update();
        let d5 = Variant::chess().geometry.parse_square("d5").unwrap();
        app.world_mut().write_message(Effect::new(EffectKind::Explosion, d5, "rules"));
        app.update();
        let count = |app: &mut App| app.world_mut().query::<&Particle>().iter(app.world()).count();
        let born = count(&mut app);
        assert!(born > 40, "an explosion bursts into many particles: {born}");
        // The longest lives 1.3 × 0.9 s; 50 ms frames.
        for _ in 0..30 {
            app.update();
        }
        assert!(count(&mut app) < born, "some have faded");
        for _ in 0..20 {
            app.update();
        }
        assert_eq!(count(&mut app), 0, "all gone after their lifetime");
    }

    /// A blast in the corner flashes the four squares it covers there, none off the board;
    /// a capture without hit points floats no number, a hit with them does.
    #[test]
    fn a_blast_flashes_only_board_squares_and_numbers_show_only_hit_points() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        install_rules(app.world_mut(), std::sync::Arc::new(Variant::chess())).unwrap();
        app.add_plugins(plugin);
        let sq = |n: &str| Variant::chess().geometry.parse_square(n).unwrap();
        let mut spawned = |effect: Effect| {
            app.world_mut().write_message(effect);
            app.update();
            let flashes = app.world_mut().query_filtered::<Entity, With<BlastFlash>>().iter(app.world()).count();
            let numbers: Vec<String> = app.world_mut().query::<&Text2d>().iter(app.world()).map(|t| t.0.clone()).collect();
            for e in app.world_mut().query_filtered::<Entity, With<Particle>>().iter(app.world()).collect::<Vec<_>>() {
                app.world_mut().despawn(e);
            }
            (flashes, numbers)
        };
        assert_eq!(spawned(Effect::new(EffectKind::Explosion, sq("a8"), "rules")).0, 4);
        assert_eq!(spawned(Effect::new(EffectKind::Explosion, sq("a5"), "rules")).0, 6);
        assert_eq!(spawned(Effect::new(EffectKind::Explosion, sq("d5"), "rules")).0, 9);
        assert_eq!(spawned(Effect::new(EffectKind::Death, sq("d5"), "rules")).1, Vec::<String>::new());
        assert_eq!(spawned(Effect::new(EffectKind::Death, sq("d5"), "rules").amount(2)).1, ["-2"]);
        assert_eq!(spawned(Effect::new(EffectKind::Damage, sq("d5"), "rules").amount(1)).1, ["-1"]);
    }

    #[test]
    fn effects_off_shows_nothing() {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        install_rules(app.world_mut(), std::sync::Arc::new(Variant::chess())).unwrap();
        app.add_plugins(plugin);
        app.insert_resource(EffectsLevel::Off);
        app.world_mut().write_message(Effect::new(EffectKind::Explosion, crate::rules::Square(27), "rules"));
        app.update();
        assert_eq!(app.world_mut().query::<&Particle>().iter(app.world()).count(), 0);
    }

    #[test]
    fn the_engine_emits_into_the_game_world() {
        // A real Atomic capture in a world with the effects plugin: the engine's message reaches it.
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        let atomic = crate::variants::builtin("atomic").unwrap();
        install_rules(app.world_mut(), std::sync::Arc::new(atomic)).unwrap();
        app.add_plugins(plugin);
        for m in ["e2e4", "d7d5", "e4d5"] {
            let legal = crate::rules::RulesWorld::legal_moves(app.world_mut()).to_vec();
            let rules = app.world().resource::<crate::rules::Rules>().0.clone();
            let mv = crate::rules::parse_uci(&rules, &app.world().resource::<Board>().cells, &legal, m).unwrap();
            crate::rules::RulesWorld::apply_move(app.world_mut(), mv).unwrap();
        }
        app.update();
        assert!(app.world_mut().query::<&Particle>().iter(app.world()).count() > 40);
    }
}
