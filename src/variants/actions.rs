//! The variant format's `actions` and `facts`: the written forms live with the presets, which
//! share them with data presets (see [`crate::presets::action_spec`]).

pub use crate::presets::action_spec::*;
