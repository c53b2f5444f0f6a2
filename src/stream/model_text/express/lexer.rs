//! The Express lexer: the tokens of `Express.g4`, read one at a time from any byte offset
//! so a block cut between chunks resumes where the last complete token ended.

/// A token kind of `Express.g4` (comments, whitespace and semicolons are skipped).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// `IDENTIFIER`.
    Ident(String),
    /// `PATH`: the text after `$`.
    Path(String),
    /// `CHECK`: the name after `?`.
    Check(String),
    /// `NUMBER`: its text.
    Number(String),
    /// `BOOLEAN`.
    Bool(bool),
    /// `'null'`.
    Null,
    /// `'_'`, the skipped-argument sentinel.
    Skip,
    /// Any of the four string forms, unescaped.
    Str(String),
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`
    Eq,
    /// A character no rule matches (ANTLR's token recognition error).
    Bad(char),
}

/// A token and where it is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token {
    pub(crate) tok: Tok,
    /// 1-based line of its first character, counted from the start of the block.
    pub(crate) line: u32,
    /// Byte offset of its first character in the block.
    pub(crate) start: usize,
    /// Byte offset just past it.
    pub(crate) end: usize,
}

/// What the lexer found at an offset.
#[derive(Debug, PartialEq)]
pub(crate) enum Lexed {
    /// A token.
    Token(Token),
    /// Only skipped text up to the end.
    End,
    /// The text ends inside a token (or a block comment) that more text could complete
    /// or change; `at` is where it starts.
    Incomplete {
        /// Byte offset where the unfinished token starts.
        at: usize,
    },
}

/// Standard escapes only (`\n`, `\r`, `\t`, `\\`, `\"`); any other escape stays as
/// written (backslash included), as the reference visitor does.
pub(crate) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some(o) => {
                out.push('\\');
                out.push(o);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_cont(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end of a `"""`-terminated body starting at `from` (escapes honoured when
/// `escapes`): the offset just past the closing `"""`.
fn triple_end(b: &[u8], from: usize, escapes: bool) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' if escapes => i += 2,
            b'"' if b.get(i..i + 3) == Some(b"\"\"\"") => return Some(i + 3),
            _ => i += 1,
        }
    }
    None
}

/// The end of a `"`-terminated standard body starting at `from`: just past the quote.
fn standard_end(b: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// Lines (`\n`) in `s`.
fn newlines(s: &[u8]) -> u32 {
    u32::try_from(s.iter().filter(|c| **c == b'\n').count()).unwrap_or(u32::MAX)
}

/// Read the next token of `text` at byte `pos` (on line `line`). `final_` says the text
/// is complete: a token touching the end is then taken as it is, otherwise it is
/// [`Lexed::Incomplete`] (more text could extend it). Returns the token and the line
/// after it.
pub(crate) fn next_token(text: &str, mut pos: usize, mut line: u32, final_: bool) -> (Lexed, u32) {
    let b = text.as_bytes();
    loop {
        let Some(&c) = b.get(pos) else {
            return (Lexed::End, line);
        };
        match c {
            b'\n' => {
                line = line.saturating_add(1);
                pos += 1;
            }
            b' ' | b'\t' | b'\r' | b';' => pos += 1,
            b'#' => match memchr::memchr(b'\n', b.get(pos..).unwrap_or_default()) {
                Some(n) => pos += n,
                None if final_ => return (Lexed::End, line),
                None => return (Lexed::Incomplete { at: pos }, line),
            },
            b'/' if b.get(pos + 1) == Some(&b'/') => {
                match memchr::memchr(b'\n', b.get(pos..).unwrap_or_default()) {
                    Some(n) => pos += n,
                    None if final_ => return (Lexed::End, line),
                    None => return (Lexed::Incomplete { at: pos }, line),
                }
            }
            b'/' if b.get(pos + 1) == Some(&b'*') => {
                let body = b.get(pos + 2..).unwrap_or_default();
                match memchr::memmem::find(body, b"*/") {
                    Some(n) => {
                        line = line.saturating_add(newlines(body.get(..n).unwrap_or_default()));
                        pos += 2 + n + 2;
                    }
                    None if final_ => {
                        // An unterminated block comment is not a comment: `/` is bad.
                        return (bad(text, pos, line), line);
                    }
                    None => return (Lexed::Incomplete { at: pos }, line),
                }
            }
            b'/' if b.len() == pos + 1 && !final_ => return (Lexed::Incomplete { at: pos }, line),
            b'`' => {
                // A markdown fence a model carried over from its examples (not in the
                // grammar; the reference's response parser strips it): skipped with
                // the rest of its line (a language tag).
                let run = b.get(pos..).unwrap_or_default();
                let ticks = run.iter().take_while(|c| **c == b'`').count();
                if ticks >= 3 {
                    match memchr::memchr(b'\n', run) {
                        Some(n) => pos += n,
                        None if final_ => return (Lexed::End, line),
                        None => return (Lexed::Incomplete { at: pos }, line),
                    }
                } else if ticks == run.len() && !final_ {
                    return (Lexed::Incomplete { at: pos }, line);
                } else {
                    return (bad(text, pos, line), line);
                }
            }
            _ => return token_at(text, pos, line, final_),
        }
    }
}

fn bad(text: &str, pos: usize, line: u32) -> Lexed {
    let ch = text
        .get(pos..)
        .and_then(|r| r.chars().next())
        .unwrap_or('\u{FFFD}');
    Lexed::Token(Token {
        tok: Tok::Bad(ch),
        line,
        start: pos,
        end: pos + ch.len_utf8(),
    })
}

fn token_at(text: &str, pos: usize, line: u32, final_: bool) -> (Lexed, u32) {
    let b = text.as_bytes();
    let tok = |tok: Tok, end: usize| Token {
        tok,
        line,
        start: pos,
        end,
    };
    let rest = b.get(pos..).unwrap_or_default();
    let c = rest.first().copied().unwrap_or(0);
    let incomplete = (Lexed::Incomplete { at: pos }, line);
    // A token reaching the end of unfinished text may still grow.
    let grows = |end: usize| end >= b.len() && !final_;
    let simple = match c {
        b'(' => Some(Tok::LParen),
        b')' => Some(Tok::RParen),
        b'[' => Some(Tok::LBracket),
        b']' => Some(Tok::RBracket),
        b'{' => Some(Tok::LBrace),
        b'}' => Some(Tok::RBrace),
        b',' => Some(Tok::Comma),
        b':' => Some(Tok::Colon),
        b'=' => Some(Tok::Eq),
        _ => None,
    };
    if let Some(t) = simple {
        return (Lexed::Token(tok(t, pos + 1)), line);
    }
    // Strings: the raw forms start with r/R.
    let raw = matches!(c, b'r' | b'R') && rest.get(1) == Some(&b'"');
    if raw || c == b'"' {
        let q = pos + usize::from(raw);
        let triple_open = b.get(q..q + 3) == Some(b"\"\"\"");
        if triple_open {
            match triple_end(b, q + 3, !raw) {
                Some(end) => {
                    let body = text.get(q + 3..end - 3).unwrap_or_default();
                    let s = if raw { body.to_owned() } else { unescape(body) };
                    let t = tok(Tok::Str(s), end);
                    let l = line.saturating_add(newlines(body.as_bytes()));
                    return (Lexed::Token(t), l);
                }
                None if !final_ => return incomplete,
                // Unterminated triple: the longest match is the empty string `""`.
                None => {
                    return (Lexed::Token(tok(Tok::Str(String::new()), q + 2)), line);
                }
            }
        }
        if b.len() < q + 3 && !final_ && b.get(q..) == Some(b"\"\"".as_slice()) {
            // `""` at the end may open a triple-quoted string.
            return incomplete;
        }
        if raw {
            let body = b.get(q + 1..).unwrap_or_default();
            let n = body
                .iter()
                .position(|c| matches!(c, b'"' | b'\r' | b'\n'))
                .unwrap_or(body.len());
            if body.get(n) == Some(&b'"') {
                let s = text.get(q + 1..q + 1 + n).unwrap_or_default().to_owned();
                return (Lexed::Token(tok(Tok::Str(s), q + 2 + n)), line);
            }
            if n == body.len() && !final_ {
                return incomplete;
            }
            // Not a raw string: `r` is an identifier.
        } else {
            match standard_end(b, q + 1) {
                Some(end) => {
                    let body = text.get(q + 1..end - 1).unwrap_or_default();
                    let l = line.saturating_add(newlines(body.as_bytes()));
                    return (Lexed::Token(tok(Tok::Str(unescape(body)), end)), l);
                }
                None if !final_ => return incomplete,
                None => return (bad(text, pos, line), line),
            }
        }
    }
    if c == b'$' {
        let n = rest
            .iter()
            .skip(1)
            .take_while(|c| is_ident_cont(**c) || **c == b'/')
            .count();
        let end = pos + 1 + n;
        if grows(end) {
            return incomplete;
        }
        let p = text.get(pos + 1..end).unwrap_or_default().to_owned();
        return (Lexed::Token(tok(Tok::Path(p), end)), line);
    }
    if c == b'?' {
        if rest.get(1).is_some_and(|c| is_ident_start(*c)) {
            let n = rest
                .iter()
                .skip(1)
                .take_while(|c| is_ident_cont(**c))
                .count();
            let end = pos + 1 + n;
            if grows(end) {
                return incomplete;
            }
            let name = text.get(pos + 1..end).unwrap_or_default().to_owned();
            return (Lexed::Token(tok(Tok::Check(name), end)), line);
        }
        if grows(pos + 1) {
            return incomplete;
        }
        return (bad(text, pos, line), line);
    }
    if c == b'-' || c.is_ascii_digit() {
        let sign = usize::from(c == b'-');
        let int = rest
            .iter()
            .skip(sign)
            .take_while(|c| c.is_ascii_digit())
            .count();
        if int == 0 {
            if grows(pos + 1) {
                return incomplete;
            }
            return (bad(text, pos, line), line);
        }
        let mut end = pos + sign + int;
        if b.get(end) == Some(&b'.') {
            let frac = b
                .get(end + 1..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if frac > 0 {
                end += 1 + frac;
            } else if grows(end + 1) {
                return incomplete;
            }
        }
        if grows(end) {
            return incomplete;
        }
        let n = text.get(pos..end).unwrap_or_default().to_owned();
        return (Lexed::Token(tok(Tok::Number(n), end)), line);
    }
    if is_ident_start(c) {
        let n = rest.iter().take_while(|c| is_ident_cont(**c)).count();
        let end = pos + n;
        if grows(end) {
            return incomplete;
        }
        let word = text.get(pos..end).unwrap_or_default();
        let t = match word {
            "true" => Tok::Bool(true),
            "false" => Tok::Bool(false),
            "null" => Tok::Null,
            "_" => Tok::Skip,
            w => Tok::Ident(w.to_owned()),
        };
        return (Lexed::Token(tok(t, end)), line);
    }
    (bad(text, pos, line), line)
}

/// Every token of a whole text (`final_`), for tests and the fuzz target.
#[cfg(test)]
pub(crate) fn tokens(text: &str) -> Vec<Tok> {
    let mut out = Vec::new();
    let (mut pos, mut line) = (0, 1);
    loop {
        match next_token(text, pos, line, true) {
            (Lexed::Token(t), l) => {
                pos = t.end;
                line = l;
                out.push(t.tok);
            }
            _ => return out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_form_and_literal_lexes() {
        let t = tokens(
            r#"a = "x\n\q" r"\d+" """l1
l2\t""" r"""raw\n""" 12 -3.5 true null _ $/a/b $rel ?req # c
/* block */ // line"#,
        );
        assert_eq!(
            t,
            vec![
                Tok::Ident("a".into()),
                Tok::Eq,
                Tok::Str("x\n\\q".into()),
                Tok::Str("\\d+".into()),
                Tok::Str("l1\nl2\t".into()),
                Tok::Str("raw\\n".into()),
                Tok::Number("12".into()),
                Tok::Number("-3.5".into()),
                Tok::Bool(true),
                Tok::Null,
                Tok::Skip,
                Tok::Path("/a/b".into()),
                Tok::Path("rel".into()),
                Tok::Check("req".into()),
            ]
        );
    }

    #[test]
    fn a_token_at_the_end_of_unfinished_text_waits() {
        for cut in [
            "x = tru", "x = 1", "x = \"ab", "x = $/a", "x = \"\"", "x = r", "/",
        ] {
            let mut pos = 0;
            let last = loop {
                match next_token(cut, pos, 1, false) {
                    (Lexed::Token(t), _) => pos = t.end,
                    (other, _) => break Some(other),
                }
            };
            assert!(
                matches!(last, Some(Lexed::Incomplete { .. })),
                "{cut}: {last:?}"
            );
        }
    }
}
