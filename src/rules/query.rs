//! The legal-move query: a schedule run on demand whose chained sets are the steps of the
//! reference's "legal-move query" sequence, and the default systems that give FIDE chess.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::board::{Board, generals_face};
use super::generate::{GenContext, PieceSlot};
use super::geometry::{Side, Square, SquareSet, kings_touch};
use super::layers::{Attacks, RuleFns, extra_moves, override_moves, profile_wrap, transformed_moves, type_moves};
use super::movement::RayKind;
use super::moves::{Move, MoveKind, Wing};
use super::piece::{Cell, PieceType, Promoted};
use super::position::{PositionWriter, TrialOp, TrialWriter, make};
use super::registry::PieceTypeRegistry;
use super::state::{DecidedOutcome, GameState};
use super::variant::{DropRule, RuleSwitches, Rules, Variant};

/// The legal-move query schedule. Running it leaves the legal moves of the side to move in
/// [`MoveQuery::moves`].
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LegalMoveQuery;

/// The steps of the legal-move query, chained in this order (`preset-api.md`, "Hook firing
/// order", legal-move query). Hook systems of presets go into these sets in activation order.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuerySystems {
    /// Step 1, get-royal-pieces: the union of the active presets' royalty rules
    /// ([`RuleFns::royalty`]) is the royal set. No contribution at all means the default (every
    /// piece of a royal type); an empty union means no royalty. After it, [`MoveQuery::royals`]
    /// and [`MoveQuery::in_check`] hold.
    Royalty,
    /// Step 2.1, override-piece-moves: the first override layer (or hook,
    /// [`MoveQuery::override_piece`]) to claim a piece replaces its moves and skips steps 2.2
    /// to 2.4 for it.
    Override,
    /// Step 2.2, the type registry's generator for every piece not overridden.
    Generate,
    /// Step 2.2, the transform-move-generator chain: the transform layers wrap the type's
    /// generator piece by piece (in the generate step); hooks here may rewrite the list.
    Transform,
    /// Step 2.3, en-passant, castling and promotion synthesis for pieces not overridden.
    Synthesize,
    /// Step 2.4, get-extra-moves: hooks append moves for pieces not overridden.
    Extra,
    /// Step 2.5, filter-moves: hooks filter each piece's moves; always runs, overrides too.
    PieceFilter,
    /// Step 3, should-filter-self-check: a hook answering "no" clears
    /// [`MoveQuery::filter_self_check`].
    SelfCheckPoll,
    /// Step 3, the self-check filter: drops moves that leave a royal piece attacked, using
    /// the royal set of step 1, unless suppressed.
    SelfCheck,
    /// Step 4, filter-legal-moves: hooks filter the whole list in activation order, each
    /// seeing the previous output; the result must be a subset.
    LegalFilter,
}

impl QuerySystems {
    /// Every step, in order.
    pub const ALL: [QuerySystems; 10] = [
        QuerySystems::Royalty,
        QuerySystems::Override,
        QuerySystems::Generate,
        QuerySystems::Transform,
        QuerySystems::Synthesize,
        QuerySystems::Extra,
        QuerySystems::PieceFilter,
        QuerySystems::SelfCheckPoll,
        QuerySystems::SelfCheck,
        QuerySystems::LegalFilter,
    ];
}

/// The working state of one legal-move query, visible to every hook.
#[derive(Resource, Debug, Default)]
pub struct MoveQuery {
    /// The side whose moves are generated.
    pub side: Side,
    /// Squares of the resolved royal pieces of [`Self::side`].
    pub royals: Vec<Square>,
    /// Whether a royal piece of [`Self::side`] is attacked.
    pub in_check: bool,
    /// The pieces of the side to move, in square order.
    pub pieces: Vec<PieceSlot>,
    /// Whether any piece was overridden.
    pub any_override: bool,
    /// The moves so far; after the last step, the legal moves.
    pub moves: Vec<Move>,
    /// Whether the self-check filter runs (step 3).
    pub filter_self_check: bool,
    /// Why a filter took a piece's moves away, by its square (a tired piece under stamina): what
    /// the board tells a player who picks that piece up.
    pub held: Vec<(Square, String)>,
    /// Moves a rule refused when they were tried (a chain of events past its limit), with why:
    /// not listed, and what a player who tries one is told.
    pub refused: Vec<(Move, String)>,
    /// The position (its key, see [`RulesWorld::legal_moves`](super::RulesWorld::legal_moves))
    /// whose legal moves these are, so that asking again does not run the query again; any
    /// other run of the query clears it.
    pub fresh_for: Option<u64>,
    scratch_moves: Vec<Move>,
    scratch_ops: Vec<TrialOp>,
    scratch_squares: Vec<Square>,
}

impl MoveQuery {
    /// Step 2.1: gives `moves` to the piece on `square` on behalf of `preset`, unless an
    /// earlier hook already did (first wins; a collision is logged naming both).
    pub fn override_piece(&mut self, square: Square, preset: &'static str, moves: impl IntoIterator<Item = Move>) -> bool {
        let Some(slot) = self.pieces.iter_mut().find(|s| s.square == square) else { return false };
        if let Some(first) = slot.overridden_by {
            log::warn!("override collision on a piece: '{first}' already overrides it, '{preset}' is ignored");
            return false;
        }
        slot.overridden_by = Some(preset);
        self.any_override = true;
        self.moves.extend(moves);
        true
    }

    /// Whether the piece on `square` was overridden.
    pub fn is_overridden(&self, square: Square) -> bool {
        self.any_override && self.pieces.iter().any(|s| s.square == square && s.overridden_by.is_some())
    }

    /// Step 2.2 (transform chain): keeps the moves of pieces that are not overridden for which
    /// `keep` is true; overridden pieces' moves are left alone.
    pub fn transform_generated(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let overridden: Vec<Square> = self.pieces.iter().filter(|s| s.overridden_by.is_some()).map(|s| s.square).collect();
        self.moves.retain(|m| overridden.contains(&m.from) || keep(m));
    }

    /// Step 2.4: appends moves for the piece on `square`, unless it was overridden.
    pub fn add_extra_moves(&mut self, square: Square, moves: impl IntoIterator<Item = Move>) -> bool {
        if self.is_overridden(square) {
            return false;
        }
        self.moves.extend(moves);
        true
    }

    /// Step 2.5: keeps the moves of the piece on `square` for which `keep` is true.
    pub fn filter_piece_moves(&mut self, square: Square, mut keep: impl FnMut(&Move) -> bool) {
        self.moves.retain(|m| m.from != square || keep(m));
    }
}

/// What the query's default systems read and write. The pipeline fuses each run of default
/// systems that no hook separates into one Bevy system over these parts, so the resources are
/// fetched once per run rather than once per default ([`QueryPart`]).
#[derive(SystemParam)]
pub struct QueryParts<'w, 's> {
    query: ResMut<'w, MoveQuery>,
    board: ResMut<'w, Board>,
    rules: Res<'w, Rules>,
    fns: Res<'w, RuleFns>,
    state: Res<'w, GameState>,
    decided: Res<'w, DecidedOutcome>,
    promoted: Query<'w, 's, &'static Promoted>,
}

/// [`QueryParts`] as plain references, for one default system to take apart.
pub struct QueryView<'a, 'w, 's> {
    /// The query's working state.
    pub query: &'a mut MoveQuery,
    /// The square index (trials make and take back moves on it).
    pub board: &'a mut Board,
    /// The variant.
    pub rules: &'a Rules,
    /// Movement layers and royalty rules.
    pub fns: &'a RuleFns,
    /// Game-level facts.
    pub state: &'a GameState,
    /// An outcome already decided (no moves then).
    pub decided: &'a DecidedOutcome,
    /// What pieces were promoted from (a captured piece goes to hand as that).
    pub promoted: &'a Query<'w, 's, &'static Promoted>,
}

impl<'w, 's> QueryParts<'w, 's> {
    /// The parts as plain references.
    pub fn view(&mut self) -> QueryView<'_, 'w, 's> {
        QueryView {
            query: &mut self.query,
            board: &mut self.board,
            rules: &self.rules,
            fns: &self.fns,
            state: &self.state,
            decided: &self.decided,
            promoted: &self.promoted,
        }
    }
}

/// One default system of the query, as a function over the shared parts.
pub type QueryPart = fn(&mut QueryParts);

/// Step 1 (first): resets the query for the side to move and lists its pieces. When a rule
/// has already decided the game, no piece is listed and no move results.
pub fn begin_query(p: &mut QueryParts) {
    let QueryView { query, board, state, decided, .. } = p.view();
    let q = &mut *query;
    q.side = state.turn;
    q.royals.clear();
    q.in_check = false;
    q.pieces.clear();
    q.any_override = false;
    q.moves.clear();
    q.filter_self_check = true;
    q.held.clear();
    q.refused.clear();
    q.fresh_for = None;
    if decided.0.is_some() {
        return;
    }
    let marked = !board.bound.is_empty();
    for square in board.squares_of(q.side) {
        if let Some(entity) = board.entities[square.index()] {
            let kind = board.cells[square.index()].kind();
            let mark = if marked { board.marks[square.index()] } else { 0 };
            q.pieces.push(PieceSlot { entity, square, kind, side: q.side, overridden_by: None, mark });
        }
    }
}

/// Step 1 (last): resolves the royal set (the union of the presets' royalty rules, or the
/// default) and whether it is attacked.
pub fn resolve_royalty(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, .. } = p.view();
    let q = &mut *query;
    if fns.plain_royalty(rules) && !q.pieces.is_empty() {
        // The default royal set from the pieces just listed (a decided game lists none: then
        // the board is asked, so that a final check still shows).
        let mask = rules.registry.royal_mask;
        q.royals.clear();
        q.royals.extend(q.pieces.iter().filter(|s| mask & (1u64 << s.kind.0) != 0).map(|s| s.square));
    } else {
        fns.royals_into(rules, &board.cells, q.side, &mut q.royals);
    }
    q.in_check = royal_attacked(rules, fns, state, board, &q.royals, q.side);
}

/// Whether one of `royals` (the royal squares of `side`) is in check on `cells`: attacked by the
/// opponent's effective movement, or facing an enemy royal piece in variants with the flying
/// general; in variants with blasts a royal piece next to an enemy royal piece cannot be taken.
pub fn royal_attacked(rules: &Variant, fns: &RuleFns, state: &GameState, board: &Board, royals: &[Square], side: Side) -> bool {
    if royals.is_empty() {
        return false;
    }
    let by = side.opponent();
    let attacks = Attacks { variant: rules, fns, state };
    let cells = &board.cells;
    if rules.blast.is_none() && !rules.switches.flying_general {
        return royals.iter().any(|&r| attacks.attacked(board, r, by));
    }
    royals.iter().any(|&r| attacks.attacked(board, r, by) && !(rules.blast.is_some() && fns.touches_enemy_royal(rules, cells, r, side)))
        || (rules.switches.flying_general && flying_generals(rules, fns, board, royals, side))
}

/// Whether one of `royals` (of `side`) faces an enemy royal piece along an open file or rank.
fn flying_generals(rules: &Variant, fns: &RuleFns, board: &Board, royals: &[Square], side: Side) -> bool {
    let (g, cells) = (rules.geometry, &board.cells);
    if fns.plain_royalty(rules) {
        // The enemy royal pieces from the board's occupancy: no scan for the royal set.
        let mask = rules.registry.royal_mask;
        return royals.iter().any(|&a| board.find(side.opponent(), mask).any(|b| super::board::open_line(g, cells, a, b)));
    }
    generals_face(g, cells, royals, &fns.royals(rules, cells, side.opponent()))
}

/// Step 2.1 (default, before the hooks): the override layers claim pieces, first wins.
pub fn override_by_layers(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, .. } = p.view();
    if !fns.layered(query.side) {
        return;
    }
    let q = &mut *query;
    let ctx = GenContext { variant: rules, registry: &rules.registry, geometry: board.geometry, cells: &board.cells, state };
    for slot in &mut q.pieces {
        if let Some(owner) = override_moves(&ctx, fns, slot, &mut q.moves) {
            slot.overridden_by = Some(owner);
            q.any_override = true;
        }
    }
}

/// Step 2.2: every piece not overridden generates through its type's generator, wrapped by
/// the transform layers that apply to it.
pub fn generate_piece_moves(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, .. } = p.view();
    let q = &mut *query;
    let ctx = GenContext { variant: rules, registry: &rules.registry, geometry: board.geometry, cells: &board.cells, state };
    if fns.layers.is_empty() && !q.any_override {
        for slot in &q.pieces {
            type_moves(&ctx, slot, &mut q.moves);
        }
        return;
    }
    let mut own = Vec::new();
    for slot in &q.pieces {
        let profiled = fns.profiled(slot);
        match (slot.overridden_by, profiled) {
            (None, false) => transformed_moves(&ctx, fns, slot, &mut q.moves),
            (None, true) => {
                own.clear();
                transformed_moves(&ctx, fns, slot, &mut own);
                profile_wrap(&ctx, fns, slot, &mut own);
                q.moves.extend_from_slice(&own);
            }
            // The profile wraps an overridden piece's moves too (its layers are outermost).
            (Some(_), true) => {
                own.clear();
                own.extend(q.moves.iter().filter(|m| m.from == slot.square && m.dropped().is_none()));
                q.moves.retain(|m| m.from != slot.square || m.dropped().is_some());
                profile_wrap(&ctx, fns, slot, &mut own);
                q.moves.extend_from_slice(&own);
            }
            (Some(_), false) => {}
        }
    }
}

/// Step 2.4 (default, before the hooks): the extra layers' moves for pieces not overridden.
pub fn extra_by_layers(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, .. } = p.view();
    if !fns.layered(query.side) {
        return;
    }
    let q = &mut *query;
    let ctx = GenContext { variant: rules, registry: &rules.registry, geometry: board.geometry, cells: &board.cells, state };
    for slot in &q.pieces {
        if slot.overridden_by.is_none() {
            extra_moves(&ctx, fns, slot, &mut q.moves);
        }
    }
}

/// Step 2.2 (default, last), in variants where a side may pass (Janggi): the pass, written as
/// the royal piece moving to its own square; the self-check filter keeps it only out of check.
pub fn generate_pass(p: &mut QueryParts) {
    let QueryView { query, board, rules, decided, .. } = p.view();
    if decided.0.is_some() {
        return;
    }
    push_pass(query, board, rules);
}

/// Adds the pass, written as a piece standing still: the side's royal piece, or without one
/// its first piece (a side with no piece cannot pass), as Fairy-Stockfish writes it.
fn push_pass(query: &mut MoveQuery, board: &Board, rules: &Variant) {
    let mut royal = board.find(query.side, rules.registry.royal_mask);
    if let Some(k) = royal.next().or_else(|| board.find(query.side, u64::MAX).next()) {
        query.moves.push(Move { from: k, to: k, kind: MoveKind::Pass, capture: false, promotion: None, gate: None, wall: None });
    }
}

/// Step 2.2 (default, after the board pieces), in variants with drops: every piece in hand
/// may be dropped on every empty square its type may be dropped on.
pub fn generate_drops(p: &mut QueryParts) {
    let QueryView { query, board, rules, decided, .. } = p.view();
    let Some(drops) = &rules.drops else { return };
    if decided.0.is_some() {
        return;
    }
    let q = &mut *query;
    let side = q.side;
    let g = board.geometry;
    let bishop = if drops.opposite_bishops { rules.registry.by_name("bishop") } else { None };
    let colour = |sq: Square| ((g.file(sq) + g.rank(sq)) % 2) as usize;
    // Placement's bishops: free drop squares of each colour, and the colours this side's
    // bishops already stand on.
    let (mut free, mut placed, bishops_in_hand) =
        ([0u32; 2], [false; 2], bishop.map_or(0, |b| board.hand_counts[side.index()][b.0 as usize]));
    if let Some(b) = bishop {
        for sq in board.find(side, 1u64 << b.0) {
            placed[colour(sq)] = true;
        }
        for (i, c) in board.cells.iter().enumerate() {
            let sq = Square(i as u8);
            if c.is_empty() && drops.allowed(b, g.relative_rank(sq, side)) {
                free[colour(sq)] += 1;
            }
        }
    }
    // Whether the bishops still in hand can all be placed on different colours after a drop.
    let feasible = |kind: PieceType, sq: Square| {
        let Some(b) = bishop else { return true };
        let (mut free, mut placed, mut left) = (free, placed, bishops_in_hand);
        if drops.allowed(b, g.relative_rank(sq, side)) {
            free[colour(sq)] -= 1;
        }
        if kind == b {
            if placed[colour(sq)] {
                return false;
            }
            placed[colour(sq)] = true;
            left -= 1;
        }
        match left {
            0 => true,
            1 => (0..2).any(|c| !placed[c] && free[c] > 0),
            _ => !placed[0] && !placed[1] && free[0] > 0 && free[1] > 0,
        }
    };
    for kind in rules.registry.ids() {
        if board.hand_counts[side.index()][kind.0 as usize] == 0 {
            continue;
        }
        for (i, c) in board.cells.iter().enumerate() {
            let sq = Square(i as u8);
            if c.is_empty() && drop_allowed(rules, drops, &board.cells, side, kind, sq) && feasible(kind, sq) {
                q.moves.push(Move::drop(kind, sq));
            }
        }
    }
}

/// Whether a piece of `kind` and `side` would be stuck for good on `sq` (variants that forbid
/// immobile pieces).
#[inline]
pub fn immobile_on(rules: &Variant, kind: PieceType, side: Side, sq: Square) -> bool {
    rules.immobile.get(kind.0 as usize).is_some_and(|sets| sets[side.index()].contains(sq))
}

/// Whether `side` may drop `kind` on the empty square `sq` by the variant's square rules:
/// drop ranks, immobile pieces, a confined piece's region, and no doubled pieces on a file
/// (Shogi's nifu).
pub fn drop_allowed(rules: &Variant, drops: &DropRule, cells: &[Cell], side: Side, kind: PieceType, sq: Square) -> bool {
    let g = rules.geometry;
    drops.allowed(kind, g.relative_rank(sq, side))
        && !immobile_on(rules, kind, side, sq)
        && rules.registry.def(kind).zones.confinement.as_ref().is_none_or(|c| c[side.index()].contains(sq))
        && (drops.no_doubled & (1u64 << kind.0) == 0
            || (0..g.ranks)
                .filter(|r| {
                    let c = cells[(r * g.files + g.file(sq)) as usize];
                    c.is_piece() && c.side() == side && c.kind() == kind
                })
                .count()
                < usize::from(drops.no_doubled_count))
}

/// Step 2.3 (default, after promotion and en passant), in variants with Shogi-style
/// promotion or immobile-piece rules: a piece that may promote (its type has `promotes_to`)
/// may on any move starting or ending in the zone — and must where promotion is compulsory
/// or it could not move again; a piece may not move where it would be stuck for good.
pub fn synthesize_piece_promotions(p: &mut QueryParts) {
    let QueryView { query, board, rules, .. } = p.view();
    let q = &mut *query;
    let side = q.side;
    let g = board.geometry;
    let reg = &rules.registry;
    let mut out = std::mem::take(&mut q.scratch_moves);
    out.clear();
    for &m in &q.moves {
        // (A piece that takes on an earlier leg and comes back has not moved: no promotion.)
        if m.dropped().is_some() || m.is_castle() || m.promotion.is_some() || m.to == m.from {
            out.push(m);
            continue;
        }
        let kind = board.cell(m.from).kind();
        let promotion = match (&rules.piece_promotion, reg.def(kind).promotes_to) {
            (Some(pp), Some(to)) if g.relative_rank(m.from, side) >= pp.zone || g.relative_rank(m.to, side) >= pp.zone => {
                let overridden = q.any_override && q.pieces.iter().any(|s| s.square == m.from && s.overridden_by.is_some());
                (!overridden).then_some((to, pp.mandatory))
            }
            _ => None,
        };
        if let Some((to, mandatory)) = promotion {
            if !mandatory && !immobile_on(rules, kind, side, m.to) {
                out.push(m);
            }
            out.push(Move { promotion: Some(to), ..m });
        } else if !immobile_on(rules, kind, side, m.to) {
            out.push(m);
        }
    }
    std::mem::swap(&mut q.moves, &mut out);
    q.scratch_moves = out;
}

/// Step 4 (default, first), in variants with the bikjang rule (Janggi): while the royal pieces
/// face each other on an open file, the side to move must break it up or pass (passing ends
/// the game).
pub fn answer_bikjang(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, promoted, .. } = p.view();
    let side = query.side;
    if !fns.generals_facing(rules, board, side) {
        return;
    }
    let base = |e: Entity| promoted.get(e).ok().and_then(|p| p.0);
    retain_after(query, board, rules, fns, state, &base, |m, after, _| {
        m.kind == MoveKind::Pass || !fns.generals_facing(rules, after, side)
    });
}

/// Keeps the moves of the side to move for which `keep` holds of the position each leaves
/// (made by the kernel on the square index, with the game-level facts after it, and taken back).
#[allow(clippy::too_many_arguments)]
fn retain_after(
    q: &mut MoveQuery,
    board: &mut Board,
    rules: &Variant,
    fns: &RuleFns,
    state: &GameState,
    base: &dyn Fn(Entity) -> Option<PieceType>,
    mut keep: impl FnMut(&Move, &Board, &GameState) -> bool,
) {
    let side = q.side;
    let mut ops = std::mem::take(&mut q.scratch_ops);
    q.moves.retain(|m| {
        let mut w = TrialWriter::new(board, std::mem::take(&mut ops), base);
        let mut st = *state;
        make(&mut w, rules, fns, &mut st, *m, side);
        let kept = keep(m, w.board(), &st);
        ops = w.undo();
        kept
    });
    q.scratch_ops = ops;
}

/// Step 4 (default, first), in variants where no drop may give check: drops such drops.
pub fn forbid_drop_checks(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, promoted, .. } = p.view();
    if !rules.drops.as_ref().is_some_and(|d| d.no_checks) {
        return;
    }
    let enemy = query.side.opponent();
    let base = |e: Entity| promoted.get(e).ok().and_then(|p| p.0);
    retain_after(query, board, rules, fns, state, &base, |m, after, st| {
        m.dropped().is_none() || !royal_attacked(rules, fns, st, after, &fns.royals(rules, &after.cells, enemy), enemy)
    });
}

/// Step 4 (default, before the hooks), in variants where pieces in hand must be dropped
/// (Placement): a side with anything in hand may only drop.
pub fn enforce_must_drop(p: &mut QueryParts) {
    let QueryView { query, board, rules, .. } = p.view();
    let side = query.side;
    if rules.drops.as_ref().is_some_and(|d| d.must_drop) && board.hand_counts[side.index()].iter().any(|&n| n > 0) {
        query.moves.retain(|m| m.dropped().is_some());
    }
}

/// Step 2.3: promotion, en passant and castling for pieces not overridden.
pub fn synthesize_special_moves(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, .. } = p.view();
    let q = &mut *query;
    let reg = &rules.registry;
    let g = board.geometry;
    // Promotion: a promoting piece reaching the promotion zone becomes one move per open
    // choice (plus the plain move where promotion is optional; none if no choice is open).
    let promo = &rules.promotion;
    let side = q.side;
    let zone = |m: &Move, cells: &[Cell]| -> Option<bool> {
        // The rank first: most moves end outside the zone.
        let plain = promo.zone_at(g, m.to, side)?;
        let c = cells[m.from.index()];
        if m.promotion.is_some() || m.is_castle() || m.dropped().is_some() || m.to == m.from || !c.is_piece() || !reg.def(c.kind()).promotes
        {
            return None;
        }
        Some(plain)
    };
    let count = |t: PieceType| board.find(side, 1u64 << t.0).count() as u8;
    let expand = |m: Move, plain: bool, out: &mut Vec<Move>| {
        if plain {
            out.push(m);
        }
        // A modifier profile may give this piece its own choices.
        let own = fns.promotion.as_ref().and_then(|f| f(board.cell(m.from).kind(), side, board.mark(m.from)));
        match own {
            Some(choices) => out.extend(choices.into_iter().map(|t| Move { promotion: Some(t), ..m })),
            None => out.extend(promo.open_choices(side, count).map(|t| Move { promotion: Some(t), ..m })),
        }
    };
    if !promo.offered(side).is_empty() && q.moves.iter().any(|m| zone(m, &board.cells).is_some()) {
        let mut out = std::mem::take(&mut q.scratch_moves);
        out.clear();
        for &m in &q.moves {
            let overridden = q.any_override && q.pieces.iter().any(|s| s.square == m.from && s.overridden_by.is_some());
            match zone(&m, &board.cells) {
                Some(plain) if !overridden => expand(m, plain, &mut out),
                _ => out.push(m),
            }
        }
        std::mem::swap(&mut q.moves, &mut out);
        q.scratch_moves = out;
    }
    // En passant: a piece with en-passant rights whose capture ray starts on the square.
    // (The pawn that made the double step must still be there: a preset may have removed it.)
    if let (Some(ep), Some(victim)) = (state.ep_square, state.ep_victim)
        && board.cell(victim).is_piece()
        && board.cell(victim).side() != q.side
    {
        for slot in q.pieces.iter().filter(|s| s.overridden_by.is_none()) {
            if !reg.captures_en_passant(slot.kind) {
                continue;
            }
            let table = &reg.tables[slot.kind.0 as usize];
            for ray in table.rays(g.len(), slot.side, slot.square) {
                if ray.en_passant && ray.mode.captures() && ray.kind == RayKind::Slide && ray.first == ep && board.cell(ep).is_empty() {
                    let m = Move {
                        from: slot.square,
                        to: ep,
                        kind: MoveKind::EnPassant(victim),
                        capture: true,
                        promotion: None,
                        gate: None,
                        wall: None,
                    };
                    match zone(&m, &board.cells) {
                        Some(plain) if !promo.offered(side).is_empty() => expand(m, plain, &mut q.moves),
                        _ => q.moves.push(m),
                    }
                }
            }
        }
    }
    // Castling.
    if let Some(rule) = &rules.castling
        && state.castling.rooks[q.side.index()].iter().any(Option::is_some)
    {
        let side = q.side;
        for slot in q.pieces.iter().filter(|s| s.overridden_by.is_none() && reg.def(s.kind).castles) {
            if g.relative_rank(slot.square, side) != rule.rank || (q.in_check && q.royals.contains(&slot.square)) {
                continue;
            }
            let rank = g.rank(slot.square) as i32;
            for wing in Wing::BOTH {
                let Some(rook_file) = state.castling.get(side, wing) else { continue };
                let Some(rook_sq) = g.square(rook_file as i32, rank) else { continue };
                let rook = board.cell(rook_sq);
                if !(rook.is_piece() && rook.side() == side && reg.def(rook.kind()).castling_partner) {
                    continue;
                }
                let king_file = g.file(slot.square);
                let on_wing = match wing {
                    Wing::King => rook_file > king_file,
                    Wing::Queen => rook_file < king_file,
                };
                if !on_wing {
                    continue;
                }
                let kd = rule.king_files[wing.index()];
                let rd = rule.rook_files[wing.index()];
                let span = |a: u8, b: u8| a.min(b)..=a.max(b);
                let blocked = span(king_file, kd).chain(span(rook_file, rd)).any(|f| {
                    let sq = Square((rank as u8) * g.files + f);
                    sq != slot.square && sq != rook_sq && !board.cell(sq).is_empty()
                });
                if blocked {
                    continue;
                }
                let by = side.opponent();
                // The squares are judged on the board as it stands, the king on its square (as
                // Fairy-Stockfish does: a grasshopper beside the king attacks the square beyond it).
                // Only a royal king may not castle out of, through or into check; in Atomic a
                // square next to the enemy king is safe (kings touching cannot be taken).
                let royal = q.royals.contains(&slot.square);
                let enemy_kings: Vec<Square> = if rules.blast.is_some() { fns.royals(rules, &board.cells, by) } else { Vec::new() };
                let attacks = Attacks { variant: rules, fns, state };
                let attacked = royal
                    && span(king_file, kd).any(|f| {
                        let sq = Square((rank as u8) * g.files + f);
                        attacks.attacked(board, sq, by) && !kings_touch(g, sq, &enemy_kings)
                    });
                if !attacked {
                    q.moves.push(Move {
                        from: slot.square,
                        to: rook_sq,
                        kind: MoveKind::Castle(wing),
                        capture: false,
                        promotion: None,
                        gate: None,
                        wall: None,
                    });
                }
            }
        }
    }
}

/// Step 2.3 (default, last), in gating variants: each move of a back-rank piece from a square
/// that may still gate also comes with every piece type in the hand placed on the vacated
/// square (for castling: on the king's or the rook's square).
pub fn synthesize_gating(p: &mut QueryParts) {
    let QueryView { query, board, rules, state, .. } = p.view();
    if rules.switches.fixed_gating {
        synthesize_fixed_gating(query, board, rules, state);
        return;
    }
    if !rules.switches.gating {
        return;
    }
    let q = &mut *query;
    let side = q.side;
    let g = board.geometry;
    let back = if side == Side::White { 0 } else { g.ranks - 1 };
    let gates = state.gates[side.index()];
    let in_hand: Vec<PieceType> = rules.registry.ids().filter(|t| board.hand_counts[side.index()][t.0 as usize] > 0).collect();
    if gates == 0 || in_hand.is_empty() {
        return;
    }
    let gateable = |sq: Square| g.rank(sq) == back && gates & (1u16 << g.file(sq)) != 0;
    let n = q.moves.len();
    for i in 0..n {
        let m = q.moves[i];
        if m.dropped().is_some() || q.is_overridden(m.from) {
            continue;
        }
        for sq in vacated_squares(rules, &m) {
            if gateable(sq) {
                // With drops too (S-House), a piece gates only where it could be dropped (no
                // pawn onto the back rank).
                for &kind in
                    in_hand.iter().filter(|&&k| rules.drops.as_ref().is_none_or(|d| drop_allowed(rules, d, &board.cells, side, k, sq)))
                {
                    q.moves.push(Move { gate: Some(super::moves::Gate { kind, square: sq }), ..m });
                }
            }
        }
    }
}

/// The squares a move leaves empty for a gated piece: the one it starts from, or for castling
/// the king's and the rook's, where neither lands.
fn vacated_squares(rules: &Variant, m: &Move) -> impl Iterator<Item = Square> {
    let g = rules.geometry;
    let landing = match (m.kind, &rules.castling) {
        (MoveKind::Castle(wing), Some(rule)) => {
            let rank = g.rank(m.from);
            [Some(Square(rank * g.files + rule.king_files[wing.index()])), Some(Square(rank * g.files + rule.rook_files[wing.index()]))]
        }
        _ => [None, None],
    };
    // (A piece that takes on the way and comes home vacates nothing.)
    let squares = if m.is_castle() { [Some(m.from), Some(m.to)] } else { [Some(m.from).filter(|&f| f != m.to), None] };
    squares.into_iter().flatten().filter(move |sq| !landing.contains(&Some(*sq)))
}

/// Fixed gating (Musketeer): a move from a back-rank square whose waiting piece may still
/// enter becomes the move with that piece entering there (for castling, on the king's or the
/// rook's square, where castling leaves it empty: one move for each); the plain move stays
/// only where no piece can enter.
fn synthesize_fixed_gating(q: &mut MoveQuery, board: &Board, rules: &Variant, state: &GameState) {
    let side = q.side;
    let g = board.geometry;
    let back = if side == Side::White { 0 } else { g.ranks - 1 };
    let (gates, waiting) = (state.gates[side.index()], state.fixed_gates[side.index()]);
    if gates == 0 {
        return;
    }
    let waiting_at = |sq: Square| {
        let f = g.file(sq) as usize;
        (g.rank(sq) == back && gates & (1u16 << f) != 0 && waiting[f] != 0).then(|| PieceType(waiting[f] - 1))
    };
    let moves = std::mem::take(&mut q.moves);
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        if m.dropped().is_some() || q.is_overridden(m.from) {
            out.push(m);
            continue;
        }
        let before = out.len();
        for sq in vacated_squares(rules, &m) {
            if let Some(kind) = waiting_at(sq) {
                out.push(Move { gate: Some(super::moves::Gate { kind, square: sq }), ..m });
            }
        }
        if out.len() == before {
            out.push(m);
        }
    }
    q.moves = out;
}

/// Step 2.3 (default, last), in Cambodian: the first-move leaps from squares whose right the
/// state keeps (`gates`): a royal piece there, not in check, leaps as a knight to an empty
/// square one rank forward (the self-check filter judges where it lands); a ferz there jumps
/// two squares straight forward onto an empty square, over anything.
pub fn synthesize_cambodian_moves(p: &mut QueryParts) {
    let QueryView { query, board, rules, state, .. } = p.view();
    let q = &mut *query;
    let side = q.side;
    let gates = state.gates[side.index()];
    if !rules.switches.cambodian_moves || gates == 0 {
        return;
    }
    let g = board.geometry;
    let reg = &rules.registry;
    let (back, dy) = if side == Side::White { (0i32, 1i32) } else { (g.ranks as i32 - 1, -1) };
    for f in (0..g.files).filter(|f| gates & (1u16 << f) != 0) {
        let from = Square(back as u8 * g.files + f);
        let c = board.cell(from);
        if !c.is_piece() || c.side() != side || q.is_overridden(from) {
            continue;
        }
        let def = reg.def(c.kind());
        let targets: &[(i32, i32)] = if def.royal && !q.in_check {
            &[(-2, 1), (2, 1)]
        } else if def.betza == "F" {
            &[(0, 2)]
        } else {
            &[]
        };
        for &(dx, steps) in targets {
            if let Some(to) = g.square(f as i32 + dx, back + dy * steps)
                && board.cell(to).is_empty()
            {
                q.moves.push(Move::normal(from, to, false));
            }
        }
    }
}

/// Step 3: drops moves that leave a royal piece of the mover in check, judged on the position
/// the kernel's make produces (captures, blasts, drops, castling, promotion to a royal type).
/// Without custom attack probes, movement layers or royalty rules, and while not in check, a
/// move skips the trial when it cannot change whether a royal piece is attacked: it is not
/// made by a royal piece, crowns none, is not en passant, does not blow anything up, does not
/// leave a square that shields a royal piece (a pinned piece, the one piece between facing
/// generals, a square on the path of a hopper or lame leaper that reaches a royal piece), and
/// does not enter a square on such a path (a new screen or blocked leg).
pub fn filter_self_check(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, promoted, .. } = p.view();
    let base = |e: Entity| promoted.get(e).ok().and_then(|p| p.0);
    self_check_filter(query, board, rules, fns, state, &base);
}

fn self_check_filter(
    q: &mut MoveQuery,
    board: &mut Board,
    rules: &Variant,
    fns: &RuleFns,
    state: &GameState,
    base: &dyn Fn(Entity) -> Option<PieceType>,
) {
    // A side without royal pieces has none to expose, unless royalty rules may make a piece it
    // moves, promotes or drops royal (Horde's white under knightmate rules promoting to a knight).
    if !q.filter_self_check || (q.royals.is_empty() && fns.royalty.is_empty()) {
        return;
    }
    let reg = &rules.registry;
    let side = q.side;
    let by = side.opponent();
    // Royalty rules may make a moved or dropped piece royal, or none, and the duck may shield a
    // king or stop shielding it: every move is tried.
    let fast = reg.piecewise_mask == 0 && !fns.layered(by) && fns.royalty.is_empty() && !q.in_check && !rules.switches.duck;
    let (leave, enter) = if fast { shields(rules, fns, &board.cells, &q.royals, side) } else { Default::default() };
    let royals = std::mem::take(&mut q.royals);
    // A pawn promoting to a royal type (Coregal's queen) or a royal piece dropped makes a new
    // royal piece, which may not stand attacked either.
    let royal_types = royals.iter().fold(reg.royal_mask, |m, r| m | (1u64 << board.cells[r.index()].kind().0));
    // A type royal by its count (pseudo-royal) is judged on the count before the move, as
    // Fairy-Stockfish judges it: a pawn promoting to it makes one more that may not stand
    // attacked; a Shogi-style promotion or a drop does not.
    let pseudo_types = royal_types & !reg.royal_mask;
    let crowns = |m: &Move, pawn_promotion: bool| {
        m.promotion
            .or(m.dropped())
            .is_some_and(|p| royal_types & (1u64 << p.0) != 0 && (pseudo_types & (1u64 << p.0) == 0 || pawn_promotion))
    };
    // Without royalty rules or blasts the royal set after a move is the one before, with the
    // moving royal piece (or a crowned one) where it landed; otherwise it is asked again.
    let track = fns.royalty.is_empty() && rules.blast.is_none();
    let royal_pieces: Vec<(Entity, Square)> =
        if track { Vec::new() } else { royals.iter().filter_map(|&r| Some((board.entity(r)?, r))).collect() };
    let enemy_royal = rules.blast.is_some() && fns.any_royal(rules, &board.cells, by);
    let mut ops = std::mem::take(&mut q.scratch_ops);
    let mut after = std::mem::take(&mut q.scratch_squares);
    q.moves.retain(|m| {
        let mover = board.cells[m.from.index()];
        let crowned = crowns(m, m.dropped().is_none() && mover.is_piece() && reg.def(mover.kind()).promotes);
        let may_expose = matches!(m.kind, MoveKind::EnPassant(_) | MoveKind::Locust(_))
            || (m.capture && (rules.blast.is_some() || rules.switches.captures_change_side))
            || leave.contains(m.from)
            || enter.contains(m.to)
            || royals.contains(&m.from)
            || crowned;
        if fast && !may_expose {
            return true;
        }
        let mut w = TrialWriter::new(board, std::mem::take(&mut ops), base);
        let mut st = *state;
        let made = make(&mut w, rules, fns, &mut st, *m, side);
        let after_board = w.board();
        let safe = if track {
            let end = made.piece.and_then(|p| w.location_of(p, super::piece::Location::Board(m.from)).square());
            after.clear();
            for &r in &royals {
                match (r == m.from && m.dropped().is_none(), end) {
                    (false, _) => after.push(r),
                    (true, Some(e)) => after.push(e),
                    (true, None) => {}
                }
            }
            if crowned && let Some(e) = end {
                after.push(e);
            }
            !after.is_empty() && !royal_attacked(rules, fns, &st, after_board, &after, side)
        } else {
            let lost = royal_pieces.iter().any(|&(e, r)| w.location_of(e, super::piece::Location::Board(r)).square().is_none());
            safe_after(rules, fns, &st, after_board, side, lost, enemy_royal, &mut after)
        };
        ops = w.undo();
        safe
    });
    q.royals = royals;
    q.scratch_ops = ops;
    q.scratch_squares = after;
}

/// Whether `side`, having just moved to `board`, leaves none of its royal pieces in check and
/// did not lose its last one (`lost`: a royal piece left the board in the move; a side whose
/// royal set merely became empty, as with a second king under weak-dual-king, is safe). With
/// blasts, blowing up the last enemy royal piece is safe whatever else holds; `enemy_royal`
/// says whether the opponent had one before the move (under weak-dual-king a side with two
/// kings has none, and then nothing was blown up).
#[allow(clippy::too_many_arguments)]
pub fn safe_after(
    rules: &Variant,
    fns: &RuleFns,
    state: &GameState,
    board: &Board,
    side: Side,
    lost: bool,
    enemy_royal: bool,
    scratch: &mut Vec<Square>,
) -> bool {
    let cells = &board.cells;
    fns.royals_into(rules, cells, side, scratch);
    if scratch.is_empty() {
        return !lost;
    }
    if rules.blast.is_some() && enemy_royal && !fns.any_royal(rules, cells, side.opponent()) {
        return true;
    }
    !royal_attacked(rules, fns, state, board, scratch, side)
}

/// The squares a move of `side` may not leave (`.0`) or enter (`.1`) without a trial: the
/// pinned pieces, the one piece between facing generals, and the paths of the hoppers and lame
/// leapers that reach one of `royals`.
fn shields(rules: &Variant, fns: &RuleFns, cells: &[Cell], royals: &[Square], side: Side) -> (SquareSet, SquareSet) {
    let reg = &rules.registry;
    let by = side.opponent();
    let mut leave = pinned_pieces(reg, cells, royals, side);
    let mut enter = SquareSet::default();
    if reg.any_reverse {
        for &r in royals {
            reg.reverse.live_paths(cells, r, by, |s| enter.insert(s));
        }
        leave.union_with(&enter);
    }
    if rules.switches.flying_general {
        let g = rules.geometry;
        let theirs = fns.royals(rules, cells, by);
        for &r in royals {
            for &t in &theirs {
                let between: Vec<Square> = if g.file(t) == g.file(r) {
                    let (lo, hi) = (g.rank(r).min(g.rank(t)), g.rank(r).max(g.rank(t)));
                    (lo + 1..hi).map(|rank| Square(rank * g.files + g.file(r))).collect()
                } else if g.rank(t) == g.rank(r) {
                    let (lo, hi) = (g.file(r).min(g.file(t)), g.file(r).max(g.file(t)));
                    (lo + 1..hi).map(|file| Square(g.rank(r) * g.files + file)).collect()
                } else {
                    continue;
                };
                if between.iter().filter(|s| !cells[s.index()].is_empty()).count() == 1 {
                    between.into_iter().for_each(|s| leave.insert(s));
                }
            }
        }
    }
    (leave, enter)
}

/// The pieces of `side` that stand alone between one of `royals` and an enemy slider
/// (first-blocker attacks only).
fn pinned_pieces(reg: &PieceTypeRegistry, cells: &[Cell], royals: &[Square], side: Side) -> SquareSet {
    let by = side.opponent();
    let at = &reg.attacks;
    let ndirs = at.dirs.len();
    let mut pinned = SquareSet::default();
    for &r in royals {
        for &(d, far) in &at.active[by.index()] {
            if far < 2 {
                continue;
            }
            let (start, len) = at.rays[r.index() * ndirs + d];
            let squares = &at.squares[start as usize..start as usize + len.min(far) as usize];
            let mut shield: Option<Square> = None;
            for (k, &s) in squares.iter().enumerate() {
                let c = cells[s.index()];
                if c.is_empty() {
                    continue;
                }
                if !c.is_piece() {
                    break;
                }
                match shield {
                    None if c.side() == side => shield = Some(s),
                    None => break,
                    Some(p) => {
                        if c.side() == by && at.masks[by.index()][d][k + 1] & (1u64 << c.kind().0) != 0 {
                            pinned.insert(p);
                        }
                        break;
                    }
                }
            }
        }
    }
    pinned
}

/// Step 4's default parts that a rule switch turns on ([`RuleSwitches`]), in the order they
/// run: after the drop filters and Janggi's bikjang, before must-drop. The pipeline adds each
/// whose switch is on; a new switched filter is one row here.
pub const SWITCHED_FILTERS: &[(fn(&RuleSwitches) -> bool, QueryPart)] = &[
    (|s| s.checks_forbidden, forbid_checks),
    (|s| s.mandatory_capture, enforce_mandatory_capture),
    (|s| s.pass_on_stalemate, pass_when_stalemated),
];

/// Step 4 (default, the last switched filter), where a stalemated side passes: a side that is
/// not in check and has no legal move is given the pass.
pub fn pass_when_stalemated(p: &mut QueryParts) {
    let QueryView { query, board, rules, decided, .. } = p.view();
    if query.moves.is_empty() && !query.in_check && decided.0.is_none() {
        push_pass(query, board, rules);
    }
}

/// Step 4 (default, before the hooks): in variants with mandatory capture, a side that can
/// capture must.
pub fn enforce_mandatory_capture(p: &mut QueryParts) {
    let QueryView { query, rules, .. } = p.view();
    if rules.switches.mandatory_capture && query.moves.iter().any(|m| m.capture) {
        query.moves.retain(|m| m.capture);
    }
}

/// Step 2.2 (default, after generation), where some types cannot capture one another
/// (Atomar's kings): drops such captures.
pub fn forbid_mutual_captures(p: &mut QueryParts) {
    let QueryView { query, board, rules, .. } = p.view();
    let mask = rules.mutually_immune;
    if mask == 0 {
        return;
    }
    let immune = |sq: Square| {
        let c = board.cell(sq);
        c.is_piece() && mask & (1u64 << c.kind().0) != 0
    };
    query.moves.retain(|m| !(m.capture && m.dropped().is_none() && immune(m.from) && immune(m.victim_square())));
}

/// Step 3 (default, first), where moves leave walls behind (Joust, Snail trail): each move
/// walls up the square its piece leaves.
pub fn leave_trail(p: &mut QueryParts) {
    let QueryView { query, rules, .. } = p.view();
    if !rules.switches.trail_walls {
        return;
    }
    for m in query.moves.iter_mut().filter(|m| m.dropped().is_none() && m.kind != MoveKind::Pass) {
        m.wall = Some(m.from);
    }
}

/// Step 3 (default, after the self-check filter), in Makpong: a royal piece in check may not
/// step away; it may only take the piece checking it, where that is the only one (the check
/// is gone once it is off the board). Other pieces answer a check as usual.
pub fn makpong_king_takes_checker(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, .. } = p.view();
    if !rules.switches.makpong || !query.in_check {
        return;
    }
    let q = &mut *query;
    let side = q.side;
    let royals = std::mem::take(&mut q.royals);
    q.moves.retain(|m| {
        if !royals.contains(&m.from) || m.dropped().is_some() {
            return true;
        }
        if !m.capture {
            return false;
        }
        // With the taken piece gone and the royal piece still at home, no check is left.
        let victim = m.victim_square();
        let (cell, entity) = board.take(victim);
        let checked = royal_attacked(rules, fns, state, board, &royals, side);
        board.put(victim, cell.kind(), cell.side(), entity.unwrap_or(Entity::PLACEHOLDER));
        !checked
    });
    q.royals = royals;
}

/// Step 3 (default, first), in Duck chess: each move comes with every square the duck may go
/// to, that is every square empty once the piece has moved other than the duck's own (before
/// the self-check filter, which judges each move with its duck).
pub fn place_duck(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, promoted, .. } = p.view();
    if !rules.switches.duck {
        return;
    }
    let q = &mut *query;
    let side = q.side;
    let base = |e: Entity| promoted.get(e).ok().and_then(|p| p.0);
    let mut ops = std::mem::take(&mut q.scratch_ops);
    let moves = std::mem::take(&mut q.moves);
    for m in moves {
        let mut w = TrialWriter::new(board, std::mem::take(&mut ops), &base);
        let mut st = *state;
        make(&mut w, rules, fns, &mut st, m, side);
        let after = w.board();
        for (i, c) in after.cells.iter().enumerate() {
            if c.is_empty() {
                q.moves.push(Move { wall: Some(Square(i as u8)), ..m });
            }
        }
        ops = w.undo();
    }
    q.scratch_ops = ops;
}

/// Step 4 (default, first), in variants where giving check is illegal (Racing Kings): drops
/// every move after which an enemy royal piece is in check.
pub fn forbid_checks(p: &mut QueryParts) {
    let QueryView { query, board, rules, fns, state, promoted, .. } = p.view();
    if !rules.switches.checks_forbidden {
        return;
    }
    let enemy = query.side.opponent();
    let base = |e: Entity| promoted.get(e).ok().and_then(|p| p.0);
    retain_after(query, board, rules, fns, state, &base, |_, after, st| {
        !royal_attacked(rules, fns, st, after, &fns.royals(rules, &after.cells, enemy), enemy)
    });
}
