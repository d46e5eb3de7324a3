//! Variants as data: the RON format of `presets/`, loading with validation, and the
//! built-in catalogue (compiled into the binary, so a user's clone needs no data path).
//!
//! Layer: uses `rules`, `modifiers` and `presets`.

pub mod actions;
mod compile;
pub mod fairy;
mod format;
mod load;
pub mod pictures;
pub mod placement;
mod problem;

pub use compile::{compile, default_end, region_squares};
pub use format::{
    BlastSpec, BoardSpec, BoardStyle, CastlingSpec, DropsSpec, EndSpec, INI_LACKING, IniSwitch, MaterialCountSpec, PictureSpec,
    PiecePromotionSpec, PieceSpec, PresetUse, ProfileUse, PromotionSpec, RegionMoves, RegionSpec, RuleSwitch, SWITCHES, Scope, ShuffleSpec,
    SwitchSection, VariantFile, switch,
};
pub use load::{load_path, parse_variant_file, playable, resolve, resolve_path, sibling_lookup, write_variant_file};
pub use problem::{LoadError, Problem, ProblemCode, Severity};

use crate::rules::Variant;

/// The built-in variant files, by id, in catalogue order.
pub const BUILTIN: &[(&str, &str)] = &[
    ("chess", include_str!("../../presets/chess.ron")),
    ("chess960", include_str!("../../presets/chess960.ron")),
    ("nocastle", include_str!("../../presets/nocastle.ron")),
    ("raazuvaa", include_str!("../../presets/raazuvaa.ron")),
    ("torpedo", include_str!("../../presets/torpedo.ron")),
    ("pawnsideways", include_str!("../../presets/pawnsideways.ron")),
    ("pawnback", include_str!("../../presets/pawnback.ron")),
    ("newzealand", include_str!("../../presets/newzealand.ron")),
    ("misere", include_str!("../../presets/misere.ron")),
    ("coregal", include_str!("../../presets/coregal.ron")),
    ("placement", include_str!("../../presets/placement.ron")),
    ("orda", include_str!("../../presets/orda.ron")),
    ("ordamirror", include_str!("../../presets/ordamirror.ron")),
    ("berolina", include_str!("../../presets/berolina.ron")),
    ("shogi", include_str!("../../presets/shogi.ron")),
    ("minishogi", include_str!("../../presets/minishogi.ron")),
    ("dobutsu", include_str!("../../presets/dobutsu.ron")),
    ("judkins", include_str!("../../presets/judkins.ron")),
    ("gorogoro", include_str!("../../presets/gorogoro.ron")),
    ("euroshogi", include_str!("../../presets/euroshogi.ron")),
    ("okisakishogi", include_str!("../../presets/okisakishogi.ron")),
    ("yarishogi", include_str!("../../presets/yarishogi.ron")),
    ("shoshogi", include_str!("../../presets/shoshogi.ron")),
    ("torishogi", include_str!("../../presets/torishogi.ron")),
    ("checkshogi", include_str!("../../presets/checkshogi.ron")),
    ("janggi", include_str!("../../presets/janggi.ron")),
    ("janggitraditional", include_str!("../../presets/janggitraditional.ron")),
    ("janggicasual", include_str!("../../presets/janggicasual.ron")),
    ("capablanca", include_str!("../../presets/capablanca.ron")),
    ("caparandom", include_str!("../../presets/caparandom.ron")),
    ("capahouse", include_str!("../../presets/capahouse.ron")),
    ("gothic", include_str!("../../presets/gothic.ron")),
    ("embassy", include_str!("../../presets/embassy.ron")),
    ("janus", include_str!("../../presets/janus.ron")),
    ("centaur", include_str!("../../presets/centaur.ron")),
    ("modern", include_str!("../../presets/modern.ron")),
    ("chancellor", include_str!("../../presets/chancellor.ron")),
    ("tencubed", include_str!("../../presets/tencubed.ron")),
    ("losalamos", include_str!("../../presets/losalamos.ron")),
    ("gardner", include_str!("../../presets/gardner.ron")),
    ("amazon", include_str!("../../presets/amazon.ron")),
    ("almost", include_str!("../../presets/almost.ron")),
    ("sortofalmost", include_str!("../../presets/sortofalmost.ron")),
    ("chigorin", include_str!("../../presets/chigorin.ron")),
    ("perfect", include_str!("../../presets/perfect.ron")),
    ("nightrider", include_str!("../../presets/nightrider.ron")),
    ("grasshopper", include_str!("../../presets/grasshopper.ron")),
    ("shatranj", include_str!("../../presets/shatranj.ron")),
    ("chaturanga", include_str!("../../presets/chaturanga.ron")),
    ("kingofthehill", include_str!("../../presets/kingofthehill.ron")),
    ("antichess", include_str!("../../presets/antichess.ron")),
    ("giveaway", include_str!("../../presets/giveaway.ron")),
    ("codrus", include_str!("../../presets/codrus.ron")),
    ("horde", include_str!("../../presets/horde.ron")),
    ("3check", include_str!("../../presets/3check.ron")),
    ("5check", include_str!("../../presets/5check.ron")),
    ("racingkings", include_str!("../../presets/racingkings.ron")),
    ("hoppelpoppel", include_str!("../../presets/hoppelpoppel.ron")),
    ("knightmate", include_str!("../../presets/knightmate.ron")),
    ("losers", include_str!("../../presets/losers.ron")),
    ("kinglet", include_str!("../../presets/kinglet.ron")),
    ("threekings", include_str!("../../presets/threekings.ron")),
    ("makruk", include_str!("../../presets/makruk.ron")),
    ("makpong", include_str!("../../presets/makpong.ron")),
    ("cambodian", include_str!("../../presets/cambodian.ron")),
    ("shatar", include_str!("../../presets/shatar.ron")),
    ("karouk", include_str!("../../presets/karouk.ron")),
    ("courier", include_str!("../../presets/courier.ron")),
    ("jesonmor", include_str!("../../presets/jesonmor.ron")),
    ("crazyhouse", include_str!("../../presets/crazyhouse.ron")),
    ("loop", include_str!("../../presets/loop.ron")),
    ("chessgi", include_str!("../../presets/chessgi.ron")),
    ("pocketknight", include_str!("../../presets/pocketknight.ron")),
    ("atomic", include_str!("../../presets/atomic.ron")),
    ("nocheckatomic", include_str!("../../presets/nocheckatomic.ron")),
    ("xiangqi", include_str!("../../presets/xiangqi.ron")),
    ("manchu", include_str!("../../presets/manchu.ron")),
    ("minixiangqi", include_str!("../../presets/minixiangqi.ron")),
    ("shako", include_str!("../../presets/shako.ron")),
    ("grand", include_str!("../../presets/grand.ron")),
    ("opulent", include_str!("../../presets/opulent.ron")),
    ("seirawan", include_str!("../../presets/seirawan.ron")),
    ("extinction", include_str!("../../presets/extinction.ron")),
    ("andernach", include_str!("../../presets/andernach.ron")),
    ("musketeer", include_str!("../../presets/musketeer.ron")),
    ("gustav3", include_str!("../../presets/gustav3.ron")),
    ("omicron", include_str!("../../presets/omicron.ron")),
    ("duck", include_str!("../../presets/duck.ron")),
    ("joust", include_str!("../../presets/joust.ron")),
    ("snailtrail", include_str!("../../presets/snailtrail.ron")),
    ("troitzky", include_str!("../../presets/troitzky.ron")),
    ("legan", include_str!("../../presets/legan.ron")),
    ("suicide", include_str!("../../presets/suicide.ron")),
    ("shouse", include_str!("../../presets/shouse.ron")),
    ("armageddon", include_str!("../../presets/armageddon.ron")),
    ("atomar", include_str!("../../presets/atomar.ron")),
    ("ai-wok", include_str!("../../presets/ai-wok.ron")),
    ("asean", include_str!("../../presets/asean.ron")),
    ("paradigm", include_str!("../../presets/paradigm.ron")),
    ("georgian", include_str!("../../presets/georgian.ron")),
    ("dragon", include_str!("../../presets/dragon.ron")),
];

/// The ids of the built-in variants.
pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

/// The parsed (unresolved) built-in file with this id.
pub fn builtin_file(id: &str) -> Option<VariantFile> {
    BUILTIN.iter().find(|(i, _)| *i == id).and_then(|(_, text)| parse_variant_file(text).ok())
}

/// The built-in file with this id, resolved through its parents (`None`: no such id, or, a
/// bug, a file that does not resolve).
pub fn builtin_resolved(id: &str) -> Option<VariantFile> {
    resolve(builtin_file(id)?, &builtin_file).ok()
}

/// Every built-in variant, resolved, in catalogue order.
pub fn catalogue() -> impl Iterator<Item = (&'static str, VariantFile)> {
    builtin_ids().filter_map(|id| Some((id, builtin_resolved(id)?)))
}

/// Loads a built-in variant.
///
/// # Errors
/// An unknown id, or (a bug) an invalid built-in file.
pub fn builtin(id: &str) -> Result<Variant, LoadError> {
    let Some((_, text)) = BUILTIN.iter().find(|(i, _)| *i == id) else {
        let known: Vec<&str> = builtin_ids().collect();
        let message = format!("unknown variant '{id}'; known: {}", known.join(", "));
        return Err(LoadError::Invalid(vec![Problem::new(ProblemCode::UnknownVariant, "id", message)]));
    };
    let file = parse_variant_file(text)?;
    compile(&resolve(file, &builtin_file)?)
}

/// A catalogue variant's board and start placement, by id ([`LayoutLookup`](crate::rules::LayoutLookup)).
pub fn catalogue_layout(id: &str) -> Option<(crate::rules::Geometry, String)> {
    let v = builtin(id).ok()?;
    Some((v.geometry, v.start_fen.split_whitespace().next().unwrap_or_default().to_string()))
}

/// Loads a variant by built-in id or, when the argument names a `.ron` file, from disk, or a
/// section of a Fairy-Stockfish ini file (`file.ini:section`), converted.
///
/// # Errors
/// See [`builtin`] and [`load_path`].
pub fn find(id_or_path: &str) -> Result<Variant, LoadError> {
    if let Some((path, section)) = fairy::ini_spec(id_or_path) {
        let file = fairy::import_section(std::path::Path::new(path), section).map_err(LoadError::Io)?;
        return compile(&file);
    }
    if id_or_path.ends_with(".ron") { load_path(std::path::Path::new(id_or_path)) } else { builtin(id_or_path) }
}
