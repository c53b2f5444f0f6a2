//! One `<a2ui>` block being written: tokens as they complete, statements as they
//! complete, messages as soon as what they carry is reachable from `root`.

/// The block's maps and sets, keyed by variable and component ids: foldhash, seeded per
/// process, as the JSON path's (several times faster than SipHash on short keys).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// See [`HashMap`].
type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::compile::{Cx, Symbols, component_id};
use super::lexer::{Lexed, Tok, Token, next_token};
use super::parser::{Expr, Parsed, Stmt, parse_statement, recovery_point};
use super::signatures::holds_children;
use super::{ExpressCatalog, ExpressError, ExpressErrorKind};

/// The tag closing an Express block.
pub const EXPRESS_CLOSE_TAG: &str = "</a2ui>";

/// What feeding a block produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExpressOutput {
    /// A2UI messages, in order.
    pub messages: Vec<Value>,
    /// Statements that did not compile.
    pub errors: Vec<ExpressError>,
    /// Placeholders no message refers to any more, as `(surface id, component id)`.
    pub retired: Vec<(String, String)>,
    /// Whether the close tag was read (the text after it is in `rest`).
    pub closed: bool,
    /// Text after the close tag (prose), when `closed`.
    pub rest: String,
}

impl ExpressOutput {
    /// Append `other` (its `closed`/`rest` win when set).
    pub fn append(&mut self, other: Self) {
        self.messages.extend(other.messages);
        self.errors.extend(other.errors);
        self.retired.extend(other.retired);
        if other.closed {
            self.closed = true;
            self.rest = other.rest;
        }
    }
}

/// One surface scope of a block (`surface(...)` or the implicit default one).
#[derive(Debug, Default)]
struct Scope {
    surface_id: String,
    directive: bool,
    send_data_model: Option<bool>,
    update: bool,
    syms: Symbols,
    /// `$/path = value` statements: (path text, compiled value), first-written order.
    data: Vec<(String, Value)>,
    started: bool,
    /// Component id → the form last applied.
    applied: HashMap<String, Value>,
    /// Placeholders applied and not retired.
    live: HashSet<String>,
    /// Per variable: what it compiled to, kept until it or a variable it depends on is
    /// assigned again (so a statement compiles once, not once per later statement).
    compiled: HashMap<String, Compiled>,
}

/// One variable compiled (see `Scope::compiled`).
#[derive(Debug)]
struct Compiled {
    /// The component and the inline components it hoisted (empty: no component).
    comps: Vec<Value>,
    /// The error compiling it gave.
    error: Option<ExpressError>,
    /// The variables its compilation read: those it names, and those named by the
    /// values it inlines (not by the components it refers to).
    deps: HashSet<String>,
}

impl Scope {
    /// `name` was assigned: forget what read it.
    fn invalidate(&mut self, name: &str) {
        self.compiled
            .retain(|k, c| k != name && !c.deps.contains(name));
    }
}

/// The variables compiling `e` reads (see `Compiled::deps`).
fn deps_of(cat: &ExpressCatalog, syms: &Symbols, e: &Expr, out: &mut HashSet<String>) {
    match e {
        Expr::Var(n) => {
            if out.insert(n.clone())
                && let Some(s) = syms.get(n)
                && !matches!(s, Expr::Call(c) if cat.components.contains_key(&c.name))
            {
                deps_of(cat, syms, s, out);
            }
        }
        Expr::Array(items) | Expr::Check(_, items) => {
            for x in items {
                deps_of(cat, syms, x, out);
            }
        }
        Expr::Map(entries) => {
            for (_, x) in entries {
                deps_of(cat, syms, x, out);
            }
        }
        Expr::Call(c) => {
            for x in c.args.iter().chain(c.kwargs.iter().map(|(_, x)| x)) {
                deps_of(cat, syms, x, out);
            }
        }
        Expr::Path(_)
        | Expr::Skip
        | Expr::Str(_)
        | Expr::Number(_)
        | Expr::Bool(_)
        | Expr::Null => {}
    }
}

/// A streaming Express block compiler. Feed it the block's text (after `<a2ui>`) in
/// chunks; it finds the close tag (not inside a string) itself.
#[derive(Debug)]
pub struct ExpressBlock {
    cat: Arc<ExpressCatalog>,
    default_surface: String,
    /// The surface of the last scope flushed (see [`Self::surface_id`]).
    last_surface: String,
    text: String,
    toks: Vec<Token>,
    lex_pos: usize,
    lex_line: u32,
    /// Index in `toks` of the next statement.
    next: usize,
    scope: Option<Scope>,
    units: usize,
    calls: usize,
    /// A syntax error waiting for the place to start again.
    pending_error: Option<(u32, String)>,
    closed: bool,
    /// Compile whole (nothing applied before the scope ends: the reference's message
    /// shapes), for [`super::compile()`].
    whole: bool,
}

fn placeholder(id: &str) -> Value {
    json!({"id": id, "component": "Row", "children": []})
}

fn pointer(path: &str) -> String {
    let p = path.strip_prefix('/').unwrap_or(path);
    format!("/{p}")
}

fn set_nested(model: &mut Map<String, Value>, path: &str, v: Value) {
    let clean = path.strip_prefix('/').unwrap_or(path);
    if clean.is_empty() {
        if let Value::Object(o) = v {
            model.extend(o);
        }
        return;
    }
    let keys: Vec<&str> = clean.split('/').collect();
    let mut cur = model;
    for k in &keys[..keys.len() - 1] {
        let slot = cur
            .entry((*k).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        if !slot.is_object() {
            *slot = Value::Object(Map::new());
        }
        let Value::Object(next) = slot else { return };
        cur = next;
    }
    if let Some(last) = keys.last() {
        cur.insert((*last).to_owned(), v);
    }
}

impl ExpressBlock {
    /// A block compiled against `catalog`, for `default_surface` when it names none.
    pub fn new(catalog: Arc<ExpressCatalog>, default_surface: &str) -> Self {
        Self {
            cat: catalog,
            default_surface: default_surface.to_owned(),
            last_surface: default_surface.to_owned(),
            text: String::new(),
            toks: Vec::new(),
            lex_pos: 0,
            lex_line: 1,
            next: 0,
            scope: None,
            units: 0,
            calls: 0,
            pending_error: None,
            closed: false,
            whole: false,
        }
    }

    /// A block compiled whole: each scope's messages when it ends, in the reference's
    /// shapes (v0.9: `createSurface`, `updateComponents`, `updateDataModel`; v1.0: one
    /// `createSurface` carrying components and data model).
    pub fn whole(catalog: Arc<ExpressCatalog>, default_surface: &str) -> Self {
        let mut b = Self::new(catalog, default_surface);
        b.whole = true;
        b
    }

    /// The end of a block whose text is all there (no close tag needed, nothing
    /// repaired).
    pub fn finish_complete(&mut self) -> ExpressOutput {
        let mut out = ExpressOutput::default();
        if self.closed {
            return out;
        }
        self.lex(true, &mut out);
        self.statements(true, &mut out);
        self.close_block(&mut out);
        out
    }

    /// The surface the block is writing to (the latest `surface(...)` scope, else the
    /// default surface).
    pub fn surface_id(&self) -> &str {
        self.scope
            .as_ref()
            .map_or(self.last_surface.as_str(), |s| s.surface_id.as_str())
    }

    /// The version the block compiles for.
    pub fn version(&self) -> super::ExpressVersion {
        self.cat.version
    }

    /// Bytes of block text held.
    pub fn len(&self) -> usize {
        self.text.len()
    }

    /// Whether no text was fed.
    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Feed block text. Stops at the close tag (`closed`, the rest in `rest`).
    pub fn feed(&mut self, chunk: &str) -> ExpressOutput {
        let mut out = ExpressOutput::default();
        if self.closed {
            out.closed = true;
            out.rest = chunk.to_owned();
            return out;
        }
        self.text.push_str(chunk);
        self.lex(false, &mut out);
        self.statements(false, &mut out);
        if out.closed {
            self.close_block(&mut out);
        }
        out
    }

    /// The end of the answer inside the block (no close tag): what was received is
    /// compiled, a statement cut mid-way repaired (its open string and brackets closed)
    /// so a cut text shows all that arrived, and every scope is flushed.
    pub fn finish(&mut self) -> ExpressOutput {
        let mut out = ExpressOutput::default();
        if self.closed {
            return out;
        }
        self.repair_tail();
        self.lex(true, &mut out);
        self.statements(true, &mut out);
        self.close_block(&mut out);
        out
    }

    fn close_block(&mut self, out: &mut ExpressOutput) {
        self.closed = true;
        if let Some((line, message)) = self.pending_error.take() {
            out.errors.push(ExpressError {
                kind: ExpressErrorKind::Parse,
                line,
                message,
            });
        }
        self.flush_scope(out);
        if self.units == 0 && out.errors.is_empty() {
            out.errors.push(ExpressError {
                kind: ExpressErrorKind::UndefinedRoot,
                line: self.lex_line,
                message: "Root target 'root' is not defined.".into(),
            });
        }
    }

    /// Close an unterminated string and open brackets at the end of the text.
    fn repair_tail(&mut self) {
        let mut stack: Vec<u8> = Vec::new();
        for t in self.toks.get(self.next..).unwrap_or_default() {
            match t.tok {
                Tok::LParen => stack.push(b')'),
                Tok::LBracket => stack.push(b']'),
                Tok::LBrace => stack.push(b'}'),
                Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    stack.pop();
                }
                _ => {}
            }
        }
        let mut pos = self.lex_pos;
        let mut line = self.lex_line;
        let mut tail = String::new();
        loop {
            match next_token(&self.text, pos, line, false) {
                (Lexed::Token(t), l) => {
                    match t.tok {
                        Tok::LParen => stack.push(b')'),
                        Tok::LBracket => stack.push(b']'),
                        Tok::LBrace => stack.push(b'}'),
                        Tok::RParen | Tok::RBracket | Tok::RBrace => {
                            stack.pop();
                        }
                        _ => {}
                    }
                    pos = t.end;
                    line = l;
                }
                (Lexed::End, _) => break,
                (Lexed::Incomplete { at }, _) => {
                    let rest = self.text.get(at..).unwrap_or_default();
                    let body = rest.trim_start_matches(['r', 'R']);
                    if body.starts_with("\"\"\"") {
                        if rest.ends_with('\\') && !rest.starts_with(['r', 'R']) {
                            tail.push('\\');
                        }
                        tail.push_str("\"\"\"");
                    } else if body.starts_with('"') && body.len() > 2 || body == "\"" {
                        if rest.ends_with('\\') && !rest.starts_with(['r', 'R']) {
                            // A cut escape: keep the backslash as written.
                            tail.push('\\');
                        }
                        tail.push('"');
                    }
                    break;
                }
            }
        }
        if stack.is_empty() && tail.is_empty() {
            return;
        }
        tail.push('\n');
        while let Some(c) = stack.pop() {
            tail.push(char::from(c));
        }
        self.text.push_str(&tail);
    }

    fn lex(&mut self, final_: bool, out: &mut ExpressOutput) {
        loop {
            match next_token(&self.text, self.lex_pos, self.lex_line, final_) {
                (Lexed::Token(t), line) => {
                    if t.tok == Tok::Bad('<') {
                        let rest = self.text.get(t.start..).unwrap_or_default();
                        if rest.starts_with(EXPRESS_CLOSE_TAG) {
                            out.closed = true;
                            out.rest = rest
                                .get(EXPRESS_CLOSE_TAG.len()..)
                                .unwrap_or_default()
                                .to_owned();
                            self.text.truncate(t.start);
                            self.lex_pos = t.start;
                            // The block is complete: lex the rest as final.
                            return self.lex(true, &mut ExpressOutput::default());
                        }
                        if !final_ && EXPRESS_CLOSE_TAG.starts_with(rest) {
                            return;
                        }
                    }
                    self.lex_pos = t.end;
                    self.lex_line = line;
                    self.toks.push(t);
                }
                (Lexed::End | Lexed::Incomplete { .. }, _) => return,
            }
        }
    }

    fn statements(&mut self, final_: bool, out: &mut ExpressOutput) {
        let final_ = final_ || out.closed;
        loop {
            if self.next >= self.toks.len() {
                break;
            }
            if self.pending_error.is_some() {
                let (eline, _) = self.pending_error.clone().unwrap_or_default();
                match recovery_point(&self.toks, self.next, eline) {
                    Some(k) => {
                        if let Some((line, message)) = self.pending_error.take() {
                            out.errors.push(ExpressError {
                                kind: ExpressErrorKind::Parse,
                                line,
                                message,
                            });
                        }
                        self.next = k;
                        continue;
                    }
                    None if final_ => {
                        self.next = self.toks.len();
                        break;
                    }
                    None => break,
                }
            }
            match parse_statement(&self.toks, self.next, final_) {
                Parsed::Stmt(s, end) => {
                    let line = self.toks.get(self.next).map_or(1, |t| t.line);
                    self.next = end;
                    self.statement(s, line, out);
                }
                Parsed::Incomplete => break,
                Parsed::Error { line, message } => {
                    self.pending_error =
                        Some((line, format!("Syntax error at line {line}: {message}")));
                }
            }
        }
        // Tokens before the next statement are not read again.
        if self.next > 0 && self.pending_error.is_none() {
            self.toks.drain(..self.next);
            self.next = 0;
        }
    }

    fn scope(&mut self) -> &mut Scope {
        if self.scope.is_none() {
            self.units += 1;
        }
        let d = self.default_surface.clone();
        self.scope.get_or_insert_with(|| Scope {
            surface_id: d,
            ..Scope::default()
        })
    }

    fn statement(&mut self, s: Stmt, line: u32, out: &mut ExpressOutput) {
        match s {
            Stmt::Expr(Expr::Call(c)) if c.name == "surface" => {
                self.flush_scope(out);
                let arg = |i: usize, k: &str| c.kw(k).or_else(|| c.args.get(i));
                let sid = match arg(0, "surfaceId") {
                    None | Some(Expr::Null) => self.default_surface.clone(),
                    Some(Expr::Str(s)) => s.clone(),
                    Some(other) => {
                        return out.errors.push(ExpressError {
                            kind: ExpressErrorKind::Validation,
                            line,
                            message: format!(
                                "surface() argument 'surfaceId' must be a string, got: {other:?}"
                            ),
                        });
                    }
                };
                if let Some(Expr::Str(cid)) = arg(1, "catalogId")
                    && *cid != self.cat.catalog_id
                {
                    out.errors.push(ExpressError {
                        kind: ExpressErrorKind::Validation,
                        line,
                        message: format!(
                            "Unknown catalog '{cid}'. Available catalogs: ['{}']",
                            self.cat.catalog_id
                        ),
                    });
                }
                let flag = |k: &str| match c.kw(k) {
                    Some(Expr::Bool(b)) => Ok(Some(*b)),
                    None | Some(Expr::Null) => Ok(None),
                    Some(other) => Err(ExpressError {
                        kind: ExpressErrorKind::Validation,
                        line,
                        message: format!("{k} must be true or false, got: {other:?}"),
                    }),
                };
                let (send, update) = match (flag("sendDataModel"), flag("update")) {
                    (Ok(a), Ok(b)) => (a, b.unwrap_or(false)),
                    (Err(e), _) | (_, Err(e)) => {
                        out.errors.push(e);
                        (None, false)
                    }
                };
                self.units += 1;
                self.scope = Some(Scope {
                    surface_id: sid,
                    directive: true,
                    send_data_model: send,
                    update,
                    ..Scope::default()
                });
            }
            Stmt::Expr(Expr::Call(c)) if c.name == "deleteSurface" => {
                self.units += 1;
                match c.kw("surfaceId").or_else(|| c.args.first()) {
                    Some(Expr::Str(s)) => out.messages.push(json!({
                        "version": self.cat.version.as_str(),
                        "deleteSurface": {"surfaceId": s},
                    })),
                    _ => out.errors.push(ExpressError {
                        kind: ExpressErrorKind::Validation,
                        line,
                        message: "deleteSurface() requires the id of the surface to delete.".into(),
                    }),
                }
            }
            Stmt::Expr(Expr::Call(c)) => {
                self.units += 1;
                match self.standalone_call(&Expr::Call(c), line) {
                    Ok(m) => out.messages.push(m),
                    Err(e) => out.errors.push(e),
                }
            }
            Stmt::Expr(_) => {}
            Stmt::Data(path, value) => {
                self.scope();
                let compiled = match &self.scope {
                    Some(sc) => {
                        let mut cx = Cx::new(&self.cat, self.cat.version, &sc.syms, line);
                        cx.value(&value, false, None, None)
                    }
                    None => Ok(Value::Null),
                };
                let sc = self.scope.get_or_insert_with(Scope::default);
                match compiled {
                    Ok(v) => {
                        match sc.data.iter_mut().find(|(p, _)| *p == path) {
                            Some(e) => e.1 = v.clone(),
                            None => sc.data.push((path.clone(), v.clone())),
                        }
                        if sc.started {
                            let p = pointer(&path);
                            let (p, v) = if p == "/" {
                                let mut m = Map::new();
                                for (k, dv) in &sc.data {
                                    set_nested(&mut m, k, dv.clone());
                                }
                                ("/".to_owned(), Value::Object(m))
                            } else {
                                (p, v)
                            };
                            out.messages.push(json!({
                                "version": self.cat.version.as_str(),
                                "updateDataModel": {"surfaceId": sc.surface_id, "path": p, "value": v},
                            }));
                        }
                    }
                    Err(e) => out.errors.push(e),
                }
            }
            Stmt::Assign(name, value) => {
                let sc = self.scope();
                sc.invalidate(&name);
                sc.syms.set(&name, value, line);
                self.refresh(Some(&name), out);
            }
        }
    }

    fn standalone_call(&mut self, e: &Expr, line: u32) -> Result<Value, ExpressError> {
        let version = self.cat.version;
        if !version.at_least_v10() {
            return Err(ExpressError {
                kind: ExpressErrorKind::Validation,
                line,
                message: format!(
                    "Standalone function calls are not supported in A2UI {}",
                    version.as_str()
                ),
            });
        }
        self.calls += 1;
        let Expr::Call(c) = e else {
            return Err(ExpressError {
                kind: ExpressErrorKind::Validation,
                line,
                message: "Standalone statement is not a call".into(),
            });
        };
        let mut c = c.clone();
        let mut call_id = format!("call_{}", self.calls);
        if let Some(k) = c.kwargs.iter().position(|(k, _)| k == "functionCallId") {
            let (_, v) = c.kwargs.remove(k);
            match v {
                Expr::Str(s) if !s.is_empty() => call_id = s,
                other => {
                    return Err(ExpressError {
                        kind: ExpressErrorKind::Validation,
                        line,
                        message: format!(
                            "functionCallId must be a non-empty string, got: {other:?}"
                        ),
                    });
                }
            }
        }
        let empty = Symbols::default();
        let syms = self.scope.as_ref().map_or(&empty, |s| &s.syms);
        let mut cx = Cx::new(&self.cat, version, syms, line);
        let v = cx.value(&Expr::Call(c), false, None, None)?;
        let Some(name) = v.get("@call").cloned() else {
            return Err(ExpressError {
                kind: ExpressErrorKind::Validation,
                line,
                message: format!(
                    "Standalone statement did not compile to a valid function call: {v}"
                ),
            });
        };
        let cat_id = v
            .get("catalogId")
            .cloned()
            .unwrap_or_else(|| Value::String(self.cat.catalog_id.clone()));
        Ok(json!({
            "version": version.as_str(),
            "callRendererFunction": {
                "functionCallId": call_id,
                "callFunction": {
                    "catalogId": cat_id,
                    "@call": name,
                    "args": v.get("args").cloned().unwrap_or_else(|| json!({})),
                },
            },
        }))
    }

    /// Every component of the current scope, compiled: (components in order, errors
    /// of the statement assigning `report`).
    fn compile_all(
        &mut self,
        report: Option<&str>,
    ) -> (Vec<Value>, Vec<ExpressError>, HashSet<String>) {
        let errors = self.compile_scope(report);
        let Some(sc) = &self.scope else {
            return (Vec::new(), errors, HashSet::default());
        };
        let refs = scope_components(sc);
        let undefined = self.undefined_children(&refs);
        let comps = refs.into_iter().cloned().collect();
        (comps, errors, undefined)
    }

    /// Compile what changed in the current scope (each variable once until it or what it
    /// read is assigned again; see `Scope::compiled`): the errors of the statement
    /// assigning `report`.
    fn compile_scope(&mut self, report: Option<&str>) -> Vec<ExpressError> {
        let mut errors = Vec::new();
        let Some(sc) = self.scope.as_mut() else {
            return errors;
        };
        // Each variable compiled once until it or what it read is assigned again.
        let mut cache = std::mem::take(&mut sc.compiled);
        for name in &sc.syms.order {
            let Some((e, line)) = sc.syms.map.get(name) else {
                continue;
            };
            let entry = cache.entry(name.clone()).or_insert_with(|| {
                let mut cx = Cx::new(&self.cat, self.cat.version, &sc.syms, *line);
                let mut deps = HashSet::default();
                deps_of(&self.cat, &sc.syms, e, &mut deps);
                match cx.component(name, e) {
                    Ok(Some(c)) => {
                        let mut comps = vec![c];
                        comps.append(&mut cx.extra);
                        Compiled {
                            comps,
                            error: None,
                            deps,
                        }
                    }
                    Ok(None) => Compiled {
                        comps: Vec::new(),
                        error: None,
                        deps,
                    },
                    Err(err) => Compiled {
                        comps: Vec::new(),
                        error: Some(err),
                        deps,
                    },
                }
            });
            if let Some(err) = &entry.error
                && report == Some(name.as_str())
            {
                errors.push(err.clone());
            }
        }
        sc.compiled = cache;
        errors
    }

    /// The child references of `comps` (the current scope's) naming no variable of the
    /// scope.
    fn undefined_children(&self, comps: &[&Value]) -> HashSet<String> {
        let mut undefined_children = HashSet::default();
        let Some(sc) = &self.scope else {
            return undefined_children;
        };
        let ids: HashSet<&str> = comps
            .iter()
            .filter_map(|k| k.get("id").and_then(Value::as_str))
            .collect();
        for c in comps {
            let Some(name) = c.get("component").and_then(Value::as_str) else {
                continue;
            };
            let Some(sig) = self.cat.components.get(name) else {
                continue;
            };
            for (prop, v) in c.as_object().into_iter().flatten() {
                if sig.schemas.get(prop).is_some_and(holds_children) {
                    for id in child_ids(v) {
                        if !sc.syms.map.contains_key(&id) && !ids.contains(id.as_str()) {
                            undefined_children.insert(id);
                        }
                    }
                }
            }
        }
        undefined_children
    }

    /// Recompile the scope after `changed` was (re)assigned and apply what changed.
    fn refresh(&mut self, changed: Option<&str>, out: &mut ExpressOutput) {
        let errors = self.compile_scope(changed);
        out.errors.extend(errors);
        // The compiled components are read in place (taken out of the scope meanwhile).
        let Some(compiled) = self
            .scope
            .as_mut()
            .map(|sc| std::mem::take(&mut sc.compiled))
        else {
            return;
        };
        let order = self
            .scope
            .as_mut()
            .map(|sc| std::mem::take(&mut sc.syms.order))
            .unwrap_or_default();
        let comps: Vec<&Value> = order
            .iter()
            .filter_map(|n| compiled.get(n))
            .flat_map(|c| c.comps.iter())
            .collect();
        let undefined = self.undefined_children(&comps);
        self.apply_compiled(&comps, &undefined, out);
        drop(comps);
        if let Some(sc) = self.scope.as_mut() {
            sc.compiled = compiled;
            sc.syms.order = order;
        }
    }

    /// Apply the scope's compiled components `comps` (placeholders for `undefined`
    /// children): what is reachable from `root` and differs from what was applied.
    fn apply_compiled(
        &mut self,
        comps: &[&Value],
        undefined: &HashSet<String>,
        out: &mut ExpressOutput,
    ) {
        let version = self.cat.version;
        let cat_id = self.cat.catalog_id.clone();
        let Some(sc) = self.scope.as_mut() else {
            return;
        };
        let has_root = comps
            .iter()
            .any(|c| c.get("id").and_then(Value::as_str) == Some("root"));
        if self.whole {
            return;
        }
        if !(sc.started || has_root || sc.update && !comps.is_empty()) {
            return;
        }
        // Reachable from root (an update scope: everything).
        let by_id: HashMap<&str, &Value> = comps
            .iter()
            .filter_map(|c| Some((c.get("id")?.as_str()?, *c)))
            .collect();
        let mut reach: HashSet<String> = HashSet::default();
        if sc.update {
            reach.extend(by_id.keys().map(|k| (*k).to_owned()));
        } else {
            let mut stack = vec!["root".to_owned()];
            while let Some(id) = stack.pop() {
                if !reach.insert(id.clone()) {
                    continue;
                }
                if let Some(c) = by_id.get(id.as_str()) {
                    stack.extend(refs_of(&self.cat, c));
                }
            }
        }
        let mut send = Vec::new();
        let mut wanted: HashSet<String> = HashSet::default();
        for &c in comps {
            let Some(id) = c.get("id").and_then(Value::as_str) else {
                continue;
            };
            if !reach.contains(id) {
                continue;
            }
            // Copied only when its form differs from it (a child not written yet).
            if sc.applied.get(id) != Some(c) || touches(&self.cat, c, undefined) {
                let mut form = c.clone();
                with_placeholders(&self.cat, &mut form, undefined, &mut wanted);
                if sc.applied.get(id) != Some(&form) {
                    sc.applied.insert(id.to_owned(), form.clone());
                    send.push(form);
                }
            }
        }
        for p in &wanted {
            if sc.live.insert(p.clone()) {
                send.push(placeholder(p));
            }
        }
        let gone: Vec<String> = sc.live.difference(&wanted).cloned().collect();
        for g in gone {
            sc.live.remove(&g);
            out.retired.push((sc.surface_id.clone(), g));
        }
        let start = !sc.started;
        sc.started = true;
        if start && !sc.update {
            let mut create = Map::new();
            create.insert("surfaceId".into(), Value::String(sc.surface_id.clone()));
            create.insert("catalogId".into(), Value::String(cat_id));
            if let Some(s) = sc.send_data_model {
                create.insert("sendDataModel".into(), Value::Bool(s));
            }
            let mut model = Map::new();
            for (k, v) in &sc.data {
                set_nested(&mut model, k, v.clone());
            }
            if version.at_least_v10() {
                create.insert("components".into(), Value::Array(send));
                if !model.is_empty() {
                    create.insert("dataModel".into(), Value::Object(model));
                }
                out.messages
                    .push(json!({"version": version.as_str(), "createSurface": create}));
                return;
            }
            out.messages
                .push(json!({"version": version.as_str(), "createSurface": create}));
            if !model.is_empty() {
                out.messages.push(json!({
                    "version": version.as_str(),
                    "updateDataModel": {"surfaceId": sc.surface_id, "path": "/", "value": model},
                }));
            }
        } else if start && !sc.data.is_empty() {
            let mut model = Map::new();
            for (k, v) in &sc.data {
                set_nested(&mut model, k, v.clone());
            }
            out.messages.push(json!({
                "version": version.as_str(),
                "updateDataModel": {"surfaceId": sc.surface_id, "path": "/", "value": model},
            }));
        }
        if !send.is_empty() {
            out.messages
                .push(update_components(version.as_str(), &sc.surface_id, send));
        }
    }

    /// The end of a scope: every component in its real form, placeholders retired, and
    /// the reference's rules for a scope that never reached `root`.
    fn flush_scope(&mut self, out: &mut ExpressOutput) {
        if self.scope.is_none() {
            return;
        }
        let (comps, _, undefined) = self.compile_all(None);
        let version = self.cat.version;
        let Some(mut sc) = self.scope.take() else {
            return;
        };
        self.last_surface.clone_from(&sc.surface_id);
        let mut model = Map::new();
        for (k, v) in &sc.data {
            set_nested(&mut model, k, v.clone());
        }
        let vs = version.as_str();
        let has_root = comps
            .iter()
            .any(|c| c.get("id").and_then(Value::as_str) == Some("root"));
        if !sc.started && has_root && !sc.update {
            let mut create = Map::new();
            create.insert("surfaceId".into(), Value::String(sc.surface_id.clone()));
            create.insert(
                "catalogId".into(),
                Value::String(self.cat.catalog_id.clone()),
            );
            if let Some(s) = sc.send_data_model {
                create.insert("sendDataModel".into(), Value::Bool(s));
            }
            if version.at_least_v10() {
                create.insert("components".into(), Value::Array(comps));
                if !model.is_empty() {
                    create.insert("dataModel".into(), Value::Object(model));
                }
                out.messages
                    .push(json!({"version": vs, "createSurface": create}));
                return;
            }
            out.messages
                .push(json!({"version": vs, "createSurface": create}));
            out.messages.push(json!({
                "version": vs,
                "updateComponents": {"surfaceId": sc.surface_id, "components": comps},
            }));
            if !model.is_empty() {
                out.messages
                    .push(data_update(vs, &sc.surface_id, &sc.data, model));
            }
            return;
        }
        if !sc.started {
            if comps.is_empty() {
                if sc.data.is_empty() {
                    out.errors.push(ExpressError {
                        kind: ExpressErrorKind::UndefinedRoot,
                        line: self.lex_line,
                        message: "Root target 'root' is not defined.".into(),
                    });
                    return;
                }
                out.messages
                    .push(data_update(vs, &sc.surface_id, &sc.data, model));
                return;
            }
            if !sc.directive {
                out.errors.push(ExpressError {
                    kind: ExpressErrorKind::UndefinedRoot,
                    line: self.lex_line,
                    message: "Root target 'root' is not defined.".into(),
                });
                return;
            }
            out.messages.push(json!({
                "version": vs,
                "updateComponents": {"surfaceId": sc.surface_id, "components": comps},
            }));
            if !model.is_empty() {
                out.messages
                    .push(data_update(vs, &sc.surface_id, &sc.data, model));
            }
            return;
        }
        let send: Vec<Value> = comps
            .into_iter()
            .filter(|c| {
                let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
                sc.applied.get(id) != Some(c)
            })
            .collect();
        if !send.is_empty() {
            out.messages
                .push(update_components(vs, &sc.surface_id, send));
        }
        for p in sc.live.drain() {
            out.retired.push((sc.surface_id.clone(), p));
        }
        // A child never defined stays a dangling reference, as in the reference (which
        // declares `ExpressUndefinedChildError` but does not raise it).
        drop(undefined);
    }
}

/// An `updateComponents` carrying `components` (moved in: `json!` would copy them).
fn update_components(vs: &str, sid: &str, components: Vec<Value>) -> Value {
    let mut body = Map::new();
    body.insert("surfaceId".into(), Value::String(sid.to_owned()));
    body.insert("components".into(), Value::Array(components));
    let mut msg = Map::new();
    msg.insert("version".into(), Value::String(vs.to_owned()));
    msg.insert("updateComponents".into(), Value::Object(body));
    Value::Object(msg)
}

/// The reference's data message for a scope that is not created here.
fn data_update(vs: &str, sid: &str, data: &[(String, Value)], model: Map<String, Value>) -> Value {
    if let [(only, v)] = data {
        let p = pointer(only);
        if p.matches('/').count() > 1 || p == "/" {
            return json!({"version": vs, "updateDataModel": {"surfaceId": sid, "path": p, "value": v}});
        }
    }
    json!({"version": vs, "updateDataModel": {"surfaceId": sid, "path": "/", "value": model}})
}

/// The components compiled in `sc`, in its variables' order (each with the inline
/// components it hoisted after it).
fn scope_components(sc: &Scope) -> Vec<&Value> {
    sc.syms
        .order
        .iter()
        .filter_map(|n| sc.compiled.get(n))
        .flat_map(|c| c.comps.iter())
        .collect()
}

/// Component ids inside a child-holding property value.
fn child_ids(v: &Value) -> Vec<String> {
    match v {
        Value::String(s) => vec![s.clone()],
        Value::Array(a) => a.iter().flat_map(child_ids).collect(),
        Value::Object(o) => ["child", "componentId", "children", "content", "trigger"]
            .iter()
            .filter_map(|k| o.get(*k))
            .flat_map(child_ids)
            .collect(),
        _ => Vec::new(),
    }
}

/// The ids a compiled component refers to.
fn refs_of(cat: &ExpressCatalog, c: &Value) -> Vec<String> {
    let Some(sig) = c
        .get("component")
        .and_then(Value::as_str)
        .and_then(|n| cat.components.get(n))
    else {
        return Vec::new();
    };
    c.as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| sig.schemas.get(*k).is_some_and(holds_children))
        .flat_map(|(_, v)| child_ids(v))
        .collect()
}

/// Whether [`with_placeholders`] would change `c` (it refers to an undefined child).
fn touches(cat: &ExpressCatalog, c: &Value, undefined: &HashSet<String>) -> bool {
    fn go(v: &Value, undefined: &HashSet<String>) -> bool {
        match v {
            Value::String(s) => undefined.contains(s.as_str()),
            Value::Array(a) => a.iter().any(|x| go(x, undefined)),
            Value::Object(o) => ["child", "componentId", "children", "content", "trigger"]
                .iter()
                .filter_map(|k| o.get(*k))
                .any(|x| go(x, undefined)),
            _ => false,
        }
    }
    if undefined.is_empty() {
        return false;
    }
    let Some(sig) = c
        .get("component")
        .and_then(Value::as_str)
        .and_then(|n| cat.components.get(n))
    else {
        return false;
    };
    c.as_object().is_some_and(|o| {
        o.iter()
            .any(|(k, v)| sig.schemas.get(k).is_some_and(holds_children) && go(v, undefined))
    })
}

/// Point references to undefined children at placeholders (`loading_<id>`).
fn with_placeholders(
    cat: &ExpressCatalog,
    c: &mut Value,
    undefined: &HashSet<String>,
    wanted: &mut HashSet<String>,
) {
    fn go(v: &mut Value, undefined: &HashSet<String>, wanted: &mut HashSet<String>) {
        match v {
            Value::String(s) if undefined.contains(s.as_str()) => {
                let p = format!("loading_{s}");
                wanted.insert(p.clone());
                *s = p;
            }
            Value::Array(a) => a.iter_mut().for_each(|x| go(x, undefined, wanted)),
            Value::Object(o) => {
                for k in ["child", "componentId", "children", "content", "trigger"] {
                    if let Some(x) = o.get_mut(k) {
                        go(x, undefined, wanted);
                    }
                }
            }
            _ => {}
        }
    }
    let Some(sig) = c
        .get("component")
        .and_then(Value::as_str)
        .and_then(|n| cat.components.get(n))
    else {
        return;
    };
    if let Value::Object(o) = c {
        for (k, v) in o.iter_mut() {
            if sig.schemas.get(k).is_some_and(holds_children) {
                go(v, undefined, wanted);
            }
        }
    }
    let _ = component_id;
}
