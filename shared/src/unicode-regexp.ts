/**
 * A regular expression with Unicode property escapes (`\p{L}`), made on its first use and then kept.
 *
 * V8 checks every such regex literal when it parses a script, looking the properties up in ICU's tables
 * (~1 M instructions a literal, whether the code ever runs or not): in a Lambda bundle each `/\p{L}/u`
 * literal is paid at every cold start (docs/testing.md, Performance budgets). Built with the constructor,
 * the check happens when a call needs the expression. Inside a function, `new RegExp(String.raw`…`, 'u')`
 * (a new object per evaluation, as a literal gives) does the same.
 */
export function lazyRegExp(pattern: string, flags: string): () => RegExp {
  let built: RegExp | undefined;
  return () => (built ??= new RegExp(pattern, flags));
}
