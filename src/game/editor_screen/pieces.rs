//! The editor's Pieces section: the list with images, the library of catalogue pieces, each
//! piece's form and the move painter kept in step with its Betza.

use super::*;

pub(super) struct PieceState<'a> {
    /// Where a refused edit says why.
    pub(super) notice: &'a mut Option<String>,
    pub(super) piece: &'a mut Option<char>,
    pub(super) step: &'a mut Option<(i8, i8)>,
    pub(super) symmetry: &'a mut Symmetry,
    pub(super) betza: &'a mut String,
    pub(super) error: &'a mut Option<String>,
    pub(super) library: &'a mut Option<String>,
    /// "Like a …" adds the piece's moves (rather than putting them in place of its own).
    pub(super) like_adds: &'a mut bool,
    /// The picture picker, opened by the piece's "Picture…".
    pub(super) picker: &'a mut Option<super::Picker>,
    /// A region made here ("New region…"), to be painted on the board.
    pub(super) paint: &'a mut Option<String>,
}

/// The width of the piece list.
const LIST_WIDTH: f32 = 250.0;

/// Picks a piece: its Betza in the field, and the symmetry its moves have for the painter.
pub(super) fn pick_piece(st: &mut PieceState, spec: &PieceSpec) {
    *st.piece = Some(spec.letter);
    st.betza.clone_from(&spec.betza);
    *st.error = None;
    *st.step = None;
    *st.library = None;
    *st.symmetry = Painter::from_betza(&spec.betza).map(|p| Symmetry::of(&p)).unwrap_or_default();
}

/// A piece's moves in words: its compiled type's sentence when the variant compiles (royal,
/// castling, promotion said too), else its Betza's.
fn sentence(spec: &PieceSpec, compiled: Option<&crate::rules::Variant>) -> String {
    if let Some(def) = compiled.and_then(|v| v.registry.types.iter().find(|d| d.letter == spec.letter)) {
        return crate::rules::describe_piece(def);
    }
    match crate::rules::parse_movement(&spec.betza) {
        Ok(m) => crate::rules::describe_moves(&m.atoms, &m.legs),
        Err(_) => "Its moves do not read yet.".into(),
    }
}

pub(super) fn pieces_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    st: PieceState,
    values: &[(char, i32)],
    textures: &PieceTextures,
    problems: &[Problem],
    compiled: Option<&crate::rules::Variant>,
) {
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    let mut st = st;
    ui.horizontal_top(|ui| {
        // The piece types: picture, moves drawn small, name and moves in words.
        ui.vertical(|ui| {
            ui.set_width(LIST_WIDTH);
            for p in &pieces {
                let picked = *st.piece == Some(p.letter);
                let row = ui.horizontal_top(|ui| {
                    piece_icon(ui, textures, p, Side::White, 28.0, egui::Sense::hover());
                    if let Ok(mut painter) = Painter::from_betza(&p.betza) {
                        diagram_grid(ui, &mut painter, &mut None, false, 6.0, 7);
                    } else {
                        ui.add_space(42.0);
                    }
                    ui.vertical(|ui| {
                        let name = egui::RichText::new(format!("{}  {}", p.name, p.letter)).strong();
                        let clicked = ui.selectable_label(picked, name).clicked();
                        ui.add(egui::Label::new(egui::RichText::new(sentence(p, compiled)).small()).wrap());
                        clicked
                    })
                    .inner
                });
                if row.inner || ui.interact(row.response.rect, ui.id().with(("piece-row", p.letter)), egui::Sense::click()).clicked() {
                    pick_piece(&mut st, p);
                }
                ui.add_space(2.0);
            }
            exact_problems(ui, problems, "pieces");
            field_problems(ui, problems, "remove_pieces");
            let free = editor.free_letter('A');
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(free.is_some(), egui::Button::new("Add a piece"))
                    .on_disabled_hover_text("all 26 letters are taken")
                    .clicked()
                    && let Some(letter) = free
                {
                    let spec = PieceSpec::plain(letter, &format!("piece {letter}"), "W");
                    let _ = editor.apply(&Edit::Piece(spec.clone()));
                    pick_piece(&mut st, &spec);
                }
                if ui.add_enabled(free.is_some(), egui::Button::new("From the library…")).clicked() {
                    *st.library = Some(String::new());
                }
            });
        });
        ui.separator();
        if let Some(mut filter) = st.library.clone() {
            let added = library(ui, editor, &mut filter, textures);
            *st.library = Some(filter);
            if let Some(letter) = added
                && let Some(p) = editor.file().pieces.iter().flatten().find(|p| p.letter == letter).cloned()
            {
                pick_piece(&mut st, &p);
            }
            return;
        }
        let Some(letter) = *st.piece else {
            ui.label("Pick a piece on the left.");
            return;
        };
        // As they are now: a piece added by the list's buttons just above is shown at once.
        let pieces = editor.file().pieces.clone().unwrap_or_default();
        let Some(spec) = pieces.iter().find(|p| p.letter == letter).cloned() else { return };
        ui.vertical(|ui| piece_form(ui, editor, st, &spec, &pieces, values, textures, problems));
    });
}

/// The catalogue's pieces, worked out once (the catalogue is built in).
pub(super) fn library_pieces() -> &'static [crate::editor::LibraryPiece] {
    static LIBRARY: std::sync::OnceLock<Vec<crate::editor::LibraryPiece>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(crate::editor::piece_library)
}

/// The library: every piece of the catalogue, with its image and move diagram; Add puts it in
/// the variant under its own letter if that is free. Returns the letter of a piece added.
pub(super) fn library(ui: &mut egui::Ui, editor: &mut Editor, filter: &mut String, textures: &PieceTextures) -> Option<char> {
    let mut added = None;
    ui.vertical(|ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("The library: every piece of the catalogue").strong());
            ui.add(egui::TextEdit::singleline(filter).hint_text("search: name, Betza or variant").desired_width(200.0));
        });
        let needle = filter.to_lowercase();
        let library = library_pieces();
        // Pieces whose name matches come first, then those whose Betza does, then the pieces of
        // the variants that match ("chancellor": the chancellor before Chancellor Chess's bishop).
        let rank = |l: &&crate::editor::LibraryPiece| {
            if needle.is_empty() || l.spec.name.contains(&needle) {
                Some(0)
            } else if l.spec.betza.to_lowercase().contains(&needle) {
                Some(1)
            } else {
                l.variants.iter().any(|v| v.to_lowercase().contains(&needle)).then_some(2)
            }
        };
        let mut shown: Vec<(u8, &crate::editor::LibraryPiece)> = library.iter().filter_map(|l| Some((rank(&l)?, l))).collect();
        shown.sort_by_key(|&(r, _)| r);
        egui::Grid::new("piece-library").num_columns(4).striped(true).show(ui, |ui| {
            for (_, l) in shown {
                if ui.button("Add").on_hover_text("under its own letter, or the first free one").clicked()
                    && let Some(letter) = editor.free_letter(l.spec.letter)
                    && editor.apply(&Edit::Piece(PieceSpec { letter, ..l.spec.clone() })).is_ok()
                {
                    added = Some(letter);
                }
                let icon = piece_icon(ui, textures, &l.spec, Side::White, 28.0, egui::Sense::hover());
                icon.on_hover_ui(|ui| {
                    if let Ok(mut p) = Painter::from_betza(&l.spec.betza) {
                        diagram_grid(ui, &mut p, &mut None, false, 20.0, 11);
                    }
                });
                let code = l.spec.code.as_ref().map_or(String::new(), |c| format!(", moves by its own rule: {c}"));
                ui.label(format!("{} ({}{code})", l.spec.name, l.spec.betza));
                let more = l.variants.len().saturating_sub(3);
                let from = l.variants.iter().take(3).cloned().collect::<Vec<_>>().join(", ");
                let from = if more > 0 { format!("{from} and {more} more") } else { from };
                ui.label(egui::RichText::new(from).small()).on_hover_text(l.variants.join(", "));
                ui.end_row();
            }
        });
    });
    added
}

#[allow(clippy::too_many_lines)]
pub(super) fn piece_form(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    st: PieceState,
    spec: &PieceSpec,
    pieces: &[PieceSpec],
    values: &[(char, i32)],
    textures: &PieceTextures,
    problems: &[Problem],
) {
    let letter = spec.letter;
    let key = |field: &str| format!("pieces[{letter}].{field}");
    let set = |editor: &mut Editor, new: PieceSpec, field: &str| {
        let _ = editor.apply_merged(&Edit::Piece(new), &format!("pieces[{letter}].{field}"));
    };
    ui.horizontal(|ui| {
        // The pictures open the picture picker too.
        for side in [Side::White, Side::Black] {
            if piece_icon(ui, textures, spec, side, 40.0, egui::Sense::click()).on_hover_text("Choose its picture").clicked() {
                *st.picker = Some(super::Picker { letter, ..Default::default() });
            }
        }
        ui.vertical(|ui| {
            ui.horizontal(|ui| {
                let mut text = letter.to_string();
                ui.label("Letter");
                if ui.add(egui::TextEdit::singleline(&mut text).desired_width(24.0)).changed()
                    && let Some(new) = text.chars().rev().find(char::is_ascii_alphabetic).map(|c| c.to_ascii_uppercase())
                    && new != letter
                {
                    match editor.apply(&Edit::Letter { from: letter, to: new }) {
                        Ok(_) => *st.piece = Some(new),
                        Err(e) => *st.notice = Some(e),
                    }
                }
                let mut name = spec.name.clone();
                ui.label("Name");
                if ui.add(egui::TextEdit::singleline(&mut name).desired_width(140.0)).changed() {
                    // A piece drawn by its name keeps its picture when renamed: the picture
                    // becomes its own choice.
                    let glyph =
                        spec.glyph.clone().or_else(|| super::super::pieces::image_for(&spec.name, &spec.betza, None).map(str::to_string));
                    set(editor, PieceSpec { name, glyph, ..spec.clone() }, "name");
                }
                let shown = match (&spec.picture, &spec.glyph) {
                    (Some(_), _) => "its own".to_string(),
                    (None, Some(g)) => super::super::pieces::plain_name(g),
                    (None, None) => "by its name".to_string(),
                };
                let button = egui::Button::new("Picture…");
                let hover = format!("Now: {shown}. Choose another, or import your own PNG or SVG.");
                if ui.add_sized([76.0, 20.0], button).on_hover_text(hover).clicked() {
                    *st.picker = Some(super::Picker { letter, ..Default::default() });
                }
                if ui.button("Remove").clicked() {
                    let _ = editor.apply(&Edit::RemovePiece(letter));
                    *st.piece = None;
                }
            });
            ui.horizontal_wrapped(|ui| {
                for (label, on, hover, field) in [
                    ("royal", spec.royal, "check and checkmate apply to it", "royal"),
                    ("pawn", spec.pawn, "its moves reset the fifty-move count; SAN leaves out its letter", "pawn"),
                    ("promotes on the promotion rank", spec.promotes, "see Promotion in the Rules section", "promotes"),
                    ("castles (the king)", spec.castles, "see Castling in the Rules section", "castles"),
                    ("castling partner (the rook)", spec.castling_partner, "see Castling in the Rules section", "castling_partner"),
                ] {
                    let mut v = on;
                    if ui.checkbox(&mut v, label).on_hover_text(hover).changed() {
                        let mut new = spec.clone();
                        match field {
                            "royal" => new.royal = v,
                            "pawn" => new.pawn = v,
                            "promotes" => new.promotes = v,
                            "castles" => new.castles = v,
                            _ => new.castling_partner = v,
                        }
                        let _ = editor.apply(&Edit::Piece(new));
                    }
                }
            });
        });
    });
    ui.horizontal_wrapped(|ui| {
        // The value saved, and the computer's estimate from its moves offered beside it.
        ui.label("Value").on_hover_text(
            "Saved with the variant, in centipawns (a pawn is 100), for exporting and for people; the computer plays by its own estimate from the moves",
        );
        let mut value = spec.value;
        if ui.add(egui::DragValue::new(&mut value).range(0..=5000).speed(5.0)).changed() {
            set(editor, PieceSpec { value, ..spec.clone() }, "value");
        }
        match values.iter().find(|(l, _)| *l == letter) {
            Some(&(_, v)) if v != spec.value => {
                ui.label(format!("estimated from its moves: {v}"));
                if ui.button("use").on_hover_text("Save the estimate as its value").clicked() {
                    let _ = editor.apply(&Edit::Piece(PieceSpec { value: v, ..spec.clone() }));
                }
            }
            Some(_) => {
                ui.label("(the estimate from its moves)");
            }
            None => {
                ui.label("estimated once the variant plays");
            }
        }
        // What it promotes to on reaching the promotion zone (Shogi-style), if anything.
        let current = spec.promotes_to.map_or("nothing".to_string(), |c| c.to_string());
        egui::ComboBox::from_label("promotes in the zone to").selected_text(current).show_ui(ui, |ui| {
            let mut choice = spec.promotes_to;
            ui.selectable_value(&mut choice, None, "nothing");
            for p in pieces.iter().filter(|p| p.letter != letter) {
                ui.selectable_value(&mut choice, Some(p.letter), format!("{} {}", p.letter, p.name));
            }
            if choice != spec.promotes_to {
                let _ = editor.apply(&Edit::Piece(PieceSpec { promotes_to: choice, ..spec.clone() }));
            }
        });
    });
    let regions: Vec<String> = editor.file().regions.iter().flatten().map(|(n, _)| n.clone()).collect();
    ui.horizontal_wrapped(|ui| {
        // Where its first-move steps apply, for a piece that has some.
        if spec.betza.contains('i') || spec.initial_ranks.is_some() {
            ui.label("Its first moves may be made from ranks").on_hover_text("1 is its own back rank; commas between");
            let now = spec.initial_ranks.clone().unwrap_or_else(|| vec![2]);
            if let Some(ranks) = ranks_field(ui, egui::Id::new(("initial-ranks", letter)), &now, 60.0) {
                // Rank 2, or nothing typed: the default.
                let initial_ranks = (!ranks.is_empty() && ranks != [2]).then_some(ranks);
                set(editor, PieceSpec { initial_ranks, ..spec.clone() }, "initial_ranks");
            }
        }
        // A region may be a new one: made empty with the piece's change (one step of undo),
        // then painted on the board.
        let mut made: Option<(String, PieceSpec)> = None;
        let shown = spec.confined.clone().unwrap_or_else(|| "anywhere".into());
        egui::ComboBox::from_label("moves within").selected_text(shown).show_ui(ui, |ui| {
            let mut confined = spec.confined.clone();
            ui.selectable_value(&mut confined, None, "anywhere");
            for r in &regions {
                ui.selectable_value(&mut confined, Some(r.clone()), r);
            }
            if let Some(name) = super::new_region_item(ui, &regions) {
                made = Some((name.clone(), PieceSpec { confined: Some(name), ..spec.clone() }));
            } else if confined != spec.confined {
                let _ = editor.apply(&Edit::Piece(PieceSpec { confined, ..spec.clone() }));
            }
        });
        let shown = spec.region_moves.as_ref().map_or("nowhere".to_string(), |rm| rm.region.clone());
        egui::ComboBox::from_label("moves differently in").selected_text(shown).show_ui(ui, |ui| {
            let mut region = spec.region_moves.as_ref().map(|rm| rm.region.clone());
            ui.selectable_value(&mut region, None, "nowhere");
            for r in &regions {
                ui.selectable_value(&mut region, Some(r.clone()), r);
            }
            let betza = spec.region_moves.as_ref().map_or(spec.betza.clone(), |rm| rm.betza.clone());
            if let Some(name) = super::new_region_item(ui, &regions) {
                let region_moves = Some(crate::variants::RegionMoves { region: name.clone(), betza });
                made = Some((name, PieceSpec { region_moves, ..spec.clone() }));
            } else if region != spec.region_moves.as_ref().map(|rm| rm.region.clone()) {
                let region_moves = region.map(|region| crate::variants::RegionMoves { region, betza });
                let _ = editor.apply(&Edit::Piece(PieceSpec { region_moves, ..spec.clone() }));
            }
        });
        if let Some((name, piece)) = made {
            editor.edit(|f| {
                f.regions.get_or_insert_with(Default::default).insert(name.clone(), crate::variants::RegionSpec::Squares(Vec::new()));
                if let Some(p) = f.pieces.iter_mut().flatten().find(|p| p.letter == piece.letter) {
                    *p = piece;
                }
            });
            *st.paint = Some(name);
        }
        if let Some(rm) = &spec.region_moves {
            let mut betza = rm.betza.clone();
            ui.label("there:");
            if ui.add(egui::TextEdit::singleline(&mut betza).desired_width(90.0).font(egui::TextStyle::Monospace)).changed() {
                let region_moves = Some(crate::variants::RegionMoves { region: rm.region.clone(), betza });
                set(editor, PieceSpec { region_moves, ..spec.clone() }, "region_moves");
            }
        }
    });
    for field in ["letter", "name", "royal", "initial_ranks", "confined", "region_moves", "promotes_to", "code", "value", "glyph"] {
        field_problems(ui, problems, &key(field));
    }
    // Problems at the piece itself (a duplicate letter, say).
    exact_problems(ui, problems, &format!("pieces[{letter}]"));
    if spec.code.is_some() {
        field_problems(ui, problems, &key("betza"));
    }
    if let Some(code) = &spec.code {
        // A code piece moves by its own rule: its diagram, drawn from the Betza that
        // describes it, read-only.
        ui.label(format!("Moves by its own rule ({code}): shown here, not painted. Its Betza, {}, only draws the diagram.", spec.betza));
        if let Ok(mut p) = Painter::from_betza(&spec.betza) {
            diagram_grid(ui, &mut p, &mut None, false, 30.0, 11);
        }
        return;
    }
    // Betza, in step with the painter both ways.
    ui.horizontal(|ui| {
        ui.label("Betza");
        if ui.add(egui::TextEdit::singleline(st.betza).desired_width(200.0).font(egui::TextStyle::Monospace)).changed() {
            match crate::rules::parse_movement(st.betza) {
                Ok(_) => {
                    *st.error = None;
                    let _ = editor.apply_merged(&Edit::Betza { letter, betza: st.betza.clone() }, &key("betza"));
                }
                Err(e) => *st.error = Some(format!("character {}: {}", e.position, e.message)),
            }
        }
    });
    if let Some(e) = st.error.as_ref() {
        ui.colored_label(ERROR, e);
    }
    field_problems(ui, problems, &key("betza"));
    // Multi-leg moves are written, not painted: their diagram, read-only.
    if let Ok(movement) = crate::rules::parse_movement(&spec.betza)
        && !movement.legs.is_empty()
    {
        ui.label("Multi-leg moves (XBetza 'a') are edited in the Betza text; the painter draws single leaps and slides. Where they end:");
        let mut d = crate::rules::diagram(&movement.atoms, 11);
        d.mark_legs(&movement.legs);
        legs_grid(ui, &d, 24.0);
        return;
    }
    let mut painter = Painter::from_betza(&spec.betza).unwrap_or_default();
    let before = painter.clone();
    // Starting points by picture: a known piece's moves in place of its own, or added.
    ui.horizontal_wrapped(|ui| {
        ui.label("Like a…").on_hover_text("Click a piece to give this one its moves; with 'add' ticked, its moves are added");
        for (name, betza) in crate::editor::painter::LIKE {
            let like = PieceSpec::plain(name.chars().next().unwrap_or('X').to_ascii_uppercase(), name, betza);
            let icon = piece_icon(ui, textures, &like, Side::White, 30.0, egui::Sense::click());
            if icon.on_hover_text(format!("{name}: {}", sentence(&like, None))).clicked() {
                let base = if *st.like_adds { spec.betza.as_str() } else { "" };
                if let Ok(betza) = crate::editor::painter::together(base, betza) {
                    painter = Painter::from_betza(&betza).unwrap_or_default();
                    *st.symmetry = Symmetry::of(&painter);
                    *st.step = None;
                }
            }
        }
        ui.checkbox(st.like_adds, "add to its moves");
    });
    ui.horizontal(|ui| {
        ui.label("A click paints");
        egui::ComboBox::from_id_salt("symmetry").width(330.0).selected_text(st.symmetry.label()).show_ui(ui, |ui| {
            for s in Symmetry::ALL {
                ui.selectable_value(st.symmetry, s, s.label());
            }
        });
    });
    painter.symmetry = *st.symmetry;
    ui.horizontal_top(|ui| {
        // Around the piece as far as the board reaches (11 to 21 squares across).
        let (files, ranks) = editor.board_size();
        let n = (2 * i16::from(files.max(ranks)) - 1).clamp(11, 21) as i8;
        diagram_grid(ui, &mut painter, st.step, true, (330.0 / f32::from(n)).min(30.0), n);
        ui.vertical(|ui| {
            ui.set_width(ui.available_width().clamp(200.0, 260.0));
            match *st.step {
                Some((dx, dy)) if painter.at(dx, dy).is_some() => step_choices(ui, &mut painter, dx, dy),
                _ => {
                    ui.label("Click a square around the piece to paint a move there, or a painted one to pick it; clicking the picked one again makes it 'only to move', then 'only to capture', then nothing.");
                    ui.label("Then say here how the picked move gets there.");
                }
            }
        });
    });
    if painter.atoms() != before.atoms() {
        let betza = painter.betza();
        st.betza.clone_from(&betza);
        *st.error = None;
        let _ = editor.apply(&Edit::Betza { letter, betza });
    }
    ui.label(
        egui::RichText::new("Dark green: moves and captures; light green: only moves; red: only captures; small dots: squares it slides through; a blue ring: the move picked. Forward is up.")
            .small(),
    );
}

/// The picked move in plain words: how it gets there, what it may do, and when.
fn step_choices(ui: &mut egui::Ui, painter: &mut Painter, dx: i8, dy: i8) {
    let Some(stroke) = painter.at(dx, dy) else { return };
    let now = Reach::of(stroke);
    let up_to = if let Reach::SlideUpTo(n) = now { n } else { 2 };
    ui.label(egui::RichText::new("How it gets there").strong());
    for (reach, label) in Reach::choices(dx, dy, up_to) {
        let on = std::mem::discriminant(&reach) == std::mem::discriminant(&now);
        ui.horizontal(|ui| {
            if ui.radio(on, label).clicked() && !on {
                painter.set_reach(dx, dy, reach);
            }
            if let Reach::SlideUpTo(_) = reach {
                let mut n = up_to;
                if ui.add(egui::DragValue::new(&mut n).range(2..=15).suffix(" squares")).changed() {
                    painter.set_reach(dx, dy, Reach::SlideUpTo(n));
                }
            }
        });
    }
    ui.label(egui::RichText::new("What it may do there").strong());
    for (mode, label) in [(Mode::Both, "move or capture"), (Mode::Move, "only move (not capture)"), (Mode::Capture, "only capture")] {
        if ui.radio(stroke.mode == mode, label).clicked() && stroke.mode != mode {
            painter.set_mode(dx, dy, mode);
        }
    }
    let mut first = stroke.initial;
    if ui.checkbox(&mut first, "only as its first move").on_hover_text("Only from its starting rank, like a pawn's double step").changed() {
        painter.set_first_move(dx, dy, first);
    }
    if stroke.mode.captures() {
        let mut ep = stroke.en_passant;
        if ui
            .checkbox(&mut ep, "also captures en passant")
            .on_hover_text("Takes a pawn that has just gone past with a double step")
            .changed()
        {
            painter.set_en_passant(dx, dy, ep);
        }
    }
}

/// A read-only diagram (a piece with multi-leg moves): the painter's colours, green where it
/// moves and captures, light green where it only moves, red where it only captures.
fn legs_grid(ui: &mut egui::Ui, d: &crate::rules::Diagram, cell: f32) {
    let n = d.size as f32;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * n, cell * n), egui::Sense::hover());
    for (y, row) in d.rows.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            let min = rect.min + egui::vec2(x as f32 * cell, y as f32 * cell);
            let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
            let light = (x + y) % 2 == 0;
            ui.painter().rect_filled(
                square,
                0.0,
                if light { egui::Color32::from_rgb(240, 217, 181) } else { egui::Color32::from_rgb(181, 136, 99) },
            );
            let colour = match (c.piece, c.moves, c.captures || c.hops) {
                (true, _, _) => Some(egui::Color32::from_gray(25)),
                (_, true, true) => Some(egui::Color32::from_rgb(30, 130, 50)),
                (_, true, false) => Some(egui::Color32::from_rgb(120, 200, 120)),
                (_, false, true) => Some(egui::Color32::from_rgb(200, 50, 40)),
                _ => None,
            };
            if let Some(colour) = colour {
                ui.painter().circle_filled(square.center(), cell * 0.3, colour);
            }
        }
    }
}

/// The painter's grid, `n` × `n` around the piece (`n` odd), `cell` points a square: with
/// `edit`, a click cycles a step and picks it; without, it only shows the diagram.
pub(super) fn diagram_grid(ui: &mut egui::Ui, painter: &mut Painter, step: &mut Option<(i8, i8)>, edit: bool, cell: f32, n: i8) {
    let mid = n / 2;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * n as f32, cell * n as f32), egui::Sense::hover());
    let atoms = painter.atoms();
    let reach = crate::rules::diagram(&atoms, n as u8);
    for y in 0..n {
        for x in 0..n {
            let (dx, dy) = (x - mid, mid - y);
            let min = rect.min + egui::vec2(x as f32 * cell, y as f32 * cell);
            let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
            let light = (x + y) % 2 == 0;
            let mut fill = if light { egui::Color32::from_rgb(240, 217, 181) } else { egui::Color32::from_rgb(181, 136, 99) };
            let c = reach.rows[y as usize][x as usize];
            if c.moves || c.captures || c.hops {
                fill = fill.gamma_multiply(0.8);
            }
            ui.painter().rect_filled(square, 0.0, fill);
            if (dx, dy) == (0, 0) {
                // The piece itself.
                ui.painter().circle_filled(square.center(), cell * 0.3, egui::Color32::from_gray(25));
                continue;
            }
            if let Some(s) = painter.at(dx, dy) {
                let colour = match s.mode {
                    Mode::Both => egui::Color32::from_rgb(30, 130, 50),
                    Mode::Move => egui::Color32::from_rgb(120, 200, 120),
                    Mode::Capture => egui::Color32::from_rgb(200, 50, 40),
                };
                ui.painter().circle_filled(square.center(), cell * 0.32, colour);
                let mark = match (s.range, s.hop) {
                    (_, Hop::Any) => "p".to_string(),
                    (_, Hop::Adjacent) => "g".to_string(),
                    (0, _) => "∞".to_string(),
                    (1, _) => String::new(),
                    (r, _) => r.to_string(),
                };
                if !mark.is_empty() {
                    ui.painter().text(
                        square.center(),
                        egui::Align2::CENTER_CENTER,
                        mark,
                        egui::FontId::proportional(cell * 0.47),
                        egui::Color32::WHITE,
                    );
                }
            } else if c.moves || c.captures {
                // Reached by riding: a small dot.
                let colour =
                    if c.captures && !c.moves { egui::Color32::from_rgb(200, 50, 40) } else { egui::Color32::from_rgb(30, 130, 50) };
                ui.painter().circle_filled(square.center(), cell * 0.12, colour);
            }
            if *step == Some((dx, dy)) {
                ui.painter().circle_stroke(square.center(), cell * 0.45, egui::Stroke::new(2.5, egui::Color32::from_rgb(40, 90, 230)));
            }
            if !edit {
                continue;
            }
            let response = ui.interact(square, ui.id().with(("paint", x, y)), egui::Sense::click());
            // A click paints an empty square, picks a painted one, and cycles the one picked.
            if response.clicked() {
                if painter.at(dx, dy).is_none() || *step == Some((dx, dy)) {
                    painter.cycle(dx, dy);
                }
                *step = Some((dx, dy));
            }
            if response.secondary_clicked() {
                *step = Some((dx, dy));
            }
        }
    }
}
