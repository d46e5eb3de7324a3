//! Perft speed through the full pipelines (legal-move query and move application as
//! schedules, undo after every move), with bulk counting at the leaves: the thirteen positions
//! of the position-kernel issue (with Fairy-Stockfish's figures on this machine type for
//! comparison), the cost of a fork, and the cost of some presets and modifier profiles per node. The rows
//! (`benches/common/rows.rs`) carry their node counts from Fairy-Stockfish; the benchmark asserts them, and so does
//! `tests/bench_rows.rs`, which CI runs.
//! Run with `cargo bench --no-default-features --bench perft [filter]`.

use std::time::Instant;

use chimera::rules::Engine;
use chimera::variants;

#[path = "common/rows.rs"]
mod rows;
use rows::{KIWIPETE, ROWS};

/// Runs `f` at least `runs` times, and again while all runs together took less than a second
/// (a row of a few milliseconds is otherwise at the mercy of one interruption), and returns
/// the best time in seconds and the node count.
fn best_of(runs: usize, mut f: impl FnMut() -> u64) -> (f64, u64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    let started = Instant::now();
    let mut done = 0;
    while done < runs || (started.elapsed().as_secs_f64() < 1.0 && done < 100) {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed().as_secs_f64());
        done += 1;
    }
    (best, nodes)
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters rows by variant name.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("perft through the pipelines, single thread, best of 3 or more runs ({cores} cores on this machine)");
    println!("{:<12} {:<9} {:>5} {:>11} {:>8} {:>9} {:>7}", "variant", "position", "depth", "nodes", "seconds", "M nodes/s", "of FS");
    for row in ROWS.iter().filter(|r| filter.as_deref().is_none_or(|f| r.variant.contains(f))) {
        let variant = variants::builtin(row.variant).expect("built-in variant loads");
        let mut engine = Engine::from_fen(variant, row.fen).expect("benchmark FEN reads");
        let (secs, nodes) = best_of(3, || engine.perft(row.depth));
        assert_eq!(nodes, row.nodes, "{} {} perft {} is wrong", row.variant, row.name, row.depth);
        let rate = nodes as f64 / secs / 1e6;
        println!(
            "{:<12} {:<9} {:>5} {:>11} {:>8.3} {:>9.2} {:>6.0}%",
            row.variant,
            row.name,
            row.depth,
            nodes,
            secs,
            rate,
            100.0 * rate / row.fairy_stockfish
        );
    }
    if filter.is_some() {
        return;
    }
    // The cost of a fork (a search thread takes one per move): the start position, and a
    // Crazyhouse game with hit points and a few moves played.
    let game = Engine::new(variants::builtin("chess").expect("chess"));
    let (secs, _) = best_of(3, || (0..1000).map(|_| game.fork().variant().geometry.len() as u64).sum());
    println!("fork, chess start: {:.1} µs", secs * 1e3);
    let mut v = variants::builtin("crazyhouse").expect("crazyhouse");
    v.presets = vec![chimera::rules::PresetRequest { id: "piece-hp".into(), sides: [true, true], ..Default::default() }];
    let mut game = chimera::presets::new_game(v, "startpos").expect("game");
    for m in ["e2e4", "d7d5", "e4d5", "g8f6", "b1c3"] {
        game.play_uci(m).expect("move");
    }
    let (secs, _) = best_of(3, || (0..1000).map(|_| game.fork().variant().geometry.len() as u64).sum());
    println!("fork, crazyhouse + hit points after 5 moves: {:.1} µs", secs * 1e3);
    // The cost of an active preset per node, on Kiwipete: hit points (every capture goes
    // through the damage pipeline, and moves are no longer filtered for check, so the tree
    // differs) and knight immunity (one more per-piece filter system; it also removes the
    // captures of knights). The node counts differ from chess; the rate is the figure.
    for preset in ["piece-hp", "knight-immunity"] {
        let mut engine = Engine::from_fen(variants::builtin("chess").expect("chess"), KIWIPETE).expect("benchmark FEN reads");
        chimera::presets::set_active_presets(engine.world_mut(), vec![chimera::presets::Activation::of(preset)]).expect("preset activates");
        let (secs, nodes) = best_of(3, || engine.perft(4));
        println!("Kiwipete + {preset:<15} depth 4: {nodes:>10} nodes in {secs:>7.3} s = {:>6.2} M nodes/s", nodes as f64 / secs / 1e6);
    }
    // Presets written as data (the shipped data presets, issue 34) against their Rust oracles:
    // the same tree, asserted, and the time of each.
    for (oracle, data) in
        [("explosive-rook", "explosive-rook-data"), ("piece-hp", "piece-hp-data"), ("knight-immunity", "knight-immunity-data")]
    {
        let mut times = Vec::new();
        for id in [oracle, data] {
            let mut engine = Engine::from_fen(variants::builtin("chess").expect("chess"), KIWIPETE).expect("benchmark FEN reads");
            let def = chimera::presets::by_id(id).expect("a preset");
            chimera::presets::set_active_presets(engine.world_mut(), vec![chimera::presets::Activation::of(def.id)])
                .expect("preset activates");
            times.push(best_of(3, || engine.perft(4)));
        }
        let ((rust_secs, rust_nodes), (data_secs, data_nodes)) = (times[0], times[1]);
        assert_eq!(data_nodes, rust_nodes, "{data} counts another tree than {oracle}");
        println!(
            "Kiwipete + {oracle:<15} depth 4: {rust_nodes:>10} nodes: Rust {rust_secs:>7.3} s, as data {data_secs:>7.3} s ({:.2}×)",
            data_secs / rust_secs
        );
    }
    // The cost of a modifier profile per node: every piece of a profiled side is asked through
    // the layered movement in check detection.
    for profile in ["long-stride", "sturdy-rooks"] {
        let mut v = variants::builtin("chess").expect("chess");
        v.profile = Some(chimera::modifiers::builtin(profile).expect("built-in profile").to_ron());
        let mut engine = chimera::presets::new_game(v, "startpos").expect("game");
        let (secs, nodes) = best_of(3, || engine.perft(4));
        println!(
            "start + profile {profile:<12} depth 4: {nodes:>10} nodes in {secs:>7.3} s = {:>6.2} M nodes/s",
            nodes as f64 / secs / 1e6
        );
    }
}
