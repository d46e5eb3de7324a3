//! HpBonus: extra hit points. A piece with a bonus has the hit points piece-hp gives (its `hp`,
//! or 1 without it) plus the bonus, and its damage goes through the hit-point absorber even
//! without piece-hp. Additive.

use super::{FormField, ModifierDef, Mods, Stacking, Value, ValueSchema, Widget};

/// The descriptor.
pub const HP_BONUS: ModifierDef = ModifierDef {
    id: "hp-bonus",
    attr_name: "HpBonus",
    label: "Extra hit points",
    schema: ValueSchema::Whole { min: -98, max: 98 },
    stacking: Stacking::Additive,
    apply,
    describe,
    ui_form: &[FormField { key: "hp-bonus", label: "Extra hit points", widget: Widget::Whole { min: -98, max: 98 } }],
};

fn apply(m: &mut Mods, v: &Value, _: &crate::rules::Variant) -> Result<(), String> {
    m.hp_bonus = m.hp_bonus.saturating_add(HP_BONUS.schema.whole(v)?);
    Ok(())
}

fn describe(v: &Value) -> String {
    match v {
        Value::Int(n) if *n < 0 => format!("{} hit point{} fewer", -n, if *n == -1 { "" } else { "s" }),
        Value::Int(n) => format!("{n} extra hit point{}", if *n == 1 { "" } else { "s" }),
        other => format!("extra hit points {other:?}"),
    }
}
