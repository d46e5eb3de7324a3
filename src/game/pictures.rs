//! Pictures of a variant that the start screen, the game's panel and the editor share: its
//! start position drawn small, a piece type's moves on a small grid, and its rules and pieces in
//! words.

use bevy_egui::egui;

use super::pieces::PieceTextures;
use crate::rules::{PieceTypeDef, Side, Variant, diagram, parse_fen};

/// A piece's picture in `rect`: its texture, or without one a disc of its side's colour with
/// its letter (the editor's palette and board, the set-up board).
pub fn paint_piece_picture(painter: &egui::Painter, texture: Option<egui::TextureId>, letter: char, side: Side, rect: egui::Rect) {
    match texture {
        Some(tex) => {
            painter.image(tex, rect, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
        }
        None => {
            let (disc, ink) = if side == Side::White {
                (egui::Color32::WHITE, egui::Color32::BLACK)
            } else {
                (egui::Color32::from_gray(30), egui::Color32::WHITE)
            };
            painter.circle_filled(rect.center(), rect.width() * 0.4, disc);
            painter.circle_stroke(rect.center(), rect.width() * 0.4, egui::Stroke::new(1.0, egui::Color32::from_gray(90)));
            painter.text(rect.center(), egui::Align2::CENTER_CENTER, letter, egui::FontId::proportional(rect.width() * 0.5), ink);
        }
    }
}

/// Draws `variant`'s start position `size` points wide.
pub fn board_preview(ui: &mut egui::Ui, variant: &Variant, textures: &PieceTextures, size: f32) {
    let g = variant.geometry;
    let cell = size / g.files.max(g.ranks) as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * g.files as f32, cell * g.ranks as f32), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let light = egui::Color32::from_rgb(240, 217, 181);
    let dark = egui::Color32::from_rgb(181, 136, 99);
    let setup = parse_fen(variant, &variant.start_fen).ok();
    for sq in g.squares() {
        let (f, r) = (g.file(sq) as f32, g.rank(sq) as f32);
        let min = rect.min + egui::vec2(f * cell, (g.ranks as f32 - 1.0 - r) * cell);
        let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
        painter.rect_filled(square, 0.0, if (g.file(sq) + g.rank(sq)).is_multiple_of(2) { dark } else { light });
        let Some(setup) = &setup else { continue };
        if let Some(&(_, kind, side)) = setup.pieces.iter().find(|(s, _, _)| *s == sq) {
            let def = variant.registry.def(kind);
            match textures.of(def, side) {
                Some(tex) => {
                    painter.image(tex, square, egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)), egui::Color32::WHITE);
                }
                None => {
                    let ink = if side == Side::White { egui::Color32::WHITE } else { egui::Color32::BLACK };
                    painter.text(square.center(), egui::Align2::CENTER_CENTER, def.letter, egui::FontId::proportional(cell * 0.7), ink);
                }
            }
        }
    }
}

/// A variant's rules and pieces in words: the paragraph made from its definition, then each
/// piece type with its picture, its name and its sentence (its move diagram on hover). Words
/// are worked out when drawn, which is cheap next to the drawing.
pub fn rules_in_words(ui: &mut egui::Ui, variant: &Variant, textures: &PieceTextures) {
    // Said once: a description that is these words already is not repeated.
    let words = crate::rules::describe_rules(variant);
    if words != variant.description {
        ui.label(words);
    }
    for def in &variant.registry.types {
        let texture = textures.of(def, Side::White);
        ui.horizontal_top(|ui| {
            match texture {
                Some(tex) => {
                    ui.image(egui::load::SizedTexture::new(tex, [24.0, 24.0]));
                }
                None => {
                    ui.add_sized([24.0, 24.0], egui::Label::new(def.letter.to_string()));
                }
            }
            let mut text = egui::text::LayoutJob::default();
            let strong = egui::TextFormat { color: ui.visuals().strong_text_color(), ..Default::default() };
            text.append(&def.name, 0.0, strong);
            let plain = egui::TextFormat { color: ui.visuals().text_color(), ..Default::default() };
            text.append(&format!(": {}", crate::rules::describe_piece(def)), 0.0, plain);
            ui.add(egui::Label::new(text).wrap()).on_hover_ui(|ui| move_diagram(ui, def, texture));
        });
    }
}

/// Draws a piece type's moves on a small grid: the piece in the middle, green dots where it
/// moves, red rings where it captures, blue where it moves by hopping.
pub fn move_diagram(ui: &mut egui::Ui, def: &PieceTypeDef, texture: Option<egui::TextureId>) {
    let mut d = diagram(&def.atoms, 9);
    d.mark_legs(&def.legs);
    let cell = 16.0;
    let n = d.size as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * n, cell * n), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    for (y, row) in d.rows.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            let min = rect.min + egui::vec2(x as f32 * cell, y as f32 * cell);
            let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
            let shade = if (x + y) % 2 == 0 { egui::Color32::from_rgb(240, 217, 181) } else { egui::Color32::from_rgb(181, 136, 99) };
            painter.rect_filled(square, 0.0, shade);
            let centre = square.center();
            if c.piece {
                match texture {
                    Some(tex) => {
                        painter.image(
                            tex,
                            square,
                            egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                            egui::Color32::WHITE,
                        );
                    }
                    None => {
                        painter.text(
                            centre,
                            egui::Align2::CENTER_CENTER,
                            def.letter,
                            egui::FontId::proportional(cell * 0.8),
                            egui::Color32::BLACK,
                        );
                    }
                }
            }
            if c.moves && c.captures {
                painter.circle_filled(centre, cell * 0.28, egui::Color32::from_rgb(30, 120, 40));
            } else if c.moves {
                painter.circle_filled(centre, cell * 0.22, egui::Color32::from_rgb(60, 160, 70));
            } else if c.captures {
                painter.circle_stroke(centre, cell * 0.3, egui::Stroke::new(2.0, egui::Color32::from_rgb(200, 40, 40)));
            }
            if c.hops {
                painter.circle_stroke(centre, cell * 0.3, egui::Stroke::new(2.0, egui::Color32::from_rgb(40, 90, 220)));
            }
        }
    }
}
