//! Non-streaming: a whole answer split into parts, and a payload repaired the way models
//! commonly break it (the reference's `parse_response` and `_fix_payload`, `parser.yaml`).

use super::*;

/// Whether `content` holds both tags.
pub fn has_a2ui_parts(content: &str) -> bool {
    content.contains(OPEN_TAG) && content.contains(CLOSE_TAG)
}

fn sanitize_json_string(s: &str) -> &str {
    let mut s = s.trim();
    if let Some(r) = s.strip_prefix("```json") {
        s = r;
    } else if let Some(r) = s.strip_prefix("```") {
        s = r;
    }
    if let Some(r) = s.strip_suffix("```") {
        s = r;
    }
    s.trim()
}

/// Parse a whole answer: for each block, the (trimmed) prose before it and its messages;
/// then the trailing prose. Errors as the reference's `parse_response`.
pub fn parse_response(content: &str) -> Result<Vec<ResponsePart>, ModelTextError> {
    let mut parts = Vec::new();
    let mut rest = content;
    let mut found = false;
    while let Some(o) = rest.find(OPEN_TAG) {
        let after = rest.get(o + OPEN_TAG.len()..).unwrap_or_default();
        // A close tag inside a JSON string value is payload text.
        let Some(c) = scan::find_close_outside_strings(after) else {
            break;
        };
        found = true;
        let text = rest.get(..o).unwrap_or_default().trim().to_owned();
        let json = sanitize_json_string(after.get(..c).unwrap_or_default());
        if json.is_empty() {
            return Err(ModelTextError::Parse("A2UI JSON part is empty.".to_owned()));
        }
        parts.push(ResponsePart {
            text,
            a2ui: Some(
                fix_payload(json)?
                    .into_iter()
                    .map(ModelMessage::from)
                    .collect(),
            ),
        });
        rest = after.get(c + CLOSE_TAG.len()..).unwrap_or_default();
    }
    if !found {
        return Err(ModelTextError::Parse(format!(
            "A2UI tags '{OPEN_TAG}' and '{CLOSE_TAG}' not found in response."
        )));
    }
    let trailing = rest.trim();
    if !trailing.is_empty() {
        parts.push(ResponsePart {
            text: trailing.to_owned(),
            a2ui: None,
        });
    }
    Ok(parts)
}

/// Parse an A2UI payload a model wrote, repairing what models commonly get wrong: smart
/// quotes and trailing commas. A single object is wrapped in a list.
pub fn fix_payload(payload: &str) -> Result<Vec<Value>, ModelTextError> {
    let normalized = payload
        .replace(['\u{201C}', '\u{201D}'], "\"")
        .replace(['\u{2018}', '\u{2019}'], "'");
    let parse = |s: &str| match serde_json::from_str::<Value>(s) {
        Ok(Value::Array(a)) => Ok(a),
        Ok(other) => Ok(vec![other]),
        Err(e) => Err(ModelTextError::Parse(e.to_string())),
    };
    match parse(&normalized) {
        Ok(v) => Ok(v),
        Err(_) => parse(&remove_trailing_commas(&normalized)),
    }
}

/// `,(?=\s*[\]}])` removed, as the reference does (strings included).
fn remove_trailing_commas(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        if c == ',' {
            let rest = s.get(i + 1..).unwrap_or_default().trim_start();
            if rest.starts_with(']') || rest.starts_with('}') {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_commas_are_removed_before_a_closing_bracket() {
        assert_eq!(remove_trailing_commas(r#"[1, 2, ]"#), "[1, 2 ]");
        assert_eq!(remove_trailing_commas("{\"a\": 1,\n}"), "{\"a\": 1\n}");
        assert_eq!(remove_trailing_commas("[1, 2]"), "[1, 2]");
    }

    #[test]
    fn a_payload_is_repaired_and_a_single_object_wrapped() {
        assert_eq!(
            fix_payload("{\u{201C}a\u{201D}: 1,}").expect("repaired"),
            vec![serde_json::json!({"a": 1})]
        );
        assert_eq!(
            fix_payload("[1, 2]").expect("list"),
            vec![Value::from(1), Value::from(2)]
        );
        assert!(matches!(
            fix_payload("{nope"),
            Err(ModelTextError::Parse(_))
        ));
    }

    #[test]
    fn whole_answers_split_into_parts() {
        let parts = parse_response("a <a2ui-json>```json\n[1]\n```</a2ui-json> b").expect("parts");
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].text, "a");
        assert_eq!(
            parts[0].a2ui,
            Some(vec![ModelMessage::from(Value::from(1))])
        );
        assert_eq!(parts[1].text, "b");
        assert!(parse_response("no tags").is_err());
        assert!(parse_response("<a2ui-json> </a2ui-json>").is_err());
        assert!(has_a2ui_parts("<a2ui-json></a2ui-json>"));
        assert!(!has_a2ui_parts("<a2ui-json>"));
    }
}
