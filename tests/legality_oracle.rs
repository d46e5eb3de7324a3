//! A legality oracle: in random reachable positions of chess, crazyhouse, atomic, capablanca
//! and xiangqi, with no preset, every preset alone and a few combinations, the legal moves must
//! equal a brute-force set written here once: every generated move (steps 1 to 2.5) that,
//! applied through the full move application, leaves no royal piece of the mover (as the
//! royalty step names them on the new position) capturable by one of the opponent's
//! pseudo-legal replies (steps 2.1 to 2.5 for the opponent; no self-check filter, no whole-list
//! filter, a decided outcome ignored). Castling also needs the squares the king leaves and
//! crosses safe. The variant's own rules are each written here once: generals may not face each
//! other (Xiangqi), kings that touch cannot be taken and blowing up the enemy king is always
//! legal (Atomic). Under hit points check is not enforced: every generated move is legal. The
//! whole-list filters of presets (suicide chess' compulsory capture, the berserker's extra
//! capture) are applied to both sets. Apply and undo must restore every component and resource
//! the rules register, and the hash; a legal-move query must queue no effect. Seeded, so a
//! failure replays: the message names the seed, the variant, the presets and the moves. The
//! seeds move with the commit (`CHIMERA_ORACLE_SEED` replays a run; see `common::seed`).

use crate::common;
use bevy::prelude::*;
use chimera::presets::{Activation, ActivePresets, PresetState, set_active_presets, validate};
use chimera::rules::{
    Board, DecidedOutcome, Engine, GameState, History, Hook, Move, MoveKind, MoveLog, MoveQuery, QuerySystems, RuleFns, RulesWorld, Side,
    Square, UndoLog, Variant, position_hash, subscribe_effects, take_effects,
};
use chimera::variants::builtin;

/// The moves of the side to move after step 2.5, copied by a hook placed last in that step.
#[derive(Resource, Default)]
struct Generated(Vec<Move>);

fn record_generated() -> Hook {
    Hook::new("oracle", QuerySystems::PieceFilter, |q: Res<MoveQuery>, mut g: ResMut<Generated>| g.0 = q.moves.clone())
}

/// A small seeded generator (xorshift64*), so that failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n.max(1)
    }
}

/// The generated moves of `side` in the current position, whoever is to move, ignoring a
/// decided outcome.
fn generated(world: &mut World, side: Side) -> Vec<Move> {
    let (turn, decided) = (world.resource::<GameState>().turn, world.resource::<DecidedOutcome>().0.clone());
    world.resource_mut::<GameState>().turn = side;
    world.resource_mut::<DecidedOutcome>().0 = None;
    chimera::rules::run_pipeline(world, chimera::rules::Pipeline::Query);
    let moves = std::mem::take(&mut world.resource_mut::<Generated>().0);
    world.resource_mut::<GameState>().turn = turn;
    world.resource_mut::<DecidedOutcome>().0 = decided;
    moves
}

/// Whether a royal piece of `side` can be taken by a pseudo-legal reply in the current position.
fn royal_capturable(world: &mut World, side: Side) -> bool {
    let variant = world.resource::<chimera::rules::Rules>().0.clone();
    let cells = world.resource::<Board>().cells.clone();
    let royals = world.resource::<RuleFns>().royals(&variant, &cells, side);
    let enemy_royals = world.resource::<RuleFns>().royals(&variant, &cells, side.opponent());
    let g = variant.geometry;
    let touching = |r: Square| {
        variant.blast.is_some()
            && enemy_royals
                .iter()
                .any(|&o| (g.file(r) as i32 - g.file(o) as i32).abs() <= 1 && (g.rank(r) as i32 - g.rank(o) as i32).abs() <= 1)
    };
    let replies = generated(world, side.opponent());
    let taken = |r: Square| replies.iter().any(|m| m.capture && (m.to == r || m.kind == MoveKind::EnPassant(r)));
    // Generals facing each other on an open file (Xiangqi's flying general).
    let facing = variant.switches.flying_general
        && royals.iter().any(|&r| {
            [1i32, -1].into_iter().any(|dir| {
                let mut k = 1;
                while let Some(s) = g.square(g.file(r) as i32, g.rank(r) as i32 + dir * k) {
                    if !cells[s.index()].is_empty() {
                        return enemy_royals.contains(&s);
                    }
                    k += 1;
                }
                false
            })
        });
    facing || royals.iter().any(|&r| !touching(r) && taken(r))
}

/// Whether `m` by `side` is safe by the brute-force definition; `None` when a hook cancelled it.
fn safe_by_application(world: &mut World, m: Move, side: Side) -> Option<bool> {
    let variant = world.resource::<chimera::rules::Rules>().0.clone();
    let board = world.resource::<Board>();
    let royal_pieces: Vec<Entity> =
        world.resource::<RuleFns>().royals(&variant, &board.cells, side).iter().filter_map(|&r| board.entity(r)).collect();
    // Blowing up the opponent's last royal piece wins whatever else holds; an opponent with
    // none before the move (two kings under weak-dual-king, its royal knights all blown up
    // under knightmate rules while its king lives on) had nothing to blow up.
    let theirs_before = !world.resource::<RuleFns>().royals(&variant, &board.cells, side.opponent()).is_empty();
    world.apply_unchecked(m).ok()?;
    let cells = world.resource::<Board>().cells.clone();
    let fns = world.resource::<RuleFns>().clone();
    let mine = fns.royals(&variant, &cells, side);
    let theirs = fns.royals(&variant, &cells, side.opponent());
    // A royal piece of the mover that left the board (blown up in its own blast), with none left.
    let lost = royal_pieces.iter().any(|&e| world.get::<chimera::rules::Location>(e).and_then(|l| l.square()).is_none());
    let safe = if lost && mine.is_empty() {
        false
    } else if variant.blast.is_some() && theirs_before && theirs.is_empty() && !mine.is_empty() {
        true
    } else {
        !royal_capturable(world, side)
    };
    world.undo_move();
    Some(safe)
}

/// Everything the rules keep about a position, for comparing before and after apply + undo.
fn snapshot(world: &mut World) -> String {
    let mut pieces: Vec<String> = world
        .query::<(
            Entity,
            &chimera::rules::PieceType,
            &chimera::rules::Owner,
            &chimera::rules::Location,
            &chimera::rules::Promoted,
            Option<&chimera::presets::Hp>,
            Option<&chimera::presets::Shield>,
            Option<&chimera::presets::Stamina>,
            Option<&chimera::presets::Crowned>,
            Option<&chimera::presets::Carry>,
            (
                Option<&chimera::presets::DataFact<0>>,
                Option<&chimera::presets::DataFact<1>>,
                Option<&chimera::presets::DataFact<2>>,
                Option<&chimera::presets::DataFact<3>>,
            ),
        )>()
        .iter(world)
        .map(|x| format!("{x:?}"))
        .collect();
    pieces.sort();
    let hash = position_hash(world);
    let profile = world.get_resource::<chimera::presets::ActiveProfile>().map(|a| a.compiled.profile.to_ron());
    let swap = world.get_resource::<chimera::presets::PendingSwap>().map(|p| format!("{:?}", p.0));
    format!(
        "{pieces:?}\n{profile:?} {swap:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{hash}",
        world.resource::<Board>(),
        world.resource::<GameState>(),
        world.resource::<DecidedOutcome>(),
        world.resource::<History>(),
        world.resource::<MoveLog>(),
        world.get_resource::<PresetState>(),
        world.get_resource::<ActivePresets>(),
        (world.resource::<UndoLog>().entries.len(), world.resource::<UndoLog>().changes.len()),
    )
}

/// Types the rules register that [`snapshot`] need not compare: markers, the working state of
/// one query or application, and derived or fixed data.
const NOT_POSITION: &[&str] = &[
    "FenExtras",
    "ForkCopiers",
    "Piece",
    "MoveQuery",
    "PendingMove",
    "DamageRequest",
    "PieceEvent",
    "Rules",
    "Trial",
    "AppliedTrials",
    "Hooks",
    "RuleFns",
    "HashExtras",
    "Pipelines",
    "Homes",
    "DamageAdjusters",
    "StartProfile",
    "SwapHistory",
    // The presets a game was set up with (timed ones in full) and the flag set while a position
    // is set up after one ran out: configuration, never changed by a move.
    "ConfiguredPresets",
    "RulesRanOut",
    // Which slot holds which declared fact: set when the presets are installed, never by a
    // move (the facts' values, `DataFact<I>`, are in the snapshot).
    "FactSlots",
];
/// Types [`snapshot`] compares.
const IN_SNAPSHOT: &[&str] = &[
    "PieceType",
    "Owner",
    "Location",
    "Promoted",
    "Hp",
    "Shield",
    "Stamina",
    "Crowned",
    "Board",
    "GameState",
    "DecidedOutcome",
    "History",
    "MoveLog",
    "PresetState",
    "ActivePresets",
    "UndoLog",
    "Carry",
    "ActiveProfile",
    "PendingSwap",
];

/// Every type of this crate registered in the world is either compared or known not to be
/// part of the position.
fn every_registered_type_is_snapshotted(world: &World) {
    for info in world.components().iter_registered() {
        let name = format!("{}", info.name());
        if !name.starts_with("chimera::") || name.contains('<') {
            continue;
        }
        let short = name.rsplit("::").next().unwrap_or(&name).to_string();
        assert!(
            IN_SNAPSHOT.contains(&short.as_str()) || NOT_POSITION.contains(&short.as_str()),
            "{name} is registered by the rules but neither in the snapshot nor declared not to be part of the position"
        );
    }
}

/// The whole-list filters of the active presets, written here once.
fn preset_filters(world: &World, moves: Vec<Move>) -> Vec<Move> {
    let active: Vec<&str> = world.get_resource::<ActivePresets>().map(|a| a.0.iter().map(|x| x.id).collect()).unwrap_or_default();
    let mut moves = moves;
    // (A data preset filters the whole list as its Rust oracle does: the same rule, here.)
    if (active.contains(&"suicide-chess") || active.contains(&"suicide-chess-data")) && moves.iter().any(|m| m.capture) {
        moves.retain(|m| m.capture);
    }
    if active.contains(&"knight-immunity-data") {
        let variant = world.resource::<chimera::rules::Rules>().0.clone();
        let knight = variant.registry.by_name("knight");
        let board = world.resource::<Board>();
        moves.retain(|m| !(m.capture && board.cell(m.victim_square()).is_piece() && Some(board.cell(m.victim_square()).kind()) == knight));
    }
    if active.contains(&"stamina-data") {
        let variant = world.resource::<chimera::rules::Rules>().0.clone();
        let board = world.resource::<Board>();
        moves.retain(|m| {
            m.dropped().is_some()
                || variant.registry.def(board.cell(m.from).kind()).royal
                || board.entity(m.from).and_then(|e| declared_fact(world, e, "Stamina")).is_none_or(|s| s >= 2)
        });
    }
    if let Some(sq) = world.get_resource::<PresetState>().and_then(|s| s.piece("berserker", "raging-on")) {
        moves.retain(|m| m.capture && m.from == sq);
    }
    // A tired piece (stamina below a move's cost) has no legal move; kings never tire.
    if let Some(stamina) = world.get_resource::<ActivePresets>().and_then(|a| a.0.iter().find(|x| x.id == "stamina")).map(|a| a.scope)
        && stamina.covers(world.resource::<GameState>().turn)
    {
        let variant = world.resource::<chimera::rules::Rules>().0.clone();
        let board = world.resource::<Board>();
        moves.retain(|m| {
            m.dropped().is_some()
                || variant.registry.def(board.cell(m.from).kind()).royal
                || board.entity(m.from).and_then(|e| world.get::<chimera::presets::Stamina>(e)).is_none_or(|s| s.0 >= 2)
        });
    }
    moves
}

/// A declared fact's value on a piece, read from its slot.
fn declared_fact(world: &World, e: Entity, name: &str) -> Option<i32> {
    let slot = world.get_resource::<chimera::presets::FactSlots>()?.0.iter().position(|d| d.name == name)?;
    match slot {
        0 => world.get::<chimera::presets::DataFact<0>>(e).map(|f| f.0),
        1 => world.get::<chimera::presets::DataFact<1>>(e).map(|f| f.0),
        2 => world.get::<chimera::presets::DataFact<2>>(e).map(|f| f.0),
        _ => world.get::<chimera::presets::DataFact<3>>(e).map(|f| f.0),
    }
}

/// Checks one position; returns how many moves were compared.
fn check_position(e: &mut Engine, context: &str) -> usize {
    let world = e.world_mut();
    let side = world.resource::<GameState>().turn;
    let before = snapshot(world);
    let hash = position_hash(world);
    let legal = world.legal_moves().to_vec();
    assert!(take_effects(world).is_empty(), "{context}: a legal-move query queued effects");
    // Hit points lift the check rule: the Rust preset, and a data preset that says so.
    let lifts = |id: &str| {
        id == "piece-hp"
            || chimera::presets::data::by_id(id)
                .is_some_and(|d| d.file.actions.iter().any(|a| a.then.contains(&chimera::presets::action_spec::EffectSpec::AllowCheck)))
    };
    let enforced = !world.resource::<ActivePresets>().0.iter().any(|a| lifts(a.id));
    let pseudo = generated(world, side);
    let mut expected = Vec::new();
    let mut unknown = Vec::new();
    for &m in &pseudo {
        if !enforced {
            expected.push(m);
            continue;
        }
        let mut safe = safe_by_application(world, m, side);
        if let (Some(true), MoveKind::Castle(_)) = (safe, m.kind) {
            // The king may not castle out of or through check.
            let variant = world.resource::<chimera::rules::Rules>().0.clone();
            let rule = variant.castling.clone().expect("castling rule");
            let g = variant.geometry;
            let wing = match m.kind {
                MoveKind::Castle(w) => w,
                _ => unreachable!(),
            };
            let dest = rule.king_files[wing.index()];
            let (a, b) = (g.file(m.from).min(dest), g.file(m.from).max(dest));
            let rank = g.rank(m.from);
            for f in a..=b {
                let s = Square(rank * g.files + f);
                let ok = if s == m.from {
                    !royal_capturable(world, side)
                } else if s == m.to || !world.resource::<Board>().cell(s).is_empty() {
                    true
                } else {
                    safe_by_application(world, Move::normal(m.from, s, false), side).unwrap_or(true)
                };
                if !ok {
                    safe = Some(false);
                }
            }
        }
        match safe {
            Some(true) => expected.push(m),
            Some(false) => {}
            None => unknown.push(m),
        }
    }
    // A decided game has no legal moves.
    let expected = if world.resource::<DecidedOutcome>().0.is_some() { Vec::new() } else { preset_filters(world, expected) };
    let mut got: Vec<Move> = legal.into_iter().filter(|m| !unknown.contains(m)).collect();
    let mut want = expected;
    let key = |m: &Move| format!("{m:?}");
    got.sort_by_key(key);
    want.sort_by_key(key);
    if got != want {
        let uci = |ms: &[Move]| ms.iter().map(|m| e.to_uci(m)).collect::<Vec<_>>();
        let extra: Vec<Move> = got.iter().filter(|m| !want.contains(m)).copied().collect();
        let missing: Vec<Move> = want.iter().filter(|m| !got.contains(m)).copied().collect();
        panic!("{context}: the engine allows {:?} that the oracle does not, and misses {:?}", uci(&extra), uci(&missing));
    }
    let world = e.world_mut();
    assert_eq!(snapshot(world), before, "{context}: the legal-move query changed the position");
    assert_eq!(position_hash(world), hash);
    let n = got.len();
    for m in got {
        if world.apply_unchecked(m).is_ok() {
            world.undo_move();
            assert_eq!(snapshot(world), before, "{context}: apply and undo of {m:?} did not restore the position");
        }
    }
    n
}

fn run(variant_id: &str, presets: &[&str], positions: usize, seed: u64) -> usize {
    run_with(variant_id, presets, None, positions, seed)
}

fn run_with(variant_id: &str, presets: &[&str], profile: Option<&str>, positions: usize, seed: u64) -> usize {
    let variant: Variant = builtin(variant_id).unwrap_or_else(|e| panic!("{variant_id}: {e}"));
    let set: Vec<Activation> = presets.iter().map(|&id| Activation::of(chimera::presets::by_id(id).expect("preset").id)).collect();
    // A set the presets refuse would check nothing: every set asked for must be playable.
    if let Err(e) = validate(&set) {
        panic!("{variant_id} with {presets:?}: the presets refuse the set ({e})");
    }
    let base = common::seed("CHIMERA_ORACLE_SEED", "legality-oracle");
    let mut rng = Rng((seed ^ base) | 1);
    let mut compared = 0;
    let mut checked = 0;
    while checked < positions {
        let mut e = Engine::new(variant.clone());
        set_active_presets(e.world_mut(), set.clone()).unwrap();
        if let Some(text) = profile {
            let p = chimera::modifiers::Profile::from_ron(text).expect("profile reads");
            chimera::presets::apply_profile(e.world_mut(), Some(&p)).expect("profile applies");
        }
        e.world_mut().init_resource::<Generated>();
        e.add_hooks([record_generated()]);
        subscribe_effects(e.world_mut());
        every_registered_type_is_snapshotted(e.world());
        let mut played: Vec<String> = Vec::new();
        for _ in 0..60 {
            let context = format!("seed {seed} (CHIMERA_ORACLE_SEED={base:#018x}), {variant_id} with {presets:?}, after {played:?}");
            compared += check_position(&mut e, &context);
            checked += 1;
            let moves = e.legal_moves();
            if moves.is_empty() || e.outcome().is_some() || checked >= positions {
                break;
            }
            let m = moves[rng.below(moves.len())];
            played.push(e.to_uci(&m));
            let _ = e.apply_unchecked(m);
            take_effects(e.world_mut());
        }
    }
    compared
}

const VARIANTS: [&str; 5] = ["chess", "crazyhouse", "atomic", "capablanca", "xiangqi"];

#[test]
fn legal_moves_equal_the_brute_force_set_without_presets() {
    for (i, v) in VARIANTS.iter().enumerate() {
        let n = run(v, &[], 200, 0x5EED + i as u64);
        assert!(n > 1000, "{v}: only {n} moves compared");
    }
}

#[test]
fn legal_moves_equal_the_brute_force_set_with_each_preset() {
    let mut runs = 0;
    // The Rust presets and the data presets.
    for def in chimera::presets::every() {
        let set: Vec<&str> = match def.id {
            "king-heals" => vec!["piece-hp", "king-heals"],
            "king-heals-data" => vec!["piece-hp-data", "king-heals-data"],
            _ => vec![def.id],
        };
        for (i, v) in VARIANTS.iter().enumerate() {
            let n = run(v, &set, 200, 0xA11 + i as u64 * 31 + def.id.len() as u64);
            assert!(n > 0, "{v} with {set:?}: no move compared");
            runs += 1;
        }
    }
    assert_eq!(runs, chimera::presets::every().count() * VARIANTS.len(), "{runs} runs");
}

#[test]
fn legal_moves_equal_the_brute_force_set_with_combinations() {
    let combos: [&[&str]; 6] = [
        &["piece-shield", "piece-hp"],
        &["explosive-rook", "queen-splits"],
        &["berolina-pawns", "knights-leap-twice", "wrap-board"],
        &["coregal", "explosive-rook"],
        &["double-move", "poisoned-squares"],
        &["dual-king", "stamina", "berserker"],
    ];
    for combo in combos {
        for (i, v) in VARIANTS.iter().enumerate() {
            let n = run(v, combo, 200, 0xC0B0 + i as u64);
            assert!(n > 0, "{v} with {combo:?}: no move compared");
        }
    }
}

/// A profile with all six kinds, per type and per instance, for the chess start.
const CHESS_PROFILE: &str = r#"(
    id: "oracle",
    types: {
        "P": {"range-bonus": 1, "promotion-override": "NR"},
        "N": {"direction-additions": "W"},
        "R": {"hp-bonus": 1},
        "B": {"damage-resistance": 0.5},
        "black:Q": {"capture-flags": ["CANNOT_CAPTURE"]},
    },
    instances: {
        "b1": {"capture-flags": ["CANNOT_BE_CAPTURED"]},
        "g8": {"direction-additions": "F"},
        "d1": {"hp-bonus": 1, "damage-resistance": 0.25},
        "e2": {"range-bonus": 1},
        "c7": {"promotion-override": "B"},
    },
)"#;

/// The same for the Xiangqi start.
const XIANGQI_PROFILE: &str = r#"(
    id: "oracle",
    types: {
        "B": {"range-bonus": 1},
        "N": {"direction-additions": "W"},
        "R": {"hp-bonus": 1},
        "C": {"capture-flags": ["CANNOT_CAPTURE"]},
        "A": {"damage-resistance": 0.5},
        "P": {"promotion-override": "R"},
    },
    instances: {
        "b1": {"capture-flags": ["CANNOT_BE_CAPTURED"]},
        "c10": {"direction-additions": "W"},
        "a1": {"hp-bonus": 2},
    },
)"#;

#[test]
fn legal_moves_equal_the_brute_force_set_with_a_profile() {
    for (i, (v, profile)) in [("chess", CHESS_PROFILE), ("crazyhouse", CHESS_PROFILE), ("xiangqi", XIANGQI_PROFILE)].into_iter().enumerate()
    {
        let n = run_with(v, &[], Some(profile), 200, 0x9A0F + i as u64);
        assert!(n > 1000, "{v}: only {n} moves compared");
    }
    // With presets under it: hit points (check not enforced) and Berolina pawns (an override).
    run_with("chess", &["piece-hp"], Some(CHESS_PROFILE), 100, 0x9A1F);
    run_with("chess", &["berolina-pawns", "knights-leap-twice"], Some(CHESS_PROFILE), 100, 0x9A2F);
}
