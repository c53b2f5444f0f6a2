//! One `<a2ui>` block being written: tokens as they complete, statements as they
//! complete, messages as soon as what they carry is reachable from `root`.

/// The block's maps and sets, keyed by variable and component ids: foldhash, seeded per
/// process, as the JSON path's (several times faster than SipHash on short keys).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// See [`HashMap`].
type HashSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
use std::sync::Arc;

use serde_json::{Map, Value, json};

use super::compile::{Cx, Symbols};
use super::lexer::{Lexed, Tok, Token, next_token};
use super::parser::{Expr, Parsed, Stmt, parse_statement, recovery_point};
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
    applied: HashMap<String, Applied>,
    /// Serial of a compiled variable → the variable (see `Compiled::serial`).
    serials: HashMap<u64, String>,
    /// The serial the next variable compiled gets.
    next_serial: u64,
    /// Placeholders applied and not retired.
    live: HashSet<String>,
    /// Per variable: what it compiled to, kept until it or a variable it depends on is
    /// assigned again (so a statement compiles once, not once per later statement).
    compiled: HashMap<String, Compiled>,
    /// Variables to compile: assigned, or reading one assigned, since the last compile.
    dirty: Vec<String>,
    /// What the variables in `dirty` had compiled to (the graph's changes).
    stale: Vec<(String, Compiled)>,
    /// Per variable: the variables whose compilation read it (see `Compiled::deps`;
    /// may name a variable that no longer reads it, checked when used).
    readers: HashMap<String, Vec<String>>,
    /// Per variable: its place in `syms.order`.
    pos: HashMap<String, u32>,
    /// The compiled components as a graph.
    graph: Graph,
}

/// The form last applied for a component id: kept as a reference to the component while
/// it stays compiled (no copy), held when it is compiled again.
#[derive(Debug)]
enum Applied {
    /// The component `k` of the compilation `serial` (still compiled), the children
    /// `undef` pointing at placeholders.
    Live {
        serial: u64,
        k: u32,
        undef: Vec<u32>,
        /// Tests: the form itself, to check the reference against.
        #[cfg(test)]
        form: Value,
    },
    /// A form no longer compiled.
    Held(Value),
}

/// One variable compiled (see `Scope::compiled`).
#[derive(Debug)]
struct Compiled {
    /// This compilation's number in the scope (see `Applied::Live`).
    serial: u64,
    /// The component and the inline components it hoisted (empty: no component).
    comps: Vec<Value>,
    /// Per component: the ids its child-holding properties name (each once).
    refs: Vec<Vec<String>>,
    /// The error compiling it gave.
    error: Option<ExpressError>,
    /// The variables its compilation read: those it names, and those named by the
    /// values it inlines (not by the components it refers to).
    deps: HashSet<String>,
}

/// The compiled components of a scope as a graph, kept as variables compile (so that a
/// statement costs what it changes, not the size of the scope).
#[derive(Debug, Default)]
struct Graph {
    /// Component id → how many compiled components have it.
    count: HashMap<String, u32>,
    /// How many ids more than one component has.
    dups: usize,
    /// How many components are compiled.
    total: usize,
    /// Component id → (variable, index in its `Compiled::comps`); exact while `valid`.
    loc: HashMap<String, (String, u32)>,
    /// Child id → the ids of the components naming it (one entry per component).
    referrers: HashMap<String, Vec<String>>,
    /// The ids reachable from `root` when last applied (not in an update scope).
    reach: HashSet<String>,
    /// Whether `loc` and `reach` are exact (the last apply was a full one without
    /// duplicate ids, or an incremental one after it).
    valid: bool,
}

impl Graph {
    fn count(&self, id: &str) -> u32 {
        self.count.get(id).copied().unwrap_or(0)
    }

    /// Add the components of `var`.
    fn add(&mut self, var: &str, c: &Compiled) {
        for (i, (comp, refs)) in c.comps.iter().zip(&c.refs).enumerate() {
            let id = comp_id(comp);
            self.total += 1;
            let n = match self.count.get_mut(id) {
                Some(n) => {
                    *n += 1;
                    *n
                }
                None => {
                    self.count.insert(id.to_owned(), 1);
                    1
                }
            };
            if n == 2 {
                self.dups += 1;
            }
            if n == 1 {
                self.loc.insert(
                    id.to_owned(),
                    (var.to_owned(), u32::try_from(i).unwrap_or(0)),
                );
            } else {
                self.valid = false;
            }
            for r in refs {
                match self.referrers.get_mut(r.as_str()) {
                    Some(list) => list.push(id.to_owned()),
                    None => {
                        self.referrers.insert(r.clone(), vec![id.to_owned()]);
                    }
                }
            }
        }
    }

    /// Remove the components of `var` (as compiled before).
    fn remove(&mut self, var: &str, c: &Compiled) {
        for (i, (comp, refs)) in c.comps.iter().zip(&c.refs).enumerate() {
            let id = comp_id(comp);
            self.total = self.total.saturating_sub(1);
            if let Some(n) = self.count.get_mut(id) {
                *n = n.saturating_sub(1);
                if *n == 1 {
                    self.dups = self.dups.saturating_sub(1);
                }
                if *n == 0 {
                    self.count.remove(id);
                }
            }
            if self
                .loc
                .get(id)
                .is_some_and(|(v, k)| v == var && usize::try_from(*k).ok() == Some(i))
            {
                self.loc.remove(id);
            }
            for r in refs {
                if let Some(list) = self.referrers.get_mut(r.as_str()) {
                    if let Some(k) = list.iter().position(|x| x == id) {
                        list.swap_remove(k);
                    }
                    if list.is_empty() {
                        self.referrers.remove(r.as_str());
                    }
                }
            }
        }
    }
}

/// A compiled component's id (a component no longer compiled may be left as its id).
fn comp_id(c: &Value) -> &str {
    match c {
        Value::String(id) => id,
        _ => c.get("id").and_then(Value::as_str).unwrap_or_default(),
    }
}

impl Scope {
    /// `name` was assigned: forget what read it (to compile again).
    fn invalidate(&mut self, cat: &ExpressCatalog, name: &str) {
        self.forget(cat, name);
        for r in self.readers.remove(name).unwrap_or_default() {
            if self.compiled.get(&r).is_some_and(|c| c.deps.contains(name)) {
                self.forget(cat, &r);
            }
        }
    }

    /// Forget what `var` compiled to (to compile again): the forms applied from it are
    /// moved out (its components are left as their ids, in `stale`).
    fn forget(&mut self, cat: &ExpressCatalog, var: &str) {
        if let Some(mut c) = self.compiled.remove(var) {
            self.graph.remove(var, &c);
            self.serials.remove(&c.serial);
            for (k, v) in c.comps.iter_mut().enumerate() {
                let id = comp_id(v).to_owned();
                let Some(a) = self.applied.get_mut(&id) else {
                    continue;
                };
                if !matches!(a, Applied::Live { serial, k: ak, .. }
                    if *serial == c.serial && usize::try_from(*ak).ok() == Some(k))
                {
                    continue;
                }
                let mut form = std::mem::replace(v, Value::String(id));
                if let Applied::Live { undef, .. } = a {
                    let refs = c.refs.get(k).map_or(&[][..], Vec::as_slice);
                    let undef: Vec<&str> = undef
                        .iter()
                        .filter_map(|i| refs.get(usize::try_from(*i).ok()?))
                        .map(String::as_str)
                        .collect();
                    with_placeholders(cat, &mut form, &undef);
                }
                #[cfg(test)]
                if let Applied::Live { form: f, .. } = a {
                    assert_eq!(*f, form, "the form moved out is the one applied");
                }
                *a = Applied::Held(form);
            }
            self.stale.push((var.to_owned(), c));
        }
        self.dirty.push(var.to_owned());
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
    /// `(next, toks.len())` when the statement at `next` was last found incomplete (the
    /// same tokens are not read again).
    incomplete: Option<(usize, usize)>,
    scope: Option<Scope>,
    units: usize,
    calls: usize,
    /// A syntax error waiting for the place to start again.
    pending_error: Option<(u32, String)>,
    closed: bool,
    /// Compile whole (nothing applied before the scope ends: the reference's message
    /// shapes), for [`super::compile()`].
    whole: bool,
    /// Tests: apply every statement in full (the oracle of the incremental path).
    #[cfg(test)]
    full_only: bool,
}

/// The reference's error for a block (or scope) that never defines `root`.
fn undefined_root(line: u32) -> ExpressError {
    ExpressError {
        kind: ExpressErrorKind::UndefinedRoot,
        line,
        message: "Root target 'root' is not defined.".into(),
    }
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
            incomplete: None,
            scope: None,
            units: 0,
            calls: 0,
            pending_error: None,
            closed: false,
            whole: false,
            #[cfg(test)]
            full_only: false,
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
            out.errors.push(undefined_root(self.lex_line));
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
            if !final_ && self.incomplete == Some((self.next, self.toks.len())) {
                break;
            }
            match parse_statement(&self.toks, self.next, final_) {
                Parsed::Stmt(s, end) => {
                    let line = self.toks.get(self.next).map_or(1, |t| t.line);
                    self.next = end;
                    self.statement(s, line, out);
                }
                Parsed::Incomplete => {
                    self.incomplete = Some((self.next, self.toks.len()));
                    break;
                }
                Parsed::Error { line, message } => {
                    self.pending_error =
                        Some((line, format!("Syntax error at line {line}: {message}")));
                }
            }
        }
        // Tokens before the next statement are not read again.
        if self.next > 0 && self.pending_error.is_none() {
            let k = self.next;
            self.toks.drain(..k);
            self.next = 0;
            self.incomplete = self
                .incomplete
                .and_then(|(n, l)| Some((n.checked_sub(k)?, l.checked_sub(k)?)));
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
                let cat = Arc::clone(&self.cat);
                let sc = self.scope();
                let newly = !sc.syms.map.contains_key(&name);
                if newly && plain_component(&cat, &value) {
                    // What read the name compiled it to the id it now has: nothing that
                    // read it changes (only placeholders give way to it).
                    sc.forget(&cat, &name);
                } else {
                    sc.invalidate(&cat, &name);
                }
                sc.syms.set(&name, value, line);
                if newly {
                    let at = u32::try_from(sc.syms.order.len().saturating_sub(1)).unwrap_or(0);
                    sc.pos.insert(name.clone(), at);
                }
                self.refresh(&name, newly, out);
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

    /// Compile what changed in the current scope (each variable once until it or what it
    /// read is assigned again; see `Scope::compiled`): the errors of the statement
    /// assigning `report`, and the variables compiled.
    fn compile_scope(&mut self, report: Option<&str>) -> (Vec<ExpressError>, Vec<String>) {
        let mut errors = Vec::new();
        let mut fresh = Vec::new();
        let cat = &*self.cat;
        let Some(sc) = self.scope.as_mut() else {
            return (errors, fresh);
        };
        for name in std::mem::take(&mut sc.dirty) {
            if sc.compiled.contains_key(&name) {
                continue;
            }
            let Some((e, line)) = sc.syms.map.get(&name) else {
                continue;
            };
            let mut cx = Cx::new(cat, cat.version, &sc.syms, *line);
            let mut deps = HashSet::default();
            deps_of(cat, &sc.syms, e, &mut deps);
            let (comps, error) = match cx.component(&name, e) {
                Ok(Some(c)) => {
                    let mut comps = vec![c];
                    comps.append(&mut cx.extra);
                    (comps, None)
                }
                Ok(None) => (Vec::new(), None),
                Err(err) => (Vec::new(), Some(err)),
            };
            let refs = comps.iter().map(|c| refs_of(cat, c)).collect();
            for d in &deps {
                match sc.readers.get_mut(d) {
                    Some(list) => {
                        if list.last() != Some(&name) {
                            list.push(name.clone());
                        }
                    }
                    None => {
                        sc.readers.insert(d.clone(), vec![name.clone()]);
                    }
                }
            }
            let serial = sc.next_serial;
            sc.next_serial += 1;
            sc.serials.insert(serial, name.clone());
            let entry = Compiled {
                serial,
                comps,
                refs,
                error,
                deps,
            };
            if let Some(err) = &entry.error
                && report == Some(name.as_str())
            {
                errors.push(err.clone());
            }
            sc.graph.add(&name, &entry);
            sc.compiled.insert(name.clone(), entry);
            fresh.push(name);
        }
        (errors, fresh)
    }

    /// Recompile the scope after `changed` was (re)assigned (`newly`: named for the
    /// first time) and apply what changed.
    fn refresh(&mut self, changed: &str, newly: bool, out: &mut ExpressOutput) {
        let (errors, fresh) = self.compile_scope(Some(changed));
        out.errors.extend(errors);
        let Some(sc) = self.scope.as_mut() else {
            return;
        };
        let stale = std::mem::take(&mut sc.stale);
        if self.whole {
            return;
        }
        let has_root = sc.graph.count("root") > 0;
        if !(sc.started || has_root || sc.update && sc.graph.total > 0) {
            return;
        }
        #[cfg(test)]
        let incremental = !self.full_only;
        #[cfg(not(test))]
        let incremental = true;
        if incremental
            && sc.started
            && sc.graph.valid
            && sc.graph.dups == 0
            && self.apply_changes(&stale, &fresh, newly.then_some(changed), out)
        {
            return;
        }
        self.apply_full(out);
    }

    /// Apply the scope's compiled components, all of them: what is reachable from `root`
    /// (an update scope: everything) and differs from what was applied, with
    /// placeholders for children not written yet. Makes the graph's `loc` and `reach`
    /// exact.
    fn apply_full(&mut self, out: &mut ExpressOutput) {
        let cat = &*self.cat;
        let Some(sc) = self.scope.as_mut() else {
            return;
        };
        let list: Vec<(&str, Slot<'_>)> = sc
            .syms
            .order
            .iter()
            .filter_map(|n| Some((n, sc.compiled.get(n)?)))
            .flat_map(|(n, c)| {
                c.comps
                    .iter()
                    .zip(&c.refs)
                    .enumerate()
                    .map(move |(k, (v, r))| {
                        let slot = Slot {
                            serial: c.serial,
                            k: u32::try_from(k).unwrap_or(0),
                            c: v,
                            refs: r.as_slice(),
                        };
                        (n.as_str(), slot)
                    })
            })
            .collect();
        // Reachable from root (an update scope: everything).
        let mut reach: HashSet<&str> = HashSet::default();
        if sc.update {
            reach.extend(list.iter().map(|(_, s)| comp_id(s.c)));
        } else {
            // The last component of an id is the one followed (as a map keeps it).
            let by_id: HashMap<&str, &[String]> =
                list.iter().map(|(_, s)| (comp_id(s.c), s.refs)).collect();
            let mut stack = vec!["root"];
            while let Some(id) = stack.pop() {
                if !reach.insert(id) {
                    continue;
                }
                if let Some(refs) = by_id.get(id) {
                    stack.extend(refs.iter().map(String::as_str));
                }
            }
        }
        let undefined = |x: &str| !sc.syms.map.contains_key(x) && sc.graph.count(x) == 0;
        let mut send = Vec::new();
        let mut wanted: Vec<&str> = Vec::new();
        let (serials, compiled) = (&sc.serials, &sc.compiled);
        let live = |serial: u64, k: u32| {
            let c = compiled.get(serials.get(&serial)?)?;
            let k = usize::try_from(k).ok()?;
            Some((c.comps.get(k)?, c.refs.get(k)?.as_slice()))
        };
        for (_, slot) in &list {
            if !reach.contains(comp_id(slot.c)) {
                continue;
            }
            apply_one(
                cat,
                &mut sc.applied,
                &live,
                slot,
                &undefined,
                &mut wanted,
                &mut send,
            );
        }
        let mut keep: HashSet<String> = HashSet::default();
        for x in wanted {
            let p = format!("loading_{x}");
            if keep.insert(p.clone()) && sc.live.insert(p.clone()) {
                send.push(placeholder(&p));
            }
        }
        let mut gone: Vec<String> = sc.live.difference(&keep).cloned().collect();
        gone.sort_unstable();
        for g in gone {
            sc.live.remove(&g);
            out.retired.push((sc.surface_id.clone(), g));
        }
        let g = &mut sc.graph;
        g.valid = g.dups == 0;
        if g.valid {
            g.loc = list
                .iter()
                .map(|(n, s)| (comp_id(s.c).to_owned(), ((*n).to_owned(), s.k)))
                .collect();
            g.reach = if sc.update {
                HashSet::default()
            } else {
                reach.iter().map(|s| (*s).to_owned()).collect()
            };
        }
        drop(list);
        self.emit(send, out);
    }

    /// Apply what the last statement changed: the components compiled again (`fresh`;
    /// `stale`: what they were), those newly reachable, and those naming an id that was
    /// or became defined (`newly`: the variable named for the first time). `false`:
    /// reachability may have shrunk, and the caller applies in full.
    fn apply_changes(
        &mut self,
        stale: &[(String, Compiled)],
        fresh: &[String],
        newly: Option<&str>,
        out: &mut ExpressOutput,
    ) -> bool {
        let cat = &*self.cat;
        let Some(sc) = self.scope.as_mut() else {
            return true;
        };
        let update = sc.update;
        let compiled = &sc.compiled;
        let syms = &sc.syms;
        let serials = &sc.serials;
        let live = |serial: u64, k: u32| {
            let c = compiled.get(serials.get(&serial)?)?;
            let k = usize::try_from(k).ok()?;
            Some((c.comps.get(k)?, c.refs.get(k)?.as_slice()))
        };
        let Graph {
            count,
            loc,
            referrers,
            reach,
            ..
        } = &mut sc.graph;
        let refs_at = |id: &str| -> &[String] {
            loc.get(id)
                .and_then(|(v, k)| compiled.get(v)?.refs.get(usize::try_from(*k).ok()?))
                .map_or(&[], Vec::as_slice)
        };
        // Reachability shrinks when a reachable component stops naming an id.
        if !update {
            for (_, old) in stale {
                for (oc, orefs) in old.comps.iter().zip(&old.refs) {
                    if orefs.is_empty() || !reach.contains(comp_id(oc)) {
                        continue;
                    }
                    let now = refs_at(comp_id(oc));
                    let gone = if now.len() > 8 {
                        let set: HashSet<&str> = now.iter().map(String::as_str).collect();
                        orefs.iter().any(|r| !set.contains(r.as_str()))
                    } else {
                        orefs.iter().any(|r| !now.contains(r))
                    };
                    if gone {
                        return false;
                    }
                }
            }
        }
        let cnt = |id: &str| count.get(id).copied().unwrap_or(0);
        let undefined = |x: &str| !syms.map.contains_key(x) && cnt(x) == 0;
        // The ids whose being defined changed: (id, undefined now).
        let mut delta: HashMap<&str, i64> = HashMap::default();
        for (_, old) in stale {
            for c in &old.comps {
                *delta.entry(comp_id(c)).or_insert(0) -= 1;
            }
        }
        for v in fresh {
            for c in compiled
                .get(v)
                .map(|c| c.comps.as_slice())
                .unwrap_or_default()
            {
                *delta.entry(comp_id(c)).or_insert(0) += 1;
            }
        }
        if let Some(n) = newly {
            delta.entry(n).or_insert(0);
        }
        let mut flips: Vec<(&str, bool)> = Vec::new();
        for (&x, &d) in &delta {
            let before_count = i64::from(cnt(x)) - d;
            let named_before = syms.map.contains_key(x) && newly != Some(x);
            let was = !named_before && before_count == 0;
            let now = undefined(x);
            if was != now {
                flips.push((x, now));
            }
        }
        // Grow reachability from the fresh components already reachable.
        let mut reached: Vec<&str> = Vec::new();
        if !update {
            let mut stack: Vec<&str> = Vec::new();
            for v in fresh {
                if let Some(c) = compiled.get(v) {
                    for (comp, refs) in c.comps.iter().zip(&c.refs) {
                        if reach.contains(comp_id(comp)) {
                            stack.extend(refs.iter().map(String::as_str));
                        }
                    }
                }
            }
            while let Some(y) = stack.pop() {
                if reach.contains(y) {
                    continue;
                }
                reach.insert(y.to_owned());
                if let Some((yv, k)) = loc.get(y) {
                    reached.push(y);
                    if let Some(r) = compiled
                        .get(yv)
                        .and_then(|c| c.refs.get(usize::try_from(*k).ok()?))
                    {
                        stack.extend(r.iter().map(String::as_str));
                    }
                }
            }
        }
        let reachable = |id: &str| {
            if update {
                cnt(id) > 0
            } else {
                reach.contains(id)
            }
        };
        // The components to form again, in the scope's order.
        let mut cand: Vec<(u32, u32)> = Vec::new();
        let place = |id: &str| {
            let (v, k) = loc.get(id)?;
            Some((*sc.pos.get(v)?, *k))
        };
        for v in fresh {
            if let (Some(c), Some(&p)) = (compiled.get(v), sc.pos.get(v)) {
                for (k, comp) in c.comps.iter().enumerate() {
                    if reachable(comp_id(comp)) {
                        cand.push((p, u32::try_from(k).unwrap_or(0)));
                    }
                }
            }
        }
        cand.extend(reached.iter().filter_map(|y| place(y)));
        for (x, _) in &flips {
            for r in referrers.get(*x).into_iter().flatten() {
                if reachable(r)
                    && let Some(p) = place(r)
                {
                    cand.push(p);
                }
            }
        }
        cand.sort_unstable();
        cand.dedup();
        let mut send = Vec::new();
        let mut wanted: Vec<&str> = Vec::new();
        for (p, k) in cand {
            let Some(c) = syms
                .order
                .get(usize::try_from(p).unwrap_or(usize::MAX))
                .and_then(|v| compiled.get(v))
            else {
                continue;
            };
            let at = usize::try_from(k).unwrap_or(usize::MAX);
            let (Some(comp), Some(refs)) = (c.comps.get(at), c.refs.get(at)) else {
                continue;
            };
            let slot = Slot {
                serial: c.serial,
                k,
                c: comp,
                refs,
            };
            apply_one(
                cat,
                &mut sc.applied,
                &live,
                &slot,
                &undefined,
                &mut wanted,
                &mut send,
            );
        }
        for x in wanted {
            let p = format!("loading_{x}");
            if sc.live.insert(p.clone()) {
                send.push(placeholder(&p));
            }
        }
        let mut gone: Vec<String> = flips
            .iter()
            .filter(|(_, now)| !now)
            .map(|(x, _)| format!("loading_{x}"))
            .filter(|p| sc.live.remove(p))
            .collect();
        gone.sort_unstable();
        for g in gone {
            out.retired.push((sc.surface_id.clone(), g));
        }
        self.emit(send, out);
        true
    }

    /// The messages applying `send` (the scope's first: `createSurface` and its data).
    fn emit(&mut self, send: Vec<Value>, out: &mut ExpressOutput) {
        let version = self.cat.version;
        let Some(sc) = self.scope.as_mut() else {
            return;
        };
        let start = !sc.started;
        sc.started = true;
        if start && !sc.update {
            let mut create = Map::new();
            create.insert("surfaceId".into(), Value::String(sc.surface_id.clone()));
            create.insert(
                "catalogId".into(),
                Value::String(self.cat.catalog_id.clone()),
            );
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
        let (_, fresh) = self.compile_scope(None);
        let version = self.cat.version;
        let Some(mut sc) = self.scope.take() else {
            return;
        };
        // The components, moved out in the scope's order, each with whether it is known
        // to be applied as it is (reachable, every child defined, the graph exact).
        let known = sc.started
            && sc.graph.valid
            && sc.graph.dups == 0
            && fresh.is_empty()
            && sc.stale.is_empty();
        let mut same = Vec::new();
        if sc.started {
            let (syms, graph, compiled, serials) = (&sc.syms, &sc.graph, &sc.compiled, &sc.serials);
            let undefined = |x: &str| !syms.map.contains_key(x) && graph.count(x) == 0;
            let live = |serial: u64, k: u32| {
                let c = compiled.get(serials.get(&serial)?)?;
                let k = usize::try_from(k).ok()?;
                Some((c.comps.get(k)?, c.refs.get(k)?.as_slice()))
            };
            for c in syms.order.iter().filter_map(|n| compiled.get(n)) {
                for (k, (v, refs)) in c.comps.iter().zip(&c.refs).enumerate() {
                    let id = comp_id(v);
                    let slot = Slot {
                        serial: c.serial,
                        k: u32::try_from(k).unwrap_or(0),
                        c: v,
                        refs,
                    };
                    let fast = known
                        && (sc.update || graph.reach.contains(id))
                        && !refs.iter().any(|r| undefined(r));
                    #[cfg(test)]
                    if fast {
                        assert!(
                            same_as_applied(&self.cat, sc.applied.get(id), &live, &slot, &[]),
                            "{id} is applied as it is"
                        );
                    }
                    same.push(
                        fast || same_as_applied(&self.cat, sc.applied.get(id), &live, &slot, &[]),
                    );
                }
            }
        }
        let mut comps = Vec::new();
        for n in &sc.syms.order {
            if let Some(c) = sc.compiled.get_mut(n) {
                comps.append(&mut c.comps);
            }
        }
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
                    out.errors.push(undefined_root(self.lex_line));
                    return;
                }
                out.messages
                    .push(data_update(vs, &sc.surface_id, &sc.data, model));
                return;
            }
            if !sc.directive {
                out.errors.push(undefined_root(self.lex_line));
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
            .zip(same)
            .filter(|(_, same)| !same)
            .map(|(c, _)| c)
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

/// Whether `e` defines a component with the id of its variable (no `id=`): compiling a
/// reference to such a variable gives its name whether it is defined or not.
fn plain_component(cat: &ExpressCatalog, e: &Expr) -> bool {
    matches!(e, Expr::Call(c) if cat.components.contains_key(&c.name) && c.kw("id").is_none())
}

/// One compiled component: its compilation's serial, its index there, itself and the
/// ids it names.
struct Slot<'v> {
    serial: u64,
    k: u32,
    c: &'v Value,
    refs: &'v [String],
}

/// `c` with its `undef` children pointing at placeholders.
fn form_of(cat: &ExpressCatalog, c: &Value, undef: &[&str]) -> Value {
    let mut form = c.clone();
    if !undef.is_empty() {
        with_placeholders(cat, &mut form, undef);
    }
    form
}

/// Whether `applied` is the form of `slot` with `undef` placeholders (`live`: a still
/// compiled component by serial and index).
fn same_as_applied<'v>(
    cat: &ExpressCatalog,
    applied: Option<&Applied>,
    live: &dyn Fn(u64, u32) -> Option<(&'v Value, &'v [String])>,
    slot: &Slot<'_>,
    undef: &[&str],
) -> bool {
    let same = same_as_applied_inner(cat, applied, live, slot, undef);
    #[cfg(test)]
    {
        let applied_form = match applied {
            Some(Applied::Live { form, .. } | Applied::Held(form)) => Some(form),
            None => None,
        };
        assert_eq!(
            same,
            applied_form == Some(&form_of(cat, slot.c, undef)),
            "{applied:?} against {:?} with {undef:?}",
            slot.c
        );
    }
    same
}

fn same_as_applied_inner<'v>(
    cat: &ExpressCatalog,
    applied: Option<&Applied>,
    live: &dyn Fn(u64, u32) -> Option<(&'v Value, &'v [String])>,
    slot: &Slot<'_>,
    undef: &[&str],
) -> bool {
    match applied {
        None => false,
        Some(Applied::Live {
            serial,
            k,
            undef: u,
            ..
        }) if *serial == slot.serial && *k == slot.k => {
            u.len() == undef.len()
                && u.iter().zip(undef).all(|(i, b)| {
                    usize::try_from(*i)
                        .ok()
                        .and_then(|i| slot.refs.get(i))
                        .is_some_and(|a| a == b)
                })
        }
        Some(Applied::Live {
            serial,
            k,
            undef: u,
            ..
        }) => live(*serial, *k).is_some_and(|(v, refs)| {
            let u: Vec<&str> = u
                .iter()
                .filter_map(|i| refs.get(usize::try_from(*i).ok()?))
                .map(String::as_str)
                .collect();
            form_of(cat, v, &u) == form_of(cat, slot.c, undef)
        }),
        Some(Applied::Held(v)) if undef.is_empty() => v == slot.c,
        Some(Applied::Held(v)) => *v == form_of(cat, slot.c, undef),
    }
}

/// Apply one reachable component: its form (placeholders for the `undefined` children,
/// which go to `wanted`) is sent when it differs from what was applied.
fn apply_one<'v>(
    cat: &ExpressCatalog,
    applied: &mut HashMap<String, Applied>,
    live: &dyn Fn(u64, u32) -> Option<(&'v Value, &'v [String])>,
    slot: &Slot<'v>,
    undefined: &dyn Fn(&str) -> bool,
    wanted: &mut Vec<&'v str>,
    send: &mut Vec<Value>,
) {
    let id = comp_id(slot.c);
    let mut undef: Vec<&'v str> = Vec::new();
    let mut at: Vec<u32> = Vec::new();
    for (i, r) in slot.refs.iter().enumerate() {
        if undefined(r) {
            undef.push(r);
            at.push(u32::try_from(i).unwrap_or(u32::MAX));
        }
    }
    if !same_as_applied(cat, applied.get(id), live, slot, &undef) {
        let form = form_of(cat, slot.c, &undef);
        let now = Applied::Live {
            serial: slot.serial,
            k: slot.k,
            undef: at,
            #[cfg(test)]
            form: form.clone(),
        };
        send.push(form);
        match applied.get_mut(id) {
            Some(a) => *a = now,
            None => {
                applied.insert(id.to_owned(), now);
            }
        }
    }
    wanted.extend(undef);
}

/// Visit the component ids inside a child-holding property value.
fn each_child_id<'v>(v: &'v Value, f: &mut dyn FnMut(&'v str)) {
    match v {
        Value::String(s) => f(s),
        Value::Array(a) => a.iter().for_each(|x| each_child_id(x, f)),
        Value::Object(o) => {
            for k in ["child", "componentId", "children", "content", "trigger"] {
                if let Some(x) = o.get(k) {
                    each_child_id(x, f);
                }
            }
        }
        _ => {}
    }
}

/// The ids a compiled component refers to, each once, in order.
fn refs_of(cat: &ExpressCatalog, c: &Value) -> Vec<String> {
    let Some(sig) = c
        .get("component")
        .and_then(Value::as_str)
        .and_then(|n| cat.components.get(n))
    else {
        return Vec::new();
    };
    let Some(o) = c.as_object() else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for (k, v) in o {
        if sig.holds_children(k) {
            each_child_id(v, &mut |id| {
                if !out.iter().any(|x| x == id) {
                    out.push(id.to_owned());
                }
            });
        }
    }
    out
}

/// Point references to the `undefined` children at placeholders (`loading_<id>`).
fn with_placeholders(cat: &ExpressCatalog, c: &mut Value, undefined: &[&str]) {
    fn go(v: &mut Value, undefined: &[&str]) {
        match v {
            Value::String(s) if undefined.contains(&s.as_str()) => {
                *s = format!("loading_{s}");
            }
            Value::Array(a) => a.iter_mut().for_each(|x| go(x, undefined)),
            Value::Object(o) => {
                for k in ["child", "componentId", "children", "content", "trigger"] {
                    if let Some(x) = o.get_mut(k) {
                        go(x, undefined);
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
            if sig.holds_children(k) {
                go(v, undefined);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::model_text::express::ExpressVersion;

    /// Statements that add, redefine, duplicate, unhook and re-hook components, alias
    /// child lists through variables, and fail then compile.
    const CASES: &[&str] = &[
        "root = Column([a, b, c])\na = Text(\"A\", id=\"x\")\nb = Row([d, e])\nd = Text(\"D\")\na = Text(\"A2\")\nc = Text(\"C\", id=\"b\")\nc = Text(\"C\")\ne = Column([a])\nb = Text(\"B\")\nd = Text(\"D2\")\ne = Row([d, f], id=\"e2\")\nroot = Column([b, c, e])\nf = Card(zz)\nzz = \"str\"\nf = Card(Text(\"inline\"))\nzz = Text(\"now\")\n",
        "a = Column([b])\nb = Column([a, c])\nroot = Card(a)\nc = Text(\"c\")\nb = Text(\"b\")\nroot = Card(b)\nroot = Card(a)\n",
        "kids = [a, b]\nroot = Column(kids)\na = Text(\"a\")\nkids = [b]\nb = Text(\"b\")\nkids = [a, b, c]\nc = Icon(\"star\")\n",
        "root = Column([a, b])\na = Text()\nb = Text(\"b\", id=\"a\")\na = Text(\"ok\")\nb = Text(\"b2\")\n$/x = 1\nb = Text(\"b3\", id=\"root\")\nb = Text(\"b4\")\n",
        "items = List(_template($/items, item))\nroot = Column([items, t])\nitem = Text($name)\n$/items = [{name: \"x\"}]\nt = Text(\"t\")\n",
        "surface(\"u\", update=true)\nx = Text(\"x\")\ny = Row([x, z])\nz = Text(\"z\")\nx = Text(\"x2\", id=\"z\")\nx = Text(\"x3\")\nsurface(\"s2\")\n$/a = 1\nroot = Card(k)\nk = Column([m, n], id=\"kk\")\nm = Text(\"m\")\nk = Column([n])\nn = Text(\"n\")\nm = Text(\"m2\")\nk = Column([m, n])\n",
        "root = Column([Text(\"a\"), Card(p), q])\np = Text(\"p\")\nq = Row([Text(\"r\"), p])\nroot = Column([q])\np = Button(Text(\"go\"), _, Event(\"go\"))\n",
    ];

    fn block_text(doc: &str) -> &str {
        let start = doc.find("<a2ui>").map_or(0, |i| i + "<a2ui>".len());
        let end = doc.find(EXPRESS_CLOSE_TAG).unwrap_or(doc.len());
        &doc[start..end]
    }

    /// Feed `text` in `chunk`-byte chunks (at char boundaries), every statement applied
    /// incrementally or in full.
    fn run(
        cat: &Arc<ExpressCatalog>,
        text: &str,
        chunk: usize,
        full_only: bool,
    ) -> Vec<ExpressOutput> {
        let mut b = ExpressBlock::new(Arc::clone(cat), "s");
        b.full_only = full_only;
        let mut outs = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let mut n = chunk.min(rest.len());
            while !rest.is_char_boundary(n) {
                n += 1;
            }
            outs.push(b.feed(&rest[..n]));
            rest = &rest[n..];
        }
        outs.push(b.finish());
        outs
    }

    fn suite_inputs() -> Vec<(String, Option<String>)> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/express-suites");
        let mut inputs = Vec::new();
        for rel in [
            "agent/express/compiler.yaml",
            "inference_formats/express/compile.yaml",
        ] {
            let Ok(text) = std::fs::read_to_string(format!("{dir}/{rel}")) else {
                continue;
            };
            let cases: Vec<Value> = serde_yaml_ng::from_str(&text).unwrap_or_default();
            for c in cases {
                if let Some(input) = c.get("input").and_then(Value::as_str) {
                    let catalog = c
                        .pointer("/args/catalog")
                        .and_then(Value::as_str)
                        .map(|p| format!("{dir}/{p}"));
                    inputs.push((input.to_owned(), catalog));
                }
            }
        }
        inputs
    }

    #[test]
    fn incremental_apply_matches_the_full_one() {
        let booking = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/model_text/restaurant_booking_v09.express.txt"
        ));
        let mut inputs: Vec<(String, Option<String>)> =
            CASES.iter().map(|c| ((*c).to_owned(), None)).collect();
        inputs.push((block_text(booking).to_owned(), None));
        let suites = suite_inputs();
        assert!(suites.len() > 40, "suite inputs: {}", suites.len());
        inputs.extend(suites);
        let basic09 = Arc::new(ExpressCatalog::basic(ExpressVersion::V0_9));
        let basic10 = Arc::new(ExpressCatalog::basic(ExpressVersion::V1_0));
        let mut compared = 0;
        let mut applied = 0;
        for (text, catalog) in &inputs {
            let mut cats = vec![Arc::clone(&basic09), Arc::clone(&basic10)];
            if let Some(doc) = catalog
                .as_ref()
                .and_then(|p| std::fs::read_to_string(p).ok())
                .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            {
                cats.push(Arc::new(ExpressCatalog::from_definitions(&[&doc], None)));
            }
            for cat in &cats {
                for chunk in [1, 4, 13, 64, 1 << 20] {
                    let inc = run(cat, text, chunk, false);
                    let full = run(cat, text, chunk, true);
                    assert_eq!(inc, full, "{text:?} in {chunk}-byte chunks");
                    compared += 1;
                    applied += inc.iter().filter(|o| !o.messages.is_empty()).count();
                }
            }
        }
        assert!(
            compared > 200 && applied > 200,
            "{compared} runs, {applied} applying"
        );
    }
}
