//! Games as PGN: written with the standard seven tags plus `Variant`, `Presets` and `Profile`
//! (Chimera's own; the profile the game started with, as RON on one line) and `FEN`/`SetUp` when
//! the game did not start from the variant's usual position; preset
//! annotations become comments. Read back by playing every SAN token through the rules, so a
//! file that does not replay is refused with the move and the reason, and nothing is changed.
//!
//! Layer: uses `rules` to `ai` (not `clock`, which stands beside it).

use crate::presets::{Activation, GameDefinition, Start};
use crate::rules::{Engine, MoveLog, Outcome, RulesWorld, Side};

/// A game read from PGN.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// SAN moves in order.
    pub moves: Vec<String>,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// The PGN result token of an outcome.
pub fn result_token(outcome: Option<&Outcome>) -> &'static str {
    match outcome {
        None => "*",
        Some(o) => match o.winner {
            Some(Side::White) => "1-0",
            Some(Side::Black) => "0-1",
            None => "1/2-1/2",
        },
    }
}

/// A tag value as written: `\\` and `\"` stand for themselves.
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' { chars.next().unwrap_or('\\') } else { c });
    }
    out
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The players' names for the PGN tags, from who the computer plays (`[white, black]`, its
/// level): "Chimera level 3", or "Player" for a person.
pub fn player_names(computer: [Option<u8>; 2]) -> [String; 2] {
    computer.map(|side| side.map_or("Player".to_string(), |level| format!("Chimera level {level}")))
}

/// Writes the game in `world` (a variant `variant_id` with `presets`, started from `start_fen`,
/// between `players`, white first) as PGN. `date` is `YYYY.MM.DD`.
pub fn write_pgn(
    world: &mut bevy::prelude::World,
    variant_id: &str,
    presets: &[Activation],
    start_fen: &str,
    date: &str,
    players: &[String; 2],
) -> String {
    write_pgn_with(world, variant_id, presets, start_fen, date, players, &[], None)
}

/// [`write_pgn`] with `extra` tags after the others (a save's own, see [`crate::save`]), and
/// a game review's marks and evaluations when there is one: each move gets its mark (`?!`, `?`,
/// `??`) and a comment `{[%eval 0.25] Mistake. Nf3 was best.}` (the evaluation after the
/// move, White's side, in pawns or `#N`), as lichess writes a reviewed game.
#[allow(clippy::too_many_arguments)]
pub fn write_pgn_with(
    world: &mut bevy::prelude::World,
    variant_id: &str,
    presets: &[Activation],
    start_fen: &str,
    date: &str,
    players: &[String; 2],
    extra: &[(&str, String)],
    review: Option<&crate::ai::review::Review>,
) -> String {
    let outcome = world.outcome();
    let result = result_token(outcome.as_ref());
    let variant = world.resource::<crate::rules::Rules>().0.clone();
    let usual = Engine::from_fen((*variant).clone(), "startpos").map(|mut e| e.fen()).unwrap_or_default();
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", "Chimera game");
    tag("Site", "Chimera");
    tag("Date", date);
    tag("Round", "-");
    tag("White", &players[0]);
    tag("Black", &players[1]);
    tag("Result", result);
    tag("Variant", variant_id);
    if !presets.is_empty() {
        tag("Presets", &presets.iter().map(|a| a.id).collect::<Vec<_>>().join(","));
    }
    if let Some(profile) = world.get_resource::<crate::presets::StartProfile>().and_then(|s| s.0.clone()) {
        tag("Profile", &profile.to_ron_line());
    }
    // Each swap: the move at whose end it applied, and the profile (or `none`).
    for (ply, profile) in world.get_resource::<crate::presets::SwapHistory>().map(|h| h.0.clone()).unwrap_or_default() {
        tag("ProfileSwap", &format!("{ply} {}", profile.map_or("none".into(), |p| p.to_ron_line())));
    }
    if start_fen != usual {
        tag("SetUp", "1");
        tag("FEN", start_fen);
    }
    if let Some(o) = &outcome {
        tag("Termination", &o.to_string());
    }
    for (k, v) in extra {
        tag(k, v);
    }
    out.push('\n');
    let log = world.resource::<MoveLog>().0.clone();
    let first_fullmove: u32 = start_fen.split_whitespace().nth(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    let mut number = first_fullmove;
    let mut line = String::new();
    let mut previous: Option<Side> = None;
    for (i, record) in log.iter().enumerate() {
        let mut san = record.san.clone().unwrap_or_else(|| "?".into());
        if let Some(j) = review.and_then(|r| r.moves.get(i)).and_then(|m| m.judgement) {
            san.push_str(j.suffix());
        }
        // A white move always carries its number (a second one in a double-move turn too); a
        // black move only when it does not follow a white move.
        let mut piece = match (record.mover, previous) {
            (Side::White, _) => format!("{number}. {san}"),
            (Side::Black, Some(Side::White)) => san,
            (Side::Black, _) => format!("{number}... {san}"),
        };
        for note in record.effects.iter().cloned().chain(review.and_then(|r| r.comment(i))) {
            piece.push_str(&format!(" {{{}}}", note.replace('}', ")")));
        }
        if line.len() + piece.len() > 78 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&piece);
        line.push(' ');
        if record.mover == Side::Black && log.get(i + 1).is_none_or(|n| n.mover == Side::White) {
            number += 1;
        }
        previous = Some(record.mover);
    }
    line.push_str(result);
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// Reads one game of PGN: tags, then movetext (numbers, comments `{}` and `;`, variations `()`,
/// NAGs `$n` and the result are skipped).
///
/// # Errors
/// An unterminated tag, comment or variation, naming the line.
pub fn parse_pgn(text: &str) -> Result<PgnGame, String> {
    let mut game = PgnGame::default();
    let mut movetext = String::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.starts_with('[') {
            let inner =
                t.strip_prefix('[').and_then(|s| s.strip_suffix(']')).ok_or_else(|| format!("line {}: a tag without its ']'", i + 1))?;
            let (key, rest) = inner.split_once(' ').ok_or_else(|| format!("line {}: a tag without a value", i + 1))?;
            let value = rest
                .trim()
                .strip_prefix('"')
                .and_then(|s| s.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: a tag value must be quoted", i + 1))?;
            game.tags.push((key.to_string(), unescape(value)));
        } else if !t.starts_with('%') {
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    let mut depth = 0usize;
    let mut comment = false;
    let mut line_comment = false;
    let mut clean = String::new();
    for c in movetext.chars() {
        match c {
            '\n' if line_comment => line_comment = false,
            _ if line_comment => {}
            '}' if comment => comment = false,
            _ if comment => {}
            '{' => comment = true,
            ';' => line_comment = true,
            '(' => depth += 1,
            ')' => depth = depth.checked_sub(1).ok_or("a ')' without its '('")?,
            _ if depth > 0 => {}
            _ => clean.push(c),
        }
    }
    if comment {
        return Err("a comment '{' is never closed (the file may be cut short)".into());
    }
    if depth > 0 {
        return Err("a variation '(' is never closed (the file may be cut short)".into());
    }
    for token in clean.split_whitespace() {
        if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        // Move numbers ("12.", "12...", "12.e4"); castling written with zeros stays.
        let token =
            if token.contains('.') { token.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches('.') } else { token };
        if token.is_empty() || token.starts_with('$') {
            continue;
        }
        game.moves.push(token.to_string());
    }
    Ok(game)
}

/// The game a PGN's tags define: its variant (the `Variant` tag, `chess` without one) with
/// the presets of its `Presets` tag on too and the profile of its `Profile` tag; and the
/// variant's id.
///
/// # Errors
/// An unknown variant or preset, or a profile that does not read.
pub fn definition_of(game: &PgnGame) -> Result<(GameDefinition, String), String> {
    let id = game.tag("Variant").map(normalise_variant).unwrap_or_else(|| "chess".into());
    let variant = crate::variants::find(&id).map_err(|e| format!("variant '{id}': {e}"))?;
    let tagged: Vec<String> =
        game.tag("Presets").unwrap_or("").split(',').map(str::trim).filter(|p| !p.is_empty()).map(String::from).collect();
    let mut definition = GameDefinition::new(variant)?.with_preset_ids(&tagged)?;
    if let Some(text) = game.tag("Profile") {
        definition.profile = Some(crate::modifiers::Profile::from_ron(text)?);
    }
    Ok((definition, id))
}

/// Replays a PGN game in a fresh engine: its [definition](definition_of), start position
/// (the `FEN` tag) and moves.
///
/// # Errors
/// An unknown variant or preset, a bad FEN, or the first move that is not legal, with why.
pub fn replay(game: &PgnGame) -> Result<(Engine, String, Vec<Activation>), String> {
    let (definition, id) = definition_of(game)?;
    let engine = replay_with(&definition, game)?;
    Ok((engine, id, definition.presets))
}

/// Replays a PGN game in a fresh engine of `definition` (see [`definition_of`]): its start
/// position (the `FEN` tag) and moves.
///
/// # Errors
/// A bad FEN, or the first move that is not legal, with why.
pub fn replay_with(definition: &GameDefinition, game: &PgnGame) -> Result<Engine, String> {
    let mut engine = definition.start(Start::Given(game.tag("FEN").unwrap_or("startpos")))?;
    let swaps = profile_swaps(game)?;
    for (i, san) in game.moves.iter().enumerate() {
        queue_swap(engine.world_mut(), &swaps, i + 1)?;
        engine.play_san(san).map_err(|e| format!("move {} ({san}): {e}", i + 1))?;
    }
    Ok(engine)
}

/// The game's `ProfileSwap` tags: the move at whose end each applied, and the profile.
///
/// # Errors
/// A tag that is not a move number and a profile (or `none`).
pub fn profile_swaps(game: &PgnGame) -> Result<Vec<(usize, Option<crate::modifiers::Profile>)>, String> {
    game.tags
        .iter()
        .filter(|(k, _)| k == "ProfileSwap")
        .map(|(_, v)| {
            let (ply, text) = v.split_once(' ').ok_or_else(|| format!("ProfileSwap '{v}': expected a move number and a profile"))?;
            let ply: usize = ply.parse().map_err(|_| format!("ProfileSwap '{v}': '{ply}' is not a move number"))?;
            let profile = if text.trim() == "none" { None } else { Some(crate::modifiers::Profile::from_ron(text)?) };
            Ok((ply, profile))
        })
        .collect()
}

/// Before the move numbered `ply` is replayed, queues the swap that applied at its end.
///
/// # Errors
/// The swap is refused in the replayed game.
pub fn queue_swap(
    world: &mut bevy::prelude::World,
    swaps: &[(usize, Option<crate::modifiers::Profile>)],
    ply: usize,
) -> Result<(), String> {
    for (_, profile) in swaps.iter().filter(|(p, _)| *p == ply) {
        crate::presets::request_swap(world, profile.clone())
            .map_err(|p| format!("profile swap at move {ply}: {}", p.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")))?;
    }
    Ok(())
}

/// Lichess writes variant names ("King of the Hill", "Three-check"); Chimera's ids are
/// Fairy-Stockfish's. Both are accepted.
fn normalise_variant(name: &str) -> String {
    let squashed: String = name.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
    match squashed.as_str() {
        "standard" | "chess" => "chess".into(),
        "threecheck" => "3check".into(),
        "fromposition" => "chess".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::{new_game, set_active_presets};
    use crate::rules::Variant;

    #[test]
    fn a_game_round_trips_through_pgn() {
        let mut e = new_game(crate::variants::builtin("crazyhouse").unwrap(), "startpos").unwrap();
        for m in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@d5"] {
            e.play_san(m).unwrap();
        }
        let start = Engine::from_fen(e.variant().clone(), "startpos").unwrap().fen();
        let text = write_pgn(e.world_mut(), "crazyhouse", &[], &start, "2026.11.22", &player_names([None, Some(8)]));
        assert!(text.contains("[Variant \"crazyhouse\"]") && text.contains("4. P@d5 *"), "{text}");
        assert!(text.contains("[White \"Player\"]\n[Black \"Chimera level 8\"]"), "who played: {text}");
        let game = parse_pgn(&text).unwrap();
        let (mut back, id, _) = replay(&game).unwrap();
        assert_eq!(id, "crazyhouse");
        assert_eq!(back.fen(), e.fen());
    }

    #[test]
    fn presets_annotations_and_a_custom_start_survive() {
        let fen = "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1";
        let mut e = Engine::from_fen(Variant::chess(), fen).unwrap();
        set_active_presets(e.world_mut(), vec![Activation::of("queen-splits")]).unwrap();
        e.play_san("Qxd5").unwrap();
        let text = write_pgn(e.world_mut(), "chess", &[Activation::of("queen-splits")], fen, "2026.11.22", &player_names([None, None]));
        assert!(text.contains("[Presets \"queen-splits\"]") && text.contains("[FEN \"4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1\"]"), "{text}");
        assert!(text.contains("1. Qxd5 {white queen split into a rook and a bishop}"), "{text}");
        let (mut back, _, presets) = replay(&parse_pgn(&text).unwrap()).unwrap();
        assert_eq!(presets.len(), 1);
        assert_eq!(back.fen(), e.fen());
    }

    #[test]
    fn bad_files_are_refused_with_a_reason() {
        assert!(parse_pgn("[Event \"x\"\n1. e4").unwrap_err().contains("line 1"));
        assert!(parse_pgn("1. e4 {a comment that never ends").unwrap_err().contains("never closed"));
        let err = replay(&parse_pgn("1. e4 e5 2. Ke3").unwrap()).unwrap_err();
        assert!(err.starts_with("move 3 (Ke3)"), "{err}");
        let err = replay(&parse_pgn("[Variant \"nonsense\"]\n1. e4").unwrap()).unwrap_err();
        assert!(err.contains("nonsense"), "{err}");
        // Lichess-style names, variations, NAGs and results are understood.
        let game = parse_pgn("[Variant \"King of the Hill\"]\n1. e4 $1 (1. d4 d5) e5 2.Ke2 Ke7 1/2-1/2").unwrap();
        assert_eq!(game.moves, ["e4", "e5", "Ke2", "Ke7"]);
        assert_eq!(parse_pgn("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. 0-0").unwrap().moves.last().map(String::as_str), Some("0-0"));
        assert_eq!(replay(&game).unwrap().1, "kingofthehill");
    }
}
