//! The rules side of the editor's model: the on/off rules ([`Switch`]), named regions (painted
//! square by square, renamed everywhere they are named), the piece library drawn from the
//! catalogue, and the catalogue's start positions to copy from.

use std::collections::BTreeMap;

use crate::variants::{EndSpec, PieceSpec, RegionSpec, VariantFile};

/// A rule that is on or off (off when the file leaves it out): a row of the variant file's
/// switch table ([`crate::variants::SWITCHES`]).
pub type Switch = &'static crate::variants::RuleSwitch;

/// Every place of `f` that names a region, with its key path: other regions made of regions,
/// pieces confined to one or moving differently in one, end conditions, the diagonal lines.
/// (The regions' own names, their keys, are not among them.)
fn region_names_mut(f: &mut VariantFile) -> Vec<(String, &mut String)> {
    let mut out: Vec<(String, &mut String)> = Vec::new();
    for (other, spec) in f.regions.iter_mut().flatten() {
        match spec {
            RegionSpec::Union(names) | RegionSpec::Intersection(names) => {
                out.extend(names.iter_mut().map(|n| (format!("regions.{other}"), n)));
            }
            RegionSpec::PerSide { white, black } => {
                out.push((format!("regions.{other}"), white));
                out.push((format!("regions.{other}"), black));
            }
            RegionSpec::Rect(..) | RegionSpec::Squares(_) => {}
        }
    }
    for p in f.pieces.iter_mut().flatten() {
        if let Some(c) = &mut p.confined {
            out.push((format!("pieces[{}].confined", p.letter), c));
        }
        if let Some(rm) = &mut p.region_moves {
            out.push((format!("pieces[{}].region_moves", p.letter), &mut rm.region));
        }
    }
    for (i, e) in f.end.iter_mut().flatten().enumerate() {
        if let EndSpec::RegionReached { region, .. } | EndSpec::RegionHeld { region, .. } = e {
            out.push((format!("end[{i}]"), region));
        }
    }
    if let Some(lines) = &mut f.diagonal_lines {
        out.push(("diagonal_lines".into(), lines));
    }
    if let Some(region) = f.promotion.as_mut().and_then(|p| p.region.as_mut()) {
        out.push(("promotion.region".into(), region));
    }
    out.extend(super::actions::regions_named_mut(f.actions.as_deref_mut().unwrap_or_default()));
    out
}

/// Renames the region `from` to `to` in `f`, and every place that names it.
pub(super) fn rename_region(f: &mut VariantFile, from: &str, to: &str) {
    if let Some(regions) = &mut f.regions
        && let Some(spec) = regions.remove(from)
    {
        regions.insert(to.to_string(), spec);
    }
    for (_, name) in region_names_mut(f) {
        if name == from {
            *name = to.to_string();
        }
    }
}

/// Where the region `name` is named in `f` (by key path), apart from its own entry.
pub fn region_uses(f: &VariantFile, name: &str) -> Vec<String> {
    let mut f = f.clone();
    let mut out: Vec<String> = region_names_mut(&mut f).into_iter().filter(|(_, n)| n.as_str() == name).map(|(path, _)| path).collect();
    out.dedup();
    out
}

/// The name of a square (file and rank from 0): `a1`, `j10`.
pub fn square_name(file: u8, rank: u8) -> String {
    format!("{}{}", (b'a' + file) as char, rank + 1)
}

/// The region `name` with these squares added (`on`) or taken out, written as the list of its
/// squares (a rectangle or a union painted over becomes a list). A region for each side is
/// painted through the regions it names.
///
/// # Errors
/// A region for each side, which has no squares of its own.
pub(super) fn paint_region(f: &mut VariantFile, name: &str, squares: &[(u8, u8)], on: bool) -> Result<(), String> {
    if let Some(RegionSpec::PerSide { white, black }) = f.regions.as_ref().and_then(|r| r.get(name)) {
        return Err(format!("'{name}' is white's '{white}' and black's '{black}': paint those"));
    }
    let exists = f.regions.as_ref().is_some_and(|r| r.contains_key(name));
    let mut now: Vec<(u8, u8)> = if exists { crate::variants::region_squares(f, name)[0].clone() } else { Vec::new() };
    for &sq in squares {
        match (on, now.contains(&sq)) {
            (true, false) => now.push(sq),
            (false, true) => now.retain(|&s| s != sq),
            _ => {}
        }
    }
    now.sort_by_key(|&(file, rank)| (rank, file));
    let list = now.into_iter().map(|(file, rank)| square_name(file, rank)).collect();
    f.regions.get_or_insert_with(BTreeMap::new).insert(name.to_string(), RegionSpec::Squares(list));
    Ok(())
}

/// A piece of the catalogue, for the editor's library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryPiece {
    /// The piece as its first variant defines it (its letter there).
    pub spec: PieceSpec,
    /// The variants that have it (by name), in catalogue order.
    pub variants: Vec<String>,
}

/// Every piece of the built-in catalogue, once each (the same name and movement in several
/// variants is one piece), sorted by name. Pawns, royal pieces and code pieces are included:
/// a designer may want a Shogi pawn or a Xiangqi cannon as they are.
pub fn piece_library() -> Vec<LibraryPiece> {
    let mut out: Vec<LibraryPiece> = Vec::new();
    for (id, file) in crate::variants::catalogue() {
        let name = file.name.clone().unwrap_or_else(|| id.to_string());
        for p in file.pieces.iter().flatten() {
            let same = |l: &LibraryPiece| {
                l.spec.name == p.name && l.spec.betza == p.betza && l.spec.code == p.code && l.spec.region_moves == p.region_moves
            };
            match out.iter_mut().find(|l| same(l)) {
                Some(l) => {
                    if !l.variants.contains(&name) {
                        l.variants.push(name.clone());
                    }
                }
                None => out.push(LibraryPiece { spec: p.clone(), variants: vec![name.clone()] }),
            }
        }
    }
    out.sort_by(|a, b| a.spec.name.cmp(&b.spec.name).then_with(|| a.spec.betza.cmp(&b.spec.betza)));
    out
}

/// The built-in variants whose board is `files` × `ranks`, with their start positions, to copy
/// one from: `(id, name, FEN)`, in catalogue order.
pub fn catalogue_starts(files: u8, ranks: u8) -> Vec<(String, String, String)> {
    crate::variants::catalogue()
        .filter_map(|(id, f)| {
            let b = f.board.as_ref()?;
            if (b.files, b.ranks) != (files, ranks) {
                return None;
            }
            Some((id.to_string(), f.name.clone().unwrap_or_else(|| id.to_string()), f.start.clone()?))
        })
        .collect()
}

/// Castling as the Castling form switches it on for a board `files` wide: the king lands two
/// files from each corner and the rook beside it on the inside (chess's g/c and f/d; i/c and
/// h/d on ten files), on the back rank.
pub fn castling_default(files: u8) -> crate::variants::CastlingSpec {
    let file = |f: u8| (b'a' + f) as char;
    crate::variants::CastlingSpec::On {
        king: (file(files.saturating_sub(2)), file(2)),
        rook: (file(files.saturating_sub(3)), file(3)),
        king_takes_rook: false,
        rank: 1,
        rook_start: None,
    }
}

/// Every place of `f` but the pieces' own letters and the start position that names the piece
/// letter `from`, renamed to `to`, or with `to` = `None` (the piece removed) taken out where
/// that keeps the rule's meaning: promotion targets (`promotes_to`, choices, limits), blasts'
/// immune pieces, drop restrictions, the material count, the profile's entries and promotion
/// choices, `remove_pieces`. End conditions are renamed but never emptied (an extinction of no
/// letters means every piece): after a removal the problems list the letter there.
pub(super) fn map_letter(f: &mut VariantFile, from: char, to: Option<char>) {
    let in_text = |s: &mut String| {
        *s = s.chars().filter_map(|c| if c == from { to } else { Some(c) }).collect();
    };
    fn rekey<V>(map: &mut BTreeMap<char, V>, from: char, to: Option<char>) {
        if let Some(v) = map.remove(&from)
            && let Some(to) = to
        {
            map.insert(to, v);
        }
    }
    for p in f.pieces.iter_mut().flatten() {
        if p.promotes_to == Some(from) {
            p.promotes_to = to;
        }
    }
    if let Some(promotion) = &mut f.promotion {
        in_text(&mut promotion.choices);
        if let Some(black) = &mut promotion.black_choices {
            in_text(black);
        }
        rekey(&mut promotion.limits, from, to);
    }
    for e in f.end.iter_mut().flatten() {
        if let EndSpec::RegionReached { pieces, .. } | EndSpec::RegionHeld { pieces, .. } | EndSpec::Extinction { pieces, .. } = e
            && let Some(to) = to
        {
            *pieces = pieces.chars().map(|c| if c == from { to } else { c }).collect();
        }
        if let EndSpec::ShatarMate { shak, knights } = e {
            in_text(shak);
            in_text(knights);
        }
    }
    if let Some(blast) = &mut f.blast {
        in_text(&mut blast.immune);
    }
    if let Some(drops) = &mut f.drops {
        rekey(&mut drops.forbidden_ranks, from, to);
        in_text(&mut drops.no_doubled);
        in_text(&mut drops.no_drop_mate);
    }
    if let Some(count) = &mut f.material_count {
        rekey(&mut count.points, from, to);
    }
    if let Some(remove) = &mut f.remove_pieces {
        in_text(remove);
    }
    if let Some(crate::variants::ProfileUse::Inline(profile)) = &mut f.profile {
        let keys: Vec<String> = profile.types.keys().cloned().collect();
        for key in keys {
            let (side, letter) = key.split_once(':').map_or(("", key.as_str()), |(s, l)| (s, l));
            if letter.len() == 1 && letter.starts_with(from) {
                let entry = profile.types.remove(&key).unwrap_or_default();
                if let Some(to) = to {
                    let new = if side.is_empty() { to.to_string() } else { format!("{side}:{to}") };
                    profile.types.insert(new, entry);
                }
            }
        }
        for entry in profile.types.values_mut().chain(profile.instances.values_mut()) {
            if let Some(crate::modifiers::Value::Text(letters)) = entry.get_mut("promotion-override") {
                in_text(letters);
            }
        }
    }
}
