//! The `formatString` expression language (basic catalog [guide]): literal text with `${…}`
//! interpolations.
//!
//! An interpolation holds one expression:
//! - a path, absolute (`/user/name`) or relative to the scope (`name`);
//! - a literal: `'text'` or `"text"` (with `\n`, `\t`, `\r` and `\<any>` escapes), a number
//!   (`42`, `-1.5`, `.5`, `1e3`), `true`, `false`, `null`;
//! - a call with named arguments, `name(arg: expr, other: expr)`, whose arguments are
//!   expressions themselves (no `${}` needed, though a nested `${…}` is allowed);
//! - a nested `${…}`.
//!
//! `\${` is a literal `${`. Parsing yields the parts as dynamic values (text and literals as
//! JSON literals, paths as `{"path"}`, calls as `{"call", "args"}`), so evaluation is the
//! ordinary binding resolution. The grammar and its corner cases follow the reference
//! parser (a2ui-core's `ExpressionParser`); nesting is capped by
//! [`Limits::max_expression_depth`](crate::limits::Limits::max_expression_depth).
//!
//! [guide]: https://github.com/a2ui-project/a2ui/blob/main/specification/v0_9/docs/basic_catalog_implementation_guide.md

use serde_json::{Map, Number, Value};
use thiserror::Error;

/// Characters of one template, at most (the reference's limit).
pub const MAX_TEMPLATE_CHARS: usize = 10_000;

/// Parts of one template, at most (the reference's limit).
pub const MAX_PARTS: usize = 1_000;

/// Why a template could not be parsed.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{0}")]
pub struct ParseError(pub String);

type Result<T> = std::result::Result<T, ParseError>;

fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(ParseError(msg.into()))
}

/// Parse a formatString template into its parts, in order: literal text as JSON strings,
/// each interpolation as a dynamic value. Interpolations that are empty or `null` produce
/// no part.
pub fn parse_template(input: &str, max_depth: usize) -> Result<Vec<Value>> {
    Parser { max_depth }.template(input, 0)
}

struct Parser {
    max_depth: usize,
}

struct Scanner {
    chars: Vec<char>,
    pos: usize,
}

impl Scanner {
    fn new(s: &str) -> Self {
        Self {
            chars: s.chars().collect(),
            pos: 0,
        }
    }

    fn at_end(&self) -> bool {
        self.pos >= self.chars.len()
    }

    fn peek_at(&self, offset: usize) -> char {
        self.chars.get(self.pos + offset).copied().unwrap_or('\0')
    }

    fn peek(&self) -> char {
        self.peek_at(0)
    }

    fn advance(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).copied();
        self.pos += 1;
        c
    }

    fn starts_with(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(i, c)| self.peek_at(i) == c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == c && !self.at_end() {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn keyword(&mut self, kw: &str) -> bool {
        let n = kw.chars().count();
        if self.starts_with(kw) && !is_id_continue(self.peek_at(n)) {
            self.pos += n;
            true
        } else {
            false
        }
    }

    fn skip_whitespace(&mut self) {
        while !self.at_end() && self.peek().is_whitespace() {
            self.pos += 1;
        }
    }

    fn slice(&self, from: usize, to: usize) -> String {
        self.chars
            .get(from.min(self.chars.len())..to.min(self.chars.len()))
            .unwrap_or_default()
            .iter()
            .collect()
    }

    fn rest(&self) -> String {
        self.slice(self.pos, self.chars.len())
    }
}

fn is_id_continue(c: char) -> bool {
    c != '\0' && unicode_ident::is_xid_continue(c)
}

fn is_empty_part(v: &Value) -> bool {
    matches!(v, Value::String(s) if s.is_empty())
}

impl Parser {
    fn check_depth(&self, depth: usize) -> Result<()> {
        if depth > self.max_depth {
            return err(format!(
                "expression nesting deeper than max_expression_depth ({})",
                self.max_depth
            ));
        }
        Ok(())
    }

    fn template(&self, input: &str, depth: usize) -> Result<Vec<Value>> {
        self.check_depth(depth)?;
        let n = input.chars().count();
        if n > MAX_TEMPLATE_CHARS {
            return err(format!(
                "template of {n} characters exceeds {MAX_TEMPLATE_CHARS}"
            ));
        }
        if !input.contains("${") {
            return Ok(if input.is_empty() {
                Vec::new()
            } else {
                vec![Value::String(input.to_owned())]
            });
        }
        let mut parts = Vec::new();
        let mut s = Scanner::new(input);
        while !s.at_end() {
            if parts.len() >= MAX_PARTS {
                return err(format!("template has more than {MAX_PARTS} parts"));
            }
            if s.starts_with("${") {
                s.pos += 2;
                let content = extract_interpolation(&mut s)?;
                let parsed = self.expression(&content, depth + 1)?;
                if !is_empty_part(&parsed) {
                    parts.push(parsed);
                }
            } else if s.starts_with("\\${") {
                s.pos += 3;
                parts.push(Value::String("${".into()));
            } else {
                let start = s.pos;
                while !s.at_end() && !s.starts_with("${") && !s.starts_with("\\${") {
                    s.pos += 1;
                }
                let text = s.slice(start, s.pos);
                if !text.is_empty() {
                    parts.push(Value::String(text));
                }
            }
        }
        Ok(parts)
    }

    fn expression(&self, expr: &str, depth: usize) -> Result<Value> {
        self.check_depth(depth)?;
        let expr = expr.trim();
        if expr.is_empty() {
            return Ok(Value::String(String::new()));
        }
        let mut s = Scanner::new(expr);
        let v = self.internal(&mut s, depth)?;
        if !s.at_end() {
            return err(format!(
                "unexpected characters at end of expression: {:?}",
                s.rest()
            ));
        }
        Ok(v)
    }

    fn internal(&self, s: &mut Scanner, depth: usize) -> Result<Value> {
        self.check_depth(depth)?;
        s.skip_whitespace();
        if s.at_end() {
            return Ok(Value::String(String::new()));
        }
        if s.starts_with("${") {
            s.pos += 2;
            let content = extract_interpolation(s)?;
            return self.expression(&content, depth + 1);
        }
        if matches!(s.peek(), '\'' | '"') {
            return Ok(Value::String(string_literal(s)));
        }
        if is_number_start(s) {
            return number_literal(s);
        }
        if s.keyword("true") {
            return Ok(Value::Bool(true));
        }
        if s.keyword("false") {
            return Ok(Value::Bool(false));
        }
        if s.keyword("null") {
            return Ok(Value::String(String::new()));
        }
        let start = s.pos;
        while !s.at_end() && (is_id_continue(s.peek()) || matches!(s.peek(), '/' | '.' | '-')) {
            s.pos += 1;
        }
        let token = s.slice(start, s.pos);
        s.skip_whitespace();
        if s.peek() == '(' && !s.at_end() {
            return self.call(token, s, depth);
        }
        if token.is_empty() {
            return Ok(Value::String(String::new()));
        }
        let mut m = Map::new();
        m.insert("path".into(), Value::String(token));
        Ok(Value::Object(m))
    }

    fn call(&self, name: String, s: &mut Scanner, depth: usize) -> Result<Value> {
        s.eat('(');
        s.skip_whitespace();
        let mut args = Map::new();
        while !s.at_end() && s.peek() != ')' {
            let start = s.pos;
            while !s.at_end() && is_id_continue(s.peek()) {
                s.pos += 1;
            }
            let arg = s.slice(start, s.pos);
            s.skip_whitespace();
            if !s.eat(':') {
                return err(format!(
                    "expected ':' after argument name {arg:?} in function {name:?}"
                ));
            }
            s.skip_whitespace();
            let value = self.internal(s, depth + 1)?;
            args.insert(arg, value);
            s.skip_whitespace();
            if s.peek() == ',' && !s.at_end() {
                s.pos += 1;
                s.skip_whitespace();
            }
        }
        if !s.eat(')') {
            return err(format!(
                "expected ')' after function arguments for {name:?}"
            ));
        }
        let mut m = Map::new();
        m.insert("call".into(), Value::String(name));
        m.insert("args".into(), Value::Object(args));
        Ok(Value::Object(m))
    }
}

/// The text up to the `}` that closes an interpolation (braces balanced, quoted strings
/// skipped); the scanner ends after that `}`.
fn extract_interpolation(s: &mut Scanner) -> Result<String> {
    let start = s.pos;
    let mut balance = 1usize;
    while balance > 0 {
        let Some(c) = s.advance() else { break };
        match c {
            '{' => balance += 1,
            '}' => balance -= 1,
            '\'' | '"' => {
                while let Some(q) = s.advance() {
                    if q == '\\' {
                        s.advance();
                    } else if q == c {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    if balance > 0 {
        return err("unclosed interpolation: missing '}'");
    }
    Ok(s.slice(start, s.pos.saturating_sub(1)))
}

fn string_literal(s: &mut Scanner) -> String {
    let quote = s.advance().unwrap_or('\'');
    let mut out = String::new();
    while let Some(c) = s.advance() {
        if c == '\\' {
            match s.advance() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => {}
            }
        } else if c == quote {
            break;
        } else {
            out.push(c);
        }
    }
    out
}

fn is_number_start(s: &Scanner) -> bool {
    let offset = usize::from(matches!(s.peek(), '-' | '+'));
    let c = s.peek_at(offset);
    c.is_ascii_digit() || (c == '.' && s.peek_at(offset + 1).is_ascii_digit())
}

/// `[+-]?(digits[.digits*] | .digits)([eE][+-]?digits)?`, the whole text.
fn is_number_literal(t: &str) -> bool {
    let b = t.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let count = |i: &mut usize| {
        let from = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - from
    };
    let int_digits = count(&mut i);
    if int_digits > 0 {
        if b.get(i) == Some(&b'.') {
            i += 1;
            count(&mut i);
        }
    } else {
        if b.get(i) != Some(&b'.') {
            return false;
        }
        i += 1;
        if count(&mut i) == 0 {
            return false;
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if count(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

fn number_literal(s: &mut Scanner) -> Result<Value> {
    let start = s.pos;
    if matches!(s.peek(), '-' | '+') {
        s.pos += 1;
    }
    while !s.at_end() && (s.peek().is_ascii_digit() || s.peek() == '.') {
        s.pos += 1;
    }
    if matches!(s.peek(), 'e' | 'E') && !s.at_end() {
        s.pos += 1;
        if matches!(s.peek(), '+' | '-') {
            s.pos += 1;
        }
        while !s.at_end() && s.peek().is_ascii_digit() {
            s.pos += 1;
        }
    }
    let text = s.slice(start, s.pos);
    if !is_number_literal(&text) {
        return err(format!("invalid number literal: {text:?}"));
    }
    let x: f64 = text
        .parse()
        .map_err(|_| ParseError(format!("invalid number literal: {text:?}")))?;
    if !x.is_finite() {
        return err(format!("number literal is out of range: {text:?}"));
    }
    if text.contains(['.', 'e', 'E']) {
        return Ok(Number::from_f64(x).map_or(Value::Null, Value::Number));
    }
    let digits = text.trim_start_matches(['+', '-']);
    let negative = text.starts_with('-');
    let int = if negative {
        format!("-{digits}").parse::<i64>().ok().map(Value::from)
    } else {
        digits.parse::<u64>().ok().map(Value::from)
    };
    // Integers beyond 64 bits keep their value as a float.
    Ok(int.unwrap_or_else(|| Number::from_f64(x).map_or(Value::Null, Value::Number)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(s: &str) -> Result<Vec<Value>> {
        parse_template(s, 10)
    }

    #[test]
    fn text_paths_and_calls_become_dynamic_values() {
        let expected = vec![
            json!("Hi "),
            json!({"path": "/user/name"}),
            json!(", "),
            json!({"call": "fmt", "args": {"value": {"path": "n"}, "d": 2}}),
        ];
        assert_eq!(
            parse("Hi ${/user/name}, ${fmt(value: ${n}, d: 2)}"),
            Ok(expected)
        );
    }

    #[test]
    fn escaped_interpolation_is_literal_text() {
        let expected = vec![json!("a "), json!("${"), json!("b} c")];
        assert_eq!(parse("a \\${b} c"), Ok(expected));
    }

    #[test]
    fn literals_keep_their_types() {
        let expected = vec![json!("q's"), json!(42), json!(-1.5), json!(true)];
        assert_eq!(parse("${'q\\'s'}${42}${-1.5}${true}${null}"), Ok(expected));
    }

    #[test]
    fn unclosed_interpolation_is_an_error() {
        assert!(parse("x ${/a").is_err());
        assert!(parse("${f(a: 'x)}").is_err());
    }

    #[test]
    fn trailing_garbage_is_an_error() {
        assert!(parse("${a b}").is_err());
        assert!(parse("${1.2.3}").is_err());
        assert!(parse("${@index()}").is_err());
    }

    #[test]
    fn nesting_beyond_the_limit_is_an_error() {
        let deep = format!("{}/x{}", "${".repeat(11), "}".repeat(11));
        assert!(parse(&deep).is_err());
        let ok = format!("{}/x{}", "${".repeat(10), "}".repeat(10));
        assert_eq!(parse(&ok), Ok(vec![json!({"path": "/x"})]));
    }
}
