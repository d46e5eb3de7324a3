//! Loading a variant: RON text → [`VariantFile`] → resolved (`extends` merged) → validated
//! and compiled into the engine's [`Variant`]. Every problem in a file is reported at once.

use std::fmt;
use std::path::Path;

use crate::rules::{
    BlastRule, BoardLook, CODE_PIECES, CastlingRule, DropRule, EndCondition, Geometry, MAX_FILES, MAX_RANKS, MaterialCount, PiecePromotion,
    PieceType, PieceTypeDef, PieceTypeRegistry, PresetRequest, PromotionRule, Square, Variant, code_piece, code_piece_confinable,
    parse_betza, parse_fen,
};

use super::format::{BoardStyle, CastlingSpec, EndSpec, PieceSpec, RegionSpec, ShuffleSpec, VariantFile};

/// One problem in a variant file: where (a key path such as `pieces[2].betza`) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Key path, e.g. `promotion.choices`.
    pub path: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Why a variant file was not loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LoadError {
    /// The file could not be read.
    Io(String),
    /// The RON does not parse.
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The file parses but describes an invalid variant; every problem found.
    Invalid(Vec<Problem>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read the file: {e}"),
            LoadError::Syntax { line, column, message } => write!(f, "line {line}, column {column}: {message}"),
            LoadError::Invalid(problems) => {
                for (i, p) in problems.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Parses the RON text of a variant file.
///
/// # Errors
/// [`LoadError::Syntax`] with line and column.
pub fn parse_variant_file(text: &str) -> Result<VariantFile, LoadError> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str::<VariantFile>(text).map_err(|e| LoadError::Syntax {
        line: e.span.start.line,
        column: e.span.start.col,
        message: e.code.to_string(),
    })
}

/// Writes a variant file as RON.
///
/// # Errors
/// The serializer's error (not expected for these plain types).
pub fn write_variant_file(file: &VariantFile) -> Result<String, ron::Error> {
    let pretty = ron::ser::PrettyConfig::new().struct_names(false).extensions(ron::extensions::Extensions::IMPLICIT_SOME);
    ron::ser::to_string_pretty(file, pretty)
}

/// Merges `child` over its resolved `parent`: the child's fields win; pieces merge by letter.
fn merge(parent: VariantFile, child: VariantFile) -> VariantFile {
    let mut pieces = parent.pieces.unwrap_or_default();
    if let Some(remove) = &child.remove_pieces {
        pieces.retain(|p| !remove.contains(p.letter));
    }
    for p in child.pieces.unwrap_or_default() {
        match pieces.iter_mut().find(|q| q.letter == p.letter) {
            Some(q) => *q = p,
            None => pieces.push(p),
        }
    }
    VariantFile {
        id: child.id,
        extends: None,
        name: child.name.or(parent.name),
        description: child.description.or(parent.description),
        rules_summary: child.rules_summary.or(parent.rules_summary),
        board: child.board.or(parent.board),
        pieces: Some(pieces),
        remove_pieces: None,
        start: child.start.or(parent.start),
        shuffle: child.shuffle.or(parent.shuffle),
        castling: child.castling.or(parent.castling),
        promotion: child.promotion.or(parent.promotion),
        piece_promotion: child.piece_promotion.or(parent.piece_promotion),
        no_immobile_pieces: child.no_immobile_pieces.or(parent.no_immobile_pieces),
        regions: child.regions.or(parent.regions),
        mandatory_capture: child.mandatory_capture.or(parent.mandatory_capture),
        drops: child.drops.or(parent.drops),
        blast: child.blast.or(parent.blast),
        flying_general: child.flying_general.or(parent.flying_general),
        pass: child.pass.or(parent.pass),
        diagonal_lines: child.diagonal_lines.or(parent.diagonal_lines),
        material_count: child.material_count.or(parent.material_count),
        gating: child.gating.or(parent.gating),
        checks_forbidden: child.checks_forbidden.or(parent.checks_forbidden),
        end: child.end.or(parent.end),
        presets: child.presets.or(parent.presets),
        profile: child.profile.or(parent.profile),
    }
}

/// Resolves `extends` chains with `lookup` (id → parsed file), so that every field is the
/// variant's own or inherited.
///
/// # Errors
/// An unknown parent or a cycle, as a problem at `extends`.
pub fn resolve(file: VariantFile, lookup: &dyn Fn(&str) -> Option<VariantFile>) -> Result<VariantFile, LoadError> {
    let mut chain = vec![file];
    while let Some(parent_id) = chain.last().and_then(|f| f.extends.clone()) {
        if chain.iter().any(|f| f.id == parent_id) || chain.len() > 16 {
            return Err(LoadError::Invalid(vec![Problem {
                path: "extends".into(),
                message: format!("'{parent_id}' leads back to itself"),
            }]));
        }
        match lookup(&parent_id) {
            Some(parent) => chain.push(parent),
            None => {
                return Err(LoadError::Invalid(vec![Problem {
                    path: "extends".into(),
                    message: format!("no variant '{parent_id}' to extend; built-in ids are listed by `chimera list variants`"),
                }]));
            }
        }
    }
    let mut resolved = chain.pop().expect("the chain holds the file itself");
    resolved.extends = None;
    while let Some(child) = chain.pop() {
        resolved = merge(resolved, child);
    }
    if resolved.pieces.is_none() {
        resolved.pieces = Some(Vec::new());
    }
    Ok(resolved)
}

struct Checker {
    problems: Vec<Problem>,
}

impl Checker {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem { path: path.into(), message: message.into() });
    }
}

fn file_of(c: char, g: Geometry) -> Option<u8> {
    let f = (c as u32).checked_sub('a' as u32)? as u8;
    (f < g.files).then_some(f)
}

fn is_id(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

fn piece_def(p: &PieceSpec, betza_path: &str, ck: &mut Checker) -> Option<PieceTypeDef> {
    match parse_betza(&p.betza) {
        Ok(atoms) => {
            let mut def = PieceTypeDef::new(&p.name, p.letter, p.value, atoms);
            def.betza = p.betza.clone();
            def.royal = p.royal;
            def.pawn = p.pawn;
            def.promotes = p.promotes;
            def.initial_ranks =
                p.initial_ranks.as_ref().map(|r| r.iter().map(|x| x.saturating_sub(1)).collect()).unwrap_or_else(|| vec![1]);
            def.castles = p.castles;
            def.castling_partner = p.castling_partner;
            def.glyph = p.glyph.clone();
            Some(def)
        }
        Err(e) => {
            ck.add(betza_path, format!("'{}' at character {}: {}", p.betza, e.position, e.message));
            None
        }
    }
}

type SquareSet = [u64; 4];

fn region_squares(
    name: &str,
    specs: &std::collections::BTreeMap<String, RegionSpec>,
    g: Geometry,
    ck: &mut Checker,
    depth: u8,
) -> [SquareSet; 2] {
    let path = format!("regions.{name}");
    let Some(spec) = specs.get(name) else {
        ck.add(path, format!("no region named '{name}'"));
        return [[0; 4]; 2];
    };
    if depth > 8 {
        ck.add(path, "regions refer to each other in a loop");
        return [[0; 4]; 2];
    }
    let mut set: SquareSet = [0; 4];
    let mut put = |sq: Square| set[sq.index() >> 6] |= 1u64 << (sq.0 & 63);
    match spec {
        RegionSpec::Rect(a, b) => match (g.parse_square(a), g.parse_square(b)) {
            (Some(a), Some(b)) => {
                let (f0, f1) = (g.file(a).min(g.file(b)), g.file(a).max(g.file(b)));
                let (r0, r1) = (g.rank(a).min(g.rank(b)), g.rank(a).max(g.rank(b)));
                for r in r0..=r1 {
                    for f in f0..=f1 {
                        put(Square(r * g.files + f));
                    }
                }
            }
            _ => ck.add(path, format!("Rect(\"{a}\", \"{b}\") has a corner off the {}×{} board", g.files, g.ranks)),
        },
        RegionSpec::Squares(list) => {
            for s in list {
                match g.parse_square(s) {
                    Some(sq) => put(sq),
                    None => ck.add(path.clone(), format!("'{s}' is not a square of the {}×{} board", g.files, g.ranks)),
                }
            }
        }
        RegionSpec::Union(names) | RegionSpec::Intersection(names) => {
            let parts: Vec<[SquareSet; 2]> = names.iter().map(|n| region_squares(n, specs, g, ck, depth + 1)).collect();
            let union = matches!(spec, RegionSpec::Union(_));
            let mut out = if union { [[0u64; 4]; 2] } else { [[u64::MAX; 4]; 2] };
            for p in &parts {
                for s in 0..2 {
                    for w in 0..4 {
                        out[s][w] = if union { out[s][w] | p[s][w] } else { out[s][w] & p[s][w] };
                    }
                }
            }
            if parts.is_empty() {
                out = [[0; 4]; 2];
            }
            return out;
        }
        RegionSpec::PerSide { white, black } => {
            let w = region_squares(white, specs, g, ck, depth + 1)[0];
            let b = region_squares(black, specs, g, ck, depth + 1)[1];
            return [w, b];
        }
    }
    [set, set]
}

/// The bit set of the types named by `letters`, reporting unknown letters at `path`.
fn letters_mask(letters: &str, path: &str, letter: &dyn Fn(char) -> Option<PieceType>, ck: &mut Checker) -> u64 {
    let mut types = 0u64;
    for c in letters.chars() {
        match letter(c) {
            Some(t) => types |= 1 << t.0,
            None => ck.add(path, format!("'{c}' is not the letter of a piece type")),
        }
    }
    types
}

/// Validates a resolved file and compiles it.
///
/// # Errors
/// [`LoadError::Invalid`] with every problem found.
pub fn compile(file: &VariantFile) -> Result<Variant, LoadError> {
    let mut ck = Checker { problems: Vec::new() };
    if !is_id(&file.id) {
        ck.add("id", format!("'{}' is not an id; use lower-case letters, digits and '-'", file.id));
    }
    let name = file.name.clone().unwrap_or_else(|| {
        ck.add("name", "missing; give the variant a display name");
        file.id.clone()
    });
    let geometry = match &file.board {
        Some(b) if (3..=MAX_FILES).contains(&b.files) && (3..=MAX_RANKS).contains(&b.ranks) => Geometry { files: b.files, ranks: b.ranks },
        Some(b) => {
            ck.add("board", format!("{}×{} is outside 3×3 to 16×16", b.files, b.ranks));
            Geometry::CHESS
        }
        None => {
            ck.add("board", "missing; say the size, e.g. board: (files: 8, ranks: 8)");
            Geometry::CHESS
        }
    };
    if let Some(b) = &file.board
        && let Some(r) = b.river
        && (r == 0 || r >= geometry.ranks)
    {
        ck.add("board.river", format!("a river after rank {r} is not inside a board of {} ranks", geometry.ranks));
    }
    if let Some(b) = &file.board {
        for (i, w) in b.walls.iter().enumerate() {
            if geometry.parse_square(w).is_none() {
                ck.add(format!("board.walls[{i}]"), format!("'{w}' is not a square of the {}×{} board", geometry.files, geometry.ranks));
            }
        }
        if !b.walls.is_empty() {
            ck.add("board.walls", "walls are not supported by the engine yet");
        }
    }
    let regions = file.regions.clone().unwrap_or_default();
    // Piece types.
    let specs = file.pieces.clone().unwrap_or_default();
    if specs.is_empty() {
        ck.add("pieces", "no piece types; list at least one");
    }
    let mut defs = Vec::new();
    for (i, p) in specs.iter().enumerate() {
        let path = format!("pieces[{}]", p.letter);
        if !p.letter.is_ascii_uppercase() {
            ck.add(format!("{path}.letter"), format!("'{}' is not an upper-case letter A-Z", p.letter));
        }
        if specs[..i].iter().any(|q| q.letter == p.letter) {
            ck.add(format!("{path}.letter"), format!("'{}' is used by an earlier piece type", p.letter));
        }
        if p.name.is_empty() || specs[..i].iter().any(|q| q.name == p.name) {
            ck.add(format!("{path}.name"), format!("'{}' is empty or used by an earlier piece type", p.name));
        }
        if let Some(ranks) = &p.initial_ranks
            && let Some(r) = ranks.iter().find(|&&r| r == 0 || r > geometry.ranks)
        {
            ck.add(format!("{path}.initial_ranks"), format!("rank {r} is not between 1 and {}", geometry.ranks));
        }
        if let Some(mut def) = piece_def(p, &format!("{path}.betza"), &mut ck) {
            if let Some(name) = &p.code {
                match code_piece(name) {
                    Some((generator, probe)) if (p.confined.is_none() || code_piece_confinable(name)) && p.region_moves.is_none() => {
                        def.generator = generator;
                        def.attack_probe = probe;
                    }
                    Some(_) => ck.add(format!("{path}.code"), "a code piece cannot be confined or have region moves".to_string()),
                    None => ck.add(format!("{path}.code"), format!("no code piece '{name}' (there are: {})", CODE_PIECES.join(", "))),
                }
            }
            if let Some(to) = p.promotes_to {
                match specs.iter().position(|q| q.letter == to) {
                    Some(t) if to != p.letter => def.promotes_to = Some(PieceType(t as u8)),
                    _ => ck.add(format!("{path}.promotes_to"), format!("'{to}' is not the letter of another piece type")),
                }
                if file.piece_promotion.is_none() {
                    ck.add(format!("{path}.promotes_to"), "needs a zone; add piece_promotion: (zone: 7)");
                }
            }
            if let Some(region) = &p.confined {
                def.zones.confinement = Some(region_squares(region, &regions, geometry, &mut ck, 0));
            }
            if let Some(rm) = &p.region_moves {
                match parse_betza(&rm.betza) {
                    Ok(atoms) => def.zones.region_atoms = Some((region_squares(&rm.region, &regions, geometry, &mut ck, 0), atoms)),
                    Err(e) => {
                        ck.add(format!("{path}.region_moves.betza"), format!("'{}' at character {}: {}", rm.betza, e.position, e.message))
                    }
                }
            }
            defs.push(def);
        }
    }
    let registry = if defs.len() == specs.len() && !defs.is_empty() {
        match PieceTypeRegistry::compile(geometry, defs) {
            Ok(r) => Some(r),
            Err(e) => {
                ck.add("pieces", e.to_string());
                None
            }
        }
    } else {
        None
    };
    // Types are compiled in the order listed, so a letter's index is its type even when
    // another type failed to compile.
    let letter = |c: char| specs.iter().position(|p| p.letter == c).map(|i| PieceType(i as u8));
    // Castling.
    let castling = match &file.castling {
        None | Some(CastlingSpec::Off) => None,
        Some(CastlingSpec::On { king, rook, rank, rook_start, .. }) => {
            let files = [king.0, king.1, rook.0, rook.1].map(|c| file_of(c, geometry));
            if files.iter().any(Option::is_none) {
                ck.add("castling", format!("a landing file is not on a board with {} files", geometry.files));
            }
            if !specs.iter().any(|p| p.castles) || !specs.iter().any(|p| p.castling_partner) {
                ck.add("castling", "castling needs a piece type with `castles: true` and one with `castling_partner: true`");
            }
            let f = files.map(|x| x.unwrap_or(0));
            if *rank == 0 || *rank > geometry.ranks {
                ck.add("castling.rank", format!("rank {rank} is not between 1 and {}", geometry.ranks));
            }
            let rook_start = rook_start.map(|(a, b)| [file_of(a, geometry).unwrap_or(0), file_of(b, geometry).unwrap_or(0)]);
            Some(CastlingRule { king_files: [f[0], f[1]], rook_files: [f[2], f[3]], rank: rank.saturating_sub(1), rook_start })
        }
    };
    let chess960 = matches!(file.castling, Some(CastlingSpec::On { king_takes_rook: true, .. }));
    // Promotion.
    let promotion = match &file.promotion {
        Some(p) => {
            if p.rank == 0 || p.rank > geometry.ranks {
                ck.add("promotion.rank", format!("rank {} is not between 1 and {}", p.rank, geometry.ranks));
            }
            let mut choices = Vec::new();
            for c in p.choices.chars() {
                match letter(c) {
                    Some(t) => choices.push(t),
                    None => ck.add("promotion.choices", format!("'{c}' is not the letter of a piece type")),
                }
            }
            let mut limits = Vec::new();
            for (c, max) in &p.limits {
                match letter(*c) {
                    Some(t) => limits.push((t, *max)),
                    None => ck.add(format!("promotion.limits.{c}"), format!("'{c}' is not the letter of a piece type")),
                }
            }
            if let Some(from) = p.optional_from
                && (from == 0 || from > p.rank)
            {
                ck.add("promotion.optional_from", format!("rank {from} is not between 1 and the promotion rank {}", p.rank));
            }
            PromotionRule { rank: p.rank.saturating_sub(1), choices, optional_from: p.optional_from.map(|r| r.saturating_sub(1)), limits }
        }
        None => {
            if specs.iter().any(|p| p.promotes) {
                ck.add("promotion", "a piece type promotes but there is no promotion rule; add promotion: (rank: 8, choices: \"QRBN\")");
            }
            PromotionRule { rank: geometry.ranks - 1, choices: Vec::new(), optional_from: None, limits: Vec::new() }
        }
    };
    if specs.iter().any(|p| p.promotes) && promotion.choices.is_empty() && file.promotion.is_some() {
        ck.add("promotion.choices", "empty; list the letters a piece may promote to");
    }
    // End conditions.
    for name in regions.keys() {
        region_squares(name, &regions, geometry, &mut ck, 0);
    }
    let mut end = Vec::new();
    let specs_end = file.end.clone().unwrap_or_else(|| {
        vec![
            EndSpec::Checkmate,
            EndSpec::Stalemate(crate::rules::Verdict::Draw),
            EndSpec::MoveRule(100),
            EndSpec::Repetition(3),
            EndSpec::InsufficientMaterial,
        ]
    });
    for (i, e) in specs_end.iter().enumerate() {
        end.push(match e {
            EndSpec::Checkmate => EndCondition::Checkmate,
            EndSpec::Stalemate(v) => EndCondition::Stalemate(*v),
            EndSpec::BareKing(v) => EndCondition::BareKing(*v),
            EndSpec::Extinction { pieces, per_type, fewer_than, verdict } => {
                let types = letters_mask(pieces, &format!("end[{i}].pieces"), &letter, &mut ck);
                EndCondition::Extinction { types, per_type: *per_type, fewer_than: (*fewer_than).max(1), verdict: *verdict }
            }
            EndSpec::Checkmated(v) => EndCondition::Checkmated(*v),
            EndSpec::MoveRule(n) => EndCondition::MoveRule(*n),
            EndSpec::NCheck(n) => EndCondition::NCheck(*n),
            EndSpec::Repetition(n) => EndCondition::Repetition(*n),
            EndSpec::InsufficientMaterial => EndCondition::InsufficientMaterial,
            EndSpec::Bikjang => EndCondition::Bikjang,
            EndSpec::DoublePass => EndCondition::DoublePass,
            EndSpec::RegionHeld { pieces, region } => {
                let types = letters_mask(pieces, &format!("end[{i}].pieces"), &letter, &mut ck);
                let regions = region_squares(region, &regions, geometry, &mut ck, 0);
                EndCondition::RegionHeld { types, regions }
            }
            EndSpec::RegionReached { pieces, region, reply, safe } => {
                let types = letters_mask(pieces, &format!("end[{i}].pieces"), &letter, &mut ck);
                let regions = region_squares(region, &regions, geometry, &mut ck, 0);
                EndCondition::RegionReached { types, regions, reply: *reply, safe: *safe }
            }
        });
    }
    let has_royal = specs.iter().any(|p| p.royal);
    let other_win = end.iter().any(|e| e.is_immediate() || matches!(e, EndCondition::Checkmated(_)));
    if !has_royal && !other_win {
        ck.add("end", "no piece type is royal and no other condition wins the game; mark the king `royal: true` or add a win condition");
    }
    // Presets: known ids, and a set that can be active together.
    let mut presets = Vec::new();
    let mut activations = Vec::new();
    for (i, p) in file.presets.iter().flatten().enumerate() {
        match crate::presets::by_id(&p.id) {
            Some(def) => {
                let scope = p.scope.unwrap_or_default();
                presets.push(PresetRequest {
                    id: p.id.clone(),
                    params: p.params.clone(),
                    sides: [scope.covers(crate::rules::Side::White), scope.covers(crate::rules::Side::Black)],
                    turns: p.duration,
                });
                activations.push(crate::presets::Activation { id: def.id, params: p.params.clone(), scope, turns_left: p.duration });
            }
            None => {
                let known: Vec<&str> = crate::presets::ALL.iter().map(|d| d.id).collect();
                ck.add(format!("presets[{i}].id"), format!("no preset '{}'; known: {}", p.id, known.join(", ")));
            }
        }
    }
    if let Err(e) = crate::presets::validate(&activations) {
        ck.add("presets", e.to_string());
    }
    if let Some(profile) = &file.profile {
        ck.add("profile", format!("no modifier profile '{profile}' in this build"));
    }
    let drops = file.drops.as_ref().map(|d| {
        let mut forbidden_ranks = Vec::new();
        for (c, ranks) in &d.forbidden_ranks {
            match letter(*c) {
                Some(t) => {
                    if let Some(r) = ranks.iter().find(|&&r| r == 0 || r > geometry.ranks) {
                        ck.add(format!("drops.forbidden_ranks.{c}"), format!("rank {r} is not between 1 and {}", geometry.ranks));
                    }
                    forbidden_ranks.push((t, ranks.iter().map(|r| r.saturating_sub(1)).collect()));
                }
                None => ck.add(format!("drops.forbidden_ranks.{c}"), format!("'{c}' is not the letter of a piece type")),
            }
        }
        if let Some(r) = d.ranks.iter().find(|&&r| r == 0 || r > geometry.ranks) {
            ck.add("drops.ranks", format!("rank {r} is not between 1 and {}", geometry.ranks));
        }
        DropRule {
            captures_to_hand: d.captures_to_hand,
            forbidden_ranks,
            ranks: d.ranks.iter().map(|r| r.saturating_sub(1)).collect(),
            must_drop: d.must_drop,
            opposite_bishops: d.opposite_bishops,
            castling_on_drop: d.castling_on_drop,
            no_doubled: letters_mask(&d.no_doubled, "drops.no_doubled", &letter, &mut ck),
            no_drop_mate: letters_mask(&d.no_drop_mate, "drops.no_drop_mate", &letter, &mut ck),
        }
    });
    let blast = file.blast.as_ref().map(|b| BlastRule { immune: letters_mask(&b.immune, "blast.immune", &letter, &mut ck) });
    let shuffle = match file.shuffle {
        Some(ShuffleSpec::Shuffled(s)) => Some(s),
        _ => None,
    };
    let piece_promotion = file.piece_promotion.as_ref().map(|p| {
        if p.zone == 0 || p.zone > geometry.ranks {
            ck.add("piece_promotion.zone", format!("rank {} is not between 1 and {}", p.zone, geometry.ranks));
        }
        PiecePromotion { zone: p.zone.saturating_sub(1), mandatory: p.mandatory }
    });
    let material_count = file.material_count.as_ref().map(|m| {
        let mut points = Vec::new();
        for (c, p) in &m.points {
            match letter(*c) {
                Some(t) => points.push((t, *p)),
                None => ck.add(format!("material_count.points.{c}"), format!("'{c}' is not the letter of a piece type")),
            }
        }
        MaterialCount { points, black_bonus: m.black_bonus }
    });
    let lines = file.diagonal_lines.as_ref().map(|r| region_squares(r, &regions, geometry, &mut ck, 0)[0]);
    let Some(mut registry) = registry else { return Err(LoadError::Invalid(ck.problems)) };
    if let Some(lines) = lines {
        registry.lines = lines;
    }
    // Per type and side, the squares from which it could never move (on an empty board).
    let immobile = if file.no_immobile_pieces.unwrap_or(false) {
        registry
            .ids()
            .map(|t| {
                let mut sets = [[0u64; 4]; 2];
                for side in crate::rules::Side::BOTH {
                    for sq in geometry.squares() {
                        if registry.tables[t.0 as usize].rays(geometry.len(), side, sq).is_empty() {
                            sets[side.index()][sq.index() >> 6] |= 1u64 << (sq.0 & 63);
                        }
                    }
                }
                sets
            })
            .collect()
    } else {
        Vec::new()
    };
    let variant = Variant {
        id: file.id.clone(),
        name,
        description: file.description.clone().unwrap_or_default(),
        rules_summary: file.rules_summary.clone().unwrap_or_default(),
        geometry,
        registry,
        start_fen: file.start.clone().unwrap_or_default(),
        castling,
        promotion,
        piece_promotion,
        immobile,
        chess960,
        shuffle,
        end,
        mandatory_capture: file.mandatory_capture.unwrap_or(false),
        checks_forbidden: file.checks_forbidden.unwrap_or(false),
        drops,
        blast,
        flying_general: file.flying_general.unwrap_or(false),
        pass: file.pass.unwrap_or(false),
        material_count,
        gating: file.gating.unwrap_or(false),
        look: file
            .board
            .as_ref()
            .map(|b| BoardLook { intersections: b.style == BoardStyle::Intersections, river_after: b.river })
            .unwrap_or_default(),
        presets,
    };
    match &file.start {
        None => ck.add("start", "missing; give the start position as FEN"),
        Some(fen) => {
            if let Err(e) = parse_fen(&variant, fen) {
                ck.add("start", e.to_string());
            }
        }
    }
    if ck.problems.is_empty() { Ok(variant) } else { Err(LoadError::Invalid(ck.problems)) }
}

/// Loads a variant file from disk: its parents are looked up beside it first, then among
/// the built-in variants. The id must equal the file stem.
///
/// # Errors
/// Unreadable file, bad RON, or an invalid variant.
pub fn load_path(path: &Path) -> Result<Variant, LoadError> {
    let text = std::fs::read_to_string(path).map_err(|e| LoadError::Io(format!("{}: {e}", path.display())))?;
    let file = parse_variant_file(&text)?;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let lookup = move |id: &str| -> Option<VariantFile> {
        let sibling = dir.join(format!("{id}.ron"));
        std::fs::read_to_string(sibling).ok().and_then(|t| parse_variant_file(&t).ok()).or_else(|| super::builtin_file(id))
    };
    let mut id_problem = None;
    if file.id != stem {
        id_problem =
            Some(Problem { path: "id".into(), message: format!("'{}' differs from the file name '{stem}'; they must match", file.id) });
    }
    let resolved = resolve(file, &lookup)?;
    match (compile(&resolved), id_problem) {
        (Ok(v), None) => Ok(v),
        (Ok(_), Some(p)) => Err(LoadError::Invalid(vec![p])),
        (Err(LoadError::Invalid(mut ps)), Some(p)) => {
            ps.insert(0, p);
            Err(LoadError::Invalid(ps))
        }
        (Err(e), _) => Err(e),
    }
}
