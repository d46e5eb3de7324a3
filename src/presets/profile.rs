//! A modifier profile in a game (it meets the presets here: hit points, the rules rebuilt
//! from both): binding per-instance entries to pieces, the table of resolved
//! modifiers, the layer, hooks and hashers the profile adds to the rules, the validator, and
//! swaps at the turn boundary.

use std::sync::Arc;

use bevy::prelude::*;

use super::Hp;
use crate::modifiers::{
    CANNOT_BE_CAPTURED, CANNOT_CAPTURE, Compiled, E_PROFILE_ATTR_LIMIT, E_PROFILE_DEADLOCK, E_PROFILE_INVULN_KING, E_PROFILE_NO_KING,
    E_PROFILE_ORPHAN_INSTANCE, MAX_ATTRIBUTES, Mods, Profile, ProfileProblem, compile, resolve,
};
use crate::rules::{
    ApplySystems, Atom, Board, DamageAdjusters, DamageRequest, Engine, ExtraHasher, GameState, GenContext, Homes, Hook, IntFact, LayerKind,
    Location, Move, MoveKind, MoveLayer, MoveQuery, MoveTable, Owner, PendingMove, Piece, PieceEvent, PieceSlot, PieceType, QuerySystems,
    Rules, RulesWorld, Side, Square, Step, Trial, UndoLog, Variant, walk_ray,
};

/// The remainder of resisted damage a piece carries to its next hit, in thousandths.
#[derive(Component, Copy, Clone, Debug, PartialEq, Eq)]
pub struct Carry(pub i32);

impl IntFact for Carry {
    fn value(&self) -> i32 {
        self.0
    }
    fn with_value(v: i32) -> Carry {
        Carry(v)
    }
}

/// Every piece's resolved modifiers, by mark (0: none, `i`: the `i`-th per-instance entry
/// kept), side and type, with the added directions compiled.
#[derive(Debug)]
pub struct Table {
    kinds: usize,
    mods: Vec<Mods>,
    added: Vec<Option<MoveTable>>,
    override_atoms: Vec<(&'static str, Vec<Atom>)>,
    /// Whether any piece's movement changes.
    pub moves: bool,
    /// Types whose per-type entries change movement, per side.
    pub moving_types: u64,
    /// Whether any piece has capture flags, extra hit points, resistance, promotion choices.
    pub capture_flags: bool,
    /// See [`Table::capture_flags`].
    pub hp: bool,
    /// See [`Table::capture_flags`].
    pub resistance: bool,
    /// See [`Table::capture_flags`].
    pub promotion: bool,
}

impl Table {
    fn build(compiled: &Compiled, variant: &Variant, layers: &[MoveLayer]) -> Table {
        let kinds = variant.registry.types.len();
        let marks = compiled.instances.len() + 1;
        let registry = crate::modifiers::ModifierRegistry::builtin();
        let mut mods = Vec::with_capacity(marks * 2 * kinds);
        let mut added = Vec::with_capacity(marks * 2 * kinds);
        let mut moving_types = 0u64;
        for mark in 0..marks {
            let instance = mark.checked_sub(1).map(|i| &compiled.instances[i].1);
            for side in Side::BOTH {
                for k in 0..kinds {
                    let kind = PieceType(k as u8);
                    let m = resolve(compiled, variant, &registry, kind, side, instance);
                    if mark == 0 && m.moves() {
                        moving_types |= 1 << k;
                    }
                    // The added atoms get the range bonus too.
                    let table = (!m.added.is_empty()).then(|| {
                        let def = variant.registry.def(kind);
                        let atoms: Vec<Atom> = m.added.iter().map(|a| lengthened(*a, m.range_bonus)).collect();
                        MoveTable::compile_with(variant.geometry, &atoms, &def.initial_ranks, false, &def.zones)
                    });
                    mods.push(m);
                    added.push(table);
                }
            }
        }
        let override_atoms = layers
            .iter()
            .filter(|l| l.kind == LayerKind::Override)
            .filter_map(|l| Some((l.owner, crate::rules::parse_betza(l.betza?).ok()?)))
            .collect();
        let any = |f: &dyn Fn(&Mods) -> bool| mods.iter().any(f);
        Table {
            kinds,
            moves: any(&|m| m.moves()),
            capture_flags: any(&|m| m.capture != 0),
            hp: any(&|m| m.hp_bonus != 0),
            resistance: any(&|m| m.resistance_milli() > 0),
            promotion: any(&|m| m.promotion.is_some()),
            mods,
            added,
            override_atoms,
            moving_types,
        }
    }

    #[inline]
    fn index(&self, kind: PieceType, side: Side, mark: u8) -> usize {
        (mark as usize * 2 + side.index()) * self.kinds + kind.0 as usize
    }

    /// The resolved modifiers of a piece of this type and side carrying `mark`.
    pub fn get(&self, kind: PieceType, side: Side, mark: u8) -> &Mods {
        let i = self.index(kind, side, mark);
        self.mods.get(i).unwrap_or_else(|| &self.mods[self.index(kind, side, 0)])
    }
}

/// A finite slide lengthened by `bonus` (leapers and unlimited riders unchanged).
fn lengthened(mut a: Atom, bonus: i32) -> Atom {
    if a.range >= 2 && !a.lame && !a.any_square {
        a.range = (i32::from(a.range) + bonus).clamp(1, 255) as u8;
    }
    a
}

/// The active profile of a game.
#[derive(Resource, Clone)]
pub struct ActiveProfile {
    /// The profile read against the variant.
    pub compiled: Arc<Compiled>,
    /// Every piece's resolved modifiers.
    pub table: Arc<Table>,
    /// The board's size (for square names).
    pub geometry: crate::rules::Geometry,
    /// The profile's term of the position hash, computed once when it is put in place.
    pub hash: u64,
}

impl ActiveProfile {
    /// A square's name on the game's board.
    pub fn square_name(&self, sq: Square) -> String {
        self.geometry.name(sq)
    }

    /// The resolved modifiers of the piece on `sq` of `board`, if one stands there.
    pub fn on(&self, board: &Board, sq: Square) -> Option<&Mods> {
        let c = board.cell(sq);
        c.is_piece().then(|| self.table.get(c.kind(), c.side(), board.mark(sq)))
    }
}

/// The profile the game started with (what a saved game replays from; swaps are noted on
/// the moves that applied them).
#[derive(Resource, Clone, Debug, Default)]
pub struct StartProfile(pub Option<Profile>);

/// The swaps applied so far: the number of the move (1 = the first) at whose turn boundary each
/// applied, and the profile it switched to (`None`: none). A saved game replays them.
#[derive(Resource, Clone, Debug, Default)]
pub struct SwapHistory(pub Vec<(usize, Option<Profile>)>);

/// A swap asked for and not yet applied: the profile to switch to (`None`: none).
#[derive(Resource, Clone, Debug, Default)]
pub struct PendingSwap(pub Option<Option<Profile>>);

/// The resolved modifiers of a piece entity, under the active profile.
pub fn resolved_of(world: &World, entity: Entity) -> Option<Mods> {
    let active = world.get_resource::<ActiveProfile>()?;
    let e = world.get_entity(entity).ok()?;
    let (kind, side) = (*e.get::<PieceType>()?, e.get::<Owner>()?.0);
    let mark = world.resource::<Board>().bound.iter().find(|(b, _)| *b == entity).map_or(0, |&(_, m)| m);
    Some(active.table.get(kind, side, mark).clone())
}

/// A piece's most hit points under the active profile: piece-hp's `hp` (or 1 without it) plus
/// its bonus.
pub fn profile_hp(world: &World, entity: Entity) -> i32 {
    let base = base_hp(world);
    base + resolved_of(world, entity).map_or(0, |m| m.hp_bonus)
}

fn base_hp(world: &World) -> i32 {
    world.get_resource::<super::ActivePresets>().and_then(super::starting_hp).unwrap_or(1)
}

fn piece_hp_active(world: &World) -> bool {
    world.get_resource::<super::ActivePresets>().and_then(super::starting_hp).is_some()
}

/// The per-instance bindings: each kept entry's piece (the one set up on its square, still in
/// play), with warnings for entries no such piece answers.
fn bindings(world: &mut World, compiled: &Compiled) -> (Vec<(Entity, u8)>, Vec<ProfileProblem>) {
    let homes: Vec<(Entity, Square, Location)> = world
        .get_resource::<Homes>()
        .map(|h| h.0.clone())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(e, sq)| Some((e, sq, *world.get::<Location>(e)?)))
        .collect();
    let g = world.resource::<Rules>().0.geometry;
    let mut bound = Vec::new();
    let mut warnings = Vec::new();
    for (i, (sq, _)) in compiled.instances.iter().enumerate() {
        match homes.iter().find(|(_, h, l)| h == sq && l.square().is_some()) {
            Some(&(e, _, _)) => bound.push((e, (i + 1) as u8)),
            None => warnings.push(ProfileProblem {
                code: E_PROFILE_ORPHAN_INSTANCE,
                warning: true,
                message: format!("instances.\"{}\": no piece of this game started there and is still on the board; dropped", g.name(*sq)),
            }),
        }
    }
    (bound, warnings)
}

/// Reads and checks `profile` for the game in `world` without changing it: every ADR-6 check is
/// run on a fork with the profile in place. `Ok` carries the warnings.
///
/// # Errors
/// Every problem found (warnings included), when one is an error.
pub fn validate_profile(world: &World, profile: &Profile) -> Result<Vec<ProfileProblem>, Vec<ProfileProblem>> {
    let variant = world.resource::<Rules>().0.clone();
    let compiled = compile(profile, &variant)?;
    // Its hit points carry `Hp`: a fact of that name the game declares would clash.
    let clash = compiled.gives_hp().then(|| {
        let set = world.get_resource::<super::ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
        let own = if set.iter().any(|a| a.id == super::ACTIONS.id) { variant.facts.clone() } else { Vec::new() };
        super::check_facts(&set, &own, true).err()
    });
    let mut fork = Engine::fork_of(world);
    let w = fork.world_mut();
    // The sides the variant gives a royal piece: those with one in its start position.
    let royal_sides: Vec<Side> = match crate::rules::parse_fen(&variant, &variant.start_fen) {
        Ok(setup) => {
            let mut cells = vec![crate::rules::Cell::EMPTY; variant.geometry.len()];
            for &(sq, kind, side) in &setup.pieces {
                cells[sq.index()] = crate::rules::Cell::piece(kind, side);
            }
            let fns = w.resource::<crate::rules::RuleFns>();
            Side::BOTH.into_iter().filter(|&s| !fns.royals(&variant, &cells, s).is_empty()).collect()
        }
        Err(_) => Vec::new(),
    };
    let mut problems = install(w, Some(compiled));
    let error = |code, message| ProfileProblem { code, warning: false, message };
    if let Some(Some(e)) = clash {
        problems.push(error("E_ACTION_FACT", e.to_string()));
    }
    let g = variant.geometry;
    let board = w.resource::<Board>().clone();
    let fns = w.resource::<crate::rules::RuleFns>().clone();
    let active = w.resource::<ActiveProfile>().clone();
    for side in royal_sides {
        let royals = fns.royals(&variant, &board.cells, side);
        if royals.is_empty() {
            problems.push(error(E_PROFILE_NO_KING, format!("{side} has no royal piece in this position")));
        }
        for r in royals {
            if active.on(&board, r).is_some_and(|m| m.capture & CANNOT_BE_CAPTURED != 0) {
                problems.push(error(E_PROFILE_INVULN_KING, format!("the royal piece on {} would be CANNOT_BE_CAPTURED", g.name(r))));
            }
        }
    }
    for (i, c) in board.cells.iter().enumerate() {
        if c.is_piece() {
            let n = active.table.get(c.kind(), c.side(), board.marks[i]).attributes();
            if n > MAX_ATTRIBUTES {
                let sq = g.name(Square(i as u8));
                problems
                    .push(error(E_PROFILE_ATTR_LIMIT, format!("the piece on {sq} would have {n} attributes; at most {MAX_ATTRIBUTES}")));
            }
        }
    }
    for side in Side::BOTH {
        for k in variant.registry.ids() {
            let n = active.table.get(k, side, 0).attributes();
            if n > MAX_ATTRIBUTES {
                let name = &variant.registry.def(k).name;
                problems.push(error(E_PROFILE_ATTR_LIMIT, format!("{side}'s {name}s would have {n} attributes; at most {MAX_ATTRIBUTES}")));
            }
        }
    }
    // Each side needs a legal move: the side to move as it stands, the other with the turn.
    let turn = w.resource::<GameState>().turn;
    if w.legal_moves().is_empty() {
        problems.push(error(E_PROFILE_DEADLOCK, format!("{turn}, to move, would have no legal move")));
    }
    {
        let mut state = w.resource_mut::<GameState>();
        state.turn = turn.opponent();
        state.ep_square = None;
        state.ep_victim = None;
    }
    w.resource_mut::<crate::rules::DecidedOutcome>().0 = None;
    if w.legal_moves().is_empty() {
        problems.push(error(E_PROFILE_DEADLOCK, format!("{} would have no legal move with the turn passed to it", turn.opponent())));
    }
    if problems.iter().any(|p| !p.warning) { Err(problems) } else { Ok(problems) }
}

/// Makes `profile` the game's active profile at once (at game start, or between games): checked
/// first; on any error nothing changes. Hit points of pieces with a bonus are set to their most.
///
/// # Errors
/// The problems, when one is an error.
pub fn apply_profile(world: &mut World, profile: Option<&Profile>) -> Result<Vec<ProfileProblem>, Vec<ProfileProblem>> {
    let Some(profile) = profile else {
        install(world, None);
        super::refresh_position_hash(world);
        world.insert_resource(StartProfile(None));
        world.insert_resource(SwapHistory::default());
        return Ok(Vec::new());
    };
    let warnings = validate_profile(world, profile)?;
    let variant = world.resource::<Rules>().0.clone();
    let compiled = compile(profile, &variant)?;
    install(world, Some(compiled));
    fill_hp(world, true);
    super::refresh_position_hash(world);
    world.insert_resource(StartProfile(Some(profile.clone())));
    world.insert_resource(SwapHistory::default());
    Ok(warnings)
}

/// Asks for a swap to `profile` (`None`: no profile) at the next turn boundary: checked now
/// against the position as it stands (a rejection changes nothing and says why), queued, and
/// checked again when it applies.
///
/// # Errors
/// The problems, when one is an error.
pub fn request_swap(world: &mut World, profile: Option<Profile>) -> Result<Vec<ProfileProblem>, Vec<ProfileProblem>> {
    let warnings = match &profile {
        Some(p) => validate_profile(world, p)?,
        None => Vec::new(),
    };
    world.insert_resource(PendingSwap(Some(profile)));
    super::reinstall_rules(world);
    super::refresh_position_hash(world);
    Ok(warnings)
}

/// Puts `compiled` (or no profile) in place: the bindings on the square index, the active
/// profile, and the rules rebuilt with its layer, hooks and hashers. Returns the binding warnings.
fn install(world: &mut World, compiled: Option<Compiled>) -> Vec<ProfileProblem> {
    let bound = compiled.as_ref().map(|c| bindings(world, c));
    match bound {
        Some((bound, mut warnings)) => {
            let mut compiled = compiled.expect("bound only with a profile");
            warnings.splice(0..0, std::mem::take(&mut compiled.warnings));
            install_bound(world, compiled, bound);
            warnings
        }
        None => {
            world.resource_mut::<Board>().bind(Vec::new());
            world.remove_resource::<ActiveProfile>();
            super::reinstall_rules(world);
            Vec::new()
        }
    }
}

/// Puts `compiled` in place with these pieces marked. A mark is the entry's place in the
/// profile's per-instance list (plus one), whichever entries are bound, so that the same piece
/// with the same entry hashes the same however the game reached it.
fn install_bound(world: &mut World, compiled: Compiled, bound: Vec<(Entity, u8)>) {
    {
        let variant = world.resource::<Rules>().0.clone();
        let presets = world.get_resource::<super::ActivePresets>().map(|a| a.0.clone()).unwrap_or_default();
        let layers = super::rule_fns_of(&presets, &variant).layers;
        let table = Table::build(&compiled, &variant, &layers);
        world.resource_mut::<Board>().bind(bound);
        let hash = crate::rules::mix(super::hash_bytes(compiled.profile.to_ron().as_bytes()));
        world.insert_resource(ActiveProfile { compiled: Arc::new(compiled), table: Arc::new(table), geometry: variant.geometry, hash });
    }
    super::reinstall_rules(world);
}

/// Chimera's FEN sections for a profile game: which piece carries which per-instance entry
/// (`bound=f3:g1`: the piece on f3 has the entry of g1) and carried damage (`Carry=d4:500`).
fn write_fen(world: &mut World) -> Vec<String> {
    let Some(active) = world.get_resource::<ActiveProfile>() else { return Vec::new() };
    let board = world.resource::<Board>();
    let g = board.geometry;
    let mut out = Vec::new();
    let bound: Vec<String> = (0..board.marks.len())
        .filter(|&i| board.marks[i] != 0)
        .filter_map(|i| {
            let key = active.compiled.instances.get(board.marks[i] as usize - 1)?.0;
            Some(format!("{}:{}", g.name(Square(i as u8)), g.name(key)))
        })
        .collect();
    if !bound.is_empty() {
        out.push(format!("bound={}", bound.join(",")));
    }
    let carried: Vec<String> = (0..board.entities.len())
        .filter_map(|i| {
            let c = world.get::<Carry>(board.entities[i]?)?.0;
            (c != 0).then(|| format!("{}:{c}", g.name(Square(i as u8))))
        })
        .collect();
    if !carried.is_empty() {
        out.push(format!("Carry={}", carried.join(",")));
    }
    out
}

/// Reads one of the profile's FEN sections ([`write_fen`]) into a game just set up with its
/// profile. Returns false for a section that is not the profile's.
///
/// # Errors
/// No active profile, a square without a piece, an entry the profile does not have, a value
/// that is not a number.
pub fn read_fen_section(world: &mut World, name: &str, body: &str) -> Result<bool, String> {
    if name != "bound" && name != "Carry" {
        return Ok(false);
    }
    let Some(active) = world.get_resource::<ActiveProfile>().cloned() else {
        return Err(format!("trailing field: '{name}' needs a modifier profile, and this game has none"));
    };
    let g = world.resource::<Rules>().0.geometry;
    let mut pairs = Vec::new();
    for item in body.split(',').filter(|v| !v.is_empty()) {
        let (sq, value) = item.rsplit_once(':').ok_or_else(|| format!("trailing field: '{item}' in {name} is not square:value"))?;
        let square = g.parse_square(sq).ok_or_else(|| format!("trailing field: '{sq}' is not a square of this board"))?;
        let e = world.resource::<Board>().entity(square).ok_or_else(|| format!("trailing field: no piece on {sq} for {name}"))?;
        pairs.push((e, value.to_string()));
    }
    if name == "Carry" {
        for (e, value) in pairs {
            let v: i32 = value
                .parse()
                .ok()
                .filter(|v| (0..1000).contains(v))
                .ok_or_else(|| format!("trailing field: Carry '{value}' is not 0 to 999"))?;
            world.entity_mut(e).insert(Carry(v));
        }
        return Ok(true);
    }
    let compiled = (*active.compiled).clone();
    let mut bound = Vec::new();
    for (e, key) in pairs {
        let i = g
            .parse_square(&key)
            .and_then(|k| compiled.instances.iter().position(|(s, _)| *s == k))
            .ok_or_else(|| format!("trailing field: the profile has no per-instance entry '{key}'"))?;
        bound.push((e, (i + 1) as u8));
    }
    install_bound(world, compiled, bound);
    Ok(true)
}

/// Binds the active profile again after a new position was set up (its pieces are new): the
/// per-instance entries to the pieces now on their squares, hit points full; a queued swap is
/// dropped.
pub fn restart(world: &mut World) {
    world.remove_resource::<PendingSwap>();
    let Some(active) = world.get_resource::<ActiveProfile>().cloned() else { return };
    let variant = world.resource::<Rules>().0.clone();
    if let Ok(compiled) = compile(&active.compiled.profile, &variant) {
        install(world, Some(compiled));
        fill_hp(world, true);
        super::refresh_position_hash(world);
    }
}

/// Gives pieces with extra hit points their hit points: all of them (`fresh`, at game start), or
/// no more than before (a swap: the most is recomputed, the current value never grows).
fn fill_hp(world: &mut World, fresh: bool) {
    let with_hp = piece_hp_active(world);
    let bonuses = world.get_resource::<ActiveProfile>().is_some_and(|a| a.table.hp);
    // Without piece-hp only pieces with a bonus have hit points; after a swap under piece-hp
    // every piece's most may have dropped; a swap to a profile without bonuses (and no
    // piece-hp) takes the hit points away.
    if !bonuses && !with_hp {
        if !fresh {
            let had: Vec<(Entity, i32)> = world.query::<(Entity, &Hp)>().iter(world).map(|(e, h)| (e, h.0)).collect();
            for (e, old) in had {
                world.resource_mut::<UndoLog>().record_fact::<Hp>(e, Some(old));
                world.entity_mut(e).remove::<Hp>();
            }
        }
        return;
    }
    if !bonuses && fresh {
        return;
    }
    let pieces: Vec<(Entity, Option<i32>)> = world
        .query_filtered::<(Entity, &Location, Option<&Hp>), With<Piece>>()
        .iter(world)
        .filter(|(_, l, _)| l.square().is_some())
        .map(|(e, _, h)| (e, h.map(|h| h.0)))
        .collect();
    for (e, now) in pieces {
        let most = profile_hp(world, e);
        let bonus = resolved_of(world, e).is_some_and(|m| m.hp_bonus != 0);
        let value = match (fresh, now) {
            (true, _) if bonus || with_hp => most,
            (false, Some(now)) => now.min(most),
            _ => continue,
        };
        if now != Some(value) {
            world.resource_mut::<UndoLog>().record_fact::<Hp>(e, now);
            world.entity_mut(e).insert(Hp(value));
        }
    }
}

/// What the profile adds to the rules (called by the presets module whenever it installs
/// them): its movement layer, promotion choices, damage adjuster, hashers and fork copier.
pub(crate) fn contribute(world: &mut World) {
    let active = world.get_resource::<ActiveProfile>().cloned();
    let pending = world.get_resource::<PendingSwap>().is_some_and(|p| p.0.is_some());
    let mut extras: Vec<ExtraHasher> = Vec::new();
    if active.is_some() || pending {
        extras.push(hash_profile);
    }
    let mut adjusters = Vec::new();
    if let Some(active) = &active {
        let table = active.table.clone();
        let mut fns = world.resource::<crate::rules::RuleFns>().clone();
        if table.moves {
            let t = table.clone();
            fns.layers.push(MoveLayer {
                owner: "profile",
                kind: LayerKind::Profile,
                sides: [true, true],
                types: table.moving_types,
                marked: !active.compiled.instances.is_empty(),
                betza: None,
                run: Arc::new(move |ctx, slot, own| {
                    wrap(&t, ctx, slot, own);
                    false
                }),
            });
        }
        if table.promotion {
            let t = table.clone();
            fns.promotion = Some(Arc::new(move |kind, side, mark| t.get(kind, side, mark).promotion.clone()));
        }
        world.insert_resource(fns);
        if table.resistance {
            adjusters.push(resist as fn(&mut World, &mut DamageRequest));
            extras.push(super::hash_fact::<Carry>);
        }
        if table.hp && !piece_hp_active(world) {
            extras.push(super::hash_fact::<Hp>);
        }
    }
    world.resource_mut::<crate::rules::HashExtras>().0.extend(extras);
    if active.is_some() {
        world.resource_mut::<crate::rules::FenExtras>().0.push(write_fen);
    }
    world.insert_resource(DamageAdjusters(adjusters));
    world.resource_mut::<crate::rules::ForkCopiers>().0.push(fork_profile);
}

/// The profile's hook systems.
pub(crate) fn hooks(world: &World) -> Vec<Hook> {
    let mut hooks = Vec::new();
    if let Some(active) = world.get_resource::<ActiveProfile>() {
        let t = &active.table;
        if t.capture_flags {
            hooks.push(Hook::new("profile", QuerySystems::PieceFilter, capture_filter).scoped([true, true]));
        }
        if t.hp || t.resistance {
            hooks.push(Hook::new("profile", Step::Damage, absorb).scoped([true, true]));
        }
        if t.hp {
            hooks.push(Hook::new("profile", Step::Spawn, hp_on_spawn).scoped([true, true]));
        }
        hooks.push(Hook::new("profile", Step::Retract, on_retract).scoped([true, true]));
    }
    if world.get_resource::<PendingSwap>().is_some_and(|p| p.0.is_some()) {
        hooks.push(Hook::new("profile", ApplySystems::AfterMove, swap_at_boundary));
    }
    hooks
}

/// The profile layer: the piece's finite slides lengthened, its added directions, its
/// captures dropped when it cannot capture; each move once.
fn wrap(t: &Table, ctx: &GenContext, slot: &PieceSlot, own: &mut Vec<Move>) {
    let m = t.get(slot.kind, slot.side, slot.mark);
    let before = own.len();
    if m.range_bonus > 0 {
        let atoms: Option<&[Atom]> = match slot.overridden_by {
            Some(owner) => t.override_atoms.iter().find(|(o, _)| *o == owner).map(|(_, a)| a.as_slice()),
            None => Some(&ctx.registry.def(slot.kind).atoms),
        };
        if let Some(atoms) = atoms {
            extend_slides(ctx, slot, atoms, m.range_bonus, own);
        }
    }
    if let Some(table) = &t.added[t.index(slot.kind, slot.side, slot.mark)] {
        for ray in table.rays(ctx.geometry.len(), slot.side, slot.square) {
            walk_ray(table, ray, ctx.cells, slot.side, |to, capture, _| {
                own.push(Move { from: slot.square, to, kind: MoveKind::Normal, capture, promotion: None, gate: None, wall: None });
            });
        }
    }
    if own.len() > before {
        // Union: a move the chain already has is not added again.
        let mut i = before;
        while i < own.len() {
            let mv = own[i];
            if own[..i].iter().any(|x| x.to == mv.to && x.capture == mv.capture && x.promotion.is_none() && x.kind == mv.kind) {
                own.remove(i);
            } else {
                i += 1;
            }
        }
    }
    if m.capture & CANNOT_CAPTURE != 0 {
        own.retain(|mv| !mv.capture);
    }
}

/// The squares beyond each finite slide of `atoms` (a slide of range ≥ 2, or a lame leap along
/// one line), up to `bonus` further, through empty squares.
fn extend_slides(ctx: &GenContext, slot: &PieceSlot, atoms: &[Atom], bonus: i32, out: &mut Vec<Move>) {
    let g = ctx.geometry;
    let def = ctx.registry.def(slot.kind);
    let rel = g.relative_rank(slot.square, slot.side);
    let inside = |sq: Square| def.zones.confinement.as_ref().is_none_or(|c| c[slot.side.index()].contains(sq));
    let (f, r) = (g.file(slot.square) as i32, g.rank(slot.square) as i32);
    for a in atoms {
        if a.any_square || a.hop != crate::rules::Hop::None || (a.initial && !def.initial_ranks.contains(&rel)) {
            continue;
        }
        let (dx, dy) = a.oriented(slot.side);
        let (ux, uy, len) = if a.lame {
            let k = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i32;
            if k < 2 {
                continue;
            }
            (dx / k, dy / k, k)
        } else if a.range >= 2 {
            (dx, dy, i32::from(a.range))
        } else {
            continue;
        };
        for k in 1..=len + bonus {
            let Some(sq) = g.square(f + ux * k, r + uy * k).filter(|&s| inside(s)) else { break };
            let c = ctx.cells[sq.index()];
            if k <= len {
                if !c.is_empty() {
                    break;
                }
                continue;
            }
            if c.is_empty() {
                if a.mode.moves() {
                    out.push(Move {
                        from: slot.square,
                        to: sq,
                        kind: MoveKind::Normal,
                        capture: false,
                        promotion: None,
                        gate: None,
                        wall: None,
                    });
                }
                continue;
            }
            if c.is_piece() && c.side() != slot.side && a.mode.captures() {
                out.push(Move {
                    from: slot.square,
                    to: sq,
                    kind: MoveKind::Normal,
                    capture: true,
                    promotion: None,
                    gate: None,
                    wall: None,
                });
            }
            break;
        }
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Step 2.5: no capture by a piece that cannot capture (en passant included), none of a piece
/// that cannot be captured.
fn capture_filter(mut q: ResMut<MoveQuery>, board: Res<Board>, active: Res<ActiveProfile>) {
    q.moves.retain(|m| {
        if !m.capture {
            return true;
        }
        let victim = m.victim_square();
        let flags = |sq: Square| active.on(&board, sq).map_or(0, |x| x.capture);
        m.dropped().is_some() || (flags(m.from) & CANNOT_CAPTURE == 0 && flags(victim) & CANNOT_BE_CAPTURED == 0)
    });
}

/// Damage: a piece with hit points (a bonus, without piece-hp) absorbs the hit as piece-hp does.
fn absorb(mut req: ResMut<DamageRequest>, mut hp: Query<&mut Hp>, mut undo: ResMut<UndoLog>) {
    if req.consumed_by.is_none() {
        super::take_hit("profile", &mut req, &mut hp, &mut undo);
    }
}

/// Damage resistance, before any damage hook: a hit of n deals floor(n·(1−r) + carry).
fn resist(world: &mut World, req: &mut DamageRequest) {
    let Some(target) = req.target else { return };
    let Some(m) = resolved_of(world, target) else { return };
    let r = m.resistance_milli();
    if r == 0 {
        return;
    }
    let carry = world.get::<Carry>(target).map(|c| c.0);
    let total = req.amount * (1000 - r) + carry.unwrap_or(0);
    req.amount = total / 1000;
    let left = total % 1000;
    if carry != Some(left) {
        world.resource_mut::<UndoLog>().record_fact::<Carry>(target, carry);
        world.entity_mut(target).insert(Carry(left));
    }
}

/// A piece that appears mid-game gets its type's extra hit points.
fn hp_on_spawn(world: &mut World) {
    let Some(e) = world.get_resource::<PieceEvent>().map(|p| p.entity) else { return };
    if resolved_of(world, e).is_some_and(|m| m.hp_bonus != 0) || piece_hp_active(world) {
        let most = profile_hp(world, e);
        world.entity_mut(e).insert(Hp(most));
    }
}

/// A piece that leaves the board loses its per-instance entry (it ends with the capture) and,
/// with extra hit points, comes back fresh by its type's entry.
fn on_retract(world: &mut World) {
    let Some(e) = world.get_resource::<PieceEvent>().map(|p| p.entity) else { return };
    let bound = world.resource::<Board>().bound.clone();
    if bound.iter().any(|(b, _)| *b == e) {
        let old = bound.clone();
        world.resource_mut::<UndoLog>().record_restore(move |w| w.resource_mut::<Board>().bound = old.clone());
        world.resource_mut::<Board>().bound.retain(|(b, _)| *b != e);
    }
    if world.get_resource::<ActiveProfile>().is_some_and(|a| a.table.hp)
        && let Some(now) = world.get::<Hp>(e).map(|h| h.0)
    {
        let most = profile_hp(world, e);
        if now != most {
            world.resource_mut::<UndoLog>().record_fact::<Hp>(e, Some(now));
            world.entity_mut(e).insert(Hp(most));
        }
    }
}

/// After-move of a move that passed the turn: a queued swap applies (checked again on the
/// position as it now is), is noted on the move's record, and is taken back with the move.
fn swap_at_boundary(world: &mut World) {
    if world.get_resource::<Trial>().is_some_and(|t| t.0) || !world.resource::<PendingMove>().turn_advanced {
        return;
    }
    let Some(next) = world.get_resource::<PendingSwap>().and_then(|p| p.0.clone()) else { return };
    let verdict = match &next {
        Some(p) => validate_profile(world, p).map(|_| ()),
        None => Ok(()),
    };
    let old_active = world.get_resource::<ActiveProfile>().cloned();
    let old_bound = world.resource::<Board>().bound.clone();
    let old_history = world.get_resource::<SwapHistory>().cloned().unwrap_or_default();
    world.resource_mut::<UndoLog>().record_restore(move |w| {
        w.insert_resource(old_history.clone());
        w.insert_resource(PendingSwap(Some(next.clone())));
        match &old_active {
            Some(a) => w.insert_resource(a.clone()),
            None => {
                w.remove_resource::<ActiveProfile>();
            }
        }
        w.resource_mut::<Board>().bind(old_bound.clone());
        super::reinstall_rules(w);
    });
    let next = world.resource_mut::<PendingSwap>().0.take().flatten();
    let note = match verdict {
        Err(problems) => {
            super::reinstall_rules(world);
            format!("profile swap rejected: {}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))
        }
        Ok(()) => {
            let variant = world.resource::<Rules>().0.clone();
            let name = next.as_ref().map_or("none".to_string(), |p| p.name.clone().unwrap_or_else(|| p.id.clone()));
            let next_profile = next.clone();
            match next.map(|p| compile(&p, &variant)) {
                Some(Ok(compiled)) => {
                    install(world, Some(compiled));
                }
                Some(Err(_)) => {}
                None => {
                    install(world, None);
                }
            }
            fill_hp(world, false);
            // This move's record is written after this step: it is the next one.
            let ply = world.resource::<crate::rules::MoveLog>().0.len() + 1;
            world.get_resource_or_insert_with(SwapHistory::default).0.push((ply, next_profile));
            format!("profile: {name}")
        }
    };
    let mut pending = world.resource_mut::<PendingMove>();
    pending.effects.push(note);
    pending.rebuild_pipelines = true;
}

/// The active profile and a queued swap, as a position-hash term.
fn hash_profile(world: &mut World) -> u64 {
    let mut h = 0x9F0F_11E5u64;
    if let Some(a) = world.get_resource::<ActiveProfile>() {
        h ^= a.hash;
    }
    // A queued swap is rare and short-lived: its text is hashed when asked.
    if let Some(Some(next)) = world.get_resource::<PendingSwap>().map(|p| &p.0) {
        h ^= crate::rules::mix(super::hash_bytes(next.as_ref().map_or(String::new(), Profile::to_ron).as_bytes()) ^ 0x5A5A);
    }
    h
}

/// Copies the profile into a fork (the square index already carries the marks).
fn fork_profile(src: &World, dst: &mut World, map: &crate::rules::EntityMap) {
    if let Some(s) = src.get_resource::<StartProfile>() {
        dst.insert_resource(s.clone());
    }
    if let Some(s) = src.get_resource::<SwapHistory>() {
        dst.insert_resource(s.clone());
    }
    if let Some(a) = src.get_resource::<ActiveProfile>() {
        dst.insert_resource(a.clone());
    }
    if let Some(p) = src.get_resource::<PendingSwap>() {
        dst.insert_resource(p.clone());
    }
    if let Some(a) = src.get_resource::<DamageAdjusters>() {
        dst.insert_resource(a.clone());
    }
    if let Some(mut carries) = src.try_query::<(Entity, &Carry)>() {
        for (e, c) in carries.iter(src) {
            if let Some(&to) = map.get(&e) {
                dst.entity_mut(to).insert(*c);
            }
        }
    }
}
