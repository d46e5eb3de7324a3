//! Evaluation from data: piece values and square tables computed from each type's compiled
//! movement on the variant's board, and terms the variant's own rules call for.
//!
//! # Piece values
//!
//! A type's value follows its mobility: for every square it may stand on, its moves on an
//! empty board are counted, each weighted by how likely it is to be available in play — a
//! slide's k-th square by `0.7^k` (a board is never empty), a lame leap by 0.8, a hop's
//! squares less still, a move-only or capture-only direction by about half — and averaged.
//! The value is `48.7 · mobility^1.1` centipawns, a curve fitted so that the FIDE pieces come out
//! near their classical values (knight ≈ 300, rook ≈ 480, queen ≈ 900); colour-bound types
//! (every step changes square colour evenly) lose a tenth, and types that promote gain a
//! little. This follows the spirit of Fairy-Stockfish's treatment of pieces it does not know —
//! value from what a piece can reach — in our own form; no table of names is consulted, so a
//! piece invented in a variant file is valued like any other. Royal types are worth nothing in
//! material: losing them ends the game, which the search scores as such.
//!
//! # Square tables
//!
//! The same per-square mobility, relative to the type's average, gives a centralisation term
//! (a knight in a corner reaches two squares, in the centre eight). Promoting types gain as
//! they advance; royal types prefer low-mobility (sheltered) squares while the opponent still
//! has material, and the centre once it has little.
//!
//! # Variant terms
//!
//! Where the rules say so: distance of the pieces that count to their goal region (King of the
//! Hill, Racing Kings, Jeson Mor's centre), checks given towards an n-check win, the king's
//! exposure to blasts (own pieces a blast next to it would take), inverted
//! material where losing every piece wins (Antichess, Giveaway, Losers), a penalty for a type
//! close to extinction in Extinction-style games, pieces in hand (a little above their value
//! on the board: a drop goes anywhere), and the hit points and shields of presets.

use bevy::prelude::*;

use crate::presets::{Hp, Shield};
use crate::rules::{Board, EndCondition, GameState, Hop, Location, Mode, Owner, PieceType, RayKind, Side, Square, Variant, Verdict};

/// Centipawns.
pub type Score = i32;

/// The weight of a move by its mode: quiet-only and capture-only directions count about half.
fn mode_weight(mode: Mode) -> f64 {
    match mode {
        Mode::Both => 1.0,
        Mode::Move => 0.55,
        Mode::Capture => 0.45,
    }
}

/// Per-square weighted mobility of `kind` (white's tables; black's mirror them), on an empty board.
fn square_mobility(variant: &Variant, kind: PieceType) -> Vec<Option<f64>> {
    let reg = &variant.registry;
    let g = variant.geometry;
    let table = &reg.tables[kind.0 as usize];
    let def = reg.def(kind);
    let confined = def.zones.confinement.as_ref().map(|c| c[0]);
    g.squares()
        .map(|sq| {
            if confined.is_some_and(|c| !c.contains(sq)) {
                return None;
            }
            let mut m = 0.0;
            for ray in table.rays(g.len(), Side::White, sq) {
                let w = mode_weight(ray.mode);
                let n = ray.len as usize;
                m += w * match ray.kind {
                    RayKind::Slide if n == 1 => 1.0,
                    RayKind::Slide => (0..n).map(|k| 0.7f64.powi(k as i32)).sum::<f64>(),
                    RayKind::Lame { .. } => 0.8,
                    // A hop needs a screen: its squares beyond the first are reachable now and then.
                    RayKind::Hop(Hop::Adjacent) => 0.3 * (n.saturating_sub(1)).min(1) as f64,
                    RayKind::Hop(_) => 0.5 * (1..n).map(|k| 0.7f64.powi(k as i32 - 1)).sum::<f64>(),
                    RayKind::AnySquare => 0.25 * g.len() as f64,
                };
            }
            m += leg_mobility(variant, &def.legs, sq, confined.as_ref());
            Some(m)
        })
        .collect()
}

/// The weighted mobility of multi-leg moves from `sq` on an empty board: each square a path
/// ends on once (inside the region a confined piece keeps to), as a lame leap where nothing is
/// taken on the way, at a capture's weight where something must be (the enemy is not always
/// there).
fn leg_mobility(variant: &Variant, legs: &[crate::rules::LegPath], sq: Square, region: Option<&crate::rules::SquareSet>) -> f64 {
    let g = variant.geometry;
    let mut ends: Vec<(Square, bool)> = Vec::new();
    let mut m = 0.0;
    for path in legs {
        let end = crate::rules::leg_end(g, path, Side::White, sq);
        let takes = path[..path.len() - 1].iter().any(|s| s.mode == Mode::Capture);
        let inside = |e: Square| region.is_none_or(|c| c.contains(e));
        let Some(end) = end.filter(|&e| (e != sq || takes) && inside(e)) else { continue };
        if !ends.contains(&(end, takes)) {
            ends.push((end, takes));
            let last = path[path.len() - 1].mode;
            m += if takes { mode_weight(Mode::Capture) } else { 0.8 * mode_weight(last) };
        }
    }
    m
}

/// Whether every step of the type keeps it on one colour of a checkered board.
fn colour_bound(variant: &Variant, kind: PieceType) -> bool {
    let def = variant.registry.def(kind);
    let atoms = def.atoms.iter().chain(def.zones.region_atoms.iter().flat_map(|(_, a)| a.iter()));
    let mut any = false;
    for a in atoms {
        any = true;
        if a.any_square || (a.dx + a.dy) % 2 != 0 {
            return false;
        }
    }
    for path in &def.legs {
        any = true;
        let (dx, dy) = crate::rules::leg_displacement(path);
        if (dx + dy) % 2 != 0 {
            return false;
        }
    }
    any
}

/// The value of a type from its average weighted mobility (see the module docs).
pub fn value_from_mobility(mobility: f64) -> f64 {
    48.7 * mobility.max(0.0).powf(1.1)
}

/// What the evaluation knows about a variant, computed once per game.
#[derive(Clone, Debug)]
pub struct Evaluator {
    /// Per type, its material value in centipawns (0 for royal types).
    pub values: Vec<Score>,
    /// Per type and side, per square: the square-table bonus.
    squares: Vec<[Vec<Score>; 2]>,
    /// Per type and side, per square, for royal types once material is low.
    endgame_royal: Vec<[Vec<Score>; 2]>,
    /// Whether each type is royal by default.
    royal: Vec<bool>,
    /// Material is a burden: losing every piece wins.
    inverted: bool,
    /// Goal regions: (types, per-side squares, weight).
    goals: Vec<(u64, [Vec<u8>; 2])>,
    /// Checks needed to win, in n-check variants.
    check_limit: Option<u8>,
    /// Extinction sets judged per type: types whose last pieces matter.
    extinction_types: u64,
    /// Sum of the non-royal values of the start position per side, for the game phase.
    start_material: Score,
    /// Pieces in hand exist.
    hands: bool,
    /// In variants with blasts, the types a neighbouring blast spares.
    blast_immune: Option<u64>,
}

impl Evaluator {
    /// Computes values and tables for `variant`.
    pub fn new(variant: &Variant) -> Evaluator {
        let reg = &variant.registry;
        let g = variant.geometry;
        let n = reg.types.len();
        let mut values = Vec::with_capacity(n);
        let mut squares = Vec::with_capacity(n);
        let mut endgame_royal = Vec::with_capacity(n);
        let mut royal = Vec::with_capacity(n);
        for kind in reg.ids() {
            let def = reg.def(kind);
            let per_square = square_mobility(variant, kind);
            let present: Vec<f64> = per_square.iter().flatten().copied().collect();
            let avg = if present.is_empty() { 0.0 } else { present.iter().sum::<f64>() / present.len() as f64 };
            let mut value = value_from_mobility(avg);
            if colour_bound(variant, kind) {
                value *= 0.9;
            }
            if def.promotes || def.promotes_to.is_some() {
                value += 25.0;
            }
            let is_royal = def.royal;
            let value = if is_royal { 0.0 } else { value.round() };
            let mut table = [vec![0; g.len()], vec![0; g.len()]];
            let mut royal_end = [vec![0; g.len()], vec![0; g.len()]];
            for sq in g.squares() {
                let m = per_square[sq.index()].unwrap_or(avg);
                let rel = if avg > 0.0 { m / avg - 1.0 } else { 0.0 };
                let white = if is_royal {
                    (-25.0 * rel).round() as Score
                } else {
                    let mut b = value * 0.1 * rel;
                    if def.promotes {
                        let progress = g.relative_rank(sq, Side::White) as f64 / (g.ranks.max(2) - 1) as f64;
                        b += 60.0 * progress * progress;
                    }
                    b.round() as Score
                };
                let end = (30.0 * rel).round() as Score;
                // Black's table is white's with ranks mirrored.
                let mirrored = Square((g.ranks - 1 - g.rank(sq)) * g.files + g.file(sq));
                table[0][sq.index()] = white;
                table[1][mirrored.index()] = white;
                royal_end[0][sq.index()] = end;
                royal_end[1][mirrored.index()] = end;
            }
            values.push(value as Score);
            squares.push(table);
            endgame_royal.push(royal_end);
            royal.push(is_royal);
        }
        let inverted = variant.end.iter().any(|e| {
            matches!(e, EndCondition::Extinction { types: 0, verdict: Verdict::Win, .. } | EndCondition::Checkmated(Verdict::Win))
        });
        let distance_table = |region: &crate::rules::SquareSet| -> Vec<u8> {
            g.squares()
                .map(|sq| {
                    g.squares()
                        .filter(|&t| region.contains(t))
                        .map(|t| g.file(sq).abs_diff(g.file(t)).max(g.rank(sq).abs_diff(g.rank(t))))
                        .min()
                        .unwrap_or(u8::MAX)
                })
                .collect()
        };
        let goals = variant
            .end
            .iter()
            .filter_map(|e| match e {
                EndCondition::RegionReached { types, regions, .. } | EndCondition::RegionHeld { types, regions } => {
                    Some((*types, [distance_table(&regions[0]), distance_table(&regions[1])]))
                }
                _ => None,
            })
            .collect();
        let extinction_types = variant
            .end
            .iter()
            .map(|e| match e {
                EndCondition::Extinction { types, per_type: true, verdict: Verdict::Loss, .. } => *types,
                _ => 0,
            })
            .fold(0, |a, b| a | b);
        let mut eval = Evaluator {
            values,
            squares,
            endgame_royal,
            royal,
            inverted,
            goals,
            check_limit: variant.check_limit(),
            extinction_types,
            start_material: 0,
            hands: variant.drops.is_some(),
            blast_immune: variant.blast.as_ref().map(|b| b.immune),
        };
        // The game phase is measured against the start position's material (a chess-like
        // army when the start position does not read, as for a shuffled back rank template).
        eval.start_material = match crate::rules::parse_fen(variant, &variant.start_fen) {
            Ok(setup) => {
                let board: Score = setup.pieces.iter().filter(|p| p.2 == Side::White).map(|p| eval.value(p.1)).sum();
                let hand: Score = setup.hand.iter().filter(|p| p.1 == Side::White).map(|p| eval.value(p.0)).sum();
                (board + hand).max(1)
            }
            Err(_) => 4000,
        };
        eval
    }

    /// The material value of a type.
    #[inline]
    pub fn value(&self, kind: PieceType) -> Score {
        self.values.get(kind.0 as usize).copied().unwrap_or(0)
    }

    /// The value of a type for ordering captures (royal types count high: taking one ends games).
    #[inline]
    pub fn order_value(&self, kind: PieceType) -> Score {
        if self.royal.get(kind.0 as usize).copied().unwrap_or(false) { 2000 } else { self.value(kind) }
    }

    /// The static evaluation of the position in `world`, from the side to move's point of view.
    pub fn evaluate(&self, world: &mut World, facts: Option<&mut FactQueries>) -> Score {
        let board = world.resource::<Board>();
        let state = world.resource::<GameState>();
        let turn = state.turn;
        let mut material = [0 as Score; 2];
        let mut positional = [0 as Score; 2];
        let mut counts: [[u8; 64]; 2] = [[0; 64]; 2];
        let mut royals: [Vec<(Square, PieceType)>; 2] = [Vec::new(), Vec::new()];
        for (i, &c) in board.cells.iter().enumerate() {
            if !c.is_piece() {
                continue;
            }
            let (kind, side) = (c.kind(), c.side());
            let k = kind.0 as usize;
            counts[side.index()][k] = counts[side.index()][k].saturating_add(1);
            material[side.index()] += self.values[k];
            if self.royal[k] {
                royals[side.index()].push((Square(i as u8), kind));
            } else {
                positional[side.index()] += self.squares[k][side.index()][i];
            }
            for (types, dist) in &self.goals {
                if types & (1u64 << k) != 0 {
                    let d = dist[side.index()][i];
                    if d != u8::MAX {
                        let closeness = (8 - d.min(8) as Score).max(0);
                        positional[side.index()] += closeness * closeness * 6;
                    }
                }
            }
        }
        if self.hands {
            for side in Side::BOTH {
                for (k, &n) in board.hand_counts[side.index()].iter().enumerate().take(self.values.len()) {
                    material[side.index()] += n as Score * (self.values[k] + self.values[k] / 8);
                }
            }
        }
        // Royal pieces: shelter while the opponent has material, the centre once it has little.
        for side in Side::BOTH {
            let theirs = material[side.opponent().index()];
            let phase = (theirs * 256 / self.start_material.max(1)).clamp(0, 256);
            for &(sq, kind) in &royals[side.index()] {
                let k = kind.0 as usize;
                let mid = self.squares[k][side.index()][sq.index()];
                let end = self.endgame_royal[k][side.index()][sq.index()];
                positional[side.index()] += (mid * phase + end * (256 - phase)) / 256;
                // With blasts, every own piece next to the king that a blast would take is a
                // square where a capture blows the king up.
                if let Some(immune) = self.blast_immune {
                    let exposed = crate::rules::blast_squares(board.geometry, sq)
                        .filter(|&n| n != sq)
                        .filter(|n| {
                            let c = board.cells[n.index()];
                            c.is_piece() && c.side() == side && immune & (1u64 << c.kind().0) == 0
                        })
                        .count();
                    positional[side.index()] -= 30 * exposed as Score;
                }
            }
        }
        if self.extinction_types != 0 {
            for side in Side::BOTH {
                for (k, &n) in counts[side.index()].iter().enumerate().take(self.values.len()) {
                    if self.extinction_types & (1u64 << k) != 0 && n == 1 {
                        positional[side.index()] -= 150;
                    }
                }
            }
        }
        if let Some(limit) = self.check_limit {
            for side in Side::BOTH {
                let given = state.checks[side.index()];
                let left = limit.saturating_sub(given);
                positional[side.index()] += match left {
                    0 | 1 => 700,
                    2 => 250,
                    _ => 60 * given as Score,
                };
            }
        }
        if let Some(facts) = facts {
            let (hp, shield) = facts.bonus(world, self);
            for side in Side::BOTH {
                material[side.index()] += hp[side.index()] + shield[side.index()];
            }
        }
        let mut score = [0; 2];
        for side in Side::BOTH {
            let s = side.index();
            score[s] = if self.inverted { -material[s] - positional[s] / 4 } else { material[s] + positional[s] };
        }
        score[turn.index()] - score[turn.opponent().index()] + 10
    }
}

/// Queries for the preset facts the evaluation reads (hit points, shields), kept between calls.
pub struct FactQueries {
    hp: QueryState<(&'static Location, &'static Owner, &'static PieceType, &'static Hp)>,
    shield: QueryState<(&'static Location, &'static Owner, &'static PieceType, &'static Shield)>,
    /// Declared facts (rules as data) that act as hit points or shields.
    declared: Vec<(&'static str, crate::presets::FactRole)>,
}

impl FactQueries {
    /// Queries for `world`, or `None` when no preset gives pieces hit points or shields.
    pub fn new(world: &mut World) -> Option<FactQueries> {
        let attributes = crate::presets::effective_piece_attributes(world);
        let declared = crate::presets::declared_fact_roles(world);
        if !attributes.iter().any(|a| *a == "Hp" || *a == "Shield") && declared.is_empty() {
            return None;
        }
        Some(FactQueries { hp: world.query(), shield: world.query(), declared })
    }

    /// Per side, the bonus for extra hit points (a quarter of the piece's value per point above
    /// one) and for shields (a tenth per point).
    fn bonus(&mut self, world: &World, eval: &Evaluator) -> ([Score; 2], [Score; 2]) {
        let mut hp = [0; 2];
        let mut shield = [0; 2];
        for (loc, owner, kind, h) in self.hp.iter(world) {
            if loc.square().is_some() {
                hp[owner.0.index()] += (h.0 - 1).max(0) * eval.order_value(*kind).min(1000) / 4;
            }
        }
        for (loc, owner, kind, s) in self.shield.iter(world) {
            if loc.square().is_some() {
                shield[owner.0.index()] += s.0.max(0) * eval.order_value(*kind).min(1000) / 10;
            }
        }
        // Declared facts weigh as the Rust presets' do.
        if !self.declared.is_empty() {
            let board = world.resource::<crate::rules::Board>();
            for (i, e) in board.entities.iter().enumerate() {
                let Some(e) = *e else { continue };
                let cell = board.cells[i];
                let (side, value) = (cell.side().index(), eval.order_value(cell.kind()).min(1000));
                for &(name, role) in &self.declared {
                    let Some(v) = crate::presets::declared_fact(world, e, name) else { continue };
                    match role {
                        crate::presets::FactRole::HitPoints => hp[side] += (v - 1).max(0) * value / 4,
                        crate::presets::FactRole::Shield => shield[side] += v.max(0) * value / 10,
                    }
                }
            }
        }
        (hp, shield)
    }
}
