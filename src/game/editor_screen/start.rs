//! The editor's Start position section: the palette, the board painted by clicks and drags,
//! the pockets, copying a catalogue start, the shuffle, and the FEN field.

use super::*;
use crate::editor::start::Spot;

/// The catalogue's starts for a board size, worked out once per size.
pub(super) fn catalogue_starts(files: u8, ranks: u8) -> Vec<(String, String, String)> {
    type Starts = std::collections::BTreeMap<(u8, u8), Vec<(String, String, String)>>;
    static STARTS: std::sync::OnceLock<std::sync::Mutex<Starts>> = std::sync::OnceLock::new();
    let mut starts = STARTS.get_or_init(Default::default).lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    starts.entry((files, ranks)).or_insert_with(|| crate::editor::catalogue_starts(files, ranks)).clone()
}

/// What is dragged in the start position: a piece (its FEN token) from the palette, a square
/// or a pocket.
#[derive(Clone, Debug)]
pub(super) struct StartDrag {
    pub(super) token: String,
    pub(super) from: Spot,
}

pub(super) type FenField<'a> = (&'a mut String, &'a mut Option<String>, &'a mut bool);

pub(super) fn start_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    palette: &mut Option<String>,
    (fen, fen_error, editing): FenField,
    textures: &PieceTextures,
    problems: &[Problem],
) {
    let Ok(grid) = editor.start_grid() else {
        ui.label("The start position does not fit the board: edit the FEN below.");
        fen_field(ui, editor, fen, fen_error, editing);
        field_problems(ui, problems, "start");
        return;
    };
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    ui.horizontal_wrapped(|ui| {
        ui.label("Palette (click, then click squares; or drag):");
        for p in &pieces {
            for (token, side) in [(p.letter.to_string(), Side::White), (p.letter.to_ascii_lowercase().to_string(), Side::Black)] {
                let picked = palette.as_deref() == Some(&token);
                let drag = StartDrag { token: token.clone(), from: Spot::Palette };
                // A click picks it; a drag carries it (drawn at the pointer below).
                let r = piece_icon(ui, textures, p, side, 30.0, egui::Sense::click_and_drag());
                if picked {
                    let stroke = egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 90, 230));
                    ui.painter().rect_stroke(r.rect, 3.0, stroke, egui::StrokeKind::Outside);
                }
                if r.drag_started() {
                    r.dnd_set_drag_payload(drag);
                }
                if r.on_hover_text(format!("{token}: {}", p.name)).clicked() {
                    *palette = Some(token);
                }
            }
        }
        if ui.selectable_label(palette.is_none(), "eraser").clicked() {
            *palette = None;
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut editor.mirror, "mirror for black");
        if ui.button("Mirror white now").clicked() {
            let mut g = grid.clone();
            g.mirror_white();
            let _ = editor.apply(&Edit::Start(g.fen()));
        }
        if ui.button("Empty board").clicked() {
            let mut g = grid.clone();
            g.clear();
            let _ = editor.apply(&Edit::Start(g.fen()));
        }
        if ui
            .button("Shuffle white's first rank")
            .on_hover_text("As Chess960 does: bishops on both colours, the king between the rooks; black mirrored")
            .clicked()
            && let Err(e) = editor.shuffle_start(&mut |n| rand::random_range(0..n))
        {
            *fen_error = Some(e);
        }
        let (files, ranks) = editor.board_size();
        let starts = catalogue_starts(files, ranks);
        egui::ComboBox::from_id_salt("copy-start").selected_text("Copy the start of…").show_ui(ui, |ui| {
            if starts.is_empty() {
                ui.label(format!("no built-in variant has a {files} × {ranks} board"));
            }
            for (_, name, start) in &starts {
                if ui.selectable_label(false, name).clicked() {
                    let _ = editor.apply(&Edit::Start(start.clone()));
                }
            }
        });
        let mut shuffled = matches!(editor.file().shuffle, Some(crate::variants::ShuffleSpec::Shuffled(_)));
        if ui.checkbox(&mut shuffled, "every game shuffles it (Chess960)").changed() {
            let spec = shuffled.then_some(crate::variants::ShuffleSpec::Shuffled(crate::rules::Shuffle::Chess960));
            let _ = editor.apply(&Edit::Shuffle(spec));
        }
    });
    field_problems(ui, problems, "shuffle");
    let (files, ranks) = editor.board_size();
    let cell = (420.0 / files.max(ranks) as f32).min(48.0);
    let (board, at) = draw_squares(ui, files, ranks, cell, egui::Sense::hover());
    let board_rect = board.rect;
    for rank in 0..ranks {
        for file in 0..files {
            let square = square_rect(board_rect, ranks, cell, file, rank);
            let id = ui.id().with(("start", file, rank));
            let response = ui.interact(square, id, egui::Sense::click_and_drag());
            if grid.at(file, rank) == Some("*") {
                // A wall of the board (or the duck): not a piece to place or carry.
                ui.painter().rect_filled(square, 0.0, egui::Color32::from_rgb(40, 34, 30));
            } else if let Some(token) = grid.at(file, rank) {
                let side = crate::editor::start::side_of(token).unwrap_or(Side::White);
                let dragged = egui::DragAndDrop::payload::<StartDrag>(ui.ctx()).is_some_and(|d| d.from == Spot::Square(file, rank));
                if !dragged {
                    match spec_of(&pieces, token) {
                        Some(spec) => paint_piece(ui.painter(), textures, spec, side, square),
                        None => {
                            ui.painter().text(
                                square.center(),
                                egui::Align2::CENTER_CENTER,
                                token,
                                egui::FontId::proportional(cell * 0.5),
                                ERROR,
                            );
                        }
                    }
                }
                if response.drag_started() {
                    response.dnd_set_drag_payload(StartDrag { token: token.to_string(), from: Spot::Square(file, rank) });
                }
            }
            if response.dnd_hover_payload::<StartDrag>().is_some() {
                ui.painter().rect_stroke(
                    square,
                    0.0,
                    egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 90, 230)),
                    egui::StrokeKind::Inside,
                );
            }
            if let Some(drag) = response.dnd_release_payload::<StartDrag>() {
                carry(editor, &grid, &drag, Some(Spot::Square(file, rank)));
            } else if response.clicked() {
                let mirror = editor.mirror;
                let _ = editor.apply(&Edit::Place { file, rank, piece: palette.clone(), mirror });
            }
        }
    }
    pockets_row(ui, editor, &grid, &pieces, textures);
    // A piece dragged follows the pointer; one let go where nothing takes it
    // (off the board and the pockets) leaves the board, or the pocket it came from.
    if let Some(drag) = egui::DragAndDrop::payload::<StartDrag>(ui.ctx())
        && let Some(pos) = ui.ctx().pointer_interact_pos()
    {
        if let Some(spec) = spec_of(&pieces, &drag.token) {
            let side = crate::editor::start::side_of(&drag.token).unwrap_or(Side::White);
            let layer = ui.ctx().layer_painter(egui::LayerId::new(egui::Order::Tooltip, egui::Id::new("start-drag")));
            paint_piece(&layer, textures, spec, side, egui::Rect::from_center_size(pos, egui::vec2(cell, cell)));
        }
        if ui.input(|i| i.pointer.any_released()) && at(pos).is_none() {
            carry(editor, &grid, &drag, None);
        }
    }
    fen_field(ui, editor, fen, fen_error, editing);
    field_problems(ui, problems, "start");
}

/// A piece dragged onto a square, into the pockets, or off the board (`None`): carried as the
/// start grid carries it ([`crate::editor::start::StartGrid::carry`]), one edit.
pub(super) fn carry(editor: &mut Editor, grid: &crate::editor::start::StartGrid, drag: &StartDrag, to: Option<Spot>) {
    let mut g = grid.clone();
    g.carry(&drag.token, drag.from, to, editor.mirror);
    let _ = editor.apply(&Edit::Start(g.fen()));
}

/// The pockets: each side's pieces in hand (a click takes one out; dragging one onto the board
/// drops it there), and a drop zone to put pieces in.
pub(super) fn pockets_row(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    grid: &crate::editor::start::StartGrid,
    pieces: &[PieceSpec],
    textures: &PieceTextures,
) {
    let in_hand = grid.pocket_pieces();
    let has_hands = grid.pockets().is_some() || editor.file().drops.is_some();
    if !has_hands {
        ui.label(egui::RichText::new("No pockets: switch on Hands and drops in the Rules section for pieces in hand.").small());
        return;
    }
    let (_, dropped) = ui.dnd_drop_zone::<StartDrag, _>(egui::Frame::group(ui.style()), |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.label("Pockets (drag a piece here to put it in hand; click one to take it out):");
            for &c in &in_hand {
                let Some(spec) = spec_of(pieces, &c.to_string()) else { continue };
                let side = if c.is_ascii_uppercase() { Side::White } else { Side::Black };
                let drag = StartDrag { token: c.to_string(), from: Spot::Pocket };
                let r = piece_icon(ui, textures, spec, side, 26.0, egui::Sense::click_and_drag());
                if r.drag_started() {
                    r.dnd_set_drag_payload(drag);
                }
                if r.clicked() {
                    let _ = editor.apply(&Edit::Pocket { letter: c, on: false });
                }
            }
            if in_hand.is_empty() {
                ui.label(egui::RichText::new("empty").weak());
            }
        });
    });
    if let Some(drag) = dropped {
        carry(editor, grid, &drag, Some(Spot::Pocket));
    }
}

/// The FEN field: applied when it loses the keyboard (Enter, or a click elsewhere): one edit,
/// not one per keystroke.
pub(super) fn fen_field(ui: &mut egui::Ui, editor: &mut Editor, fen: &mut String, fen_error: &mut Option<String>, editing: &mut bool) {
    ui.horizontal(|ui| {
        ui.label("FEN");
        let field = ui.add(egui::TextEdit::singleline(fen).desired_width(600.0).font(egui::TextStyle::Monospace));
        *editing = field.has_focus();
        if field.lost_focus() {
            match editor.apply(&Edit::Start(fen.clone())) {
                Ok(_) => *fen_error = None,
                Err(e) => *fen_error = Some(e),
            }
        }
    });
    if let Some(e) = fen_error.as_ref() {
        ui.colored_label(ERROR, e);
    }
}
