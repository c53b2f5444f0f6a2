//! RFC 6902 JSON Patch applied under [`Limits`]: the AG-UI `ACTIVITY_DELTA` path.
//!
//! `json_patch::patch` has no bound: forty `copy` operations of a list onto its own end
//! double it forty times, and `move` chains nest a value deeper with every event (deep
//! enough, dropping it overflows the stack). Here the operations are applied one at a time
//! to a copy of the document, each checked *before* it runs:
//!
//! - at most [`Limits::max_patch_ops`] operations;
//! - the document, as serialized, stays within [`Limits::max_message_bytes`] (what one
//!   snapshot may hold). The size is kept as an upper bound that grows by what each
//!   operation adds (an added value, the source of a `copy`, measured before it is cloned,
//!   with a counting writer that stops past the cap) and is measured exactly again only
//!   when the bound passes the cap;
//! - its nesting stays within [`Limits::max_json_depth`] (`{}` is depth 1): a value put at a
//!   pointer of `k` segments adds `k` levels above its own depth;
//! - the measuring itself is bounded: one patch may measure at most four times
//!   `max_message_bytes` bytes (and as many nodes), so a patch of many `copy`/`move`
//!   operations of a large subtree costs a bounded amount of work.
//!
//! A refused patch leaves the document as it was.

use json_patch::PatchOperation;
use serde_json::Value;

use super::http::json_size;
use crate::limits::Limits;

/// Why a patch was refused.
#[derive(Debug, PartialEq)]
pub(crate) enum PatchRefusal {
    /// Over one of the caps: which (`max_patch_ops`, `max_message_bytes`, `max_json_depth`,
    /// `patch work`) and its value.
    Limit { what: &'static str, limit: usize },
    /// An operation does not apply (a missing path, a failed `test`).
    Invalid(String),
}

/// The nesting depth of `v` (`1` for `{}`, `0` for a scalar) and its node count. Recursive:
/// only called on values already held to the depth cap (the document) or parsed by
/// serde_json (at most 128 deep).
fn depth_and_nodes(v: &Value) -> (usize, usize) {
    match v {
        Value::Array(a) => a.iter().fold((1, 1), |(d, n), x| {
            let (xd, xn) = depth_and_nodes(x);
            (d.max(xd + 1), n.saturating_add(xn))
        }),
        Value::Object(m) => m.values().fold((1, 1), |(d, n), x| {
            let (xd, xn) = depth_and_nodes(x);
            (d.max(xd + 1), n.saturating_add(xn))
        }),
        _ => (0, 1),
    }
}

/// The work budget of one patch and the running upper bound of the document's size.
struct Budget<'l> {
    limits: &'l Limits,
    work: usize,
    size: usize,
}

impl Budget<'_> {
    fn spend(&mut self, n: usize) -> Result<(), PatchRefusal> {
        let max = self.limits.max_message_bytes.saturating_mul(4);
        self.work = self.work.saturating_add(n);
        if self.work > max {
            return Err(PatchRefusal::Limit {
                what: "patch work",
                limit: max,
            });
        }
        Ok(())
    }

    fn too_large(&self) -> PatchRefusal {
        PatchRefusal::Limit {
            what: "max_message_bytes",
            limit: self.limits.max_message_bytes,
        }
    }

    /// The serialized size of `v`, charged to the work budget; over the size cap is a
    /// refusal.
    fn measure(&mut self, v: &Value) -> Result<usize, PatchRefusal> {
        let cap = self.limits.max_message_bytes;
        let n = json_size(v, cap);
        self.spend(n.unwrap_or(cap))?;
        n.ok_or_else(|| self.too_large())
    }

    /// The depth of `v`, its node count charged to the work budget.
    fn depth(&mut self, v: &Value) -> Result<usize, PatchRefusal> {
        let (d, n) = depth_and_nodes(v);
        self.spend(n)?;
        Ok(d)
    }

    /// The document may grow by `added` bytes: keep the bound, measuring the document
    /// exactly when the bound passes the cap.
    fn grow(&mut self, doc: &Value, added: usize) -> Result<(), PatchRefusal> {
        let cap = self.limits.max_message_bytes;
        if self.size.saturating_add(added) > cap {
            self.size = self.measure(doc)?;
            if self.size.saturating_add(added) > cap {
                return Err(self.too_large());
            }
        }
        self.size = self.size.saturating_add(added);
        Ok(())
    }

    /// A value of depth `d` put at `path` must keep the document within the depth cap.
    fn fits_depth(&self, path: &str, d: usize) -> Result<(), PatchRefusal> {
        let k = path.split('/').count().saturating_sub(1);
        let max = self.limits.max_json_depth;
        if k.saturating_add(d) > max {
            return Err(PatchRefusal::Limit {
                what: "max_json_depth",
                limit: max,
            });
        }
        Ok(())
    }
}

/// The bytes a new member at `path` adds beside its value: its key, quotes, colon, comma.
fn key_bytes(path: &str) -> usize {
    path.rsplit('/')
        .next()
        .map_or(0, str::len)
        .saturating_add(4)
}

/// Check one operation against the caps before it runs on `doc`.
fn check_op(budget: &mut Budget<'_>, doc: &Value, op: &PatchOperation) -> Result<(), PatchRefusal> {
    match op {
        PatchOperation::Add(a) => {
            let p = a.path.as_str();
            let d = budget.depth(&a.value)?;
            budget.fits_depth(p, d)?;
            let n = budget.measure(&a.value)?;
            budget.grow(doc, n.saturating_add(key_bytes(p)))?;
        }
        PatchOperation::Replace(r) => {
            let p = r.path.as_str();
            let d = budget.depth(&r.value)?;
            budget.fits_depth(p, d)?;
            let n = budget.measure(&r.value)?;
            budget.grow(doc, n)?;
        }
        PatchOperation::Copy(c) => {
            let p = c.path.as_str();
            let Some(source) = doc.pointer(c.from.as_str()) else {
                return Err(PatchRefusal::Invalid(format!(
                    "copy: no value at {:?}",
                    c.from.as_str()
                )));
            };
            let d = budget.depth(source)?;
            budget.fits_depth(p, d)?;
            let n = budget.measure(source)?;
            budget.grow(doc, n.saturating_add(key_bytes(p)))?;
        }
        PatchOperation::Move(m) => {
            let p = m.path.as_str();
            if let Some(source) = doc.pointer(m.from.as_str()) {
                let d = budget.depth(source)?;
                budget.fits_depth(p, d)?;
            }
            budget.grow(doc, key_bytes(p))?;
        }
        PatchOperation::Remove(_) | PatchOperation::Test(_) => {}
    }
    Ok(())
}

/// Apply `ops` to `doc` within `limits`; on any refusal `doc` is unchanged. `known_size` is
/// an upper bound of `doc`'s serialized size from the last patch (this function's return
/// value), so a stream of small deltas on a large document does not measure it each time.
/// Returns an upper bound of the patched document's serialized size (at most
/// `max_message_bytes`).
pub(crate) fn apply_bounded(
    doc: &mut Value,
    ops: &[PatchOperation],
    limits: &Limits,
    known_size: Option<usize>,
) -> Result<usize, PatchRefusal> {
    if ops.len() > limits.max_patch_ops {
        return Err(PatchRefusal::Limit {
            what: "max_patch_ops",
            limit: limits.max_patch_ops,
        });
    }
    let mut budget = Budget {
        limits,
        work: 0,
        size: 0,
    };
    budget.size = match known_size {
        Some(n) if n <= limits.max_message_bytes => n,
        _ => budget.measure(doc)?,
    };
    if let [op] = ops {
        // One operation (a streamed append, the common delta): checked, then applied in
        // place; `json_patch::patch` leaves the document unchanged when it fails, so no
        // copy of the document is needed.
        check_op(&mut budget, doc, op)?;
        json_patch::patch(doc, ops).map_err(|e| PatchRefusal::Invalid(e.to_string()))?;
        return Ok(budget.size);
    }
    // A copy, so a refusal half-way leaves the document as it was. Its depth is within
    // the cap (every operation keeps it so), so cloning and dropping it cannot overflow.
    let mut work = doc.clone();
    for op in ops {
        check_op(&mut budget, &work, op)?;
        json_patch::patch(&mut work, std::slice::from_ref(op))
            .map_err(|e| PatchRefusal::Invalid(e.to_string()))?;
    }
    *doc = work;
    Ok(budget.size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ops(v: Value) -> Vec<PatchOperation> {
        serde_json::from_value::<json_patch::Patch>(v).unwrap().0
    }

    #[test]
    fn json_size_counts_serialized_bytes_and_stops_past_the_cap() {
        let v = json!({"a": [1, "xy"]});
        assert_eq!(json_size(&v, 100), Some(v.to_string().len()));
        assert_eq!(json_size(&v, 3), None);
    }

    #[test]
    fn a_normal_patch_applies_and_a_failing_one_changes_nothing() {
        let limits = Limits::default();
        let mut doc = json!({"a": [1]});
        apply_bounded(
            &mut doc,
            &ops(json!([{"op": "add", "path": "/a/-", "value": 2}])),
            &limits,
            None,
        )
        .unwrap();
        assert_eq!(doc, json!({"a": [1, 2]}));
        let r = apply_bounded(
            &mut doc,
            &ops(json!([{"op": "add", "path": "/a/-", "value": 3},
                        {"op": "remove", "path": "/nothing"}])),
            &limits,
            None,
        );
        assert!(matches!(r, Err(PatchRefusal::Invalid(_))), "{r:?}");
        assert_eq!(doc, json!({"a": [1, 2]}), "the first op was undone");
    }

    #[test]
    fn doubling_copies_stop_at_the_size_cap_before_cloning() {
        let limits = Limits {
            max_message_bytes: 64 * 1024,
            ..Limits::default()
        };
        let mut doc = json!({"x": ["k".repeat(1024)]});
        let copy = json!({"op": "copy", "from": "/x", "path": "/x/-"});
        let r = apply_bounded(&mut doc, &ops(Value::Array(vec![copy; 40])), &limits, None);
        assert_eq!(
            r,
            Err(PatchRefusal::Limit {
                what: "max_message_bytes",
                limit: 64 * 1024
            })
        );
        assert_eq!(doc, json!({"x": ["k".repeat(1024)]}));
    }

    #[test]
    fn depth_is_checked_before_each_op() {
        let limits = Limits {
            max_json_depth: 5,
            ..Limits::default()
        };
        let mut doc = json!({"a": {"b": {}}});
        // /a/b/c holding {"d": {}}: 3 segments + depth 2 = 5, allowed.
        apply_bounded(
            &mut doc,
            &ops(json!([{"op": "add", "path": "/a/b/c", "value": {"d": {}}}])),
            &limits,
            None,
        )
        .unwrap();
        let r = apply_bounded(
            &mut doc,
            &ops(json!([{"op": "add", "path": "/a/b/c/d/e", "value": {}}])),
            &limits,
            None,
        );
        assert!(
            matches!(
                r,
                Err(PatchRefusal::Limit {
                    what: "max_json_depth",
                    ..
                })
            ),
            "{r:?}"
        );
    }

    #[test]
    fn a_single_append_applies_in_place_and_a_bad_one_changes_nothing() {
        let limits = Limits {
            max_message_bytes: 200,
            ..Limits::default()
        };
        let mut doc = json!({"ops": []});
        let mut size = None;
        for i in 0..5 {
            let op = ops(json!([{"op": "add", "path": "/ops/-", "value": {"n": i}}]));
            size = Some(apply_bounded(&mut doc, &op, &limits, size).unwrap());
        }
        assert_eq!(doc["ops"].as_array().unwrap().len(), 5);
        // The kept bound is an upper bound of the real size.
        assert!(size.unwrap() >= serde_json::to_string(&doc).unwrap().len());
        // A path that does not exist, and an append past the size cap: refused, unchanged.
        let before = doc.clone();
        let bad = ops(json!([{"op": "add", "path": "/nothing/x", "value": 1}]));
        assert!(matches!(
            apply_bounded(&mut doc, &bad, &limits, size),
            Err(PatchRefusal::Invalid(_))
        ));
        let big = ops(json!([{"op": "add", "path": "/ops/-", "value": "x".repeat(300)}]));
        assert!(matches!(
            apply_bounded(&mut doc, &big, &limits, size),
            Err(PatchRefusal::Limit { .. })
        ));
        assert_eq!(doc, before);
    }
}
