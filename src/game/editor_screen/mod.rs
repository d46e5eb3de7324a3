//! The variant editor's screen (issue 13): a view of [`crate::editor::Editor`].
//!
//! Sections ([`Section`]): Board (size, how it is drawn, named regions painted square by
//! square with a drag, per side where it matters), Pieces (the list with each piece's image,
//! its moves drawn small and said in words; the library of every catalogue piece; "Like a…"
//! starting points by picture; the move painter in plain words for the piece picked, with its
//! Betza field in step both ways; letter, name, its picture (the [`picture`] picker: every
//! built-in picture by plain name, or the designer's own PNG or SVG), value with the
//! computer's estimate beside it, royal, pawn, promotion, castling roles, confinement and
//! region moves), Start position (the board painted from a palette by clicks or drags, pieces
//! dragged about or off it, pockets, a copy of another variant's start, a Chess960-style
//! shuffle, its FEN field in step), Rules ([`rules`], with ready-made ways to win), RON (the
//! whole definition as text); beside every section, the variant as it stands (its start
//! position, its description and its rules in words); one file each (`board`, `pieces`,
//! `start`, `rules`, `picture`, and the file `browser`). Wherever a region is asked for (an
//! end condition, a piece's confinement or region moves), "New region…" makes one and goes to
//! the board to paint it, then back. Every edit can be undone (Ctrl+Z, Ctrl+Y; a drag or a
//! typed name is one step); the problems of the definition are listed under the sections after
//! every edit, each with its code and field, and beside the field itself. Test-play starts a
//! game of the variant as it stands, hot-seat or against the computer, and keeps the editor
//! (with its history) to come back to; Save writes it (and its pictures, beside it) to the
//! user's variants directory, Save as… and Open file… use an in-game file browser.
//!
//! Reached from the start screen ("Edit a copy…", "New variant…", "Open file…"), from the
//! game's panel, and by `chimera --editor [<id|file.ron>]`; Close goes back to where it was
//! opened from (its own test game is not such a place).

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

mod actions;
mod balance;
mod board;
mod browser;
mod picture;
mod pieces;
mod rules;
mod start;

use board::{BoardState, board_section};
use browser::{BrowseFor, Browser, browse_start, file_browser, open_browser};
use picture::{Picker, picture_picker};
use pieces::{PieceState, pieces_section};
use start::start_section;

use super::pieces::{PieceImages, PieceTextures, WantedPictures};
use super::shared::{BoardView, Clocks, ComputerPlay, GameSystems, Screen, VariantsChanged, after_new_game, start_definition};
use crate::editor::painter::{Painter, Reach, Symmetry};
use crate::editor::{Edit, Editor, Section};
use crate::rules::{Hop, Mode, Side};
use crate::variants::{PieceSpec, Problem, RegionSpec, VariantFile};

/// Red for errors beside a field.
pub(super) const ERROR: egui::Color32 = egui::Color32::from_rgb(235, 100, 90);
/// Amber for warnings.
pub(super) const WARNING: egui::Color32 = egui::Color32::from_rgb(230, 190, 80);
/// Green for what went as asked.
pub(super) const DONE: egui::Color32 = egui::Color32::from_rgb(130, 200, 130);

/// Who plays a test game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TestOpponent {
    /// Two people at one machine.
    #[default]
    HotSeat,
    /// The computer plays black.
    ComputerBlack,
    /// The computer plays white.
    ComputerWhite,
}

/// The editor's screen state (shown on [`Screen::Editor`]).
#[derive(Resource)]
pub struct EditorScreen {
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
    problems: Vec<Problem>,
    /// Each piece's value as the computer's evaluation estimates it, by letter.
    values: Vec<(char, i32)>,
    /// The compiled variant, when the definition compiles (for the profile's forms).
    compiled: Option<crate::rules::Variant>,
    palette: Option<String>,
    notice: Option<String>,
    /// The definition the text fields were last filled from.
    synced: Option<VariantFile>,
    /// The region picked in the board section, painted by clicks and drags.
    region: Option<String>,
    /// The name field for a new or renamed region.
    region_name: String,
    /// The region picked was made for this section (Rules or Pieces), which the board section
    /// offers to go back to.
    back_to: Option<Section>,
    /// The piece library's filter, while the library is shown.
    library: Option<String>,
    /// "Like a …" adds a piece's moves instead of replacing them.
    like_adds: bool,
    /// The rules in words of the last version that compiled.
    words: Option<String>,
    /// The name field takes the keyboard with its text selected (a new variant: type its name),
    /// asked again for this many frames (a new egui area is not shown on its first).
    name_focus: u8,
    /// Where Close goes: the screen the editor was opened from (a test game is not one).
    return_to: Screen,
    /// A test game of this editor's variant is being played.
    testing: bool,
    /// Who plays a test game, and the computer's level.
    opponent: TestOpponent,
    level: u8,
    browser: Option<Browser>,
    /// The picture picker, while it is open.
    picker: Option<Picker>,
    /// A region made by the Pieces section ("New region…"), to be painted.
    paint: Option<String>,
    /// A region made by the Actions section, to be painted.
    actions_paint: Option<String>,
    /// The folder pictures were last imported from.
    picture_dir: Option<PathBuf>,
    /// The rules section's own state.
    pub(super) rules: rules::RulesState,
    /// The file opened whose text did not parse, until its text applies.
    broken: Option<PathBuf>,
    /// The balance section's own state: its settings, a run under way, and results.
    balance: balance::BalanceState,
}

impl Default for EditorScreen {
    fn default() -> EditorScreen {
        EditorScreen {
            editor: None,
            section: Section::default(),
            piece: None,
            step: None,
            symmetry: Symmetry::default(),
            betza: String::new(),
            betza_error: None,
            fen: String::new(),
            fen_error: None,
            ron: String::new(),
            ron_error: None,
            ron_dirty: false,
            fen_editing: false,
            size: None,
            problems: Vec::new(),
            values: Vec::new(),
            compiled: None,
            palette: None,
            notice: None,
            synced: None,
            region: None,
            region_name: String::new(),
            back_to: None,
            library: None,
            like_adds: false,
            words: None,
            name_focus: 0,
            return_to: Screen::Start,
            testing: false,
            opponent: TestOpponent::HotSeat,
            level: 3,
            browser: None,
            picker: None,
            paint: None,
            actions_paint: None,
            picture_dir: None,
            rules: Default::default(),
            broken: None,
            balance: Default::default(),
        }
    }
}

impl EditorScreen {
    /// Puts `editor` in the editor (keeping who plays its test games); the caller shows the
    /// editor's screen.
    pub fn open_on(&mut self, editor: Editor) {
        let (opponent, level, return_to) = (self.opponent, self.level, self.return_to);
        *self = EditorScreen { editor: Some(editor), opponent, level, return_to, ..EditorScreen::default() };
    }

    /// Opens the editor on `what`: a new variant (empty), a variant file (`.ron`, see
    /// [`EditorScreen::open_file`]), a section of a Fairy-Stockfish ini file converted
    /// (`file.ini:section`, a new variant until saved), or a copy of a built-in by id.
    ///
    /// # Errors
    /// No such variant, or a file that cannot be read.
    pub fn open(&mut self, what: &str) -> Result<(), String> {
        if let Some((path, section)) = crate::variants::fairy::ini_spec(what) {
            let file = crate::variants::fairy::import_section(std::path::Path::new(path), section)?;
            self.open_on(Editor::new(file));
            return Ok(());
        }
        if what.ends_with(".ron") {
            return self.open_file(std::path::Path::new(what));
        }
        let editor = if what.is_empty() { new_variant()? } else { Editor::copy_of(what).map_err(|e| e.to_string())? };
        self.open_on(editor);
        // A new variant asks for its name first: typing replaces "New variant".
        self.name_focus = if what.is_empty() { 3 } else { 0 };
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
                // Save writes back to it once its text applies (until then, Save makes a copy).
                self.broken = Some(path.to_path_buf());
                self.section = Section::Ron;
                self.ron = text;
                self.ron_dirty = true;
                self.ron_error = Some(format!("{} does not parse: {e}", path.display()));
            }
        }
        Ok(())
    }

    /// Shows the file browser to open a variant file (over the editor or the start screen; the
    /// editor shows once a file opens).
    pub fn browse_to_open(&mut self) {
        self.browser = Some(open_browser());
    }
}

/// Starts a game of the variant being edited.
#[derive(Message, Clone, Copy, Debug)]
pub struct TestPlay;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditorScreen>();
    app.add_message::<TestPlay>();
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (editor_screen.run_if(in_state(Screen::Editor)), picture_picker.run_if(in_state(Screen::Editor)), file_browser).chain(),
    );
    // Before the game's steps, which wait for the game's screen.
    app.add_systems(Update, test_play.before(GameSystems::Input));
    app.add_systems(OnEnter(Screen::Editor), remember_origin);
    // The start screen leaves the test game behind: opened from the game after it, the editor
    // goes back to the game.
    app.add_systems(OnEnter(Screen::Start), |mut screen: ResMut<EditorScreen>| screen.testing = false);
}

/// Remembers the screen the editor was opened from, for Close: coming back from its own test
/// game keeps where it was opened from.
fn remember_origin(mut transitions: MessageReader<StateTransitionEvent<Screen>>, mut screen: ResMut<EditorScreen>) {
    let Some(last) = transitions.read().last() else { return };
    let from = last.exited.filter(|s| *s != Screen::Editor).unwrap_or(Screen::Start);
    if !(from == Screen::Game && screen.testing) {
        screen.return_to = from;
    }
    screen.testing = false;
}

/// A new variant: a copy of chess named "New variant" (with nothing to undo).
fn new_variant() -> Result<Editor, String> {
    let mut file = Editor::copy_of("chess").map_err(|e| e.to_string())?.file().clone();
    file.name = Some("New variant".into());
    Ok(Editor::new(file))
}

fn test_play(world: &mut World) {
    if world.resource_mut::<Messages<TestPlay>>().drain().count() == 0 {
        return;
    }
    let Some(file) = world.resource::<EditorScreen>().editor.as_ref().map(|e| e.file().clone()) else { return };
    // A test game has no clocks.
    world.resource_mut::<Clocks>().control = None;
    let result =
        crate::variants::compile(&file).map_err(|e| e.to_string()).and_then(crate::presets::GameDefinition::new).and_then(|definition| {
            // A label no file answers to, so a rematch plays this definition, not a file of that
            // name that happens to be in the working directory.
            let label = format!("(editor)/{}.ron", file.id);
            let from = crate::presets::Start::New(&mut |n| rand::random_range(0..n));
            start_definition(world, &label, Some(file.clone()), &definition, from)
        });
    match result {
        Ok(()) => {
            after_new_game(world);
            let (opponent, level) = {
                let screen = world.resource::<EditorScreen>();
                (screen.opponent, Some(screen.level))
            };
            let mut computer = world.resource_mut::<ComputerPlay>();
            computer.cancel();
            computer.sides = match opponent {
                TestOpponent::HotSeat => [None, None],
                TestOpponent::ComputerBlack => [None, level],
                TestOpponent::ComputerWhite => [level, None],
            };
            world.resource_mut::<BoardView>().bottom = if opponent == TestOpponent::ComputerWhite { Side::Black } else { Side::White };
            world.resource_mut::<EditorScreen>().testing = true;
            world.resource_mut::<NextState<Screen>>().set(Screen::Game);
        }
        Err(e) => world.resource_mut::<EditorScreen>().notice = Some(format!("cannot play it yet: {e}")),
    }
}

/// A problem's colour, by its severity.
fn colour_of(p: &Problem) -> egui::Color32 {
    match p.severity {
        crate::variants::Severity::Warning => WARNING,
        crate::variants::Severity::Error => ERROR,
    }
}

/// One problem beside its field: code and message.
fn problem_line(ui: &mut egui::Ui, p: &Problem) {
    ui.label(egui::RichText::new(format!("{}: {}", p.code, p.message)).color(colour_of(p)).small());
}

/// Problems at exactly `path` (not its children, which their own fields show).
pub(super) fn exact_problems(ui: &mut egui::Ui, problems: &[Problem], path: &str) {
    for p in problems.iter().filter(|p| p.path == path) {
        problem_line(ui, p);
    }
}

/// A text field for a list of ranks (`1, 8`): the text typed is kept while the field has the
/// keyboard (a comma typed stays), and read into ranks whenever it changes. Returns the ranks
/// when the text changed.
pub(super) fn ranks_field(ui: &mut egui::Ui, id: egui::Id, ranks: &[u8], width: f32) -> Option<Vec<u8>> {
    let kept = id.with("typed");
    let shown = ranks.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
    let mut text = ui.data_mut(|d| d.get_temp::<String>(kept)).unwrap_or(shown);
    let field = ui.add(egui::TextEdit::singleline(&mut text).id(id).desired_width(width));
    let out = field.changed().then(|| text.split([',', ' ']).filter_map(|t| t.trim().parse().ok()).collect());
    if field.has_focus() {
        ui.data_mut(|d| d.insert_temp(kept, text));
    } else {
        ui.data_mut(|d| d.remove::<String>(kept));
    }
    out
}

/// Problems whose key path starts with `prefix` (a key, or a key and its index), shown in
/// their colours beside the field they belong to.
pub(super) fn field_problems(ui: &mut egui::Ui, problems: &[Problem], prefix: &str) {
    for p in problems
        .iter()
        .filter(|p| p.path == prefix || p.path.strip_prefix(prefix).is_some_and(|rest| rest.starts_with('.') || rest.starts_with('[')))
    {
        problem_line(ui, p);
    }
}

fn editor_screen(
    mut contexts: EguiContexts,
    mut screen: ResMut<EditorScreen>,
    mut play: MessageWriter<TestPlay>,
    mut variants_changed: MessageWriter<VariantsChanged>,
    (mut textures, images, mut wanted): (ResMut<PieceTextures>, Res<PieceImages>, ResMut<WantedPictures>),
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let screen = &mut *screen;
    let Some(editor) = screen.editor.as_mut() else { return Ok(()) };
    // A gesture ends when no button is held and no field has the keyboard.
    let (pointer_down, typing) = (ctx.input(|i| i.pointer.any_down()), ctx.memory(|m| m.focused().is_some()));
    if !pointer_down && !typing {
        editor.seal();
    }
    // Ctrl+Z and Ctrl+Y (or Ctrl+Shift+Z), when no text field has the keyboard.
    if !typing {
        let (undo, redo) = ctx.input(|i| {
            let z = i.modifiers.command && i.key_pressed(egui::Key::Z);
            (z && !i.modifiers.shift, (z && i.modifiers.shift) || (i.modifiers.command && i.key_pressed(egui::Key::Y)))
        });
        if undo {
            editor.undo();
        }
        if redo {
            editor.redo();
        }
    }
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
        (screen.problems, screen.compiled) = editor.check();
        // A description that is the rules in words follows them.
        let words = screen.compiled.as_ref().map(crate::rules::describe_rules);
        if let (Some(before), Some(now)) = (&screen.words, &words) {
            editor.follow_words(before, now);
        }
        if words.is_some() {
            screen.words = words;
        }
        screen.values = screen
            .compiled
            .as_ref()
            .map(|v| {
                let eval = crate::ai::Evaluator::new(v);
                v.registry.ids().map(|k| (v.registry.def(k).letter, eval.value(k))).collect()
            })
            .unwrap_or_default();
        screen.balance.rules_changed(screen.compiled.as_ref());
        screen.synced = Some(editor.file().clone());
        // The pieces' own pictures: drawn (by the next frame) and found by their paths.
        wanted.want(editor.file(), &images);
        textures.editing(editor.file());
        // The Pieces section opens on a piece, not on an empty pane.
        if screen.piece.is_none_or(|l| !editor.file().pieces.iter().flatten().any(|p| p.letter == l))
            && let Some(first) = editor.file().pieces.iter().flatten().next()
        {
            screen.piece = Some(first.letter);
            screen.betza.clone_from(&first.betza);
            screen.symmetry = Painter::from_betza(&first.betza).map(|p| Symmetry::of(&p)).unwrap_or_default();
        }
        // The size fields show the definition's size again (after an undo, say).
        screen.size = None;
    }
    let mirror_before = editor.mirror;
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
                let name_id = egui::Id::new("variant-name");
                if screen.name_focus > 0 && !ui.memory(|m| m.has_focus(name_id)) {
                    let mut state = egui::text_edit::TextEditState::load(ui.ctx(), name_id).unwrap_or_default();
                    let all = egui::text::CCursorRange::two(egui::text::CCursor::new(0), egui::text::CCursor::new(name.chars().count()));
                    state.cursor.set_char_range(Some(all));
                    state.store(ui.ctx(), name_id);
                    ui.memory_mut(|m| m.request_focus(name_id));
                }
                screen.name_focus = screen.name_focus.saturating_sub(1);
                if ui.add(egui::TextEdit::singleline(&mut name).id(name_id).desired_width(260.0)).changed() {
                    let _ = editor.apply_merged(&Edit::Name(name), "name");
                }
                if ui.add_enabled(editor.can_undo(), egui::Button::new("Undo")).on_hover_text("Ctrl+Z").clicked() {
                    editor.undo();
                }
                if ui.add_enabled(editor.can_redo(), egui::Button::new("Redo")).on_hover_text("Ctrl+Y").clicked() {
                    editor.redo();
                }
                if ui
                    .add_enabled(!screen.ron_dirty, egui::Button::new("Test-play"))
                    .on_hover_text("Play it as it stands; the editor keeps every edit")
                    .on_disabled_hover_text("Apply or revert the RON text first")
                    .clicked()
                {
                    play.write(TestPlay);
                }
                let who = match screen.opponent {
                    TestOpponent::HotSeat => "hot-seat".to_string(),
                    TestOpponent::ComputerBlack => format!("vs computer (black, level {})", screen.level),
                    TestOpponent::ComputerWhite => format!("vs computer (white, level {})", screen.level),
                };
                // Of one width whatever it shows, so the buttons after it stay put.
                egui::ComboBox::from_id_salt("test-opponent").width(230.0).selected_text(who).show_ui(ui, |ui| {
                    ui.selectable_value(&mut screen.opponent, TestOpponent::HotSeat, "Two players (hot-seat)");
                    ui.selectable_value(&mut screen.opponent, TestOpponent::ComputerBlack, "The computer plays black");
                    ui.selectable_value(&mut screen.opponent, TestOpponent::ComputerWhite, "The computer plays white");
                    ui.add(egui::Slider::new(&mut screen.level, 1..=crate::ai::MAX_LEVEL).text("level"));
                });
                if ui
                    .add_enabled(!screen.ron_dirty, egui::Button::new("Save"))
                    .on_hover_text("To my variants (listed on the start screen)")
                    .on_disabled_hover_text("Apply or revert the RON text first")
                    .clicked()
                {
                    screen.notice = Some(match crate::editor::variants_dir() {
                        Some(dir) => match editor.save_in(&dir) {
                            Ok(path) => {
                                // The start screen lists it from now on.
                                variants_changed.write(VariantsChanged(Some(path.clone())));
                                format!("saved to {}", path.display())
                            }
                            Err(e) => e,
                        },
                        None => "no directory to save variants in (HOME is not set)".into(),
                    });
                }
                if ui.add_enabled(!screen.ron_dirty, egui::Button::new("Save as…")).clicked() {
                    let dir = editor.saved_as().and_then(|p| p.parent()).map(PathBuf::from).unwrap_or_else(browse_start);
                    screen.browser = Some(Browser {
                        purpose: BrowseFor::SaveAs,
                        dir,
                        name: format!("{}.ron", editor.file().id),
                        error: None,
                        confirm: None,
                        ini: None,
                    });
                }
                if ui.button("Open file…").clicked() {
                    screen.browser = Some(open_browser());
                }
                if ui.button("Copy RON").clicked() {
                    ui.ctx().copy_text(editor.ron());
                    screen.notice = Some("the definition is on the clipboard as RON".into());
                }
                if ui.button("Close").clicked() {
                    close = true;
                }
            });
            // One line for the notice, there or not, so nothing below moves when one shows.
            ui.allocate_ui_with_layout(egui::vec2(ui.available_width(), 18.0), egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.set_min_height(18.0);
                if let Some(n) = &screen.notice {
                    ui.add(egui::Label::new(egui::RichText::new(n).color(egui::Color32::from_rgb(240, 190, 90))).truncate());
                }
            });
            for key in ["id", "name", "extends", ""] {
                exact_problems(ui, &screen.problems, key);
            }
            ui.separator();
            ui.horizontal(|ui| {
                for s in Section::ALL {
                    ui.selectable_value(&mut screen.section, s, s.title());
                }
            });
            ui.separator();
            let problems = screen.problems.clone();
            let height = (ui.available_height() - 150.0).max(200.0);
            let painting_for = screen.back_to;
            // The section's forms, and beside them the variant as it stands (its board, its
            // description and its rules in words), in every section.
            // Each in a rectangle of its own, so a wide form never pushes the preview aside.
            let whole = egui::Rect::from_min_size(ui.cursor().min, egui::vec2(ui.available_width(), height));
            let form_rect = egui::Rect::from_min_max(whole.min, egui::pos2(whole.max.x - PREVIEW_WIDTH - 16.0, whole.max.y));
            let preview_rect = egui::Rect::from_min_max(egui::pos2(whole.max.x - PREVIEW_WIDTH, whole.min.y), whole.max);
            ui.painter().vline(form_rect.max.x + 8.0, whole.y_range(), ui.visuals().widgets.noninteractive.bg_stroke);
            {
                let ui = &mut ui.new_child(egui::UiBuilder::new().max_rect(form_rect));
                ui.set_clip_rect(form_rect);
                egui::ScrollArea::vertical().id_salt("section").max_height(height).auto_shrink([false, false]).show(ui, |ui| match screen
                    .section
                {
                    Section::Board => board_section(
                        ui,
                        editor,
                        BoardState {
                            size: &mut screen.size,
                            notice: &mut screen.notice,
                            region: &mut screen.region,
                            region_name: &mut screen.region_name,
                            back_to: &mut screen.back_to,
                        },
                        &textures,
                        &problems,
                    ),
                    Section::Pieces => pieces_section(
                        ui,
                        editor,
                        PieceState {
                            notice: &mut screen.notice,
                            piece: &mut screen.piece,
                            step: &mut screen.step,
                            symmetry: &mut screen.symmetry,
                            betza: &mut screen.betza,
                            error: &mut screen.betza_error,
                            library: &mut screen.library,
                            like_adds: &mut screen.like_adds,
                            picker: &mut screen.picker,
                            paint: &mut screen.paint,
                        },
                        &screen.values,
                        &textures,
                        &problems,
                        screen.compiled.as_ref(),
                    ),
                    Section::Start => start_section(
                        ui,
                        editor,
                        &mut screen.palette,
                        (&mut screen.fen, &mut screen.fen_error, &mut screen.fen_editing),
                        &textures,
                        &problems,
                    ),
                    Section::Rules => rules::rules_section(ui, editor, &mut screen.rules, screen.compiled.as_ref(), &problems),
                    Section::Actions => {
                        actions::actions_section(ui, editor, screen.compiled.as_ref(), &problems, &mut screen.actions_paint)
                    }
                    Section::Balance => balance::balance_section(ui, editor, &mut screen.balance, screen.compiled.as_ref()),
                    Section::Ron => {
                        ron_section(ui, editor, &mut screen.ron, (&mut screen.ron_error, &mut screen.ron_dirty, &mut screen.broken))
                    }
                });
            }
            let ui_preview = &mut ui.new_child(egui::UiBuilder::new().max_rect(preview_rect));
            egui::ScrollArea::vertical().id_salt("preview").max_height(height).show(ui_preview, |ui| {
                preview_column(ui, editor, screen.compiled.as_ref(), &textures);
            });
            // The two rectangles' room, taken in one piece whatever they hold.
            ui.allocate_rect(whole, egui::Sense::hover());
            // A region made for an end condition, a piece or an action is painted on the board, then back
            // to the section it was made for.
            let made = match (screen.rules.paint.take(), screen.paint.take(), screen.actions_paint.take()) {
                (Some(name), ..) => Some((name, Section::Rules)),
                (None, Some(name), _) => Some((name, Section::Pieces)),
                (None, None, Some(name)) => Some((name, Section::Actions)),
                (None, None, None) => None,
            };
            if let Some((name, from)) = made {
                screen.section = Section::Board;
                screen.region = Some(name.clone());
                screen.region_name = name;
                screen.back_to = Some(from);
            } else if let Some(from) = painting_for
                && screen.back_to.is_none()
            {
                screen.section = from;
            }
            ui.separator();
            // The problems, each with its code and field; a click goes to its section.
            if problems.is_empty() {
                ui.label(egui::RichText::new("No problems: the variant plays.").color(egui::Color32::from_rgb(120, 200, 120)));
            }
            egui::ScrollArea::vertical().id_salt("problems").max_height(130.0).show(ui, |ui| {
                for p in &problems {
                    let text = format!("{}  {}: {}", p.code, if p.path.is_empty() { "(file)" } else { &p.path }, p.message);
                    if ui.add(egui::Label::new(egui::RichText::new(text).color(colour_of(p))).sense(egui::Sense::click())).clicked() {
                        screen.section = Section::of(&p.path);
                        if let Some(letter) = p.path.strip_prefix("pieces[").and_then(|r| r.chars().next()) {
                            screen.piece = Some(letter);
                            screen.synced = None;
                        }
                        if let Some(name) = p.path.strip_prefix("regions.") {
                            screen.region = Some(name.to_string());
                        }
                    }
                }
            });
        });
    });
    // The mirror switch changes the problems (a start that does not mirror is warned of).
    if screen.editor.as_ref().is_some_and(|e| e.mirror != mirror_before) {
        screen.synced = None;
    }
    if close {
        next.set(screen.return_to);
    }
    Ok(())
}

/// The width of the column beside every section that shows the variant as it stands.
const PREVIEW_WIDTH: f32 = 320.0;

/// The variant as it stands: its start position, its description (edited here) and its rules
/// in words, as players will see them.
fn preview_column(ui: &mut egui::Ui, editor: &mut Editor, compiled: Option<&crate::rules::Variant>, textures: &PieceTextures) {
    match compiled {
        Some(v) => super::pictures::board_preview(ui, v, textures, PREVIEW_WIDTH - 20.0),
        None => {
            ui.label("The board shows here once the definition has no errors.");
        }
    }
    ui.add_space(4.0);
    ui.label(egui::RichText::new("Description").strong()).on_hover_text("Shown with the variant on the start screen");
    let mut description = editor.file().description.clone().unwrap_or_default();
    let field = egui::TextEdit::multiline(&mut description).desired_rows(4).desired_width(PREVIEW_WIDTH - 20.0);
    if ui.add(field).changed() {
        let _ = editor.apply_merged(&Edit::Description(description.clone()), "description");
    }
    if let Some(v) = compiled {
        let words = crate::rules::describe_rules(v);
        if ui
            .add_enabled(description != words, egui::Button::new("Use the rules in words"))
            .on_hover_text("Put the paragraph below in the description")
            .clicked()
        {
            let _ = editor.apply(&Edit::Description(words.clone()));
        }
        if description != words {
            ui.label(egui::RichText::new("The rules in words").strong());
            ui.label(egui::RichText::new(words).small());
        }
    }
}

/// A board of `files` × `ranks` drawn `cell` points a square, rank 1 at the bottom; returns its
/// rectangle and a function from a point to the square under it.
fn draw_squares(
    ui: &mut egui::Ui,
    files: u8,
    ranks: u8,
    cell: f32,
    sense: egui::Sense,
) -> (egui::Response, impl Fn(egui::Pos2) -> Option<(u8, u8)> + use<>) {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(cell * files as f32, cell * ranks as f32), sense);
    for rank in 0..ranks {
        for file in 0..files {
            let square = square_rect(rect, ranks, cell, file, rank);
            let dark = (file + rank) % 2 == 0;
            let fill = if dark { egui::Color32::from_rgb(181, 136, 99) } else { egui::Color32::from_rgb(240, 217, 181) };
            ui.painter().rect_filled(square, 0.0, fill);
        }
    }
    let min = rect.min;
    let at = move |p: egui::Pos2| {
        let (x, y) = ((p.x - min.x) / cell, (p.y - min.y) / cell);
        (x >= 0.0 && y >= 0.0 && x < files as f32 && y < ranks as f32).then(|| (x as u8, ranks - 1 - y as u8))
    };
    (response, at)
}

fn square_rect(board: egui::Rect, ranks: u8, cell: f32, file: u8, rank: u8) -> egui::Rect {
    let min = board.min + egui::vec2(file as f32 * cell, (ranks - 1 - rank) as f32 * cell);
    egui::Rect::from_min_size(min, egui::vec2(cell, cell))
}

/// The "New region…" item of a list of regions: when clicked, the name for the new region (one
/// not among `regions`), which the caller makes and sends to the board to be painted.
fn new_region_item(ui: &mut egui::Ui, regions: &[String]) -> Option<String> {
    let item = ui.selectable_label(false, "New region…").on_hover_text("Make a region and paint its squares on the board");
    item.clicked().then(|| crate::editor::free_region_name("region", regions))
}

/// A piece's image (or a lettered disc) `size` points wide.
fn piece_icon(ui: &mut egui::Ui, textures: &PieceTextures, spec: &PieceSpec, side: Side, size: f32, sense: egui::Sense) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), sense);
    // On a light square, so black's pieces show on the dark panel.
    ui.painter().rect_filled(rect, 3.0, egui::Color32::from_rgb(240, 217, 181));
    paint_piece(ui.painter(), textures, spec, side, rect);
    response
}

/// Draws a piece in `rect`: its image, or a disc with its letter.
fn paint_piece(painter: &egui::Painter, textures: &PieceTextures, spec: &PieceSpec, side: Side, rect: egui::Rect) {
    super::pictures::paint_piece_picture(painter, textures.of_spec(spec, side), spec.letter, side, rect);
}

/// The spec a FEN token is a piece of (its letter), if the variant has it.
fn spec_of<'a>(pieces: &'a [PieceSpec], token: &str) -> Option<&'a PieceSpec> {
    let letter = token.chars().find(char::is_ascii_alphabetic)?.to_ascii_uppercase();
    pieces.iter().find(|p| p.letter == letter)
}

/// The RON section's state: the error, whether the text was changed and not applied, and the
/// file it came from when that did not parse.
type RonState<'a> = (&'a mut Option<String>, &'a mut bool, &'a mut Option<PathBuf>);

fn ron_section(ui: &mut egui::Ui, editor: &mut Editor, ron: &mut String, (error, dirty, broken): RonState) {
    ui.horizontal(|ui| {
        if ui.button("Apply the text").clicked() {
            let applied = match broken.as_deref() {
                Some(path) => editor.set_ron_for(ron, path),
                None => editor.set_ron(ron),
            };
            match applied {
                Ok(_) => {
                    *error = None;
                    *dirty = false;
                    *broken = None;
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
        ui.colored_label(ERROR, e);
    }
    if ui.add(egui::TextEdit::multiline(ron).font(egui::TextStyle::Monospace).desired_width(f32::INFINITY).desired_rows(24)).changed() {
        *dirty = true;
    }
}
