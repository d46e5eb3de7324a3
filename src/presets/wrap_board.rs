//! `wrap-board`: the board is a cylinder; the a-file and the last file are neighbours.

use bevy::prelude::*;

use super::{Activation, PresetDef};
use crate::rules::{
    Board, Cell, Geometry, Hook, Hop, Move, MoveKind, MoveQuery, PieceType, PieceTypeRegistry, QuerySystems, Rules, Side, Square, Variant,
    cells_after,
};

/// The preset.
pub const WRAP_BOARD: PresetDef = PresetDef {
    id: "wrap-board",
    name: "Wrap-around board",
    description: "The board is a cylinder: the left and right edges are joined. Pieces may move and capture across the edge (a rook on h1 can go on to a1, a knight on h3 can leap to b4, a pawn on a4 can take on h5), and attacks across the edge give check. Castling and en passant stay as usual.",
    hooks,
    ..PresetDef::BASE
};

/// Walks every simple atom of the piece of `kind` and `side` on `from` around the cylinder and
/// calls `visit(square, cell)` for each square reached only by crossing the side edge, until
/// a piece or wall blocks (the blocking square is visited too). Quiet-only atoms report
/// `captures == false`. Lame, hopping and whole-board atoms do not wrap.
fn wrapped_walk(
    reg: &PieceTypeRegistry,
    g: Geometry,
    cells: &[Cell],
    from: Square,
    kind: PieceType,
    side: Side,
    mut visit: impl FnMut(Square, Cell, bool, bool) -> bool,
) {
    let (f, r) = (g.file(from) as i32, g.rank(from) as i32);
    let files = g.files as i32;
    let def = reg.def(kind);
    if def.zones.confinement.is_some() || def.zones.region_atoms.is_some() {
        return;
    }
    for atom in &def.atoms {
        if atom.lame || atom.hop != Hop::None || atom.any_square || atom.initial {
            continue;
        }
        let (dx, dy) = atom.oriented(side);
        if dx == 0 {
            continue;
        }
        let range = if atom.range == 0 { i32::from(g.files.max(g.ranks)) * 2 } else { i32::from(atom.range) };
        let mut crossed = false;
        for step in 1..=range {
            let (nf, nr) = (f + dx * step, r + dy * step);
            if nr < 0 || nr >= g.ranks as i32 {
                break;
            }
            crossed |= nf < 0 || nf >= files;
            let Some(sq) = g.square(nf.rem_euclid(files), nr) else { break };
            if sq == from {
                break;
            }
            let cell = cells[sq.0 as usize];
            if cell == Cell::WALL {
                break;
            }
            if crossed && !visit(sq, cell, atom.mode.moves(), atom.mode.captures()) {
                return;
            }
            if !cell.is_empty() {
                break;
            }
        }
    }
}

/// Whether `target` is attacked by `by` across the edge.
pub fn attacked_across_edge(reg: &PieceTypeRegistry, g: Geometry, cells: &[Cell], target: Square, by: Side) -> bool {
    for (i, &c) in cells.iter().enumerate() {
        if !c.is_piece() || c.side() != by {
            continue;
        }
        let mut hit = false;
        wrapped_walk(reg, g, cells, Square(i as u8), c.kind(), by, |sq, _, _, captures| {
            hit |= captures && sq == target;
            !hit
        });
        if hit {
            return true;
        }
    }
    false
}

fn wrapped_moves(v: &Variant, cells: &[Cell], from: Square, kind: PieceType, side: Side, out: &mut Vec<Move>) {
    let (reg, g) = (&v.registry, v.geometry);
    let promotes = reg.def(kind).promotes;
    wrapped_walk(reg, g, cells, from, kind, side, |to, cell, moves, captures| {
        let capture = cell.is_piece() && cell.side() != side;
        if (cell.is_empty() && moves) || (capture && captures) {
            let zone = if promotes { v.promotion.zone(g.relative_rank(to, side)) } else { None };
            match zone {
                None => out.push(Move::normal(from, to, capture)),
                Some(plain_allowed) => {
                    if plain_allowed {
                        out.push(Move::normal(from, to, capture));
                    }
                    for &p in &v.promotion.choices {
                        out.push(Move { promotion: Some(p), ..Move::normal(from, to, capture) });
                    }
                }
            }
        }
        true
    });
}

fn hooks(a: &Activation) -> Vec<Hook> {
    let scope = a.scope;
    vec![
        // Step 2.4: the moves across the edge, for every piece not overridden.
        Hook::new("wrap-board", QuerySystems::Extra, move |mut q: ResMut<MoveQuery>, board: Res<Board>, rules: Res<Rules>| {
            if !scope.covers(q.side) {
                return;
            }
            let side = q.side;
            let pieces: Vec<(Square, PieceType)> = q.pieces.iter().map(|s| (s.square, s.kind)).collect();
            for (from, kind) in pieces {
                let mut extra = Vec::new();
                wrapped_moves(&rules.0, &board.cells, from, kind, side, &mut extra);
                q.add_extra_moves(from, extra);
            }
        }),
        // After the engine's self-check filter: attacks across the edge count too. Scoped by
        // the side to move, like the extra moves: only a covered side's pieces wrap.
        Hook::new("wrap-board", QuerySystems::LegalFilter, move |mut q: ResMut<MoveQuery>, board: Res<Board>, rules: Res<Rules>| {
            let (side, enemy) = (q.side, q.side.opponent());
            if !scope.covers(enemy) || !q.filter_self_check || q.royals.is_empty() {
                return;
            }
            let (reg, g) = (&rules.registry, rules.geometry);
            let cells = &board.cells;
            if q.royals.iter().any(|&r| attacked_across_edge(reg, g, cells, r, enemy)) {
                q.in_check = true;
            }
            let royals = q.royals.clone();
            q.moves.retain(|m| {
                // Castling: no square the king stands on or crosses may be attacked.
                if let MoveKind::Castle(wing) = m.kind {
                    let rule = rules.castling.as_ref().expect("castling rule");
                    let rank = g.rank(m.from);
                    let (a, b) = (g.file(m.from), rule.king_files[wing.index()]);
                    if (a.min(b)..=a.max(b)).any(|f| attacked_across_edge(reg, g, cells, Square(rank * g.files + f), enemy)) {
                        return false;
                    }
                }
                let (next, end) = cells_after(&rules, cells, side, m);
                royals
                    .iter()
                    .map(|&r| if r == m.from && m.dropped().is_none() { end } else { r })
                    .filter(|&r| next[r.0 as usize].is_piece() && next[r.0 as usize].side() == side)
                    .all(|r| !attacked_across_edge(reg, g, &next, r, enemy))
            });
        }),
    ]
}
