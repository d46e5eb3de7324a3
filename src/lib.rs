//! Chimera: a chess-variants game on Bevy.
//!
//! The [`rules`] module is the engine: every piece is an entity, and the legal-move query and
//! move application are schedules whose system sets are the steps of the preset API. It runs
//! without a window:
//!
//! ```
//! use chimera::rules::{Engine, Variant};
//! let mut engine = Engine::new(Variant::chess());
//! assert_eq!(engine.perft(3), 8_902);
//! engine.play_san("e4").unwrap();
//! engine.play_san("e5").unwrap();
//! assert_eq!(engine.move_log().0[1].san.as_deref(), Some("e5"));
//! ```

pub mod ai;
pub mod cli;
pub mod clock;
pub mod editor;
pub mod modifiers;
pub mod pgn;
pub mod presets;
pub mod rules;
pub mod save;
pub mod uci;
pub mod variants;

#[cfg(feature = "gui")]
pub mod game;
