//! A designer's own piece pictures: PNG or SVG files kept with the variant, read, checked and
//! drawn to pixels here (no renderer needed, so that the checks and the drawing are tested
//! without a window).
//!
//! **Where they live.** A piece names its pictures in `picture: (white: …, black: …)`, each a
//! path relative to the variant file's folder (the editor writes them to a folder beside the
//! file, `<id>-images/`). Either side may be left out: that side's picture is the other one
//! recoloured ([`recolour`]: its light parts dark and its dark lines light, hue and saturation kept). Once read, a
//! file's bytes travel inside the definition, in `pictures` (path → base64), so that a saved
//! game carries them and opens where the files are not. A variant file on disk holds no
//! `pictures`: the loader reads them from beside it ([`embed_beside`]).
//!
//! **What is refused**, with a message that says why (see [`PictureError`]):
//! - a file that cannot be read, or is neither a PNG nor an SVG;
//! - a file over [`MAX_FILE_BYTES`], a PNG wider or taller than [`MAX_PNG_SIDE`] pixels, an
//!   SVG of more than [`MAX_SVG_NODES`] XML nodes;
//! - an SVG that refers to another file or address (an `<image>` outside the file): usvg's
//!   href resolver reports it and the import stops, so that a picture never reads the disk or
//!   the network;
//! - a path that is absolute or climbs out of the variant's folder (`..`).
//!
//! **What is not drawn**, and said so when the picture is imported ([`Drawn::notes`]): text
//! inside an SVG (resvg is built without text shaping or system fonts) and raster images
//! embedded in an SVG (built without raster decoders). A piece whose picture is missing or
//! refused is drawn with the piece set's own picture; the editor and `chimera check` warn
//! ([`problems`], `W_PICTURE`).
//!
//! Pictures are drawn at [`SIZE`]×[`SIZE`] pixels, centred with their proportions kept;
//! large PNGs are halved step by step first so that fine lines do not alias.

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use resvg::{tiny_skia, usvg};

use super::format::{PieceSpec, VariantFile};
use super::problem::{Problem, ProblemCode};
use crate::rules::PictureKey;

/// The largest picture file read, in bytes (1 MiB).
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// The widest and tallest PNG read, in pixels.
pub const MAX_PNG_SIDE: u32 = 2048;
/// The most XML nodes an SVG may have.
pub const MAX_SVG_NODES: u32 = 50_000;
/// The side of a drawn picture, in pixels.
pub const SIZE: u32 = 256;
/// The most picture data a variant may carry in all, in bytes (8 MiB: a saved game carrying
/// them stays under the 16 MiB a save may be).
pub const MAX_TOTAL_BYTES: u64 = 8 << 20;

/// Why a picture was refused. Each kind has a stable code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PictureError {
    /// The file cannot be read (why).
    Unreadable(String),
    /// Over a limit (which, and by how much).
    TooLarge(String),
    /// Neither a PNG nor an SVG, or one that does not decode (why).
    NotAPicture(String),
    /// An SVG naming another file or address (the reference).
    ExternalReference(String),
    /// A path that is absolute or leaves the variant's folder.
    Path(String),
}

impl PictureError {
    /// A stable code for the kind of problem.
    pub fn code(&self) -> &'static str {
        match self {
            PictureError::Unreadable(_) => "picture-unreadable",
            PictureError::TooLarge(_) => "picture-too-large",
            PictureError::NotAPicture(_) => "picture-not-a-picture",
            PictureError::ExternalReference(_) => "picture-external-reference",
            PictureError::Path(_) => "picture-path",
        }
    }
}

impl fmt::Display for PictureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PictureError::Unreadable(why) => write!(f, "cannot be read: {why}"),
            PictureError::TooLarge(why) => write!(f, "too large: {why}"),
            PictureError::NotAPicture(why) => write!(f, "not a PNG or SVG picture: {why}"),
            PictureError::ExternalReference(href) => write!(
                f,
                "the SVG refers to another file or address ('{href}'); pictures must be self-contained: \
                 embed what it refers to, or export the SVG again with its images inlined"
            ),
            PictureError::Path(why) => write!(f, "{why}"),
        }
    }
}

/// A picture drawn to pixels: [`SIZE`]×[`SIZE`], RGBA with straight (not premultiplied) alpha.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// Width and height in pixels.
    pub size: u32,
    /// The pixels, row by row from the top, four bytes each.
    pub rgba: Vec<u8>,
}

/// A picture drawn, with what of it could not be drawn.
#[derive(Clone, Debug)]
pub struct Drawn {
    /// The pixels.
    pub picture: Picture,
    /// What is left out, in words (text in an SVG, say); empty when all of it is drawn.
    pub notes: Vec<String>,
}

/// Reads a picture file, refusing one over [`MAX_FILE_BYTES`] before reading it all.
///
/// # Errors
/// [`PictureError::Unreadable`] or [`PictureError::TooLarge`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, PictureError> {
    // A plain file (a link to one is followed): not a folder, a device or a pipe.
    let meta = std::fs::metadata(path).map_err(|e| PictureError::Unreadable(format!("{}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(PictureError::Unreadable(format!("{} is not a file", path.display())));
    }
    let file = std::fs::File::open(path).map_err(|e| PictureError::Unreadable(format!("{}: {e}", path.display())))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| PictureError::Unreadable(format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(path.display().to_string()));
    }
    Ok(bytes)
}

fn too_big(what: String) -> PictureError {
    PictureError::TooLarge(format!("{what} is over {} KiB, the most a picture may be", MAX_FILE_BYTES / 1024))
}

const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1A, b'\n'];

/// Whether the bytes are a PNG (by its signature); anything else is read as SVG.
pub fn is_png(bytes: &[u8]) -> bool {
    bytes.starts_with(&PNG_SIGNATURE)
}

/// Whether the bytes look like a picture, without drawing it: a PNG's signature, or XML
/// whose root element is `svg`. Files beside a variant that do not are never read into it (a
/// variant naming another kind of file does not carry it into saved games).
pub fn looks_like_picture(bytes: &[u8]) -> bool {
    if is_png(bytes) {
        return true;
    }
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    parse_xml(text).is_ok_and(|doc| doc.root_element().has_tag_name("svg"))
}

/// The XML of an SVG, within [`MAX_SVG_NODES`].
fn parse_xml(text: &str) -> Result<usvg::roxmltree::Document<'_>, usvg::roxmltree::Error> {
    let parsing = usvg::roxmltree::ParsingOptions { allow_dtd: true, nodes_limit: MAX_SVG_NODES, entity_resolver: None };
    usvg::roxmltree::Document::parse_with_options(text, parsing)
}

/// The file extension for picture bytes: `png` or `svg`.
pub fn extension(bytes: &[u8]) -> &'static str {
    if is_png(bytes) { "png" } else { "svg" }
}

/// Draws a PNG or SVG picture at [`SIZE`]×[`SIZE`].
///
/// # Errors
/// Any [`PictureError`] but `Unreadable` and `Path`.
pub fn draw(bytes: &[u8]) -> Result<Drawn, PictureError> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_big(format!("{} bytes", bytes.len())));
    }
    let (pixmap, notes) = if is_png(bytes) { (png_pixmap(bytes)?, Vec::new()) } else { svg_pixmap(bytes)? };
    let rgba = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    let picture = Picture { size: SIZE, rgba };
    Ok(Drawn { picture, notes })
}

/// A PNG's width and height from its header, read before any pixel is decoded.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    // The signature, then the IHDR chunk: length (4), type (4), width (4), height (4).
    let header = bytes.get(8..24)?;
    (&header[4..8] == b"IHDR").then(|| {
        let word = |i: usize| u32::from_be_bytes([header[i], header[i + 1], header[i + 2], header[i + 3]]);
        (word(8), word(12))
    })
}

fn png_pixmap(bytes: &[u8]) -> Result<tiny_skia::Pixmap, PictureError> {
    let (w, h) = png_size(bytes).ok_or_else(|| PictureError::NotAPicture("the PNG has no header".into()))?;
    if w > MAX_PNG_SIDE || h > MAX_PNG_SIDE {
        return Err(PictureError::TooLarge(format!("{w}×{h} pixels; at most {MAX_PNG_SIDE}×{MAX_PNG_SIDE}")));
    }
    let mut source =
        tiny_skia::Pixmap::decode_png(bytes).map_err(|e| PictureError::NotAPicture(format!("the PNG does not decode: {e}")))?;
    // Halve until within twice the size drawn: one step of bilinear filtering from there on
    // keeps thin lines.
    while source.width().max(source.height()) > 2 * SIZE {
        let (w, h) = ((source.width() / 2).max(1), (source.height() / 2).max(1));
        let mut half = tiny_skia::Pixmap::new(w, h).expect("a PNG's half is not empty");
        let scale = tiny_skia::Transform::from_scale(w as f32 / source.width() as f32, h as f32 / source.height() as f32);
        half.draw_pixmap(0, 0, source.as_ref(), &smooth(), scale, None);
        source = half;
    }
    let mut out = tiny_skia::Pixmap::new(SIZE, SIZE).expect("SIZE is not zero");
    let (w, h) = (source.width() as f32, source.height() as f32);
    out.draw_pixmap(0, 0, source.as_ref(), &smooth(), fit(w, h), None);
    Ok(out)
}

fn smooth() -> tiny_skia::PixmapPaint {
    tiny_skia::PixmapPaint { quality: tiny_skia::FilterQuality::Bilinear, ..tiny_skia::PixmapPaint::default() }
}

/// The transform that draws a `w`×`h` picture centred in the [`SIZE`] square, proportions kept.
fn fit(w: f32, h: f32) -> tiny_skia::Transform {
    let scale = SIZE as f32 / w.max(h);
    tiny_skia::Transform::from_row(scale, 0.0, 0.0, scale, (SIZE as f32 - w * scale) / 2.0, (SIZE as f32 - h * scale) / 2.0)
}

fn svg_pixmap(bytes: &[u8]) -> Result<(tiny_skia::Pixmap, Vec<String>), PictureError> {
    let text = std::str::from_utf8(bytes).map_err(|_| PictureError::NotAPicture("neither a PNG nor SVG text".into()))?;
    let doc = parse_xml(text).map_err(|e| match e {
        usvg::roxmltree::Error::NodesLimitReached => PictureError::TooLarge(format!("more than {MAX_SVG_NODES} XML nodes")),
        e => PictureError::NotAPicture(format!("not SVG: {e}")),
    })?;
    let mut notes = Vec::new();
    if doc.descendants().any(|n| n.has_tag_name("text")) {
        notes.push("its text is not drawn (Chimera draws SVG without fonts)".to_string());
    }
    // Every reference outside the file is refused; pictures inside it (data: URLs) are drawn
    // when they are SVG and noted when not.
    let external = std::sync::Arc::new(std::sync::Mutex::new(None::<String>));
    let raster = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let options = {
        let (external, raster) = (external.clone(), raster.clone());
        usvg::Options {
            resources_dir: None,
            image_href_resolver: usvg::ImageHrefResolver {
                resolve_string: Box::new(move |href: &str, _: &usvg::Options| {
                    external.lock().expect("not poisoned").get_or_insert_with(|| href.chars().take(80).collect());
                    None
                }),
                resolve_data: Box::new(move |mime: &str, data, options: &usvg::Options| match mime {
                    "image/svg+xml" => usvg::Tree::from_data_nested(&data, options).ok().map(usvg::ImageKind::SVG),
                    _ => {
                        raster.store(true, std::sync::atomic::Ordering::Relaxed);
                        None
                    }
                }),
            },
            ..usvg::Options::default()
        }
    };
    let tree = usvg::Tree::from_xmltree(&doc, &options).map_err(|e| PictureError::NotAPicture(format!("not SVG: {e}")))?;
    if let Some(href) = external.lock().expect("not poisoned").take() {
        return Err(PictureError::ExternalReference(href));
    }
    if raster.load(std::sync::atomic::Ordering::Relaxed) {
        notes.push("the PNG or JPEG pictures inside it are not drawn".to_string());
    }
    let size = tree.size();
    let mut pixmap = tiny_skia::Pixmap::new(SIZE, SIZE).expect("SIZE is not zero");
    resvg::render(&tree, fit(size.width(), size.height()), &mut pixmap.as_mut());
    Ok((pixmap, notes))
}

/// The picture for the other side: its light parts made dark and its dark lines light, hue
/// and saturation kept (a white piece with black lines becomes a black piece with light
/// lines; a magenta one, a dark purple one). HSL lightness `L` becomes `0.85 − 1.5 L`, but
/// not under `0.12`: a plain swap (`1 − L`) would leave mid-tones as they were, and the two
/// sides alike.
pub fn recolour(picture: &Picture) -> Picture {
    let mut rgba = picture.rgba.clone();
    for px in rgba.chunks_exact_mut(4) {
        let [r, g, b] = [px[0], px[1], px[2]].map(|c| f32::from(c) / 255.0);
        let (max, min) = (r.max(g).max(b), r.min(g).min(b));
        let l = (max + min) / 2.0;
        let chroma = max - min;
        let s = if chroma == 0.0 { 0.0 } else { chroma / (1.0 - (2.0 * l - 1.0).abs()) };
        let l2 = (0.85 - 1.5 * l).max(0.12);
        // The same hue and saturation at the new lightness: each channel keeps its place
        // between the lightest and darkest.
        let c2 = (1.0 - (2.0 * l2 - 1.0).abs()) * s;
        let (lo, hi) = (l2 - c2 / 2.0, l2 + c2 / 2.0);
        for (out, c) in px[..3].iter_mut().zip([r, g, b]) {
            let t = if chroma == 0.0 { 0.5 } else { (c - min) / chroma };
            *out = ((lo + t * (hi - lo)) * 255.0).round().clamp(0.0, 255.0) as u8;
        }
    }
    Picture { size: picture.size, rgba }
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Bytes as base64 (the standard alphabet, padded), as definitions carry pictures.
pub fn to_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Base64 back to bytes; `None` for text that is not padded base64 of the standard alphabet.
pub fn from_base64(text: &str) -> Option<Vec<u8>> {
    const INVALID: u8 = 0xFF;
    static TABLE: std::sync::OnceLock<[u8; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = [INVALID; 256];
        for (i, &c) in ALPHABET.iter().enumerate() {
            t[c as usize] = i as u8;
        }
        t
    });
    let text = text.as_bytes();
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for (index, quad) in text.chunks(4).enumerate() {
        let last = index == text.len() / 4 - 1;
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for (i, &c) in quad[..4 - pad].iter().enumerate() {
            let v = table[c as usize];
            if v == INVALID {
                return None;
            }
            n |= u32::from(v) << (18 - 6 * i);
        }
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    Some(out)
}

/// The key of a picture carried as `base64`, recoloured or not: the same bytes give the same
/// key in every variant, so that a picture is drawn once.
pub fn key_of(base64: &str, recoloured: bool) -> PictureKey {
    PictureKey { source: crate::presets::hash_bytes(base64.as_bytes()), recoloured }
}

/// Refuses a picture path that is absolute or climbs out of the variant's folder.
///
/// # Errors
/// [`PictureError::Path`].
pub fn check_path(path: &str) -> Result<(), PictureError> {
    use std::path::Component;
    let p = Path::new(path);
    if path.is_empty() || p.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(PictureError::Path(format!(
            "'{path}' is not a path inside the variant's folder (no absolute path, no '..'): keep pictures beside the file"
        )));
    }
    Ok(())
}

/// The picture paths a piece names: white's, then black's.
fn named(spec: &PieceSpec) -> impl Iterator<Item = &str> {
    spec.picture.iter().flat_map(|p| [p.white.as_deref(), p.black.as_deref()]).flatten()
}

/// Reads every picture the pieces of `file` name from beside it (`dir`, the file's folder)
/// into `file.pictures`, where it is not there already. A path that is refused, a file that
/// is missing, too large or not a PNG or SVG is left out: [`problems`] says why, and the piece
/// is drawn with the piece set's picture.
pub fn embed_beside(file: &mut VariantFile, dir: &Path) {
    let wanted: Vec<String> = file.pieces.iter().flatten().flat_map(named).map(str::to_string).collect();
    for path in wanted {
        if file.pictures.as_ref().is_some_and(|m| m.contains_key(&path)) || check_path(&path).is_err() {
            continue;
        }
        if let Ok(bytes) = read_file(&dir.join(&path))
            && looks_like_picture(&bytes)
        {
            file.pictures.get_or_insert_with(BTreeMap::new).insert(path, to_base64(&bytes).into());
        }
    }
}

/// The picture data a piece's path names, for each side: its own, or the other side's (then
/// recoloured). `carried` looks a path up.
fn sides<'a, T: Copy>(spec: &'a PieceSpec, carried: impl Fn(&'a str) -> Option<T>) -> [Option<(T, bool)>; 2] {
    let Some(p) = &spec.picture else { return [None, None] };
    let (white, black) = (p.white.as_deref().and_then(&carried), p.black.as_deref().and_then(&carried));
    [white.map(|w| (w, false)).or(black.map(|b| (b, true))), black.map(|b| (b, false)).or(white.map(|w| (w, true)))]
}

/// The keys of a piece's pictures, white's and black's: its own, or the other side's
/// recoloured; `None` for a side with neither (drawn with the piece set's picture). Only
/// pictures that `file` carries count.
pub fn keys(spec: &PieceSpec, file: &VariantFile) -> [Option<PictureKey>; 2] {
    keys_by(spec, |path| file.pictures.as_ref()?.get(path).map(|b| key_of(b, false).source))
}

/// [`keys`], with the carried pictures' hashes looked up by `source` (a view that keeps them).
pub fn keys_by(spec: &PieceSpec, source: impl Fn(&str) -> Option<u64>) -> [Option<PictureKey>; 2] {
    sides(spec, source).map(|side| side.map(|(source, recoloured)| PictureKey { source, recoloured }))
}

/// Every picture a definition carries, by key, as base64: the ones its pieces use, for both
/// sides (a recoloured side under its own key).
pub fn carried(file: &VariantFile) -> Vec<(PictureKey, &str)> {
    let mut out: Vec<(PictureKey, &str)> = Vec::new();
    for spec in file.pieces.iter().flatten() {
        for (b64, recoloured) in sides(spec, |path| file.pictures.as_ref()?.get(path).map(|b| &**b)).into_iter().flatten() {
            let key = key_of(b64, recoloured);
            if !out.iter().any(|(k, _)| *k == key) {
                out.push((key, b64));
            }
        }
    }
    out
}

/// Draws a carried picture for its key: decoded from base64, drawn, recoloured when the key
/// says so.
///
/// # Errors
/// The text is not base64, or the picture is refused.
pub fn draw_carried(key: PictureKey, base64: &str) -> Result<Picture, PictureError> {
    let bytes = from_base64(base64).ok_or_else(|| PictureError::NotAPicture("the carried copy is not base64".into()))?;
    let drawn = draw(&bytes)?.picture;
    Ok(if key.recoloured { recolour(&drawn) } else { drawn })
}

/// Whether a carried picture draws (why not, when it does not), worked out once per picture:
/// the editor asks after every edit.
fn verdict(b64: &str) -> Result<(), String> {
    static SEEN: std::sync::Mutex<Vec<(u64, Result<(), String>)>> = std::sync::Mutex::new(Vec::new());
    let key = key_of(b64, false).source;
    if let Some((_, v)) = SEEN.lock().expect("not poisoned").iter().find(|(k, _)| *k == key) {
        return v.clone();
    }
    let v = from_base64(b64)
        .ok_or_else(|| "the carried copy is not base64".to_string())
        .and_then(|b| draw(&b).map(|_| ()).map_err(|e| e.to_string()));
    let mut seen = SEEN.lock().expect("not poisoned");
    if seen.len() > 256 {
        seen.clear();
    }
    seen.push((key, v.clone()));
    v
}

/// Warnings about the pieces' pictures: a path refused, a picture not found beside the file
/// (`dir`, when the file has one: the reason it could not be read), or one that is refused
/// when drawn. The variant loads regardless; those pieces are drawn with the piece set's
/// pictures.
pub fn problems(file: &VariantFile, dir: Option<&Path>) -> Vec<Problem> {
    let mut out = Vec::new();
    for spec in file.pieces.iter().flatten() {
        let at = format!("pieces[{}].picture", spec.letter);
        if spec.picture.as_ref().is_some_and(|p| p.white.is_none() && p.black.is_none()) {
            out.push(Problem::new(ProblemCode::Picture, at.clone(), "names no picture for either side"));
        }
        for path in named(spec) {
            let why = match (check_path(path), file.pictures.as_ref().and_then(|m| m.get(path))) {
                (Err(e), _) => e.to_string(),
                (Ok(()), None) => match dir.map(|d| read_file(&d.join(path))) {
                    Some(Err(e)) => format!("'{path}' {e}"),
                    Some(Ok(bytes)) if !looks_like_picture(&bytes) => format!("'{path}' is not a PNG or SVG picture"),
                    _ => format!("'{path}' is not beside the variant"),
                },
                (Ok(()), Some(b64)) => match verdict(b64) {
                    Ok(()) => continue,
                    Err(e) => format!("'{path}': {e}"),
                },
            };
            out.push(Problem::new(ProblemCode::Picture, at.clone(), format!("{why}; the piece set's picture is drawn instead")));
        }
    }
    out
}

/// Makes the pictures of `file` its own for saving as `<dir>/<id>.ron`: each carried picture a
/// piece names is written to `<dir>/<id>-images/` (under its file name, made unique), the
/// pieces name it there, and pictures no piece names are dropped. Returns the definition to
/// write (with its pictures named, not carried).
///
/// # Errors
/// A folder or file that cannot be written.
pub fn write_beside(file: &mut VariantFile, dir: &Path) -> std::io::Result<VariantFile> {
    let folder = format!("{}-images", file.id);
    let carried = file.pictures.take().unwrap_or_default();
    let mut kept: BTreeMap<String, std::sync::Arc<str>> = BTreeMap::new();
    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
    for spec in file.pieces.iter_mut().flatten() {
        let Some(p) = &mut spec.picture else { continue };
        for side in [&mut p.white, &mut p.black] {
            let Some(path) = side.as_mut() else { continue };
            let Some(b64) = carried.get(path.as_str()) else { continue };
            if let Some(new) = renamed.get(path.as_str()) {
                *path = new.clone();
                continue;
            }
            // Its file name, with the extension its bytes have (whatever a save's map says).
            let Some(bytes) = from_base64(b64) else { continue };
            let stem = Path::new(path.as_str()).file_stem().and_then(|n| n.to_str()).unwrap_or("picture").to_string();
            let ext = extension(&bytes);
            let mut name = format!("{folder}/{stem}.{ext}");
            let mut n = 1;
            while kept.get(&name).is_some_and(|b| b != b64) {
                n += 1;
                name = format!("{folder}/{stem}-{n}.{ext}");
            }
            renamed.insert(path.clone(), name.clone());
            kept.insert(name.clone(), b64.clone());
            *path = name;
        }
    }
    if !kept.is_empty() {
        std::fs::create_dir_all(dir.join(&folder))?;
    }
    for (name, b64) in &kept {
        let bytes = from_base64(b64).ok_or_else(|| std::io::Error::other(format!("{name}: the carried copy is not base64")))?;
        let target = dir.join(name);
        if std::fs::read(&target).ok().as_deref() != Some(bytes.as_slice()) {
            // Written beside and renamed over, so that a crash leaves the old file or the new.
            let part = target.with_extension("part");
            std::fs::write(&part, &bytes)?;
            std::fs::rename(&part, &target)?;
        }
    }
    let written = file.clone();
    file.pictures = (!kept.is_empty()).then_some(kept);
    Ok(written)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small SVG: a white disc with a black ring.
    pub(crate) const DISC: &str =
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="white" stroke="black"/></svg>"#;

    fn pixel(p: &Picture, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * p.size + x) * 4) as usize;
        [p.rgba[i], p.rgba[i + 1], p.rgba[i + 2], p.rgba[i + 3]]
    }

    #[test]
    fn base64_round_trips() {
        for n in 0..70u8 {
            let bytes: Vec<u8> = (0..n).map(|i| i.wrapping_mul(37).wrapping_add(n)).collect();
            let text = to_base64(&bytes);
            assert_eq!(from_base64(&text).as_deref(), Some(bytes.as_slice()), "{n} bytes");
        }
        assert_eq!(to_base64(b"Man"), "TWFu");
        assert_eq!(to_base64(b"Ma"), "TWE=");
        for bad in ["TWF", "TW=u", "T!Fu", "TWE=TWFu", "T==="] {
            assert_eq!(from_base64(bad), None, "{bad}");
        }
    }

    #[test]
    fn an_svg_is_drawn_centred_and_recoloured() {
        let drawn = draw(DISC.as_bytes()).unwrap();
        assert!(drawn.notes.is_empty());
        let p = drawn.picture;
        assert_eq!((p.size, p.rgba.len()), (SIZE, (SIZE * SIZE * 4) as usize));
        assert_eq!(pixel(&p, 128, 128), [255, 255, 255, 255], "the centre is white");
        assert_eq!(pixel(&p, 2, 2)[3], 0, "the corner is clear");
        let black = recolour(&p);
        assert_eq!(pixel(&black, 128, 128), [31, 31, 31, 255], "recoloured, the white centre is dark");
        assert_eq!(pixel(&black, 2, 2)[3], 0, "and the corner still clear");
        // Black lines become light.
        assert_eq!(recolour(&Picture { size: 1, rgba: vec![0, 0, 0, 200] }).rgba, vec![217, 217, 217, 200]);
        // Hue and saturation kept: a red stays red, and a mid-tone becomes dark (a plain swap
        // would leave it as it was).
        let red = recolour(&Picture { size: 1, rgba: vec![200, 40, 40, 255] }).rgba;
        assert!(red[0] > 3 * red[1] && red[1] == red[2] && red[0] < 80, "{red:?}");
    }

    #[test]
    fn a_png_is_read_and_fitted() {
        // A 4×2 PNG, red on the left, blue on the right, drawn by the encoder below.
        let png = tiny_png(4, 2, |x, _| if x < 2 { [255, 0, 0, 255] } else { [0, 0, 255, 255] });
        let p = draw(&png).unwrap().picture;
        assert_eq!(pixel(&p, 10, 128)[..3], [255, 0, 0], "red on the left");
        assert_eq!(pixel(&p, 245, 128)[..3], [0, 0, 255], "blue on the right");
        assert_eq!(pixel(&p, 128, 10)[3], 0, "wider than tall: clear above");
        // A large one is halved down and still fills its width (stored without compression,
        // it is near the size limit).
        let big = tiny_png(600, 400, |x, _| if x < 300 { [0, 200, 0, 255] } else { [200, 200, 0, 255] });
        let p = draw(&big).unwrap().picture;
        assert_eq!(pixel(&p, 5, 128), [0, 200, 0, 255]);
        assert_eq!(pixel(&p, 250, 128), [200, 200, 0, 255]);
        assert_eq!(pixel(&p, 128, 30)[3], 0, "three wide to two high: clear above");
    }

    #[test]
    fn bad_pictures_are_refused_with_their_reason() {
        let code = |bytes: &[u8]| draw(bytes).map(|_| ()).unwrap_err().code();
        assert_eq!(code(b"hello, not a picture"), "picture-not-a-picture");
        assert_eq!(code(&[0xff, 0xfe, 0x00]), "picture-not-a-picture");
        let mut cut = tiny_png(8, 8, |_, _| [1, 2, 3, 255]);
        cut.truncate(40);
        assert_eq!(code(&cut), "picture-not-a-picture", "a truncated PNG");
        // Too wide: refused from the header, before decoding.
        let mut wide = tiny_png(8, 8, |_, _| [0, 0, 0, 255]);
        wide[16..20].copy_from_slice(&5000u32.to_be_bytes());
        assert_eq!(code(&wide), "picture-too-large");
        assert!(draw(&wide).unwrap_err().to_string().contains("5000×8 pixels; at most 2048×2048"));
        assert_eq!(code(&vec![b' '; MAX_FILE_BYTES as usize + 1]), "picture-too-large");
        let many = format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{}</svg>"#, "<g/>".repeat(MAX_SVG_NODES as usize));
        assert_eq!(code(many.as_bytes()), "picture-too-large");
        // Another file, or the network: refused, whatever the form.
        for href in ["knight.png", "/etc/passwd", "https://example.com/a.png", "file:///tmp/a.svg"] {
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><image width="10" height="10" xlink:href="{href}"/></svg>"#
            );
            let e = draw(svg.as_bytes()).unwrap_err();
            assert_eq!(e, PictureError::ExternalReference(href.to_string()), "{href}");
        }
        // Text is drawn without; the import says so. An inlined PNG is not drawn either.
        let texty =
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/><text x="1" y="8">Q</text></svg>"#;
        assert_eq!(draw(texty.as_bytes()).unwrap().notes, vec!["its text is not drawn (Chimera draws SVG without fonts)"]);
        let inlined = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><image width="10" height="10" href="data:image/png;base64,{}"/></svg>"#,
            to_base64(&tiny_png(2, 2, |_, _| [9, 9, 9, 255]))
        );
        assert_eq!(draw(inlined.as_bytes()).unwrap().notes, vec!["the PNG or JPEG pictures inside it are not drawn"]);
        for bad in ["/abs/p.png", "../other/p.png", "a/../../p.png", ""] {
            assert_eq!(check_path(bad).unwrap_err().code(), "picture-path", "{bad}");
        }
        assert!(check_path("dragon-images/dragon.svg").is_ok());
    }

    #[test]
    fn files_over_the_limit_are_not_read_whole() {
        let dir = std::env::temp_dir().join(format!("chimera-pictures-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.svg");
        std::fs::write(&big, vec![b' '; MAX_FILE_BYTES as usize + 10]).unwrap();
        assert_eq!(read_file(&big).unwrap_err().code(), "picture-too-large");
        assert_eq!(read_file(&dir.join("missing.png")).unwrap_err().code(), "picture-unreadable");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An uncompressed (stored) PNG of `w`×`h` RGBA pixels, for the tests.
    pub(crate) fn tiny_png(w: u32, h: u32, colour: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
        fn crc(bytes: &[u8]) -> u32 {
            let mut c = !0u32;
            for &b in bytes {
                c ^= u32::from(b);
                for _ in 0..8 {
                    c = if c & 1 == 1 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                }
            }
            !c
        }
        fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
            out.extend_from_slice(&(data.len() as u32).to_be_bytes());
            let mut body = kind.to_vec();
            body.extend_from_slice(data);
            out.extend_from_slice(&body);
            out.extend_from_slice(&crc(&body).to_be_bytes());
        }
        let mut raw = Vec::new();
        for y in 0..h {
            raw.push(0);
            for x in 0..w {
                raw.extend_from_slice(&colour(x, y));
            }
        }
        // zlib with stored blocks, and its Adler-32.
        let mut z = vec![0x78, 0x01];
        let blocks: Vec<&[u8]> = raw.chunks(65535).collect();
        for (i, block) in blocks.iter().enumerate() {
            z.push(u8::from(i + 1 == blocks.len()));
            z.extend_from_slice(&(block.len() as u16).to_le_bytes());
            z.extend_from_slice(&(!(block.len() as u16)).to_le_bytes());
            z.extend_from_slice(block);
        }
        let (a, b) = raw.iter().fold((1u32, 0u32), |(a, b), &x| ((a + u32::from(x)) % 65521, (b + (a + u32::from(x)) % 65521) % 65521));
        z.extend_from_slice(&(b << 16 | a).to_be_bytes());
        let mut out = PNG_SIGNATURE.to_vec();
        let mut ihdr = Vec::new();
        ihdr.extend_from_slice(&w.to_be_bytes());
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
        chunk(&mut out, b"IHDR", &ihdr);
        chunk(&mut out, b"IDAT", &z);
        chunk(&mut out, b"IEND", &[]);
        out
    }
}
