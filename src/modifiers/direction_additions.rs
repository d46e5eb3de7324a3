//! DirectionAdditions: more moves, in Betza notation (`F` adds one diagonal step, `mfW2` two
//! quiet steps forward). Union: a move several sources add is there once.

use super::{FormField, ModifierDef, Mods, Stacking, Value, ValueSchema, Widget};

/// The descriptor.
pub const DIRECTION_ADDITIONS: ModifierDef = ModifierDef {
    id: "direction-additions",
    attr_name: "DirectionAdditions",
    label: "Added moves",
    schema: ValueSchema::Betza,
    stacking: Stacking::Union,
    apply,
    describe,
    ui_form: &[FormField { key: "direction-additions", label: "Added moves (Betza)", widget: Widget::Betza }],
};

fn apply(m: &mut Mods, v: &Value, _: &crate::rules::Variant) -> Result<(), String> {
    let Value::Text(text) = v else { return Err(format!("expected Betza text such as \"F\", found {v:?}")) };
    let atoms = crate::rules::parse_betza(text).map_err(|e| format!("Betza '{text}': {e}"))?;
    for a in atoms {
        if !m.added.contains(&a) {
            m.added.push(a);
        }
    }
    if !m.added_betza.split('+').any(|t| t == text) {
        if !m.added_betza.is_empty() {
            m.added_betza.push('+');
        }
        m.added_betza.push_str(text);
    }
    Ok(())
}

fn describe(v: &Value) -> String {
    match v {
        Value::Text(t) => match crate::rules::parse_betza(t) {
            Ok(atoms) => format!("also moves {t} ({} direction{})", atoms.len(), if atoms.len() == 1 { "" } else { "s" }),
            Err(_) => format!("also moves {t}"),
        },
        other => format!("added moves {other:?}"),
    }
}
