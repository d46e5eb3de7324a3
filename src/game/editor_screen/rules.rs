//! The editor's Rules section: a form of the right kind for each rule, the format's default
//! shown where the file leaves a rule out. Castling (landing files, rank, Chess960 notation,
//! the rooks' start files), promotion on a rank (choices, optional ranks, limits) and in a
//! zone (Shogi), hands and drops with their restrictions, exploding captures, the rule
//! switches (mandatory capture, checks forbidden, gating, passing, flying general, immobile
//! pieces), Janggi's diagonal lines and material count, the end conditions in order, presets
//! with their parameters, scope and duration, and the modifier profile (a built-in, or one
//! written out with each modifier's own form). Every change is one edit; a value dragged or
//! typed is one step of undo. Problems show beside the form they belong to.

use bevy_egui::egui;

use super::field_problems;
use crate::editor::{Edit, Editor};
use crate::rules::{MaterialRule, Verdict};
use crate::variants::{
    BlastSpec, CastlingSpec, DropsSpec, EndSpec, PiecePromotionSpec, PieceSpec, Problem, ProfileUse, PromotionSpec, SWITCHES, Scope,
    SwitchSection,
};

/// The section's own state.
#[derive(Default)]
pub struct RulesState {
    /// The piece whose capture the "capture all of a kind" template is about.
    capture_all: Option<char>,
    /// The number of checks the checks template asks for.
    checks: u8,
    /// Why the last ready-made way to win was refused.
    refused: Option<String>,
    /// A region just made for an end condition, to be painted on the board.
    pub(super) paint: Option<String>,
    /// The profile entry being edited (a piece letter, `white:R`, or a square).
    entry: Option<String>,
    /// The key typed for a new per-piece entry (a starting square).
    square: String,
}

/// A file letter for 0-based `file`.
fn file_letter(file: u8) -> char {
    (b'a' + file) as char
}

/// A combo of the board's files.
fn file_combo(ui: &mut egui::Ui, id: &str, value: &mut char, files: u8) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(40.0).selected_text(value.to_string()).show_ui(ui, |ui| {
        for f in 0..files {
            changed |= ui.selectable_value(value, file_letter(f), file_letter(f).to_string()).changed();
        }
    });
    changed
}

/// Checkboxes, one per piece letter, for a set of letters; returns the new set when changed,
/// in the order it had (promotion offers its choices in this order) with new letters last.
fn letter_boxes(ui: &mut egui::Ui, pieces: &[PieceSpec], letters: &str) -> Option<String> {
    let mut out = letters.to_string();
    let mut changed = false;
    for p in pieces {
        let mut on = letters.contains(p.letter);
        if ui.checkbox(&mut on, p.letter.to_string()).on_hover_text(&p.name).changed() {
            changed = true;
            out.retain(|c| c != p.letter);
            if on {
                out.push(p.letter);
            }
        }
    }
    changed.then_some(out)
}

/// A verdict picker.
fn verdict(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, v: &mut Verdict) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(70.0).selected_text(format!("{v:?}").to_lowercase()).show_ui(ui, |ui| {
        for x in [Verdict::Loss, Verdict::Draw, Verdict::Win] {
            changed |= ui.selectable_value(v, x, format!("{x:?}").to_lowercase()).changed();
        }
    });
    changed
}

/// A heading with a switch: on or off; returns the new state when changed.
fn heading(ui: &mut egui::Ui, on: bool, title: &str, hover: &str) -> Option<bool> {
    let mut v = on;
    let changed = ui.checkbox(&mut v, egui::RichText::new(title).strong()).on_hover_text(hover).changed();
    changed.then_some(v)
}

/// Draws the Rules section.
pub fn rules_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    st: &mut RulesState,
    compiled: Option<&crate::rules::Variant>,
    problems: &[Problem],
) {
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    let (files, ranks) = editor.board_size();
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        castling(ui, editor, &pieces, files, ranks, problems);
        ui.separator();
        promotion(ui, editor, &pieces, ranks, problems);
        ui.separator();
        drops(ui, editor, &pieces, ranks, problems);
        ui.separator();
        blast_and_switches(ui, editor, &pieces, problems);
        ui.separator();
        janggi(ui, editor, &pieces, problems);
        let ui = &mut cols[1];
        ways_to_win(ui, editor, st, &pieces);
        ui.separator();
        end_conditions(ui, editor, st, &pieces, problems);
        ui.separator();
        presets(ui, editor, problems);
        ui.separator();
        profile(ui, editor, st, &pieces, compiled, problems);
    });
}

fn castling(ui: &mut egui::Ui, editor: &mut Editor, pieces: &[PieceSpec], files: u8, ranks: u8, problems: &[Problem]) {
    let spec = editor.file().castling.clone();
    let on = matches!(spec, Some(CastlingSpec::On { .. }));
    if let Some(v) = heading(ui, on, "Castling", "the king and a rook move together on their first move") {
        let new = v.then(|| crate::editor::castling_default(files));
        let _ = editor.apply(&Edit::Castling(new));
    }
    if let Some(CastlingSpec::On { mut king, mut rook, mut king_takes_rook, mut rank, mut rook_start }) = spec {
        let mut changed = false;
        ui.horizontal(|ui| {
            ui.label("king lands on");
            changed |= file_combo(ui, "castle-king-k", &mut king.0, files);
            ui.label("/");
            changed |= file_combo(ui, "castle-king-q", &mut king.1, files);
            ui.label("rook on");
            changed |= file_combo(ui, "castle-rook-k", &mut rook.0, files);
            ui.label("/");
            changed |= file_combo(ui, "castle-rook-q", &mut rook.1, files);
        });
        ui.horizontal(|ui| {
            ui.label("on rank");
            changed |= ui.add(egui::DragValue::new(&mut rank).clamp_existing_to_range(false).range(1..=ranks)).changed();
            changed |= ui.checkbox(&mut king_takes_rook, "written king-takes-rook (Chess960)").changed();
        });
        ui.horizontal(|ui| {
            let mut fixed = rook_start.is_some();
            changed |= ui.checkbox(&mut fixed, "K/Q in the FEN mean the rooks on files").changed();
            if fixed {
                let (mut a, mut b) = rook_start.unwrap_or((file_letter(files - 1), 'a'));
                changed |= file_combo(ui, "castle-start-k", &mut a, files);
                changed |= file_combo(ui, "castle-start-q", &mut b, files);
                rook_start = Some((a, b));
            } else {
                rook_start = None;
            }
        });
        if !pieces.iter().any(|p| p.castles) || !pieces.iter().any(|p| p.castling_partner) {
            ui.label(egui::RichText::new("Mark the king \"castles\" and the rook \"castling partner\" in Pieces.").small());
        }
        if changed {
            let _ =
                editor.apply_merged(&Edit::Castling(Some(CastlingSpec::On { king, rook, king_takes_rook, rank, rook_start })), "castling");
        }
    }
    field_problems(ui, problems, "castling");
}

fn promotion(ui: &mut egui::Ui, editor: &mut Editor, pieces: &[PieceSpec], ranks: u8, problems: &[Problem]) {
    let spec = editor.file().promotion.clone();
    if let Some(v) = heading(ui, spec.is_some(), "Promotion on a rank", "pieces marked \"promotes\" change on reaching the last rank") {
        let choices: String = pieces.iter().filter(|p| !p.royal && !p.pawn).map(|p| p.letter).collect();
        let _ = editor.apply(&Edit::Promotion(v.then(|| PromotionSpec {
            rank: ranks,
            choices,
            black_choices: None,
            optional_from: None,
            limits: Default::default(),
            region: None,
        })));
    }
    if let Some(mut p) = spec {
        let mut changed = false;
        ui.horizontal_wrapped(|ui| {
            ui.label("on rank");
            changed |= ui.add(egui::DragValue::new(&mut p.rank).clamp_existing_to_range(false).range(1..=ranks)).changed();
            ui.label("to");
            if let Some(choices) = letter_boxes(ui, pieces, &p.choices) {
                p.choices = choices;
                changed = true;
            }
        });
        ui.horizontal_wrapped(|ui| {
            let mut own = p.black_choices.is_some();
            let hint = "Chigorin: white's pawns become knights or a chancellor, black's bishops or a queen";
            if ui.checkbox(&mut own, "black's own choices").on_hover_text(hint).changed() {
                p.black_choices = own.then(|| p.choices.clone());
                changed = true;
            }
            if let Some(black) = &p.black_choices
                && let Some(choices) = letter_boxes(ui, pieces, black)
            {
                p.black_choices = Some(choices);
                changed = true;
            }
        });
        ui.horizontal_wrapped(|ui| {
            let mut optional = p.optional_from.is_some();
            changed |= ui.checkbox(&mut optional, "optional from rank").on_hover_text("Grand chess: 8 and 9 optional, 10 forced").changed();
            let mut from = p.optional_from.unwrap_or(p.rank.saturating_sub(1).max(1));
            if optional {
                changed |= ui.add(egui::DragValue::new(&mut from).clamp_existing_to_range(false).range(1..=p.rank.max(1))).changed();
            }
            p.optional_from = optional.then_some(from);
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("at most (0: no limit):");
            let offered: std::collections::BTreeSet<char> =
                p.choices.chars().chain(p.black_choices.iter().flat_map(|b| b.chars())).collect();
            for letter in offered {
                let mut n = p.limits.get(&letter).copied().unwrap_or(0);
                ui.label(letter.to_string());
                if ui.add(egui::DragValue::new(&mut n).clamp_existing_to_range(false).range(0..=u8::MAX)).changed() {
                    changed = true;
                    if n == 0 {
                        p.limits.remove(&letter);
                    } else {
                        p.limits.insert(letter, n);
                    }
                }
            }
            p.limits.retain(|l, _| p.choices.contains(*l) || p.black_choices.as_ref().is_some_and(|b| b.contains(*l)));
        });
        if changed {
            let _ = editor.apply_merged(&Edit::Promotion(Some(p)), "promotion");
        }
    }
    field_problems(ui, problems, "promotion");
    let zone = editor.file().piece_promotion.clone();
    if let Some(v) = heading(
        ui,
        zone.is_some(),
        "Promotion in a zone (Shogi)",
        "a piece with \"promotes in the zone to\" may promote on a move into, within or out of the zone",
    ) {
        let _ =
            editor.apply(&Edit::PiecePromotion(v.then(|| PiecePromotionSpec { zone: ranks.saturating_sub(2).max(1), mandatory: false })));
    }
    if let Some(mut z) = zone {
        let mut changed = false;
        ui.horizontal(|ui| {
            ui.label("the zone starts at rank");
            changed |= ui.add(egui::DragValue::new(&mut z.zone).clamp_existing_to_range(false).range(1..=ranks)).changed();
            changed |= ui.checkbox(&mut z.mandatory, "must promote").changed();
        });
        if changed {
            let _ = editor.apply_merged(&Edit::PiecePromotion(Some(z)), "piece_promotion");
        }
    }
    field_problems(ui, problems, "piece_promotion");
    switches(ui, editor, problems, SwitchSection::Promotion);
}

fn drops(ui: &mut egui::Ui, editor: &mut Editor, pieces: &[PieceSpec], ranks: u8, problems: &[Problem]) {
    let spec = editor.file().drops.clone();
    if let Some(v) =
        heading(ui, spec.is_some(), "Hands and drops", "captured pieces go to the captor's hand and may be dropped instead of moving")
    {
        let new = v.then(|| DropsSpec {
            captures_to_hand: true,
            forbidden_ranks: Default::default(),
            ranks: Vec::new(),
            must_drop: false,
            opposite_bishops: false,
            castling_on_drop: false,
            no_doubled: String::new(),
            no_doubled_count: 1,
            no_drop_mate: String::new(),
            no_checks: false,
            keep_promoted: false,
        });
        let _ = editor.apply(&Edit::Drops(new));
    }
    if let Some(mut d) = spec {
        let mut changed = false;
        ui.horizontal_wrapped(|ui| {
            changed |= ui.checkbox(&mut d.captures_to_hand, "captures go to hand").changed();
            changed |= ui.checkbox(&mut d.must_drop, "must drop while holding pieces").changed();
            changed |= ui.checkbox(&mut d.opposite_bishops, "bishops on both colours").changed();
            changed |= ui.checkbox(&mut d.castling_on_drop, "dropped king and rook may castle").changed();
            changed |= ui.checkbox(&mut d.keep_promoted, "promoted pieces taken stay promoted").changed();
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("drops only on ranks (none: any)");
            for r in 1..=ranks {
                let mut on = d.ranks.contains(&r);
                if ui.checkbox(&mut on, r.to_string()).changed() {
                    changed = true;
                    d.ranks.retain(|&x| x != r);
                    if on {
                        d.ranks.push(r);
                        d.ranks.sort_unstable();
                    }
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            ui.label("no drop onto a file holding");
            let count = egui::DragValue::new(&mut d.no_doubled_count).clamp_existing_to_range(false).range(1..=u8::MAX);
            changed |= ui.add(count).on_hover_text("Shogi's nifu: 1; Tori shogi's swallows: 2").changed();
            ui.label("of the same (nifu)");
            if let Some(l) = letter_boxes(ui, pieces, &d.no_doubled) {
                d.no_doubled = l;
                changed = true;
            }
        });
        changed |= ui.checkbox(&mut d.no_checks, "no drop may give check").changed();
        ui.horizontal_wrapped(|ui| {
            ui.label("may not mate by a drop (a foul: the dropper loses)");
            if let Some(l) = letter_boxes(ui, pieces, &d.no_drop_mate) {
                d.no_drop_mate = l;
                changed = true;
            }
        });
        ui.label("Ranks where a piece may not be dropped (1: its own back rank; commas between):");
        ui.horizontal_wrapped(|ui| {
            for p in pieces {
                ui.label(p.letter.to_string());
                let now = d.forbidden_ranks.get(&p.letter).cloned().unwrap_or_default();
                if let Some(list) = super::ranks_field(ui, egui::Id::new(("forbidden-ranks", p.letter)), &now, 44.0) {
                    changed = true;
                    if list.is_empty() {
                        d.forbidden_ranks.remove(&p.letter);
                    } else {
                        d.forbidden_ranks.insert(p.letter, list);
                    }
                }
            }
        });
        if changed {
            let _ = editor.apply_merged(&Edit::Drops(Some(d)), "drops");
        }
    }
    field_problems(ui, problems, "drops");
    switches(ui, editor, problems, SwitchSection::Drops);
}

/// The checkboxes of the rule switches listed in `section`, each with its problems.
fn switches(ui: &mut egui::Ui, editor: &mut Editor, problems: &[Problem], section: SwitchSection) {
    for s in SWITCHES.iter().filter(|s| s.section == section) {
        let mut on = s.is_on(editor.file());
        if ui.checkbox(&mut on, s.label).on_hover_text(s.key).changed() {
            let _ = editor.apply(&Edit::Switch { switch: s, on });
        }
        field_problems(ui, problems, s.key);
    }
}

fn blast_and_switches(ui: &mut egui::Ui, editor: &mut Editor, pieces: &[PieceSpec], problems: &[Problem]) {
    let blast = editor.file().blast.clone();
    if let Some(v) = heading(ui, blast.is_some(), "Captures explode (Atomic)", "a capture blows up the captor and every piece next to it") {
        let immune: String = pieces.iter().filter(|p| p.pawn).map(|p| p.letter).collect();
        let _ = editor.apply(&Edit::Blast(v.then_some(BlastSpec { immune, ..Default::default() })));
    }
    if let Some(b) = blast {
        ui.horizontal_wrapped(|ui| {
            ui.label("survive a blast next to them:");
            if let Some(immune) = letter_boxes(ui, pieces, &b.immune) {
                let _ = editor.apply(&Edit::Blast(Some(BlastSpec { immune, ..Default::default() })));
            }
        });
    }
    field_problems(ui, problems, "blast");
    ui.label(egui::RichText::new("Other rules").strong());
    switches(ui, editor, problems, SwitchSection::Rules);
}

/// Janggi's diagonal lines and the material count that scores a game ended by bikjang or
/// passes.
fn janggi(ui: &mut egui::Ui, editor: &mut Editor, pieces: &[PieceSpec], problems: &[Problem]) {
    let regions: Vec<String> = editor.file().regions.iter().flatten().map(|(n, _)| n.clone()).collect();
    let lines = editor.file().diagonal_lines.clone();
    ui.horizontal(|ui| {
        ui.label("Diagonal lines (Janggi's palaces) in");
        egui::ComboBox::from_id_salt("diagonal-lines").selected_text(lines.clone().unwrap_or_else(|| "no region".into())).show_ui(
            ui,
            |ui| {
                let mut v = lines.clone();
                ui.selectable_value(&mut v, None, "no region");
                for r in &regions {
                    ui.selectable_value(&mut v, Some(r.clone()), r);
                }
                if v != lines {
                    let _ = editor.apply(&Edit::DiagonalLines(v));
                }
            },
        );
    });
    field_problems(ui, problems, "diagonal_lines");
    let count = editor.file().material_count.clone();
    let mut on = count.is_some();
    if ui.checkbox(&mut on, "Material count (scores bikjang and double passes)").changed() {
        let count = on.then(|| crate::variants::MaterialCountSpec { points: Default::default(), black_bonus: 0.0 });
        let _ = editor.apply(&Edit::MaterialCount(count));
    }
    if let Some(mut c) = count {
        let mut changed = false;
        ui.horizontal_wrapped(|ui| {
            for p in pieces {
                let mut v = c.points.get(&p.letter).copied().unwrap_or(0.0);
                ui.label(p.letter.to_string());
                if ui.add(egui::DragValue::new(&mut v).clamp_existing_to_range(false).range(-100.0..=100.0).speed(0.5)).changed() {
                    changed = true;
                    if v == 0.0 {
                        c.points.remove(&p.letter);
                    } else {
                        c.points.insert(p.letter, v);
                    }
                }
            }
            ui.label("black's bonus");
            changed |=
                ui.add(egui::DragValue::new(&mut c.black_bonus).clamp_existing_to_range(false).range(0.0..=100.0).speed(0.5)).changed();
        });
        if changed {
            let _ = editor.apply_merged(&Edit::MaterialCount(Some(c)), "material_count");
        }
    }
    field_problems(ui, problems, "material_count");
}

/// The kinds of end condition, with a new one of each.
/// Ready-made ways to win: one click writes the end condition and the region it needs.
fn ways_to_win(ui: &mut egui::Ui, editor: &mut Editor, st: &mut RulesState, pieces: &[PieceSpec]) {
    use crate::editor::WinTemplate;
    ui.label(egui::RichText::new("Ways to win, ready-made").strong())
        .on_hover_text("Each adds its condition to the list below (hover one for what it does); checkmate stays unless you remove it");
    let mut picked = None;
    ui.horizontal_wrapped(|ui| {
        let royal = editor.royal_letters();
        for t in [WinTemplate::Hill, WinTemplate::FarRank { pieces: royal }, WinTemplate::BareKing, WinTemplate::Extinction] {
            if ui.button(t.title()).on_hover_text(t.explanation()).clicked() {
                picked = Some(t);
            }
        }
    });
    ui.horizontal(|ui| {
        if st.checks == 0 {
            st.checks = 3;
        }
        let checks = WinTemplate::Checks(st.checks);
        ui.add(egui::DragValue::new(&mut st.checks).range(1..=20));
        if ui.button("checks win").on_hover_text(checks.explanation()).clicked() {
            picked = Some(checks);
        }
        ui.separator();
        let letter =
            st.capture_all.filter(|l| pieces.iter().any(|p| p.letter == *l)).or_else(|| pieces.iter().find(|p| !p.royal).map(|p| p.letter));
        let name = |l: char| pieces.iter().find(|p| p.letter == l).map_or(l.to_string(), |p| p.name.clone());
        let all = WinTemplate::CaptureAll { letter: letter.unwrap_or('P') };
        if ui.button("Capture every").on_hover_text(all.explanation()).clicked() && letter.is_some() {
            picked = Some(all);
        }
        egui::ComboBox::from_id_salt("capture-all").width(120.0).selected_text(letter.map(name).unwrap_or_default()).show_ui(ui, |ui| {
            for p in pieces {
                if ui.selectable_label(letter == Some(p.letter), &p.name).clicked() {
                    st.capture_all = Some(p.letter);
                }
            }
        });
        ui.label("to win");
    });
    if let Some(t) = picked {
        st.refused = editor.add_win(&t).err();
    }
    if let Some(e) = &st.refused {
        ui.colored_label(super::ERROR, e);
    }
}

fn new_conditions(pieces: &[PieceSpec], regions: &[String]) -> Vec<(&'static str, EndSpec)> {
    let royal: String = pieces.iter().filter(|p| p.royal).map(|p| p.letter).collect();
    let region = regions.first().cloned().unwrap_or_default();
    vec![
        ("checkmate wins", EndSpec::Checkmate),
        ("checkmated: a verdict", EndSpec::Checkmated(Verdict::Loss)),
        ("Shatar's mate (needs a shak)", {
            let moving = |moves: &[&str]| pieces.iter().filter(|p| moves.contains(&p.betza.as_str())).map(|p| p.letter).collect();
            EndSpec::ShatarMate { shak: moving(&["R", "N", "RF"]), knights: moving(&["N"]) }
        }),
        ("stalemate: a verdict", EndSpec::Stalemate(Verdict::Draw)),
        ("stalemate: fewer pieces win", EndSpec::StalemateByCount),
        (
            "a region reached wins",
            EndSpec::RegionReached { pieces: royal.clone(), region: region.clone(), reply: false, safe: false, count: 1 },
        ),
        ("a region held wins", EndSpec::RegionHeld { pieces: royal, region }),
        ("n checks win", EndSpec::NCheck(3)),
        (
            "extinction",
            EndSpec::Extinction { pieces: String::new(), per_type: false, fewer_than: 1, verdict: Verdict::Loss, pseudo_royal: false },
        ),
        ("bare king", EndSpec::BareKing(Verdict::Loss)),
        ("move rule draws", EndSpec::MoveRule(100)),
        ("repetition draws", EndSpec::Repetition(3)),
        ("repetition: a verdict", EndSpec::RepetitionScored { count: 3, verdict: Verdict::Loss, for_white: false }),
        ("insufficient material draws", EndSpec::InsufficientMaterial),
        ("insufficient material as lichess plays a variant", EndSpec::InsufficientMaterialAs(MaterialRule::ThreeCheck)),
        ("bikjang (Janggi)", EndSpec::Bikjang),
        ("two passes end it", EndSpec::DoublePass),
    ]
}

/// One end condition's row: what it is and its values; returns whether it changed. A region
/// asked for may be a new one ("New region…"): its name is put in `new_region`, to be made and
/// painted.
fn condition_row(
    ui: &mut egui::Ui,
    i: usize,
    e: &mut EndSpec,
    pieces: &[PieceSpec],
    regions: &[String],
    new_region: &mut Option<String>,
) -> bool {
    let mut changed = false;
    let mut region_combo = |ui: &mut egui::Ui, region: &mut String| {
        let mut changed = false;
        egui::ComboBox::from_id_salt(("end-region", i)).selected_text(region.clone()).show_ui(ui, |ui| {
            for r in regions {
                changed |= ui.selectable_value(region, r.clone(), r).changed();
            }
            if let Some(name) = super::new_region_item(ui, regions) {
                region.clone_from(&name);
                *new_region = Some(name);
                changed = true;
            }
        });
        changed
    };
    match e {
        EndSpec::Checkmate => {
            ui.label("checkmate wins");
        }
        EndSpec::Checkmated(v) => {
            ui.label("checkmated:");
            changed |= verdict(ui, ("end-v", i), v);
        }
        EndSpec::ShatarMate { shak, knights } => {
            ui.label("mate wins after a check by");
            if let Some(l) = letter_boxes(ui, pieces, shak) {
                *shak = l;
                changed = true;
            }
            ui.label("in the series (else a draw); a mate by");
            if let Some(l) = letter_boxes(ui, pieces, knights) {
                *knights = l;
                changed = true;
            }
            ui.label("alone loses");
        }
        EndSpec::Stalemate(v) => {
            ui.label("stalemate:");
            changed |= verdict(ui, ("end-v", i), v);
        }
        EndSpec::BareKing(v) => {
            ui.label("a bare king:");
            changed |= verdict(ui, ("end-v", i), v);
        }
        EndSpec::RegionReached { pieces: letters, region, reply, safe, count } => {
            ui.label("reaching");
            changed |= region_combo(ui, region);
            ui.label("wins for");
            if let Some(l) = letter_boxes(ui, pieces, letters) {
                *letters = l;
                changed = true;
            }
            changed |= ui
                .checkbox(reply, "black may reply")
                .on_hover_text("If White gets there first, Black may still draw by getting there with the very next move (Racing Kings)")
                .changed();
            changed |= ui
                .checkbox(safe, "safe there")
                .on_hover_text("The piece counts only where the opponent cannot take it at once (Dobutsu's try)")
                .changed();
            ui.label("pieces needed").on_hover_text("How many of those pieces must stand there together (Knights Halma: 9)");
            changed |= ui.add(egui::DragValue::new(count).clamp_existing_to_range(false).range(1..=u8::MAX)).changed();
        }
        EndSpec::RegionHeld { pieces: letters, region } => {
            ui.label("holding");
            changed |= region_combo(ui, region);
            ui.label("wins for");
            if let Some(l) = letter_boxes(ui, pieces, letters) {
                *letters = l;
                changed = true;
            }
        }
        EndSpec::NCheck(n) => {
            changed |= ui.add(egui::DragValue::new(n).clamp_existing_to_range(false).range(1..=u8::MAX)).changed();
            ui.label("checks win");
        }
        EndSpec::Extinction { pieces: letters, per_type, fewer_than, verdict: v, pseudo_royal } => {
            ui.label("fewer than");
            changed |= ui.add(egui::DragValue::new(fewer_than).clamp_existing_to_range(false).range(1..=16)).changed();
            ui.label("of (none: any piece)");
            if let Some(l) = letter_boxes(ui, pieces, letters) {
                *letters = l;
                changed = true;
            }
            changed |= ui.checkbox(per_type, "each type").changed();
            let hint =
                "while a side has no more of them than this, they are royal: they may not be left attacked (Sho shogi's king and prince)";
            changed |= ui.checkbox(pseudo_royal, "the last ones are royal").on_hover_text(hint).changed();
            changed |= verdict(ui, ("end-v", i), v);
        }
        EndSpec::MoveRule(n) => {
            changed |= ui.add(egui::DragValue::new(n).clamp_existing_to_range(false).range(1..=100_000)).changed();
            ui.label("half-moves without a capture or pawn move draw");
        }
        EndSpec::Repetition(n) => {
            ui.label("the same position");
            changed |= ui.add(egui::DragValue::new(n).clamp_existing_to_range(false).range(2..=u8::MAX)).changed();
            ui.label("times draws");
        }
        EndSpec::RepetitionScored { count, verdict: v, for_white } => {
            ui.label("the same position");
            changed |= ui.add(egui::DragValue::new(count).clamp_existing_to_range(false).range(2..=u8::MAX)).changed();
            ui.label("times:");
            changed |= verdict(ui, ("end-v", i), v);
            changed |= ui.checkbox(for_white, "for white").changed();
        }
        EndSpec::InsufficientMaterial => {
            ui.label("insufficient material draws");
        }
        EndSpec::InsufficientMaterialAs(rule) => {
            ui.label("insufficient material draws, as lichess judges it in");
            let name = |r: MaterialRule| match r {
                MaterialRule::ThreeCheck => "Three-check (a bare king)",
                MaterialRule::Crazyhouse => "Crazyhouse",
                MaterialRule::Atomic => "Atomic",
                MaterialRule::Antichess => "Antichess",
                MaterialRule::Horde => "Horde",
            };
            egui::ComboBox::from_id_salt(("end-material", i)).selected_text(name(*rule)).show_ui(ui, |ui| {
                for r in
                    [MaterialRule::ThreeCheck, MaterialRule::Crazyhouse, MaterialRule::Atomic, MaterialRule::Antichess, MaterialRule::Horde]
                {
                    changed |= ui.selectable_value(rule, r, name(r)).changed();
                }
            });
        }
        EndSpec::Bikjang => {
            ui.label("bikjang: kings facing after two moves end it (scored by the count)");
        }
        EndSpec::DoublePass => {
            ui.label("two passes in a row end it (scored by the count)");
        }
        EndSpec::StalemateByCount => {
            ui.label("stalemate: the side with fewer pieces wins (equal: a draw)");
        }
    }
    changed
}

fn end_conditions(ui: &mut egui::Ui, editor: &mut Editor, st: &mut RulesState, pieces: &[PieceSpec], problems: &[Problem]) {
    ui.label(egui::RichText::new("How the game ends (checked in this order)").strong());
    if editor.file().end.is_none() {
        ui.label(egui::RichText::new("Chess's, as the file leaves them out:").small());
    }
    let regions: Vec<String> = editor.file().regions.iter().flatten().map(|(n, _)| n.clone()).collect();
    let mut list = editor.end_conditions();
    let mut new_region = None;
    let mut changed = false;
    let mut merge = false;
    let mut action: Option<(usize, i32)> = None;
    for (i, e) in list.iter_mut().enumerate() {
        ui.horizontal_wrapped(|ui| {
            if ui.small_button("up").on_hover_text("checked earlier").clicked() {
                action = Some((i, -1));
            }
            if ui.small_button("down").on_hover_text("checked later").clicked() {
                action = Some((i, 1));
            }
            if ui.small_button("✖").on_hover_text("remove").clicked() {
                action = Some((i, 0));
            }
            if condition_row(ui, i, e, pieces, &regions, &mut new_region) {
                changed = true;
                merge = true;
            }
        });
        field_problems(ui, problems, &format!("end[{i}]"));
    }
    match action {
        Some((i, 0)) => {
            list.remove(i);
            changed = true;
        }
        Some((i, d)) => {
            let j = i as i32 + d;
            if (0..list.len() as i32).contains(&j) {
                list.swap(i, j as usize);
                changed = true;
            }
        }
        None => {}
    }
    egui::ComboBox::from_id_salt("end-add").selected_text("Add a condition…").show_ui(ui, |ui| {
        for (name, e) in new_conditions(pieces, &regions) {
            if ui.selectable_label(false, name).clicked() {
                list.push(e);
                changed = true;
            }
        }
    });
    if let Some(name) = new_region {
        // The region (empty, to be painted) and the condition that names it, one step of undo;
        // the screen goes to the board to paint it.
        editor.edit(|f| {
            f.regions.get_or_insert_with(Default::default).insert(name.clone(), crate::variants::RegionSpec::Squares(Vec::new()));
            f.end = Some(list);
        });
        st.paint = Some(name);
    } else if changed {
        let _ = if merge { editor.apply_merged(&Edit::End(list), "end") } else { editor.apply(&Edit::End(list)) };
    }
    // The list's own problems (each condition's are beside it).
    super::exact_problems(ui, problems, "end");
}

fn presets(ui: &mut egui::Ui, editor: &mut Editor, problems: &[Problem]) {
    ui.label(egui::RichText::new("Presets for every game of the variant").strong());
    let used = editor.file().presets.clone().unwrap_or_default();
    // Those on, each with its scope, duration and parameters, in the order they apply.
    for u in &used {
        let Some(p) = crate::presets::by_id(&u.id) else {
            ui.colored_label(super::ERROR, format!("no preset '{}'", u.id));
            continue;
        };
        let mut u = u.clone();
        ui.horizontal_wrapped(|ui| {
            let mut on = true;
            if ui.checkbox(&mut on, p.name).on_hover_text(p.description).changed() {
                let _ = editor.apply(&Edit::Preset { id: p.id.to_string(), on });
            }
            let mut changed = false;
            let mut scope = u.scope.unwrap_or_default();
            egui::ComboBox::from_id_salt(("preset-scope", p.id)).width(60.0).selected_text(format!("{scope:?}").to_lowercase()).show_ui(
                ui,
                |ui| {
                    for s in [Scope::Both, Scope::White, Scope::Black] {
                        changed |= ui.selectable_value(&mut scope, s, format!("{s:?}").to_lowercase()).changed();
                    }
                },
            );
            u.scope = (scope != Scope::Both).then_some(scope);
            let mut limited = u.duration.is_some();
            changed |= ui.checkbox(&mut limited, "for").on_hover_text("turns; unticked: the whole game").changed();
            let mut turns = u.duration.unwrap_or(10);
            if limited {
                changed |= ui.add(egui::DragValue::new(&mut turns).clamp_existing_to_range(false).range(1..=100_000)).changed();
                ui.label("turns");
            }
            u.duration = limited.then_some(turns);
            for param in p.params {
                let mut v = u.params.get(param.name).copied().unwrap_or(f64::from(param.default));
                ui.label(param.name);
                if ui
                    .add(
                        egui::DragValue::new(&mut v)
                            .clamp_existing_to_range(false)
                            .range(f64::from(param.min)..=f64::from(param.max))
                            .speed(0.2),
                    )
                    .changed()
                {
                    changed = true;
                    let v = v.round();
                    if v == f64::from(param.default) {
                        u.params.remove(param.name);
                    } else {
                        u.params.insert(param.name.to_string(), v);
                    }
                }
            }
            if changed {
                let _ = editor.apply_merged(&Edit::PresetUse(u.clone()), &format!("preset-{}", p.id));
            }
        });
    }
    // The others, to switch on.
    egui::Grid::new("presets-off").num_columns(3).show(ui, |ui| {
        for (i, p) in crate::presets::every().filter(|p| !used.iter().any(|u| u.id == p.id)).enumerate() {
            let mut on = false;
            if ui.checkbox(&mut on, p.name).on_hover_text(p.description).changed() {
                let _ = editor.apply(&Edit::Preset { id: p.id.to_string(), on });
            }
            if i % 3 == 2 {
                ui.end_row();
            }
        }
    });
    field_problems(ui, problems, "presets");
}

/// A profile entry's key in words: "all knights", "white's rooks", "the piece from b1".
fn entry_label(pieces: &[PieceSpec], key: &str) -> String {
    let (side, letter) = key.split_once(':').map_or((None, key), |(s, l)| (Some(s), l));
    match pieces.iter().find(|p| p.letter.to_string() == letter) {
        Some(p) => match side {
            Some(side) => format!("{side}'s {}s", p.name),
            None => format!("all {}s", p.name),
        },
        None => format!("the piece from {key}"),
    }
}

fn profile(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    st: &mut RulesState,
    pieces: &[PieceSpec],
    compiled: Option<&crate::rules::Variant>,
    problems: &[Problem],
) {
    ui.label(egui::RichText::new("Modifier profile").strong())
        .on_hover_text("Per-piece abilities on top of the rules, which every game of the variant starts with");
    let current = editor.file().profile.clone();
    ui.horizontal_wrapped(|ui| {
        let mut pick = match &current {
            None => "none".to_string(),
            Some(ProfileUse::Id(id)) => id.clone(),
            Some(ProfileUse::Inline(_)) => "its own".to_string(),
        };
        let before = pick.clone();
        ui.radio_value(&mut pick, "none".to_string(), "none");
        for (id, _) in crate::modifiers::BUILTIN {
            ui.radio_value(&mut pick, id.to_string(), *id);
        }
        ui.radio_value(&mut pick, "its own".to_string(), "its own");
        if pick != before {
            let new = match pick.as_str() {
                "none" => None,
                "its own" => {
                    // Starting from the built-in it had, if any.
                    let base = match &current {
                        Some(ProfileUse::Id(id)) => crate::modifiers::builtin(id).unwrap_or_default(),
                        _ => crate::modifiers::Profile::default(),
                    };
                    let id = editor.file().id.clone();
                    Some(ProfileUse::Inline(crate::modifiers::Profile { id, ..base }))
                }
                id => Some(ProfileUse::Id(id.to_string())),
            };
            let _ = editor.apply(&Edit::Profile(new));
        }
    });
    if let Some(ProfileUse::Id(id)) = &current
        && let Some(p) = crate::modifiers::builtin(id)
    {
        let registry = crate::modifiers::ModifierRegistry::builtin();
        for (key, entry) in &p.types {
            ui.label(format!("{key}: {}", crate::modifiers::Mods::describe_entry(entry, &registry).join(", ")));
        }
    }
    if let Some(ProfileUse::Inline(mut own)) = current {
        let registry = crate::modifiers::ModifierRegistry::builtin();
        ui.horizontal_wrapped(|ui| {
            ui.label("Entry:");
            let shown = st.entry.as_deref().map_or_else(|| "choose…".into(), |key| entry_label(pieces, key));
            egui::ComboBox::from_id_salt("profile-entry").selected_text(shown).show_ui(ui, |ui| {
                for p in pieces {
                    for key in [p.letter.to_string(), format!("white:{}", p.letter), format!("black:{}", p.letter)] {
                        let label = entry_label(pieces, &key);
                        ui.selectable_value(&mut st.entry, Some(key), label);
                    }
                }
                for square in own.instances.keys() {
                    ui.selectable_value(&mut st.entry, Some(square.clone()), entry_label(pieces, square));
                }
            });
            ui.add(egui::TextEdit::singleline(&mut st.square).hint_text("square").desired_width(40.0));
            if ui.button("the piece from this square").clicked() && !st.square.trim().is_empty() {
                st.entry = Some(st.square.trim().to_lowercase());
            }
        });
        if let Some(key) = st.entry.clone() {
            let is_type = key.chars().next().is_some_and(|c| c.is_ascii_uppercase()) || key.contains(':');
            let table = if is_type { &mut own.types } else { &mut own.instances };
            let mut entry = table.get(&key).cloned().unwrap_or_default();
            let before = entry.clone();
            for def in registry.list() {
                for field in def.ui_form {
                    super::super::profile_panel::form_field(ui, field, &mut entry, compiled);
                }
            }
            if entry != before {
                if entry.is_empty() {
                    table.remove(&key);
                } else {
                    table.insert(key.clone(), entry);
                }
                let _ = editor.apply_merged(&Edit::Profile(Some(ProfileUse::Inline(own.clone()))), &format!("profile-{key}"));
            }
        }
        for (key, entry) in own.types.iter().chain(own.instances.iter()) {
            ui.label(
                egui::RichText::new(format!("{key}: {}", crate::modifiers::Mods::describe_entry(entry, &registry).join(", "))).small(),
            );
        }
    }
    field_problems(ui, problems, "profile");
}
