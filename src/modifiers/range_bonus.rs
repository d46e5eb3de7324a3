//! RangeBonus: every finite slide of the piece goes further (W2 becomes W4 with a bonus of 2);
//! leapers and unlimited riders are unchanged. A lame leap straight along one line (the pawn's
//! `nD` double step, the elephant's `nA`) counts as a slide of its length. Additive, the sum
//! clamped to `0..=n-1` for a board whose longer side has n squares (0..=7 on 8×8).

use super::{FormField, ModifierDef, Mods, Stacking, Value, ValueSchema, Widget};

/// The descriptor.
pub const RANGE_BONUS: ModifierDef = ModifierDef {
    id: "range-bonus",
    attr_name: "RangeBonus",
    label: "Longer slides",
    schema: ValueSchema::Whole { min: -15, max: 15 },
    stacking: Stacking::AdditiveClamped,
    apply,
    describe,
    ui_form: &[FormField { key: "range-bonus", label: "Extra squares on finite slides", widget: Widget::Whole { min: -15, max: 15 } }],
};

fn apply(m: &mut Mods, v: &Value, _: &crate::rules::Variant) -> Result<(), String> {
    m.range_bonus = m.range_bonus.saturating_add(RANGE_BONUS.schema.whole(v)?);
    Ok(())
}

fn describe(v: &Value) -> String {
    match v {
        Value::Int(n) => format!("finite slides reach {n} square{} further", if n.abs() == 1 { "" } else { "s" }),
        other => format!("range bonus {other:?}"),
    }
}
