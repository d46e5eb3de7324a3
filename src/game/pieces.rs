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
use std::collections::HashMap;

use crate::rules::{PictureKey, PieceTypeDef, Side};

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

/// An image's name in plain words, for the picture picker: "Knight, turned a quarter",
/// "Xiangqi cannon", "Amazon (knight and queen)".
pub fn plain_name(image: &str) -> String {
    let (flat, image) = match image.strip_prefix("flat-") {
        Some(rest) => (true, rest),
        None => (false, image),
    };
    let words = match image {
        "knight-queen" => "amazon (knight and queen)".to_string(),
        "knight-rook" => "chancellor (knight and rook)".to_string(),
        "knight-bishop" => "archbishop (knight and bishop)".to_string(),
        "equihopper" => "equihopper".to_string(),
        _ => {
            let (family, rest) = match image.split_once('-') {
                Some(("xq", rest)) => ("Xiangqi ", rest),
                Some(("sh", rest)) => ("Shogi ", rest),
                Some(("do", rest)) => ("Dōbutsu ", rest),
                Some(("turned", rest)) => ("", rest),
                _ => ("", image),
            };
            let turned = image.starts_with("turned-");
            let (piece, angle) = match rest.rsplit_once('-') {
                Some((piece, "90")) => (piece, ", turned a quarter"),
                Some((piece, "45")) => (piece, ", turned an eighth"),
                _ => (rest, ""),
            };
            format!("{family}{piece}{angle}{}", if turned { ", upside down" } else { "" })
        }
    };
    let words = if flat { format!("{words}, flat") } else { words };
    let mut chars = words.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
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

/// The piece images: decoded at start, and registered with egui for the panels; a designer's
/// own pictures drawn when a definition that carries them is shown.
pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PieceImages>();
    app.init_resource::<PieceTextures>();
    app.init_resource::<WantedPictures>();
    app.add_systems(Startup, load_piece_images);
    app.add_systems(Update, (want_the_games_pictures, draw_pictures, register_textures).chain().in_set(GameSystems::Present));
}

/// The decoded images, by name, for both sides; and the designers' own pictures drawn so far.
#[derive(Resource, Default)]
pub struct PieceImages(pub Vec<(&'static str, Handle<Image>, Handle<Image>)>, pub HashMap<PictureKey, Handle<Image>>);

impl PieceImages {
    /// The image of `name` for `side`.
    pub fn get(&self, name: &str, side: Side) -> Option<Handle<Image>> {
        self.0.iter().find(|(n, _, _)| *n == name).map(|(_, w, b)| if side == Side::White { w.clone() } else { b.clone() })
    }

    /// The designer's own picture of a piece type for a side, once drawn.
    pub fn own(&self, def: &PieceTypeDef, side: Side) -> Option<Handle<Image>> {
        self.1.get(&def.pictures[side.index()]?).cloned()
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

/// Designers' pictures to draw: the screens that show a definition carrying pictures (the
/// game's, the editor's, the start screen's) ask for the ones not drawn yet.
#[derive(Resource, Default)]
pub struct WantedPictures(Vec<(PictureKey, String)>);

impl WantedPictures {
    /// Asks for every picture `file` carries that is not drawn yet.
    pub fn want(&mut self, file: &crate::variants::VariantFile, images: &PieceImages) {
        for (key, data) in crate::variants::pictures::carried(file) {
            if !images.1.contains_key(&key) && !self.0.iter().any(|(k, _)| *k == key) {
                self.0.push((key, data.to_string()));
            }
        }
    }
}

/// A new game (or one resumed) asks for its definition's pictures.
fn want_the_games_pictures(setup: Res<super::shared::GameSetup>, images: Res<PieceImages>, mut wanted: ResMut<WantedPictures>) {
    if setup.is_changed()
        && let Some(file) = &setup.definition
    {
        wanted.want(file, &images);
    }
}

/// Draws the pictures asked for into images (a picture that does not draw is logged and left:
/// its piece keeps the piece set's image). The board's pieces are dressed again when a picture
/// arrives, since [`PieceImages`] changes.
fn draw_pictures(
    mut wanted: ResMut<WantedPictures>,
    mut assets: ResMut<Assets<Image>>,
    mut images: ResMut<PieceImages>,
    mut redraw: MessageWriter<bevy::window::RequestRedraw>,
) {
    if wanted.0.is_empty() {
        return;
    }
    for (key, data) in std::mem::take(&mut wanted.0) {
        match crate::variants::pictures::draw_carried(key, &data) {
            Ok(picture) => {
                let size = bevy::render::render_resource::Extent3d { width: picture.size, height: picture.size, depth_or_array_layers: 1 };
                let mut image = Image::new(
                    size,
                    bevy::render::render_resource::TextureDimension::D2,
                    picture.rgba,
                    bevy::render::render_resource::TextureFormat::Rgba8UnormSrgb,
                    RenderAssetUsages::default(),
                );
                image.sampler = ImageSampler::linear();
                images.1.insert(key, assets.add(image));
            }
            Err(e) => warn!("a piece's own picture is not drawn: {e}"),
        }
    }
    redraw.write(bevy::window::RequestRedraw);
}

/// Piece images registered with egui, by image name: `(white, black)`; and the designers' own
/// pictures by key.
#[derive(Resource, Default)]
pub struct PieceTextures(pub Vec<(&'static str, egui::TextureId, egui::TextureId)>, HashMap<PictureKey, egui::TextureId>, OwnPaths);

/// The definition being edited's own pictures, by path: the hash each is known by (the editor
/// draws its pieces from their specs, which name pictures by path). Worked out when the
/// pictures change, not for every piece drawn.
#[derive(Default)]
struct OwnPaths(Option<std::collections::BTreeMap<String, std::sync::Arc<str>>>, HashMap<String, u64>);

impl PieceTextures {
    /// The texture of a piece type for a side, if it has an image: its own picture first.
    pub fn of(&self, def: &PieceTypeDef, side: Side) -> Option<egui::TextureId> {
        def.pictures[side.index()].and_then(|k| self.1.get(&k).copied()).or_else(|| self.named(image_name(def)?, side))
    }

    /// The texture of the image `name` for a side.
    pub fn named(&self, name: &str, side: Side) -> Option<egui::TextureId> {
        self.0.iter().find(|(n, _, _)| *n == name).map(|(_, w, b)| if side == Side::White { *w } else { *b })
    }

    /// The texture of a piece as the definition being edited writes it (see
    /// [`PieceTextures::editing`]), for a side, if it has an image: its own picture first.
    pub fn of_spec(&self, spec: &crate::variants::PieceSpec, side: Side) -> Option<egui::TextureId> {
        let own = crate::variants::pictures::keys_by(spec, |path| self.2.1.get(path).copied())[side.index()];
        own.and_then(|k| self.1.get(&k).copied()).or_else(|| self.named(image_for(&spec.name, &spec.betza, spec.glyph.as_deref())?, side))
    }

    /// Names the definition being edited, whose pieces' own pictures [`PieceTextures::of_spec`]
    /// draws; it keeps only what it needs for that (the pictures carried).
    pub fn editing(&mut self, file: &crate::variants::VariantFile) {
        if self.2.0 != file.pictures {
            self.2.0.clone_from(&file.pictures);
            let by_path = file.pictures.iter().flatten();
            self.2.1 = by_path.map(|(path, data)| (path.clone(), crate::variants::pictures::key_of(data, false).source)).collect();
        }
    }
}

fn register_textures(mut contexts: EguiContexts, images: Res<PieceImages>, mut textures: ResMut<PieceTextures>) {
    if textures.0.is_empty() && !images.0.is_empty() {
        for (name, w, b) in &images.0 {
            let (tw, tb) =
                (contexts.add_image(EguiTextureHandle::Strong(w.clone())), contexts.add_image(EguiTextureHandle::Strong(b.clone())));
            textures.0.push((name, tw, tb));
        }
    }
    if textures.1.len() != images.1.len() {
        for (key, handle) in &images.1 {
            if !textures.1.contains_key(key) {
                let id = contexts.add_image(EguiTextureHandle::Strong(handle.clone()));
                textures.1.insert(*key, id);
            }
        }
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
    fn every_image_has_a_plain_name() {
        let names: Vec<String> = image_names().map(plain_name).collect();
        for (image, plain) in image_names().zip(&names) {
            assert!(!plain.contains("xq") && !plain.contains("sh-") && !plain.contains("-9"), "{image}: {plain}");
        }
        assert_eq!(plain_name("knight-90"), "Knight, turned a quarter");
        assert_eq!(plain_name("xq-cannon"), "Xiangqi cannon");
        assert_eq!(plain_name("turned-rook"), "Rook, upside down");
        assert_eq!(plain_name("flat-knight-queen"), "Amazon (knight and queen), flat");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "two images with one name: {names:?}");
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
