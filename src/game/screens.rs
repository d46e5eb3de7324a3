//! The start screen: pick a variant by searching its name or description, see its start
//! position and its rules and pieces in words, tick presets with their descriptions, choose who
//! plays (hot-seat, against the computer as white, black or at random, or computer against
//! computer, with a level), or resume the autosaved game.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};

use super::pictures::{board_preview, rules_in_words};
use super::pieces::PieceTextures;
use super::shared::{NewGame, PANEL_WIDTH, Screen, Seating, VariantsChanged};
use crate::presets::ALL;
use crate::rules::{Side, Variant};

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Opponent {
    /// Two players at one machine.
    #[default]
    HotSeat,
    /// A person against the computer.
    Computer,
    /// The computer against itself, to watch.
    Watch,
}

/// The colour a person takes against the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PlayAs {
    /// White.
    #[default]
    White,
    /// Black.
    Black,
    /// Drawn at random when the game starts.
    Random,
}

impl Default for StartScreen {
    fn default() -> StartScreen {
        StartScreen {
            search: String::new(),
            selected: None,
            show_selected: false,
            presets: Vec::new(),
            opponent: Opponent::HotSeat,
            play_as: PlayAs::White,
            level: 3,
            pace: 1.0,
            unfinished: Vec::new(),
            catalogue: Vec::new(),
            unplayable: Vec::new(),
            confirm_open: None,
            clock: ClockChoice::default(),
        }
    }
}

/// The start screen's clock: off, or a kind and its figures, suggested for the variant picked
/// until the player changes them.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockChoice {
    /// Clocks on.
    pub on: bool,
    /// The kind of control.
    pub kind: crate::clock::Kind,
    /// Main time in minutes.
    pub minutes: f64,
    /// Increment, delay or period, in seconds.
    pub seconds: f64,
    /// Byo-yomi periods.
    pub periods: u32,
    /// The variant the figures were suggested for; `None` once the player changed them.
    pub suggested_for: Option<String>,
}

impl Default for ClockChoice {
    fn default() -> ClockChoice {
        ClockChoice {
            on: false,
            kind: crate::clock::Kind::Fischer,
            minutes: 5.0,
            seconds: 3.0,
            periods: 1,
            suggested_for: Some(String::new()),
        }
    }
}

impl ClockChoice {
    /// The figures `control` has.
    fn set(&mut self, control: crate::clock::TimeControl) {
        self.kind = control.kind();
        self.minutes = control.base().as_secs_f64() / 60.0;
        self.seconds = control.extra().as_secs_f64();
        self.periods = control.periods().max(1);
    }

    /// The control chosen, or `None` with clocks off.
    ///
    /// # Errors
    /// Figures out of range.
    pub fn control(&self) -> Result<Option<crate::clock::TimeControl>, String> {
        if !self.on {
            return Ok(None);
        }
        let d = |x: f64| std::time::Duration::from_millis((x.max(0.0) * 1000.0).round() as u64);
        let control = crate::clock::TimeControl::of(self.kind, d(self.minutes * 60.0), d(self.seconds), self.periods);
        control.validate().map(|()| Some(control)).map_err(|why| format!("The clock needs {why}."))
    }
}

/// The start screen's state.
#[derive(Resource)]
pub struct StartScreen {
    /// The search text.
    pub search: String,
    /// The variant picked.
    pub selected: Option<String>,
    /// The presets ticked.
    pub presets: Vec<&'static str>,
    /// Hot-seat, against the computer, or computer against computer.
    pub opponent: Opponent,
    /// The person's colour against the computer.
    pub play_as: PlayAs,
    /// The computer's level, 1–8.
    pub level: u8,
    /// Seconds between moves when the computer plays both sides.
    pub pace: f32,
    /// The unfinished games offered for resuming, newest first: the autosave, and what it is
    /// or why it does not read.
    pub unfinished: Vec<(std::path::PathBuf, Result<String, String>)>,
    /// Variants loaded for browsing: id, compiled variant.
    catalogue: Vec<(String, Variant)>,
    /// My variants that do not load (saved with problems): file, name, why.
    unplayable: Vec<(std::path::PathBuf, String, String)>,
    /// What was to open in the editor while it holds changes not saved (waiting for a yes).
    confirm_open: Option<String>,
    /// The clocks chosen.
    pub clock: ClockChoice,
    /// The list scrolls to the variant picked (one just saved) when next shown.
    show_selected: bool,
}

impl StartScreen {
    /// Makes the variant list be read again (a variant was saved).
    pub fn forget_catalogue(&mut self) {
        self.catalogue.clear();
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StartScreen>();
    // A variant saved in the editor is listed from then on, and picked (and scrolled to).
    app.add_systems(Update, |mut changed: MessageReader<VariantsChanged>, mut screen: ResMut<StartScreen>| {
        let mut any = false;
        for VariantsChanged(saved) in changed.read() {
            any = true;
            if let Some(path) = saved {
                screen.selected = Some(path.display().to_string());
                screen.show_selected = true;
            }
        }
        if any {
            screen.forget_catalogue();
        }
    });
    app.add_systems(bevy_egui::EguiPrimaryContextPass, start_screen.run_if(in_state(Screen::Start)));
    // The unfinished games (not the one on the board), read again each time the screen opens.
    app.add_systems(OnEnter(Screen::Start), |mut screen: ResMut<StartScreen>, autosave: Option<Res<super::files::Autosave>>| {
        let Some(autosave) = autosave else { return };
        let mut games = autosave.dir.as_deref().map(super::files::unfinished_games).unwrap_or_default();
        games.retain(|(p, _)| Some(p.as_path()) != autosave.current_file());
        screen.unfinished = games;
    });
}

/// The new-game window's height, fixed so that it keeps its size and place whatever it shows
/// (the variant list and the picked variant's pane take what room the rest leaves).
const WINDOW_HEIGHT: f32 = 650.0;

/// The room the search field takes above the variant list.
const SEARCH: f32 = 28.0;

/// The room the row with Play takes below the picked variant's pane.
const FOOTER: f32 = 40.0;

/// The side of the picked variant's preview board, and the height of its text beside it.
const PREVIEW: f32 = 180.0;

/// The catalogue's entries that match `text` (by name, id or description), best first: names
/// that start with it, then names with a word that starts with it, then names, ids and
/// descriptions that contain it; in catalogue order within each. All of them for no text.
pub fn search(catalogue: &[(String, Variant)], text: &str) -> Vec<usize> {
    let needle = text.trim().to_lowercase();
    let rank = |id: &str, v: &Variant| -> Option<u8> {
        let name = v.name.to_lowercase();
        if needle.is_empty() || name.starts_with(&needle) {
            Some(0)
        } else if name.split(|c: char| !c.is_alphanumeric()).any(|w| w.starts_with(&needle)) {
            Some(1)
        } else if name.contains(&needle) {
            Some(2)
        } else if id.to_lowercase().contains(&needle) {
            Some(3)
        } else if v.description.to_lowercase().contains(&needle) {
            Some(4)
        } else {
            None
        }
    };
    let mut hits: Vec<(u8, usize)> = catalogue.iter().enumerate().filter_map(|(i, (id, v))| Some((rank(id, v)?, i))).collect();
    hits.sort();
    hits.into_iter().map(|(_, i)| i).collect()
}

fn start_screen(
    mut contexts: EguiContexts,
    mut screen: ResMut<StartScreen>,
    (textures, images, mut wanted): (Res<PieceTextures>, Res<super::pieces::PieceImages>, ResMut<super::pieces::WantedPictures>),
    mut new_game: MessageWriter<NewGame>,
    mut actions: MessageWriter<super::files::GameAction>,
    mut editor: ResMut<super::editor_screen::EditorScreen>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    if screen.catalogue.is_empty() {
        screen.catalogue =
            crate::variants::builtin_ids().filter_map(|id| crate::variants::builtin(id).ok().map(|v| (id.to_string(), v))).collect();
        // My variants (saved by the editor), listed after the built-ins by their file.
        if let Some(dir) = crate::editor::variants_dir() {
            screen.unplayable.clear();
            for (path, name) in crate::editor::my_variants(&dir) {
                match crate::variants::load_path(&path).and_then(|v| crate::variants::playable(&v).map(|_| v)) {
                    Ok(mut v) => {
                        // Its pieces' own pictures, for the preview (read again, with the
                        // file, only for a variant that has some).
                        let pictured = v.registry.types.iter().any(|d| d.pictures.iter().any(Option::is_some));
                        if pictured && let Ok(file) = crate::variants::resolve_path(&path) {
                            wanted.want(&file, &images);
                        }
                        v.name = format!("{} (mine)", v.name);
                        screen.catalogue.push((path.display().to_string(), v));
                    }
                    // Listed too, to be opened in the editor with its problems.
                    Err(e) => {
                        let name = name.unwrap_or_else(|_| path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
                        screen.unplayable.push((path.clone(), name, e.to_string()));
                    }
                }
            }
        }
    }
    let ctx = contexts.ctx_mut()?;
    let screen = &mut *screen;
    let mut open = true;
    // The screen to go to when this one is done with.
    let mut to: Option<Screen> = None;
    // What to open in the editor (a new variant: empty; a built-in's id; a file), and whether
    // the editor's changes not saved may go.
    let mut open_in_editor: Option<String> = None;
    let mut discard = false;
    egui::Window::new("New game")
        .collapsible(false)
        .resizable(false)
        .fixed_size([800.0, WINDOW_HEIGHT])
        .anchor(egui::Align2::CENTER_CENTER, [-(PANEL_WIDTH / 2.0), 0.0])
        .open(&mut open)
        .show(ctx, |ui| {
            // The unfinished games, newest first.
            if !screen.unfinished.is_empty() {
                let mut resumed = None;
                ui.label(egui::RichText::new("Unfinished games").strong());
                for (path, offer) in &screen.unfinished {
                    match offer {
                        Ok(summary) => {
                            ui.horizontal(|ui| {
                                if ui.button("Resume").clicked() {
                                    resumed = Some(path.clone());
                                }
                                ui.label(summary);
                            });
                        }
                        Err(why) => {
                            ui.colored_label(egui::Color32::from_rgb(220, 120, 60), why);
                        }
                    }
                }
                if let Some(path) = resumed {
                    actions.write(super::files::GameAction::Resume(path.clone()));
                    screen.unfinished.retain(|(p, _)| *p != path);
                    to = Some(Screen::Game);
                    return;
                }
                ui.separator();
            }
            // The list and the picked variant's pane fill the room the unfinished games leave.
            let room = ui.available_height();
            ui.horizontal_top(|ui| {
                // The variant list, searchable.
                ui.vertical(|ui| {
                    ui.set_width(230.0);
                    ui.add(egui::TextEdit::singleline(&mut screen.search).hint_text("Search variants"));
                    let hits = search(&screen.catalogue, &screen.search);
                    // The variant picked is one of those shown: the best match once it is filtered out.
                    if !hits.is_empty() && !hits.iter().any(|&i| screen.selected.as_deref() == Some(screen.catalogue[i].0.as_str())) {
                        screen.selected = Some(screen.catalogue[hits[0]].0.clone());
                    }
                    let mut show = screen.show_selected;
                    egui::ScrollArea::vertical().id_salt("variants").auto_shrink([false, false]).max_height(room - SEARCH).show(ui, |ui| {
                        for &i in &hits {
                            let (id, v) = &screen.catalogue[i];
                            let row = ui.selectable_label(screen.selected.as_deref() == Some(id), &v.name);
                            if row.clicked() {
                                screen.selected = Some(id.clone());
                            }
                            if screen.show_selected && screen.selected.as_deref() == Some(id) {
                                row.scroll_to_me(Some(egui::Align::Center));
                                show = false;
                            }
                        }
                        for (path, name, why) in &screen.unplayable {
                            let label = egui::RichText::new(format!("{name} (mine, to fix)")).color(egui::Color32::from_rgb(220, 120, 60));
                            if ui
                                .selectable_label(false, label)
                                .on_hover_text(format!("{why}\nClick to open it in the variant editor"))
                                .clicked()
                            {
                                open_in_editor = Some(path.display().to_string());
                            }
                        }
                    });
                    screen.show_selected = show;
                });
                ui.separator();
                // The variant picked: preview, description, presets, sides, clocks (scrolled in
                // a pane of fixed size), and below it, always in sight, Play.
                ui.vertical(|ui| {
                    let pane = egui::ScrollArea::vertical().id_salt("picked").auto_shrink([false, false]).max_height(room - FOOTER);
                    pane.show(ui, |ui| {
                        ui.vertical(|ui| {
                            let Some(id) = screen.selected.clone() else {
                                ui.label("Pick a variant on the left.");
                                return;
                            };
                            let Some((_, v)) = screen.catalogue.iter().find(|(i, _)| *i == id) else { return };
                            ui.heading(&v.name);
                            // Of one height whatever the variant, so that the presets and Play below
                            // stay where they are from one variant to the next.
                            ui.horizontal_top(|ui| {
                                board_preview(ui, v, &textures, PREVIEW);
                                ui.vertical(|ui| {
                                    ui.set_width(270.0);
                                    ui.set_height(PREVIEW);
                                    let top = ui.cursor().top();
                                    ui.label(egui::RichText::new(&v.description).italics());
                                    let left = PREVIEW - (ui.cursor().top() - top);
                                    egui::ScrollArea::vertical().id_salt("summary").max_height(left.max(40.0)).show(ui, |ui| {
                                        if !v.rules_summary.is_empty() {
                                            ui.label(&v.rules_summary);
                                        }
                                        rules_in_words(ui, v, &textures);
                                    });
                                });
                            });
                            ui.separator();
                            ui.label(egui::RichText::new("Presets").strong())
                                .on_hover_text("Rules to add to the variant; hover one for what it does");
                            // Every preset in sight, three to a row; the ones written as data
                            // (`data-presets/`) folded below them.
                            let mut grid = |ui: &mut egui::Ui, id: &str, list: &[&'static crate::presets::PresetDef]| {
                                egui::Grid::new(id).num_columns(3).show(ui, |ui| {
                                    for (i, p) in list.iter().enumerate() {
                                        let mut on = screen.presets.contains(&p.id);
                                        if ui.checkbox(&mut on, p.name).on_hover_text(p.description).changed() {
                                            if on {
                                                screen.presets.push(p.id);
                                            } else {
                                                screen.presets.retain(|x| *x != p.id);
                                            }
                                        }
                                        if i % 3 == 2 {
                                            ui.end_row();
                                        }
                                    }
                                });
                            };
                            grid(ui, "preset-grid", ALL);
                            let data: Vec<&'static crate::presets::PresetDef> = crate::presets::data::all().iter().map(|d| d.def).collect();
                            egui::CollapsingHeader::new(format!("Written as data ({})", data.len()))
                                .id_salt("data-presets")
                                .show(ui, |ui| grid(ui, "data-preset-grid", &data))
                                .header_response
                                .on_hover_text("The same rules written as files of actions (data-presets/): examples for your own");
                            ui.separator();
                            ui.horizontal(|ui| {
                                ui.radio_value(&mut screen.opponent, Opponent::HotSeat, "Two players (hot-seat)");
                                ui.radio_value(&mut screen.opponent, Opponent::Computer, "Against the computer");
                                ui.radio_value(&mut screen.opponent, Opponent::Watch, "Computer against computer");
                            });
                            // The computer's row stays (dimmed for two players), so that Play does not
                            // move under the pointer as the choice above changes.
                            ui.add_enabled_ui(screen.opponent != Opponent::HotSeat, |ui| {
                                ui.horizontal(|ui| {
                                    if screen.opponent != Opponent::Watch {
                                        ui.label("Play as");
                                        ui.radio_value(&mut screen.play_as, PlayAs::White, "White");
                                        ui.radio_value(&mut screen.play_as, PlayAs::Black, "Black");
                                        ui.radio_value(&mut screen.play_as, PlayAs::Random, "Random");
                                        ui.separator();
                                    }
                                    ui.add(egui::Slider::new(&mut screen.level, 1..=crate::ai::MAX_LEVEL).text("level"))
                                        .on_hover_text("1 is for beginners; 8 searches as deep as it can in about a second");
                                    if screen.opponent == Opponent::Watch {
                                        ui.add(egui::Slider::new(&mut screen.pace, 0.0..=5.0).text("s a move"));
                                    }
                                });
                            });
                            ui.separator();
                            clock_picker(ui, &mut screen.clock, &id, v);
                            if let Err(why) = screen.clock.control() {
                                ui.colored_label(egui::Color32::from_rgb(220, 120, 60), why);
                            }
                        })
                    });
                    ui.separator();
                    // Work in the editor is not thrown away without a second word.
                    if let Some(what) = screen.confirm_open.clone() {
                        ui.horizontal_wrapped(|ui| {
                            ui.colored_label(egui::Color32::from_rgb(230, 190, 80), "The variant in the editor has changes not saved.");
                            if ui.button("Discard them and open").clicked() {
                                open_in_editor = Some(what.clone());
                                discard = true;
                            }
                            if ui.button("Back to the editor").clicked() {
                                screen.confirm_open = None;
                                to = Some(Screen::Editor);
                            }
                            if ui.button("Cancel").clicked() {
                                screen.confirm_open = None;
                            }
                        });
                    }
                    let selected = screen.selected.clone();
                    ui.horizontal(|ui| {
                        let edit = ui.add_enabled(selected.is_some(), egui::Button::new("Edit a copy…"));
                        if edit.on_hover_text("Open this variant's copy in the variant editor").clicked() {
                            // A built-in opens as a copy; one of my variants opens as its file.
                            open_in_editor = selected.clone();
                        }
                        if ui.button("New variant…").on_hover_text("Design a variant, starting from chess").clicked() {
                            open_in_editor = Some(String::new());
                        }
                        if ui
                            .button("Open file…")
                            .on_hover_text(
                                "Open a variant file (.ron), or a section of a Fairy-Stockfish variants.ini, in the variant editor",
                            )
                            .clicked()
                        {
                            editor.browse_to_open();
                        }
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            let control = screen.clock.control();
                            // Who plays and the clocks go with the new game (they change nothing
                            // while the player is asked whether to replace the game in progress).
                            let mut seated: Option<Seating> = None;
                            let play = egui::Button::new(egui::RichText::new("  Play  ").size(18.0));
                            if let (true, Ok(clock)) = (ui.add_enabled(selected.is_some() && control.is_ok(), play).clicked(), control) {
                                seated = Some(seating(screen, clock));
                            }
                            // An analysis board or a set-up board: nobody's computer, no clocks.
                            let board = |analyse: bool| Seating {
                                computer: [None, None],
                                pace: screen.pace,
                                bottom: None,
                                clock: None,
                                analyse,
                                set_up: !analyse,
                            };
                            let set_up = egui::Button::new(egui::RichText::new("Set up…").size(18.0));
                            if ui
                                .add_enabled(selected.is_some(), set_up)
                                .on_hover_text("Place the pieces of a position of this variant, then play or analyse it")
                                .clicked()
                            {
                                seated = Some(board(false));
                            }
                            let analyse = egui::Button::new(egui::RichText::new("Analyse").size(18.0));
                            if ui
                                .add_enabled(selected.is_some(), analyse)
                                .on_hover_text("An analysis board: move both sides yourself while the computer studies each position")
                                .clicked()
                            {
                                seated = Some(board(true));
                            }
                            if let (Some(seating), Some(id)) = (seated, &selected) {
                                new_game.write(NewGame {
                                    variant: Some(id.clone()),
                                    presets: Some(screen.presets.clone()),
                                    seating: Some(seating),
                                    confirmed: false,
                                });
                                to = Some(Screen::Game);
                            }
                        });
                    });
                });
            });
        });
    if let Some(what) = open_in_editor {
        let unsaved = editor.editor.as_ref().is_some_and(crate::editor::Editor::has_unsaved_changes);
        if unsaved && !discard {
            screen.confirm_open = Some(what);
        } else if editor.open(&what).is_ok() {
            screen.confirm_open = None;
            to = Some(Screen::Editor);
        }
    }
    if !open {
        to = to.or(Some(Screen::Game));
    }
    if let Some(to) = to {
        next.set(to);
    }
    Ok(())
}

/// Who plays the game the window sets up (a random side drawn now), and its clocks.
fn seating(screen: &StartScreen, clock: Option<crate::clock::TimeControl>) -> Seating {
    let level = Some(screen.level);
    let (computer, bottom) = match screen.opponent {
        Opponent::HotSeat => ([None, None], None),
        Opponent::Watch => ([level, level], None),
        Opponent::Computer => {
            let person = match screen.play_as {
                PlayAs::White => Side::White,
                PlayAs::Black => Side::Black,
                PlayAs::Random if rand::random::<bool>() => Side::White,
                PlayAs::Random => Side::Black,
            };
            (if person == Side::White { [None, level] } else { [level, None] }, Some(person))
        }
    };
    Seating { computer, pace: screen.pace, bottom, clock, analyse: false, set_up: false }
}

/// Clocks on or off, the kind, and its figures; suggested for `variant` until changed.
fn clock_picker(ui: &mut egui::Ui, choice: &mut ClockChoice, id: &str, variant: &Variant) {
    use crate::clock::Kind;
    if choice.suggested_for.as_deref().is_some_and(|v| v != id) {
        choice.set(crate::clock::suggested(variant));
        choice.suggested_for = Some(id.to_string());
    }
    let before = choice.clone();
    let mut usual = false;
    ui.horizontal(|ui| {
        ui.checkbox(&mut choice.on, "Clocks");
        if !choice.on {
            ui.label(egui::RichText::new("(none: think as long as you like)").weak());
            return;
        }
        egui::ComboBox::from_id_salt("clock-kind").selected_text(choice.kind.name()).show_ui(ui, |ui| {
            for kind in Kind::ALL {
                ui.selectable_value(&mut choice.kind, kind, kind.name());
            }
        });
        ui.add(egui::DragValue::new(&mut choice.minutes).range(0.0..=600.0).speed(0.25).suffix(" min"));
        match choice.kind {
            Kind::SuddenDeath => {}
            Kind::Fischer => {
                ui.add(egui::DragValue::new(&mut choice.seconds).range(0.0..=600.0).speed(0.5).prefix("+ ").suffix(" s"));
            }
            Kind::Delay => {
                ui.add(egui::DragValue::new(&mut choice.seconds).range(0.0..=600.0).speed(0.5).prefix("delay ").suffix(" s"));
            }
            Kind::ByoYomi => {
                ui.add(egui::DragValue::new(&mut choice.periods).range(1..=crate::clock::MAX_PERIODS).suffix(" ×"));
                ui.add(egui::DragValue::new(&mut choice.seconds).range(0.0..=600.0).speed(0.5).suffix(" s"));
            }
        }
        usual = ui.small_button("Usual").on_hover_text("The control this variant is usually played with").clicked();
    });
    if usual {
        choice.set(crate::clock::suggested(variant));
        choice.suggested_for = Some(id.to_string());
    } else if (choice.kind, choice.minutes, choice.seconds, choice.periods) != (before.kind, before.minutes, before.seconds, before.periods)
    {
        // Changed by hand: kept when another variant is picked.
        choice.suggested_for = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names that start with the text come first: "crazyh" finds Crazyhouse before the
    /// variants that only mention it.
    #[test]
    fn search_ranks_names_first() {
        let catalogue: Vec<(String, Variant)> =
            crate::variants::builtin_ids().map(|id| (id.to_string(), crate::variants::builtin(id).unwrap())).collect();
        let ids = |text: &str| search(&catalogue, text).into_iter().map(|i| catalogue[i].0.as_str()).collect::<Vec<_>>();
        let crazy = ids("crazyh");
        assert_eq!(crazy.first(), Some(&"crazyhouse"), "{crazy:?}");
        assert!(crazy.len() > 1, "others mention it: {crazy:?}");
        // A word of the name: "house" finds the houses by name before any description.
        let house = ids("house");
        let by_name =
            house.iter().take_while(|id| catalogue.iter().any(|(i, v)| i == *id && v.name.to_lowercase().contains("house"))).count();
        assert!(by_name >= 2 && by_name <= house.len(), "{house:?}");
        assert_eq!(ids("").len(), catalogue.len());
        assert!(ids("no such variant at all").is_empty());
    }
}
