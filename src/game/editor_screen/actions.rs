//! The editor's Actions section: a variant's own rules as data, built with pickers ("When [a
//! piece captures] · If [the moving piece is a pawn] · Then [it becomes a knight] [play the
//! sparkle animation]"), each action said as a sentence in plain words, with the piece facts
//! they use declared above them. Actions are added, reordered, duplicated and removed; every
//! change is one step of the editor's undo; problems show beside the action; test-play runs
//! them at once. The model is `crate::editor::actions`.

use bevy_egui::egui;

use crate::editor::actions::{
    Vocabulary, WHO, condition_kind, condition_kinds, duplicated, effect_kind, effect_kinds, event_words, events, moved, new_action,
    new_fact, takes_pieces, who_for, who_words, with_event,
};
use crate::editor::{Edit, Editor};
use crate::variants::Problem;
use crate::variants::actions::{
    ActionSpec, CampSpec, CompareSpec, ConditionSpec, DamageKindSpec, EffectSpec, EventSpec, FactSpec, LookSpec, PlaceSpec, ShowSpec,
    SideSpec, WhoSpec,
};

use super::field_problems;

/// The section.
pub(super) fn actions_section(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    compiled: Option<&crate::rules::Variant>,
    problems: &[Problem],
    paint: &mut Option<String>,
) {
    let file = editor.file().clone();
    let vocabulary = Vocabulary {
        pieces: file.pieces.iter().flatten().map(|p| p.name.clone()).collect(),
        regions: file.regions.iter().flatten().map(|(n, _)| n.clone()).collect(),
        facts: file.facts.iter().flatten().map(|f| f.name.clone()).collect(),
        // (From the file, so that a file that does not compile yet keeps its hands' pickers.)
        hands: file.drops.is_some() || compiled.is_some_and(|v| v.drops.is_some()),
    };
    // A region made from an action's picker ("New region…"): made with the action's change,
    // and sent to the board to be painted.
    let mut made_region: Option<String> = None;
    ui.label(
        "Rules of your own: when something happens, if conditions hold, then effects. Each is said in words below it; \
         Test-play runs them at once.",
    );
    field_problems(ui, problems, "format");
    ui.add_space(4.0);
    facts(ui, editor, file.facts.clone().unwrap_or_default(), problems);
    ui.separator();
    let actions = file.actions.clone().unwrap_or_default();
    ui.label(egui::RichText::new("Actions").strong()).on_hover_text("In the order they run, after the presets' rules of the same moment");
    let mut replaced: Option<(Vec<ActionSpec>, bool)> = None;
    for (i, action) in actions.iter().enumerate() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            // The sentence, as the rules panel says it.
            let words = compiled
                .and_then(|v| v.actions.iter().find(|a| a.name == action.name).map(|a| crate::rules::describe_action(v, a)))
                .unwrap_or_else(|| "(fix the problems below to see it in words)".into());
            ui.label(egui::RichText::new(words).italics());
            let mut a = action.clone();
            let (changed, merged) = action_rows(ui, i, &mut a, &vocabulary, &mut made_region);
            ui.horizontal(|ui| {
                if ui.add_enabled(i > 0, egui::Button::new("⬆")).on_hover_text("Run it earlier").clicked() {
                    replaced = Some((moved(&actions, i, true), false));
                }
                if ui.add_enabled(i + 1 < actions.len(), egui::Button::new("⬇")).on_hover_text("Run it later").clicked() {
                    replaced = Some((moved(&actions, i, false), false));
                }
                if ui.button("Duplicate").clicked() {
                    replaced = Some((duplicated(&actions, i), false));
                }
                if ui.button("Remove").clicked() {
                    let mut list = actions.clone();
                    list.remove(i);
                    replaced = Some((list, false));
                }
            });
            if changed {
                let mut list = actions.clone();
                list[i] = a;
                replaced = Some((list, merged));
            }
            field_problems(ui, problems, &format!("actions[{i}]"));
        });
    }
    if ui.button("➕ New action").on_hover_text("When a piece captures, sparkles: change it from there").clicked() {
        let mut list = actions.clone();
        list.push(new_action(&actions));
        replaced = Some((list, false));
    }
    if let (Some(name), Some((list, _))) = (made_region, &replaced) {
        editor.edit(|f| {
            f.regions.get_or_insert_with(Default::default).insert(name.clone(), crate::variants::RegionSpec::Squares(Vec::new()));
            f.actions = Some(list.clone());
        });
        *paint = Some(name);
        return;
    }
    if let Some((list, merged)) = replaced {
        let _ = if merged { editor.apply_merged(&Edit::Actions(list), "actions") } else { editor.apply(&Edit::Actions(list)) };
    }
}

/// The declared facts: name, start, limits and look.
fn facts(ui: &mut egui::Ui, editor: &mut Editor, list: Vec<FactSpec>, problems: &[Problem]) {
    ui.label(egui::RichText::new("Piece facts").strong())
        .on_hover_text("Numbers every piece carries for your actions: hit points, charges… Shown on the board as you choose");
    let mut next: Option<(Vec<FactSpec>, bool)> = None;
    for (i, f) in list.iter().enumerate() {
        let mut f = f.clone();
        let (mut changed, mut merged) = (false, false);
        ui.horizontal(|ui| {
            let name = ui.add(egui::TextEdit::singleline(&mut f.name).desired_width(90.0));
            merged |= name.changed();
            ui.label("starts at");
            merged |= ui.add(egui::DragValue::new(&mut f.start).range(-99..=99).clamp_existing_to_range(false)).changed();
            ui.label("from");
            merged |= ui.add(egui::DragValue::new(&mut f.min).range(-99..=99).clamp_existing_to_range(false)).changed();
            ui.label("to");
            merged |= ui.add(egui::DragValue::new(&mut f.max).range(-99..=99).clamp_existing_to_range(false)).changed();
            let shown = match f.look {
                None => "not shown",
                Some(LookSpec::Pips(..)) => "pips below",
                Some(LookSpec::TopPips(..)) => "pips above",
                Some(LookSpec::Ring(..)) => "a ring",
            };
            egui::ComboBox::from_id_salt(("fact-look", i)).width(90.0).selected_text(shown).show_ui(ui, |ui| {
                for (words, look) in [
                    ("not shown", None),
                    ("pips below", Some(LookSpec::Pips(230, 38, 38))),
                    ("pips above", Some(LookSpec::TopPips(242, 204, 51))),
                    ("a ring", Some(LookSpec::Ring(64, 140, 255, 230))),
                ] {
                    if ui.selectable_label(shown == words, words).clicked() {
                        f.look = look;
                        changed = true;
                    }
                }
            });
            if let Some(look) = &mut f.look {
                let (r, g, b) = match *look {
                    LookSpec::Pips(r, g, b) | LookSpec::TopPips(r, g, b) | LookSpec::Ring(r, g, b, _) => (r, g, b),
                };
                let mut rgb = [r, g, b];
                if ui.color_edit_button_srgb(&mut rgb).changed() {
                    *look = match *look {
                        LookSpec::Pips(..) => LookSpec::Pips(rgb[0], rgb[1], rgb[2]),
                        LookSpec::TopPips(..) => LookSpec::TopPips(rgb[0], rgb[1], rgb[2]),
                        LookSpec::Ring(.., a) => LookSpec::Ring(rgb[0], rgb[1], rgb[2], a),
                    };
                    merged = true;
                }
            }
            if ui.button("✖").on_hover_text("Remove this fact").clicked() {
                let mut l = list.clone();
                l.remove(i);
                next = Some((l, false));
            }
        });
        if changed || merged {
            let mut l = list.clone();
            l[i] = f;
            next = Some((l, merged && !changed));
        }
        field_problems(ui, problems, &format!("facts[{i}]"));
    }
    if ui.button("➕ New fact").clicked() {
        let mut l = list.clone();
        l.push(new_fact(&list));
        next = Some((l, false));
    }
    if let Some((l, merged)) = next {
        let _ = if merged { editor.apply_merged(&Edit::Facts(l), "facts") } else { editor.apply(&Edit::Facts(l)) };
    }
}

/// One action's rows: name, event, sides, attached pieces, conditions, effects. Returns
/// whether it changed, and whether the change continues a gesture (typing, dragging).
fn action_rows(ui: &mut egui::Ui, i: usize, a: &mut ActionSpec, v: &Vocabulary, made: &mut Option<String>) -> (bool, bool) {
    let (mut changed, mut merged) = (false, false);
    ui.horizontal(|ui| {
        ui.label("Name");
        merged |= ui.add(egui::TextEdit::singleline(&mut a.name).desired_width(120.0)).changed();
        ui.label("When");
        let now = event_words(&a.when);
        egui::ComboBox::from_id_salt(("when", i)).width(230.0).selected_text(now).show_ui(ui, |ui| {
            for (e, words) in events(v) {
                if ui.selectable_label(now == words, words).clicked() && now != words {
                    *a = with_event(a, e, v);
                    changed = true;
                }
            }
        });
        match &mut a.when {
            EventSpec::Arrives(region) | EventSpec::Leaves(region) => changed |= region_combo(ui, ("when-region", i), region, v, made),
            EventSpec::Every(n) => {
                merged |= ui.add(egui::DragValue::new(n).range(1..=999).clamp_existing_to_range(false)).changed();
                ui.label("turns");
            }
            _ => {}
        }
        let sides = match a.sides {
            None | Some(crate::presets::Scope::Both) => "either side",
            Some(crate::presets::Scope::White) => "White only",
            Some(crate::presets::Scope::Black) => "Black only",
        };
        egui::ComboBox::from_id_salt(("sides", i)).width(100.0).selected_text(sides).show_ui(ui, |ui| {
            for (s, words) in [
                (None, "either side"),
                (Some(crate::presets::Scope::White), "White only"),
                (Some(crate::presets::Scope::Black), "Black only"),
            ] {
                changed |= ui.selectable_value(&mut a.sides, s, words).changed();
            }
        });
    });
    if takes_pieces(&a.when) {
        let chained = crate::editor::actions::chained(&a.when);
        ui.horizontal_wrapped(|ui| {
            ui.label(if chained { "Only for" } else { "For each of its side's" });
            changed |= ticks(ui, &mut a.pieces, v);
        })
        .response
        .on_hover_text(if chained {
            "None ticked: any piece. Ticked: only pieces of these types; the conditions and effects call it 'the piece itself'"
        } else {
            "None ticked: once a turn. Ticked: once for each such piece, which the conditions and effects call 'each attached piece'"
        });
    } else if !a.pieces.is_empty() {
        a.pieces.clear();
        changed = true;
    }
    let whos = who_for(&a.when, !a.pieces.is_empty());
    let when = a.when.clone();
    // Conditions.
    let mut remove = None;
    for (j, c) in a.conditions.iter_mut().enumerate() {
        ui.horizontal_wrapped(|ui| {
            ui.label(if j == 0 { "If" } else { "and" });
            let (c2, m2) = condition_row(ui, (i, j, 0), c, v, &whos, &when, made);
            changed |= c2;
            merged |= m2;
            if ui.button("✖").on_hover_text("Remove this condition").clicked() {
                remove = Some(j);
            }
        });
    }
    if let Some(j) = remove {
        a.conditions.remove(j);
        changed = true;
    }
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt(("add-if", i)).selected_text("➕ condition").show_ui(ui, |ui| {
            for (words, c) in condition_kinds(&when, v) {
                if ui.selectable_label(false, words).clicked() {
                    a.conditions.push(c);
                    changed = true;
                }
            }
        });
    });
    // Effects.
    let mut remove = None;
    let kinds = effect_kinds(&a.when, v);
    for (j, e) in a.then.iter_mut().enumerate() {
        ui.horizontal_wrapped(|ui| {
            ui.label(if j == 0 { "Then" } else { "and" });
            let (c2, m2) = effect_row(ui, (i, j), e, v, &whos, &kinds);
            changed |= c2;
            merged |= m2;
            if ui.button("✖").on_hover_text("Remove this effect").clicked() {
                remove = Some(j);
            }
        });
    }
    if let Some(j) = remove {
        a.then.remove(j);
        changed = true;
    }
    egui::ComboBox::from_id_salt(("add-then", i)).selected_text("➕ effect").show_ui(ui, |ui| {
        for (words, e) in &kinds {
            if ui.selectable_label(false, *words).clicked() {
                a.then.push(e.clone());
                changed = true;
            }
        }
    });
    (changed || merged, merged && !changed)
}

fn who_combo(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, w: &mut WhoSpec, whos: &[WhoSpec]) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(130.0).selected_text(who_words(*w)).show_ui(ui, |ui| {
        for (x, words) in WHO.iter().filter(|(x, _)| whos.contains(x)) {
            changed |= ui.selectable_value(w, *x, *words).changed();
        }
    });
    changed
}

fn name_combo(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, value: &mut String, names: &[String]) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(100.0).selected_text(value.clone()).show_ui(ui, |ui| {
        for n in names {
            changed |= ui.selectable_value(value, n.clone(), n).changed();
        }
    });
    changed
}

/// A comparison: at least / at most / exactly, and the number. Returns (picked, dragged).
fn compare(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, c: &mut CompareSpec) -> (bool, bool) {
    let (words, mut n) = match *c {
        CompareSpec::AtLeast(n) => ("at least", n),
        CompareSpec::AtMost(n) => ("at most", n),
        CompareSpec::Exactly(n) => ("exactly", n),
    };
    let mut picked = false;
    egui::ComboBox::from_id_salt(id).width(70.0).selected_text(words).show_ui(ui, |ui| {
        for (w, make) in [
            ("at least", CompareSpec::AtLeast as fn(i32) -> CompareSpec),
            ("at most", CompareSpec::AtMost),
            ("exactly", CompareSpec::Exactly),
        ] {
            if ui.selectable_label(w == words, w).clicked() {
                *c = make(n);
                picked = true;
            }
        }
    });
    let dragged = ui.add(egui::DragValue::new(&mut n).range(-99..=99).clamp_existing_to_range(false)).changed();
    if dragged {
        *c = match *c {
            CompareSpec::AtLeast(_) => CompareSpec::AtLeast(n),
            CompareSpec::AtMost(_) => CompareSpec::AtMost(n),
            CompareSpec::Exactly(_) => CompareSpec::Exactly(n),
        };
    }
    (picked, dragged)
}

/// A side, from the side that moved.
fn camp_combo(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, camp: &mut CampSpec) -> bool {
    let words = |c: &CampSpec| match c {
        CampSpec::Mover => "the side that moved",
        CampSpec::Other => "the other side",
    };
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(130.0).selected_text(words(camp)).show_ui(ui, |ui| {
        changed |= ui.selectable_value(camp, CampSpec::Mover, words(&CampSpec::Mover)).changed();
        changed |= ui.selectable_value(camp, CampSpec::Other, words(&CampSpec::Other)).changed();
    });
    changed
}

/// A region's name, with "New region…" (the name made goes to `made`).
fn region_combo(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    region: &mut String,
    v: &Vocabulary,
    made: &mut Option<String>,
) -> bool {
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(100.0).selected_text(region.clone()).show_ui(ui, |ui| {
        for n in &v.regions {
            changed |= ui.selectable_value(region, n.clone(), n).changed();
        }
        if let Some(name) = super::new_region_item(ui, &v.regions) {
            *region = name.clone();
            *made = Some(name);
            changed = true;
        }
    });
    changed
}

/// Piece types ticked in a list (none: any type).
fn types_combo(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, types: &mut Vec<String>, v: &Vocabulary) -> bool {
    let mut changed = false;
    let shown = if types.is_empty() { "any type".to_string() } else { types.join(", ") };
    egui::ComboBox::from_id_salt(id).width(120.0).selected_text(shown).show_ui(ui, |ui| changed = ticks(ui, types, v));
    changed
}

/// A box for each piece type, ticked when it is in `types`.
fn ticks(ui: &mut egui::Ui, types: &mut Vec<String>, v: &Vocabulary) -> bool {
    let mut changed = false;
    for name in &v.pieces {
        let mut on = types.contains(name);
        if ui.checkbox(&mut on, name).changed() {
            if on {
                types.push(name.clone());
            } else {
                types.retain(|t| t != name);
            }
            changed = true;
        }
    }
    changed
}

/// A comparison with its words before and after.
fn compared(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, c: &mut CompareSpec, (changed, merged): (&mut bool, &mut bool)) {
    let (p, d) = compare(ui, id, c);
    *changed |= p;
    *merged |= d;
}

/// One condition: a "not" box, its kind, and its values (`id`: action, condition, and the
/// place inside "one of several").
fn condition_row(
    ui: &mut egui::Ui,
    id: (usize, usize, usize),
    c: &mut ConditionSpec,
    v: &Vocabulary,
    whos: &[WhoSpec],
    event: &EventSpec,
    made: &mut Option<String>,
) -> (bool, bool) {
    let (mut changed, mut merged) = (false, false);
    let mut not = matches!(c, ConditionSpec::Not(_));
    if ui.checkbox(&mut not, "not").on_hover_text("The condition holds when this does not").changed() {
        *c = match std::mem::replace(c, ConditionSpec::Captures) {
            ConditionSpec::Not(inner) => *inner,
            other => ConditionSpec::Not(Box::new(other)),
        };
        changed = true;
    }
    let inner: &mut ConditionSpec = match c {
        ConditionSpec::Not(inner) => inner,
        other => other,
    };
    let kind = condition_kind(inner);
    egui::ComboBox::from_id_salt(("if-kind", id)).width(170.0).selected_text(kind).show_ui(ui, |ui| {
        for (words, fresh) in condition_kinds(event, v) {
            if ui.selectable_label(words == kind, words).clicked() && words != kind {
                *inner = fresh;
                changed = true;
            }
        }
    });
    match inner {
        ConditionSpec::Captures | ConditionSpec::Promotes => {}
        ConditionSpec::Is(w, name) => {
            changed |= who_combo(ui, ("if-who", id), w, whos);
            ui.label("is a");
            changed |= name_combo(ui, ("if-piece", id), name, &v.pieces);
        }
        ConditionSpec::Royal(w) => {
            changed |= who_combo(ui, ("if-who", id), w, whos);
        }
        ConditionSpec::Side(w, side) => {
            changed |= who_combo(ui, ("if-who", id), w, whos);
            ui.label("is");
            egui::ComboBox::from_id_salt(("if-side", id)).width(70.0).selected_text(format!("{side:?}'s")).show_ui(ui, |ui| {
                changed |= ui.selectable_value(side, SideSpec::White, "White's").changed();
                changed |= ui.selectable_value(side, SideSpec::Black, "Black's").changed();
            });
        }
        ConditionSpec::In(w, region) => {
            changed |= who_combo(ui, ("if-who", id), w, whos);
            ui.label("stands in");
            changed |= region_combo(ui, ("if-region", id), region, v, made);
        }
        ConditionSpec::Fact(w, fact, cmp) => {
            changed |= who_combo(ui, ("if-who", id), w, whos);
            ui.label("has");
            let (p, d) = compare(ui, ("if-cmp", id), cmp);
            changed |= p;
            merged |= d;
            changed |= name_combo(ui, ("if-fact", id), fact, &v.facts);
        }
        ConditionSpec::MovesThisTurn(cmp) => {
            let (p, d) = compare(ui, ("if-cmp", id), cmp);
            changed |= p;
            merged |= d;
        }
        ConditionSpec::PiecesOf(camp, cmp) => {
            changed |= camp_combo(ui, ("if-camp", id), camp);
            ui.label("has");
            let (p, d) = compare(ui, ("if-cmp", id), cmp);
            changed |= p;
            merged |= d;
            ui.label("pieces");
        }
        ConditionSpec::CaptureListed | ConditionSpec::NoLegalMove => {}
        ConditionSpec::ToMove(camp) => {
            changed |= camp_combo(ui, ("if-to-move", id), camp);
            ui.label("moves next");
        }
        ConditionSpec::Drops | ConditionSpec::Castles => {}
        ConditionSpec::Count(camp, types, cmp) | ConditionSpec::InHand(camp, types, cmp) => {
            let in_hand = kind == "pieces in hand";
            changed |= camp_combo(ui, ("if-camp", id), camp);
            ui.label("has");
            compared(ui, ("if-cmp", id), cmp, (&mut changed, &mut merged));
            changed |= types_combo(ui, ("if-types", id), types, v);
            ui.label(if in_hand { "in hand" } else { "on the board" });
        }
        ConditionSpec::InCheck(camp) => {
            changed |= camp_combo(ui, ("if-camp", id), camp);
            ui.label("is in check");
        }
        ConditionSpec::Turn(cmp) => compared(ui, ("if-cmp", id), cmp, (&mut changed, &mut merged)),
        ConditionSpec::Rank(w, cmp) | ConditionSpec::File(w, cmp) => {
            changed |= who_combo(ui, ("if-who", id), w, whos);
            ui.label("stands on");
            compared(ui, ("if-cmp", id), cmp, (&mut changed, &mut merged));
            ui.label(if kind == "a piece's rank" { "(rank from its side)" } else { "(file from a)" });
        }
        ConditionSpec::State(name, cmp) => {
            merged |= ui
                .add(egui::TextEdit::singleline(name).desired_width(90.0))
                .on_hover_text("A count this variant keeps: name it as you like")
                .changed();
            ui.label("is");
            compared(ui, ("if-cmp", id), cmp, (&mut changed, &mut merged));
        }
        ConditionSpec::Any(list) => {
            // One level of "one of several": its conditions, each removable, and one to add.
            ui.vertical(|ui| {
                let mut remove = None;
                let many = list.len() > 1;
                for (k, inner) in list.iter_mut().enumerate() {
                    ui.horizontal_wrapped(|ui| {
                        ui.label(if k == 0 { "either" } else { "or" });
                        if matches!(inner, ConditionSpec::Any(_)) {
                            ui.label("(one of several, in the RON section)");
                        } else {
                            let (c2, m2) = condition_row(ui, (id.0, id.1, id.2 * 8 + k + 1), inner, v, whos, event, made);
                            changed |= c2;
                            merged |= m2;
                        }
                        if many && ui.button("✖").on_hover_text("Remove this choice").clicked() {
                            remove = Some(k);
                        }
                    });
                }
                if let Some(k) = remove {
                    list.remove(k);
                    changed = true;
                }
                egui::ComboBox::from_id_salt(("add-or", id)).selected_text("➕ or").show_ui(ui, |ui| {
                    for (words, c) in condition_kinds(event, v).into_iter().filter(|(_, c)| !matches!(c, ConditionSpec::Any(_))) {
                        if ui.selectable_label(false, words).clicked() {
                            list.push(c);
                            changed = true;
                        }
                    }
                });
            });
        }
        ConditionSpec::Not(_) => {
            ui.label("(edit it in the RON section)");
        }
    }
    (changed, merged)
}

/// Where a piece is put: the square left, the square reached, or where a piece stands.
fn place_combo(ui: &mut egui::Ui, id: impl std::hash::Hash + std::fmt::Debug, place: &mut PlaceSpec, whos: &[WhoSpec]) -> bool {
    let words = |p: &PlaceSpec| match p {
        PlaceSpec::From => "on the square left".to_string(),
        PlaceSpec::To => "on the square reached".to_string(),
        PlaceSpec::At(w) => format!("where {} stands", who_words(*w)),
    };
    let mut changed = false;
    egui::ComboBox::from_id_salt(id).width(170.0).selected_text(words(place)).show_ui(ui, |ui| {
        let mut places = vec![PlaceSpec::From, PlaceSpec::To];
        places.extend(whos.iter().map(|w| PlaceSpec::At(*w)));
        for p in places {
            let w = words(&p);
            changed |= ui.selectable_value(place, p, w).changed();
        }
    });
    changed
}

/// One effect: its kind and its values.
fn effect_row(
    ui: &mut egui::Ui,
    id: (usize, usize),
    e: &mut EffectSpec,
    v: &Vocabulary,
    whos: &[WhoSpec],
    kinds: &[(&'static str, EffectSpec)],
) -> (bool, bool) {
    let (mut changed, mut merged) = (false, false);
    let kind = effect_kind(e);
    egui::ComboBox::from_id_salt(("then-kind", id)).width(190.0).selected_text(kind).show_ui(ui, |ui| {
        for (words, fresh) in kinds {
            if ui.selectable_label(*words == kind, *words).clicked() && *words != kind {
                *e = fresh.clone();
                changed = true;
            }
        }
    });
    let text = |ui: &mut egui::Ui, s: &mut String| ui.add(egui::TextEdit::singleline(s).desired_width(150.0)).changed();
    match e {
        EffectSpec::TakeCapture | EffectSpec::Forbid | EffectSpec::AllowCheck | EffectSpec::ExtraMove => {}
        EffectSpec::Royal(types) => {
            changed |= ticks(ui, types, v);
            if types.is_empty() {
                ui.label("(none ticked: nothing is royal)");
            }
        }
        EffectSpec::Strike(w) | EffectSpec::Remove(w) | EffectSpec::ChangeSide(w) => changed |= who_combo(ui, ("then-who", id), w, whos),
        EffectSpec::Damage(d) => {
            ui.label("to");
            changed |= who_combo(ui, ("then-who", id), &mut d.at, whos);
            ui.label("and within");
            merged |= ui.add(egui::DragValue::new(&mut d.around).range(0..=8).clamp_existing_to_range(false)).changed();
            ui.label("squares:");
            merged |= ui.add(egui::DragValue::new(&mut d.amount).range(1..=99).clamp_existing_to_range(false)).changed();
            ui.label("points of");
            egui::ComboBox::from_id_salt(("then-dmg", id)).width(90.0).selected_text(format!("{:?}", d.kind)).show_ui(ui, |ui| {
                changed |= ui.selectable_value(&mut d.kind, DamageKindSpec::Explosion, "Explosion").changed();
                changed |= ui.selectable_value(&mut d.kind, DamageKindSpec::Poison, "Poison").changed();
            });
            if d.around > 0 {
                ui.label("sparing");
                changed |= ticks(ui, &mut d.spare, v);
            }
        }
        EffectSpec::Absorb(fact) => changed |= name_combo(ui, ("then-fact", id), fact, &v.facts),
        EffectSpec::Soak(n) => merged |= ui.add(egui::DragValue::new(n).range(1..=99).clamp_existing_to_range(false)).changed(),
        EffectSpec::AddFact(w, fact, n) | EffectSpec::SetFact(w, fact, n) => {
            changed |= who_combo(ui, ("then-who", id), w, whos);
            changed |= name_combo(ui, ("then-fact", id), fact, &v.facts);
            merged |= ui.add(egui::DragValue::new(n).range(-99..=99).clamp_existing_to_range(false)).changed();
        }
        EffectSpec::Transform(w, name) => {
            changed |= who_combo(ui, ("then-who", id), w, whos);
            ui.label("becomes a");
            changed |= name_combo(ui, ("then-piece", id), name, &v.pieces);
        }
        EffectSpec::Spawn(name, place) => {
            changed |= name_combo(ui, ("then-piece", id), name, &v.pieces);
            changed |= place_combo(ui, ("then-place", id), place, whos);
        }
        EffectSpec::Cancel(reason) | EffectSpec::Draw(reason) | EffectSpec::Note(reason) => merged |= text(ui, reason),
        EffectSpec::Win(w, reason) | EffectSpec::Lose(w, reason) => {
            ui.label("(the side of");
            changed |= who_combo(ui, ("then-who", id), w, whos);
            ui.label(") because");
            merged |= text(ui, reason);
        }
        EffectSpec::ToHand(w, camp) => {
            changed |= who_combo(ui, ("then-who", id), w, whos);
            ui.label("goes to the hand of");
            changed |= camp_combo(ui, ("then-camp", id), camp);
        }
        EffectSpec::FromHand(name, place) => {
            changed |= name_combo(ui, ("then-piece", id), name, &v.pieces);
            changed |= place_combo(ui, ("then-place", id), place, whos);
        }
        EffectSpec::SetState(name, n) | EffectSpec::AddState(name, n) => {
            merged |= ui.add(egui::TextEdit::singleline(name).desired_width(90.0)).changed();
            merged |= ui.add(egui::DragValue::new(n).range(-99..=99).clamp_existing_to_range(false)).changed();
        }
        EffectSpec::Show(anim, w) => {
            egui::ComboBox::from_id_salt(("then-anim", id)).width(100.0).selected_text(format!("{anim:?}")).show_ui(ui, |ui| {
                for a in [
                    ShowSpec::Sparkle,
                    ShowSpec::Explosion,
                    ShowSpec::Poison,
                    ShowSpec::Heal,
                    ShowSpec::Fission,
                    ShowSpec::ShieldBroken,
                    ShowSpec::Spawn,
                    ShowSpec::Tired,
                ] {
                    changed |= ui.selectable_value(anim, a, format!("{a:?}")).changed();
                }
            });
            ui.label("at");
            changed |= who_combo(ui, ("then-who", id), w, whos);
        }
    }
    (changed, merged)
}
