//! The position set-up board: a window over the game for the variant and presets on the board
//! (a catalogue variant, a variant file, presets, the player's own pieces). Pieces are placed
//! from a palette of the variant's own pieces and removed with the eraser; pockets are filled
//! where the game has hands; the side to move, castling rights, en-passant square, counters
//! and a variant's own fields are set; and a piece's facts (hit points) are set when it is
//! selected. The position is checked as a game would start from it, the FEN reader's code
//! shown with the problem. Then it is played (two players, or against the computer) or
//! analysed. The model is [`crate::editor::setup::SetupBoard`].
//!
//! Opened from the panel ("Set up…") on the position on the board, and from the start screen
//! on the picked variant's start.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::files::GameAction;
use super::pieces::PieceTextures;
use super::shared::{GameSetup, Screen};
use crate::editor::setup::SetupBoard;
use crate::rules::{RulesWorld, Side};

/// The set-up window's state.
#[derive(Resource)]
pub struct SetupScreen {
    /// The position being set up, while the window is open, and the game it is for (its
    /// serial: another game on the board closes the window, as the position would be read
    /// by that game's rules).
    board: Option<SetupBoard>,
    serial: u64,
    /// The palette's piece (a FEN token), or the eraser (`None`), or selecting (`select`).
    palette: Option<String>,
    select: bool,
    /// The square selected for its piece's facts.
    selected: Option<(u8, u8)>,
    /// The FEN field's text, and whether it is being typed in.
    fen: String,
    typing: bool,
    /// The position's check, worked out again after each change.
    verdict: Result<(), String>,
    /// The computer's level for "Play against the computer".
    level: u8,
}

impl Default for SetupScreen {
    fn default() -> SetupScreen {
        SetupScreen {
            board: None,
            serial: 0,
            palette: None,
            select: false,
            selected: None,
            fen: String::new(),
            typing: false,
            verdict: Ok(()),
            level: 3,
        }
    }
}

impl SetupScreen {
    /// After a change: the FEN field and the check again.
    fn changed(&mut self) {
        if let Some(b) = &self.board {
            if !self.typing {
                self.fen = b.fen();
            }
            self.verdict = b.check().map(|_| ());
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SetupScreen>();
    app.add_systems(Update, open_setup);
    app.add_systems(bevy_egui::EguiPrimaryContextPass, setup_window.run_if(in_state(Screen::Game)));
}

/// Opens the window on the position on the board, for its variant and presets.
fn open_setup(world: &mut World) {
    if !std::mem::take(&mut world.resource_mut::<super::shared::SetUpRequested>().0) {
        return;
    }
    let setup = world.resource::<GameSetup>().clone();
    let presets: Vec<String> = setup.presets.iter().map(|a| a.id.to_string()).collect();
    let fen = world.fen();
    let board = super::shared::definition_for(world, &setup.variant_id, &presets).and_then(|(d, _)| SetupBoard::new(d, &fen));
    match board {
        Ok(board) => {
            let mut s = world.resource_mut::<SetupScreen>();
            s.board = Some(board);
            s.serial = setup.serial;
            s.selected = None;
            s.typing = false;
            s.changed();
        }
        Err(e) => world.resource_mut::<super::shared::Notice>().show(super::shared::Tone::Problem, format!("cannot set up — {e}"), 4.0),
    }
}

/// The window.
fn setup_window(
    mut contexts: EguiContexts,
    mut screen: ResMut<SetupScreen>,
    (textures, game): (Res<PieceTextures>, Res<GameSetup>),
    mut actions: MessageWriter<GameAction>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if screen.board.is_none() {
        return Ok(());
    }
    if screen.serial != game.serial {
        screen.board = None;
        return Ok(());
    }
    let mut open = true;
    let mut start: Option<([Option<u8>; 2], bool)> = None;
    egui::Window::new("Set up a position").open(&mut open).collapsible(false).resizable(false).default_pos([60.0, 40.0]).show(ctx, |ui| {
        let s = &mut *screen;
        let Some(board) = s.board.as_mut() else { return };
        let variant = board.definition().variant.clone();
        let mut changed = false;
        ui.label(egui::RichText::new(&variant.name).strong());
        // The palette: the variant's pieces, both sides, then the eraser and the selector.
        ui.horizontal_wrapped(|ui| {
            for side in [Side::White, Side::Black] {
                for kind in variant.registry.ids() {
                    let def = variant.registry.def(kind);
                    let token = if side == Side::White { def.letter.to_string() } else { def.letter.to_ascii_lowercase().to_string() };
                    let picked = !s.select && s.palette.as_deref() == Some(&token);
                    let r = icon(ui, &textures, &variant, &token, 30.0, picked);
                    if r.on_hover_text(format!("{}: {}", def.name, if side == Side::White { "White" } else { "Black" })).clicked() {
                        s.palette = Some(token);
                        s.select = false;
                    }
                }
                ui.end_row();
            }
            if ui.selectable_label(!s.select && s.palette.is_none(), "Eraser").clicked() {
                s.palette = None;
                s.select = false;
            }
            if ui.selectable_label(s.select, "Select").on_hover_text("Click a piece to set its facts (hit points)").clicked() {
                s.select = true;
            }
        });
        ui.horizontal(|ui| {
            if ui.button("Empty board").clicked() {
                board.clear();
                changed = true;
            }
            if ui.button("Start position").clicked() {
                changed |= board.set_fen(&variant.start_fen).is_ok();
            }
        });
        // The board, White at the bottom.
        let (files, ranks) = board.size();
        let cell = (400.0 / f32::from(files.max(ranks))).min(48.0);
        // Each piece's facts (hit points), written in its corner.
        let facts = board.piece_facts();
        let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * f32::from(files), cell * f32::from(ranks)), egui::Sense::hover());
        for rank in 0..ranks {
            for file in 0..files {
                let min = rect.min + egui::vec2(f32::from(file) * cell, f32::from(ranks - 1 - rank) * cell);
                let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
                let light = (file + rank) % 2 == 1;
                let colour = if light { egui::Color32::from_rgb(240, 217, 181) } else { egui::Color32::from_rgb(181, 136, 99) };
                ui.painter().rect_filled(square, 0.0, colour);
                if s.selected == Some((file, rank)) {
                    ui.painter().rect_stroke(
                        square,
                        0.0,
                        egui::Stroke::new(3.0, egui::Color32::from_rgb(40, 90, 230)),
                        egui::StrokeKind::Inside,
                    );
                }
                match board.at(file, rank) {
                    Some("*") => {
                        ui.painter().rect_filled(square, 0.0, egui::Color32::from_rgb(40, 34, 30));
                    }
                    Some(token) => {
                        paint(ui.painter(), &textures, &variant, token, square);
                        let name = board.square_name(file, rank);
                        let values: Vec<String> = facts.values().filter_map(|v| v.get(&name)).map(i32::to_string).collect();
                        if !values.is_empty() {
                            ui.painter().text(
                                square.right_bottom() - egui::vec2(2.0, 1.0),
                                egui::Align2::RIGHT_BOTTOM,
                                values.join("/"),
                                egui::FontId::proportional(cell * 0.3),
                                egui::Color32::from_rgb(200, 30, 30),
                            );
                        }
                    }
                    None => {}
                }
                let response = ui.interact(square, ui.id().with(("setup", file, rank)), egui::Sense::click());
                if response.clicked() {
                    if s.select {
                        s.selected = board.at(file, rank).is_some().then_some((file, rank));
                    } else {
                        board.set(file, rank, s.palette.as_deref());
                        s.selected = None;
                        changed = true;
                    }
                } else if response.secondary_clicked() {
                    board.set(file, rank, None);
                    changed = true;
                }
            }
        }
        ui.label(egui::RichText::new("Click to place the palette's piece; right-click to remove one").weak().small());
        // The selected piece's facts.
        if let Some((file, rank)) = s.selected {
            for name in board.fact_names() {
                if let Some(mut v) = board.fact(&name, file, rank) {
                    ui.horizontal(|ui| {
                        ui.label(format!("{name} of the piece selected"));
                        if ui.add(egui::DragValue::new(&mut v).range(0..=99)).changed() {
                            board.set_fact(&name, file, rank, v);
                            changed = true;
                        }
                    });
                }
            }
        }
        // Pockets: how many of each piece each side has in hand.
        if board.has_hands() {
            ui.label("Pieces in hand");
            for side in [Side::White, Side::Black] {
                ui.horizontal_wrapped(|ui| {
                    for kind in variant.registry.ids() {
                        let def = variant.registry.def(kind);
                        if def.royal {
                            continue;
                        }
                        let letter = if side == Side::White { def.letter } else { def.letter.to_ascii_lowercase() };
                        icon(ui, &textures, &variant, &letter.to_string(), 22.0, false);
                        let mut n = board.in_hand(letter);
                        if ui.add(egui::DragValue::new(&mut n).range(0..=16)).changed() {
                            board.set_in_hand(letter, n);
                            changed = true;
                        }
                    }
                });
            }
        }
        // Side to move, rights and counters.
        ui.horizontal(|ui| {
            let mut turn = board.turn();
            ui.label("To move");
            let a = ui.radio_value(&mut turn, Side::White, "White").changed();
            let b = ui.radio_value(&mut turn, Side::Black, "Black").changed();
            if a || b {
                board.set_turn(turn);
                changed = true;
            }
        });
        egui::Grid::new("setup-fields").num_columns(4).show(ui, |ui| {
            for (i, label, hint) in [(1, "Castling", "KQkq, or - for none"), (2, "En passant", "the square passed, or -")] {
                ui.label(label);
                let mut text = board.field(i).to_string();
                if ui.add(egui::TextEdit::singleline(&mut text).desired_width(80.0)).on_hover_text(hint).changed() {
                    board.set_field(i, &text);
                    changed = true;
                }
            }
            ui.end_row();
            for (i, label) in [(3, "Half-moves"), (4, "Move")] {
                ui.label(label);
                let mut n: u32 = board.field(i).parse().unwrap_or(if i == 4 { 1 } else { 0 });
                if ui.add(egui::DragValue::new(&mut n).range(if i == 4 { 1..=999 } else { 0..=999 })).changed() {
                    board.set_field(i, &n.to_string());
                    changed = true;
                }
            }
            ui.end_row();
        });
        let mut extra = board.extra_fields();
        ui.horizontal(|ui| {
            ui.label("Other fields");
            if ui
                .add(egui::TextEdit::singleline(&mut extra).desired_width(160.0))
                .on_hover_text("A variant's own: check counts (3+3)")
                .changed()
            {
                board.set_extra_fields(&extra);
                changed = true;
            }
        });
        // The FEN, typed or pasted in place of the position.
        ui.horizontal(|ui| {
            ui.label("FEN");
            let field = ui.add(egui::TextEdit::singleline(&mut s.fen).desired_width(420.0).font(egui::TextStyle::Monospace));
            s.typing = field.has_focus();
            if field.lost_focus() {
                match board.set_fen(&s.fen) {
                    Ok(()) => changed = true,
                    Err(e) => s.verdict = Err(e),
                }
            }
        });
        if changed {
            s.changed();
        }
        match &s.verdict {
            Ok(()) => ui.colored_label(egui::Color32::from_rgb(120, 200, 120), "A legal position"),
            Err(e) => ui.colored_label(egui::Color32::from_rgb(230, 110, 80), e),
        };
        ui.separator();
        ui.add_enabled_ui(s.verdict.is_ok(), |ui| {
            ui.horizontal(|ui| {
                if ui.button("Analyse").clicked() {
                    start = Some(([None, None], true));
                }
                if ui.button("Play (two players)").clicked() {
                    start = Some(([None, None], false));
                }
                ui.separator();
                ui.add(egui::Slider::new(&mut s.level, 1..=crate::ai::MAX_LEVEL).text("level"));
                if ui.button("Play White").on_hover_text("You play White against the computer").clicked() {
                    start = Some(([None, Some(s.level)], false));
                }
                if ui.button("Play Black").on_hover_text("You play Black against the computer").clicked() {
                    start = Some(([Some(s.level), None], false));
                }
            });
        });
    });
    if let (Some((computer, analyse)), Some(board)) = (start, screen.board.as_ref()) {
        actions.write(GameAction::Position { fen: board.fen(), computer, analyse });
        screen.board = None;
    }
    if !open {
        screen.board = None;
    }
    Ok(())
}

/// The picture of a piece (a FEN token) in `rect`: its texture, or its letter on a disc.
fn paint(painter: &egui::Painter, textures: &PieceTextures, variant: &crate::rules::Variant, token: &str, rect: egui::Rect) {
    let Some(letter) = token.chars().find(char::is_ascii_alphabetic) else { return };
    let side = if letter.is_ascii_uppercase() { Side::White } else { Side::Black };
    let Some(kind) = variant.registry.by_letter(letter) else {
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            token,
            egui::FontId::proportional(rect.height() * 0.5),
            egui::Color32::RED,
        );
        return;
    };
    let def = variant.registry.def(kind);
    super::pictures::paint_piece_picture(painter, textures.of(def, side), def.letter, side, rect);
}

/// A piece's picture as a button of the palette, outlined when picked.
fn icon(
    ui: &mut egui::Ui,
    textures: &PieceTextures,
    variant: &crate::rules::Variant,
    token: &str,
    size: f32,
    picked: bool,
) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::click());
    ui.painter().rect_filled(rect, 3.0, egui::Color32::from_rgb(240, 217, 181));
    paint(ui.painter(), textures, variant, token, rect);
    if picked {
        ui.painter().rect_stroke(rect, 3.0, egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 90, 230)), egui::StrokeKind::Outside);
    }
    response
}
