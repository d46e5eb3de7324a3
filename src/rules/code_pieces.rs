//! Piece types whose movement is written in code and registered through the piece-type
//! registry's generator and attack-probe slots, for pieces Betza cannot say or where code is
//! clearer. A variant file picks one with `code: "<name>"` on a piece; its Betza string then
//! only draws the diagram.

use super::generate::{GenContext, GeneratorFn, PieceSlot, generate_from_tables};
use super::geometry::{Side, Square};
use super::movement::RayKind;
use super::moves::Move;
use super::piece::{Cell, PieceType};
use super::registry::{AttackProbe, MoveGenerator, PieceTypeRegistry};

const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];

const DIAGONAL: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Whether `sq` is a point of the palace diagonals.
fn on_lines(reg: &PieceTypeRegistry, sq: Square) -> bool {
    reg.lines.contains(sq)
}

/// The points along the palace diagonal from `from` in direction `(dx, dy)`, while they are
/// joined by a line (empty unless `from` is on one).
fn line_points(reg: &PieceTypeRegistry, from: Square, (dx, dy): (i32, i32)) -> impl Iterator<Item = Square> + '_ {
    let g = reg.geometry;
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let start = on_lines(reg, from);
    (1..).map_while(move |k| g.square(f + dx * k, r + dy * k).filter(|&sq| start && on_lines(reg, sq)))
}

/// Whether `side` may stand on `to` (the type's confinement, e.g. the palace).
fn allowed(ctx: &GenContext, slot: &PieceSlot, to: Square) -> bool {
    let zones = &ctx.registry.def(slot.kind).zones;
    zones.confinement.as_ref().is_none_or(|c| c[slot.side.index()].contains(to))
}

/// One step along the palace diagonals, in the directions `dirs` (Janggi's general, guards
/// and soldiers), to an empty point or an enemy piece.
fn line_steps(ctx: &GenContext, slot: &PieceSlot, dirs: &[(i32, i32)], out: &mut Vec<Move>) {
    for &d in dirs {
        if let Some(to) = line_points(ctx.registry, slot.square, d).next() {
            let c = ctx.cells[to.index()];
            if allowed(ctx, slot, to) && (c.is_empty() || (c.is_piece() && c.side() != slot.side)) {
                out.push(Move::normal(slot.square, to, c.is_piece()));
            }
        }
    }
}

/// Janggi's general and guards: their Betza steps (the palace keeps them in), plus one step
/// along the palace diagonals.
fn palace_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    generate_from_tables(ctx, slot, out);
    line_steps(ctx, slot, &DIAGONAL, out);
}

/// Janggi's soldier: its Betza steps (forward and sideways), plus a forward step along the
/// palace diagonals.
fn soldier_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    generate_from_tables(ctx, slot, out);
    let forward = if slot.side == Side::White { 1 } else { -1 };
    line_steps(ctx, slot, &[(1, forward), (-1, forward)], out);
}

/// Whether the compiled slides and steps of `kind` on `from` reach `target` (its first
/// blocker along a capturing ray).
fn table_attacks(reg: &PieceTypeRegistry, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
    let table = &reg.tables[kind.0 as usize];
    table.rays(reg.geometry.len(), by, from).iter().filter(|ray| ray.mode.captures() && ray.kind == RayKind::Slide).any(|ray| {
        for &sq in table.ray_squares(ray) {
            if sq == target {
                return true;
            }
            if !cells[sq.index()].is_empty() {
                return false;
            }
        }
        false
    })
}

/// Whether `a` and `b` share a file or a rank, or both lie on the palace diagonals: the only
/// way the Janggi line pieces can reach one from the other (a cheap first test).
fn aligned(reg: &PieceTypeRegistry, a: Square, b: Square) -> bool {
    let g = reg.geometry;
    g.file(a) == g.file(b) || g.rank(a) == g.rank(b) || (on_lines(reg, a) && on_lines(reg, b))
}

fn soldier_attacks(reg: &PieceTypeRegistry, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
    let g = reg.geometry;
    if g.file(from).abs_diff(g.file(target)) > 1 || g.rank(from).abs_diff(g.rank(target)) > 1 {
        return false;
    }
    let forward = if by == Side::White { 1 } else { -1 };
    table_attacks(reg, cells, kind, by, from, target)
        || [(1, forward), (-1, forward)].into_iter().any(|d| line_points(reg, from, d).next() == Some(target))
}

/// Janggi's chariot: a rook that also slides along the palace diagonals.
fn chariot_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    generate_from_tables(ctx, slot, out);
    for d in DIAGONAL {
        for to in line_points(ctx.registry, slot.square, d) {
            let c = ctx.cells[to.index()];
            if c.is_empty() {
                out.push(Move::normal(slot.square, to, false));
                continue;
            }
            if c.is_piece() && c.side() != slot.side {
                out.push(Move::normal(slot.square, to, true));
            }
            break;
        }
    }
}

fn chariot_attacks(reg: &PieceTypeRegistry, cells: &[Cell], kind: PieceType, by: Side, from: Square, target: Square) -> bool {
    if !aligned(reg, from, target) {
        return false;
    }
    table_attacks(reg, cells, kind, by, from, target)
        || DIAGONAL.into_iter().any(|d| {
            for sq in line_points(reg, from, d) {
                if sq == target {
                    return true;
                }
                if !cells[sq.index()].is_empty() {
                    return false;
                }
            }
            false
        })
}

/// The points a Janggi cannon on `from` reaches along one line: over exactly one screen that
/// is not a cannon, to empty points and the first piece behind it unless that is a cannon.
/// Calls `emit(to, capture)`.
fn janggi_cannon_line(
    cells: &[Cell],
    points: impl Iterator<Item = Square>,
    cannon: PieceType,
    side: Side,
    mut emit: impl FnMut(Square, bool) -> bool,
) {
    let mut screened = false;
    for sq in points {
        let c = cells[sq.index()];
        if c == Cell::WALL {
            return;
        }
        if !screened {
            if c.is_piece() {
                if c.kind() == cannon {
                    return;
                }
                screened = true;
            }
        } else if c.is_empty() {
            if emit(sq, false) {
                return;
            }
        } else {
            if c.is_piece() && c.side() != side && c.kind() != cannon && emit(sq, true) {
                return;
            }
            return;
        }
    }
}

/// Janggi's cannon (pao): moves and captures only by jumping exactly one piece, which may not
/// be a cannon, and never captures a cannon; along files, ranks and the palace diagonals.
fn janggi_cannon_moves(ctx: &GenContext, slot: &PieceSlot, out: &mut Vec<Move>) {
    let g = ctx.geometry;
    let (f, r) = (g.file(slot.square) as i32, g.rank(slot.square) as i32);
    let mut emit = |to: Square, capture: bool| {
        out.push(Move::normal(slot.square, to, capture));
        false
    };
    for (dx, dy) in ORTHOGONAL {
        janggi_cannon_line(ctx.cells, (1..).map_while(|k| g.square(f + dx * k, r + dy * k)), slot.kind, slot.side, &mut emit);
    }
    for d in DIAGONAL {
        janggi_cannon_line(ctx.cells, line_points(ctx.registry, slot.square, d), slot.kind, slot.side, &mut emit);
    }
}

fn janggi_cannon_attacks(reg: &PieceTypeRegistry, cells: &[Cell], kind: PieceType, _by: Side, from: Square, target: Square) -> bool {
    if from == target || !aligned(reg, from, target) {
        return false;
    }
    // The target is attacked even when empty or a cannon (check detection asks about the
    // royal square only, which holds the enemy general).
    let reaches = |line: &mut dyn Iterator<Item = Square>| {
        let mut screened = false;
        for sq in line {
            if sq == target {
                return screened;
            }
            let c = cells[sq.index()];
            if c.is_piece() {
                if screened || c.kind() == kind {
                    return false;
                }
                screened = true;
            }
        }
        false
    };
    let g = reg.geometry;
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let (tf, tr) = (g.file(target) as i32, g.rank(target) as i32);
    if f == tf || r == tr {
        let (dx, dy) = ((tf - f).signum(), (tr - r).signum());
        if reaches(&mut (1..).map_while(|k| g.square(f + dx * k, r + dy * k))) {
            return true;
        }
    }
    DIAGONAL.into_iter().any(|d| reaches(&mut line_points(reg, from, d)))
}

/// The code-defined piece types by name: generator and attack probe.
pub fn code_piece(name: &str) -> Option<(MoveGenerator, AttackProbe)> {
    match name {
        // Exactly Betza `mRcpR`: the compiled tables generate it, and the reverse attack table
        // answers for it, so that check detection needs no per-piece scan.
        "cannon" => Some((MoveGenerator::Table, AttackProbe::Table)),
        "janggi_palace" => Some((MoveGenerator::Code(0), AttackProbe::Table)),
        "janggi_soldier" => Some((MoveGenerator::Code(1), AttackProbe::Custom(soldier_attacks))),
        "janggi_chariot" => Some((MoveGenerator::Code(2), AttackProbe::Custom(chariot_attacks))),
        "janggi_cannon" => Some((MoveGenerator::Code(3), AttackProbe::Custom(janggi_cannon_attacks))),
        _ => None,
    }
}

/// The code generators, by the index [`MoveGenerator::Code`] holds.
pub const CODE_GENERATORS: [GeneratorFn; 4] = [palace_moves, soldier_moves, chariot_moves, janggi_cannon_moves];

/// The Betza movement a code piece is compiled from when its tables generate it (whatever
/// the variant file's own Betza string, which then only draws the diagram).
pub fn code_piece_betza(name: &str) -> Option<&'static str> {
    match name {
        "cannon" => Some("mRcpR"),
        _ => None,
    }
}

/// Whether a code piece honours a `confined` region (its generator starts from the compiled
/// tables, which stop at the region's edge).
pub fn code_piece_confinable(name: &str) -> bool {
    name.starts_with("janggi_")
}

/// Names of the code-defined piece types.
pub const CODE_PIECES: &[&str] = &["cannon", "janggi_palace", "janggi_soldier", "janggi_chariot", "janggi_cannon"];
