//! The perft benchmark's rows, shared with `tests/bench_rows.rs` so that their node counts
//! are checked in CI as well as when the benchmark runs. Every count is Fairy-Stockfish's
//! (`go perft`, or pyffish's legal moves where the packaged engine lacks the variant: atomic).

/// One measured row: variant, position, depth, expected nodes, Fairy-Stockfish's M nodes/s.
pub struct Row {
    pub variant: &'static str,
    pub name: &'static str,
    pub fen: &'static str,
    pub depth: u32,
    pub nodes: u64,
    pub fairy_stockfish: f64,
}

pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

pub const ROWS: [Row; 13] = [
    Row { variant: "chess", name: "start", fen: "startpos", depth: 5, nodes: 4_865_609, fairy_stockfish: 24.1 },
    Row { variant: "chess", name: "Kiwipete", fen: KIWIPETE, depth: 4, nodes: 4_085_603, fairy_stockfish: 27.7 },
    Row { variant: "crazyhouse", name: "start", fen: "startpos", depth: 5, nodes: 4_888_832, fairy_stockfish: 24.1 },
    Row { variant: "atomic", name: "start", fen: "startpos", depth: 5, nodes: 4_864_979, fairy_stockfish: 21.2 },
    Row { variant: "3check", name: "start", fen: "startpos", depth: 5, nodes: 4_865_609, fairy_stockfish: 24.1 },
    Row { variant: "antichess", name: "start", fen: "startpos", depth: 5, nodes: 2_732_672, fairy_stockfish: 22.6 },
    // (Depth 6: at depth 5 Fairy-Stockfish answers in 8 ms, a time its start-up and the pipe
    // decide as much as its move generation; its figure moved from 19 to 31 M nodes/s between
    // two runs of the same build.)
    Row { variant: "horde", name: "start", fen: "startpos", depth: 6, nodes: 5_396_554, fairy_stockfish: 22.5 },
    Row { variant: "capablanca", name: "start", fen: "startpos", depth: 4, nodes: 805_128, fairy_stockfish: 25.8 },
    Row { variant: "grand", name: "start", fen: "startpos", depth: 4, nodes: 15_921_643, fairy_stockfish: 29.6 },
    Row { variant: "seirawan", name: "start", fen: "startpos", depth: 4, nodes: 782_599, fairy_stockfish: 25.1 },
    Row { variant: "xiangqi", name: "start", fen: "startpos", depth: 4, nodes: 3_290_240, fairy_stockfish: 11.9 },
    Row { variant: "shogi", name: "start", fen: "startpos", depth: 4, nodes: 719_731, fairy_stockfish: 8.8 },
    Row { variant: "janggi", name: "start", fen: "startpos", depth: 4, nodes: 1_065_277, fairy_stockfish: 10.1 },
];
