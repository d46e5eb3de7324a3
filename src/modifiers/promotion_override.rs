//! PromotionOverride: the letters of the types a piece may promote to, replacing the variant's
//! choices (for pieces that promote on the promotion rank). Precedence: a per-instance entry
//! wins over a per-type one.

use super::{FormField, ModifierDef, Mods, Stacking, Value, ValueSchema, Widget};

/// The descriptor.
pub const PROMOTION_OVERRIDE: ModifierDef = ModifierDef {
    id: "promotion-override",
    attr_name: "PromotionOverride",
    label: "Promotes to",
    schema: ValueSchema::Letters,
    stacking: Stacking::Precedence,
    apply,
    describe,
    ui_form: &[FormField { key: "promotion-override", label: "Promotes to (letters)", widget: Widget::Letters }],
};

fn apply(m: &mut Mods, v: &Value, variant: &crate::rules::Variant) -> Result<(), String> {
    let letters: Vec<char> = match v {
        Value::Text(t) => t.chars().collect(),
        Value::List(l) if l.iter().all(|s| s.chars().count() == 1) => l.iter().filter_map(|s| s.chars().next()).collect(),
        other => return Err(format!("expected piece letters such as \"QN\", found {other:?}")),
    };
    if letters.is_empty() {
        return Err("no piece letters: a piece must be able to promote to something".into());
    }
    let reg = &variant.registry;
    let mut kinds = Vec::new();
    for c in letters {
        let kind = reg.by_letter(c).ok_or_else(|| format!("no piece type with the letter '{c}' in this variant"))?;
        if reg.def(kind).royal {
            return Err(format!("'{c}' is a royal type: no piece may promote to it"));
        }
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    m.promotion = Some(kinds);
    Ok(())
}

fn describe(v: &Value) -> String {
    match v {
        Value::Text(t) => format!("promotes only to {t}"),
        Value::List(l) => format!("promotes only to {}", l.concat()),
        other => format!("promotes to {other:?}"),
    }
}
