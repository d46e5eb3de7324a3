//! The game being played, and setting a new one up.

use bevy::prelude::*;

use super::input::{FoulWarning, PendingChoice, PositionVersion, RedoStack, Selection};
use super::seats;
use super::view::LayoutVersion;
use crate::presets::{Activation, GameDefinition, Start};
use crate::rules::RulesWorld;
use crate::variants;

/// The game being played: its variant and the presets it started with.
#[derive(Resource, Clone, Debug, Default)]
pub struct GameSetup {
    /// Variant id or path.
    pub variant_id: String,
    /// Presets switched on at the start, in order.
    pub presets: Vec<Activation>,
    /// The position the game started from (FEN).
    pub start_fen: String,
    /// A user variant's definition, self-contained (`extends` resolved), as saves carry it;
    /// `None` for a built-in.
    pub definition: Option<variants::VariantFile>,
    /// Counts the games set up in this window (each new, loaded or resumed game is another),
    /// so that the autosave knows a new game from the same one played on.
    pub serial: u64,
}

/// The game `variant_id` names (a built-in, a `.ron` file, or `file.ini:section`) with the
/// presets `presets` on too, and its file when it is a user's.
///
/// # Errors
/// An unknown variant, a bad variant file, or a preset set that cannot be active.
pub(in crate::game) fn definition_for(
    world: &World,
    variant_id: &str,
    presets: &[String],
) -> Result<(GameDefinition, Option<variants::VariantFile>), String> {
    let (variant, file) = if variant_id.ends_with(".ron") || variants::fairy::ini_spec(variant_id).is_some() {
        let loaded = match variants::fairy::ini_spec(variant_id) {
            // A section of a Fairy-Stockfish ini file, converted.
            Some((path, section)) => variants::fairy::import_section(std::path::Path::new(path), section)
                .and_then(|file| Ok((variants::compile(&file).map_err(|e| e.to_string())?, file))),
            None => {
                let path = std::path::Path::new(variant_id);
                variants::load_path(path).and_then(|v| Ok((v, variants::resolve_path(path)?))).map_err(|e| e.to_string())
            }
        };
        match loaded {
            Ok((variant, file)) => (variant, Some(file)),
            Err(e) => {
                // A resumed game's variant whose file has gone since: its saved definition.
                let kept = world.get_resource::<GameSetup>().filter(|s| s.variant_id == variant_id).and_then(|s| s.definition.clone());
                let Some(file) = kept else { return Err(format!("variant: {e}")) };
                (variants::compile(&file).map_err(|e| format!("variant: {e}"))?, Some(file))
            }
        }
    } else {
        (variants::builtin(variant_id).map_err(|e| format!("variant: {e}"))?, None)
    };
    Ok((GameDefinition::new(variant)?.with_preset_ids(presets)?, file))
}

/// Sets up a new game of `variant_id` with `presets` in `world`: the old presets are switched
/// off on the old pieces, the rules installed, the new presets switched on, and the start (a
/// new one for a variant that shuffles it) set up.
///
/// # Errors
/// An unknown variant, a bad variant file, or a preset set that cannot be active.
pub fn start_game(world: &mut World, variant_id: &str, presets: &[String]) -> Result<(), String> {
    let (definition, file) = definition_for(world, variant_id, presets)?;
    start_definition(world, variant_id, file, &definition, Start::New(&mut |n| rand::random_range(0..n)))
}

/// Sets up a game of `definition` (labelled `variant_id`, with its `file` when it is a
/// user's) from `from`, with fresh clocks.
///
/// # Errors
/// A start the presets refuse, or a profile that does not fit it.
pub fn start_definition(
    world: &mut World,
    variant_id: &str,
    file: Option<variants::VariantFile>,
    definition: &GameDefinition,
    from: Start,
) -> Result<(), String> {
    definition.start_in(world, from)?;
    let start_fen = world.fen();
    let serial = world.get_resource::<GameSetup>().map_or(0, |s| s.serial + 1);
    world.insert_resource(GameSetup {
        serial,
        variant_id: variant_id.to_string(),
        presets: definition.presets.clone(),
        start_fen,
        definition: file,
    });
    seats::fresh(world);
    Ok(())
}

/// After a new game is set up: the board is laid out and drawn again, and the old game's
/// selection, redo moves, pending choice and foul warning go.
pub(in crate::game) fn after_new_game(world: &mut World) {
    world.resource_mut::<LayoutVersion>().0 += 1;
    world.resource_mut::<PositionVersion>().0 += 1;
    *world.resource_mut::<Selection>() = Selection::default();
    world.resource_mut::<RedoStack>().0.clear();
    world.resource_mut::<PendingChoice>().0.clear();
    world.resource_mut::<FoulWarning>().0 = None;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every new game of a variant that shuffles its start starts from a shuffled position (a
    /// rematch too); a variant that does not shuffle starts from its start.
    #[test]
    fn a_shuffled_variant_starts_each_game_anew() {
        let mut world = World::new();
        let mut starts = std::collections::BTreeSet::new();
        for _ in 0..6 {
            start_game(&mut world, "chess960", &[]).unwrap();
            let fen = world.resource::<GameSetup>().start_fen.clone();
            let ranks: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
            assert_eq!(ranks[0], ranks[7].to_ascii_lowercase(), "black mirrors white: {fen}");
            starts.insert(fen);
        }
        assert!(starts.len() > 1, "six games, one start: {starts:?}");
        start_game(&mut world, "chess", &[]).unwrap();
        assert_eq!(world.resource::<GameSetup>().start_fen, crate::rules::Variant::chess().start_fen);
    }
}
