//! Search speed: nodes per second of the computer's search (through the pipelines, as it plays)
//! on fixed middle-game positions of chess, crazyhouse, xiangqi and a preset game, to a fixed
//! depth, single thread.
//! Run with `cargo bench --no-default-features --bench search`.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use chimera::ai::{Computer, Limits};
use chimera::presets::new_game;
use chimera::rules::PresetRequest;
use chimera::variants;

fn main() {
    let rows: [(&str, &str, &[&str], u32); 5] = [
        ("chess", "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8", &[], 8),
        ("crazyhouse", "r1bqk2r/ppp2ppp/2n2n2/3pp3/1b2P3/2NP1N2/PPP2PPP/R1BQKB1R[] w KQkq - 0 5", &[], 6),
        ("xiangqi", "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3", &[], 7),
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", &["piece-hp"], 5),
        ("atomic", "rnbqkb1r/pppp1ppp/4pn2/8/8/2N1P3/PPPP1PPP/R1BQKBNR w KQkq - 2 3", &[], 6),
    ];
    println!("search through the pipelines, single thread, fixed depth");
    println!("{:<12} {:<18} {:>5} {:>10} {:>8} {:>11} {:>7}", "variant", "presets", "depth", "nodes", "seconds", "k nodes/s", "score");
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    for (id, fen, presets, depth) in rows {
        if filter.as_deref().is_some_and(|f| !id.contains(f)) {
            continue;
        }
        let mut variant = variants::builtin(id).expect("built-in variant");
        variant.presets.extend(presets.iter().map(|p| PresetRequest { id: p.to_string(), sides: [true, true], ..Default::default() }));
        let game = new_game(variant, fen).expect("the position loads");
        let mut computer = Computer::new(&game, 8);
        let stop = AtomicBool::new(false);
        let t = Instant::now();
        // The depth decides (the generous time only keeps the level's own time out of it).
        let limits = Limits { depth: Some(depth), movetime: Some(std::time::Duration::from_secs(120)), ..Limits::default() };
        let r = computer.think(&game, limits, &stop, |_| {});
        let s = t.elapsed().as_secs_f64();
        println!(
            "{:<12} {:<18} {:>5} {:>10} {:>8.3} {:>11.1} {:>7}",
            id,
            presets.join(","),
            r.info.depth,
            r.info.nodes,
            s,
            r.info.nodes as f64 / s / 1000.0,
            r.info.score
        );
    }
}
