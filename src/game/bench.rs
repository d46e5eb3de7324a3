//! `--bench-frames N`: measures frame times under whatever renderer the machine has (software
//! Vulkan here): N frames of the position as it stands, then N frames with an Atomic-style
//! explosion set off on the board every half second; prints the median and 99th percentile of
//! each and exits.

use bevy::prelude::*;

use super::GameOptions;
use super::shared::{GameSystems, Script};
use crate::rules::{Board, Effect, EffectKind, Square};

/// Frames measured so far, in seconds: `[quiet, exploding]`.
#[derive(Resource, Default)]
struct FrameTimes {
    warmup: u32,
    quiet: Vec<f32>,
    exploding: Vec<f32>,
    since_blast: f32,
}

/// Frames skipped before measuring (pipelines compile, the window settles).
const WARMUP: u32 = 30;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FrameTimes>();
    app.add_systems(Update, measure.in_set(GameSystems::Present));
}

/// The median and the 99th percentile of `times`, in milliseconds.
pub fn summary(times: &[f32]) -> (f32, f32) {
    let mut sorted: Vec<f32> = times.to_vec();
    sorted.sort_by(f32::total_cmp);
    if sorted.is_empty() {
        return (0.0, 0.0);
    }
    let at = |q: f32| sorted[((sorted.len() - 1) as f32 * q).round() as usize] * 1000.0;
    (at(0.5), at(0.99))
}

fn measure(
    options: Res<GameOptions>,
    script: Res<Script>,
    time: Res<Time<Real>>,
    board: Res<Board>,
    mut times: ResMut<FrameTimes>,
    mut effects: MessageWriter<Effect>,
    mut exit: MessageWriter<AppExit>,
) {
    let Some(n) = options.bench_frames else { return };
    if !script.0.is_empty() {
        return;
    }
    if times.warmup < WARMUP {
        times.warmup += 1;
        return;
    }
    let dt = time.delta_secs();
    if times.quiet.len() < n as usize {
        times.quiet.push(dt);
        return;
    }
    times.since_blast += dt;
    if times.exploding.is_empty() || times.since_blast >= 0.5 {
        times.since_blast = 0.0;
        let g = board.geometry;
        let centre = Square((g.ranks / 2) * g.files + g.files / 2);
        effects.write(Effect::new(EffectKind::Explosion, centre, "bench"));
    }
    times.exploding.push(dt);
    if times.exploding.len() >= n as usize {
        let (qm, q99) = summary(&times.quiet);
        let (em, e99) = summary(&times.exploding);
        println!("frame time, position: median {qm:.2} ms, 99th percentile {q99:.2} ms ({n} frames)");
        println!("frame time, explosions: median {em:.2} ms, 99th percentile {e99:.2} ms ({n} frames)");
        exit.write(AppExit::Success);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn summary_reads_median_and_tail() {
        let times: Vec<f32> = (1..=100).map(|i| i as f32 / 1000.0).collect();
        let (median, p99) = super::summary(&times);
        assert!((median - 50.0).abs() < 1.01 && (p99 - 99.0).abs() < 1.01, "{median} {p99}");
    }
}
