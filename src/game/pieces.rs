//! Piece images: drawn from the chess symbols of Noto Sans Symbols 2 by
//! `scripts/make_pieces.py`, and a second set for the standard pieces and the knight compounds
//! ("Flat", `flat-*`, drawn by `scripts/make_flat_pieces.py`), embedded in the binary (the game finds them wherever it runs),
//! and chosen per piece type by name and movement. A type without an image (a designer's new
//! piece) is drawn as a disc with its letter, never as a missing glyph.

use bevy::asset::RenderAssetUsages;
use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiTextureHandle, egui};

use super::shared::GameSystems;
use crate::rules::{PieceTypeDef, Side};

macro_rules! images {
    ($($name:literal),* $(,)?) => {
        &[$(($name,
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/pieces/", $name, "-w.png")).as_slice(),
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/pieces/", $name, "-b.png")).as_slice())),*]
    };
}

/// Every image: name, white PNG, black PNG.
const IMAGES: &[(&str, &[u8], &[u8])] = images![
    "king",
    "queen",
    "rook",
    "bishop",
    "knight",
    "pawn",
    "knight-queen",
    "knight-rook",
    "knight-bishop",
    "turned-king",
    "turned-queen",
    "turned-rook",
    "turned-bishop",
    "turned-knight",
    "turned-pawn",
    "knight-45",
    "knight-90",
    "king-90",
    "queen-90",
    "rook-90",
    "bishop-90",
    "equihopper",
    "xq-general",
    "xq-advisor",
    "xq-elephant",
    "xq-horse",
    "xq-chariot",
    "xq-cannon",
    "xq-soldier",
    "sh-pawn",
    "sh-pawn-promoted",
    "sh-lance",
    "sh-lance-promoted",
    "sh-knight",
    "sh-knight-promoted",
    "sh-silver",
    "sh-silver-promoted",
    "sh-gold",
    "sh-bishop",
    "sh-bishop-promoted",
    "sh-rook",
    "sh-rook-promoted",
    "sh-horse",
    "sh-dragon",
    "sh-king",
    "do-chick",
    "do-chick-promoted",
    "do-hen",
    "do-elephant",
    "do-giraffe",
    "do-lion",
    "flat-king",
    "flat-queen",
    "flat-rook",
    "flat-bishop",
    "flat-knight",
    "flat-pawn",
    "flat-knight-queen",
    "flat-knight-rook",
    "flat-knight-bishop",
];

/// The image a piece is drawn with: a promoted piece whose type its base promotes to
/// (Shogi's `+P`) shows its base's image marked as promoted, where there is one.
pub fn piece_image_name(def: &PieceTypeDef, promoted_from: Option<&PieceTypeDef>) -> Option<&'static str> {
    if let Some(base) = promoted_from
        && let Some(glyph) = &base.glyph
        && let Some(&(name, _, _)) = IMAGES.iter().find(|(n, _, _)| n.strip_suffix("-promoted") == Some(glyph.as_str()))
    {
        return Some(name);
    }
    image_name(def)
}

/// The image a piece type is drawn with, or `None` for a letter disc.
pub fn image_name(def: &PieceTypeDef) -> Option<&'static str> {
    image_for(&def.name, &def.betza, def.glyph.as_deref())
}

/// The names of the embedded images a variant may choose for a piece (`glyph`), promoted
/// Shogi faces left out (a promoted piece shows them by itself).
pub fn image_names() -> impl Iterator<Item = &'static str> {
    IMAGES.iter().map(|(n, _, _)| *n).filter(|n| !n.ends_with("-promoted"))
}

/// The image a piece of this name and movement is drawn with, given the image its variant
/// chooses (`glyph`), or `None` for a letter disc.
pub fn image_for(name: &str, betza: &str, glyph: Option<&str>) -> Option<&'static str> {
    // The variant's own choice, where it names an embedded image.
    if let Some(glyph) = glyph
        && let Some(&(name, _, _)) = IMAGES.iter().find(|(n, _, _)| *n == glyph)
    {
        return Some(name);
    }
    let by_name = match name {
        // Knightmate's royal piece is called king but leaps as a knight.
        "king" if betza == "N" => "knight",
        "king" => "king",
        "queen" => "queen",
        "rook" => "rook",
        "bishop" => "bishop",
        "knight" => "knight",
        "pawn" => "pawn",
        "amazon" => "knight-queen",
        "archbishop" | "cardinal" | "hawk" => "knight-bishop",
        "chancellor" | "marshal" => "knight-rook",
        "elephant" if betza == "RN" => "knight-rook",
        // The old chess elephant (alfil) leaps two squares diagonally.
        "elephant" if betza == "A" => "turned-bishop",
        "elephant" => "xq-elephant",
        "general" => "xq-general",
        "advisor" => "xq-advisor",
        "horse" => "xq-horse",
        "chariot" => "xq-chariot",
        // Manchu's banner (chariot, horse and cannon in one) stands apart from the chariots.
        "banner" => "knight-rook",
        "cannon" => "xq-cannon",
        "soldier" => "xq-soldier",
        "commoner" | "mann" => "turned-king",
        "ferz" | "grasshopper" => "turned-queen",
        "met" => "queen",
        "khon" => "bishop",
        "alfil" => "turned-bishop",
        "schleich" => "turned-rook",
        "nightrider" => "knight-90",
        // The Horde (Orda): knight movers that capture like rook, bishop, queen; the yurt.
        "lancer" => "knight-rook",
        "archer" => "knight-bishop",
        "kheshig" => "turned-knight",
        "falcon" => "knight-queen",
        "yurt" => "turned-king",
        "knibis" => "knight-45",
        "biskni" => "bishop-90",
        _ => "",
    };
    if !by_name.is_empty() {
        return Some(by_name);
    }
    // A designer's piece: by what it moves like.
    match betza {
        "K" => Some("turned-king"),
        "Q" => Some("queen"),
        "R" => Some("rook"),
        "B" => Some("bishop"),
        "N" => Some("knight"),
        "BN" | "NB" => Some("knight-bishop"),
        "RN" | "NR" => Some("knight-rook"),
        "QN" | "NQ" => Some("knight-queen"),
        _ => None,
    }
}

/// The piece images: decoded at start, and registered with egui for the panels.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PieceImages>();
    app.init_resource::<PieceTextures>();
    app.add_systems(Startup, load_piece_images);
    app.add_systems(Update, register_textures.in_set(GameSystems::Present));
}

/// The decoded images, by name, for both sides.
#[derive(Resource, Default)]
pub struct PieceImages(pub Vec<(&'static str, Handle<Image>, Handle<Image>)>);

impl PieceImages {
    /// The image of `name` for `side`.
    pub fn get(&self, name: &str, side: Side) -> Option<Handle<Image>> {
        self.0.iter().find(|(n, _, _)| *n == name).map(|(_, w, b)| if side == Side::White { w.clone() } else { b.clone() })
    }
}

fn decode(bytes: &[u8]) -> Image {
    Image::from_buffer(
        bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::linear(),
        RenderAssetUsages::default(),
    )
    .expect("embedded piece images are valid PNGs")
}

/// Decodes the embedded images into the image assets.
fn load_piece_images(mut images: ResMut<Assets<Image>>, mut out: ResMut<PieceImages>) {
    for &(name, white, black) in IMAGES {
        let (w, b) = (images.add(decode(white)), images.add(decode(black)));
        out.0.push((name, w, b));
    }
}

/// Piece images registered with egui, by image name: `(white, black)`.
#[derive(Resource, Default)]
pub struct PieceTextures(pub Vec<(&'static str, egui::TextureId, egui::TextureId)>);

impl PieceTextures {
    /// The texture of a piece type for a side, if it has an image.
    pub fn of(&self, def: &PieceTypeDef, side: Side) -> Option<egui::TextureId> {
        self.named(image_name(def)?, side)
    }

    /// The texture of the image `name` for a side.
    pub fn named(&self, name: &str, side: Side) -> Option<egui::TextureId> {
        self.0.iter().find(|(n, _, _)| *n == name).map(|(_, w, b)| if side == Side::White { *w } else { *b })
    }

    /// The texture of a piece as a variant file writes it, for a side, if it has an image.
    pub fn of_spec(&self, spec: &crate::variants::PieceSpec, side: Side) -> Option<egui::TextureId> {
        self.named(image_for(&spec.name, &spec.betza, spec.glyph.as_deref())?, side)
    }
}

fn register_textures(mut contexts: EguiContexts, images: Res<PieceImages>, mut textures: ResMut<PieceTextures>) {
    if !textures.0.is_empty() || images.0.is_empty() {
        return;
    }
    for (name, w, b) in &images.0 {
        let (tw, tb) = (contexts.add_image(EguiTextureHandle::Strong(w.clone())), contexts.add_image(EguiTextureHandle::Strong(b.clone())));
        textures.0.push((name, tw, tb));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalogue_piece_has_an_image() {
        for id in crate::variants::builtin_ids() {
            let v = crate::variants::builtin(id).unwrap();
            for kind in v.registry.ids() {
                let def = v.registry.def(kind);
                let name = image_name(def).unwrap_or_else(|| panic!("{id}: no image for {}", def.name));
                assert!(IMAGES.iter().any(|(n, _, _)| *n == name), "{id}: image {name} is not embedded");
            }
        }
    }

    #[test]
    fn no_two_types_of_a_variant_look_alike() {
        for id in crate::variants::builtin_ids() {
            let v = crate::variants::builtin(id).unwrap();
            let names: Vec<&str> = v.registry.ids().filter_map(|k| image_name(v.registry.def(k))).collect();
            for (i, n) in names.iter().enumerate() {
                assert!(!names[..i].contains(n), "{id}: two piece types drawn as {n}");
            }
        }
    }

    #[test]
    fn images_decode() {
        for &(name, w, b) in IMAGES {
            for bytes in [w, b] {
                let img = decode(bytes);
                assert_eq!((img.width(), img.height()), (128, 128), "{name}");
            }
        }
    }
}
