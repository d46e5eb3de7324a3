//! DamageResistance: a fraction r of every hit is resisted, with no randomness: a hit of n deals
//! floor(n·(1−r) + carry) and the remainder is carried to the next hit (a piece fact, in the
//! hash). Multiplicative: 1 − ∏(1 − rᵢ), clamped to 0..=1; kept to thousandths.

use super::{FormField, ModifierDef, Mods, Stacking, Value, ValueSchema, Widget};

/// The descriptor.
pub const DAMAGE_RESISTANCE: ModifierDef = ModifierDef {
    id: "damage-resistance",
    attr_name: "DamageResistance",
    label: "Damage resistance",
    schema: ValueSchema::Fraction,
    stacking: Stacking::Multiplicative,
    apply,
    describe,
    ui_form: &[FormField { key: "damage-resistance", label: "Resisted share of each hit", widget: Widget::Fraction }],
};

fn apply(m: &mut Mods, v: &Value, _: &crate::rules::Variant) -> Result<(), String> {
    let r = DAMAGE_RESISTANCE.schema.fraction(v)?;
    m.keep *= 1.0 - r;
    m.resisted = true;
    Ok(())
}

fn describe(v: &Value) -> String {
    match DAMAGE_RESISTANCE.schema.fraction(v) {
        Ok(r) => format!("resists {:.0}% of each hit", r * 100.0),
        Err(_) => format!("damage resistance {v:?}"),
    }
}
