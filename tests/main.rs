//! Chimera's integration tests, one crate (issue 31: one test binary links the crate and Bevy
//! once, where one per file linked it 32 times). Each module is one concern; `common` holds
//! the seeded random helpers they share.

mod common;

mod action_vocabulary;
mod actions;
mod ai;
mod andernach;
mod balance;
mod bench_rows;
mod betza;
mod cli;
mod differential;
mod fairy;
mod fairy_stockfish;
mod fuzz;
mod hardening;
mod janggi;
mod kernel;
mod layers;
mod legality_oracle;
mod material;
mod memory;
mod movement;
mod multileg;
mod notation;
mod outcomes;
mod perft;
mod pipeline;
mod preset_rules;
mod preset_services;
mod presets;
mod profiles;
mod review;
mod saves;
mod shogi;
mod soak;
mod uci_selfplay;
mod undo;
mod variants;
mod walls;
mod winners;
