//! CaptureFlags: `CANNOT_BE_CAPTURED` (no move may capture the piece; explosions still hit it,
//! as damage resistance governs) and `CANNOT_CAPTURE` (the piece's captures are dropped, so it
//! gives no check either). OR of the flags.

use super::{FormField, ModifierDef, Mods, Stacking, Value, ValueSchema, Widget};

/// The piece cannot be captured.
pub const CANNOT_BE_CAPTURED: u8 = 1;
/// The piece cannot capture.
pub const CANNOT_CAPTURE: u8 = 2;

const NAMES: [(&str, u8); 2] = [("CANNOT_BE_CAPTURED", CANNOT_BE_CAPTURED), ("CANNOT_CAPTURE", CANNOT_CAPTURE)];

/// The descriptor.
pub const CAPTURE_FLAGS: ModifierDef = ModifierDef {
    id: "capture-flags",
    attr_name: "CaptureFlags",
    label: "Capture rules",
    schema: ValueSchema::Flags(&["CANNOT_BE_CAPTURED", "CANNOT_CAPTURE"]),
    stacking: Stacking::Or,
    apply,
    describe,
    ui_form: &[FormField {
        key: "capture-flags",
        label: "Capture rules",
        widget: Widget::Checkboxes(&[("CANNOT_BE_CAPTURED", "cannot be captured"), ("CANNOT_CAPTURE", "cannot capture")]),
    }],
};

/// The flags a value names.
pub fn flags(v: &Value) -> Result<u8, String> {
    let names: Vec<&str> = match v {
        Value::Text(t) => vec![t.as_str()],
        Value::List(l) => l.iter().map(String::as_str).collect(),
        other => return Err(format!("expected a list such as [\"CANNOT_BE_CAPTURED\"], found {other:?}")),
    };
    names.iter().try_fold(0u8, |acc, name| match NAMES.iter().find(|(n, _)| n == name) {
        Some((_, bit)) => Ok(acc | bit),
        None => Err(format!("no capture flag '{name}'; there are CANNOT_BE_CAPTURED and CANNOT_CAPTURE")),
    })
}

fn apply(m: &mut Mods, v: &Value, _: &crate::rules::Variant) -> Result<(), String> {
    m.capture |= flags(v)?;
    Ok(())
}

fn describe(v: &Value) -> String {
    let f = flags(v).unwrap_or(0);
    let mut parts = Vec::new();
    if f & CANNOT_BE_CAPTURED != 0 {
        parts.push("cannot be captured");
    }
    if f & CANNOT_CAPTURE != 0 {
        parts.push("cannot capture");
    }
    if parts.is_empty() { "no capture rules".into() } else { parts.join(" and ") }
}
