//! A game definition: what a game is played by, resolved once, and the one way to start a game
//! from it.
//!
//! A compiled [`Variant`] names its presets by id and carries its modifier profile as RON
//! text. [`GameDefinition::new`] reads both once: the presets become [`Activation`]s (checked
//! together), the profile a [`Profile`]. [`GameDefinition::start`] then builds a game for the
//! command line, `uci`, PGN import and saves; [`GameDefinition::start_in`] sets one up in the
//! window's world (a new game, a resumed save, the editor's test-play). Both start the same way:
//!
//! 1. the rules installed on an empty board, and the presets switched on;
//! 2. the start set up under them (under hit points a start may have a king attacked);
//! 3. the profile put on at that start, where its per-instance keys bind;
//! 4. with a profile and a given position, that position set up afterwards (bound again by its
//!    squares or by the FEN's `bound` section) and the profile checked on it.
//!
//! [`Start::New`] is a new game from the variant's start: a variant that shuffles its start
//! (Chess960) draws one with the picker it is given. [`Start::Given`] is the position given,
//! unchanged (`startpos` is the variant's own start, unshuffled), for `perft`, `uci`'s
//! `position startpos`, FENs, PGN and saves.
//!
//! Layer: presets (uses rules, modifiers).

use std::sync::Arc;

use bevy::prelude::World;

use super::{Activation, by_id, profile, requested_by, set_active_presets, set_position, validate};
use crate::modifiers::{Profile, ProfileProblem};
use crate::rules::{Engine, Rules, Variant, install_rules_bare};

/// A game's rules resolved once: the compiled variant, the presets with their parameters, scope
/// and duration, and the modifier profile.
#[derive(Clone, Debug)]
pub struct GameDefinition {
    /// The compiled variant.
    pub variant: Arc<Variant>,
    /// The presets switched on at the start, in order.
    pub presets: Vec<Activation>,
    /// The modifier profile put on at the start.
    pub profile: Option<Profile>,
}

/// Where a game starts.
pub enum Start<'a> {
    /// A new game from the variant's start; `pick(n)` chooses in `0..n` for a variant that
    /// shuffles its start.
    New(&'a mut dyn FnMut(u16) -> u16),
    /// This position: a FEN, or `startpos` for the variant's start as written.
    Given(&'a str),
}

impl GameDefinition {
    /// The definition `variant` asks for: its presets and its profile.
    ///
    /// # Errors
    /// A preset set that cannot be active together, or a profile that does not read.
    pub fn new(variant: Variant) -> Result<GameDefinition, String> {
        let presets = requested_by(&variant);
        validate(&presets).map_err(|e| e.to_string())?;
        let profile = match &variant.profile {
            Some(text) => Some(Profile::from_ron(text)?),
            None => None,
        };
        Ok(GameDefinition { variant: Arc::new(variant), presets, profile })
    }

    /// The definition with the presets `ids` switched on too (those already on are kept as
    /// they are).
    ///
    /// # Errors
    /// An unknown id, or a set that cannot be active together.
    pub fn with_preset_ids(mut self, ids: &[String]) -> Result<GameDefinition, String> {
        for id in ids {
            let def = by_id(id).ok_or_else(|| format!("no preset '{id}' (see `chimera list presets`)"))?;
            if !self.presets.iter().any(|a| a.id == def.id) {
                self.presets.push(Activation::of(def.id));
            }
        }
        validate(&self.presets).map_err(|e| e.to_string())?;
        Ok(self)
    }

    /// The variant's position to set up for `from`.
    fn position(&self, from: Start) -> String {
        match from {
            Start::New(pick) => self.variant.new_game_fen(pick),
            Start::Given(fen) if fen.trim() == "startpos" => self.variant.start_fen.clone(),
            Start::Given(fen) => fen.to_string(),
        }
    }

    /// A game from `from`.
    ///
    /// A game without presets and profile is the rules' own ([`Engine::from_fen`]): a FEN's
    /// trailing field, which only presets read, is refused.
    ///
    /// # Errors
    /// A bad position, a position the presets refuse, or a profile that does not fit.
    pub fn start(&self, from: Start) -> Result<Engine, String> {
        let given = matches!(from, Start::Given(_));
        let fen = self.position(from);
        if self.presets.is_empty() && self.profile.is_none() {
            return Engine::from_fen_shared(self.variant.clone(), &fen).map_err(|e| e.to_string());
        }
        let mut world = World::new();
        self.set_up(&mut world, &fen, given)?;
        Ok(Engine::from_world(world))
    }

    /// Replaces the game in `world` (the window's) with one from `from`: the old presets are
    /// switched off on the old pieces first.
    ///
    /// # Errors
    /// As [`GameDefinition::start`]; the world's game is then as it was. (The start is set up
    /// in a world of its own first: presets may refuse it only once they are on, after the
    /// old game has gone.)
    pub fn start_in(&self, world: &mut World, from: Start) -> Result<(), String> {
        let given = matches!(from, Start::Given(_));
        let fen = self.position(from);
        self.set_up(&mut World::new(), &fen, given)?;
        if world.contains_resource::<Rules>() {
            set_active_presets(world, vec![]).map_err(|e| e.to_string())?;
        }
        self.set_up(world, &fen, given)
    }

    /// Steps 1–4 of the module docs, with `fen` the position to reach.
    fn set_up(&self, world: &mut World, fen: &str, given: bool) -> Result<(), String> {
        // A given position under a profile comes after the profile is put on at the variant's
        // start; a new game's start is the profile's start.
        let first = if given && self.profile.is_some() { self.variant.start_fen.as_str() } else { fen };
        install_rules_bare(world, self.variant.clone());
        set_active_presets(world, self.presets.clone()).map_err(|e| e.to_string())?;
        set_position(world, first)?;
        profile::apply_profile(world, self.profile.as_ref()).map_err(|p| problems(self.profile.as_ref(), &p))?;
        if let Some(profile) = &self.profile
            && first != fen
        {
            set_position(world, fen)?;
            profile::validate_profile(world, profile).map_err(|p| problems(Some(profile), &p))?;
        }
        Ok(())
    }
}

/// A profile's problems in one line.
fn problems(profile: Option<&Profile>, problems: &[ProfileProblem]) -> String {
    let list = problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
    match profile {
        Some(p) => format!("profile '{}': {list}", p.id),
        None => list,
    }
}

/// A game of `variant` from `fen` (or `startpos`), as its definition asks: shorthand for
/// [`GameDefinition::new`] then [`Start::Given`].
///
/// # Errors
/// See [`GameDefinition::new`] and [`GameDefinition::start`].
pub fn new_game(variant: Variant, fen: &str) -> Result<Engine, String> {
    GameDefinition::new(variant)?.start(Start::Given(fen))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesWorld;

    /// A picker from a seed (a small linear congruential generator).
    fn seeded(mut seed: u32) -> impl FnMut(u16) -> u16 {
        move |n| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            u16::try_from((seed >> 8) % u32::from(n)).unwrap_or(0)
        }
    }

    #[test]
    fn a_new_game_draws_its_start_and_a_given_one_is_kept() {
        let definition = GameDefinition::new(Variant::chess960()).unwrap();
        let drawn = |seed| definition.start(Start::New(&mut seeded(seed))).unwrap().fen();
        let (a, b) = (drawn(1), drawn(2));
        assert_ne!(a, b, "two seeds, two starts");
        assert_eq!(a, drawn(1), "a seed gives its start again");
        assert_eq!(a, definition.variant.new_game_fen(seeded(1)));
        let written = definition.start(Start::Given("startpos")).unwrap().fen();
        assert_eq!(written, Variant::chess960().start_fen);
        assert_eq!(definition.start(Start::Given(&b)).unwrap().fen(), b);
    }

    #[test]
    fn the_window_and_an_engine_start_the_same_game() {
        let profile = crate::modifiers::builtin("sturdy-rooks").unwrap();
        let mut variant = Variant::chess();
        variant.profile = Some(profile.to_ron());
        let definition = GameDefinition::new(variant).unwrap().with_preset_ids(&["piece-hp".into()]).unwrap();
        assert_eq!(definition.presets.len(), 1);
        // The window's world held another game before: its presets go with it.
        let mut world = World::new();
        let atomic = GameDefinition::new(Variant::chess()).unwrap().with_preset_ids(&["explosive-rook".into()]).unwrap();
        atomic.start_in(&mut world, Start::Given("startpos")).unwrap();
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        definition.start_in(&mut world, Start::Given(fen)).unwrap();
        let started = definition.start(Start::Given(fen)).unwrap().fen();
        assert_eq!(world.fen(), started);
        assert!(started.starts_with(fen), "{started}");
        assert!(started.contains("Hp="), "hit points are in the trailing field: {started}");
    }

    /// A start refused only once its presets are on (two kings crowns the queens: Black's d2
    /// queen, attacked by White's, is then a king in check with White to move) leaves the
    /// window's game as it was, its presets and undo included.
    #[test]
    fn a_start_refused_part_way_leaves_the_game_in_the_window() {
        let refused = GameDefinition::new(Variant::chess()).unwrap().with_preset_ids(&["dual-king".into()]).unwrap();
        let crowned_in_check = "4k3/8/8/8/8/8/3q4/3QK2R w K - 0 1";
        let mut world = World::new();
        let game = GameDefinition::new(Variant::chess()).unwrap().with_preset_ids(&["explosive-rook".into()]).unwrap();
        game.start_in(&mut world, Start::Given("startpos")).unwrap();
        let e4 = world.legal_moves().iter().copied().find(|m| crate::rules::to_uci(&Variant::chess(), m) == "e2e4").unwrap();
        world.apply_move(e4).unwrap();
        let before = world.fen();
        let err = refused.start_in(&mut world, Start::Given(crowned_in_check)).unwrap_err();
        assert!(err.contains("in check but it is white's turn"), "{err}");
        assert_eq!(world.fen(), before);
        assert_eq!(world.resource::<crate::presets::ActivePresets>().0.len(), 1, "the exploding rooks stay on");
        assert_eq!(world.undo_move(), Some(e4));
        assert_eq!(world.fen(), game.start(Start::Given("startpos")).unwrap().fen());
    }
}
