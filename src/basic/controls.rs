//! Small pieces the basic input components share: the visible label of an input, and the
//! JSON number a user-entered value becomes.

use serde_json::Value;

/// Draw the visible label of an input (nothing for an empty label).
pub(crate) fn input_label(ui: &mut egui::Ui, text: &str) -> Option<egui::Response> {
    if text.is_empty() {
        None
    } else {
        Some(ui.label(text))
    }
}

/// A JSON number for a user-entered value: an integer when the value is integral and
/// exactly representable, else a float; `None` for NaN or infinity.
pub(crate) fn number_value(v: f64) -> Option<Value> {
    if !v.is_finite() {
        return None;
    }
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if v.fract() == 0.0 && v.abs() < EXACT {
        #[allow(clippy::cast_possible_truncation)]
        let i = v as i64;
        return Some(Value::from(i));
    }
    serde_json::Number::from_f64(v).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn number_value_writes_integers_as_integers() {
        assert_eq!(number_value(50.0), Some(Value::from(50)));
        assert_eq!(number_value(0.5), Some(serde_json::json!(0.5)));
        assert_eq!(number_value(f64::NAN), None);
        assert_eq!(number_value(f64::INFINITY), None);
    }
}
