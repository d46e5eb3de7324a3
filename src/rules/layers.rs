//! Per-piece movement and royalty as function values, so that move generation, check
//! detection and the search all ask the same question the same way.
//!
//! # A departure from "every hook is a system"
//!
//! The reference's movement hooks (override, transform, extra moves) and its royalty hook are
//! answered here by function values that presets register ([`MoveLayer`], [`RoyalRule`]), not by
//! systems: check detection must ask "what can this piece of the opponent do" about positions
//! that exist only inside a trial (after a move, before the reply), many times per query, and a
//! system can only see the world's one position. The legal-move query still runs its steps in
//! the reference's order: the override step asks the override layers (first wins), the generate
//! step runs the type's generator with the transform layers wrapped around it (innermost first,
//! in activation order), the extra step asks the extra layers. Check detection
//! ([`Attacks::attacked`]) runs the same chain for a piece whose movement a layer changes, and
//! the compiled tables for the rest. Hook systems may still be placed in those steps; they change
//! the list of one query but are invisible to check detection.

use std::sync::Arc;

use bevy::prelude::*;

use super::generate::{GenContext, PieceSlot, generate_from_tables};
use super::geometry::{Side, Square};
use super::moves::Move;
use super::piece::{Cell, PieceType};
use super::registry::MoveGenerator;
use super::state::GameState;
use super::variant::Variant;

/// A movement layer's function. Override: pushes the piece's moves and returns true to claim
/// it (false: no opinion). Transform: rewrites the piece's moves so far (the `Vec` holds only
/// this piece's moves). Extra: pushes more moves. The return value matters only for overrides.
pub type LayerFn = Arc<dyn Fn(&GenContext, &PieceSlot, &mut Vec<Move>) -> bool + Send + Sync>;

/// A royalty function: pushes the squares of `side`'s royal pieces on `cells`.
pub type RoyalFn = Arc<dyn Fn(&Variant, &[Cell], Side, &mut Vec<Square>) + Send + Sync>;

/// Which step of the per-piece dispatch a layer belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LayerKind {
    /// Step 2.1, override-piece-moves: the first layer to claim a piece replaces its moves.
    Override,
    /// Step 2.2, transform-move-generator: wraps the type's generator.
    Transform,
    /// Step 2.4, get-extra-moves: adds moves.
    Extra,
    /// A modifier profile's movement (`modifier-profiles-adr.md`, ADR-1 and ADR-5): wraps the
    /// whole chain — the override or the transformed type generator — outermost, overridden
    /// pieces included, and sees the piece's own moves only.
    Profile,
}

/// One preset's change to how some pieces move.
#[derive(Clone)]
pub struct MoveLayer {
    /// The preset that registered it.
    pub owner: &'static str,
    /// Its step.
    pub kind: LayerKind,
    /// The sides whose pieces it applies to (the preset's scope), `[white, black]`.
    pub sides: [bool; 2],
    /// The piece types it applies to (bit per type).
    pub types: u64,
    /// The movement it gives, in Betza, when it can be written so (an override's moves): a
    /// modifier profile's range bonus lengthens its finite slides.
    pub betza: Option<&'static str>,
    /// Whether it also applies to every marked piece ([`PieceSlot::mark`] not 0), whatever
    /// its type (a profile's per-instance entries).
    pub marked: bool,
    /// The function.
    pub run: LayerFn,
}

impl std::fmt::Debug for MoveLayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveLayer").field("owner", &self.owner).field("kind", &self.kind).field("types", &self.types).finish()
    }
}

impl MoveLayer {
    /// Whether it applies to a piece of `kind` and `side` carrying `mark`.
    #[inline]
    pub fn applies(&self, side: Side, kind: PieceType, mark: u8) -> bool {
        self.sides[side.index()] && (self.types & (1u64 << kind.0) != 0 || (self.marked && mark != 0))
    }
}

/// One preset's contribution to the royal set (get-royal-pieces).
#[derive(Clone)]
pub struct RoyalRule {
    /// The preset that registered it.
    pub owner: &'static str,
    /// The function.
    pub run: RoyalFn,
}

impl std::fmt::Debug for RoyalRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RoyalRule").field("owner", &self.owner).finish()
    }
}

/// A per-piece replacement of the promotion choices (a modifier profile's PromotionOverride):
/// the choices for a piece of this type, side and mark, or `None` for the variant's own.
pub type PromotionFn = Arc<dyn Fn(PieceType, Side, u8) -> Option<Vec<PieceType>> + Send + Sync>;

/// The movement layers and royalty rules of the active presets, in activation order.
#[derive(Resource, Clone, Default)]
pub struct RuleFns {
    /// Movement layers.
    pub layers: Vec<MoveLayer>,
    /// Royalty contributions.
    pub royalty: Vec<RoyalRule>,
    /// Per-piece promotion choices, when a modifier profile changes them.
    pub promotion: Option<PromotionFn>,
}

impl std::fmt::Debug for RuleFns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RuleFns")
            .field("layers", &self.layers)
            .field("royalty", &self.royalty)
            .field("promotion", &self.promotion.is_some())
            .finish()
    }
}

impl RuleFns {
    /// The squares of `side`'s royal pieces on `cells`: the union of every contribution, or,
    /// when no preset contributes, every piece of a royal type. An empty union means the side
    /// has no royalty (nothing to check or mate).
    pub fn royals(&self, variant: &Variant, cells: &[Cell], side: Side) -> Vec<Square> {
        let mut out = Vec::new();
        self.royals_into(variant, cells, side, &mut out);
        out
    }

    /// [`Self::royals`] into a buffer (cleared first), in square order without repeats.
    pub fn royals_into(&self, variant: &Variant, cells: &[Cell], side: Side, out: &mut Vec<Square>) {
        out.clear();
        if self.royalty.is_empty() {
            let mask = variant.registry.royal_mask | pseudo_royal_types(variant, cells, side);
            if mask != 0 {
                out.extend(cells.iter().enumerate().filter_map(|(i, c)| {
                    (c.is_piece() && c.side() == side && mask & (1u64 << c.kind().0) != 0).then_some(Square(i as u8))
                }));
            }
            return;
        }
        for rule in &self.royalty {
            (rule.run)(variant, cells, side, out);
        }
        out.sort_unstable();
        out.dedup();
    }

    /// Whether the royal set is the pieces of the royal types, so that a scan for those types
    /// answers for it (no royalty rules, no pieces royal by their count).
    #[inline]
    pub fn plain_royalty(&self, variant: &Variant) -> bool {
        self.royalty.is_empty() && !variant.has_pseudo_royals()
    }

    /// Whether `side` has a royal piece on `cells` (no allocation without royalty rules).
    pub fn any_royal(&self, variant: &Variant, cells: &[Cell], side: Side) -> bool {
        if self.plain_royalty(variant) {
            let mask = variant.registry.royal_mask;
            return mask != 0 && cells.iter().any(|c| c.is_piece() && c.side() == side && mask & (1u64 << c.kind().0) != 0);
        }
        !self.royals(variant, cells, side).is_empty()
    }

    /// Whether a royal piece of `side` faces an enemy royal piece along an open file or rank
    /// (no allocation without royalty rules; the side's pieces are listed from the board's
    /// occupancy, not by a scan of every cell: this runs on every move made in Janggi).
    pub fn generals_facing(&self, variant: &Variant, board: &super::board::Board, side: Side) -> bool {
        let (g, cells) = (variant.geometry, &board.cells);
        if !self.plain_royalty(variant) {
            return super::board::generals_face(
                g,
                cells,
                &self.royals(variant, cells, side),
                &self.royals(variant, cells, side.opponent()),
            );
        }
        let mask = variant.registry.royal_mask;
        board.find(side, mask).any(|a| board.find(side.opponent(), mask).any(|b| super::board::open_line(g, cells, a, b)))
    }

    /// Whether an enemy royal piece stands next to `sq` (no allocation without royalty rules).
    pub fn touches_enemy_royal(&self, variant: &Variant, cells: &[Cell], sq: Square, side: Side) -> bool {
        let g = variant.geometry;
        if !self.plain_royalty(variant) {
            return super::geometry::kings_touch(g, sq, &self.royals(variant, cells, side.opponent()));
        }
        let mask = variant.registry.royal_mask;
        let (f, r) = (g.file(sq) as i32, g.rank(sq) as i32);
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                g.square(f + dx, r + dy).is_some_and(|s| {
                    let c = cells[s.index()];
                    c.is_piece() && c.side() != side && mask & (1u64 << c.kind().0) != 0
                })
            })
        })
    }

    /// Whether any layer applies to `side`'s pieces.
    #[inline]
    pub fn layered(&self, side: Side) -> bool {
        self.layers.iter().any(|l| l.sides[side.index()])
    }

    /// Whether a layer applies to a piece of `kind` and `side` carrying `mark`.
    #[inline]
    pub fn layered_piece(&self, side: Side, kind: PieceType, mark: u8) -> bool {
        self.layers.iter().any(|l| l.applies(side, kind, mark))
    }

    /// Whether a profile layer applies to the piece.
    #[inline]
    pub fn profiled(&self, slot: &PieceSlot) -> bool {
        self.layers.iter().any(|l| l.kind == LayerKind::Profile && l.applies(slot.side, slot.kind, slot.mark))
    }
}

/// The type's own generator.
#[inline]
pub fn type_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    match ctx.registry.def(slot.kind).generator {
        MoveGenerator::Table => generate_from_tables(ctx, slot, out),
        MoveGenerator::Code(i) => super::code_pieces::CODE_GENERATORS[i as usize](ctx, slot, out),
    }
}

/// The first override layer that claims the piece, with its moves pushed to `out`.
pub fn override_moves(ctx: &GenContext, fns: &RuleFns, slot: &PieceSlot, out: &mut Vec<Move>) -> Option<&'static str> {
    for layer in fns.layers.iter().filter(|l| l.kind == LayerKind::Override && l.applies(slot.side, slot.kind, slot.mark)) {
        let before = out.len();
        if (layer.run)(ctx, slot, out) {
            return Some(layer.owner);
        }
        out.truncate(before);
    }
    None
}

/// The type's generator wrapped by the transform layers (steps 2.2), pushed to `out`.
pub fn transformed_moves(ctx: &GenContext, fns: &RuleFns, slot: &PieceSlot, out: &mut Vec<Move>) {
    let mut transforms =
        fns.layers.iter().filter(|l| l.kind == LayerKind::Transform && l.applies(slot.side, slot.kind, slot.mark)).peekable();
    if transforms.peek().is_none() {
        type_moves(ctx, slot, out);
        return;
    }
    let mut own = Vec::new();
    type_moves(ctx, slot, &mut own);
    for layer in transforms {
        (layer.run)(ctx, slot, &mut own);
    }
    out.extend(own);
}

/// The profile layers wrapped around a piece's own moves (`own` holds only this piece's
/// moves), outermost.
pub fn profile_wrap(ctx: &GenContext, fns: &RuleFns, slot: &PieceSlot, own: &mut Vec<Move>) {
    for layer in fns.layers.iter().filter(|l| l.kind == LayerKind::Profile && l.applies(slot.side, slot.kind, slot.mark)) {
        (layer.run)(ctx, slot, own);
    }
}

/// The extra layers' moves for a piece (step 2.4), pushed to `out`.
pub fn extra_moves(ctx: &GenContext, fns: &RuleFns, slot: &PieceSlot, out: &mut Vec<Move>) {
    for layer in fns.layers.iter().filter(|l| l.kind == LayerKind::Extra && l.applies(slot.side, slot.kind, slot.mark)) {
        (layer.run)(ctx, slot, out);
    }
}

/// One piece's movement as check detection sees it: an override's moves, or the transformed
/// type moves plus the extra moves, wrapped by the profile layers (no castling, en passant or
/// promotion: they never attack).
pub fn piece_moves(ctx: &GenContext, fns: &RuleFns, slot: &PieceSlot, out: &mut Vec<Move>) {
    if !fns.profiled(slot) {
        if override_moves(ctx, fns, slot, out).is_none() {
            transformed_moves(ctx, fns, slot, out);
            extra_moves(ctx, fns, slot, out);
        }
        return;
    }
    let mut own = Vec::new();
    let claimed = override_moves(ctx, fns, slot, &mut own);
    if claimed.is_none() {
        transformed_moves(ctx, fns, slot, &mut own);
        extra_moves(ctx, fns, slot, &mut own);
    }
    // The profile sees whose moves it wraps (an override's Betza is lengthened, not the type's).
    profile_wrap(ctx, fns, &PieceSlot { overridden_by: claimed, ..*slot }, &mut own);
    out.extend(own);
}

/// Check detection that sees each piece's effective movement.
pub struct Attacks<'a> {
    /// The variant.
    pub variant: &'a Variant,
    /// The active presets' layers.
    pub fns: &'a RuleFns,
    /// Game-level facts of the position asked about.
    pub state: &'a GameState,
}

impl Attacks<'_> {
    /// Whether any piece of `by` attacks `target` on `board`, treating `target` as holding an
    /// enemy piece of `by` whatever stands there. Pieces whose movement no layer changes are
    /// answered by the compiled tables; the others run their layered movement.
    pub fn attacked(&self, board: &super::board::Board, target: Square, by: Side) -> bool {
        let reg = &self.variant.registry;
        let cells = &board.cells;
        if !self.fns.layered(by) {
            return reg.square_attacked_on(board, target, by);
        }
        let mut probe: Vec<Cell> = cells.to_vec();
        let t = probe[target.index()];
        if !(t.is_piece() && t.side() != by) {
            probe[target.index()] = Cell::piece(PieceType(0), by.opponent());
        }
        let ctx = GenContext { variant: self.variant, registry: reg, geometry: self.variant.geometry, cells: &probe, state: self.state };
        let mut moves = Vec::new();
        for (i, &c) in cells.iter().enumerate() {
            if !c.is_piece() || c.side() != by {
                continue;
            }
            let (kind, from, mark) = (c.kind(), Square(i as u8), board.marks[i]);
            if !self.fns.layered_piece(by, kind, mark) {
                if reg.piece_attacks(cells, kind, by, from, target) {
                    return true;
                }
                continue;
            }
            moves.clear();
            let slot = PieceSlot { entity: Entity::PLACEHOLDER, square: from, kind, side: by, overridden_by: None, mark };
            piece_moves(&ctx, self.fns, &slot, &mut moves);
            if moves.iter().any(|m| m.capture && m.victim_square() == target) {
                return true;
            }
        }
        false
    }
}

/// The types whose pieces `side` has so few of on `cells` that they are royal (a pseudo-royal
/// extinction: no more than its count left, each type on its own or all listed together).
pub fn pseudo_royal_types(variant: &Variant, cells: &[Cell], side: Side) -> u64 {
    let mut royal = 0;
    for e in &variant.end {
        let super::variant::EndCondition::Extinction { types, per_type, fewer_than, pseudo_royal: true, .. } = e else { continue };
        let all = if *types == 0 { u64::MAX } else { *types };
        let mut counts = [0u16; 64];
        for c in cells.iter().filter(|c| c.is_piece() && c.side() == side && all & (1u64 << c.kind().0) != 0) {
            counts[c.kind().0 as usize] += 1;
        }
        let max = u16::from(*fewer_than);
        if *per_type {
            royal |= (0..64).filter(|&t| all & (1u64 << t) != 0 && counts[t] <= max).fold(0, |m, t| m | (1u64 << t));
        } else if counts.iter().sum::<u16>() <= max {
            royal |= all;
        }
    }
    royal
}
