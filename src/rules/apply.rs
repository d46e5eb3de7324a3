//! Move application: a schedule run on demand whose chained sets are the eleven steps of the
//! reference's "move application" sequence, the default systems that give FIDE chess, the
//! one writer through which pieces move, and the undo log that reverses it exactly.

use bevy::ecs::schedule::ScheduleLabel;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::board::Board;
use super::end::{self, EndView, Moment};
use super::geometry::{Side, Square};
use super::layers::RuleFns;
use super::moves::Move;
use super::piece::{Location, Owner, Piece, PieceType, Promoted};
use super::position::{Making, PositionWriter, Victim, blast, mutate, remove_victim};
use super::query::{MoveQuery, QueryParts};
use super::state::{DecidedOutcome, GameState, decide};
use super::undo::{Change, PieceEvent, UndoEntry, UndoLog, piece_facts, place, revert_changes, set_component, unplace};
use super::variant::Rules;

/// The move-application schedule. The caller fills [`PendingMove`] and runs it.
#[derive(ScheduleLabel, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveApplication;

/// The steps of move application, chained in this order (`preset-api.md`, "Hook firing
/// order", move application). Every step after [`ApplySystems::BeforeMove`] runs only if no
/// hook cancelled the move; [`ApplySystems::TurnStart`] only if the turn flipped.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ApplySystems {
    /// Step 1, on-before-move: scoped by mover; a hook may cancel with a reason
    /// ([`PendingMove::cancel`]). Nothing has changed yet when it runs.
    BeforeMove,
    /// Step 2, on-before-capture: scoped by mover; runs for captures. The first hook to
    /// consume ([`PendingMove::consume_capture`]) owns the capture, including whether the
    /// attacker moves.
    BeforeCapture,
    /// Step 3, on-damage: an unconsumed capture deals capture damage to the victim; damage
    /// hooks are scoped by target colour and the first consumer wins; with none, the victim dies.
    Damage,
    /// Step 4, the move's mutations: position, promotion, en passant, castling, rights, clocks.
    Mutate,
    /// Step 5, half-moves-this-turn += 1, before the flip is polled.
    CountHalfMove,
    /// Step 6, should-advance-turn: the first hook answering "no" vetoes the flip
    /// ([`PendingMove::veto_turn_advance`]); otherwise the turn flips, half-moves-this-turn
    /// resets and the full-move number grows after black.
    AdvanceTurn,
    /// Step 7, duration tick: timed presets count down and expire (on-deactivate).
    DurationTick,
    /// Step 8, on-after-move: unscoped, every active preset.
    AfterMove,
    /// Step 9, on-turn-start: scoped by the new side to move; skipped when the flip was vetoed.
    TurnStart,
    /// Step 10, on-check-game-result: the first hook to decide ([`decide`] on [`DecidedOutcome`]) wins;
    /// otherwise the default rules decide when [`Engine::outcome`](super::Engine::outcome) asks.
    GameResult,
    /// Step 11, describe-move-effect: hooks add annotations; the move record is written.
    Describe,
}

impl ApplySystems {
    /// Every step, in order.
    pub const ALL: [ApplySystems; 11] = [
        ApplySystems::BeforeMove,
        ApplySystems::BeforeCapture,
        ApplySystems::Damage,
        ApplySystems::Mutate,
        ApplySystems::CountHalfMove,
        ApplySystems::AdvanceTurn,
        ApplySystems::DurationTick,
        ApplySystems::AfterMove,
        ApplySystems::TurnStart,
        ApplySystems::GameResult,
        ApplySystems::Describe,
    ];
}

/// The move being applied and what the steps decided about it.
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingMove {
    /// The move.
    pub mv: Option<Move>,
    /// The side making it.
    pub mover: Side,
    /// The moving piece.
    pub piece: Option<Entity>,
    /// Its type before the move.
    pub piece_type: Option<PieceType>,
    /// The piece it captures, if any.
    pub victim: Option<Victim>,
    /// Set by a before-move hook: `(preset, reason)`.
    pub cancelled: Option<(&'static str, String)>,
    /// Set with a cancellation that makes the move illegal (a chain of events past its limit):
    /// the legal-move query, trying the move, leaves it out.
    pub unlisted: bool,
    /// The hook that consumed the capture.
    pub capture_consumed_by: Option<&'static str>,
    /// Whether the victim died of the capture damage.
    pub victim_died: bool,
    /// Whether the victim survived the capture damage (a damage hook absorbed it).
    pub victim_survived: bool,
    /// The hook that vetoed the turn flip.
    pub advance_vetoed_by: Option<&'static str>,
    /// Whether the turn flipped.
    pub turn_advanced: bool,
    /// Set by a hook that changed the active presets (an expiry): the pipelines are rebuilt
    /// once the move is applied (a schedule cannot be rebuilt while it runs).
    pub rebuild_pipelines: bool,
    /// Annotations from describe-move-effect hooks.
    pub effects: Vec<String>,
    /// Which sides had royal pieces before the move (noted only where a royal piece may be
    /// lost in play).
    pub royals_before: [bool; 2],
}

impl PendingMove {
    /// The move (always set while the schedule runs).
    pub fn mv(&self) -> Move {
        self.mv.expect("PendingMove::mv is set before the application schedule runs")
    }

    /// Step 1: cancels the move on behalf of `preset`. The first cancellation stands.
    pub fn cancel(&mut self, preset: &'static str, reason: impl Into<String>) {
        if self.cancelled.is_none() {
            self.cancelled = Some((preset, reason.into()));
        }
    }

    /// Step 2: `preset` takes over the capture; returns false if another hook already did.
    pub fn consume_capture(&mut self, preset: &'static str) -> bool {
        if self.capture_consumed_by.is_some() {
            return false;
        }
        self.capture_consumed_by = Some(preset);
        true
    }

    /// Step 6: `preset` vetoes the turn flip; the first veto stands.
    pub fn veto_turn_advance(&mut self, preset: &'static str) {
        if self.advance_vetoed_by.is_none() {
            self.advance_vetoed_by = Some(preset);
        }
    }
}

/// One applied move, for the move list, PGN and replays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// The move.
    pub mv: Move,
    /// Who made it.
    pub mover: Side,
    /// The moving piece's type.
    pub piece: PieceType,
    /// The captured piece's type.
    pub captured: Option<PieceType>,
    /// Standard algebraic notation, when the move was played through the checked path.
    pub san: Option<String>,
    /// Preset annotations (describe-move-effect).
    pub effects: Vec<String>,
}

/// The moves played so far.
#[derive(Resource, Clone, Debug, Default)]
pub struct MoveLog(pub Vec<MoveRecord>);

/// Position hashes since the start, one per position (the first is the start position); the
/// last is the hash of the current position ([`position_hash`]).
#[derive(Resource, Clone, Debug, Default)]
pub struct History(pub Vec<u64>);

/// A hasher of facts beyond the square index and the game-level facts: piece facts owned by
/// presets, per-preset state, the active presets. Registered by the presets module.
pub type ExtraHasher = fn(&mut World) -> u64;

/// The extra hashers of the active presets ([`ExtraHasher`]); none without presets.
#[derive(Resource, Clone, Debug, Default)]
pub struct HashExtras(pub Vec<ExtraHasher>);

/// The full hash of the position in `world` as it stands: pieces on the board and in hand,
/// game-level facts but the clocks, and every extra fact the active presets register.
pub fn position_hash(world: &mut World) -> u64 {
    let mut h = world.resource::<Board>().hash ^ world.resource::<GameState>().hash();
    let extras = world.get_resource::<HashExtras>().map(|x| x.0.clone()).unwrap_or_default();
    for f in extras {
        h ^= f(world);
    }
    h
}

/// Step 11 (default, last), when presets register extra facts: the hash just recorded is
/// replaced by the full one.
pub fn record_full_hash(world: &mut World) {
    let h = position_hash(world);
    if let Some(last) = world.resource_mut::<History>().0.last_mut() {
        *last = h;
    }
}

/// The one way rules code changes pieces: it keeps the components, the square index and
/// hands, the hash and the undo log in step.
#[derive(SystemParam)]
pub struct BoardWriter<'w, 's> {
    board: ResMut<'w, Board>,
    undo: ResMut<'w, UndoLog>,
    pieces: Query<'w, 's, (&'static mut Location, &'static mut PieceType, &'static mut Owner, &'static mut Promoted), With<Piece>>,
}

impl BoardWriter<'_, '_> {
    /// The square index.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Moves a piece to `to` (a square, the hand, or off the board). A square must be empty.
    pub fn relocate(&mut self, entity: Entity, to: Location) {
        let Ok((mut loc, kind, owner, _)) = self.pieces.get_mut(entity) else { return };
        let from = *loc;
        if let (Location::Board(square), false) = (from, matches!(to, Location::Board(_))) {
            self.undo.retracted.push(PieceEvent { entity, square, kind: *kind, side: owner.0, depth: 0 });
        }
        unplace(&mut self.board, from, *kind, owner.0, entity);
        place(&mut self.board, to, *kind, owner.0, entity);
        *loc = to;
        self.undo.changes.push(Change::Relocated { entity, from });
    }

    /// Moves the duck (a wall of no side) from `from` (`None`: off the board) to `to`.
    pub fn move_wall(&mut self, from: Option<Square>, to: Square) {
        if let Some(from) = from {
            self.board.set_wall(from, false);
        }
        self.board.set_wall(to, true);
        self.undo.changes.push(Change::Walled { from, to });
    }

    /// Changes a piece's type (promotion, demotion).
    pub fn retype(&mut self, entity: Entity, kind: PieceType) {
        let Ok((loc, mut k, owner, _)) = self.pieces.get_mut(entity) else { return };
        let from = *k;
        unplace(&mut self.board, *loc, from, owner.0, entity);
        place(&mut self.board, *loc, kind, owner.0, entity);
        *k = kind;
        self.undo.changes.push(Change::Retyped { entity, from });
    }

    /// Changes a piece's owner (a captured piece going to the captor's hand).
    pub fn reown(&mut self, entity: Entity, side: Side) {
        let Ok((loc, kind, mut owner, _)) = self.pieces.get_mut(entity) else { return };
        let from = owner.0;
        unplace(&mut self.board, *loc, *kind, from, entity);
        place(&mut self.board, *loc, *kind, side, entity);
        owner.0 = side;
        self.undo.changes.push(Change::Reowned { entity, from });
    }

    /// Records what a piece was promoted from (or that it is not promoted).
    pub fn set_promoted(&mut self, entity: Entity, from_type: Option<PieceType>) {
        let Ok((_, _, _, mut promoted)) = self.pieces.get_mut(entity) else { return };
        let from = promoted.0;
        promoted.0 = from_type;
        self.undo.changes.push(Change::Promoted { entity, from });
    }

    /// What a piece was promoted from.
    pub fn promoted_from(&self, entity: Entity) -> Option<PieceType> {
        self.pieces.get(entity).ok().and_then(|(_, _, _, p)| p.0)
    }
}

impl PositionWriter for BoardWriter<'_, '_> {
    fn board(&self) -> &Board {
        &self.board
    }

    fn move_to(&mut self, entity: Entity, _from: Location, to: Location) {
        self.relocate(entity, to);
    }

    fn change_type(&mut self, entity: Entity, _at: Location, kind: PieceType) {
        self.retype(entity, kind);
    }

    fn change_owner(&mut self, entity: Entity, _at: Location, side: Side) {
        self.reown(entity, side);
    }

    fn mark_promoted(&mut self, entity: Entity, from: Option<PieceType>) {
        self.set_promoted(entity, from);
    }

    fn promoted_base(&self, entity: Entity) -> Option<PieceType> {
        self.promoted_from(entity)
    }

    fn move_wall(&mut self, from: Option<Square>, to: Square) {
        BoardWriter::move_wall(self, from, to);
    }
}

/// The kernel's writer for exclusive systems: each change runs [`BoardWriter`] on the world,
/// so that application code may deal damage (which runs a schedule) between changes.
pub struct WorldWriter<'w>(pub &'w mut World);

impl WorldWriter<'_> {
    fn write<F: FnOnce(&mut BoardWriter) + Send + Sync + 'static>(&mut self, change: F) {
        let _ = self.0.run_system_cached_with(|In(change): In<F>, mut w: BoardWriter| change(&mut w), change);
    }
}

impl PositionWriter for WorldWriter<'_> {
    fn board(&self) -> &Board {
        self.0.resource::<Board>()
    }

    fn move_to(&mut self, entity: Entity, _from: Location, to: Location) {
        self.write(move |w| w.relocate(entity, to));
    }

    fn change_type(&mut self, entity: Entity, _at: Location, kind: PieceType) {
        self.write(move |w| w.retype(entity, kind));
    }

    fn change_owner(&mut self, entity: Entity, _at: Location, side: Side) {
        self.write(move |w| w.reown(entity, side));
    }

    fn mark_promoted(&mut self, entity: Entity, from: Option<PieceType>) {
        self.write(move |w| w.set_promoted(entity, from));
    }

    fn promoted_base(&self, entity: Entity) -> Option<PieceType> {
        self.0.get::<Promoted>(entity).and_then(|p| p.0)
    }

    fn move_wall(&mut self, from: Option<Square>, to: Square) {
        self.write(move |w| w.move_wall(from, to));
    }
}

/// Marks a trial application ([`trial_application`](super::trial_application)): effects are
/// not written, and the duration and game-result steps do not run (a trial asks about the
/// position, not the game).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trial(pub bool);

/// Run condition: not inside a trial application.
pub fn not_in_trial(trial: Option<Res<Trial>>) -> bool {
    !trial.is_some_and(|t| t.0)
}

/// What move application's default systems read and write. The pipeline fuses each run of
/// default systems that no hook separates into one Bevy system over these parts, so the
/// resources are fetched once per run rather than once per default ([`ApplyPart`]).
#[derive(SystemParam)]
pub struct ApplyParts<'w, 's> {
    pending: ResMut<'w, PendingMove>,
    state: ResMut<'w, GameState>,
    rules: Res<'w, Rules>,
    fns: Res<'w, RuleFns>,
    decided: ResMut<'w, DecidedOutcome>,
    log: ResMut<'w, MoveLog>,
    history: ResMut<'w, History>,
    writer: BoardWriter<'w, 's>,
}

/// [`ApplyParts`] as plain references, for one default system to take apart.
pub struct ApplyView<'a, 'w, 's> {
    /// The move being applied.
    pub pending: &'a mut PendingMove,
    /// Game-level facts.
    pub state: &'a mut GameState,
    /// The variant.
    pub rules: &'a Rules,
    /// Movement layers and royalty rules.
    pub fns: &'a RuleFns,
    /// The decided outcome.
    pub decided: &'a mut DecidedOutcome,
    /// The move log.
    pub log: &'a mut MoveLog,
    /// Position hashes of the game so far.
    pub history: &'a mut History,
    /// The one writer of pieces (square index, undo log).
    pub writer: &'a mut BoardWriter<'w, 's>,
}

impl<'w, 's> ApplyParts<'w, 's> {
    /// The parts as plain references.
    pub fn view(&mut self) -> ApplyView<'_, 'w, 's> {
        ApplyView {
            pending: &mut self.pending,
            state: &mut self.state,
            rules: &self.rules,
            fns: &self.fns,
            decided: &mut self.decided,
            log: &mut self.log,
            history: &mut self.history,
            writer: &mut self.writer,
        }
    }

    /// Whether a default of `step` runs now: the gates the schedule puts on the step's set
    /// (not cancelled after step 1, the turn flipped for turn start, outside a trial for the
    /// duration and game-result steps when `trial` says it is one), for a fused run of defaults
    /// that spans several steps.
    pub fn gate_open(&self, step: ApplySystems, trial: bool) -> bool {
        let p = &*self.pending;
        match step {
            ApplySystems::BeforeMove => true,
            _ if p.cancelled.is_some() => false,
            ApplySystems::TurnStart => p.turn_advanced,
            ApplySystems::DurationTick | ApplySystems::GameResult => !trial,
            _ => true,
        }
    }
}

/// One default system of move application, as a function over the shared parts.
pub type ApplyPart = fn(&mut ApplyParts);

/// Step 1 (first): fills the pending move from the board and opens its undo entry.
pub fn prepare_move(parts: &mut ApplyParts) {
    let ApplyView { pending, state, decided, writer, .. } = parts.view();
    let (board, undo) = (&*writer.board, &mut *writer.undo);
    let p = pending;
    let made = Making::of(board, p.mv(), state.turn);
    p.mover = state.turn;
    p.piece = made.piece;
    p.piece_type = made.kind;
    p.victim = made.victim;
    let changes_start = undo.changes.len();
    undo.retracted.clear();
    undo.entries.push(UndoEntry { state: *state, decided: decided.0.clone(), changes_start });
    state.default_end_suppressed = false;
}

/// Step 3 (default, when damage hooks are active): an unconsumed capture deals one point of
/// capture damage to its victim through the damage pipeline.
pub fn damage_the_victim(world: &mut World) {
    let p = world.resource::<PendingMove>();
    let (Some(v), None) = (p.victim, p.capture_consumed_by) else { return };
    let (victim_side, attacker) = (p.mover.opponent(), p.piece);
    let died = super::damage::deal_damage(world, v.entity, victim_side, 1, super::damage::DamageKind::Capture, attacker);
    let mut p = world.resource_mut::<PendingMove>();
    p.victim_survived = !died;
}

/// Step 3 (default, last): an unconsumed capture whose victim died (without damage hooks,
/// always) takes it off the board, or into the captor's hand (as what it was promoted from)
/// in variants with drops.
pub fn resolve_capture(parts: &mut ApplyParts) {
    let ApplyView { pending: p, rules, writer, .. } = parts.view();
    if p.victim_survived {
        return;
    }
    if let (Some(v), None) = (p.victim, p.capture_consumed_by) {
        remove_victim(writer, rules, v, p.mover);
        p.victim_died = true;
    }
}

/// Step 4 (default): the kernel's mutations — the piece moves, castles, promotes, and castling
/// rights, the en-passant square and the half-move clock follow.
pub fn mutate_position(parts: &mut ApplyParts) {
    let ApplyView { pending, state, rules, fns, writer, .. } = parts.view();
    let made = Making { mv: pending.mv(), mover: pending.mover, piece: pending.piece, kind: pending.piece_type, victim: pending.victim };
    mutate(writer, rules, fns, state, &made);
}

/// Step 4 (default, after the move), in variants with exploding captures: the capture square
/// and every non-immune piece next to it take explosion damage through the damage pipeline,
/// and the pieces that die leave the board (with their castling rights).
pub fn explode(world: &mut World) {
    let rules = world.resource::<Rules>().0.clone();
    let p = world.resource::<PendingMove>();
    if rules.blast.is_none() || p.victim.is_none() || p.capture_consumed_by.is_some() {
        return;
    }
    let (at, mover, attacker) = (p.mv().blast_square(), p.mover, p.piece);
    super::effects::emit_effect(world, super::effects::Effect::new(super::effects::EffectKind::Explosion, at, "rules").side(mover));
    let mut state = *world.resource::<GameState>();
    // Without damage hooks every piece hit dies: the kernel's blast alone, as trials make it.
    let absorbers = world.resource::<Schedules>().contains(super::damage::DamagePipeline);
    blast(&mut WorldWriter(world), &rules, &mut state, at, |w, e, side| {
        !absorbers || super::damage::deal_damage(w.0, e, side, 1, super::damage::DamageKind::Explosion, attacker)
    });
    *world.resource_mut::<GameState>() = state;
}

/// Whether the move `mover` just made leaves a royal piece of the other side attacked, with
/// those royal pieces' squares.
fn gave_check(
    rules: &super::variant::Variant,
    fns: &super::layers::RuleFns,
    state: &GameState,
    board: &Board,
    mover: Side,
) -> (bool, Vec<Square>) {
    let victim = mover.opponent();
    let royals = fns.royals(rules, &board.cells, victim);
    (super::query::royal_attacked(rules, fns, state, board, &royals, victim), royals)
}

/// Step 4 (default, after the hooks), in n-check variants: a move that leaves an enemy royal
/// piece attacked counts as a check given.
pub fn count_checks(parts: &mut ApplyParts) {
    let ApplyView { pending, state, rules, fns, writer, .. } = parts.view();
    if rules.check_limit().is_none() {
        return;
    }
    let mover = pending.mover;
    if gave_check(rules, fns, state, writer.board(), mover).0 {
        state.checks[mover.index()] = state.checks[mover.index()].saturating_add(1);
    }
}

/// Step 4 (default, after the hooks), under Shatar's mate rule: keeps the mover's series of
/// checking moves, and whether one of them was a shak (a check by one of the rule's types).
pub fn track_shak_series(parts: &mut ApplyParts) {
    let ApplyView { pending, state, rules, fns, writer, .. } = parts.view();
    let Some(shak) = rules.shak_types() else { return };
    let board = writer.board();
    let mover = pending.mover;
    let (check, royals) = gave_check(rules, fns, state, board, mover);
    let series = &mut state.shak_series[mover.index()];
    *series = check && (*series || end::checker_types(rules, &board.cells, &royals, mover) & shak != 0);
}

/// Step 4 (default, after the hooks), where perpetual check loses: the mover's checking moves
/// in a row.
pub fn track_check_streak(parts: &mut ApplyParts) {
    let ApplyView { pending, state, rules, fns, writer, .. } = parts.view();
    let mover = pending.mover;
    let check = gave_check(rules, fns, state, writer.board(), mover).0;
    let streak = &mut state.check_streak[mover.index()];
    *streak = if check { streak.saturating_add(1) } else { 0 };
}

/// Step 5: one more half-move in this turn.
pub fn count_half_move(parts: &mut ApplyParts) {
    let state = &mut *parts.state;
    state.half_moves_this_turn = state.half_moves_this_turn.saturating_add(1);
}

/// Step 6 (default, after the hooks): flips the turn unless vetoed.
pub fn advance_turn(parts: &mut ApplyParts) {
    let ApplyView { pending, state, .. } = parts.view();
    if pending.advance_vetoed_by.is_some() {
        return;
    }
    if state.turn == Side::Black {
        state.fullmove = state.fullmove.saturating_add(1);
    }
    state.turn = state.turn.opponent();
    state.half_moves_this_turn = 0;
    pending.turn_advanced = true;
}

/// Step 11 (default, after the hooks): writes the move record and the position hash (after
/// dropping castling rights the board no longer backs).
pub fn record_move(parts: &mut ApplyParts) {
    let ApplyView { pending: p, state, log, history, writer, rules, .. } = parts.view();
    let board = writer.board();
    super::position::prune_castling(rules, board, state);
    log.0.push(MoveRecord {
        mv: p.mv(),
        mover: p.mover,
        piece: p.piece_type.unwrap_or(PieceType(0)),
        captured: p.victim.map(|v| v.kind),
        san: None,
        effects: std::mem::take(&mut p.effects),
    });
    history.0.push(board.hash ^ state.hash());
}

/// Step 10 (default, after the hooks): the variant's immediate end conditions — a piece
/// reaching its region, a bared king, the n-th check… (see `end.rs`).
pub fn decide_variant_results(parts: &mut ApplyParts) {
    let ApplyView { pending, state, rules, fns, decided, writer, .. } = parts.view();
    if decided.0.is_some() {
        return;
    }
    let at = EndView { variant: rules, fns, board: writer.board(), state };
    if let Some(result) = end::decided(&at, Moment::Moved(pending.mover)) {
        decide(decided, result);
    }
}

/// Step 1 (default, after preparing), where a royal piece may leave the board in play: notes
/// which sides have royal pieces before the move.
pub fn note_royals(parts: &mut ApplyParts) {
    let ApplyView { pending, rules, fns, writer, .. } = parts.view();
    let board = writer.board();
    pending.royals_before = Side::BOTH.map(|s| !fns.royals(rules, &board.cells, s).is_empty());
}

/// Step 10 (default, last), where a royal piece may leave the board in play (damage,
/// explosions, hit points): a side that had royal pieces before the move and has none after
/// it loses at once (both sides: a draw), unless a game-result hook decided first.
pub fn decide_royal_loss(parts: &mut ApplyParts) {
    let ApplyView { pending, rules, fns, decided, writer, .. } = parts.view();
    let board = writer.board();
    if decided.0.is_some() {
        return;
    }
    let lost = Side::BOTH.map(|s| pending.royals_before[s.index()] && fns.royals(rules, &board.cells, s).is_empty());
    if let Some(result) = end::royal_loss(rules, lost) {
        decide(decided, result);
    }
}

/// Step 10 (default, last), for Racing Kings' reply rule: when white has just reached the
/// goal and black cannot reach it with any legal move, white wins now.
pub fn decide_flag_reply(world: &mut World) {
    let rules = world.resource::<Rules>().0.clone();
    let mover = world.resource::<PendingMove>().mover;
    if world.resource::<DecidedOutcome>().0.is_some() || !end::reply_pending(&rules, world.resource::<Board>(), mover) {
        return;
    }
    let cells = world.resource::<Board>().cells.clone();
    super::schedules::run_pipeline(world, super::schedules::Pipeline::Query);
    if let Some(result) = end::reply_denied(&rules, &cells, &world.resource::<super::query::MoveQuery>().moves) {
        decide(&mut world.resource_mut::<DecidedOutcome>(), result);
    }
}

/// Run condition: the pending move was not cancelled.
pub fn move_not_cancelled(pending: Res<PendingMove>) -> bool {
    pending.cancelled.is_none()
}

/// Run condition: the turn flipped.
pub fn turn_advanced(pending: Res<PendingMove>) -> bool {
    pending.turn_advanced
}

/// Reverts the last applied move exactly: every piece change, the game facts, the decided
/// outcome, the move log and the history. Returns the move, or `None` at the start.
pub fn undo_last(world: &mut World) -> Option<Move> {
    let (entry, changes) = world.resource_mut::<UndoLog>().pop_move()?;
    revert_changes(world, &changes);
    world.resource_mut::<UndoLog>().give_back(changes);
    *world.resource_mut::<GameState>() = entry.state;
    world.resource_mut::<DecidedOutcome>().0 = entry.decided;
    world.resource_mut::<History>().0.pop();
    world.resource_mut::<MoveLog>().0.pop().map(|r| r.mv)
}

/// Takes a piece off the board for good, from an exclusive system or a service (explosions,
/// destroyed attackers), recording the change for undo.
pub fn retract_piece(world: &mut World, entity: Entity) {
    let Some(loc) = world.get::<Location>(entity).copied() else { return };
    if loc == Location::Captured {
        return;
    }
    let (kind, owner, _) = piece_facts(world, entity);
    unplace(&mut world.resource_mut::<Board>(), loc, kind, owner, entity);
    set_component(world, entity, Location::Captured);
    let mut undo = world.resource_mut::<UndoLog>();
    undo.changes.push(Change::Relocated { entity, from: loc });
    if let Location::Board(square) = loc {
        undo.retracted.push(PieceEvent { entity, square, kind, side: owner, depth: 0 });
    }
}

/// What a trial application found.
pub enum Trialled<T> {
    /// The move was made: the judge's verdict on the position it left.
    Judged(T),
    /// A hook cancelled it, or the application schedule is already running (a query asked
    /// from inside a move): the caller judges by the kernel alone.
    Unjudged,
    /// A hook refused it as illegal ([`PendingMove::unlisted`]), for this reason.
    Refused(String),
}

/// Plays `m` through the full move application as a trial — every preset hook that changes
/// what the move does runs, nothing reaches the game (no effects; the game-result and duration
/// steps are skipped) — calls `judge` on the position it leaves, and takes the move back
/// exactly (the pending move of an application in progress included).
pub fn trial_application<T>(world: &mut World, m: Move, judge: impl FnOnce(&mut World) -> T) -> Trialled<T> {
    let saved = world.resource::<PendingMove>().clone();
    let effects = world.remove_resource::<Messages<super::effects::Effect>>();
    let was = world.get_resource::<Trial>().copied().unwrap_or_default();
    world.insert_resource(Trial(true));
    *world.resource_mut::<PendingMove>() = PendingMove { mv: Some(m), ..Default::default() };
    let verdict = match super::schedules::run_pipeline(world, super::schedules::Pipeline::Apply) {
        false => Trialled::Unjudged,
        true if world.resource::<PendingMove>().cancelled.is_some() => {
            let p = world.resource::<PendingMove>();
            let refused = p.unlisted.then(|| p.cancelled.as_ref().map(|(_, why)| why.clone()).unwrap_or_default());
            take_back_cancelled(world);
            refused.map_or(Trialled::Unjudged, Trialled::Refused)
        }
        true => {
            let v = judge(world);
            undo_last(world);
            Trialled::Judged(v)
        }
    };
    world.insert_resource(was);
    if let Some(effects) = effects {
        world.insert_resource(effects);
    }
    *world.resource_mut::<PendingMove>() = saved;
    verdict
}

/// Reverts what a cancelled move's before-move step recorded (its undo entry and changes).
pub(crate) fn take_back_cancelled(world: &mut World) {
    let popped = world.resource_mut::<UndoLog>().pop_move();
    if let Some((entry, changes)) = popped {
        revert_changes(world, &changes);
        world.resource_mut::<UndoLog>().give_back(changes);
        *world.resource_mut::<GameState>() = entry.state;
        world.resource_mut::<DecidedOutcome>().0 = entry.decided;
    }
}

/// Which moves the self-check filter judges by a full trial application, when preset hooks
/// change what moves do: every move when hooks change the position during or after the
/// mutations, otherwise captures only (capture consumers, damage absorbers).
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AppliedTrials {
    /// Every move, not only captures.
    pub every_move: bool,
}

/// Step 3, when preset hooks change what moves do: the moves those hooks may change are judged
/// on the position a full trial application leaves ([`trial_application`]); the rest by the
/// kernel ([`filter_self_check`]). Falls back to the kernel inside a move or for a move a hook
/// cancels.
pub fn filter_self_check_applied(world: &mut World) {
    let q = world.resource::<MoveQuery>();
    if !q.filter_self_check || q.royals.is_empty() {
        return;
    }
    let side = q.side;
    let royal_pieces: Vec<Entity> = q.royals.iter().filter_map(|&r| world.resource::<Board>().entity(r)).collect();
    let every = world.get_resource::<AppliedTrials>().is_some_and(|t| t.every_move);
    let enemy_royal = {
        let (rules, fns) = (&world.resource::<Rules>().0, world.resource::<RuleFns>());
        rules.blast.is_some() && fns.any_royal(rules, &world.resource::<Board>().cells, side.opponent())
    };
    let all = std::mem::take(&mut world.resource_mut::<MoveQuery>().moves);
    let needs = |m: &Move| every || m.capture;
    // The kernel judges all of them; the applied trials overrule it for the moves they concern.
    world.resource_mut::<MoveQuery>().moves = all.clone();
    let _ = world.run_system_cached(|mut p: QueryParts| super::query::filter_self_check(&mut p));
    let by_kernel = std::mem::take(&mut world.resource_mut::<MoveQuery>().moves);
    let mut kept = Vec::with_capacity(all.len());
    for m in all {
        let kernel_says = by_kernel.contains(&m);
        let safe = if needs(&m) {
            let verdict = trial_application(world, m, |w| {
                let rules = w.resource::<Rules>().0.clone();
                let fns = w.resource::<RuleFns>().clone();
                let state = *w.resource::<GameState>();
                let lost = royal_pieces.iter().any(|&e| w.get::<super::piece::Location>(e).and_then(|l| l.square()).is_none());
                super::query::safe_after(&rules, &fns, &state, w.resource::<Board>(), side, lost, enemy_royal, &mut Vec::new())
            });
            match verdict {
                Trialled::Judged(safe) => safe,
                Trialled::Unjudged => kernel_says,
                Trialled::Refused(why) => {
                    world.resource_mut::<MoveQuery>().refused.push((m, why));
                    false
                }
            }
        } else {
            kernel_says
        };
        if safe {
            kept.push(m);
        }
    }
    world.resource_mut::<MoveQuery>().moves = kept;
}
