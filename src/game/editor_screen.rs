//! The variant editor's screen (issue 13): a view of [`crate::editor::Editor`].
//!
//! Sections ([`Section`]): Board (size, how it is drawn, named regions painted square by
//! square with a drag, per side where it matters), Pieces (the list with each piece's image,
//! the library of every catalogue piece, and the move painter for the piece picked with its
//! Betza field in step both ways; letter, name, image, royal, pawn, promotion, castling roles,
//! confinement and region moves), Start position (the board painted from a palette by clicks
//! or drags, pieces dragged about or off it, pockets, a copy of another variant's start, a
//! Chess960-style shuffle, its FEN field in step), Rules ([`super::editor_rules`]), RON (the
//! whole definition as text). Every edit can be undone (Ctrl+Z, Ctrl+Y; a drag or a typed
//! name is one step); the problems of the definition are listed under the sections after
//! every edit, each with its code and field, and beside the field itself. Test-play starts a
//! game of the variant as it stands, hot-seat or against the computer, and keeps the editor
//! (with its history) to come back to; Save writes it to the user's variants directory, Save
//! as… and Open file… use an in-game file browser.
//!
//! Reached from the start screen ("Edit a copy…", "New variant…", "Open file…") and by
//! `chimera --editor [<id|file.ron>]`.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::screens::PieceTextures;
use crate::editor::painter::{Painter, Symmetry, Toggle};
use crate::editor::{Edit, Editor, Section};
use crate::rules::{Hop, Mode, Side};
use crate::variants::{PieceSpec, Problem, RegionSpec, VariantFile};

/// Red for errors beside a field.
pub(super) const ERROR: egui::Color32 = egui::Color32::from_rgb(235, 100, 90);
/// Amber for warnings.
pub(super) const WARNING: egui::Color32 = egui::Color32::from_rgb(230, 190, 80);

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

/// What the file browser is choosing a file for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BrowseFor {
    /// A variant file to open in the editor.
    Open,
    /// Where to save the variant.
    SaveAs,
}

/// The in-game file browser.
#[derive(Clone, Debug)]
struct Browser {
    purpose: BrowseFor,
    dir: PathBuf,
    name: String,
    error: Option<String>,
    /// A file chosen that would overwrite a file or throw away changes, waiting for a yes.
    confirm: Option<PathBuf>,
}

/// The editor's screen state (shown on [`super::Screen::Editor`]).
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
    /// The piece library's filter, while the library is shown.
    library: Option<String>,
    /// Who plays a test game, and the computer's level.
    opponent: TestOpponent,
    level: u8,
    browser: Option<Browser>,
    /// The rules section's own state.
    pub(super) rules: super::editor_rules::RulesState,
    /// The file opened whose text did not parse, until its text applies.
    broken: Option<PathBuf>,
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
            library: None,
            opponent: TestOpponent::HotSeat,
            level: 3,
            browser: None,
            rules: Default::default(),
            broken: None,
        }
    }
}

impl EditorScreen {
    /// Puts `editor` in the editor (keeping who plays its test games); the caller shows the
    /// editor's screen.
    pub fn open_on(&mut self, editor: Editor) {
        let (opponent, level) = (self.opponent, self.level);
        *self = EditorScreen { editor: Some(editor), opponent, level, ..EditorScreen::default() };
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

/// The file browser, to open a variant file.
fn open_browser() -> Browser {
    Browser { purpose: BrowseFor::Open, dir: browse_start(), name: String::new(), error: None, confirm: None }
}

/// Where the file browser starts: the user's variants, else the working directory.
fn browse_start() -> PathBuf {
    crate::editor::variants_dir().filter(|d| d.is_dir()).or_else(|| std::env::current_dir().ok()).unwrap_or_else(|| PathBuf::from("."))
}

/// Starts a game of the variant being edited.
#[derive(Message, Clone, Copy, Debug)]
pub struct TestPlay;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditorScreen>();
    app.add_message::<TestPlay>();
    app.add_systems(bevy_egui::EguiPrimaryContextPass, (editor_screen.run_if(in_state(super::Screen::Editor)), file_browser).chain());
    // Before the game's steps, which wait for the game's screen.
    app.add_systems(Update, test_play.before(super::GameSystems::Input));
}

/// A new variant: a copy of chess named "New variant" (with nothing to undo).
fn new_variant() -> Result<Editor, String> {
    let mut file = Editor::copy_of("chess").map_err(|e| e.to_string())?.file().clone();
    file.name = Some("New variant".into());
    // Chess's words do not describe it.
    file.description = None;
    file.rules_summary = None;
    Ok(Editor::new(file))
}

fn test_play(world: &mut World) {
    if world.resource_mut::<Messages<TestPlay>>().drain().count() == 0 {
        return;
    }
    let Some(file) = world.resource::<EditorScreen>().editor.as_ref().map(|e| e.file().clone()) else { return };
    // A test game has no clocks.
    world.resource_mut::<super::clocks::Clocks>().control = None;
    let result = crate::variants::compile_playable(&file).map_err(|e| e.to_string()).and_then(|variant| {
        let set = crate::presets::requested_by(&variant);
        // A label no file answers to, so a rematch plays this definition, not a file of that
        // name that happens to be in the working directory.
        super::start_variant(world, &format!("(editor)/{}.ron", file.id), Some(file.clone()), variant, set)
    });
    match result {
        Ok(()) => {
            super::after_new_game(world);
            let (opponent, level) = {
                let screen = world.resource::<EditorScreen>();
                (screen.opponent, Some(screen.level))
            };
            let mut computer = world.resource_mut::<super::computer::ComputerPlay>();
            computer.cancel();
            computer.sides = match opponent {
                TestOpponent::HotSeat => [None, None],
                TestOpponent::ComputerBlack => [None, level],
                TestOpponent::ComputerWhite => [level, None],
            };
            world.resource_mut::<super::board::BoardView>().bottom =
                if opponent == TestOpponent::ComputerWhite { Side::Black } else { Side::White };
            world.resource_mut::<NextState<super::Screen>>().set(super::Screen::Game);
        }
        Err(e) => world.resource_mut::<EditorScreen>().notice = Some(format!("cannot play it yet: {e}")),
    }
}

/// Problems at exactly `path` (not its children, which their own fields show).
pub(super) fn exact_problems(ui: &mut egui::Ui, problems: &[Problem], path: &str) {
    for p in problems.iter().filter(|p| p.path == path) {
        let colour = if p.code.as_str().starts_with("W_") { WARNING } else { ERROR };
        ui.label(egui::RichText::new(format!("{}: {}", p.code, p.message)).color(colour).small());
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
        let colour = if p.code.as_str().starts_with("W_") { WARNING } else { ERROR };
        ui.label(egui::RichText::new(format!("{}: {}", p.code, p.message)).color(colour).small());
    }
}

fn editor_screen(
    mut contexts: EguiContexts,
    mut screen: ResMut<EditorScreen>,
    mut play: MessageWriter<TestPlay>,
    mut start: ResMut<super::screens::StartScreen>,
    textures: Res<PieceTextures>,
    mut next: ResMut<NextState<super::Screen>>,
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
        screen.problems = editor.problems();
        screen.compiled = crate::variants::compile_playable(editor.file()).ok();
        screen.values = screen
            .compiled
            .as_ref()
            .map(|v| {
                let eval = crate::ai::Evaluator::new(v);
                v.registry.ids().map(|k| (v.registry.def(k).letter, eval.value(k))).collect()
            })
            .unwrap_or_default();
        screen.synced = Some(editor.file().clone());
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
                if ui.add(egui::TextEdit::singleline(&mut name).desired_width(260.0)).changed() {
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
                egui::ComboBox::from_id_salt("test-opponent").selected_text(who).show_ui(ui, |ui| {
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
                                start.forget_catalogue();
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
            if let Some(n) = &screen.notice {
                ui.label(egui::RichText::new(n).color(egui::Color32::from_rgb(240, 190, 90)));
            }
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
            egui::ScrollArea::vertical().id_salt("section").max_height(height).show(ui, |ui| match screen.section {
                Section::Board => board_section(
                    ui,
                    editor,
                    BoardState {
                        size: &mut screen.size,
                        notice: &mut screen.notice,
                        region: &mut screen.region,
                        region_name: &mut screen.region_name,
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
                    },
                    &screen.values,
                    &textures,
                    &problems,
                ),
                Section::Start => start_section(
                    ui,
                    editor,
                    &mut screen.palette,
                    (&mut screen.fen, &mut screen.fen_error, &mut screen.fen_editing),
                    &textures,
                    &problems,
                ),
                Section::Rules => super::editor_rules::rules_section(ui, editor, &mut screen.rules, screen.compiled.as_ref(), &problems),
                Section::Ron => {
                    ron_section(ui, editor, &mut screen.ron, (&mut screen.ron_error, &mut screen.ron_dirty, &mut screen.broken))
                }
            });
            ui.separator();
            // The problems, each with its code and field; a click goes to its section.
            if problems.is_empty() {
                ui.label(egui::RichText::new("No problems: the variant plays.").color(egui::Color32::from_rgb(120, 200, 120)));
            }
            egui::ScrollArea::vertical().id_salt("problems").max_height(130.0).show(ui, |ui| {
                for p in &problems {
                    let colour = if p.code.as_str().starts_with("W_") { WARNING } else { ERROR };
                    let text = format!("{}  {}: {}", p.code, if p.path.is_empty() { "(file)" } else { &p.path }, p.message);
                    if ui.add(egui::Label::new(egui::RichText::new(text).color(colour)).sense(egui::Sense::click())).clicked() {
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
        next.set(super::Screen::Game);
    }
    Ok(())
}

/// The in-game file browser: a folder's sub-folders and variant files, a name field, and
/// Open or Save.
fn file_browser(
    mut contexts: EguiContexts,
    mut screen: ResMut<EditorScreen>,
    mut start: ResMut<super::screens::StartScreen>,
    mut next: ResMut<NextState<super::Screen>>,
) -> Result {
    let Some(mut browser) = screen.browser.clone() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let title = match browser.purpose {
        BrowseFor::Open => "Open a variant file",
        BrowseFor::SaveAs => "Save the variant as",
    };
    let mut done = false;
    let mut chosen: Option<PathBuf> = None;
    let mut confirmed: Option<PathBuf> = None;
    let window = egui::Window::new(title).order(egui::Order::Foreground).collapsible(false).resizable(false);
    window.default_width(520.0).anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0]).show(ctx, |ui| {
        ui.horizontal(|ui| {
            if ui.button("Up").clicked()
                && let Some(parent) = browser.dir.parent()
            {
                browser.dir = parent.to_path_buf();
            }
            if let Some(dir) = crate::editor::variants_dir()
                && ui.button("My variants").clicked()
            {
                let _ = std::fs::create_dir_all(&dir);
                browser.dir = dir;
            }
            if let Ok(here) = std::env::current_dir()
                && ui.button("Working folder").clicked()
            {
                browser.dir = here;
            }
        });
        ui.label(egui::RichText::new(browser.dir.display().to_string()).monospace());
        egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| match crate::editor::browse::listing(&browser.dir, &["ron"]) {
            Ok(entries) => {
                if entries.is_empty() {
                    ui.label(egui::RichText::new("No folders or .ron files here.").weak());
                }
                for e in entries {
                    let label = if e.is_dir { format!("{}/", e.name) } else { e.name.clone() };
                    let response = ui.selectable_label(!e.is_dir && browser.name == e.name, label);
                    if response.clicked() {
                        if e.is_dir {
                            browser.dir = browser.dir.join(&e.name);
                        } else {
                            browser.name = e.name.clone();
                        }
                    }
                    if response.double_clicked() && !e.is_dir {
                        chosen = Some(browser.dir.join(&e.name));
                    }
                }
            }
            Err(e) => {
                ui.colored_label(ERROR, e);
            }
        });
        ui.horizontal(|ui| {
            ui.label("File");
            let field = ui.add(egui::TextEdit::singleline(&mut browser.name).desired_width(300.0));
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let verb = if browser.purpose == BrowseFor::Open { "Open" } else { "Save" };
            if ui.button(verb).clicked() || enter {
                chosen = crate::editor::browse::typed_path(&browser.dir, &browser.name);
            }
            if ui.button("Cancel").clicked() {
                done = true;
            }
        });
        if let Some(e) = &browser.error {
            ui.colored_label(ERROR, e);
        }
        // Nothing is overwritten or thrown away without a second word.
        if let Some(path) = browser.confirm.clone() {
            ui.horizontal(|ui| {
                let (question, verb) = match browser.purpose {
                    BrowseFor::SaveAs => (format!("{} exists.", path.display()), "Replace it"),
                    BrowseFor::Open => ("The variant being edited has changes not saved.".to_string(), "Discard them and open"),
                };
                ui.colored_label(WARNING, question);
                if ui.button(verb).clicked() {
                    confirmed = Some(path.clone());
                }
                if ui.button("Keep").clicked() {
                    browser.confirm = None;
                }
            });
        }
    });
    let screen = &mut *screen;
    if let Some(path) = &chosen {
        let risky = match browser.purpose {
            BrowseFor::SaveAs => path.exists(),
            BrowseFor::Open => screen.editor.as_ref().is_some_and(Editor::has_unsaved_changes),
        };
        if risky {
            browser.confirm = chosen.take();
        }
    }
    if let Some(path) = confirmed.or(chosen) {
        let result = match browser.purpose {
            BrowseFor::Open => screen.open_file(&path).map(|()| next.set(super::Screen::Editor)),
            BrowseFor::SaveAs => match screen.editor.as_mut() {
                Some(editor) => editor.save_as(&path).map(|()| {
                    screen.notice = Some(format!("saved to {}", path.display()));
                    start.forget_catalogue();
                }),
                None => Err("nothing to save".into()),
            },
        };
        match result {
            Ok(()) => done = true,
            Err(e) => browser.error = Some(e),
        }
    }
    // Opening a file replaced the screen's state (and its browser); saving keeps it.
    screen.browser = if done { None } else { Some(browser) };
    Ok(())
}

/// The board section's own state, borrowed from the screen.
struct BoardState<'a> {
    size: &'a mut Option<(u8, u8)>,
    /// Where a refused edit says why.
    notice: &'a mut Option<String>,
    region: &'a mut Option<String>,
    region_name: &'a mut String,
}

/// A region's definition in words.
fn region_words(spec: &RegionSpec, squares: usize) -> String {
    match spec {
        RegionSpec::Rect(a, b) => format!("the rectangle {a}–{b} ({squares} squares)"),
        RegionSpec::Squares(_) => format!("{squares} squares"),
        RegionSpec::Union(names) => format!("all of {} ({squares} squares)", names.join(", ")),
        RegionSpec::Intersection(names) => format!("where {} meet ({squares} squares)", names.join(", ")),
        RegionSpec::PerSide { white, black } => format!("white's '{white}', black's '{black}'"),
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

fn board_section(ui: &mut egui::Ui, editor: &mut Editor, st: BoardState, textures: &PieceTextures, problems: &[Problem]) {
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
fn region_board(ui: &mut egui::Ui, editor: &mut Editor, st: &BoardState, textures: &PieceTextures) {
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

struct PieceState<'a> {
    /// Where a refused edit says why.
    notice: &'a mut Option<String>,
    piece: &'a mut Option<char>,
    step: &'a mut Option<(i8, i8)>,
    symmetry: &'a mut Symmetry,
    betza: &'a mut String,
    error: &'a mut Option<String>,
    library: &'a mut Option<String>,
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
    match textures.of_spec(spec, side) {
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
            painter.text(rect.center(), egui::Align2::CENTER_CENTER, spec.letter, egui::FontId::proportional(rect.width() * 0.5), ink);
        }
    }
}

/// The spec a FEN token is a piece of (its letter), if the variant has it.
fn spec_of<'a>(pieces: &'a [PieceSpec], token: &str) -> Option<&'a PieceSpec> {
    let letter = token.chars().find(char::is_ascii_alphabetic)?.to_ascii_uppercase();
    pieces.iter().find(|p| p.letter == letter)
}

fn pieces_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    st: PieceState,
    values: &[(char, i32)],
    textures: &PieceTextures,
    problems: &[Problem],
) {
    let pieces = editor.file().pieces.clone().unwrap_or_default();
    ui.horizontal_top(|ui| {
        // The piece types.
        ui.vertical(|ui| {
            ui.set_width(250.0);
            for p in &pieces {
                ui.horizontal(|ui| {
                    piece_icon(ui, textures, p, Side::White, 22.0, egui::Sense::hover());
                    let label = format!("{}  {}  {}", p.letter, p.name, p.betza);
                    if ui.selectable_label(*st.piece == Some(p.letter), label).clicked() {
                        *st.piece = Some(p.letter);
                        st.betza.clone_from(&p.betza);
                        *st.error = None;
                        *st.step = None;
                        *st.library = None;
                    }
                });
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
                    let _ = editor.apply(&Edit::Piece(spec));
                    *st.piece = Some(letter);
                    *st.betza = "W".into();
                    *st.library = None;
                }
                if ui.add_enabled(free.is_some(), egui::Button::new("From the library…")).clicked() {
                    *st.library = Some(String::new());
                }
            });
        });
        ui.separator();
        if let Some(filter) = st.library.as_mut() {
            if let Some(letter) = library(ui, editor, filter, textures) {
                *st.piece = Some(letter);
                *st.library = None;
                *st.step = None;
                if let Some(p) = editor.file().pieces.iter().flatten().find(|p| p.letter == letter) {
                    st.betza.clone_from(&p.betza);
                }
            }
            return;
        }
        let Some(letter) = *st.piece else {
            ui.label("Pick a piece on the left.");
            return;
        };
        let Some(spec) = pieces.iter().find(|p| p.letter == letter).cloned() else { return };
        ui.vertical(|ui| piece_form(ui, editor, st, &spec, &pieces, values, textures, problems));
    });
}

/// The catalogue's pieces, worked out once (the catalogue is built in).
fn library_pieces() -> &'static [crate::editor::LibraryPiece] {
    static LIBRARY: std::sync::OnceLock<Vec<crate::editor::LibraryPiece>> = std::sync::OnceLock::new();
    LIBRARY.get_or_init(crate::editor::piece_library)
}

/// The catalogue's starts for a board size, worked out once per size.
fn catalogue_starts(files: u8, ranks: u8) -> Vec<(String, String, String)> {
    type Starts = std::collections::BTreeMap<(u8, u8), Vec<(String, String, String)>>;
    static STARTS: std::sync::OnceLock<std::sync::Mutex<Starts>> = std::sync::OnceLock::new();
    let mut starts = STARTS.get_or_init(Default::default).lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    starts.entry((files, ranks)).or_insert_with(|| crate::editor::catalogue_starts(files, ranks)).clone()
}

/// The library: every piece of the catalogue, with its image and move diagram; Add puts it in
/// the variant under its own letter if that is free. Returns the letter of a piece added.
fn library(ui: &mut egui::Ui, editor: &mut Editor, filter: &mut String, textures: &PieceTextures) -> Option<char> {
    let mut added = None;
    ui.vertical(|ui| {
        ui.horizontal(|ui| {
            ui.label(egui::RichText::new("The library: every piece of the catalogue").strong());
            ui.add(egui::TextEdit::singleline(filter).hint_text("search: name, Betza or variant").desired_width(200.0));
        });
        let needle = filter.to_lowercase();
        let library = library_pieces();
        egui::Grid::new("piece-library").num_columns(4).striped(true).show(ui, |ui| {
            for l in library.iter().filter(|l| {
                needle.is_empty()
                    || l.spec.name.contains(&needle)
                    || l.spec.betza.to_lowercase().contains(&needle)
                    || l.variants.iter().any(|v| v.to_lowercase().contains(&needle))
            }) {
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
fn piece_form(
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
        piece_icon(ui, textures, spec, Side::White, 40.0, egui::Sense::hover());
        piece_icon(ui, textures, spec, Side::Black, 40.0, egui::Sense::hover());
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
                    set(editor, PieceSpec { name, ..spec.clone() }, "name");
                }
                let image = super::pieces::image_for(&spec.name, &spec.betza, spec.glyph.as_deref());
                let shown = match (&spec.glyph, image) {
                    (None, Some(i)) => format!("by its name ({i})"),
                    (None, None) => "a disc with its letter".to_string(),
                    (Some(g), _) => g.clone(),
                };
                egui::ComboBox::from_label("image").selected_text(shown).height(400.0).show_ui(ui, |ui| {
                    let mut glyph = spec.glyph.clone();
                    ui.selectable_value(&mut glyph, None, "by its name and moves");
                    for name in super::pieces::image_names() {
                        ui.horizontal(|ui| {
                            if let Some(tex) = textures.named(name, Side::White) {
                                ui.add(egui::Image::new((tex, egui::vec2(20.0, 20.0))));
                            }
                            ui.selectable_value(&mut glyph, Some(name.to_string()), name);
                        });
                    }
                    if glyph != spec.glyph {
                        let _ = editor.apply(&Edit::Piece(PieceSpec { glyph, ..spec.clone() }));
                    }
                });
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
        match values.iter().find(|(l, _)| *l == letter) {
            Some((_, v)) => ui.label(format!("Value, as the computer estimates it from its moves: {v}")),
            None => ui.label("Value: once the variant plays"),
        };
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
            ui.label("First-move (i) steps from ranks").on_hover_text("1 is its own back rank; commas between");
            let now = spec.initial_ranks.clone().unwrap_or_else(|| vec![2]);
            if let Some(ranks) = ranks_field(ui, egui::Id::new(("initial-ranks", letter)), &now, 60.0) {
                // Rank 2, or nothing typed: the default.
                let initial_ranks = (!ranks.is_empty() && ranks != [2]).then_some(ranks);
                set(editor, PieceSpec { initial_ranks, ..spec.clone() }, "initial_ranks");
            }
        }
        let shown = spec.confined.clone().unwrap_or_else(|| "anywhere".into());
        egui::ComboBox::from_label("moves within").selected_text(shown).show_ui(ui, |ui| {
            let mut confined = spec.confined.clone();
            ui.selectable_value(&mut confined, None, "anywhere");
            for r in &regions {
                ui.selectable_value(&mut confined, Some(r.clone()), r);
            }
            if confined != spec.confined {
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
            if region != spec.region_moves.as_ref().map(|rm| rm.region.clone()) {
                let betza = spec.region_moves.as_ref().map_or(spec.betza.clone(), |rm| rm.betza.clone());
                let region_moves = region.map(|region| crate::variants::RegionMoves { region, betza });
                let _ = editor.apply(&Edit::Piece(PieceSpec { region_moves, ..spec.clone() }));
            }
        });
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
            match Painter::from_betza(st.betza) {
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
    let mut painter = Painter::from_betza(&spec.betza).unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Symmetry:");
        ui.checkbox(&mut st.symmetry.sideways, "left-right");
        ui.checkbox(&mut st.symmetry.forward_backward, "forward-backward");
        ui.checkbox(&mut st.symmetry.all, "all eight");
    });
    painter.symmetry = *st.symmetry;
    let before = painter.clone();
    // Around the piece as far as the board reaches (11 to 21 squares across).
    let (files, ranks) = editor.board_size();
    let n = (2 * i16::from(files.max(ranks)) - 1).clamp(11, 21) as i8;
    diagram_grid(ui, &mut painter, st.step, true, (420.0 / f32::from(n)).min(30.0), n);
    if let Some((dx, dy)) = *st.step
        && let Some(stroke) = painter.at(dx, dy)
    {
        ui.horizontal(|ui| {
            ui.label(format!("Step ({dx},{dy}):"));
            let mut range = stroke.range;
            ui.label("range");
            if ui
                .add(egui::DragValue::new(&mut range).clamp_existing_to_range(false).range(0..=16))
                .on_hover_text("1: one leap; 0: to the edge")
                .changed()
            {
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
    ui.label("Click a square: moves and captures, then moves only, captures only, nothing. Right-click picks a step without changing it. Green: moves and captures; light green: moves only; red: captures only; small dots: reached by riding; a blue ring: the picked step (its range and toggles below the grid). A double step from the start is a first-move (i) step of range 2; en passant (e) lets it be taken as it passes.");
}

/// The painter's grid, `n` × `n` around the piece (`n` odd), `cell` points a square: with
/// `edit`, a click cycles a step and picks it; without, it only shows the diagram.
fn diagram_grid(ui: &mut egui::Ui, painter: &mut Painter, step: &mut Option<(i8, i8)>, edit: bool, cell: f32, n: i8) {
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

/// What is dragged in the start position: a piece (its FEN token) from the palette, a square
/// or a pocket.
#[derive(Clone, Debug)]
struct StartDrag {
    token: String,
    from: DragFrom,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DragFrom {
    Palette,
    Square(u8, u8),
    Pocket,
}

type FenField<'a> = (&'a mut String, &'a mut Option<String>, &'a mut bool);

fn start_section(
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
                let drag = StartDrag { token: token.clone(), from: DragFrom::Palette };
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
            if let Some(token) = grid.at(file, rank) {
                let side = crate::editor::start::side_of(token).unwrap_or(Side::White);
                let dragged = egui::DragAndDrop::payload::<StartDrag>(ui.ctx()).is_some_and(|d| d.from == DragFrom::Square(file, rank));
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
                    response.dnd_set_drag_payload(StartDrag { token: token.to_string(), from: DragFrom::Square(file, rank) });
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
                drop_on_square(editor, &grid, &drag, Some((file, rank)));
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
            drop_on_square(editor, &grid, &drag, None);
        }
    }
    fen_field(ui, editor, fen, fen_error, editing);
    field_problems(ui, problems, "start");
}

/// A piece dragged onto a square (or off the board, `None`): a palette piece is placed
/// (mirrored when asked), a piece on the board moves (or leaves it), a piece from a pocket
/// comes out of it.
fn drop_on_square(editor: &mut Editor, grid: &crate::editor::start::StartGrid, drag: &StartDrag, to: Option<(u8, u8)>) {
    let mirror = editor.mirror;
    let mut g = grid.clone();
    match drag.from {
        DragFrom::Palette => {
            if let Some((file, rank)) = to {
                g.set(file, rank, Some(&drag.token), mirror);
            }
        }
        DragFrom::Square(file, rank) => {
            if to == Some((file, rank)) {
                return;
            }
            // With mirroring, a piece and its mirror image move as a pair; a piece without one
            // (Horde's, Orda's) moves alone, and nothing else is cleared.
            let (_, ranks) = editor.board_size();
            let other = ranks - 1 - rank;
            // (A pair does not land on the middle rank of an odd board, its own mirror: there the
            // piece moves alone and its partner stays.)
            let lands_alone = to.is_some_and(|(_, r)| r == ranks - 1 - r);
            let pair = mirror
                && other != rank
                && !lands_alone
                && grid.at(file, other) == Some(crate::editor::start::swap_side(&drag.token).as_str());
            g.set(file, rank, None, pair);
            if let Some((f, r)) = to {
                g.set(f, r, Some(&drag.token), pair);
            }
        }
        DragFrom::Pocket => {
            let letter = drag.token.chars().next().unwrap_or(' ');
            g.take_from_pocket(letter);
            if let Some((f, r)) = to {
                // A piece it lands on goes to its owner's hand.
                if let Some(displaced) = g.at(f, r).and_then(|t| t.chars().find(char::is_ascii_alphabetic)) {
                    g.add_to_pocket(displaced);
                }
                g.set(f, r, Some(&drag.token), false);
            }
        }
    }
    let _ = editor.apply(&Edit::Start(g.fen()));
}

/// The pockets: each side's pieces in hand (a click takes one out; dragging one onto the board
/// drops it there), and a drop zone to put pieces in.
fn pockets_row(
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
                let drag = StartDrag { token: c.to_string(), from: DragFrom::Pocket };
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
        let letter = drag.token.chars().find(char::is_ascii_alphabetic).unwrap_or(' ');
        match drag.from {
            DragFrom::Palette => {
                let _ = editor.apply(&Edit::Pocket { letter, on: true });
            }
            DragFrom::Square(file, rank) => {
                let mut g = grid.clone();
                g.set(file, rank, None, false);
                g.add_to_pocket(letter);
                let _ = editor.apply(&Edit::Start(g.fen()));
            }
            DragFrom::Pocket => {}
        }
    }
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
        ui.colored_label(ERROR, e);
    }
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
    let mut description = editor.file().description.clone().unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Description");
        if ui.add(egui::TextEdit::singleline(&mut description).desired_width(700.0)).changed() {
            let _ = editor.apply_merged(&Edit::Description(description), "description");
        }
    });
    if ui.add(egui::TextEdit::multiline(ron).font(egui::TextStyle::Monospace).desired_width(f32::INFINITY).desired_rows(24)).changed() {
        *dirty = true;
    }
}
