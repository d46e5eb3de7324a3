//! Data presets: presets written as files of facts and actions (`data-presets/*.ron`, see
//! `presets/README.md`, "Data presets"), shipped inside the program and switched on by id as
//! the Rust presets are. Each names the Rust preset it re-expresses (`oracle`), against which a
//! differential test plays it. Its actions are compiled against the variant of the game it is
//! switched on in (piece types by name, its regions on that board); an action naming a type the
//! variant lacks does nothing there, as a Rust preset looking for a queen does nothing in
//! Xiangqi.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use bevy::prelude::*;
use serde::Deserialize;

use super::action_compile::{ActionProblem, Names, compile_actions, compile_facts};
use super::action_spec::{ActionSpec, FORMAT, FactSpec};
use super::{Activation, FactLook, PresetDef};
use crate::rules::{FactDecl, Hook, PieceType, SquareSet, Variant};

/// The files, by name.
const FILES: [(&str, &str); 16] = [
    ("explosive-rook.ron", include_str!("../../data-presets/explosive-rook.ron")),
    ("capture-to-win.ron", include_str!("../../data-presets/capture-to-win.ron")),
    ("poisoned-squares.ron", include_str!("../../data-presets/poisoned-squares.ron")),
    ("piece-hp.ron", include_str!("../../data-presets/piece-hp.ron")),
    ("piece-shield.ron", include_str!("../../data-presets/piece-shield.ron")),
    ("knight-immunity.ron", include_str!("../../data-presets/knight-immunity.ron")),
    ("king-heals.ron", include_str!("../../data-presets/king-heals.ron")),
    ("queen-splits.ron", include_str!("../../data-presets/queen-splits.ron")),
    ("double-move.ron", include_str!("../../data-presets/double-move.ron")),
    ("monster-rules.ron", include_str!("../../data-presets/monster-rules.ron")),
    ("stamina.ron", include_str!("../../data-presets/stamina.ron")),
    ("coregal.ron", include_str!("../../data-presets/coregal.ron")),
    ("knightmate-rules.ron", include_str!("../../data-presets/knightmate-rules.ron")),
    ("capture-all.ron", include_str!("../../data-presets/capture-all.ron")),
    ("suicide-chess.ron", include_str!("../../data-presets/suicide-chess.ron")),
    ("last-piece-standing.ron", include_str!("../../data-presets/last-piece-standing.ron")),
];

/// A data preset's file.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataPresetFile {
    /// Its id (kebab-case), as a variant file's `presets` names it.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// What it does, for players.
    pub description: String,
    /// The format it is written in (2).
    pub format: u32,
    /// The Rust preset it re-expresses, if any.
    #[serde(default)]
    pub oracle: Option<String>,
    /// Presets that must be active with it (whose facts its actions may use).
    #[serde(default)]
    pub requires: Vec<String>,
    /// Presets that may not be active with it.
    #[serde(default)]
    pub incompatible_with: Vec<String>,
    /// The piece facts it declares.
    #[serde(default)]
    pub facts: Vec<FactSpec>,
    /// Its regions, by name.
    #[serde(default)]
    pub regions: BTreeMap<String, DataRegion>,
    /// Its actions.
    #[serde(default)]
    pub actions: Vec<ActionSpec>,
}

/// A data preset's region, on whatever board it is played on.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum DataRegion {
    /// The middle two (or one) files by the middle two (or one) ranks: d4, e4, d5 and e5 on a
    /// standard board.
    Centre,
    /// These squares (by name; the ones a board lacks are left out).
    Squares(Vec<String>),
}

/// A data preset, read.
#[derive(Debug)]
pub struct DataPreset {
    /// Its definition, as the Rust presets have one.
    pub def: &'static PresetDef,
    /// Its file.
    pub file: DataPresetFile,
    /// Its facts.
    pub facts: Vec<FactDecl>,
}

/// Every data preset, in the order of [`FILES`].
pub fn all() -> &'static [DataPreset] {
    static ALL: LazyLock<Vec<DataPreset>> =
        LazyLock::new(|| FILES.iter().map(|(name, text)| read(text).unwrap_or_else(|e| panic!("data-presets/{name}: {e}"))).collect());
    &ALL
}

/// The data preset with this id.
pub fn by_id(id: &str) -> Option<&'static DataPreset> {
    all().iter().find(|d| d.file.id == id)
}

fn leak(s: &str) -> &'static str {
    crate::rules::intern(s)
}

fn leak_list(v: &[String]) -> &'static [&'static str] {
    Box::leak(v.iter().map(|s| leak(s)).collect::<Vec<_>>().into_boxed_slice())
}

/// Reads a data preset's file (its facts checked; its actions are checked against each
/// variant it is played in).
///
/// # Errors
/// RON that does not parse, a format this build does not read, or a bad fact.
pub fn read(text: &str) -> Result<DataPreset, String> {
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let file: DataPresetFile = options.from_str(text).map_err(|e| e.to_string())?;
    if file.format > FORMAT || file.format < 2 {
        return Err(format!("format {} (this build reads 2 to {FORMAT})", file.format));
    }
    let mut problems = Vec::new();
    let facts = compile_facts(&file.facts, &[], &mut problems);
    if let Some(p) = problems.first() {
        return Err(format!("{}: {}", p.path, p.message));
    }
    let looks: Vec<FactLook> = facts.iter().filter_map(super::facts::look_of).collect();
    let names: Vec<String> = facts.iter().map(|d| d.name.to_string()).collect();
    let def = PresetDef {
        id: leak(&file.id),
        name: leak(&file.name),
        description: leak(&file.description),
        incompatible_with: leak_list(&file.incompatible_with),
        requires: leak_list(&file.requires),
        piece_attributes: leak_list(&names),
        variant_hooks,
        on_activate,
        on_deactivate,
        looks: Box::leak(looks.into_boxed_slice()),
        ..PresetDef::BASE
    };
    Ok(DataPreset { def: Box::leak(Box::new(def)), file, facts })
}

/// A variant's piece types and a data preset's regions on its board.
struct OnVariant<'a> {
    variant: &'a Variant,
    regions: &'a BTreeMap<String, DataRegion>,
}

impl Names for OnVariant<'_> {
    fn piece(&self, name: &str) -> Option<PieceType> {
        let reg = &self.variant.registry;
        let mut letters = name.chars();
        match (letters.next(), letters.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => reg.by_letter(c),
            _ => reg.by_name(name),
        }
    }

    fn piece_names(&self) -> Vec<String> {
        self.variant.registry.ids().map(|k| self.variant.registry.def(k).name.clone()).collect()
    }

    fn lenient_lists(&self) -> bool {
        true
    }

    fn all(&self) -> Vec<PieceType> {
        self.variant.registry.ids().collect()
    }

    fn royal(&self) -> Vec<PieceType> {
        self.variant.registry.ids().filter(|&k| self.variant.registry.def(k).royal).collect()
    }

    fn hands(&self) -> bool {
        self.variant.drops.is_some()
    }

    // (A data preset is played in games it was not written for: a preset that exists will do.)
    fn preset(&self, id: &str) -> bool {
        super::by_id(id).is_some()
    }

    fn region(&mut self, name: &str, _path: &str) -> Option<[SquareSet; 2]> {
        let g = self.variant.geometry;
        let mut set = SquareSet::EMPTY;
        match self.regions.get(name)? {
            DataRegion::Centre => super::centre_squares(g).into_iter().for_each(|sq| set.insert(sq)),
            DataRegion::Squares(names) => names.iter().filter_map(|n| g.parse_square(n)).for_each(|sq| set.insert(sq)),
        }
        Some([set, set])
    }
}

/// The facts the preset's actions may use: its own and those of the data presets it requires.
fn usable_facts(d: &DataPreset) -> Vec<&'static str> {
    let required = d.file.requires.iter().filter_map(|id| by_id(id)).flat_map(|r| r.facts.iter());
    d.facts.iter().chain(required).map(|f| f.name).collect()
}

/// Its actions compiled against `variant`, with the problems (an action naming a type the
/// variant lacks is left out, and says so).
pub fn compiled(d: &DataPreset, variant: &Variant) -> (Vec<crate::rules::Action>, Vec<ActionProblem>) {
    let mut names = OnVariant { variant, regions: &d.file.regions };
    let mut problems = Vec::new();
    let actions = compile_actions(&d.file.actions, &usable_facts(d), &mut names, &mut problems);
    (actions, problems)
}

fn variant_hooks(a: &Activation, v: &Variant) -> Vec<Hook> {
    let Some(d) = by_id(a.id) else { return Vec::new() };
    let mut hooks = super::facts::hooks(d.def.id, &d.facts);
    hooks.extend(super::actions::hooks_for(d.def.id, &compiled(d, v).0, a.scope.sides()));
    hooks
}

fn on_activate(world: &mut World, a: &Activation) {
    if let Some(d) = by_id(a.id) {
        super::facts::give_all(world, &d.facts);
    }
}

fn on_deactivate(world: &mut World, a: &Activation) {
    if let Some(d) = by_id(a.id) {
        super::facts::take_all(world, &d.facts);
    }
}
