//! The rules installed in a world, the operations on it, and the headless [`Engine`] facade
//! for tests, tools and the AI.

use std::sync::Arc;

use bevy::prelude::*;

use super::apply::{History, MoveLog, PendingMove, Trial, take_back_cancelled, undo_last};
use super::board::Board;
use super::end::{self, EndView, Moment, Replies};
use super::fen::{FenCode, FenError, FenField, Setup, parse_fen, write_castling, write_en_passant, write_placement, write_pocket};
use super::geometry::{Side, Square};
use super::layers::RuleFns;
use super::moves::{Move, MoveKind};
use super::notation::{MoveError, parse_san, parse_uci, san_body, to_uci};
use super::outcome::Outcome;
use super::piece::{Location, Owner, Piece, PieceType, Promoted, piece_bundle};
use super::pipeline::{Hook, Hooks, Step, rebuild_pipelines};
use super::query::{MoveQuery, QuerySystems};
use super::schedules::{Pipeline, run_pipeline};
use super::state::{DecidedOutcome, GameState};
use super::undo::UndoLog;
use super::variant::{EndCondition, Rules, Variant};

/// Installs `variant`'s rules in `world` (resources and both pipelines) and sets up its start
/// position.
///
/// # Errors
/// The variant's start FEN does not read.
pub fn install_rules(world: &mut World, variant: Arc<Variant>) -> Result<(), FenError> {
    let setup = parse_fen(&variant, &variant.start_fen)?;
    install_rules_bare(world, variant);
    setup_position(world, &setup)
}

/// Installs `variant`'s rules in `world` with an empty board: for a game whose presets must be
/// active before its position can be judged (under hit points a start may have a king
/// attacked), which then sets the position up with them.
pub fn install_rules_bare(world: &mut World, variant: Arc<Variant>) {
    world.insert_resource(Board::empty(variant.geometry));
    world.insert_resource(Rules(variant));
    world.init_resource::<GameState>();
    world.init_resource::<MoveQuery>();
    world.init_resource::<PendingMove>();
    world.init_resource::<DecidedOutcome>();
    world.init_resource::<MoveLog>();
    world.init_resource::<History>();
    world.init_resource::<UndoLog>();
    world.init_resource::<Hooks>();
    world.init_resource::<RuleFns>();
    world.init_resource::<Trial>();
    rebuild_pipelines(world);
}

/// Replaces the position in `world` with `setup`: despawns the old pieces, spawns the new,
/// and clears the move log, history and undo log.
///
/// # Errors
/// The position is impossible (a side without its king, the side not to move in check, a
/// pawn on its promotion rank, an en-passant square with nothing to take). Nothing changes then.
pub fn setup_position(world: &mut World, setup: &Setup) -> Result<(), FenError> {
    let variant = world.resource::<Rules>().0.clone();
    let g = variant.geometry;
    let reg = &variant.registry;
    let mut board = Board::empty(g);
    let mut probe = Board::empty(g);
    for &sq in &setup.walls {
        board.set_wall(sq, true);
        probe.set_wall(sq, true);
    }
    for &(sq, kind, side) in &setup.pieces {
        probe.put(sq, kind, side, Entity::PLACEHOLDER);
    }
    let bad = |code: FenCode, message: String| FenError { code, field: FenField::Position, message };
    for &(sq, kind, side) in &setup.pieces {
        let def = reg.def(kind);
        if def.promotes && variant.promotion.zone_at(g, sq, side) == Some(false) {
            let place = if variant.promotion.squares.is_some() { "a promotion square" } else { "its promotion rank" };
            return Err(bad(FenCode::PromotionRank, format!("{side} {} on {} stands on {place}", def.name, g.name(sq))));
        }
    }
    // Presets may change what is royal (royalty rules) or whether check is enforced at all (hit
    // points switch the self-check filter off); a royal piece may then be lost in play.
    let fns = world.get_resource::<RuleFns>().cloned().unwrap_or_default();
    // Where no preset or profile changes how pieces move or what happens in play, a piece may
    // stand only where the variant's own moves could have brought it.
    let ran_out = world.get_resource::<RulesRanOut>().is_some_and(|r| r.0);
    let plain = !ran_out && fns.layers.is_empty() && world.get_resource::<Hooks>().is_none_or(|h| h.0.is_empty());
    // The variant's start, read once for the judgements below.
    let start = parse_fen(&variant, &variant.start_fen).ok();
    if let Some(message) = unreachable_piece(&variant, setup, plain, start.as_ref()) {
        return Err(bad(FenCode::Unreachable, message));
    }
    let enforced = check_enforced(world, ran_out);
    if reg.royal_mask != 0 && fns.royalty.is_empty() && enforced {
        // A side keeps the royalty it has in the start position: Horde's white has no king,
        // and may not get one.
        let mates = variant
            .end
            .iter()
            .any(|e| matches!(e, EndCondition::Checkmate | EndCondition::Checkmated(_) | EndCondition::ShatarMate { .. }));
        // A royal piece reaches a hand only where the start puts pieces there to be placed
        // (Placement); a captured royal piece ends the game instead (unless presets take the
        // royalty away, as suicide chess does, or let a side that moves again take a king).
        if let Some(&(kind, side)) = setup.hand.iter().find(|&&(k, _)| reg.def(k).royal)
            && plain
            && !variant.drops.as_ref().is_some_and(|d| d.must_drop)
        {
            let name = &reg.def(kind).name;
            return Err(bad(
                FenCode::RoyalInHand,
                format!("{side} holds a {name} in hand; a royal piece cannot be held in hand in this variant"),
            ));
        }
        for side in Side::BOTH {
            // A royal piece in hand counts (Placement starts with every piece in hand).
            let royal = |k: PieceType| reg.royal_mask & (1u64 << k.0) != 0;
            let royal_at_start = start.as_ref().is_none_or(|s| {
                s.pieces.iter().any(|&(_, k, s)| s == side && royal(k)) || s.hand.iter().any(|&(k, s)| s == side && royal(k))
            });
            let has_royal = probe.find(side, reg.royal_mask).next().is_some() || setup.hand.iter().any(|&(k, s)| s == side && royal(k));
            // Where blasts destroy pieces, the side to move may have just lost its king to one,
            // and under presets either side to a capture (a berserker's follow-up, the second
            // of a double move, a side's own blast in its double move): the game is over, and
            // its final position loads (Fairy-Stockfish loads Atomic's too).
            let blasted = (variant.blast.is_some() && side == setup.turn) || !plain;
            if royal_at_start && !has_royal && mates && !blasted {
                return Err(bad(FenCode::RoyalCount, format!("{side} has no king")));
            }
            if !royal_at_start && has_royal {
                return Err(bad(FenCode::RoyalCount, format!("{side} may not have a king in this variant")));
            }
            // No more royal pieces of a type than the start gives, where nothing can add one
            // (Fairy-Stockfish's "at most one king"; Coregal's queens come by promotion too).
            let Some(start) = &start else { continue };
            for kind in reg.ids().filter(|&k| royal(k)) {
                let gained = variant.promotion.offers(kind) || reg.ids().any(|t| reg.def(t).promotes_to == Some(kind));
                let (at_start, now) = (start.count(kind, side), setup.count(kind, side));
                if plain && !gained && now > at_start.max(1) {
                    let name = &reg.def(kind).name;
                    return Err(bad(
                        FenCode::RoyalCount,
                        format!("{side} has {now} pieces of the royal type {name}; at most {}", at_start.max(1)),
                    ));
                }
            }
        }
    }
    // The side not to move may not stand in check, where check is enforced at all.
    let waiting = setup.turn.opponent();
    let probe_state = GameState { turn: setup.turn, castling: setup.castling, ..GameState::default() };
    // Generals facing each other: the side that made the last move would have exposed its own
    // (or let them face), which the flying-general rule forbids. Fairy-Stockfish loads such a
    // position; we refuse it as unreachable (the departure is listed in `presets/README.md`).
    if variant.switches.flying_general && enforced && fns.generals_facing(&variant, &probe, waiting) {
        return Err(bad(FenCode::GeneralsFace, "the generals face each other on an open file or rank".to_string()));
    }
    let attacks = super::layers::Attacks { variant: &variant, fns: &fns, state: &probe_state };
    let mid_turn = setup.counters.half_moves_this_turn > 0;
    if enforced && waiting_in_check(&variant, &fns, &probe, &probe_state, mid_turn) {
        return Err(bad(FenCode::WaitingInCheck, format!("{waiting} is in check but it is {}'s turn", setup.turn)));
    }
    // Where no move may give check (Racing Kings), no game reaches the side to move in check
    // either (chessops refuses such a set-up too), unless check is not enforced at all: under
    // hit points a move may hit a king, and the position it leaves loads (soak seed
    // 0xa2a7b1abab9b4061).
    if enforced
        && variant.switches.checks_forbidden
        && fns.royals(&variant, &probe.cells, setup.turn).iter().any(|&r| attacks.attacked(&probe, r, waiting))
    {
        return Err(bad(FenCode::Unreachable, format!("no move may give check in this variant, but {} is in check", setup.turn)));
    }
    let (mut ep_square, mut ep_victim) = (None, None);
    if let Some(written) = setup.ep_square {
        // Two squares: the empty one is passed over, the other holds the pawn. One square: the
        // pawn stands behind it (or diagonally behind, for a Berolina pawn).
        let (ep, victim) = match setup.ep_other {
            Some(other) if probe.cell(written).is_empty() => (written, Some(other)),
            Some(other) => (other, Some(written)),
            None => {
                let (f, r) = (g.file(written) as i32, g.rank(written) as i32);
                let dir = if setup.turn == Side::White { -1 } else { 1 };
                (written, [0, -1, 1].into_iter().filter_map(|dx| g.square(f + dx, r + dir)).find(|&s| probe.cell(s).is_piece()))
            }
        };
        let pawn_there = victim.is_some_and(|v| {
            let c = probe.cell(v);
            c.is_piece() && c.side() != setup.turn && reg.captures_en_passant(c.kind())
        });
        if !pawn_there || !probe.cell(ep).is_empty() {
            return Err(FenError {
                code: FenCode::EnPassant,
                field: FenField::EnPassant,
                message: format!("{} has no pawn behind it that just made a double step", g.name(ep)),
            });
        }
        if super::position::en_passant_takers(reg, g, &probe.cells, ep, setup.turn) {
            (ep_square, ep_victim) = (Some(ep), victim);
        }
    }
    let old: Vec<Entity> = world.query_filtered::<Entity, With<Piece>>().iter(world).collect();
    for e in old {
        world.despawn(e);
    }
    let mut homes = Vec::with_capacity(setup.pieces.len());
    for &(sq, kind, side) in &setup.pieces {
        let promoted = setup.promoted.iter().find(|(s, _)| *s == sq).map(|&(_, base)| base);
        let e = world.spawn(piece_bundle(kind, side, Location::Board(sq))).id();
        homes.push((e, sq));
        if promoted.is_some() {
            world.entity_mut(e).insert(Promoted(promoted));
        }
        board.put(sq, kind, side, e);
    }
    world.insert_resource(super::piece::Homes(homes));
    for &(kind, side) in &setup.hand {
        let e = world.spawn(piece_bundle(kind, side, Location::Hand)).id();
        board.put_in_hand(side, kind, e);
    }
    // Shatar: a check already on the board begins its giver's series, as Fairy-Stockfish counts
    // it (a shak then counts for a mate that follows).
    let mut shak_series = [false; 2];
    if let Some(shak) = variant.shak_types() {
        let checked = fns.royals(&variant, &probe.cells, setup.turn);
        let giver = setup.turn.opponent();
        shak_series[giver.index()] = end::checker_types(&variant, &probe.cells, &checked, giver) & shak != 0;
    }
    // Where perpetual check loses, a check already on the board is its giver's first.
    let mut check_streak = [0; 2];
    if variant.switches.perpetual_check_loses
        && fns.royals(&variant, &probe.cells, setup.turn).iter().any(|&r| attacks.attacked(&probe, r, setup.turn.opponent()))
    {
        check_streak[setup.turn.opponent().index()] = 1;
    }
    let state = GameState {
        turn: setup.turn,
        half_moves_this_turn: setup.counters.half_moves_this_turn,
        fullmove: setup.fullmove,
        halfmove_clock: setup.halfmove_clock,
        castling: setup.castling,
        ep_square,
        ep_victim,
        checks: setup.checks.unwrap_or_default(),
        facing_streak: setup.counters.facing_streak,
        pass_streak: setup.counters.pass_streak,
        gates: setup.gates,
        shak_series,
        check_streak,
        fixed_gates: setup.fixed_gates,
        default_end_suppressed: setup.counters.default_end_suppressed,
        foul_drop: setup.counters.foul_drop,
    };
    // A position may already be decided by a rule that is judged after moves (a third check
    // given, a side without pieces, a piece on its goal).
    let decided = setup.counters.decided.clone().or_else(|| {
        let at = EndView { variant: &variant, fns: &fns, board: &board, state: &state };
        // (Not once a timed preset has run out: a king lost while suicide chess was on lost
        // nothing, and a loss decided in play is written in the FEN.)
        end::decided(&at, Moment::SetUp).or_else(|| if ran_out { None } else { royal_loss_from_start(&at, plain, start.as_ref()) })
    });
    world.insert_resource(board);
    world.insert_resource(state);
    world.insert_resource(DecidedOutcome(decided));
    world.insert_resource(MoveLog::default());
    world.insert_resource(History(Vec::new()));
    let hash = super::apply::position_hash(world);
    world.resource_mut::<History>().0.push(hash);
    world.insert_resource(UndoLog::default());
    Ok(())
}

/// Set while a position is set up in a game some of whose timed presets have run out: the
/// position may hold what the rules now in force forbid (a king left attacked while hit points
/// were on), so those checks are not made.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct RulesRanOut(pub bool);

/// A piece that no game of `variant` could have put where `setup` has it, named; `plain` when
/// no preset or profile changes movement or play. Judged from the compiled moves, so it holds
/// for invented pieces as for the FIDE ones:
/// - a confined piece outside its region (a Xiangqi general outside the palace);
/// - (plain) a piece with no move at all from its square (a Shogi pawn, lance or knight on the
///   last ranks);
/// - (plain) a piece whose moves never go back, behind every rank the start gives that type
///   and side, where it cannot be dropped either (a chess pawn on its own first rank; Horde's
///   white pawns start there, so they may stand there);
/// - (plain) two pieces of a type that may not be dropped onto its own file and never leaves
///   its file (Shogi's doubled pawns).
fn unreachable_piece(variant: &Variant, setup: &Setup, plain: bool, start: Option<&Setup>) -> Option<String> {
    let g = variant.geometry;
    let reg = &variant.registry;
    let start = start.filter(|_| plain);
    for &(sq, kind, side) in &setup.pieces {
        let def = reg.def(kind);
        let at = g.name(sq);
        if def.zones.confinement.as_ref().is_some_and(|c| !c[side.index()].contains(sq)) {
            return Some(format!("{side} {} on {at} stands outside the region it is confined to", def.name));
        }
        // (A type that never moves stands where it is put: placed, promoted into, or dropped.)
        if !plain || !matches!(def.generator, super::registry::MoveGenerator::Table) || !def.legs.is_empty() || def.never_moves() {
            continue;
        }
        let table = &reg.tables[kind.0 as usize];
        let rays = table.rays(g.len(), side, sq);
        let reach = |r: &super::movement::Ray| &table.squares[r.start as usize..r.start as usize + r.len as usize];
        // (A drop may leave a piece with no move where the variant does not forbid it: a
        // Dobutsu chick on the last rank.)
        let droppable =
            |rank: u8| variant.drops.as_ref().is_some_and(|d| d.allowed(kind, rank)) && !super::query::immobile_on(variant, kind, side, sq);
        let rank = g.relative_rank(sq, side);
        if !rays.iter().any(|r| r.len > 0 || r.kind == super::movement::RayKind::AnySquare) && !droppable(rank) {
            return Some(format!("{side} {} on {at} has no move from there and cannot have got there", def.name));
        }
        // Only types the start gives this side, that nothing else makes, are judged further.
        let Some(start) = start else { continue };
        let made = variant.promotion.offers(kind) || reg.ids().any(|t| reg.def(t).promotes_to == Some(kind));
        let first = start.pieces.iter().filter(|p| p.1 == kind && p.2 == side).map(|p| g.relative_rank(p.0, side)).min();
        let Some(first) = first.filter(|_| !made) else { continue };
        if rank < first && !droppable(rank) {
            let forward_only = g.squares().all(|from| {
                let r0 = g.relative_rank(from, side);
                table
                    .rays(g.len(), side, from)
                    .iter()
                    .all(|r| r.kind != super::movement::RayKind::AnySquare && reach(r).iter().all(|&to| g.relative_rank(to, side) >= r0))
            });
            if forward_only {
                return Some(format!("{side} {} on {at} stands behind where its kind can ever be", def.name));
            }
        }
        let limit = variant.drops.as_ref().filter(|d| d.no_doubled & (1u64 << kind.0) != 0).map(|d| usize::from(d.no_doubled_count));
        if let Some(limit) = limit
            && !setup.promoted.iter().any(|&(s, _)| s == sq)
        {
            let others = setup.pieces.iter().filter(|&&(s, k, sd)| {
                s != sq && k == kind && sd == side && g.file(s) == g.file(sq) && !setup.promoted.iter().any(|&(p, _)| p == s)
            });
            // More on the file than drops could have put there (Shogi: two pawns).
            let twin = others.count() >= limit.max(1);
            let keeps_file = g.squares().all(|from| {
                table
                    .rays(g.len(), side, from)
                    .iter()
                    .all(|r| r.kind != super::movement::RayKind::AnySquare && reach(r).iter().all(|&to| g.file(to) == g.file(from)))
            });
            if twin && keeps_file {
                let file = at.chars().next().unwrap_or('?');
                let how_many = if limit <= 1 { "two".to_string() } else { format!("more than {limit}") };
                return Some(format!("{side} has {how_many} {}s on the {file} file", def.name));
            }
        }
    }
    None
}

/// Whether check is enforced in `world`: not once a timed preset has run out (`ran_out`, see
/// [`setup_position`]), nor where a preset switches the self-check filter off (hit points).
fn check_enforced(world: &World, ran_out: bool) -> bool {
    !ran_out && !world.get_resource::<Hooks>().is_some_and(|h| h.0.iter().any(|h| h.step == Step::Query(QuerySystems::SelfCheckPoll)))
}

/// Whether the side not to move (`state.turn`'s opponent) stands in check on `board`, which
/// no game reaches, with the leniencies of [`setup_position`].
fn waiting_in_check(variant: &Variant, fns: &RuleFns, board: &Board, state: &GameState, mid_turn: bool) -> bool {
    let waiting = state.turn.opponent();
    let attacks = super::layers::Attacks { variant, fns, state };
    let touching = |r: Square| variant.blast.is_some() && fns.touches_enemy_royal(variant, &board.cells, r, waiting);
    // A game just won by blowing up the mover's king is over, whatever else stands attacked.
    let blown_up = variant.blast.is_some() && variant.registry.royal_mask != 0 && fns.royals(variant, &board.cells, state.turn).is_empty();
    // Half-way through a turn of several moves (double move, a berserker's follow-up) the last
    // move was the side to move's own: the other side may stand in check.
    !blown_up
        && !mid_turn
        && fns.royals(variant, &board.cells, waiting).iter().any(|&r| !touching(r) && attacks.attacked(board, r, state.turn))
}

/// Refuses a position just set up whose side not to move stands in check once presets have
/// changed its pieces: dual-king crowns the queens when it starts, after [`setup_position`]
/// judged them queens, so a start with a queen attacked (Gardner's d5 queen by a double-leap
/// knight) would have a king attacked, a position whose FEN then does not load (found by the
/// saves check, seed 1795933607). `ran_out` as for [`setup_position`].
///
/// # Errors
/// The side not to move is in check (the world keeps the position).
pub fn refuse_waiting_in_check(world: &World, ran_out: bool) -> Result<(), FenError> {
    if !check_enforced(world, ran_out) {
        return Ok(());
    }
    let variant = world.resource::<Rules>().0.clone();
    let fns = world.get_resource::<RuleFns>().cloned().unwrap_or_default();
    let state = world.resource::<GameState>();
    if waiting_in_check(&variant, &fns, world.resource::<Board>(), state, state.half_moves_this_turn > 0) {
        let message = format!("{} is in check but it is {}'s turn", state.turn.opponent(), state.turn);
        return Err(FenError { code: FenCode::WaitingInCheck, field: FenField::Position, message });
    }
    Ok(())
}

/// Judges again whether a position just set up is already decided, once presets have
/// changed its pieces (dual-king crowns a queen when it starts: in Extinction chess the
/// queens are then gone). A result already decided stays. (Not for a position whose timed
/// presets have run out: see [`setup_position`].)
pub fn rejudge_decided(world: &mut World) {
    if world.resource::<DecidedOutcome>().0.is_some() {
        return;
    }
    let variant = world.resource::<Rules>().0.clone();
    let fns = world.get_resource::<RuleFns>().cloned().unwrap_or_default();
    let at = EndView { variant: &variant, fns: &fns, board: world.resource::<Board>(), state: world.resource::<GameState>() };
    let decided = end::decided(&at, Moment::SetUp);
    world.resource_mut::<DecidedOutcome>().0 = decided;
}

/// Whether SAN marks the check on the board: a check to a piece of a royal type. Pieces royal
/// only by their count (pseudo-royal) get no mark, as Fairy-Stockfish writes them.
fn marks_check(world: &mut World) -> bool {
    let rules = &world.resource::<Rules>().0;
    let marked = rules.registry.royal_mask != 0 || !rules.has_pseudo_royals();
    marked && world.is_check()
}

/// `#` for checkmate, `+` for any other check (a third check that wins is still `+`).
fn check_mark(world: &mut World) -> char {
    let mated = world.legal_moves().is_empty() && world.resource::<DecidedOutcome>().0.is_none();
    if mated { '#' } else { '+' }
}

/// Where presets let a royal piece leave the board in play (hit points, a side that moves
/// again), whether a position in which a side that starts with royal pieces has no royal piece
/// and none of their types left is the end of a game that side lost (both: a draw), as play
/// decides it the moment the last one goes.
fn royal_loss_from_start(at: &EndView, plain: bool, start: Option<&Setup>) -> Option<Outcome> {
    let (variant, fns, board) = (at.variant, at.fns, at.board);
    if plain || variant.registry.royal_mask == 0 && fns.royalty.is_empty() {
        return None;
    }
    let start = start?;
    let mut cells = Board::empty(variant.geometry);
    for &(sq, kind, side) in &start.pieces {
        cells.put(sq, kind, side, Entity::PLACEHOLDER);
    }
    let lost = Side::BOTH.map(|side| {
        let types = fns.royals(variant, &cells.cells, side).iter().fold(0u64, |m, &r| m | (1u64 << cells.cell(r).kind().0));
        types != 0 && fns.royals(variant, &board.cells, side).is_empty() && board.find(side, types).next().is_none()
    });
    end::royal_loss(variant, lost)
}

/// What a position's legal moves depend on, as one key: the position's hash (pieces, game
/// facts, what presets register), the rules' schedules, and whether a rule has decided the game.
fn query_key(world: &mut World) -> u64 {
    let generation = world.get_resource::<super::schedules::Pipelines>().map_or(0, |p| p.generation());
    let decided = world.get_resource::<DecidedOutcome>().is_some_and(|d| d.0.is_some());
    super::apply::position_hash(world) ^ super::board::mix(generation ^ (u64::from(decided) << 63))
}

/// Why the rules refused the move that `read` finds among the moves they refused when the
/// legal-move query tried them ([`MoveQuery::refused`]), if it finds one: what a player who
/// names such a move (in UCI, in SAN) is told.
pub fn refusal_named(world: &World, read: impl Fn(&Variant, &[super::piece::Cell], &[Move]) -> Result<Move, MoveError>) -> Option<String> {
    let refused = &world.resource::<MoveQuery>().refused;
    if refused.is_empty() {
        return None;
    }
    let moves: Vec<Move> = refused.iter().map(|(m, _)| *m).collect();
    let m = read(&world.resource::<Rules>().0, &world.resource::<Board>().cells, &moves).ok()?;
    refused.iter().find(|(r, _)| *r == m).map(|(_, why)| why.clone())
}

/// Rules operations on a world that has them installed ([`install_rules`]).
pub trait RulesWorld {
    /// The legal moves of the side to move: the legal-move query's, run once per position (asked
    /// again about the same position, by any caller, it answers from the last run).
    fn legal_moves(&mut self) -> &[Move];
    /// Runs move application for `m` without checking that it is legal (for search and
    /// perft, which only play moves the query produced).
    ///
    /// # Errors
    /// A before-move hook cancelled it; nothing changed.
    fn apply_unchecked(&mut self, m: Move) -> Result<(), MoveError>;
    /// Plays a legal move and records its SAN.
    ///
    /// # Errors
    /// The move is not legal, the game is over, or a hook cancelled it.
    fn apply_move(&mut self, m: Move) -> Result<(), MoveError>;
    /// Takes back the last move exactly.
    fn undo_move(&mut self) -> Option<Move>;
    /// How the game has ended, if it has.
    fn outcome(&mut self) -> Option<Outcome>;
    /// Whether a royal piece of the side to move is attacked.
    fn is_check(&mut self) -> bool;
    /// The position as FEN.
    fn fen(&mut self) -> String;
}

impl RulesWorld for World {
    fn legal_moves(&mut self) -> &[Move] {
        let key = query_key(self);
        if self.resource::<MoveQuery>().fresh_for != Some(key) && run_pipeline(self, Pipeline::Query) {
            self.resource_mut::<MoveQuery>().fresh_for = Some(key);
        }
        &self.resource::<MoveQuery>().moves
    }

    fn apply_unchecked(&mut self, m: Move) -> Result<(), MoveError> {
        {
            let mut p = self.resource_mut::<PendingMove>();
            let effects = std::mem::take(&mut p.effects);
            *p = PendingMove { mv: Some(m), effects, ..Default::default() };
            p.effects.clear();
        }
        run_pipeline(self, Pipeline::Apply);
        let (rebuild, cancelled) = {
            let mut p = self.resource_mut::<PendingMove>();
            (std::mem::take(&mut p.rebuild_pipelines), p.cancelled.take())
        };
        if rebuild {
            rebuild_pipelines(self);
        }
        if let Some((preset, reason)) = cancelled {
            take_back_cancelled(self);
            return Err(MoveError::Cancelled { preset: preset.to_string(), reason });
        }
        Ok(())
    }

    fn apply_move(&mut self, m: Move) -> Result<(), MoveError> {
        let rules = self.resource::<Rules>().0.clone();
        if let Some(outcome) = self.outcome() {
            return Err(MoveError::GameOver(outcome.to_string()));
        }
        let legal = self.legal_moves().to_vec();
        if let Some((_, reason)) = self.resource::<MoveQuery>().refused.iter().find(|(r, _)| *r == m) {
            return Err(MoveError::Cancelled { preset: "rules".into(), reason: reason.clone() });
        }
        let board = self.resource::<Board>();
        if !legal.contains(&m) {
            let text = to_uci(&rules, &m);
            return Err(parse_uci(&rules, &board.cells, &legal, &text)
                .err()
                .unwrap_or(MoveError::Illegal { text, why: "not a legal move here".into() }));
        }
        let mut san = san_body(&rules, &board.cells, &legal, &m);
        self.apply_unchecked(m)?;
        if marks_check(self) {
            san.push(check_mark(self));
        }
        if let Some(last) = self.resource_mut::<MoveLog>().0.last_mut() {
            last.san = Some(san);
        }
        Ok(())
    }

    fn undo_move(&mut self) -> Option<Move> {
        undo_last(self)
    }

    fn outcome(&mut self) -> Option<Outcome> {
        let outcome = judge(self)?;
        // Draw odds (Armageddon): a game that would be drawn goes to that side.
        match self.resource::<Rules>().0.draw_odds {
            Some(side) if outcome.winner.is_none() => Some(Outcome { winner: Some(side), ..outcome }),
            _ => Some(outcome),
        }
    }

    fn is_check(&mut self) -> bool {
        self.legal_moves();
        self.resource::<MoveQuery>().in_check
    }

    fn fen(&mut self) -> String {
        let legal = self.legal_moves();
        let ep_legal = legal.iter().find_map(|m| match m.kind {
            MoveKind::EnPassant(victim) => Some((m.to, victim)),
            _ => None,
        });
        let no_moves = legal.is_empty();
        let mut promoted: Vec<(Square, PieceType)> =
            self.query::<(&Location, &Promoted)>().iter(self).filter_map(|(l, p)| Some((l.square()?, p.0?))).collect();
        promoted.sort();
        let rules = self.resource::<Rules>();
        let board = self.resource::<Board>();
        let state = self.resource::<GameState>();
        let g = rules.geometry;
        let counters = match rules.check_limit() {
            Some(n) => format!(" {}+{}", n.saturating_sub(state.checks[0]), n.saturating_sub(state.checks[1])),
            None => String::new(),
        };
        // A result decided during the last move is written out unless the position itself shows
        // it (a third check, a side without pieces, a goal held): a preset's rule (the first
        // capture wins), Racing Kings' reply, a bare king leave no such trace.
        let decided = self.resource::<DecidedOutcome>().0.clone().filter(|o| {
            let none = RuleFns::default();
            let fns = self.get_resource::<RuleFns>().unwrap_or(&none);
            end::decided(&EndView { variant: rules, fns, board, state }, Moment::SetUp).as_ref() != Some(o)
        });
        // Chimera's trailing field: the counters the rules read, then what presets write.
        let mut sections = super::fen::write_counters(&super::fen::Counters {
            half_moves_this_turn: state.half_moves_this_turn,
            facing_streak: state.facing_streak,
            pass_streak: state.pass_streak,
            default_end_suppressed: state.default_end_suppressed,
            foul_drop: state.foul_drop && no_moves,
            decided,
        });
        let pocket =
            if rules.drops.is_some() || rules.switches.gating { write_pocket(&rules.registry, &board.hand_counts) } else { String::new() };
        let mut placement = write_placement(g, &rules.registry, &board.cells, &promoted);
        if rules.switches.fixed_gating {
            let row = |side: Side| super::fen::write_gate_row(rules, side, &state.fixed_gates[side.index()]);
            placement = format!("{}/{placement}/{}", row(Side::Black), row(Side::White));
        }
        let fen = format!(
            "{}{} {} {} {}{} {} {}",
            placement,
            pocket,
            if state.turn == Side::White { "w" } else { "b" },
            // (Fixed gating's gates are its gate rows.)
            write_castling(rules, &board.cells, &state.castling, if rules.switches.fixed_gating { [0, 0] } else { state.gates }),
            ep_legal.map(|(ep, victim)| write_en_passant(g, ep, victim)).unwrap_or_else(|| "-".into()),
            counters,
            state.halfmove_clock,
            state.fullmove
        );
        let writers = self.get_resource::<FenExtras>().map(|x| x.0.clone()).unwrap_or_default();
        for write in writers {
            sections.extend(write(self));
        }
        if sections.is_empty() { fen } else { format!("{fen} {{{}}}", sections.join(";")) }
    }
}

/// Counts the leaf nodes `depth` plies below the position in `world`, through the two
/// pipelines, counting the last ply in bulk (the length of the legal-move list).
pub fn perft(world: &mut World, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    perft_inner(world, depth, &mut buffers)
}

fn perft_inner(world: &mut World, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, rest)) = buffers.split_first_mut() else { return 1 };
    moves.clear();
    // (The query itself, without the key that saves a second run: perft never asks twice.)
    run_pipeline(world, Pipeline::Query);
    moves.extend_from_slice(&world.resource::<MoveQuery>().moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &m in moves.iter() {
        if world.apply_unchecked(m).is_ok() {
            nodes += perft_inner(world, depth - 1, rest);
            world.undo_move();
        }
    }
    nodes
}

/// The piece entities of a game and their counterparts in a fork of it.
pub type EntityMap = std::collections::HashMap<Entity, Entity>;

/// Copies what a module keeps in a world (its resources, its piece facts) into a fork of it;
/// the rules copy their own, the presets module registers its copier in [`ForkCopiers`].
pub type ForkFn = fn(&World, &mut World, &EntityMap);

/// Writers of sections of Chimera's trailing FEN field (`{...}`): the presets module registers
/// one for its piece facts and state, and reads them back when a game is set up from a FEN.
#[derive(Resource, Clone, Default)]
pub struct FenExtras(pub Vec<fn(&mut World) -> Vec<String>>);

/// The copiers [`Engine::fork`] runs besides the rules' own.
#[derive(Resource, Clone, Default)]
pub struct ForkCopiers(pub Vec<ForkFn>);

/// A headless game: a world with the rules installed and its pieces as entities.
///
/// ```
/// use chimera::rules::{Engine, Variant};
/// let mut engine = Engine::new(Variant::chess());
/// assert_eq!(engine.legal_moves().len(), 20);
/// engine.play_uci("e2e4").unwrap();
/// assert_eq!(engine.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
/// ```
pub struct Engine {
    world: World,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("variant", &self.variant().id).finish_non_exhaustive()
    }
}

impl Engine {
    /// A game of `variant` at its start position.
    ///
    /// # Panics
    /// If the variant's own start FEN is invalid (built-in variants are tested).
    pub fn new(variant: Variant) -> Engine {
        let fen = variant.start_fen.clone();
        Engine::from_fen(variant, &fen).unwrap_or_else(|e| panic!("the start position does not read: {e}"))
    }

    /// A game of `variant` with its rules installed and nothing on the board
    /// ([`install_rules_bare`]); set a position up before playing.
    pub fn bare(variant: Variant) -> Engine {
        let mut world = World::new();
        install_rules_bare(&mut world, Arc::new(variant));
        Engine { world }
    }

    /// A game of `variant` from `fen` (`startpos` means the variant's start).
    ///
    /// # Errors
    /// The FEN does not read or describes an impossible position.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Engine, FenError> {
        Engine::from_fen_shared(Arc::new(variant), fen)
    }

    /// [`Engine::from_fen`] for a variant already shared.
    ///
    /// # Errors
    /// As [`Engine::from_fen`].
    pub fn from_fen_shared(variant: Arc<Variant>, fen: &str) -> Result<Engine, FenError> {
        let mut world = World::new();
        let fen = if fen.trim() == "startpos" { variant.start_fen.clone() } else { fen.to_string() };
        install_rules(&mut world, variant.clone())?;
        let setup = parse_fen(&variant, &fen)?;
        if !setup.extra.is_empty() {
            // Without presets nothing reads piece facts or preset state.
            return Err(FenError {
                code: FenCode::Trailing,
                field: FenField::Position,
                message: format!("the trailing field has '{}', which no rule of a game without presets reads", setup.extra.join(";")),
            });
        }
        setup_position(&mut world, &setup)?;
        Ok(Engine { world })
    }

    /// A game in `world`, whose rules and position are set up already.
    pub fn from_world(world: World) -> Engine {
        Engine { world }
    }

    /// The world, for reading components and resources.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, for tools and tests that add hooks or inspect deeply.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        &self.world.resource::<Rules>().0
    }

    /// The game-level facts.
    pub fn state(&self) -> GameState {
        *self.world.resource::<GameState>()
    }

    /// The legal moves of the side to move.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        self.world.legal_moves().to_vec()
    }

    /// Plays a legal move through the move-application pipeline and records its SAN.
    ///
    /// # Errors
    /// See [`RulesWorld::apply_move`].
    pub fn apply(&mut self, m: Move) -> Result<(), MoveError> {
        self.world.apply_move(m)
    }

    /// Plays a move written in UCI.
    ///
    /// # Errors
    /// Unreadable or illegal text, or a cancelled move.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        self.refuse_after_game_end()?;
        let m = self.parse_uci(text)?;
        self.apply(m)?;
        Ok(m)
    }

    /// Plays a move written in SAN.
    ///
    /// # Errors
    /// Unreadable, illegal or ambiguous text, or a cancelled move.
    pub fn play_san(&mut self, text: &str) -> Result<Move, MoveError> {
        self.refuse_after_game_end()?;
        let m = self.parse_san(text)?;
        self.apply(m)?;
        Ok(m)
    }

    fn refuse_after_game_end(&mut self) -> Result<(), MoveError> {
        match self.outcome() {
            Some(outcome) => Err(MoveError::GameOver(outcome.to_string())),
            None => Ok(()),
        }
    }

    /// Reads a UCI move against the legal moves.
    ///
    /// # Errors
    /// Unreadable or illegal text.
    pub fn parse_uci(&mut self, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        let rules = self.world.resource::<Rules>();
        let parsed = parse_uci(rules, &self.world.resource::<Board>().cells, &legal, text);
        // A piece a rule holds back (stamina) says why.
        if let Err(MoveError::Illegal { .. }) = &parsed
            && let Some(from) = {
                // The origin: a file letter and the rank's digits.
                let digits = text.get(1..).map_or(0, |t| t.chars().take_while(char::is_ascii_digit).count());
                text.get(..1 + digits).and_then(|t| rules.geometry.parse_square(t))
            }
            && let Some((_, held)) = self.world.resource::<MoveQuery>().held.iter().find(|(s, _)| *s == from)
        {
            return Err(MoveError::Illegal { text: text.into(), why: format!("that piece cannot move: {held}") });
        }
        // A move a rule refused when it was tried says why.
        if parsed.is_err()
            && let Some(reason) = refusal_named(&self.world, |v, cells, moves| parse_uci(v, cells, moves, text))
        {
            return Err(MoveError::Cancelled { preset: "rules".into(), reason });
        }
        parsed
    }

    /// Reads a SAN move against the legal moves.
    ///
    /// # Errors
    /// Unreadable, illegal or ambiguous text.
    pub fn parse_san(&mut self, text: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        let rules = self.world.resource::<Rules>();
        let cells = &self.world.resource::<Board>().cells;
        let parsed = parse_san(rules, cells, &legal, text);
        // A move a rule refused when it was tried says why.
        if parsed.is_err()
            && let Some(reason) = refusal_named(&self.world, |v, cells, moves| parse_san(v, cells, moves, text))
        {
            return Err(MoveError::Cancelled { preset: "rules".into(), reason });
        }
        parsed
    }

    /// A move in UCI.
    pub fn to_uci(&self, m: &Move) -> String {
        to_uci(self.variant(), m)
    }

    /// A legal move in SAN, with its check or mate mark.
    pub fn to_san(&mut self, m: &Move) -> String {
        let legal = self.legal_moves();
        let rules = self.world.resource::<Rules>().0.clone();
        let mut san = san_body(&rules, &self.world.resource::<Board>().cells, &legal, m);
        if self.world.apply_unchecked(*m).is_ok() {
            if marks_check(&mut self.world) {
                san.push(check_mark(&mut self.world));
            }
            self.world.undo_move();
        }
        san
    }

    /// Applies a move without the legality check (see [`RulesWorld::apply_unchecked`]).
    ///
    /// # Errors
    /// A hook cancelled it.
    pub fn apply_unchecked(&mut self, m: Move) -> Result<(), MoveError> {
        self.world.apply_unchecked(m)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> Option<Move> {
        self.world.undo_move()
    }

    /// How the game has ended, if it has.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.world.outcome()
    }

    /// Whether the side to move is in check.
    pub fn is_check(&mut self) -> bool {
        self.world.is_check()
    }

    /// The position as FEN.
    pub fn fen(&mut self) -> String {
        self.world.fen()
    }

    /// The moves played, with SAN and annotations.
    pub fn move_log(&self) -> &MoveLog {
        self.world.resource::<MoveLog>()
    }

    /// Perft through the pipelines (see [`perft`]).
    pub fn perft(&mut self, depth: u32) -> u64 {
        perft(&mut self.world, depth)
    }

    /// Perft split by the first move: `(uci, nodes)` per legal move, in move order.
    pub fn divide(&mut self, depth: u32) -> Vec<(String, u64)> {
        let moves = self.legal_moves();
        let mut out = Vec::with_capacity(moves.len());
        for m in moves {
            let uci = self.to_uci(&m);
            if self.world.apply_unchecked(m).is_ok() {
                out.push((uci, perft(&mut self.world, depth.saturating_sub(1))));
                self.world.undo_move();
            }
        }
        out
    }

    /// An independent copy of the game as it stands — position, move list, history, active
    /// presets with their hooks, layers, state and piece facts — for a search thread or a
    /// what-if. The fork starts with an empty undo log: it cannot take back moves played before
    /// it. Its piece entities are new (the square index and hands are remapped).
    pub fn fork(&self) -> Engine {
        Engine::fork_of(&self.world)
    }

    /// A fork ([`Engine::fork`]) of the game in any world that has the rules installed, such
    /// as the game window's.
    pub fn fork_of(src: &World) -> Engine {
        let mut world = World::new();
        let mut map = EntityMap::new();
        if let Some(mut pieces) = src.try_query_filtered::<(Entity, &PieceType, &Owner, &Location, &Promoted), With<Piece>>() {
            let mut list: Vec<(Entity, PieceType, Owner, Location, Promoted)> =
                pieces.iter(src).map(|(e, k, o, l, p)| (e, *k, *o, *l, *p)).collect();
            list.sort_by_key(|p| p.0);
            for (e, kind, owner, location, promoted) in list {
                map.insert(e, world.spawn((Piece, kind, owner, location, promoted)).id());
            }
        }
        if let Some(homes) = src.get_resource::<super::piece::Homes>() {
            let mut homes = homes.clone();
            homes.0.iter_mut().for_each(|(e, _)| *e = map.get(e).copied().unwrap_or(*e));
            world.insert_resource(homes);
        }
        let remap = |e: &mut Entity| *e = map.get(e).copied().unwrap_or(*e);
        let mut board = src.resource::<Board>().clone();
        board.entities.iter_mut().flatten().for_each(remap);
        board.bound.iter_mut().for_each(|(e, _)| remap(e));
        for hand in &mut board.hand {
            hand.iter_mut().for_each(|(_, e)| remap(e));
            hand.sort_unstable();
        }
        world.insert_resource(board);
        world.insert_resource(Rules(src.resource::<Rules>().0.clone()));
        world.insert_resource(*src.resource::<GameState>());
        world.insert_resource(src.resource::<DecidedOutcome>().clone());
        world.insert_resource(src.resource::<MoveLog>().clone());
        world.insert_resource(src.resource::<History>().clone());
        world.insert_resource(src.resource::<Hooks>().clone());
        world.insert_resource(src.resource::<RuleFns>().clone());
        if let Some(extras) = src.get_resource::<super::apply::HashExtras>() {
            world.insert_resource(extras.clone());
        }
        if let Some(extras) = src.get_resource::<FenExtras>() {
            world.insert_resource(extras.clone());
        }
        world.init_resource::<MoveQuery>();
        world.init_resource::<PendingMove>();
        world.init_resource::<UndoLog>();
        world.init_resource::<Trial>();
        let copiers = src.get_resource::<ForkCopiers>().cloned().unwrap_or_default();
        for copy in &copiers.0 {
            copy(src, &mut world, &map);
        }
        world.insert_resource(copiers);
        rebuild_pipelines(&mut world);
        Engine { world }
    }

    /// Adds hook systems (in order, after those already there) and rebuilds the pipelines.
    pub fn add_hooks(&mut self, hooks: impl IntoIterator<Item = Hook>) {
        self.world.resource_mut::<Hooks>().0.extend(hooks);
        rebuild_pipelines(&mut self.world);
    }
}

/// How the game stands by the variant's end rules, before draw odds: a result decided in play
/// or at set-up, or what the end rules say of the position with the side to move's replies.
fn judge(world: &mut World) -> Option<Outcome> {
    if let Some(o) = &world.resource::<DecidedOutcome>().0 {
        return Some(o.clone());
    }
    let none = world.legal_moves().is_empty();
    let no_fns = RuleFns::default();
    let fns = world.get_resource::<RuleFns>().unwrap_or(&no_fns);
    let query = world.resource::<MoveQuery>();
    let replies = Replies { none, in_check: query.in_check, royals: &query.royals, history: &world.resource::<History>().0 };
    let at = EndView { variant: &world.resource::<Rules>().0, fns, board: world.resource::<Board>(), state: world.resource::<GameState>() };
    end::outcome(&at, replies)
}
