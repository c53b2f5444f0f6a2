# Generates src/eval/functions/locale_data.rs from Babel's CLDR data. Run with the oracle's
# venv (Babel 2.19) from the crate root, then `cargo fmt`:
#   /work/oracle-venv/bin/python tests/data/functions/gen_locales.py > src/eval/functions/locale_data.rs
from babel import Locale
from babel.numbers import parse_pattern
import babel
LOCALES = ['en_US','en_GB','en_IN','de_DE','de_AT','de_CH','fr_FR','fr_CA','es_ES','es_MX','it_IT','pt_BR','pt_PT','nl_NL','pl_PL','ru_RU','uk_UA','cs_CZ','sv_SE','da_DK','nb_NO','fi_FI','tr_TR','ja_JP','zh_CN','ko_KR','hi_IN']
def rs(s):
    out='"'
    for c in s:
        if c in '"\\': out+='\\'+c
        elif ord(c)<0x20 or ord(c)>0x7e: out+='\\u{%x}'%ord(c)
        else: out+=c
    return out+'"'
lines=[]
lines.append("// @generated from CLDR via Babel %s by tests/data/functions/gen_locales.py; do not edit." % babel.__version__)
lines.append("// CLDR data: Copyright Unicode, Inc., Unicode License v3 (https://www.unicode.org/license.txt).")
lines.append("use super::locale_types::{LocaleData, Plural};")
lines.append("")
body=[]
for l in LOCALES:
    L=Locale.parse(l)
    sym=L.number_symbols['latn']
    dp=L.decimal_formats[None]
    cp=parse_pattern(L.currency_formats['standard'].pattern)
    syms=sorted((k,v) for k,v in L.currency_symbols.items() if k!=v)
    months=L.months['format']
    days=L.days['format']
    body.append("    LocaleData {")
    body.append("        tag: %s," % rs(l.replace('_','-')))
    body.append("        decimal: %s," % rs(sym['decimal']))
    body.append("        group: %s," % rs(sym['group']))
    body.append("        grouping: (%d, %d)," % dp.grouping)
    body.append("        currency_grouping: (%d, %d)," % cp.grouping)
    body.append("        currency_pattern: %s," % rs(L.currency_formats['standard'].pattern))
    body.append("        currency_symbols: &[%s]," % ", ".join("(%s, %s)" % (rs(k),rs(v)) for k,v in syms))
    body.append("        months_wide: [%s]," % ", ".join(rs(months['wide'][i]) for i in range(1,13)))
    body.append("        months_abbr: [%s]," % ", ".join(rs(months['abbreviated'][i]) for i in range(1,13)))
    body.append("        days_wide: [%s]," % ", ".join(rs(days['wide'][i]) for i in range(7)))
    body.append("        days_abbr: [%s]," % ", ".join(rs(days['abbreviated'][i]) for i in range(7)))
    body.append("        plural: Plural::%s," % {'en':'OneIfIntOne','de':'OneIfIntOne','nl':'OneIfIntOne','sv':'OneIfIntOne','fi':'OneIfIntOne','it':'Italian','fr':'French','es':'Spanish','pt':('Portuguese' if l=='pt_PT' else 'French'),'pl':'Polish','ru':'EastSlavic','uk':'EastSlavic','cs':'Czech','da':'Danish','nb':'OneIfNOne','tr':'OneIfNOne','ja':'OtherOnly','zh':'OtherOnly','ko':'OtherOnly','hi':'Hindi'}[l[:2]])
    body.append("    },")
    print(l, L.plural_form.rules, file=__import__('sys').stderr)
# The first locale (en-US) is also the fallback: a const of its own, listed first.
end=body.index("    },")
lines.append("/// en-US: the default locale, and the fallback for a tag of no listed language.")
lines.append("pub(super) const EN_US: LocaleData = LocaleData {")
lines.extend(x[4:] for x in body[1:end])
lines.append("};")
lines.append("")
lines.append("/// Every locale with its own data; the first of a language is that language's default.")
lines.append("pub(super) static LOCALES: &[LocaleData] = &[")
lines.append("    EN_US,")
lines.extend(body[end+1:])
lines.append("];")
print("\n".join(lines))
