//! A variant's rules as the engine uses them. Issue 3's RON files compile into this.

use std::sync::Arc;

use bevy::prelude::*;

use super::geometry::Geometry;
use super::piece::PieceType;
use super::registry::{PieceTypeDef, PieceTypeRegistry, RegistryError};

/// Where king and rook land when castling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// The king's destination file, `[king side, queen side]` (g and c in chess).
    pub king_files: [u8; 2],
    /// The rook's destination file, `[king side, queen side]` (f and d in chess).
    pub rook_files: [u8; 2],
}

/// Promotion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionRule {
    /// The relative rank (0 = own back rank) on which promoting pieces promote.
    pub rank: u8,
    /// The types a piece may promote to, in the order offered.
    pub choices: Vec<PieceType>,
}

/// A variant's complete rules, compiled.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Stable id, e.g. `chess`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Board size.
    pub geometry: Geometry,
    /// Compiled piece types.
    pub registry: PieceTypeRegistry,
    /// The start position as FEN.
    pub start_fen: String,
    /// Castling, when the variant has it.
    pub castling: Option<CastlingRule>,
    /// Promotion.
    pub promotion: PromotionRule,
    /// Whether castling is written and read as king-takes-rook (UCI `e1h1`) and FEN castling
    /// rights as Shredder files, as Chess960 needs.
    pub chess960: bool,
}

impl Variant {
    /// Standard chess (FIDE).
    ///
    /// # Panics
    /// Never: the FIDE set always compiles.
    pub fn chess() -> Variant {
        let geometry = Geometry::CHESS;
        let registry = PieceTypeRegistry::compile(geometry, PieceTypeDef::fide()).expect("FIDE types compile");
        let choices = ["queen", "rook", "bishop", "knight"].iter().filter_map(|n| registry.by_name(n)).collect();
        Variant {
            id: "chess".into(),
            name: "Chess".into(),
            geometry,
            registry,
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            castling: Some(CastlingRule { king_files: [6, 2], rook_files: [5, 3] }),
            promotion: PromotionRule { rank: 7, choices },
            chess960: false,
        }
    }

    /// Chess960 (Fischer random): chess rules, shuffled back ranks, king-takes-rook castling.
    pub fn chess960() -> Variant {
        Variant { id: "chess960".into(), name: "Chess960".into(), chess960: true, ..Variant::chess() }
    }

    /// The built-in variant with this id.
    ///
    /// # Errors
    /// An unknown id; the message lists the known ones.
    pub fn by_id(id: &str) -> Result<Variant, UnknownVariant> {
        match id {
            "chess" | "standard" => Ok(Variant::chess()),
            "chess960" | "fischerandom" => Ok(Variant::chess960()),
            _ => Err(UnknownVariant(id.to_string())),
        }
    }

    /// The ids [`Variant::by_id`] knows.
    pub fn builtin_ids() -> &'static [&'static str] {
        &["chess", "chess960"]
    }

    /// Recompiles the registry after the types were changed.
    ///
    /// # Errors
    /// See [`PieceTypeRegistry::compile`].
    pub fn with_types(mut self, types: Vec<PieceTypeDef>) -> Result<Variant, RegistryError> {
        self.registry = PieceTypeRegistry::compile(self.geometry, types)?;
        Ok(self)
    }
}

/// A variant id that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl std::fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown variant '{}'; known variants: {}", self.0, Variant::builtin_ids().join(", "))
    }
}

impl std::error::Error for UnknownVariant {}

/// The active variant, shared (cheap to clone into another world for search).
#[derive(Resource, Clone, Debug)]
pub struct Rules(pub Arc<Variant>);

impl std::ops::Deref for Rules {
    type Target = Variant;
    fn deref(&self) -> &Variant {
        &self.0
    }
}
