//! The rules engine: pieces as entities, the two pipelines as schedules, notation and
//! outcomes. It uses no rendering, no assets and no window; everything here runs on a bare
//! [`World`](bevy::prelude::World).

mod apply;
mod betza;
mod board;
mod engine;
mod fen;
mod geometry;
mod movement;
mod moves;
mod notation;
mod outcome;
mod piece;
mod pipeline;
mod query;
mod registry;
mod shuffle;
mod state;
mod variant;

pub use apply::{
    ApplySystems, BoardWriter, Change, DecidedOutcome, History, MoveApplication, MoveLog, MoveRecord, PendingMove, UndoEntry, UndoLog,
    Victim, decide,
};
pub use betza::{BetzaError, Diagram, DiagramCell, diagram, parse_betza};
pub use board::Board;
pub use engine::{Engine, RulesWorld, install_rules, perft, setup_position};
pub use fen::{FenError, FenField, Setup, parse_fen};
pub use geometry::{Geometry, MAX_FILES, MAX_RANKS, Side, Square};
pub use movement::{Atom, Hop, Mode, MoveTable, Ray, RayKind, SquareBits, Zones, lame_path, symmetric, walk_ray};
pub use moves::{Gate, Move, MoveKind, Wing};
pub use notation::{MoveError, parse_san, parse_uci, san_body, to_uci};
pub use outcome::{Outcome, Reason, cannot_mate, insufficient_material, repetitions};
pub use piece::{Cell, Location, Owner, Piece, PieceType, Promoted, piece_bundle};
pub use pipeline::{Hook, Hooks, Step, rebuild_pipelines};
pub use query::{GenContext, LegalMoveQuery, MoveQuery, PieceSlot, QuerySystems, generate_from_tables};
pub use registry::{AttackProbe, MoveGenerator, PieceTypeDef, PieceTypeRegistry, RegistryError};
pub use shuffle::{chess960_back_rank, chess960_fen};
pub use state::{CastlingRights, GameState};
pub use variant::{BlastRule, CastlingRule, DropRule, EndCondition, PromotionRule, Rules, Shuffle, Variant, Verdict, fide_end_conditions};
