//! The perft benchmark's rows (`benches/common/rows.rs`) with their node counts, checked here
//! so that CI runs the check the benchmark makes (the benchmark itself runs only by hand).

// (The test reads the counts, not Fairy-Stockfish's speeds.)
#[allow(dead_code)]
#[path = "../benches/common/rows.rs"]
mod rows;

#[test]
fn every_benchmark_row_counts_fairy_stockfishs_nodes() {
    for row in &rows::ROWS {
        let variant = chimera::variants::builtin(row.variant).unwrap();
        let mut engine = chimera::rules::Engine::from_fen(variant, row.fen).unwrap();
        assert_eq!(engine.perft(row.depth), row.nodes, "{} {} perft {}", row.variant, row.name, row.depth);
    }
}
