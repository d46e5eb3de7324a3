//! The variant editor's screen (issue 13, first slice): a view of [`crate::editor::Editor`].
//! Sections: Board (size), Pieces (the list, and the move painter for the piece picked, with
//! its Betza field in step both ways), Start (the board painted from a palette, mirrored for
//! black when asked, with its FEN field in step), Rules (presets), RON (the whole definition
//! as text). Every edit can be undone; the problems of the definition are listed under the
//! sections after every edit, each with its code and field. Test-play starts a game of the
//! variant as it stands and keeps the editor (with its history) to come back to; Save writes
//! it to the user's variants directory.
//!
//! Reached from the start screen ("Edit a copy") and by `chimera --editor [<id|file.ron>]`.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use crate::editor::painter::{Painter, Symmetry, Toggle};
use crate::editor::{Edit, Editor};
use crate::rules::{Hop, Mode};

/// The editor's sections.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Section {
    /// Board size.
    Board,
    /// Piece types and the move painter.
    #[default]
    Pieces,
    /// The start position.
    Start,
    /// Presets.
    Rules,
    /// The definition as RON.
    Ron,
}

/// The editor's screen state.
#[derive(Resource, Default)]
pub struct EditorScreen {
    /// Shown.
    pub open: bool,
    /// The definition being edited (kept while a test game runs).
    pub editor: Option<Editor>,
    /// The section shown.
    pub section: Section,
    piece: Option<char>,
    step: Option<(i8, i8)>,
    symmetry: Symmetry,
    betza: String,
    betza_error: Option<String>,
    fen: String,
    fen_error: Option<String>,
    ron: String,
    ron_error: Option<String>,
    /// The RON text was changed and not applied.
    ron_dirty: bool,
    /// The FEN field has the keyboard.
    fen_editing: bool,
    /// The board size being set (applied with its button).
    size: Option<(u8, u8)>,
    /// The definition's problems (for the version in `synced`).
    problems: Vec<crate::variants::Problem>,
    /// Each piece's value as the computer's evaluation estimates it, by letter.
    values: Vec<(char, i32)>,
    palette: Option<String>,
    notice: Option<String>,
    /// The definition the text fields were last filled from.
    synced: Option<crate::variants::VariantFile>,
}

impl EditorScreen {
    /// Opens the editor on `editor`.
    pub fn open_on(&mut self, editor: Editor) {
        *self = EditorScreen { open: true, editor: Some(editor), ..EditorScreen::default() };
    }

    /// Opens the editor on `what`: a new variant (empty), a variant file (`.ron`, see
    /// [`EditorScreen::open_file`]), or a copy of a built-in by id.
    ///
    /// # Errors
    /// No such variant, or a file that cannot be read.
    pub fn open(&mut self, what: &str) -> Result<(), String> {
        if what.ends_with(".ron") {
            return self.open_file(std::path::Path::new(what));
        }
        let editor = if what.is_empty() { new_variant()? } else { Editor::copy_of(what).map_err(|e| e.to_string())? };
        self.open_on(editor);
        Ok(())
    }

    /// Opens a variant file in the editor. One that does not parse opens in the RON section
    /// with its text and the error's line and column; nothing is written until its text is
    /// applied and saved (Save waits for the text to be applied).
    ///
    /// # Errors
    /// The file cannot be read, or parses but its parent variant cannot be found.
    pub fn open_file(&mut self, path: &std::path::Path) -> Result<(), String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        match crate::variants::parse_variant_file(&text) {
            Ok(_) => self.open_on(Editor::open(path).map_err(|e| format!("{}: {e}", path.display()))?),
            Err(e) => {
                // Until its text is applied, the editor holds a plain definition named after
                // the file (with nothing to undo).
                let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("variant").to_string();
                let mut file = Editor::copy_of("chess").map_err(|e| e.to_string())?.file().clone();
                file.name = Some(stem.clone());
                file.id = stem;
                self.open_on(Editor::new(file));
                self.section = Section::Ron;
                self.ron = text;
                self.ron_dirty = true;
                self.ron_error = Some(format!("{} does not parse: {e}", path.display()));
            }
        }
        Ok(())
    }
}

/// Starts a game of the variant being edited.
#[derive(Message, Clone, Copy, Debug)]
pub struct TestPlay;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditorScreen>();
    app.add_message::<TestPlay>();
    app.add_systems(bevy_egui::EguiPrimaryContextPass, editor_screen);
    app.add_systems(Update, test_play.before(super::play::handle_input));
}

/// A new variant: a copy of chess named "New variant".
fn new_variant() -> Result<Editor, String> {
    let mut e = Editor::copy_of("chess").map_err(|e| e.to_string())?;
    e.apply(&Edit::Name("New variant".into()))?;
    Ok(e)
}

fn test_play(world: &mut World) {
    if world.resource_mut::<Messages<TestPlay>>().drain().count() == 0 {
        return;
    }
    let Some(file) = world.resource::<EditorScreen>().editor.as_ref().map(|e| e.file().clone()) else { return };
    let result = crate::variants::compile_playable(&file).map_err(|e| e.to_string()).and_then(|variant| {
        let set = crate::presets::requested_by(&variant);
        // A label no file answers to, so a rematch plays this definition, not a file of that
        // name that happens to be in the working directory.
        super::start_variant(world, &format!("(editor)/{}.ron", file.id), Some(file.clone()), variant, set)
    });
    match result {
        Ok(()) => {
            super::after_new_game(world);
            world.resource_mut::<EditorScreen>().open = false;
        }
        Err(e) => world.resource_mut::<EditorScreen>().notice = Some(format!("cannot play it yet: {e}")),
    }
}

fn editor_screen(
    mut contexts: EguiContexts,
    mut screen: ResMut<EditorScreen>,
    mut play: MessageWriter<TestPlay>,
    mut start: ResMut<super::screens::StartScreen>,
) -> Result {
    if !screen.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let screen = &mut *screen;
    let Some(editor) = screen.editor.as_mut() else { return Ok(()) };
    // Text fields follow the definition when it changed elsewhere (an edit, undo, redo).
    if screen.synced.as_ref() != Some(editor.file()) {
        if !screen.fen_editing {
            screen.fen = editor.file().start.clone().unwrap_or_default();
        }
        // Text typed in the RON section and not applied yet is kept.
        if !screen.ron_dirty {
            screen.ron = editor.ron();
        }
        if let Some(def) = screen.piece.and_then(|l| editor.file().pieces.as_ref()?.iter().find(|p| p.letter == l)) {
            screen.betza.clone_from(&def.betza);
        }
        // Problems and the engine's piece values, worked out once per version of the definition.
        screen.problems = editor.problems();
        screen.values = crate::variants::compile_playable(editor.file())
            .map(|v| {
                let eval = crate::ai::Evaluator::new(&v);
                v.registry.ids().map(|k| (v.registry.def(k).letter, eval.value(k))).collect()
            })
            .unwrap_or_default();
        screen.synced = Some(editor.file().clone());
    }
    let mut close = false;
    // Over the whole window, above the game's panel.
    let area = ctx.viewport_rect();
    let style = ctx.global_style();
    egui::Area::new(egui::Id::new("variant-editor")).order(egui::Order::Middle).fixed_pos(area.min).show(ctx, |ui| {
        egui::Frame::central_panel(&style).show(ui, |ui| {
            ui.set_min_size(area.size() - egui::vec2(16.0, 16.0));
            ui.set_max_size(area.size() - egui::vec2(16.0, 16.0));
            ui.horizontal(|ui| {
                ui.heading("Variant editor");
                let mut name = editor.file().name.clone().unwrap_or_default();
                if ui.add(egui::TextEdit::singleline(&mut name).desired_width(260.0)).changed() {
                    let _ = editor.apply(&Edit::Name(name));
                }
                if ui.add_enabled(editor.can_undo(), egui::Button::new("Undo")).clicked() {
                    editor.undo();
                }
                if ui.add_enabled(editor.can_redo(), egui::Button::new("Redo")).clicked() {
                    editor.redo();
                }
                if ui.button("Test-play").on_hover_text("Play it as it stands; the editor keeps every edit").clicked() {
                    play.write(TestPlay);
                }
                if ui
                    .add_enabled(!screen.ron_dirty, egui::Button::new("Save"))
                    .on_disabled_hover_text("Apply or revert the RON text first")
                    .clicked()
                {
                    screen.notice = Some(match crate::editor::variants_dir() {
                        Some(dir) => match editor.save_in(&dir) {
                            Ok(path) => {
                                // The start screen lists it from now on.
                                start.forget_catalogue();
                                format!("saved to {}", path.display())
                            }
                            Err(e) => e,
                        },
                        None => "no directory to save variants in (HOME is not set)".into(),
                    });
                }
                if ui.button("Copy RON").clicked() {
                    ui.ctx().copy_text(editor.ron());
                }
                if ui.button("Close").clicked() {
                    close = true;
                }
            });
            if let Some(n) = &screen.notice {
                ui.label(egui::RichText::new(n).color(egui::Color32::from_rgb(240, 190, 90)));
            }
            ui.separator();
            ui.horizontal(|ui| {
                for (s, name) in [
                    (Section::Board, "Board"),
                    (Section::Pieces, "Pieces"),
                    (Section::Start, "Start position"),
                    (Section::Rules, "Rules"),
                    (Section::Ron, "RON"),
                ] {
                    ui.selectable_value(&mut screen.section, s, name);
                }
            });
            ui.separator();
            let problems = screen.problems.clone();
            let height = (ui.available_height() - 150.0).max(200.0);
            egui::ScrollArea::vertical().id_salt("section").max_height(height).show(ui, |ui| match screen.section {
                Section::Board => board_section(ui, editor, &mut screen.size),
                Section::Pieces => pieces_section(
                    ui,
                    editor,
                    PieceState {
                        piece: &mut screen.piece,
                        step: &mut screen.step,
                        symmetry: &mut screen.symmetry,
                        betza: &mut screen.betza,
                        error: &mut screen.betza_error,
                    },
                    &screen.values,
                ),
                Section::Start => {
                    start_section(ui, editor, &mut screen.palette, (&mut screen.fen, &mut screen.fen_error, &mut screen.fen_editing))
                }
                Section::Rules => rules_section(ui, editor),
                Section::Ron => ron_section(ui, editor, &mut screen.ron, &mut screen.ron_error, &mut screen.ron_dirty),
            });
            ui.separator();
            // The problems, each with its code and field; a click goes to its section.
            if problems.is_empty() {
                ui.label(egui::RichText::new("No problems: the variant plays.").color(egui::Color32::from_rgb(120, 200, 120)));
            }
            egui::ScrollArea::vertical().id_salt("problems").max_height(130.0).show(ui, |ui| {
                for p in &problems {
                    let colour = if p.code.as_str().starts_with("W_") {
                        egui::Color32::from_rgb(230, 190, 80)
                    } else {
                        egui::Color32::from_rgb(235, 100, 90)
                    };
                    let text = format!("{}  {}: {}", p.code, if p.path.is_empty() { "(file)" } else { &p.path }, p.message);
                    if ui.add(egui::Label::new(egui::RichText::new(text).color(colour)).sense(egui::Sense::click())).clicked() {
                        screen.section = section_of(&p.path);
                        if let Some(letter) = p.path.strip_prefix("pieces[").and_then(|r| r.chars().next()) {
                            screen.piece = Some(letter);
                            screen.synced = None;
                        }
                    }
                }
            });
        });
    });
    if close {
        screen.open = false;
    }
    Ok(())
}

/// The section a problem's key path belongs to.
fn section_of(path: &str) -> Section {
    match path.split(['.', '[']).next().unwrap_or("") {
        "board" => Section::Board,
        "pieces" | "remove_pieces" => Section::Pieces,
        "start" | "shuffle" => Section::Start,
        _ => Section::Rules,
    }
}

struct PieceState<'a> {
    piece: &'a mut Option<char>,
    step: &'a mut Option<(i8, i8)>,
    symmetry: &'a mut Symmetry,
    betza: &'a mut String,
    error: &'a mut Option<String>,
}

fn board_section(ui: &mut egui::Ui, editor: &mut Editor, size: &mut Option<(u8, u8)>) {
    let now = editor.board_size();
    let (files, ranks) = size.get_or_insert(now);
    ui.horizontal(|ui| {
        ui.label("Files");
        ui.add(egui::DragValue::new(files).range(3..=16));
        ui.label("Ranks");
        ui.add(egui::DragValue::new(ranks).range(3..=16));
        if ui.add_enabled((*files, *ranks) != now, egui::Button::new("Apply")).clicked()
            && let Err(e) = editor.apply(&Edit::Board { files: *files, ranks: *ranks })
        {
            ui.colored_label(egui::Color32::from_rgb(235, 100, 90), e);
        }
    });
    ui.label("The start position keeps what still fits: white's ranks from the bottom, black's from the top.");
}

fn pieces_section(ui: &mut egui::Ui, editor: &mut Editor, st: PieceState, values: &[(char, i32)]) {
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    ui.horizontal_top(|ui| {
        // The piece types.
        ui.vertical(|ui| {
            ui.set_width(240.0);
            for p in &pieces {
                let label = format!("{}  {}  {}", p.letter, p.name, p.betza);
                if ui.selectable_label(*st.piece == Some(p.letter), label).clicked() {
                    *st.piece = Some(p.letter);
                    st.betza.clone_from(&p.betza);
                    *st.error = None;
                    *st.step = None;
                }
            }
            let free = ('A'..='Z').find(|l| !pieces.iter().any(|p| p.letter == *l));
            if ui.add_enabled(free.is_some(), egui::Button::new("Add a piece")).clicked()
                && let Some(letter) = free
            {
                let spec = crate::variants::PieceSpec::plain(letter, &format!("piece {letter}"), "W");
                let _ = editor.apply(&Edit::Piece(spec));
                *st.piece = Some(letter);
                *st.betza = "W".into();
            }
        });
        ui.separator();
        let Some(letter) = *st.piece else {
            ui.label("Pick a piece on the left.");
            return;
        };
        let Some(spec) = pieces.iter().find(|p| p.letter == letter).cloned() else { return };
        ui.vertical(|ui| {
            ui.horizontal(|ui| {
                let mut text = spec.letter.to_string();
                ui.label("Letter");
                if ui.add(egui::TextEdit::singleline(&mut text).desired_width(24.0)).changed()
                    && let Some(new) = text.chars().rev().find(char::is_ascii_alphabetic).map(|c| c.to_ascii_uppercase())
                    && editor.apply(&Edit::Letter { from: letter, to: new }).is_ok()
                {
                    *st.piece = Some(new);
                }
                let mut name = spec.name.clone();
                ui.label("Name");
                if ui.add(egui::TextEdit::singleline(&mut name).desired_width(140.0)).changed() {
                    let _ = editor.apply(&Edit::Piece(crate::variants::PieceSpec { name, ..spec.clone() }));
                }
                let mut royal = spec.royal;
                if ui.checkbox(&mut royal, "royal").changed() {
                    let _ = editor.apply(&Edit::Piece(crate::variants::PieceSpec { royal, ..spec.clone() }));
                }
                if ui.button("Remove").clicked() {
                    let _ = editor.apply(&Edit::RemovePiece(letter));
                    *st.piece = None;
                }
            });
            ui.horizontal(|ui| {
                match values.iter().find(|(l, _)| *l == letter) {
                    Some((_, v)) => ui.label(format!("Value, as the computer estimates it from its moves: {v}")),
                    None => ui.label("Value: once the variant plays"),
                };
                // What it promotes to on reaching the promotion zone (Shogi-style), if anything.
                let current = spec.promotes_to.map_or("nothing".to_string(), |c| c.to_string());
                egui::ComboBox::from_label("promotes to").selected_text(current).show_ui(ui, |ui| {
                    let mut choice = spec.promotes_to;
                    ui.selectable_value(&mut choice, None, "nothing");
                    for p in pieces.iter().filter(|p| p.letter != letter) {
                        ui.selectable_value(&mut choice, Some(p.letter), format!("{} {}", p.letter, p.name));
                    }
                    if choice != spec.promotes_to {
                        let _ = editor.apply(&Edit::Piece(crate::variants::PieceSpec { promotes_to: choice, ..spec.clone() }));
                    }
                });
            });
            if spec.code.is_some() {
                ui.label(format!("Moves by its own rule ({}): shown, not painted.", spec.code.as_deref().unwrap_or_default()));
                return;
            }
            // Betza, in step with the painter both ways.
            ui.horizontal(|ui| {
                ui.label("Betza");
                if ui.add(egui::TextEdit::singleline(st.betza).desired_width(200.0).font(egui::TextStyle::Monospace)).changed() {
                    match Painter::from_betza(st.betza) {
                        Ok(_) => {
                            *st.error = None;
                            let _ = editor.apply(&Edit::Betza { letter, betza: st.betza.clone() });
                        }
                        Err(e) => *st.error = Some(format!("character {}: {}", e.position, e.message)),
                    }
                }
            });
            if let Some(e) = st.error.as_ref() {
                ui.colored_label(egui::Color32::from_rgb(235, 100, 90), e);
            }
            let mut painter = Painter::from_betza(&spec.betza).unwrap_or_default();
            painter.symmetry = *st.symmetry;
            ui.horizontal(|ui| {
                ui.label("Symmetry:");
                ui.checkbox(&mut st.symmetry.sideways, "left-right");
                ui.checkbox(&mut st.symmetry.forward_backward, "forward-backward");
                ui.checkbox(&mut st.symmetry.all, "all eight");
            });
            painter.symmetry = *st.symmetry;
            let before = painter.clone();
            paint_grid(ui, &mut painter, st.step);
            if let Some((dx, dy)) = *st.step
                && let Some(stroke) = painter.at(dx, dy)
            {
                ui.horizontal(|ui| {
                    ui.label(format!("Step ({dx},{dy}):"));
                    let mut range = stroke.range;
                    ui.label("range");
                    if ui.add(egui::DragValue::new(&mut range).range(0..=16)).on_hover_text("1: one leap; 0: to the edge").changed() {
                        painter.set_range(dx, dy, range);
                    }
                    for (toggle, name, on) in [
                        (Toggle::Ride, "ride", stroke.range != 1),
                        (Toggle::Hop, "hop (p)", stroke.hop == Hop::Any),
                        (Toggle::Grasshop, "hop, land beyond (g)", stroke.hop == Hop::Adjacent),
                        (Toggle::Lame, "lame (n)", stroke.lame),
                        (Toggle::Initial, "first move (i)", stroke.initial),
                        (Toggle::EnPassant, "en passant (e)", stroke.en_passant),
                    ] {
                        if ui.selectable_label(on, name).clicked() {
                            painter.toggle(dx, dy, toggle);
                        }
                    }
                });
            }
            if painter.atoms() != before.atoms() {
                let betza = painter.betza();
                st.betza.clone_from(&betza);
                *st.error = None;
                let _ = editor.apply(&Edit::Betza { letter, betza });
            }
            ui.label("Click a square: moves and captures, then moves only, captures only, nothing. Right-click picks a step without changing it. Green: moves and captures; light green: moves only; red: captures only; small dots: reached by riding; a blue ring: the picked step (its range and toggles below the grid).");
        });
    });
}

/// The painter's grid, 11 × 11 around the piece: a click cycles a step, and picks it.
fn paint_grid(ui: &mut egui::Ui, painter: &mut Painter, step: &mut Option<(i8, i8)>) {
    let n = 11i8;
    let mid = n / 2;
    let cell = 30.0;
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * n as f32, cell * n as f32), egui::Sense::hover());
    let atoms = painter.atoms();
    let reach = crate::rules::diagram(&atoms, n as u8);
    for y in 0..n {
        for x in 0..n {
            let (dx, dy) = (x - mid, mid - y);
            let min = rect.min + egui::vec2(x as f32 * cell, y as f32 * cell);
            let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
            let response = ui.interact(square, ui.id().with(("paint", x, y)), egui::Sense::click());
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
                        egui::FontId::proportional(14.0),
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
            if response.clicked() {
                painter.cycle(dx, dy);
                *step = Some((dx, dy));
            }
            if response.secondary_clicked() {
                *step = Some((dx, dy));
            }
        }
    }
}

type FenField<'a> = (&'a mut String, &'a mut Option<String>, &'a mut bool);

fn start_section(ui: &mut egui::Ui, editor: &mut Editor, palette: &mut Option<String>, (fen, fen_error, editing): FenField) {
    let Ok(grid) = editor.start_grid() else {
        ui.label("The start position does not fit the board: edit the FEN below.");
        fen_field(ui, editor, fen, fen_error, editing);
        return;
    };
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    ui.horizontal_wrapped(|ui| {
        ui.label("Place:");
        for p in &pieces {
            for token in [p.letter.to_string(), p.letter.to_ascii_lowercase().to_string()] {
                if ui.selectable_label(palette.as_deref() == Some(&token), &token).clicked() {
                    *palette = Some(token);
                }
            }
        }
        if ui.selectable_label(palette.is_none(), "clear").clicked() {
            *palette = None;
        }
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
    });
    let (files, ranks) = editor.board_size();
    let cell = (420.0 / files.max(ranks) as f32).min(48.0);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(cell * files as f32, cell * ranks as f32), egui::Sense::hover());
    for rank in 0..ranks {
        for file in 0..files {
            let min = rect.min + egui::vec2(file as f32 * cell, (ranks - 1 - rank) as f32 * cell);
            let square = egui::Rect::from_min_size(min, egui::vec2(cell, cell));
            let dark = (file + rank) % 2 == 0;
            let fill = if dark { egui::Color32::from_rgb(181, 136, 99) } else { egui::Color32::from_rgb(240, 217, 181) };
            ui.painter().rect_filled(square, 0.0, fill);
            if let Some(token) = grid.at(file, rank) {
                let white = crate::editor::start::side_of(token) == Some(crate::rules::Side::White);
                let (disc, ink) =
                    if white { (egui::Color32::WHITE, egui::Color32::BLACK) } else { (egui::Color32::from_gray(30), egui::Color32::WHITE) };
                ui.painter().circle_filled(square.center(), cell * 0.4, disc);
                ui.painter().text(
                    square.center(),
                    egui::Align2::CENTER_CENTER,
                    token.to_ascii_uppercase(),
                    egui::FontId::proportional(cell * 0.5),
                    ink,
                );
            }
            if ui.interact(square, ui.id().with(("start", file, rank)), egui::Sense::click()).clicked() {
                let mirror = editor.mirror;
                let _ = editor.apply(&Edit::Place { file, rank, piece: palette.clone(), mirror });
            }
        }
    }
    fen_field(ui, editor, fen, fen_error, editing);
}

/// The FEN field: applied when it loses the keyboard (Enter, or a click elsewhere): one edit,
/// not one per keystroke.
fn fen_field(ui: &mut egui::Ui, editor: &mut Editor, fen: &mut String, fen_error: &mut Option<String>, editing: &mut bool) {
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
        ui.colored_label(egui::Color32::from_rgb(235, 100, 90), e);
    }
}

fn rules_section(ui: &mut egui::Ui, editor: &mut Editor) {
    ui.label(egui::RichText::new("Presets for every game of the variant").strong());
    egui::Grid::new("editor-presets").num_columns(2).show(ui, |ui| {
        for (i, p) in crate::presets::ALL.iter().enumerate() {
            let mut on = editor.file().presets.as_ref().is_some_and(|ps| ps.iter().any(|u| u.id == p.id));
            if ui.checkbox(&mut on, p.name).on_hover_text(p.description).changed() {
                let _ = editor.apply(&Edit::Preset { id: p.id.to_string(), on });
            }
            if i % 2 == 1 {
                ui.end_row();
            }
        }
    });
    ui.label("Castling, promotion, drops and end conditions: edit them in the RON section for now.");
}

fn ron_section(ui: &mut egui::Ui, editor: &mut Editor, ron: &mut String, error: &mut Option<String>, dirty: &mut bool) {
    ui.horizontal(|ui| {
        if ui.button("Apply the text").clicked() {
            match editor.set_ron(ron) {
                Ok(_) => {
                    *error = None;
                    *dirty = false;
                }
                Err(e) => *error = Some(e.to_string()),
            }
        }
        if ui.button("Revert").clicked() {
            *ron = editor.ron();
            *error = None;
            *dirty = false;
        }
        if *dirty {
            ui.label(egui::RichText::new("changed: Apply the text to use it (Save writes the definition, not the text)").weak());
        }
    });
    if let Some(e) = error.as_ref() {
        ui.colored_label(egui::Color32::from_rgb(235, 100, 90), e);
    }
    if ui.add(egui::TextEdit::multiline(ron).font(egui::TextStyle::Monospace).desired_width(f32::INFINITY).desired_rows(24)).changed() {
        *dirty = true;
    }
}
