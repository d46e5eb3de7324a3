//! The in-game file browser ("Open file…", "Save as…", a piece's picture): a window over the
//! editor or the start screen, listing folders and variant files (or PNG and SVG pictures),
//! asking before it replaces a file or throws away changes not saved. A Fairy-Stockfish `variants.ini` opens as the list of its sections: those
//! that convert open in the editor as new variants, the others say what stops them.

use super::super::shared::{Screen, VariantsChanged};
use super::*;

/// What the file browser is choosing a file for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BrowseFor {
    /// A variant file to open in the editor.
    Open,
    /// Where to save the variant.
    SaveAs,
    /// A picture for the piece of this letter: for one side, or (`None`) for both.
    Picture(char, Option<Side>),
}

/// The in-game file browser.
#[derive(Clone, Debug)]
pub(super) struct Browser {
    pub(super) purpose: BrowseFor,
    pub(super) dir: PathBuf,
    pub(super) name: String,
    pub(super) error: Option<String>,
    /// A file chosen that would overwrite a file or throw away changes, waiting for a yes.
    pub(super) confirm: Option<PathBuf>,
    /// The sections of the ini file chosen, when one is.
    pub(super) ini: Option<IniSections>,
}

/// An ini file's sections: each converted, or what stops it.
#[derive(Clone, Debug)]
pub(super) struct IniSections {
    pub(super) path: PathBuf,
    pub(super) sections: Vec<(String, Result<(), Vec<String>>)>,
}

impl IniSections {
    /// Reads and converts every section of the ini file at `path`.
    fn read(path: &std::path::Path) -> Result<IniSections, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let all = crate::variants::fairy::import::import(&text).map_err(|errors| {
            let lines: Vec<String> = errors.iter().take(3).map(|e| format!("{}: {e}", path.display())).collect();
            lines.join("\n")
        })?;
        let sections =
            all.into_iter().map(|i| (i.name, i.result.map(|_| ()).map_err(|why| why.iter().map(ToString::to_string).collect()))).collect();
        Ok(IniSections { path: path.to_path_buf(), sections })
    }
}

/// The file browser, to open a variant file.
pub(super) fn open_browser() -> Browser {
    Browser { purpose: BrowseFor::Open, dir: browse_start(), name: String::new(), error: None, confirm: None, ini: None }
}

/// Where the file browser starts: the user's variants, else the working directory.
pub(super) fn browse_start() -> PathBuf {
    crate::editor::variants_dir().filter(|d| d.is_dir()).or_else(|| std::env::current_dir().ok()).unwrap_or_else(|| PathBuf::from("."))
}

/// The in-game file browser: a folder's sub-folders and variant files, a name field, and
/// Open or Save.
pub(super) fn file_browser(
    mut contexts: EguiContexts,
    mut screen: ResMut<EditorScreen>,
    mut variants_changed: MessageWriter<VariantsChanged>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(mut browser) = screen.browser.clone() else { return Ok(()) };
    let ctx = contexts.ctx_mut()?;
    let title = match browser.purpose {
        BrowseFor::Open => "Open a variant file",
        BrowseFor::SaveAs => "Save the variant as",
        BrowseFor::Picture(..) => "Import a picture (PNG or SVG)",
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
            if let Some(home) = std::env::var_os("HOME").map(PathBuf::from).filter(|h| h.is_dir())
                && ui.button("Home").clicked()
            {
                browser.dir = home;
            }
        });
        if let Some(ini) = browser.ini.clone() {
            // An ini file's sections, to open one.
            let converted = ini.sections.iter().filter(|(_, r)| r.is_ok()).count();
            ui.label(egui::RichText::new(ini.path.display().to_string()).monospace());
            ui.label(format!(
                "Fairy-Stockfish variants: {converted} of {} convert; click one to open it in the editor as a new variant.",
                ini.sections.len()
            ));
            egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
                for (name, result) in &ini.sections {
                    match result {
                        Ok(()) => {
                            if ui.selectable_label(false, name).clicked() {
                                chosen = Some(PathBuf::from(format!("{}:{name}", ini.path.display())));
                            }
                        }
                        Err(why) => {
                            let first = why.first().cloned().unwrap_or_default();
                            // One line each; every reason on hover.
                            let text = egui::RichText::new(format!("{name}: cannot convert ({first})")).weak();
                            let label = egui::Label::new(text).truncate().show_tooltip_when_elided(false);
                            ui.add(label).on_hover_text(why.join("\n"));
                        }
                    }
                }
            });
            if ui.button("Back to the files").clicked() {
                browser.ini = None;
            }
        }
        ui.label(egui::RichText::new(browser.dir.display().to_string()).monospace());
        let kinds: &[&str] = match browser.purpose {
            BrowseFor::Open => &["ron", "ini"],
            BrowseFor::SaveAs => &["ron"],
            BrowseFor::Picture(..) => &["png", "svg", "PNG", "SVG"],
        };
        let listing_height = if browser.ini.is_some() { 120.0 } else { 300.0 };
        // Always as tall, so that the window keeps its size and its buttons their places.
        let listing = egui::ScrollArea::vertical().id_salt("files").max_height(listing_height).min_scrolled_height(listing_height);
        listing.auto_shrink([false, false]).show(ui, |ui| match crate::editor::browse::listing(&browser.dir, kinds) {
            Ok(entries) => {
                if entries.is_empty() {
                    let none = if kinds.contains(&"png") { "No folders or pictures here." } else { "No folders or variant files here." };
                    ui.label(egui::RichText::new(none).weak());
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
            let verb = match browser.purpose {
                BrowseFor::Open => "Open",
                BrowseFor::SaveAs => "Save",
                BrowseFor::Picture(..) => "Use",
            };
            if ui.button(verb).clicked() || enter {
                chosen = match browser.purpose {
                    // A picture is named whole: no extension is added.
                    BrowseFor::Picture(..) => Some(browser.dir.join(browser.name.trim())).filter(|_| !browser.name.trim().is_empty()),
                    _ => crate::editor::browse::typed_path(&browser.dir, &browser.name),
                };
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
                    BrowseFor::Open | BrowseFor::Picture(..) => {
                        ("The variant being edited has changes not saved.".to_string(), "Discard them and open")
                    }
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
    // An ini file lists its sections first.
    if browser.purpose == BrowseFor::Open
        && let Some(path) = chosen.take_if(|p| p.extension().is_some_and(|x| x == "ini"))
    {
        match IniSections::read(&path) {
            Ok(ini) => {
                browser.ini = Some(ini);
                browser.error = None;
            }
            Err(e) => browser.error = Some(e),
        }
    }
    if let Some(path) = &chosen {
        let risky = match browser.purpose {
            BrowseFor::SaveAs => path.exists(),
            BrowseFor::Open => screen.editor.as_ref().is_some_and(Editor::has_unsaved_changes),
            BrowseFor::Picture(..) => false,
        };
        if risky {
            browser.confirm = chosen.take();
        }
    }
    if let Some(path) = confirmed.or(chosen) {
        let result = match browser.purpose {
            BrowseFor::Open => {
                // A section of an ini file comes as `file.ini:section`.
                let spec = path.display().to_string();
                let opened = if crate::variants::fairy::ini_spec(&spec).is_some() { screen.open(&spec) } else { screen.open_file(&path) };
                opened.map(|()| next.set(Screen::Editor))
            }
            BrowseFor::SaveAs => match screen.editor.as_mut() {
                Some(editor) => editor.save_as(&path).map(|()| {
                    screen.notice = Some(format!("saved to {}", path.display()));
                    variants_changed.write(VariantsChanged(Some(path.clone())));
                }),
                None => Err("nothing to save".into()),
            },
            BrowseFor::Picture(letter, side) => match screen.editor.as_mut() {
                // Refused pictures stay in the browser with why; one imported closes it, and
                // the picker says what of it is not drawn.
                Some(editor) => editor.import_picture(letter, side, &path).map(|notes| {
                    screen.picture_dir = path.parent().map(std::path::Path::to_path_buf);
                    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    let message = match notes.is_empty() {
                        true => (DONE, format!("{name} imported; Save keeps it beside the variant.")),
                        false => (WARNING, format!("{name} imported, but {}.", notes.join("; "))),
                    };
                    if let Some(picker) = &mut screen.picker {
                        picker.message = Some(message);
                    }
                }),
                None => Err("no variant is being edited".into()),
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
