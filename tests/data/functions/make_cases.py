"""Writes cases.json: the function calls of the differential test (tests/core/functions_reference.rs).

Run from the crate root, then evaluate them with the reference oracle once:

    python3 tests/data/functions/make_cases.py
    /work/oracle-venv/bin/python <shared>/conformance/oracle.py --functions \
        tests/data/functions/cases.json > tests/data/functions/expected.json

Each case has a stable "id" (family:what) that tests/functions_deviations.md refers to.
"""
import json
import os

cases = []


def case(id, call, args, **kw):
    c = {"id": id, "call": call, "args": args}
    c.update(kw)
    cases.append(c)


# ---------------------------------------------------------------- formatNumber
for i, v in enumerate([0, 1, -1, 7, 12, 999, 1000, -1000, 1234567, -1234567, 0.5, -0.5, 1.5, 2.5, 3.5,
                       -2.5, 0.0005, 0.0015, 0.0025, 1.0005, 1.005, 999.9995, 999999.9995,
                       -0.000123, 0.000123, 1e15, 1e20, 1e21, 1e24, 123456789.987654321,
                       0.1 + 0.2, 1234.5678, 9007199254740993, 1e-7]):
    case(f"formatNumber:default:{i}", "formatNumber", {"value": v})
for i, (v, d) in enumerate([(1234567.891, 2), (1.005, 2), (2.345, 2), (2.355, 2), (0.5, 0), (1.5, 0),
                            (2.5, 0), (-2.5, 0), (-0.5, 0), (123.456, 1), (0, 3), (1, 5), (-1.25, 1),
                            (99.995, 2), (1e21, 2), (0.000123, 6), (1.5, 20), (1.5, 25)]):
    case(f"formatNumber:decimals:{i}", "formatNumber", {"value": v, "decimals": d})
case("formatNumber:negative-zero", "formatNumber", {"value": -0.0})
case("formatNumber:negative-zero-decimals", "formatNumber", {"value": -0.0, "decimals": 2})
case("formatNumber:no-grouping", "formatNumber", {"value": 1234567.891, "grouping": False})
case("formatNumber:no-grouping-decimals", "formatNumber", {"value": -1234567.891, "decimals": 1, "grouping": False})
case("formatNumber:grouping-true", "formatNumber", {"value": 1234567, "grouping": True})
case("formatNumber:grouping-path-string", "formatNumber", {"value": 1234, "grouping": {"path": "/g"}}, data={"g": "false"})
case("formatNumber:grouping-path-false", "formatNumber", {"value": 1234, "grouping": {"path": "/g"}}, data={"g": False})
case("formatNumber:value-path-int", "formatNumber", {"value": {"path": "/n"}, "decimals": 3}, data={"n": 3})
case("formatNumber:value-path-string", "formatNumber", {"value": {"path": "/n"}}, data={"n": "12.5"})
case("formatNumber:value-path-string-underscore", "formatNumber", {"value": {"path": "/n"}}, data={"n": "1_000"})
case("formatNumber:value-path-string-spaces", "formatNumber", {"value": {"path": "/n"}}, data={"n": "  42  "})
case("formatNumber:value-path-bool", "formatNumber", {"value": {"path": "/n"}}, data={"n": True})
case("formatNumber:value-path-null", "formatNumber", {"value": {"path": "/n"}}, data={"n": None})
case("formatNumber:value-path-missing", "formatNumber", {"value": {"path": "/n"}}, data={})
case("formatNumber:value-path-list", "formatNumber", {"value": {"path": "/n"}}, data={"n": [1]})
case("formatNumber:value-path-word", "formatNumber", {"value": {"path": "/n"}}, data={"n": "abc"})
case("formatNumber:value-path-empty", "formatNumber", {"value": {"path": "/n"}}, data={"n": ""})
case("formatNumber:value-path-infinity", "formatNumber", {"value": {"path": "/n"}}, data={"n": "-Infinity"})
case("formatNumber:value-path-nan", "formatNumber", {"value": {"path": "/n"}}, data={"n": "NaN"})
case("formatNumber:value-literal-string", "formatNumber", {"value": "12.5"})
case("formatNumber:value-literal-bool", "formatNumber", {"value": True})
case("formatNumber:value-missing", "formatNumber", {})
case("formatNumber:extra-arg", "formatNumber", {"value": 1, "style": "x"})
case("formatNumber:decimals-null", "formatNumber", {"value": 1.23456, "decimals": None})
case("formatNumber:decimals-fraction", "formatNumber", {"value": 1, "decimals": 2.7})
case("formatNumber:decimals-negative", "formatNumber", {"value": 1.5, "decimals": -1})
case("formatNumber:decimals-literal-string", "formatNumber", {"value": 1, "decimals": "2"})
case("formatNumber:decimals-path", "formatNumber", {"value": 3.14159, "decimals": {"path": "/d"}}, data={"d": 2})
case("formatNumber:decimals-path-string", "formatNumber", {"value": 3.14159, "decimals": {"path": "/d"}}, data={"d": "1"})
case("formatNumber:decimals-path-bad-string", "formatNumber", {"value": 3.14159, "decimals": {"path": "/d"}}, data={"d": "1.5"})
case("formatNumber:decimals-huge", "formatNumber", {"value": 1.5, "decimals": 1000000000})
case("formatNumber:decimals-28", "formatNumber", {"value": 1.5, "decimals": 28})
case("formatNumber:huge-value", "formatNumber", {"value": 1e300})
case("formatNumber:value-1e25", "formatNumber", {"value": 1e25})
case("formatNumber:grouping-literal-int", "formatNumber", {"value": 1, "grouping": 0})
case("formatNumber:nested-call", "formatNumber", {"value": {"call": "formatString", "args": {"value": "1234.5"}}})
for loc in ["de-DE", "fr-FR", "en-IN", "ja-JP", "pl-PL", "pt-BR", "de-CH", "sv-SE", "es-ES", "en-GB", "de", "xx-YY"]:
    case(f"formatNumber:locale:{loc}", "formatNumber", {"value": -1234567.891}, locale=loc)
case("formatNumber:locale:de-DE-decimals", "formatNumber", {"value": 1234.5, "decimals": 2}, locale="de-DE")
case("formatNumber:locale:en-IN-big", "formatNumber", {"value": 123456789}, locale="en-IN")

# -------------------------------------------------------------- formatCurrency
for code in ["USD", "EUR", "GBP", "JPY", "CHF", "SEK", "CAD", "AUD", "INR", "CNY", "KRW", "MXN", "XYZ", "usd", "eur"]:
    case(f"formatCurrency:code:{code}", "formatCurrency", {"value": 1234.5, "currency": code})
case("formatCurrency:negative", "formatCurrency", {"value": -9.99, "currency": "GBP"})
case("formatCurrency:negative-alpha", "formatCurrency", {"value": -9.99, "currency": "CHF"})
case("formatCurrency:zero", "formatCurrency", {"value": 0, "currency": "USD"})
case("formatCurrency:negative-zero", "formatCurrency", {"value": -0.0, "currency": "USD"})
case("formatCurrency:half-even", "formatCurrency", {"value": 2.345, "currency": "USD"})
case("formatCurrency:half-even-up", "formatCurrency", {"value": 2.355, "currency": "USD"})
case("formatCurrency:decimals-0", "formatCurrency", {"value": 1234.5, "currency": "USD", "decimals": 0})
case("formatCurrency:decimals-0-alpha", "formatCurrency", {"value": 1234.5, "currency": "CHF", "decimals": 0})
case("formatCurrency:decimals-3", "formatCurrency", {"value": 1.2345, "currency": "EUR", "decimals": 3})
case("formatCurrency:no-grouping", "formatCurrency", {"value": 1234567.5, "currency": "USD", "grouping": False})
case("formatCurrency:big", "formatCurrency", {"value": 98765432.1, "currency": "USD"})
case("formatCurrency:currency-path", "formatCurrency", {"value": 5, "currency": {"path": "/c"}}, data={"c": "gbp"})
case("formatCurrency:value-path", "formatCurrency", {"value": {"path": "/v"}, "currency": "USD"}, data={"v": "19.999"})
case("formatCurrency:missing-currency", "formatCurrency", {"value": 5})
case("formatCurrency:currency-literal-number", "formatCurrency", {"value": 5, "currency": 840})
case("formatCurrency:value-literal-string", "formatCurrency", {"value": "5", "currency": "USD"})
case("formatCurrency:symbol-code-with-dollar", "formatCurrency", {"value": 5, "currency": "X$"})
for loc, code in [("de-DE", "EUR"), ("de-DE", "USD"), ("fr-FR", "EUR"), ("fr-FR", "USD"), ("ja-JP", "JPY"),
                  ("en-IN", "INR"), ("de-CH", "CHF"), ("nl-NL", "EUR"), ("pt-BR", "BRL"), ("en-GB", "JPY"),
                  ("pl-PL", "PLN"), ("es-MX", "MXN")]:
    case(f"formatCurrency:locale:{loc}:{code}", "formatCurrency", {"value": -1234567.891, "currency": code}, locale=loc)
    case(f"formatCurrency:locale:{loc}:{code}:positive", "formatCurrency", {"value": 1234.5, "currency": code}, locale=loc)

# ------------------------------------------------------------------ formatDate
ts = "2026-03-04T05:06:07Z"
for fmt in ["yyyy-MM-dd HH:mm:ss", "yy/M/d", "MMMM d, yyyy", "MMM dd", "EEEE", "E", "h:mm a", "hh:mm a",
            "H:mm", "HH:mm", "yyyyMMdd", "yyy", "EEE", "MMMMM", "dddd", "YYYY 'at' HH", "%Y-%m", "ISO",
            "iso", "", "plain text", "Q ww D", "ss.SSS", "mmm", "a a", "d/M/yy h:m:s"]:
    case(f"formatDate:pattern:{fmt}", "formatDate", {"value": ts, "format": fmt})
for m in range(1, 13):
    case(f"formatDate:month:{m}", "formatDate", {"value": f"2025-{m:02d}-15", "format": "MMM MMMM EEEE E"})
for h in [0, 1, 11, 12, 13, 23]:
    case(f"formatDate:hour:{h}", "formatDate", {"value": f"2026-01-01T{h:02d}:30:00", "format": "h hh H HH a"})
for v in ["2024-02-29", "2000-02-29", "1900-02-29", "2026-02-29", "2023-12-31T23:30:00-01:00",
          "2026-01-01T00:30:00+01:00", "2026-03-31T22:00:00-03:00", "2024-02-29T23:59:59-01:00",
          "2026-03-04", "20260304", "2026-03-04T05:06", "2026-03-04T05", "2026-03-04 05:06:07",
          "2026-03-04t05:06:07", "20260304T050607", "2026-W10-3", "2026W103", "2026-W01", "2026-063",
          "2026-03-04T05:06:07.1Z", "2026-03-04T05:06:07,5", "2026-03-04T05:06:07.123456789Z",
          "2026-03-04T05:06:07+0530", "2026-03-04T05:06:07+05", "2026-03-04T05:06:07-00:30",
          "2026-03-04T24:00:00", "2026-03-04T05:06:60", "2026-13-01", "2026-3-4", "2026-03", "2026",
          "  2026-03-04", "2026-03-04T05:06:07z", "0001-01-01T00:00:00Z", "0001-01-01T00:30:00+01:00",
          "9999-12-31T23:59:59Z", "0999-06-15", "2026-03-04T05:06:07.123+01:00", "not a date",
          "2026-03-04T05:06:07+24:00", "2026-03-04x05:06:07", "2026-03-04T050607"]:
    case(f"formatDate:value:{v}", "formatDate", {"value": v, "format": "yyyy-MM-dd HH:mm:ss E"})
    case(f"formatDate:iso:{v}", "formatDate", {"value": v, "format": "ISO"})
case("formatDate:yy-short-year", "formatDate", {"value": "0005-01-01", "format": "yy yyyy"})
case("formatDate:number-basic-date", "formatDate", {"value": 20260304, "format": "yyyy-MM-dd"})
case("formatDate:number-millis", "formatDate", {"value": 1700000000000, "format": "yyyy"})
case("formatDate:bool", "formatDate", {"value": True, "format": "yyyy"})
case("formatDate:zero", "formatDate", {"value": 0, "format": "yyyy"})
case("formatDate:empty", "formatDate", {"value": "", "format": "yyyy"})
case("formatDate:null", "formatDate", {"value": None, "format": "yyyy"})
case("formatDate:object", "formatDate", {"value": {"k": 1}, "format": "yyyy"})
case("formatDate:list", "formatDate", {"value": ["2026-03-04"], "format": "yyyy"})
case("formatDate:missing-format", "formatDate", {"value": ts})
case("formatDate:value-path", "formatDate", {"value": {"path": "/when"}, "format": "MMM d"}, data={"when": "2026-07-04T00:00:00Z"})
case("formatDate:value-path-missing", "formatDate", {"value": {"path": "/when"}, "format": "MMM d"}, data={})
case("formatDate:format-path", "formatDate", {"value": "2026-03-04", "format": {"path": "/f"}}, data={"f": "dd.MM."})
case("formatDate:v1-wall-time", "formatDate", {"value": "2026-03-04T17:06:07+02:00", "format": "HH:mm"}, version="v1.0")
case("formatDate:v1-iso-utc", "formatDate", {"value": "2026-03-04T17:06:07+02:00", "format": "ISO"}, version="v1.0")
case("formatDate:v1-naive-iso", "formatDate", {"value": "2026-03-04T05:06:07", "format": "ISO"}, version="v1.0")
case("formatDate:v1-object", "formatDate", {"value": {"k": 1}, "format": "yyyy"}, version="v1.0")
for loc in ["de-DE", "fr-FR", "ja-JP", "es-ES", "ru-RU"]:
    case(f"formatDate:locale:{loc}", "formatDate", {"value": ts, "format": "EEEE d MMMM (E MMM) yyyy"}, locale=loc)

# ------------------------------------------------------------------- pluralize
en = {"zero": "none", "one": "one", "two": "two", "few": "few", "many": "many", "other": "other"}
for v in [0, 1, 2, 3, 1.5, -1, 1.0, 100, 0.0, 21, 1e6]:
    case(f"pluralize:en-all:{v}", "pluralize", dict(en, value=v))
for v in [0, 1, 2, 1.5]:
    case(f"pluralize:en-one-other:{v}", "pluralize", {"value": v, "one": "item", "other": "items"})
case("pluralize:other-only", "pluralize", {"value": 1, "other": "things"})
case("pluralize:missing-other", "pluralize", {"value": 1, "one": "x"})
case("pluralize:value-literal-string", "pluralize", {"value": "1", "one": "x", "other": "y"})
case("pluralize:value-path-string", "pluralize", {"value": {"path": "/n"}, "one": "x", "other": "y"}, data={"n": "1"})
case("pluralize:value-path-null", "pluralize", {"value": {"path": "/n"}, "one": "x", "other": "y"}, data={})
case("pluralize:value-path-nan", "pluralize", {"value": {"path": "/n"}, "one": "x", "other": "y"}, data={"n": "nan"})
case("pluralize:other-path-number", "pluralize", {"value": 5, "other": {"path": "/o"}}, data={"o": 5})
case("pluralize:other-path-float", "pluralize", {"value": 5, "other": {"path": "/o"}}, data={"o": 2.0})
case("pluralize:other-path-bool", "pluralize", {"value": 5, "other": {"path": "/o"}}, data={"o": True})
case("pluralize:other-path-missing", "pluralize", {"value": 5, "other": {"path": "/o"}}, data={})
case("pluralize:one-path-missing", "pluralize", {"value": 1, "one": {"path": "/o"}, "other": "y"}, data={})
case("pluralize:empty-one", "pluralize", {"value": 1, "one": "", "other": "y"})
case("pluralize:zero-null", "pluralize", {"value": 0, "zero": None, "other": "y"})
case("pluralize:huge", "pluralize", {"value": 1e300, "one": "x", "other": "y"})
case("pluralize:extra-arg", "pluralize", {"value": 1, "other": "y", "lots": "z"})
for loc, vals in [("pl-PL", [1, 2, 4, 5, 12, 22, 25, 101, 1.5, 0]), ("ru-RU", [1, 21, 11, 3, 13, 5, 0, 2.5]),
                  ("uk-UA", [1, 2, 5]), ("fr-FR", [0, 1, 1.5, 2, 1000000, 2000000, 1000001]),
                  ("es-ES", [1, 1000000, 0]), ("cs-CZ", [1, 3, 5, 1.5]), ("ja-JP", [1, 2]),
                  ("de-DE", [1, 1.0, 2]), ("pt-BR", [0, 1, 1.5]), ("pt-PT", [0, 1, 1000000]),
                  ("da-DK", [0.5, 1, 2]), ("hi-IN", [0, 1, 2]), ("it-IT", [1, 1000000])]:
    for v in vals:
        case(f"pluralize:{loc}:{v}", "pluralize", {"value": v, "one": "one", "few": "few", "many": "many", "other": "other"}, locale=loc)

# ---------------------------------------------------------------- formatString
D = {"user": {"name": "Ada", "tags": ["x", "y"]}, "count": 3, "f": 3.0, "i": 3, "s": 0.00001, "b": 1e16,
     "t": True, "z": None, "l": [1, "a", 2.5, None, True], "o": {"k": 1, "é": "ü"}, "neg": -0.0,
     "tiny": 1e-7, "huge": 1e22, "frac": 0.1, "items": [{"name": "a"}, {"name": "b"}], "total": 42.5,
     "when": "2026-07-04T00:00:00Z", "uni": "héllo wörld ✓", "tpl": "Hi ${/user/name}", "zero": 0}
for i, t in enumerate([
    "Hello ${/user/name}, you have ${/count} messages",
    "float ${/f} int ${/i} small ${/s} big ${/b} bool ${/t} null ${/z} missing ${/nope}",
    "list ${/l} obj ${/o} tags ${/user/tags}",
    "neg ${/neg} tiny ${/tiny} huge ${/huge} frac ${/frac} zero ${/zero}",
    "Total: ${formatCurrency(value: ${/total}, currency: 'USD')} on ${formatDate(value: ${/when}, format: 'MMM d')}",
    "Total: ${formatCurrency(value: /total, currency: \"EUR\")}",
    "literal \\${not/a/path} and ${'quoted'} and ${42} and ${true} and ${false} and ${null}.",
    "${1.50} ${1e3} ${-7} ${+7} ${.5} ${007} ${1.}",
    "${'a}b'} ${\"c{d\"} ${'it\\'s'} ${'tab\\there'}",
    "${${/user/name}}",
    "${${${/count}}}",
    "${pluralize(value: ${/count}, one: 'item', other: 'items')}",
    "${formatNumber(value: 1234.5678, decimals: 2)}",
    "${formatNumber(value: 1234.5678 decimals: 1)}",
    "${noSuchFunction(x: 1)} after",
    "${now()}",
    "${/user/name",
    "${a b}",
    "${1.2.3}",
    "${5abc}",
    "${'unterminated}",
    "${}",
    "${   }",
    "no interpolation at all",
    "",
    "${/uni} ✓ ${'🙂'}",
    "\\${ only escape",
    "a \\ b \\$ c $ d { e } f",
    "${f(a: )}",
    "${formatNumber(value: ${/count}, decimals: ${/count})}",
    "${formatNumber(value: 'x')}",
    "${formatString(value: /tpl)}",
    "${/items/0/name}${/items/1/name}",
    "${user/name} relative at root",
    "${trueish} ${nullable}",
    "${true/x}",
    "${email(value: 'a@b.co')} ${not(value: false)}",
    "${and(values: ${/l})}",
    "${length(value: 'abc', min: 2)}",
    "${formatNumber(value: -1e-7)}",
]):
    case(f"formatString:{i}", "formatString", {"value": t}, data=D)
case("formatString:scope-relative", "formatString", {"value": "${name} is item ${/items/1/name}"}, data=D, scope="/items/0")
case("formatString:scope-dot", "formatString", {"value": "[${.}]"}, data={"xs": ["p", "q"]}, scope="/xs/1")
case("formatString:value-path", "formatString", {"value": {"path": "/tpl"}}, data=D)
case("formatString:value-path-number", "formatString", {"value": {"path": "/f"}}, data=D)
case("formatString:value-path-null", "formatString", {"value": {"path": "/z"}}, data=D)
case("formatString:value-literal-number", "formatString", {"value": 5})
case("formatString:depth-10", "formatString", {"value": "${" * 10 + "/count" + "}" * 10}, data=D)
case("formatString:depth-11", "formatString", {"value": "${" * 11 + "/count" + "}" * 11}, data=D)
case("formatString:depth-101", "formatString", {"value": "${" * 101 + "/count" + "}" * 101}, data=D)
case("formatString:too-long", "formatString", {"value": "x" * 10001 + "${/count}"}, data=D)
case("formatString:v1-index-inside", "formatString", {"value": "#${@index(offset: 1)}"}, version="v1.0", scope="/items/1", data=D)
case("formatString:v1-paths", "formatString", {"value": "${/user/name} ${email(value: 'bad')}"}, version="v1.0", data=D)

# ------------------------------------------------------------------ validators
for i, v in enumerate(["", "x", " ", 0, 0.0, False, [], [0], {}, {"a": 1}, None]):
    case(f"required:{i}", "required", {"value": v})
    case(f"required:v1:{i}", "required", {"value": v}, version="v1.0")
case("required:path-missing", "required", {"value": {"path": "/missing"}})
case("required:path-empty-list", "required", {"value": {"path": "/l"}}, data={"l": []})
case("required:no-value", "required", {})
case("required:extra", "required", {"value": "x", "extra": 1})
for i, (v, p) in enumerate([("12345", "^[0-9]{5}$"), ("1234", "^[0-9]{5}$"), ("abc", "b"), ("abc", "^b"),
                            ("ABC", "(?i)abc"), ("héllo", "^h.llo$"), ("٣", "^\\d$"), ("a.b", "a\\.b"),
                            ("", "^$"), ("x", ""), ("abc", "("), ("abc", "[z-a]"), ("foobar", "foo(?=bar)"),
                            ("aa", "(a)\\1"), ("line\n", "line$"), ("tab\there", "\\t")]):
    case(f"regex:{i}", "regex", {"value": v, "pattern": p})
case("regex:v1-match", "regex", {"value": "abc", "pattern": "^a"}, version="v1.0")
case("regex:v1-no-match", "regex", {"value": "abc", "pattern": "^[0-9]+$"}, version="v1.0")
case("regex:v1-invalid", "regex", {"value": "abc", "pattern": "("}, version="v1.0")
case("regex:value-path-number", "regex", {"value": {"path": "/v"}, "pattern": "^5$"}, data={"v": 5})
case("regex:value-path-float", "regex", {"value": {"path": "/v"}, "pattern": "^5\\.0$"}, data={"v": 5.0})
case("regex:value-path-missing", "regex", {"value": {"path": "/v"}, "pattern": "^$"}, data={})
case("regex:value-path-list", "regex", {"value": {"path": "/v"}, "pattern": "^\\[1,\"a\"\\]$"}, data={"v": [1, "a"]})
case("regex:pattern-path", "regex", {"value": "abc", "pattern": {"path": "/p"}}, data={"p": "a"})
case("regex:value-literal-number", "regex", {"value": 5, "pattern": "5"})
case("regex:missing-pattern", "regex", {"value": "abc"})
for i, (v, mn, mx) in enumerate([("hello", 2, 4), ("hello", 5, 5), ("hello", 6, None), ("", 0, None), ("", 1, None),
                                 ("héllo", None, 5), ("🙂🙂", None, 2), ("e\u0301", None, 1), ("abc", None, None),
                                 ("abc", "2", None), ("abc", True, None), ("abc", 2.0, None), ("abc", 2.5, None),
                                 ("abc", -1, None), ("abc", None, 0), ("abc", {"path": "/m"}, None)]):
    a = {"value": v}
    if mn is not None:
        a["min"] = mn
    if mx is not None:
        a["max"] = mx
    case(f"length:{i}", "length", a, data={"m": 1})
case("length:literal-list", "length", {"value": ["a", "b"], "min": 2})
case("length:path-list", "length", {"value": {"path": "/v"}, "min": 2}, data={"v": ["a", "b"]})
case("length:path-number", "length", {"value": {"path": "/v"}, "max": 4}, data={"v": 12345})
case("length:path-null", "length", {"value": {"path": "/v"}, "min": 1}, data={"v": None})
case("length:path-object", "length", {"value": {"path": "/v"}, "max": 7}, data={"v": {"a": 1}})
case("length:v1", "length", {"value": "hello", "min": 2}, version="v1.0")
case("length:v1-fail", "length", {"value": "hello", "max": 2}, version="v1.0")
for i, (v, mn, mx) in enumerate([(5, 0, 10), (-5, 0, None), (10, None, 10), (10.5, None, 10), (0, 0, 0),
                                 (5, "1", None), (5, True, None), (5, "abc", None), (True, 0, None), ("42", 0, 100),
                                 (1e300, None, 1e308), (5, None, None)]):
    a = {"value": v}
    if mn is not None:
        a["min"] = mn
    if mx is not None:
        a["max"] = mx
    case(f"numeric:{i}", "numeric", a)
for i, v in enumerate(["42", "abc", True, None, "NaN", " 7 ", [1], "inf"]):
    case(f"numeric:path:{i}", "numeric", {"value": {"path": "/v"}, "min": 0, "max": 100}, data={"v": v})
case("numeric:min-path", "numeric", {"value": 5, "min": {"path": "/m"}}, data={"m": 3})
case("numeric:v1", "numeric", {"value": 5, "min": 10}, version="v1.0")
for i, v in enumerate(["user@example.com", "first.last+tag@sub.example.co.uk", "not-an-email", "a@b.c", "a@b.co",
                       "@example.com", "user@", "us er@example.com", "user@exa_mple.com", "ü@example.com",
                       "user@example.com\n", "", "USER@EXAMPLE.COM", "a%b@c-d.io"]):
    case(f"email:{i}", "email", {"value": v})
case("email:path-number", "email", {"value": {"path": "/v"}}, data={"v": 5})
case("email:v1-valid", "email", {"value": "user@example.com"}, version="v1.0")
case("email:v1-invalid", "email", {"value": "nope"}, version="v1.0")

# ----------------------------------------------------------------------- logic
case("and:true", "and", {"values": [True, True]})
case("and:false", "and", {"values": [True, False, True]})
case("and:paths", "and", {"values": [True, {"path": "/a"}, {"path": "/b"}]}, data={"a": 1, "b": "x"})
case("and:path-falsy", "and", {"values": [True, {"path": "/a"}]}, data={"a": ""})
case("and:path-string-false", "and", {"values": [True, {"path": "/a"}]}, data={"a": "false"})
case("and:one-value", "and", {"values": [True]})
case("and:literal-int", "and", {"values": [True, 1]})
case("and:values-path", "and", {"values": {"path": "/v"}}, data={"v": [True, True]})
case("and:nested-calls", "and", {"values": [{"call": "required", "args": {"value": "x"}}, {"call": "email", "args": {"value": "a@b.co"}}]})
case("and:v1-validation-results", "and", {"values": [{"call": "required", "args": {"value": "x"}}, {"call": "email", "args": {"value": "x"}}]}, version="v1.0")
case("and:v1-valid-results", "and", {"values": [{"call": "required", "args": {"value": "x"}}, {"call": "email", "args": {"value": "a@b.co"}}]}, version="v1.0")
case("and:v09-object-data", "and", {"values": [True, {"path": "/r"}]}, data={"r": {"valid": False}})
case("and:v1-object-data", "and", {"values": [True, {"path": "/r"}]}, data={"r": {"valid": False}}, version="v1.0")
case("or:all-false", "or", {"values": [False, False]})
case("or:one-true", "or", {"values": [False, True]})
case("or:paths", "or", {"values": [{"path": "/a"}, {"path": "/b"}]}, data={"a": 0, "b": []})
case("or:literal-zero", "or", {"values": [False, 0, ""]})
case("or:one-value", "or", {"values": [False]})
case("or:v1", "or", {"values": [{"call": "required", "args": {"value": ""}}, {"call": "required", "args": {"value": "y"}}]}, version="v1.0")
case("not:true", "not", {"value": True})
case("not:false", "not", {"value": False})
case("not:literal-string", "not", {"value": "false"})
case("not:path-string", "not", {"value": {"path": "/x"}}, data={"x": "false"})
case("not:path-zero", "not", {"value": {"path": "/x"}}, data={"x": 0})
case("not:path-missing", "not", {"value": {"path": "/x"}}, data={})
case("not:missing", "not", {})
case("not:v1-result", "not", {"value": {"call": "email", "args": {"value": "x"}}}, version="v1.0")
case("not:nested-call", "not", {"value": {"call": "required", "args": {"value": ""}}})

# --------------------------------------------------------------------- openUrl
for i, u in enumerate(["https://example.com", "http://example.com/a?b=c", "HTTPS://EXAMPLE.COM", "  https://x.y",
                       "javascript:alert(1)", "JavaScript:alert(1)", "java\tscript:alert(1)", "data:text/html,hi",
                       "file:///etc/passwd", "relative/path", "//example.com", "", "mailto:a@b.co", "tel:+123"]):
    case(f"openUrl:{i}", "openUrl", {"url": u})
case("openUrl:path-v09", "openUrl", {"url": {"path": "/u"}}, data={"u": "https://x"})
case("openUrl:path-v1", "openUrl", {"url": {"path": "/u"}}, data={"u": "https://x"}, version="v1.0")
case("openUrl:path-v1-bad", "openUrl", {"url": {"path": "/u"}}, data={"u": "javascript:x"}, version="v1.0")
case("openUrl:number", "openUrl", {"url": 5})

# ---------------------------------------------------------------------- @index
case("@index:scope-2", "@index", {}, version="v1.0", scope="/items/2", data={"items": [1, 2, 3]})
case("@index:offset-1", "@index", {"offset": 1}, version="v1.0", scope="/items/2", data={"items": [1, 2, 3]})
case("@index:offset-negative", "@index", {"offset": -5}, version="v1.0", scope="/items/2")
case("@index:offset-float", "@index", {"offset": 1.7}, version="v1.0", scope="/items/0")
case("@index:offset-path", "@index", {"offset": {"path": "/o"}}, version="v1.0", scope="/items/4", data={"o": 10})
case("@index:offset-path-string", "@index", {"offset": {"path": "/o"}}, version="v1.0", scope="/items/4", data={"o": "x"})
case("@index:offset-literal-string", "@index", {"offset": "1"}, version="v1.0", scope="/items/4")
case("@index:nested-scope", "@index", {}, version="v1.0", scope="/a/1/b/3")
case("@index:root-scope", "@index", {}, version="v1.0")
case("@index:object-scope", "@index", {}, version="v1.0", scope="/items/2/name")
case("@index:v09", "@index", {}, scope="/items/2")
case("@index:extra-arg", "@index", {"step": 1}, version="v1.0", scope="/items/2")

# ------------------------------------------------------------ unknown & envelope
case("unknown:v09", "noSuchFunction", {})
case("unknown:v1", "noSuchFunction", {}, version="v1.0")
case("envelope:v1-bad-arg-name", "required", {"my-value": "x"}, version="v1.0")
case("envelope:v1-bad-name", "not-a-name", {}, version="v1.0")

# -------------------------------------------- functions the reference does not have
for id_, call, args in [
    ("capitalize:word", "capitalize", {"value": "hello world"}),
    ("capitalize:unicode", "capitalize", {"value": "élan"}),
    ("extra:add", "add", {"a": 1, "b": 2}),
    ("extra:subtract", "subtract", {"a": 1, "b": 2.5}),
    ("extra:multiply", "multiply", {"a": 3, "b": "4"}),
    ("extra:divide", "divide", {"a": 1, "b": 4}),
    ("extra:divide-by-zero", "divide", {"a": 1, "b": 0}),
    ("extra:add-null", "add", {"a": None, "b": 1}),
    ("extra:equals", "equals", {"a": 1, "b": 1.0}),
    ("extra:not_equals", "not_equals", {"a": "a", "b": "b"}),
    ("extra:greater_than", "greater_than", {"a": 2, "b": 1}),
    ("extra:less_than", "less_than", {"a": 2, "b": 1}),
    ("extra:contains", "contains", {"string": "haystack", "substring": "st"}),
    ("extra:starts_with", "starts_with", {"string": "haystack", "prefix": "hay"}),
    ("extra:ends_with", "ends_with", {"string": "haystack", "suffix": "hay"}),
]:
    case(id_, call, args)

ids = [c["id"] for c in cases]
assert len(ids) == len(set(ids)), "duplicate ids"
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "cases.json"), "w", encoding="utf-8") as fh:
    json.dump(cases, fh, ensure_ascii=False, indent=1)
    fh.write("\n")
print(len(cases), "cases")
