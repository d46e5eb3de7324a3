//! Perft speed through the full pipelines (legal-move query and move application as
//! schedules, undo after every move), with bulk counting at the leaves. Prints nodes per
//! second; run with `cargo bench --no-default-features --bench perft`.

use std::time::Instant;

use chimera::rules::{Engine, Variant};
use chimera::variants;

struct Position {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

const POSITIONS: [Position; 2] = [
    Position { name: "start position", fen: "startpos", depth: 5, nodes: 4_865_609 },
    Position { name: "Kiwipete", fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", depth: 4, nodes: 4_085_603 },
];

/// Runs `f` `runs` times and returns the best time in seconds and the node count.
fn best_of(runs: usize, mut f: impl FnMut() -> u64) -> (f64, u64) {
    let mut best = f64::MAX;
    let mut nodes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        nodes = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (best, nodes)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is ignored.
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("perft through the pipelines, single thread, best of 5 ({cores} cores on this machine)");
    for p in &POSITIONS {
        let mut engine = Engine::from_fen(Variant::chess(), p.fen).expect("benchmark FEN reads");
        let (secs, nodes) = best_of(5, || engine.perft(p.depth));
        assert_eq!(nodes, p.nodes, "{} perft {} is wrong", p.name, p.depth);
        println!("{:<16} depth {}: {:>10} nodes in {:>7.3} s = {:>6.2} M nodes/s", p.name, p.depth, nodes, secs, nodes as f64 / secs / 1e6);
    }
    // The cost of an active preset per node, on Kiwipete: hit points (every capture goes
    // through the damage pipeline, and moves are no longer filtered for check, so the tree
    // differs) and knight immunity (one more per-piece filter system; it also removes the
    // captures of knights). The node counts differ from chess; the rate is the figure.
    for preset in ["piece-hp", "knight-immunity"] {
        let mut engine = Engine::from_fen(Variant::chess(), POSITIONS[1].fen).expect("benchmark FEN reads");
        chimera::presets::set_active_presets(engine.world_mut(), vec![chimera::presets::Activation::of(preset)]).expect("preset activates");
        let (secs, nodes) = best_of(3, || engine.perft(4));
        println!("Kiwipete + {preset:<15} depth 4: {nodes:>10} nodes in {secs:>7.3} s = {:>6.2} M nodes/s", nodes as f64 / secs / 1e6);
    }
    println!("variant start positions (from presets/*.ron)");
    for (id, depth, expected) in [
        ("chess", 5, 4_865_609),
        ("crazyhouse", 4, 197_281),
        ("atomic", 4, 197_326),
        ("capablanca", 4, 805_128),
        ("xiangqi", 4, 3_290_240),
        ("nightrider", 4, 419_019),
        ("grasshopper", 4, 635_298),
    ] {
        let variant = variants::builtin(id).expect("built-in variant loads");
        let mut engine = Engine::new(variant);
        let (secs, nodes) = best_of(3, || engine.perft(depth));
        assert_eq!(nodes, expected, "{id} perft {depth} is wrong");
        println!("{id:<16} depth {depth}: {nodes:>10} nodes in {secs:>7.3} s = {:>6.2} M nodes/s", nodes as f64 / secs / 1e6);
    }
}
