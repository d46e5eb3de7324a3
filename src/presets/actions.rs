//! Running rules as data: the hooks of a list of [`Action`]s, one per action, at the step of
//! the legal-move query or of move application its event belongs to (`BeforeMove` →
//! before-move, `Capture` → before-capture, `Damaged` → on-damage, `TurnEnd` →
//! should-advance-turn, `Moved` and the events picked out of it (`Arrives`, `Leaves`, `Check`,
//! `Promotion`, `Drop`) → after-move, `TurnStart` and `Every` → turn-start, `Spawned` →
//! on-piece-spawn, `Removed` → on-piece-retract, `Result` → game-result, `Listing` →
//! filter-legal-moves, the whole-list filter after the check rule, so that a forbidden move
//! still attacks, as a pinned piece's does, and should-filter-self-check for `AllowCheck`), in
//! the list's order, at their preset's place in the active set.
//!
//! Two presets run actions: `actions`, a variant's own (the loader asks for it after the
//! presets a file lists, unless the file lists it itself, and then it runs where it is listed),
//! and each data preset (`super::data`). The hooks follow the preset rules: an action that
//! would take over what is already taken (a capture, a hit, the turn's flip) does not run
//! (first taker wins), and takes it in its own name; the engine scopes before-move,
//! before-capture (by the mover), on-damage (by the piece hit), turn-start (by the side now to
//! move) and on-piece-spawn and -retract (by the piece's side); in the other steps the action
//! judges the mover's side itself. The state an action keeps (`SetState`, `AddState`) is its
//! preset's [`PresetState`] numbers; it and what the effects change (pieces, facts, the result)
//! are undone with the move, as any preset's are. Pieces that appear or leave because of an
//! action are one event deeper than the event it answered ([`EventDepth`]); an event at
//! [`CHAIN_LIMIT`] refuses the move.

use std::sync::Arc;

use bevy::prelude::*;

use super::PresetState;
use super::{Activation, PresetDef};
use crate::rules::{
    Action, ActionEffect, ApplySystems, Board, CHAIN_LIMIT, Camp, Condition, DamageKind, DamageRequest, DecidedOutcome, Effect, EffectKind,
    Event, EventDepth, GameState, Hook, Location, Move, MoveKind, MoveQuery, Outcome, Owner, PendingMove, PieceEvent, PieceType, Place,
    PositionWriter, QuerySystems, Reason, RuleFns, Rules, Side, Square, Step, UndoLog, Variant, Who, WorldWriter, deal_damage, decide,
    emit_effect, retract_piece, royal_attacked, spawn_piece,
};

/// The preset.
pub const ACTIONS: PresetDef = PresetDef {
    id: "actions",
    name: "The variant's own actions",
    description: "Runs the actions the variant's file writes: when an event happens, if its conditions hold, then its effects.",
    variant_hooks,
    on_activate,
    on_deactivate,
    ..PresetDef::BASE
};

/// Asks `variant` for this preset when it has actions or facts and does not ask already (after
/// the presets it lists): the loader does, and so does a save, whose own list of presets
/// replaces the variant's.
pub fn ask_for_actions(variant: &mut Variant) {
    let wants = !variant.actions.is_empty() || !variant.facts.is_empty();
    if wants && !variant.presets.iter().any(|p| p.id == ACTIONS.id) {
        variant.presets.push(crate::rules::PresetRequest { id: ACTIONS.id.into(), sides: [true, true], ..Default::default() });
    }
}

fn variant_hooks(a: &Activation, v: &Variant) -> Vec<Hook> {
    let mut hooks = super::facts::hooks(ACTIONS.id, &v.facts);
    hooks.extend(hooks_for(ACTIONS.id, &v.actions, a.scope.sides()));
    hooks
}

fn on_activate(world: &mut World, _a: &Activation) {
    let facts = world.resource::<Rules>().0.facts.clone();
    super::facts::give_all(world, &facts);
}

fn on_deactivate(world: &mut World, _a: &Activation) {
    let facts = world.resource::<Rules>().0.facts.clone();
    super::facts::take_all(world, &facts);
}

/// One hook per action of the preset `owner` (whose state the actions keep), for an
/// activation covering the sides `scope`.
pub fn hooks_for(owner: &'static str, actions: &[Action], scope: [bool; 2]) -> Vec<Hook> {
    actions
        .iter()
        // (Royalty is a rule function, not a hook: see `royalty_of`.)
        .filter(|action| action.when != Event::Royalty)
        .map(|action| {
            let sides = [action.sides[0] && scope[0], action.sides[1] && scope[1]];
            let lifts = action.effects.contains(&ActionEffect::AllowCheck);
            let action = Arc::new(action.clone());
            let step: Step = match action.when {
                Event::BeforeMove => ApplySystems::BeforeMove.into(),
                Event::Capture => ApplySystems::BeforeCapture.into(),
                Event::Damaged => Step::Damage,
                Event::TurnEnd => ApplySystems::AdvanceTurn.into(),
                Event::Moved => ApplySystems::AfterMove.into(),
                Event::TurnStart => ApplySystems::TurnStart.into(),
                Event::Result => ApplySystems::GameResult.into(),
                Event::Listing if lifts => QuerySystems::SelfCheckPoll.into(),
                Event::Listing => QuerySystems::LegalFilter.into(),
                Event::Royalty => unreachable!("royalty actions are left out above"),
                Event::Arrives(_) | Event::Leaves(_) | Event::Check | Event::Promotion | Event::Drop => ApplySystems::AfterMove.into(),
                Event::Every(_) => ApplySystems::TurnStart.into(),
                Event::Spawned => Step::Spawn,
                Event::Removed => Step::Retract,
            };
            let hook = match action.when {
                // (Should-filter-self-check is unscoped: an answer of "no" holds for both
                // sides, as a Rust preset's does.)
                Event::Listing if lifts => Hook::new(action.name, step, move |mut q: ResMut<MoveQuery>| {
                    if sides != [false, false] {
                        q.filter_self_check = false;
                    }
                }),
                Event::Listing => Hook::new(action.name, step, move |world: &mut World| forbid(world, owner, &action, sides)),
                Event::Spawned | Event::Removed => {
                    Hook::new(action.name, step, move |world: &mut World| chained(world, owner, &action)).changing_position()
                }
                _ => Hook::new(action.name, step, move |world: &mut World| run(world, owner, &action, sides)),
            };
            hook.scoped(sides)
        })
        .collect()
}

/// The royalty rules of `actions` (get-royal-pieces, unscoped): the pieces of the types each
/// `Royal` names.
pub fn royalty_of(actions: &[Action]) -> Vec<crate::rules::RoyalRule> {
    actions
        .iter()
        .filter_map(|a| Some((a.name, a.royal_types()?)))
        .map(|(owner, types)| {
            let mask = types.iter().fold(0u64, |m, k| m | 1u64 << k.0);
            crate::rules::RoyalRule {
                owner,
                run: Arc::new(move |_: &Variant, cells: &[crate::rules::Cell], side: Side, out: &mut Vec<Square>| {
                    out.extend(cells.iter().enumerate().filter_map(|(i, c)| {
                        (c.is_piece() && c.side() == side && mask & (1u64 << c.kind().0) != 0).then_some(Square(i as u8))
                    }));
                }),
            }
        })
        .collect()
}

/// A piece an action speaks of: its entity (none for a piece still in hand), side, type and
/// square.
#[derive(Copy, Clone, Debug)]
struct P {
    entity: Option<Entity>,
    side: Side,
    kind: PieceType,
    square: Square,
}

/// What an action is judged against: the side moving, the move, and its pieces.
#[derive(Clone, Debug, Default)]
struct Ctx {
    mover: Side,
    mv: Option<Move>,
    moving: Option<P>,
    victim: Option<P>,
    hit: Option<P>,
    this: Option<P>,
    /// Whether a capture is among the moves listed (`Listing`).
    capture_listed: bool,
    /// Whether the side now to move has no legal move (`Result`, asked for).
    no_legal_move: bool,
    /// The preset running the action (whose state it keeps).
    owner: &'static str,
    /// How deep in a chain of events the event it answers is (see [`CHAIN_LIMIT`]).
    depth: u8,
}

impl Ctx {
    /// The side a camp names, from the side that moves.
    fn side(&self, camp: Camp) -> Side {
        if camp == Camp::Mover { self.mover } else { self.mover.opponent() }
    }

    fn get(&self, who: Who) -> Option<P> {
        match who {
            Who::Mover => self.moving,
            Who::Victim => self.victim,
            Who::Hit => self.hit,
            Who::This => self.this,
        }
    }

    /// The move being made, as it stands: the mover where it stands (before a capture, its
    /// square of departure; none once off the board), the victim as the move found it.
    fn of_move(world: &World) -> Ctx {
        let p = world.resource::<PendingMove>();
        let moving = p.piece.zip(p.piece_type).and_then(|(e, kind)| match world.get::<Location>(e) {
            Some(Location::Board(square)) => Some(P { entity: Some(e), side: p.mover, kind, square: *square }),
            _ => None,
        });
        let victim = p.victim.map(|v| P { entity: Some(v.entity), side: p.mover.opponent(), kind: v.kind, square: v.square });
        Ctx { mover: p.mover, mv: p.mv, moving, victim, ..Default::default() }
    }

    /// A move being listed, judged before it is made.
    fn of_listed(board: &Board, side: Side, m: &Move) -> Ctx {
        let moving = match m.dropped() {
            Some(kind) => Some(P { entity: None, side, kind, square: m.to }),
            None => {
                let c = board.cell(m.from);
                c.is_piece().then(|| P { entity: board.entity(m.from), side, kind: c.kind(), square: m.from })
            }
        };
        let victim = if m.capture {
            let sq = m.victim_square();
            let c = board.cell(sq);
            c.is_piece().then(|| P { entity: board.entity(sq), side: c.side(), kind: c.kind(), square: sq })
        } else {
            None
        };
        Ctx { mover: side, mv: Some(*m), moving, victim, ..Default::default() }
    }
}

/// A piece on the board, as a [`P`].
fn on_board(world: &World, e: Entity) -> Option<P> {
    let Some(Location::Board(square)) = world.get::<Location>(e).copied() else { return None };
    Some(P { entity: Some(e), side: world.get::<Owner>(e)?.0, kind: *world.get::<PieceType>(e)?, square })
}

fn holds(world: &World, cx: &Ctx, c: &Condition) -> bool {
    match c {
        Condition::Captures => cx.victim.is_some(),
        Condition::Promotes => cx.mv.is_some_and(|m| m.promotion.is_some()),
        Condition::Is(who, kind) => cx.get(*who).is_some_and(|p| p.kind == *kind),
        Condition::Royal(who) => cx.get(*who).is_some_and(|p| world.resource::<Rules>().0.registry.def(p.kind).royal),
        Condition::Side(who, side) => cx.get(*who).is_some_and(|p| p.side == *side),
        Condition::On(who, sets) => cx.get(*who).is_some_and(|p| sets[p.side.index()].contains(p.square)),
        Condition::Fact(who, name, compare) => {
            cx.get(*who).and_then(|p| p.entity).and_then(|e| super::facts::value(world, e, name)).is_some_and(|v| compare.holds(v))
        }
        Condition::MovesThisTurn(compare) => compare.holds(i32::from(world.resource::<GameState>().half_moves_this_turn)),
        Condition::PiecesOf(camp, compare) => compare.holds(world.resource::<Board>().find(cx.side(*camp), u64::MAX).count() as i32),
        Condition::CaptureListed => cx.capture_listed,
        Condition::ToMove(camp) => world.resource::<GameState>().turn == cx.side(*camp),
        Condition::NoLegalMove => cx.no_legal_move,
        Condition::Drops => cx.mv.is_some_and(|m| m.dropped().is_some()),
        Condition::Castles => cx.mv.is_some_and(|m| matches!(m.kind, MoveKind::Castle(_))),
        Condition::Count(camp, types, compare) => {
            let mask = types.iter().fold(0u64, |m, k| m | 1u64 << k.0);
            compare.holds(world.resource::<Board>().find(cx.side(*camp), mask).count() as i32)
        }
        Condition::InHand(camp, types, compare) => {
            let counts = &world.resource::<Board>().hand_counts[cx.side(*camp).index()];
            let n: i32 = if types.is_empty() {
                counts.iter().map(|&c| i32::from(c)).sum()
            } else {
                types.iter().map(|k| i32::from(counts[k.0 as usize])).sum()
            };
            compare.holds(n)
        }
        Condition::InCheck(camp) => in_check(world, cx.side(*camp)),
        Condition::Turn(compare) => compare.holds(world.resource::<GameState>().fullmove as i32),
        Condition::Rank(who, compare) => cx.get(*who).is_some_and(|p| {
            let g = world.resource::<Rules>().0.geometry;
            let rank = if p.side == Side::White { g.rank(p.square) } else { g.ranks - 1 - g.rank(p.square) };
            compare.holds(i32::from(rank) + 1)
        }),
        Condition::File(who, compare) => {
            cx.get(*who).is_some_and(|p| compare.holds(i32::from(world.resource::<Rules>().0.geometry.file(p.square)) + 1))
        }
        Condition::State { preset, key, is } => {
            let preset = if preset.is_empty() { cx.owner } else { preset };
            let v = world.get_resource::<PresetState>().and_then(|s| s.number(preset, key)).unwrap_or(0);
            is.holds(i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX }))
        }
        Condition::Not(inner) => !holds(world, cx, inner),
        Condition::Any(list) => list.iter().any(|c| holds(world, cx, c)),
    }
}

/// Whether a royal piece of `side` is attacked as the position stands.
fn in_check(world: &World, side: Side) -> bool {
    let (rules, fns, state, board) =
        (&world.resource::<Rules>().0, world.resource::<RuleFns>(), world.resource::<GameState>(), world.resource::<Board>());
    let royals = fns.royals(rules, &board.cells, side);
    royal_attacked(rules, fns, state, board, &royals, side)
}

/// A `Listing` action: forbids each listed move its conditions hold for (the mover's side in
/// its sides: filter-legal-moves is unscoped, and the action judges the side itself).
fn forbid(world: &mut World, owner: &'static str, action: &Action, sides: [bool; 2]) {
    let side = world.resource::<MoveQuery>().side;
    if !sides[side.index()] {
        return;
    }
    let moves = std::mem::take(&mut world.resource_mut::<MoveQuery>().moves);
    let board = world.resource::<Board>();
    let capture_listed = moves.iter().any(|m| m.capture);
    let kept: Vec<Move> = moves
        .into_iter()
        .filter(|m| {
            let cx = Ctx { capture_listed, owner, ..Ctx::of_listed(board, side, m) };
            !action.conditions.iter().all(|c| holds(world, &cx, c))
        })
        .collect();
    world.resource_mut::<MoveQuery>().moves = kept;
}

/// A `Spawned` or `Removed` action, for the piece the pipeline announces (`This`): an event
/// at [`CHAIN_LIMIT`] that the action would answer refuses the move.
fn chained(world: &mut World, owner: &'static str, action: &Action) {
    let ev = *world.resource::<PieceEvent>();
    if (!action.pieces.is_empty() && !action.pieces.contains(&ev.kind)) || world.resource::<PendingMove>().cancelled.is_some() {
        return;
    }
    let mut cx = Ctx { owner, depth: ev.depth, ..Ctx::of_move(world) };
    cx.this = Some(P { entity: Some(ev.entity), side: ev.side, kind: ev.kind, square: ev.square });
    if !action.conditions.iter().all(|c| holds(world, &cx, c)) {
        return;
    }
    if ev.depth >= CHAIN_LIMIT {
        let reason = format!("the rules chained more than {CHAIN_LIMIT} pieces appearing and leaving from this move ('{}')", action.name);
        let mut p = world.resource_mut::<PendingMove>();
        p.cancel(owner, reason);
        p.unlisted = true;
        return;
    }
    act(world, action, &cx);
}

/// An action of move application (or of the damage pipeline).
fn run(world: &mut World, owner: &'static str, action: &Action, sides: [bool; 2]) {
    let mut cx = Ctx { owner, ..Ctx::of_move(world) };
    let p = world.resource::<PendingMove>();
    match action.when {
        // Scoped by the engine (before-capture by the mover): the capture event is a
        // capture's, and what is taken once is not taken again.
        Event::Capture if p.victim.is_none() || (action.takes_capture() && p.capture_consumed_by.is_some()) => return,
        Event::Damaged => {
            let req = world.resource::<DamageRequest>();
            let takes = action.effects.iter().any(|e| matches!(e, ActionEffect::Absorb(_) | ActionEffect::Soak(_)));
            if takes && req.consumed_by.is_some() {
                return;
            }
            let Some(hit) = req.target.and_then(|e| on_board(world, e)) else { return };
            cx.hit = Some(hit);
        }
        Event::TurnEnd if p.advance_vetoed_by.is_some() && action.effects.contains(&ActionEffect::ExtraMove) => return,
        Event::Every(n) => {
            let st = world.resource::<GameState>();
            // (Turns, not moves: a side's turn with two moves counts one.)
            let turns = (st.fullmove.saturating_sub(1)) * 2 + u32::from(st.turn == Side::Black);
            if turns == 0 || !turns.is_multiple_of(u32::from(n)) {
                return;
            }
        }
        Event::BeforeMove | Event::Capture | Event::TurnStart => {}
        _ if !sides[p.mover.index()] => return,
        _ => {}
    }
    // The events a move's kind or squares pick out of after-move.
    let picked = match action.when {
        Event::Arrives(sets) => cx.moving.is_some_and(|m| sets[m.side.index()].contains(m.square)),
        Event::Leaves(sets) => {
            let side = cx.mover.index();
            cx.mv.is_some_and(|m| m.dropped().is_none() && sets[side].contains(m.from))
                && !cx.moving.is_some_and(|m| sets[side].contains(m.square))
        }
        Event::Check => in_check(world, cx.mover.opponent()),
        Event::Promotion => cx.mv.is_some_and(|m| m.promotion.is_some()),
        Event::Drop => cx.mv.is_some_and(|m| m.dropped().is_some()),
        _ => true,
    };
    if !picked {
        return;
    }
    // (The legal moves are asked for only when a condition wants them, and no result is decided.)
    if action.when == Event::Result && action.conditions.contains(&Condition::NoLegalMove) && world.resource::<DecidedOutcome>().0.is_none()
    {
        crate::rules::run_pipeline(world, crate::rules::Pipeline::Query);
        cx.no_legal_move = world.resource::<MoveQuery>().moves.is_empty();
    }
    if action.pieces.is_empty() {
        if action.conditions.iter().all(|c| holds(world, &cx, c)) {
            act(world, action, &cx);
        }
        return;
    }
    // Attached: once for each such piece of the side concerned (turn start: the side now to
    // move; turn end: the side that moved).
    let side = if action.when == Event::TurnStart { world.resource::<GameState>().turn } else { cx.mover };
    let board = world.resource::<Board>();
    let pieces: Vec<Entity> =
        board.squares_of(side).filter(|&sq| action.pieces.contains(&board.cell(sq).kind())).filter_map(|sq| board.entity(sq)).collect();
    for e in pieces {
        cx.this = on_board(world, e);
        if cx.this.is_some() && action.conditions.iter().all(|c| holds(world, &cx, c)) {
            act(world, action, &cx);
        }
    }
}

/// The effects in order (a strike that leaves its target alive ends them). Pieces they make
/// appear or leave are one event deeper than the one answered.
fn act(world: &mut World, action: &Action, cx: &Ctx) {
    let deeper = cx.depth.saturating_add(1);
    let before = world.resource::<UndoLog>().retracted.len();
    let outer = std::mem::replace(&mut world.get_resource_or_init::<EventDepth>().0, deeper);
    for effect in &action.effects {
        if !effect_done(world, action.name, effect, cx) {
            break;
        }
    }
    world.resource_mut::<EventDepth>().0 = outer;
    let mut undo = world.resource_mut::<UndoLog>();
    for left in undo.retracted.iter_mut().skip(before) {
        left.depth = left.depth.max(deeper);
    }
}

/// The piece, if it still stands on the board.
fn standing(world: &World, cx: &Ctx, who: Who) -> Option<P> {
    cx.get(who).and_then(|p| p.entity).and_then(|e| on_board(world, e))
}

/// One effect; false ends the action's effects.
fn effect_done(world: &mut World, owner: &'static str, effect: &ActionEffect, cx: &Ctx) -> bool {
    let mover = cx.mover;
    match effect {
        ActionEffect::TakeCapture => {
            world.resource_mut::<PendingMove>().consume_capture(owner);
        }
        ActionEffect::Strike(who) => {
            let Some(p) = standing(world, cx, *who) else { return true };
            let e = p.entity.expect("a standing piece is an entity");
            let attacker = cx.moving.and_then(|m| m.entity).filter(|&m| m != e);
            let died = deal_damage(world, e, p.side, 1, DamageKind::Capture, attacker);
            let is_victim = cx.victim.and_then(|v| v.entity) == Some(e);
            if died {
                retract_piece(world, e);
                if is_victim {
                    world.resource_mut::<PendingMove>().victim_died = true;
                }
            } else {
                if is_victim {
                    world.resource_mut::<PendingMove>().victim_survived = true;
                }
                return false;
            }
        }
        ActionEffect::Show(kind, who) => {
            if let Some(p) = cx.get(*who) {
                let effect = Effect::new(kind.clone(), p.square, owner).side(p.side);
                let effect = if matches!(kind, EffectKind::Poison | EffectKind::Heal) { effect.amount(1) } else { effect };
                emit_effect(world, effect);
            }
        }
        ActionEffect::Damage { at, around, amount, kind, spare } => {
            let Some(centre) = cx.get(*at) else { return true };
            let moving = cx.moving.and_then(|m| m.entity);
            // The targets first, then the damage (a piece that dies leaves the board).
            let targets: Vec<(Entity, Side)> = if *around == 0 {
                // (A captured piece, once the move is made, is off the board: nothing to hit.)
                standing(world, cx, *at).and_then(|p| Some((p.entity?, p.side))).into_iter().collect()
            } else {
                let g = world.resource::<Rules>().0.geometry;
                let board = world.resource::<Board>();
                let (f, r, n) = (g.file(centre.square) as i32, g.rank(centre.square) as i32, i32::from(*around));
                let mut out = Vec::new();
                for dy in -n..=n {
                    for dx in -n..=n {
                        let Some(sq) = g.square(f + dx, r + dy) else { continue };
                        let c = board.cell(sq);
                        if c.is_piece()
                            && !spare.contains(&c.kind())
                            && let Some(e) = board.entity(sq).filter(|&e| Some(e) != moving)
                        {
                            out.push((e, c.side()));
                        }
                    }
                }
                out
            };
            for (e, side) in targets {
                let attacker = moving.filter(|&m| m != e);
                if deal_damage(world, e, side, *amount, kind.clone(), attacker) {
                    retract_piece(world, e);
                }
            }
        }
        ActionEffect::Absorb(fact) => {
            let Some(target) = world.resource::<DamageRequest>().target else { return true };
            let Some(now) = super::facts::value(world, target, fact) else { return true };
            let amount = world.resource::<DamageRequest>().amount;
            let min = super::facts::slot_of(world, fact).map_or(0, |(_, d)| d.min);
            let after = super::facts::set_value(world, target, fact, now.saturating_sub(amount)).unwrap_or(now);
            world.resource_mut::<DamageRequest>().consume(owner, after <= min);
        }
        ActionEffect::Soak(n) => {
            let mut req = world.resource_mut::<DamageRequest>();
            req.amount -= (*n).min(req.amount);
            if req.amount <= 0 {
                req.consume(owner, false);
            }
        }
        ActionEffect::AddFact(who, fact, n) => {
            if let Some(e) = cx.get(*who).and_then(|p| p.entity)
                && let Some(now) = super::facts::value(world, e, fact)
            {
                super::facts::set_value(world, e, fact, now.saturating_add(*n));
            }
        }
        ActionEffect::SetFact(who, fact, n) => {
            if let Some(e) = cx.get(*who).and_then(|p| p.entity) {
                super::facts::set_value(world, e, fact, *n);
            }
        }
        ActionEffect::Remove(who) => {
            if let Some(e) = standing(world, cx, *who).and_then(|p| p.entity) {
                retract_piece(world, e);
            }
        }
        ActionEffect::Transform(who, kind) => {
            if let Some(p) = standing(world, cx, *who)
                && p.kind != *kind
            {
                let e = p.entity.expect("a standing piece is an entity");
                WorldWriter(world).change_type(e, Location::Board(p.square), *kind);
            }
        }
        ActionEffect::ChangeSide(who) => {
            if let Some(p) = standing(world, cx, *who) {
                let e = p.entity.expect("a standing piece is an entity");
                WorldWriter(world).change_owner(e, Location::Board(p.square), p.side.opponent());
            }
        }
        ActionEffect::Spawn(kind, place) => {
            let Some(m) = cx.mv else { return true };
            // A square the move gates a piece onto is the gated piece's.
            if let Some(sq) = place_of(cx, *place).filter(|&sq| m.gate.is_none_or(|g| g.square != sq)) {
                let _ = spawn_piece(world, *kind, mover, sq);
            }
        }
        // (Listing's effects are the query's, royalty a rule function's: see `forbid`,
        // `hooks_for` and `royalty_of`.)
        ActionEffect::Forbid | ActionEffect::AllowCheck | ActionEffect::Royal(_) => {}
        ActionEffect::ExtraMove => world.resource_mut::<PendingMove>().veto_turn_advance(owner),
        ActionEffect::Cancel(reason) => world.resource_mut::<PendingMove>().cancel(owner, reason.clone()),
        ActionEffect::Win(who, reason) | ActionEffect::Lose(who, reason) => {
            // (A mover that has left the board is still the side that moved; a victim, a hit
            // or an attached piece that is not there decides nothing.)
            let side = match cx.get(*who) {
                Some(p) => p.side,
                None if *who == Who::Mover => mover,
                None => return true,
            };
            let winner = if matches!(effect, ActionEffect::Win(..)) { side } else { side.opponent() };
            decide(&mut world.resource_mut::<DecidedOutcome>(), Outcome::win(winner, Reason::Rule(reason.clone())));
        }
        ActionEffect::Draw(reason) => decide(&mut world.resource_mut::<DecidedOutcome>(), Outcome::draw(Reason::Rule(reason.clone()))),
        ActionEffect::Note(text) => world.resource_mut::<PendingMove>().effects.push(text.clone()),
        ActionEffect::ToHand(who, camp) => {
            if let Some(p) = standing(world, cx, *who) {
                let e = p.entity.expect("a standing piece is an entity");
                let keep_promoted = world.resource::<Rules>().0.drops.as_ref().is_some_and(|d| d.keep_promoted);
                let mut w = WorldWriter(world);
                w.move_to(e, Location::Board(p.square), Location::Hand);
                w.change_owner(e, Location::Hand, cx.side(*camp));
                if let Some(base) = w.promoted_base(e) {
                    if !keep_promoted {
                        w.change_type(e, Location::Hand, base);
                    }
                    w.mark_promoted(e, None);
                }
            }
        }
        ActionEffect::FromHand(kind, place) => {
            let board = world.resource::<Board>();
            if let Some(sq) = place_of(cx, *place).filter(|&sq| board.cell(sq).is_empty())
                && let Some(e) = board.in_hand(mover, *kind)
            {
                WorldWriter(world).move_to(e, Location::Hand, Location::Board(sq));
            }
        }
        ActionEffect::SetState(key, n) => set_state(world, cx.owner, key, i64::from(*n)),
        ActionEffect::AddState(key, n) => {
            let now = world.get_resource::<PresetState>().and_then(|s| s.number(cx.owner, key)).unwrap_or(0);
            set_state(world, cx.owner, key, now.saturating_add(i64::from(*n)));
        }
    }
    true
}

/// Sets a state value (0 is kept as no value, so that a position reads the same either way).
fn set_state(world: &mut World, owner: &'static str, key: &str, v: i64) {
    super::set_preset_number(world, owner, key, (v != 0).then_some(v));
}

/// The square a place names, if the event has it.
fn place_of(cx: &Ctx, place: Place) -> Option<Square> {
    match place {
        Place::From => cx.mv.map(|m| m.from),
        Place::To => cx.mv.map(|m| m.to),
        Place::At(who) => cx.get(who).map(|p| p.square),
    }
}
