//! The rules engine: pieces as entities, the two pipelines as schedules, notation and
//! outcomes. It uses no rendering, no assets and no window; everything here runs on a bare
//! [`World`](bevy::prelude::World).
//!
//! # Shape, and where it departs from the design sketch
//!
//! - **Facts.** Every piece is an entity with [`Piece`], [`PieceType`], [`Owner`],
//!   [`Location`] and [`Promoted`]. Pieces are never despawned by the rules: a capture moves
//!   the piece to [`Location::Captured`] (or into a hand), so undo restores the very same
//!   entity. The [`Board`] resource is a square index (cell codes, entities, hands, an
//!   incremental hash) that mirrors the components; only [`BoardWriter`] changes either, and
//!   it writes the [`UndoLog`] as it goes. Game-level facts are the [`GameState`] resource.
//! - **Pipelines.** [`LegalMoveQuery`] and [`MoveApplication`] are schedules with one chained
//!   set enum each ([`QuerySystems`], [`ApplySystems`]), a variant per reference step. Hook
//!   systems ([`Hook`]) are listed in activation order in [`Hooks`]; [`rebuild_pipelines`]
//!   rebuilds both schedules from that list, giving every system its own chained slot, so the
//!   order inside a step is exactly the list order. The default systems of a variant's own
//!   rules (drops, gating, blasts, mandatory capture…) are added only when the variant has
//!   them, so plain chess pays for none of them per node.
//! - **Fused default runs** (a departure from "every default is its own system"). The default
//!   systems are plain functions over one shared parameter set per pipeline ([`QueryParts`],
//!   [`ApplyParts`]). Each run of defaults that no hook (or exclusive default) separates becomes
//!   one Bevy system in the set of its first step, calling them in step order; move
//!   application's runs re-check the gates of each step they cross (not cancelled, the turn
//!   flipped, not in a trial). Hooks still sit in their own chained slots, so the order a hook
//!   sees is unchanged; what changes is that plain chess runs one query system and one
//!   application system per node instead of five and six, each fetching its resources (in Bevy
//!   0.19 a resource fetch is an entity lookup). The built schedules live in [`Pipelines`],
//!   not in Bevy's `Schedules`, and [`run_pipeline`] runs them without interning a label or
//!   moving the schedule out of a map at every node.
//! - **Results.** Every end condition is judged by one function in `end.rs`, at the moment it
//!   applies: after a move (move application's game-result step writes [`DecidedOutcome`]; a
//!   game-result hook may decide first), at set-up (a position that is already decided), and when
//!   asked ([`RulesWorld::outcome`], the one `outcome()`), where the conditions that need the
//!   opponent's legal moves (checkmate, stalemate) are judged lazily, so search and perft never
//!   pay for them. Once an outcome is decided, the legal-move query yields no moves. Lichess's
//!   insufficient-material rules per variant are in `material.rs`.
//! - **One position kernel** (`position.rs`). How a move changes the square index — captures
//!   (off the board or into the captor's hand), en passant, castling, drops, promotion, gating,
//!   blasts — is written once, generic over a [`PositionWriter`]: move application runs it
//!   through [`BoardWriter`] (components, square index, hash, undo log), and every legality
//!   question (self-check, checks forbidden, bikjang) through a [`TrialWriter`], which
//!   changes only the square index and takes the move back exactly. Where preset hooks change
//!   what a move does (capture consumers, damage absorbers, hooks during or after the
//!   mutations), those moves are judged on the position a full trial application through
//!   [`MoveApplication`] leaves ([`trial_application`]): the hooks run, no effect is written, the
//!   duration and game-result steps are skipped, and the move is undone. No second model of
//!   move making exists.
//! - **Movement.** Piece movement is data: Betza atoms compiled into per-side, per-square ray
//!   tables (see below for check detection). Presets that change a
//!   piece's movement register [`MoveLayer`]s (override, transform, extra moves) — function
//!   values, a departure from "every hook is a system" explained in `layers.rs` — which the
//!   query's steps and check detection ([`Attacks`]) both run, so a Berolina pawn checks
//!   straight ahead and a double knight leap gives check. Check detection reads two reverse
//!   tables compiled from the same rays generation walks: a merged per-direction table for
//!   sliders and leapers, and per-square lists of (origin, path) for hoppers, lame leapers and
//!   confined or region-dependent pieces; only code pieces with their own probes (Janggi's) are
//!   asked piece by piece. The self-check filter skips the trial for a move that cannot change
//!   whether a royal piece is attacked (not by a royal piece, not en passant, no blast, not
//!   leaving a pin or the file between facing generals, not entering or leaving a square on the
//!   path of a hopper or lame leaper that reaches a royal piece) when no custom probe, layer or
//!   royalty rule is active and the side is not in check.
//! - **Royalty.** The royal set is one function ([`RuleFns::royals`]): the union of the
//!   presets' [`RoyalRule`]s, or every piece of a royal type. Check, mate, blasts, flying
//!   generals, check counting and position setup all ask it. Where a royal piece can
//!   leave the board in play (damage, no self-check filter), a side that loses its last one
//!   loses at once unless a game-result hook decided first.
//! - **Hash.** [`position_hash`] covers the pieces, every game-level fact but the clocks, and
//!   what the active presets register ([`HashExtras`]: their piece facts, their state, the
//!   active set); the history and repetition use it.
//! - **Scope** is declared on a hook ([`Hook::scoped`]; the presets module gives every hook its
//!   activation's scope) and enforced by the pipeline in the scope-aware steps of the
//!   reference's table; hooks do not check it themselves.
//! - **Fork.** [`Engine::fork`] copies a game (position, history, hooks, layers, preset state
//!   and facts) into a new world, for a search thread; the fork's undo log starts empty.
//! - **SAN** is computed by the checked path ([`Engine::apply`], [`RulesWorld::apply_move`]),
//!   not inside the pipeline, because it needs the legal moves before and after the move.
//!
//! Layer: the lowest; uses no other module of the crate.

mod actions;
mod apply;
mod betza;
mod board;
mod code_pieces;
mod codes;
mod damage;
mod describe;
mod effects;
mod end;
mod engine;
mod fen;
mod files;
mod generate;
mod geometry;
mod layers;
mod lifecycle;
mod material;
mod movement;
mod moves;
mod notation;
mod outcome;
mod piece;
mod pipeline;
mod position;
mod query;
mod registry;
mod schedules;
mod shuffle;
mod state;
mod undo;
mod variant;

pub use actions::{Action, ActionEffect, CHAIN_LIMIT, Camp, Compare, Condition, Event, FactDecl, FactShow, Place, Who, intern};
pub use apply::{
    AppliedTrials, ApplyPart, ApplyParts, ApplySystems, ApplyView, BoardWriter, ExtraHasher, HashExtras, History, MoveApplication, MoveLog,
    MoveRecord, PendingMove, Trial, WorldWriter, not_in_trial, position_hash, retract_piece, trial_application,
};
pub use betza::{BetzaError, Diagram, DiagramCell, Movement, atom_set, diagram, parse_betza, parse_movement, write_betza};
pub use board::{Board, generals_face, mix};
pub use code_pieces::{CODE_PIECES, code_piece, code_piece_betza, code_piece_confinable};
pub use codes::Severity;
pub(crate) use codes::stable_codes;
pub use damage::{DamageAdjusters, DamageKind, DamagePipeline, DamageRequest, DamageSystems, deal_damage};
pub use describe::{describe_action, describe_moves, describe_piece, describe_rules};
pub use effects::{Effect, EffectKind, Effects, emit_effect, subscribe_effects, take_effects};
pub use end::FOUL_DROP;
pub use engine::{
    Engine, EntityMap, FenExtras, ForkCopiers, ForkFn, RulesRanOut, RulesWorld, install_rules, install_rules_bare, perft, refusal_named,
    refuse_waiting_in_check, rejudge_decided, setup_position,
};
pub use fen::{CROWNED_FACT, Counters, FenCode, FenError, FenField, Setup, parse_fen, split_trailing, write_castling, write_placement};
pub use files::{MAX_FILE_BYTES, read_text};
pub use generate::{GenContext, GeneratorFn, PieceSlot, generate_from_tables};
pub use geometry::{Geometry, MAX_FILES, MAX_RANKS, Side, Square, SquareSet, kings_touch};
pub use layers::{Attacks, LayerFn, LayerKind, MoveLayer, PromotionFn, RoyalFn, RoyalRule, RuleFns, piece_moves, profile_wrap, type_moves};
pub use lifecycle::{
    EventDepth, LifecycleSystems, PieceEvent, RetractPipeline, SpawnError, SpawnPipeline, announce_retractions, spawn_piece,
};
pub use material::{MaterialRule, cannot_win, dead_position};
pub use movement::{
    Atom, Hop, LegPath, LegStep, Mode, MoveTable, Ray, RayKind, Zones, lame_path, leg_displacement, leg_end, symmetric, walk_legs, walk_ray,
};
pub use moves::{Gate, Move, MoveKind, Wing};
pub use notation::{MoveError, castle_king_square, parse_san, parse_uci, san_body, to_uci};
pub use outcome::{Outcome, Reason, cannot_mate, has_insufficient_material, perpetual_checker, repetition_span, repetitions, scored};
pub use piece::{Cell, Homes, Location, Owner, Piece, PieceType, Promoted, piece_bundle};
pub use pipeline::{Hook, Hooks, Step, SystemFactory, rebuild_pipelines};
pub use position::{Making, PositionWriter, TrialOp, TrialWriter, Victim, blast_squares, en_passant_takers, make};
pub use query::{LegalMoveQuery, MoveQuery, QueryPart, QueryParts, QuerySystems, QueryView, royal_attacked, safe_after};
pub use registry::{AttackProbe, MoveGenerator, PictureKey, PieceTypeDef, PieceTypeRegistry, RegistryError};
pub use schedules::{Pipeline, Pipelines, run_pipeline};
pub use shuffle::{chess960_back_rank, chess960_fen, shuffle_start};
pub use state::{CastlingRights, DecidedOutcome, GameState, decide};
pub use undo::{Change, IntFact, Restore, UndoEntry, UndoLog, restore_fact, revert_changes};
pub use variant::{
    BlastRule, BoardLook, CastlingRule, DropRule, EndCondition, LayoutLookup, MaterialCount, PiecePromotion, PresetRequest, PromotionRule,
    RuleSwitches, Rules, Shuffle, Variant, Verdict, fide_end_conditions,
};
