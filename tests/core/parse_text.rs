//! `protocol::parse_message_text` (the ingest path: a message's text deserialized straight
//! into the message types) gives exactly what the `Value` path gives
//! (`parse_message_owned(serde_json::from_str(text))`): the same envelope for every message
//! of every stream in `tests/data`, and the same envelope or the same error for messages
//! built to trip a typed parser (key order, duplicate keys, wrong types, missing parts,
//! v1.0 reserved keys, escapes).

use std::path::Path;

use egui_a2ui::A2uiError;
use egui_a2ui::protocol::{Envelope, parse_message_owned, parse_message_text};
use serde_json::Value;

fn value_path(text: &str) -> Result<Envelope, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| A2uiError::Json(e.to_string()).to_string())?;
    parse_message_owned(v).map_err(|e| e.to_string())
}

fn check(text: &str) -> bool {
    let fast = parse_message_text(text).map_err(|e| e.to_string());
    assert_eq!(fast, value_path(text), "message: {text}");
    fast.is_ok()
}

/// Every message of every JSON / JSONL file under `dir` whose messages carry a `version` or
/// a known v0.8 type.
fn messages(dir: &Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            messages(&p, out);
            continue;
        }
        let Ok(bytes) = std::fs::read(&p) else {
            continue;
        };
        let docs: Vec<Value> = match p.extension().and_then(|x| x.to_str()) {
            Some("jsonl") => bytes
                .split(|b| *b == b'\n')
                .filter_map(|l| serde_json::from_slice(l).ok())
                .collect(),
            Some("json") => serde_json::from_slice(&bytes).into_iter().collect(),
            _ => continue,
        };
        for d in docs {
            let list = match d {
                Value::Array(a) => a,
                Value::Object(mut o) => match o.remove("messages") {
                    Some(Value::Array(a)) => a,
                    _ => vec![Value::Object(o)],
                },
                _ => continue,
            };
            for m in list {
                let is_message = m.as_object().is_some_and(|o| {
                    o.contains_key("version")
                        || o.contains_key("surfaceUpdate")
                        || o.contains_key("beginRendering")
                        || o.contains_key("dataModelUpdate")
                });
                if is_message {
                    out.push(m.to_string());
                }
            }
        }
    }
}

#[test]
fn every_message_in_the_test_data_parses_the_same_from_text() {
    let mut all = Vec::new();
    messages(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data"),
        &mut all,
    );
    assert!(all.len() > 300, "only {} messages found", all.len());
    let ok = all.iter().filter(|m| check(m)).count();
    // Most of them are valid messages (some fixtures are deliberately invalid).
    assert!(ok * 10 > all.len() * 8, "{ok} of {} parsed", all.len());
}

#[test]
fn tricky_messages_parse_or_fail_the_same_from_text() {
    const C: &str =
        r#""catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json""#;
    let cases = [
        // The common shapes.
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"root","component":"Text","text":"hi"}]}}"#.to_owned(),
        r#"{"version":"v0.9.1","updateComponents":{"components":[{"component":"Text","id":"a","text":{"path":"/x"}}],"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":"/a/b","value":{"x":[1,2.5,-3,1e300,"s",null,true]}}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":null}}"#.to_owned(),
        r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/a"}}"#.to_owned(),
        r#"{"version":"v1.0","updateDataModel":{"surfaceId":"s","path":"/a","value":null}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C}}}}}"#),
        format!(r#"{{"version":"v0.9.1","createSurface":{{{C},"surfaceId":"s","sendDataModel":true,"theme":{{"primaryColor":"blue","x":[1]}}}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},"theme":5}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},"sendDataModel":"yes"}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},"components":[]}}}}"#),
        format!(r#"{{"version":"v0.9","createSurface":{{"surfaceId":"s",{C},{C}}}}}"#),
        r#"{"version":"v0.9","createSurface":{"surfaceId":"s"}}"#.to_owned(),
        format!(r#"{{"version":"v1.0","createSurface":{{"surfaceId":"s",{C},"dataModel":{{"a":1}}}}}}"#),
        r#"{"version":"v1.0","createSurface":{"surfaceId":"s"}}"#.to_owned(),
        // Key order, duplicates, extra keys.
        r#"{"updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text"}]},"version":"v0.9"}"#.to_owned(),
        r#"{"version":"v0.9","version":"v0.9","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s","surfaceId":"t"}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"},"createSurface":{"surfaceId":"t"}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s","extra":1}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","id":"b","component":"Text"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","text":"1","text":"2","x":0}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"component":"Text"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":7,"component":"Text"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":null}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":["a"]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":{"id":"a"}}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","path":5,"value":1}}"#.to_owned(),
        r#"{"version":"v0.9","updateDataModel":{"surfaceId":"s","value":1,"value":2}}"#.to_owned(),
        r#"{"version":"v7","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":1,"deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"version":"v0.9"}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":"s"}"#.to_owned(),
        // Escapes in keys and values; trailing garbage; not JSON.
        r#"{"vers\u0069on":"v0.9","deleteSurface":{"surface\u0049d":"s\n\"x\""}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"\u0069d":"a","component":"Te\u0078t","t\u00e9xt":"\ud83d\ude00"}]}}"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}} x"#.to_owned(),
        r#"{"version":"v0.9","deleteSurface":{"surfaceId":"s"}"#.to_owned(),
        "not json".to_owned(),
        "[]".to_owned(),
        // v1.0 reserved keys and catalogs; v0.8; RPC.
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","@catalogId":"c","text":{"@path":"/x"},"@accessibility":{"label":"l"}}]}}"#.to_owned(),
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","catalogId":"c","text":"t"}]}}"#.to_owned(),
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Text","catalogId":5}]}}"#.to_owned(),
        r#"{"version":"v1.0","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Surface"}]}}"#.to_owned(),
        r#"{"version":"v0.9","updateComponents":{"surfaceId":"s","components":[{"id":"a","component":"Surface","@catalogId":"c"}]}}"#.to_owned(),
        r#"{"version":"v1.0","functionCallId":"f","deleteSurface":{"surfaceId":"s"}}"#.to_owned(),
        r#"{"surfaceUpdate":{"surfaceId":"s","components":[{"id":"a","component":{"Text":{"text":{"literalString":"x"}}}}]}}"#.to_owned(),
        r#"{"version":"v1.0","agentFunctionResponse":{"functionCallId":"f","value":1}}"#.to_owned(),
    ];
    let ok = cases.iter().filter(|c| check(c)).count();
    assert!(
        ok >= 10 && ok < cases.len(),
        "{ok} of {} accepted",
        cases.len()
    );
}
