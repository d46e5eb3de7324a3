//! The side panel's "Modifier profile" section: the active profile in words, a queued swap,
//! a picker of built-in profiles and profile files, and an editor whose fields are generated
//! from the modifier kinds' own form descriptions (per piece type, or for the selected piece by
//! its starting square). Every swap is checked at once and applies at the next turn boundary.

use bevy::prelude::*;
use bevy_egui::egui;

use super::shared::{GameSystems, Notice, Origin, Selection, Tone};
use crate::modifiers::{Entry, ModifierRegistry, Mods, Profile, Value, Widget};
use crate::presets::PendingSwap;
use crate::rules::{Board, Homes, Variant};

/// A swap asked for in the panel: a built-in profile's id or a `.ron` file, none, or an edited
/// profile.
#[derive(Message, Clone, Debug)]
pub enum ProfileRequest {
    /// A built-in id or a file; `None`: no profile.
    Named(Option<String>),
    /// A profile edited in the panel.
    Edited(Profile),
    /// Save an edited profile: to this `.ron` file, or (`None`) as `<id>.ron` in the profiles
    /// folder beside the saved games.
    Save(Profile, Option<String>),
}

/// Where profiles are saved: `profiles/` beside the saved games' folder.
fn profiles_dir() -> Option<std::path::PathBuf> {
    super::files::games_dir().and_then(|g| g.parent().map(|p| p.join("profiles")))
}

pub(super) fn plugin(app: &mut App) {
    app.add_message::<ProfileRequest>();
    // On every screen (a request is never dropped unread), before the game's steps.
    app.add_systems(Update, swap_profiles.run_if(on_message::<ProfileRequest>).before(GameSystems::Input));
}

/// Queues the swaps asked for (they apply when the next move passes the turn); a rejected one
/// changes nothing and is shown with its reasons.
fn swap_profiles(world: &mut World) {
    let requests: Vec<ProfileRequest> = world.resource_mut::<Messages<ProfileRequest>>().drain().collect();
    for request in requests {
        let profile = match request {
            ProfileRequest::Named(name) => match name.as_deref().map(crate::modifiers::load_profile).transpose() {
                Ok(p) => p,
                Err(e) => {
                    world.resource_mut::<Notice>().show(Tone::Problem, e, 6.0);
                    continue;
                }
            },
            ProfileRequest::Edited(p) => Some(p),
            ProfileRequest::Save(p, path) => {
                let path = path.map(std::path::PathBuf::from).or_else(|| profiles_dir().map(|d| d.join(format!("{}.ron", p.id))));
                let (tone, said) = match path {
                    Some(path) => match super::files::write_atomically(&path, &p.to_ron()) {
                        Ok(()) => (Tone::Done, format!("profile saved to {}", path.display())),
                        Err(e) => (Tone::Problem, format!("profile not saved: {}: {e}", path.display())),
                    },
                    None => (Tone::Problem, "profile not saved: no folder for it (HOME is not set)".into()),
                };
                world.resource_mut::<Notice>().show(tone, said, 6.0);
                continue;
            }
        };
        if let Err(problems) = crate::presets::request_swap(world, profile) {
            let text = problems.iter().filter(|p| !p.warning).map(ToString::to_string).collect::<Vec<_>>().join("\n");
            world.resource_mut::<Notice>().show(Tone::Problem, format!("Profile refused: {text}"), 8.0);
        }
    }
}

/// The section's own state.
#[derive(Default)]
pub struct ProfileLocal {
    /// The built-in id picked, or a file name typed.
    pick: Option<String>,
    /// The file name field.
    file: String,
    /// The profile being edited, if the editor is open.
    draft: Option<Profile>,
    /// The entry edited: `Err(key)` per type (letter), `Ok(square)` for one piece.
    target: Option<Result<String, String>>,
}

/// What the section reads and sends.
pub struct ProfileView<'a> {
    /// The active profile.
    pub active: Option<&'a crate::presets::ActiveProfile>,
    /// A queued swap.
    pub swap: Option<&'a PendingSwap>,
    /// The variant.
    pub variant: &'a Variant,
    /// The square index (marks, for the selected piece).
    pub board: &'a Board,
    /// Where each piece was set up.
    pub homes: Option<&'a Homes>,
    /// The selected piece.
    pub selection: &'a Selection,
}

/// Draws the section.
pub fn section(ui: &mut egui::Ui, v: ProfileView, requests: &mut MessageWriter<ProfileRequest>, local: &mut ProfileLocal) {
    let registry = ModifierRegistry::builtin();
    let g = v.variant.geometry;
    match v.active {
        Some(active) => {
            let p = &active.compiled.profile;
            ui.label(egui::RichText::new(p.name.clone().unwrap_or_else(|| p.id.clone())).strong());
            for (key, entry) in &p.types {
                ui.label(format!("{key}: {}", Mods::describe_entry(entry, &registry).join(", ")));
            }
            let bound: Vec<u8> = v.board.bound.iter().map(|&(_, m)| m).collect();
            for (i, (sq, entry)) in active.compiled.instances.iter().enumerate() {
                let gone = if bound.contains(&((i + 1) as u8)) { "" } else { " (no longer in play)" };
                ui.label(format!("the piece from {}{gone}: {}", g.name(*sq), Mods::describe_entry(entry, &registry).join(", ")));
            }
            ui.label(egui::RichText::new("Violet badge: a piece with modifiers; gold: with its own.").small());
        }
        None => {
            ui.label("None: every piece moves by the variant's rules.");
        }
    }
    if let Some(Some(next)) = v.swap.map(|s| &s.0) {
        let name = next.as_ref().map_or("no profile".to_string(), |p| p.name.clone().unwrap_or_else(|| p.id.clone()));
        ui.label(
            egui::RichText::new(format!("Swap to {name} queued: it applies when the next move passes the turn."))
                .color(egui::Color32::from_rgb(230, 180, 60)),
        );
    }
    ui.horizontal(|ui| {
        let shown = local.pick.clone().unwrap_or_else(|| "none".into());
        egui::ComboBox::from_id_salt("profile-pick").selected_text(shown).show_ui(ui, |ui| {
            ui.selectable_value(&mut local.pick, None, "none");
            for (id, _) in crate::modifiers::BUILTIN {
                ui.selectable_value(&mut local.pick, Some(id.to_string()), *id);
            }
        });
        if ui.button("Swap at the next turn").on_hover_text("Checked now; applied when the next move passes the turn").clicked() {
            requests.write(ProfileRequest::Named(local.pick.clone()));
        }
    });
    ui.horizontal(|ui| {
        ui.add(egui::TextEdit::singleline(&mut local.file).hint_text("profile file (.ron)").desired_width(170.0));
        if ui.add_enabled(!local.file.trim().is_empty(), egui::Button::new("Load")).clicked() {
            requests.write(ProfileRequest::Named(Some(local.file.trim().to_string())));
        }
    });
    if local.draft.is_none() {
        if ui.button("Edit…").on_hover_text("Change the profile's entries, then swap to it").clicked() {
            let draft = match v.active {
                Some(a) => {
                    let p = &a.compiled.profile;
                    let name = format!("{} (edited)", p.name.clone().unwrap_or_else(|| p.id.clone()));
                    Profile { id: format!("{}-edited", p.id), name: Some(name), ..p.clone() }
                }
                None => Profile { id: "edited".into(), name: Some("Edited profile".into()), ..Default::default() },
            };
            local.draft = Some(draft);
        }
        return;
    }
    editor(ui, &v, requests, local, &registry);
}

/// The editor: pick an entry, edit each kind with its own form, swap to the result.
fn editor(
    ui: &mut egui::Ui,
    v: &ProfileView,
    requests: &mut MessageWriter<ProfileRequest>,
    local: &mut ProfileLocal,
    registry: &ModifierRegistry,
) {
    let g = v.variant.geometry;
    // The selected piece's own entry, by the square it was set up on.
    let selected = match v.selection.origin {
        Some(Origin::Square(sq)) => v.board.entity(sq).and_then(|e| v.homes?.0.iter().find(|(h, _)| *h == e).map(|&(_, home)| home)),
        _ => None,
    };
    ui.separator();
    ui.horizontal(|ui| {
        ui.label("Entry:");
        let shown = match &local.target {
            Some(Err(letter)) => {
                let name =
                    letter.chars().next().and_then(|c| v.variant.registry.by_letter(c)).map(|k| v.variant.registry.def(k).name.clone());
                format!("all {}s", name.unwrap_or_else(|| letter.clone()))
            }
            Some(Ok(sq)) => format!("the piece from {sq}"),
            None => "choose…".into(),
        };
        egui::ComboBox::from_id_salt("profile-entry").selected_text(shown).show_ui(ui, |ui| {
            for kind in v.variant.registry.ids() {
                let def = v.variant.registry.def(kind);
                let key = def.letter.to_string();
                ui.selectable_value(&mut local.target, Some(Err(key)), format!("all {}s", def.name));
            }
            if let Some(home) = selected {
                ui.selectable_value(&mut local.target, Some(Ok(g.name(home))), format!("the selected piece (from {})", g.name(home)));
            }
        });
    });
    if selected.is_none() {
        ui.label(egui::RichText::new("Click one of your pieces on the board to edit its own entry.").small());
    }
    let Some(draft) = local.draft.as_mut() else { return };
    if let Some(target) = &local.target {
        let entry: &mut Entry = match target {
            Err(letter) => draft.types.entry(letter.clone()).or_default(),
            Ok(sq) => draft.instances.entry(sq.clone()).or_default(),
        };
        for def in registry.list() {
            for field in def.ui_form {
                form_field(ui, field, entry, Some(v.variant));
            }
        }
        // An entry with nothing in it is no entry.
        let empty = entry.is_empty();
        if empty {
            match target {
                Err(letter) => draft.types.remove(letter),
                Ok(sq) => draft.instances.remove(sq),
            };
        }
    }
    let mut close = false;
    ui.horizontal(|ui| {
        if ui.button("Swap to this profile").on_hover_text("Checked now; applied when the next move passes the turn").clicked() {
            requests.write(ProfileRequest::Edited(draft.clone()));
        }
        let to = local.file.trim();
        let to = to.ends_with(".ron").then(|| to.to_string());
        let hint = match &to {
            Some(f) => format!("Write it to {f}"),
            None => format!("Write it as {}.ron in the profiles folder (or type a .ron file name above)", draft.id),
        };
        if ui.button("Save").on_hover_text(hint).clicked() {
            requests.write(ProfileRequest::Save(draft.clone(), to));
        }
        close = ui.button("Close editor").clicked();
    });
    if close {
        local.draft = None;
    }
}

/// One field of a kind's form, editing its value in `entry` (a value at its neutral setting is
/// taken out of the entry).
pub(super) fn form_field(ui: &mut egui::Ui, field: &crate::modifiers::FormField, entry: &mut Entry, variant: Option<&Variant>) {
    let key = field.key.to_string();
    ui.horizontal_wrapped(|ui| {
        ui.label(field.label);
        match field.widget {
            Widget::Whole { min, max } => {
                let mut n = match entry.get(&key) {
                    Some(Value::Int(n)) => *n,
                    _ => 0,
                };
                if ui.add(egui::DragValue::new(&mut n).range(i64::from(min)..=i64::from(max))).changed() {
                    set(entry, &key, (n != 0).then_some(Value::Int(n)));
                }
            }
            Widget::Fraction => {
                let mut x = match entry.get(&key) {
                    Some(Value::Float(x)) => *x,
                    Some(Value::Int(n)) => *n as f64,
                    _ => 0.0,
                };
                if ui.add(egui::Slider::new(&mut x, 0.0..=1.0).step_by(0.05)).changed() {
                    set(entry, &key, (x > 0.0).then_some(Value::Float(x)));
                }
            }
            Widget::Betza | Widget::Letters => {
                let mut text = match entry.get(&key) {
                    Some(Value::Text(t)) => t.clone(),
                    _ => String::new(),
                };
                if ui.add(egui::TextEdit::singleline(&mut text).desired_width(80.0)).changed() {
                    set(entry, &key, (!text.is_empty()).then(|| Value::Text(text.clone())));
                }
                // Checked as the engine will check it, beside the field.
                if let Some(value) = entry.get(&key)
                    && let Some(variant) = variant
                {
                    let mut probe = Mods::default();
                    let def = ModifierRegistry::builtin().get(field.key);
                    if let Some(Err(e)) = def.map(|d| (d.apply)(&mut probe, value, variant)) {
                        ui.label(egui::RichText::new(e).color(egui::Color32::from_rgb(240, 120, 90)).small());
                    }
                }
            }
            Widget::Checkboxes(flags) => {
                let mut on: Vec<String> = match entry.get(&key) {
                    Some(Value::List(l)) => l.clone(),
                    Some(Value::Text(t)) => vec![t.clone()],
                    _ => Vec::new(),
                };
                let mut changed = false;
                for (flag, label) in flags {
                    let mut checked = on.iter().any(|f| f == flag);
                    if ui.checkbox(&mut checked, *label).changed() {
                        changed = true;
                        on.retain(|f| f != flag);
                        if checked {
                            on.push(flag.to_string());
                        }
                    }
                }
                if changed {
                    set(entry, &key, (!on.is_empty()).then_some(Value::List(on)));
                }
            }
        }
    });
}

fn set(entry: &mut Entry, key: &str, value: Option<Value>) {
    match value {
        Some(v) => {
            entry.insert(key.to_string(), v);
        }
        None => {
            entry.remove(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        super::super::shared::start_game(app.world_mut(), "chess", &[]).unwrap();
        app.add_plugins((super::super::play::plugin, plugin));
        app.init_resource::<super::super::shared::LayoutVersion>();
        app
    }

    #[test]
    fn an_edited_profile_is_saved_and_swapped_in() {
        let mut app = app();
        let mut p = crate::modifiers::builtin("sturdy-rooks").unwrap();
        p.id = "mine".into();
        p.types.entry("N".into()).or_default().insert("hp-bonus".into(), Value::Int(1));
        let path = std::env::temp_dir().join(format!("chimera-profile-{}.ron", std::process::id()));
        app.world_mut().write_message(ProfileRequest::Save(p.clone(), Some(path.display().to_string())));
        app.update();
        let saved = Profile::from_ron(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(saved, p, "the file reads back to the edited profile");
        std::fs::remove_file(&path).ok();
        // Swapping to it queues it; a refused one changes nothing and says why.
        app.world_mut().write_message(ProfileRequest::Edited(p.clone()));
        app.update();
        assert!(app.world().resource::<PendingSwap>().0.as_ref().is_some_and(|s| s.as_ref() == Some(&p)));
        let mut bad = p.clone();
        bad.types.entry("K".into()).or_default().insert("capture-flags".into(), Value::List(vec!["CANNOT_BE_CAPTURED".into()]));
        app.world_mut().write_message(ProfileRequest::Edited(bad));
        app.update();
        assert!(app.world().resource::<PendingSwap>().0.as_ref().is_some_and(|s| s.as_ref() == Some(&p)), "the earlier swap stays");
        let notice = app.world().resource::<Notice>().0.clone().unwrap().0;
        assert!(notice.contains("E_PROFILE_INVULN_KING"), "{notice}");
    }
}
