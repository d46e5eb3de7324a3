//! The editor's Board section: the size, how the board is drawn, and named regions painted
//! square by square with clicks and drags.

use super::*;

/// The board section's own state, borrowed from the screen.
pub(super) struct BoardState<'a> {
    pub(super) size: &'a mut Option<(u8, u8)>,
    /// Where a refused edit says why.
    pub(super) notice: &'a mut Option<String>,
    pub(super) region: &'a mut Option<String>,
    pub(super) region_name: &'a mut String,
    /// Came to paint a region the Rules section asked for: a button goes back there.
    /// The section a region was made for, to go back to once it is painted.
    pub(super) back_to: &'a mut Option<Section>,
}

/// A region's definition in words.
pub(super) fn region_words(spec: &RegionSpec, squares: usize) -> String {
    match spec {
        RegionSpec::Rect(a, b) => format!("the rectangle {a}–{b} ({squares} squares)"),
        RegionSpec::Squares(_) => format!("{squares} squares"),
        RegionSpec::Union(names) => format!("all of {} ({squares} squares)", names.join(", ")),
        RegionSpec::Intersection(names) => format!("where {} meet ({squares} squares)", names.join(", ")),
        RegionSpec::PerSide { white, black } => format!("white's '{white}', black's '{black}'"),
    }
}

pub(super) fn board_section(ui: &mut egui::Ui, editor: &mut Editor, st: BoardState, textures: &PieceTextures, problems: &[Problem]) {
    let now = editor.board_size();
    let (files, ranks) = st.size.get_or_insert(now);
    ui.horizontal(|ui| {
        ui.label("Files");
        ui.add(egui::DragValue::new(files).clamp_existing_to_range(false).range(3..=16));
        ui.label("Ranks");
        ui.add(egui::DragValue::new(ranks).clamp_existing_to_range(false).range(3..=16));
        if ui.add_enabled((*files, *ranks) != now, egui::Button::new("Apply")).clicked()
            && let Err(e) = editor.apply(&Edit::Board { files: *files, ranks: *ranks })
        {
            *st.notice = Some(e);
        }
        ui.label("(the start keeps what still fits: white's ranks from the bottom, black's from the top)");
    });
    let board = editor.file().board.clone();
    let mut intersections = board.as_ref().is_some_and(|b| b.style == crate::variants::BoardStyle::Intersections);
    let mut river = board.as_ref().and_then(|b| b.river);
    ui.horizontal(|ui| {
        let mut changed = ui.checkbox(&mut intersections, "pieces on the points (Xiangqi)").changed();
        let mut has_river = river.is_some();
        changed |= ui.checkbox(&mut has_river, "a river after rank").changed();
        let mut r = river.unwrap_or(now.1 / 2);
        if has_river {
            changed |=
                ui.add(egui::DragValue::new(&mut r).clamp_existing_to_range(false).range(1..=now.1.saturating_sub(1).max(1))).changed();
        }
        river = has_river.then_some(r);
        if changed {
            let _ = editor.apply_merged(&Edit::BoardLook { intersections, river }, "board-look");
        }
    });
    field_problems(ui, problems, "board");
    ui.separator();
    // The regions: a list to pick from, and the board to paint the one picked.
    let regions = editor.file().regions.clone().unwrap_or_default();
    if st.region.as_ref().is_some_and(|r| !regions.contains_key(r)) {
        *st.region = None;
    }
    ui.horizontal_top(|ui| {
        ui.vertical(|ui| {
            ui.set_width(330.0);
            if let Some(section) = *st.back_to {
                let name = st.region.clone().unwrap_or_default();
                ui.label(format!("Paint the squares of '{name}' on the board, then:"));
                if ui.button(format!("Done: back to {}", section.title())).clicked() {
                    *st.back_to = None;
                }
            }
            ui.label(egui::RichText::new("Regions").strong());
            ui.label(egui::RichText::new("Named sets of squares: promotion zones, palaces, hills, drop zones. Pick one and paint it on the board: a click or a drag adds squares, starting on one of its squares takes them out. Blue: the region for both sides; white or black: for that side only.").small());
            for (name, spec) in &regions {
                let squares = editor.region_squares(name)[0].len();
                let uses = crate::editor::region_uses(editor.file(), name);
                let used = if uses.is_empty() { "not used yet".to_string() } else { format!("used by {}", uses.join(", ")) };
                let text = format!("{name}: {}", region_words(spec, squares));
                if ui.selectable_label(st.region.as_deref() == Some(name), text).on_hover_text(used).clicked() {
                    *st.region = Some(name.clone());
                    st.region_name.clone_from(name);
                }
                field_problems(ui, problems, &format!("regions.{name}"));
            }
            ui.horizontal(|ui| {
                ui.add(egui::TextEdit::singleline(st.region_name).hint_text("name").desired_width(120.0));
                let name = st.region_name.trim().to_string();
                let free = !name.is_empty() && !regions.contains_key(&name);
                if ui.add_enabled(free, egui::Button::new("New")).clicked() {
                    match editor.apply(&Edit::Region { name: name.clone(), spec: Some(RegionSpec::Squares(Vec::new())) }) {
                        Ok(_) => *st.region = Some(name.clone()),
                        Err(e) => *st.notice = Some(e),
                    }
                }
                if let Some(picked) = st.region.clone() {
                    if ui.add_enabled(free, egui::Button::new("Rename")).clicked()
                        && editor.apply(&Edit::RenameRegion { from: picked.clone(), to: name.clone() }).is_ok()
                    {
                        *st.region = Some(name.clone());
                    }
                    let uses = crate::editor::region_uses(editor.file(), &picked);
                    if ui
                        .add_enabled(uses.is_empty(), egui::Button::new("Remove"))
                        .on_disabled_hover_text(format!("used by {}", uses.join(", ")))
                        .clicked()
                        && editor.apply(&Edit::Region { name: picked.clone(), spec: None }).is_ok()
                    {
                        *st.region = None;
                    }
                }
            });
            if let Some(picked) = st.region.clone() {
                match regions.get(&picked) {
                    Some(RegionSpec::PerSide { white, black }) => {
                        ui.horizontal(|ui| {
                            ui.label("For each side: paint");
                            for r in [white, black] {
                                if ui.button(r).clicked() {
                                    *st.region = Some(r.clone());
                                    st.region_name.clone_from(r);
                                }
                            }
                        });
                    }
                    Some(_)
                        if ui
                            .button("One for each side")
                            .on_hover_text(format!("{picked}-white as it is, {picked}-black its mirror; '{picked}' names the two"))
                            .clicked() =>
                    {
                        let _ = editor.apply(&Edit::RegionPerSide(picked.clone()));
                    }
                    _ => {}
                }
            }
        });
        ui.separator();
        region_board(ui, editor, &st, textures);
    });
}

/// The board with the picked region tinted (white's squares; black's too where they differ),
/// painted by clicks and drags: one edit per stroke.
pub(super) fn region_board(ui: &mut egui::Ui, editor: &mut Editor, st: &BoardState, textures: &PieceTextures) {
    let (files, ranks) = editor.board_size();
    let cell = (440.0 / files.max(ranks) as f32).min(44.0);
    let (response, at) = draw_squares(ui, files, ranks, cell, egui::Sense::click_and_drag());
    let rect = response.rect;
    let [white, black] = st.region.as_ref().map(|name| editor.region_squares(name)).unwrap_or_default();
    let grid = editor.start_grid().ok();
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    for rank in 0..ranks {
        for file in 0..files {
            let square = square_rect(rect, ranks, cell, file, rank);
            let (w, b) = (white.contains(&(file, rank)), black.contains(&(file, rank)));
            let tint = match (w, b) {
                (true, true) => Some(egui::Color32::from_rgba_unmultiplied(30, 110, 255, 160)),
                (true, false) => Some(egui::Color32::from_rgba_unmultiplied(255, 255, 255, 190)),
                (false, true) => Some(egui::Color32::from_rgba_unmultiplied(20, 20, 20, 170)),
                (false, false) => None,
            };
            if let Some(t) = tint {
                ui.painter().rect_filled(square.shrink(1.0), 2.0, t);
            }
            if let Some(token) = grid.as_ref().and_then(|g| g.at(file, rank))
                && let Some(spec) = spec_of(&pieces, token)
            {
                let side = crate::editor::start::side_of(token).unwrap_or(Side::White);
                paint_piece(ui.painter(), textures, spec, side, square.shrink(cell * 0.12));
            }
        }
    }
    let Some(name) = st.region.clone() else {
        let shadow = egui::Rect::from_center_size(rect.center(), egui::vec2(220.0, 34.0));
        ui.painter().rect_filled(shadow, 6.0, egui::Color32::from_black_alpha(170));
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "pick or make a region",
            egui::FontId::proportional(18.0),
            egui::Color32::WHITE,
        );
        return;
    };
    // A stroke: the first square decides whether it adds or takes out.
    let per_side = matches!(editor.file().regions.as_ref().and_then(|r| r.get(&name)), Some(RegionSpec::PerSide { .. }));
    if per_side {
        return;
    }
    let stroke = ui.ctx().data_mut(|d| d.get_temp::<(bool, Vec<(u8, u8)>)>(response.id));
    let pointer = ui.ctx().pointer_interact_pos();
    let origin = ui.input(|i| i.pointer.press_origin()).or(pointer);
    let mut stroke = stroke.or_else(|| {
        let first = origin.and_then(&at)?;
        (response.drag_started() || response.clicked()).then(|| (!white.contains(&first), vec![first]))
    });
    if let Some((_, squares)) = &mut stroke
        && response.dragged()
        && let Some(sq) = pointer.and_then(&at)
        && !squares.contains(&sq)
    {
        squares.push(sq);
    }
    if let Some((on, squares)) = &stroke {
        for &(file, rank) in squares {
            let colour = if *on { egui::Color32::from_rgb(60, 140, 230) } else { egui::Color32::from_rgb(200, 60, 50) };
            ui.painter().rect_stroke(
                square_rect(rect, ranks, cell, file, rank).shrink(2.0),
                2.0,
                egui::Stroke::new(2.0, colour),
                egui::StrokeKind::Inside,
            );
        }
    }
    if response.drag_stopped() || response.clicked() {
        if let Some((on, squares)) = stroke.take() {
            let _ = editor.apply(&Edit::PaintRegion { name, squares, on });
        }
        ui.ctx().data_mut(|d| d.remove::<(bool, Vec<(u8, u8)>)>(response.id));
    } else if let Some(s) = stroke {
        ui.ctx().data_mut(|d| d.insert_temp(response.id, s));
    }
}
