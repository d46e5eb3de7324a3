//! The picture picker: a window over the editor with a piece's pictures for both sides, its own
//! pictures imported from PNG or SVG files (through the in-game file browser), and every
//! picture Chimera has, as a grid of large previews with plain names, found by typing a name
//! (the plain name, or the name of any catalogue piece drawn with it: "centaur", "amazon").

use super::*;

/// The picker's state while it is open.
#[derive(Clone, Debug, Default)]
pub(super) struct Picker {
    /// The piece whose picture is chosen.
    pub(super) letter: char,
    /// The search field.
    pub(super) filter: String,
    /// What the last import said, in its colour (what of the picture is not drawn, say).
    pub(super) message: Option<(egui::Color32, String)>,
}

/// The side of a tile in the grid.
const TILE: f32 = 84.0;
/// The picker's width: five tiles and their spacing.
const WIDTH: f32 = 5.0 * (TILE + 8.0) + 16.0;

/// Every picture Chimera has, with its plain name and the words it is found by.
fn library() -> &'static [(&'static str, String, String)] {
    static LIBRARY: std::sync::OnceLock<Vec<(&'static str, String, String)>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(|| {
        let catalogue: Vec<PieceSpec> = crate::variants::catalogue().flat_map(|(_, f)| f.pieces.unwrap_or_default()).collect();
        super::super::pieces::image_names()
            .map(|name| {
                let mut words: Vec<String> = catalogue
                    .iter()
                    .filter(|s| super::super::pieces::image_for(&s.name, &s.betza, s.glyph.as_deref()) == Some(name))
                    .map(|s| s.name.clone())
                    .collect();
                words.sort();
                words.dedup();
                (name, super::super::pieces::plain_name(name), words.join(", "))
            })
            .collect()
    })
}

/// The picture picker for the piece `picker.letter`, and its import buttons (which open the
/// file browser for PNG and SVG files).
pub(super) fn picture_picker(mut contexts: EguiContexts, mut screen: ResMut<EditorScreen>, textures: Res<PieceTextures>) -> Result {
    let screen = &mut *screen;
    let (Some(mut picker), Some(editor)) = (screen.picker.clone(), screen.editor.as_mut()) else { return Ok(()) };
    let Some(spec) = editor.file().pieces.iter().flatten().find(|p| p.letter == picker.letter).cloned() else {
        screen.picker = None;
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let mut open = true;
    let mut browse: Option<Option<Side>> = None;
    egui::Window::new(format!("Picture of the {}", spec.name))
        .id(egui::Id::new("picture picker"))
        .order(egui::Order::Middle)
        .collapsible(false)
        .resizable(false)
        .fixed_size([WIDTH, 560.0])
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .open(&mut open)
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                piece_icon(ui, &textures, &spec, Side::White, 72.0, egui::Sense::hover());
                piece_icon(ui, &textures, &spec, Side::Black, 72.0, egui::Sense::hover());
                ui.vertical(|ui| {
                    let own = spec.picture.as_ref();
                    let said = match own.map(|p| (p.white.is_some(), p.black.is_some())) {
                        Some((true, true)) => "Its own pictures, one for each side.",
                        Some((true, false)) => "Its own picture; Black's is the same made dark (its dark lines light).",
                        Some((false, true)) => {
                            "Its own picture for Black; White's is the same recoloured (its light parts dark, its dark lines light)."
                        }
                        _ => match &spec.glyph {
                            Some(_) => "A picture from Chimera's own, chosen below.",
                            None => "Drawn by its name and moves; choose another below, or import your own.",
                        },
                    };
                    // Two lines kept for it, so that the buttons below stay where they are.
                    let at_left = egui::Layout::top_down(egui::Align::Min);
                    ui.allocate_ui_with_layout(egui::vec2(WIDTH - 180.0, 32.0), at_left, |ui| {
                        ui.set_min_height(32.0);
                        ui.label(said);
                    });
                    ui.horizontal(|ui| {
                        if ui
                            .button("Import a picture…")
                            .on_hover_text("A PNG or SVG file, used for White and recoloured for Black")
                            .clicked()
                        {
                            browse = Some(None);
                        }
                        if ui.button("for White…").on_hover_text("A PNG or SVG file for White's piece only").clicked() {
                            browse = Some(Some(Side::White));
                        }
                        if ui.button("for Black…").on_hover_text("A PNG or SVG file for Black's piece only").clicked() {
                            browse = Some(Some(Side::Black));
                        }
                    });
                    ui.add_enabled_ui(own.is_some(), |ui| {
                        if ui.button("Remove its own pictures").clicked() {
                            editor.clear_picture(spec.letter, None);
                            picker.message = None;
                        }
                    });
                });
            });
            ui.label(
                egui::RichText::new(format!(
                    "PNG up to {0}×{0} pixels or SVG, at most {1} KiB. Text inside an SVG is not drawn; an SVG that refers to \
                     other files is refused. Save keeps the files beside the variant.",
                    crate::variants::pictures::MAX_PNG_SIDE,
                    crate::variants::pictures::MAX_FILE_BYTES / 1024
                ))
                .small()
                .weak(),
            );
            // One line, always there: the window does not move when a message comes or goes.
            let (colour, text) = picker.message.clone().unwrap_or((ui.visuals().weak_text_color(), String::new()));
            ui.add_sized([WIDTH, 18.0], egui::Label::new(egui::RichText::new(text).color(colour)).truncate());
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Find");
                ui.add(egui::TextEdit::singleline(&mut picker.filter).hint_text("a name: knight, centaur, cannon…").desired_width(260.0));
            });
            let needle = picker.filter.trim().to_lowercase();
            egui::ScrollArea::vertical().max_height(380.0).auto_shrink([false, false]).show(ui, |ui| {
                egui::Grid::new("pictures").spacing([8.0, 8.0]).show(ui, |ui| {
                    let mut column = 0;
                    let mut tile = |ui: &mut egui::Ui, shown: PieceSpec, label: &str, hover: &str, picked: bool| -> bool {
                        let clicked = ui
                            .vertical(|ui| {
                                ui.set_width(TILE);
                                let r = piece_icon(ui, &textures, &shown, Side::White, TILE, egui::Sense::click());
                                if picked {
                                    ui.painter().rect_stroke(
                                        r.rect,
                                        3.0,
                                        egui::Stroke::new(3.0, egui::Color32::from_rgb(90, 170, 90)),
                                        egui::StrokeKind::Inside,
                                    );
                                }
                                ui.add(egui::Label::new(egui::RichText::new(label).small()).wrap());
                                let r = if hover.is_empty() { r } else { r.on_hover_text(hover) };
                                r.clicked()
                            })
                            .inner;
                        column += 1;
                        if column == 5 {
                            column = 0;
                            ui.end_row();
                        }
                        clicked
                    };
                    let auto = PieceSpec { glyph: None, picture: None, ..spec.clone() };
                    if needle.is_empty()
                        && tile(ui, auto, "by its name", "Chosen by its name and moves", spec.glyph.is_none() && spec.picture.is_none())
                    {
                        let _ = editor.apply(&Edit::Piece(PieceSpec { glyph: None, picture: None, ..spec.clone() }));
                    }
                    for (name, plain, words) in library() {
                        let by_name = plain.to_lowercase().contains(&needle) || name.contains(&needle);
                        // Found by a piece drawn with it: that piece is named under it.
                        let by_piece = (!by_name).then(|| words.split(", ").find(|w| w.contains(&needle))).flatten();
                        if !needle.is_empty() && !by_name && by_piece.is_none() {
                            continue;
                        }
                        let label = match by_piece {
                            Some(piece) => format!("{plain} ({piece})"),
                            None => plain.clone(),
                        };
                        let shown = PieceSpec { glyph: Some(name.to_string()), picture: None, ..spec.clone() };
                        let hover = if words.is_empty() { String::new() } else { format!("As drawn for: {words}") };
                        let picked = spec.picture.is_none() && spec.glyph.as_deref() == Some(name);
                        if tile(ui, shown.clone(), &label, &hover, picked) {
                            let _ = editor.apply(&Edit::Piece(shown));
                        }
                    }
                });
            });
            ui.horizontal(|ui| {
                if ui.button("Done").clicked() {
                    picker.letter = '\0';
                }
            });
        });
    if let Some(side) = browse {
        let dir = screen.picture_dir.clone().unwrap_or_else(browse_start);
        screen.browser = Some(Browser {
            purpose: BrowseFor::Picture(picker.letter, side),
            dir,
            name: String::new(),
            error: None,
            confirm: None,
            ini: None,
        });
    }
    if browse.is_some() {
        // The browser says how the import went, in the picker.
        picker.message = None;
    }
    screen.picker = (open && picker.letter != '\0').then_some(picker);
    Ok(())
}
