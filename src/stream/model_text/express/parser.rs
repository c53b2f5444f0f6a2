//! The Express parser: `Express.g4`'s rules by recursive descent over the lexer's tokens,
//! one statement at a time (a statement of a block still being written is
//! [`Parsed::Incomplete`] until a token that cannot continue it arrives).

use super::lexer::{Tok, Token};

/// An expression (`expression` of the grammar).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    /// `[a, b]`.
    Array(Vec<Self>),
    /// `{k: v}`, in written order (a repeated key keeps its first place, last value).
    Map(Vec<(String, Self)>),
    /// `$/abs` or `$rel`: the text after `$`.
    Path(String),
    /// `?name` or `?name(args)`.
    Check(String, Vec<Self>),
    /// `name(args)`.
    Call(Call),
    /// A variable reference.
    Var(String),
    /// `_`.
    Skip,
    /// A string literal.
    Str(String),
    /// A number literal, as written.
    Number(String),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// A call: its name, positional arguments and keyword arguments (in written order; a
/// repeated keyword keeps its first place and takes the last value, as a dict does).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Call {
    pub(crate) name: String,
    pub(crate) args: Vec<Expr>,
    pub(crate) kwargs: Vec<(String, Expr)>,
}

impl Call {
    /// The keyword argument `key`.
    pub(crate) fn kw(&self, key: &str) -> Option<&Expr> {
        self.kwargs.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Stmt {
    /// `name = expr`.
    Assign(String, Expr),
    /// `$/path = expr`: the text after `$`.
    Data(String, Expr),
    /// A standalone expression.
    Expr(Expr),
}

/// The outcome of parsing one statement.
#[derive(Debug, PartialEq)]
pub(crate) enum Parsed {
    /// A statement, and the index of the token after it.
    Stmt(Stmt, usize),
    /// More tokens are needed (the block is still being written).
    Incomplete,
    /// A syntax error at this line.
    Error {
        /// 1-based line in the block.
        line: u32,
        /// What was expected.
        message: String,
    },
}

/// Deepest nesting of arrays, maps and calls read (deeper is a syntax error, not a stack
/// overflow).
pub(crate) const MAX_DEPTH: usize = 64;

enum Fail {
    Incomplete,
    Error(u32, String),
}

struct P<'a> {
    toks: &'a [Token],
    i: usize,
    final_: bool,
    depth: usize,
    /// Build the statement (`false`: only tell whether the tokens hold a whole one,
    /// allocating nothing: the same rules, empty expressions).
    build: bool,
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("'{s}'"),
        Tok::Path(p) => format!("'${p}'"),
        Tok::Check(c) => format!("'?{c}'"),
        Tok::Number(n) => format!("'{n}'"),
        Tok::Bool(b) => format!("'{b}'"),
        Tok::Null => "'null'".into(),
        Tok::Skip => "'_'".into(),
        Tok::Str(_) => "a string".into(),
        Tok::LParen => "'('".into(),
        Tok::RParen => "')'".into(),
        Tok::LBracket => "'['".into(),
        Tok::RBracket => "']'".into(),
        Tok::LBrace => "'{'".into(),
        Tok::RBrace => "'}'".into(),
        Tok::Comma => "','".into(),
        Tok::Colon => "':'".into(),
        Tok::Eq => "'='".into(),
        Tok::Bad(c) => format!("token recognition error at: '{c}'"),
    }
}

impl P<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.i + 1).map(|t| &t.tok)
    }

    fn line(&self) -> u32 {
        self.toks
            .get(self.i)
            .or_else(|| self.toks.last())
            .map_or(1, |t| t.line)
    }

    fn unexpected(&self, want: &str) -> Fail {
        match self.peek() {
            None if !self.final_ => Fail::Incomplete,
            None => Fail::Error(self.line(), format!("missing {want} at '<EOF>'")),
            Some(t @ Tok::Bad(_)) => Fail::Error(self.line(), describe(t)),
            Some(t) => Fail::Error(
                self.line(),
                format!("mismatched input {} expecting {want}", describe(t)),
            ),
        }
    }

    fn expect(&mut self, t: &Tok, want: &str) -> Result<(), Fail> {
        if self.peek() == Some(t) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.unexpected(want))
        }
    }

    /// Whether the next token is `t` (needing one when the text is not final).
    fn at(&self, t: &Tok) -> Result<bool, Fail> {
        match self.peek() {
            None if !self.final_ => Err(Fail::Incomplete),
            other => Ok(other == Some(t)),
        }
    }

    fn statement(&mut self) -> Result<Stmt, Fail> {
        let assign = matches!(self.peek(), Some(Tok::Ident(_) | Tok::Path(_)));
        if assign {
            match self.peek2() {
                None if !self.final_ => return Err(Fail::Incomplete),
                Some(Tok::Eq) => {
                    let target = if self.build {
                        self.peek().cloned()
                    } else {
                        None
                    };
                    self.i += 2;
                    let value = self.expression()?;
                    return Ok(match target {
                        Some(Tok::Path(p)) => Stmt::Data(p, value),
                        Some(Tok::Ident(n)) => Stmt::Assign(n, value),
                        _ => Stmt::Expr(value),
                    });
                }
                _ => {}
            }
        }
        Ok(Stmt::Expr(self.expression()?))
    }

    fn enter(&mut self) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(Fail::Error(
                self.line(),
                format!("nesting deeper than {MAX_DEPTH}"),
            ));
        }
        Ok(())
    }

    /// `(expr (',' expr)* ','?)? close` after the opening token, for arrays and checks.
    fn list(&mut self, close: &Tok, want: &str) -> Result<Vec<Expr>, Fail> {
        let mut items = Vec::new();
        if self.at(close)? {
            self.i += 1;
            return Ok(items);
        }
        loop {
            let e = self.expression()?;
            if self.build {
                items.push(e);
            }
            if self.at(&Tok::Comma)? {
                self.i += 1;
                if self.at(close)? {
                    self.i += 1;
                    return Ok(items);
                }
                continue;
            }
            self.expect(close, want)?;
            return Ok(items);
        }
    }

    /// `s`, when building.
    fn text(&self, s: &str) -> String {
        if self.build {
            s.to_owned()
        } else {
            String::new()
        }
    }

    fn expression(&mut self) -> Result<Expr, Fail> {
        let Some(t) = self.peek() else {
            return Err(self.unexpected("an expression"));
        };
        match t {
            Tok::LBracket => {
                self.enter()?;
                self.i += 1;
                let items = self.list(&Tok::RBracket, "']'")?;
                self.depth -= 1;
                Ok(Expr::Array(items))
            }
            Tok::LBrace => {
                self.enter()?;
                self.i += 1;
                let m = self.map()?;
                self.depth -= 1;
                Ok(Expr::Map(m))
            }
            Tok::Path(p) => {
                let p = self.text(p);
                self.i += 1;
                Ok(Expr::Path(p))
            }
            Tok::Check(name) => {
                let name = self.text(name);
                self.i += 1;
                if self.at(&Tok::LParen)? {
                    self.enter()?;
                    self.i += 1;
                    let args = self.list(&Tok::RParen, "')'")?;
                    self.depth -= 1;
                    return Ok(Expr::Check(name, args));
                }
                Ok(Expr::Check(name, Vec::new()))
            }
            Tok::Ident(name) => {
                let name = self.text(name);
                self.i += 1;
                if self.at(&Tok::LParen)? {
                    self.enter()?;
                    self.i += 1;
                    let c = self.call(name)?;
                    self.depth -= 1;
                    return Ok(Expr::Call(c));
                }
                Ok(Expr::Var(name))
            }
            Tok::Skip => {
                self.i += 1;
                Ok(Expr::Skip)
            }
            Tok::Str(s) => {
                let s = self.text(s);
                self.i += 1;
                Ok(Expr::Str(s))
            }
            Tok::Number(n) => {
                let n = self.text(n);
                self.i += 1;
                Ok(Expr::Number(n))
            }
            &Tok::Bool(b) => {
                self.i += 1;
                Ok(Expr::Bool(b))
            }
            Tok::Null => {
                self.i += 1;
                Ok(Expr::Null)
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    fn map(&mut self) -> Result<Vec<(String, Expr)>, Fail> {
        let mut entries: Vec<(String, Expr)> = Vec::new();
        if self.at(&Tok::RBrace)? {
            self.i += 1;
            return Ok(entries);
        }
        loop {
            let Some(Tok::Ident(key) | Tok::Str(key)) = self.peek() else {
                return Err(self.unexpected("a map key"));
            };
            let key = self.text(key);
            self.i += 1;
            self.expect(&Tok::Colon, "':'")?;
            let v = self.expression()?;
            if self.build {
                match entries.iter_mut().find(|(k, _)| *k == key) {
                    Some(e) => e.1 = v,
                    None => entries.push((key, v)),
                }
            }
            if self.at(&Tok::Comma)? {
                self.i += 1;
                if self.at(&Tok::RBrace)? {
                    self.i += 1;
                    return Ok(entries);
                }
                continue;
            }
            self.expect(&Tok::RBrace, "'}'")?;
            return Ok(entries);
        }
    }

    fn call(&mut self, name: String) -> Result<Call, Fail> {
        let mut c = Call {
            name,
            args: Vec::new(),
            kwargs: Vec::new(),
        };
        if self.at(&Tok::RParen)? {
            self.i += 1;
            return Ok(c);
        }
        loop {
            let named = matches!(self.peek(), Some(Tok::Ident(_)));
            let kw = if named {
                match self.peek2() {
                    None if !self.final_ => return Err(Fail::Incomplete),
                    Some(Tok::Eq) => match self.peek() {
                        Some(Tok::Ident(k)) => Some(self.text(k)),
                        _ => None,
                    },
                    _ => None,
                }
            } else {
                None
            };
            if let Some(k) = kw {
                self.i += 2;
                let v = self.expression()?;
                if self.build {
                    match c.kwargs.iter_mut().find(|(n, _)| *n == k) {
                        Some(e) => e.1 = v,
                        None => c.kwargs.push((k, v)),
                    }
                }
            } else {
                let v = self.expression()?;
                if self.build {
                    c.args.push(v);
                }
            }
            if self.at(&Tok::Comma)? {
                self.i += 1;
                if self.at(&Tok::RParen)? {
                    self.i += 1;
                    return Ok(c);
                }
                continue;
            }
            self.expect(&Tok::RParen, "')'")?;
            return Ok(c);
        }
    }
}

/// Parse the statement at token `i` of `toks`. `final_`: no more tokens will come.
pub(crate) fn parse_statement(toks: &[Token], i: usize, final_: bool) -> Parsed {
    // A statement still being written is read again as each token arrives: first only
    // recognised (no allocation), built once it is whole (or wrong).
    let mut p = P {
        toks,
        i,
        final_,
        depth: 0,
        build: false,
    };
    if matches!(p.statement(), Err(Fail::Incomplete)) {
        return Parsed::Incomplete;
    }
    let mut p = P {
        toks,
        i,
        final_,
        depth: 0,
        build: true,
    };
    match p.statement() {
        Ok(s) => Parsed::Stmt(s, p.i),
        Err(Fail::Incomplete) => Parsed::Incomplete,
        Err(Fail::Error(line, message)) => Parsed::Error { line, message },
    }
}

/// Where to start again after a syntax error in the statement that starts at token
/// `from`: the first later token that begins a line and starts a statement (`name =`,
/// `$/path =`, `surface(`, `deleteSurface(`). `None`: not in `toks` yet.
pub(crate) fn recovery_point(toks: &[Token], from: usize, error_line: u32) -> Option<usize> {
    let mut prev_line = toks.get(from).map_or(0, |t| t.line);
    for (k, t) in toks.iter().enumerate().skip(from + 1) {
        let starts_line = t.line > prev_line;
        prev_line = t.line;
        if !starts_line || t.line < error_line {
            continue;
        }
        let next = toks.get(k + 1).map(|n| &n.tok);
        let starts = match (&t.tok, next) {
            (Tok::Ident(_) | Tok::Path(_), Some(Tok::Eq)) => true,
            (Tok::Ident(n), Some(Tok::LParen)) => n == "surface" || n == "deleteSurface",
            _ => false,
        };
        if starts {
            return Some(k);
        }
    }
    None
}
