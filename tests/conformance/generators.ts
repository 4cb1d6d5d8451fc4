/**
 * Random route tables and request paths for the property tests that compare two matchers (the
 * reference and wasm engines; the generated small-table front and the wasm engine). Each test picks its
 * own vocabulary; the shapes are shared so both draw tables and paths the same way.
 */
import fc from 'fast-check';

/** Patterns of up to four `segments` joined by `/`, then a `tail`; `#` in a segment becomes its index
 * (parameter names unique within a route). */
export function patterns(segment: fc.Arbitrary<string>, tail: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(fc.array(segment, { maxLength: 4 }), tail).map(([segments, end]) => {
    const body = segments.map((text, k) => text.replaceAll('#', String(k))).join('/');
    if (segments.length === 0) return end.startsWith('/') ? end : `/${end}`;
    return `/${body}${end}`;
  });
}

/** A route: one or more of `methods` with a pattern. */
export function routes(
  methods: readonly string[],
  pattern: fc.Arbitrary<string>,
): fc.Arbitrary<{ methods: string[]; pattern: string }> {
  return fc.record({ methods: fc.subarray([...methods], { minLength: 1 }), pattern });
}

/** Paths of up to five `segments`, maybe a trailing slash, then one of `suffixes` (query, fragment). */
export function paths(segment: fc.Arbitrary<string>, suffixes: readonly string[]): fc.Arbitrary<string> {
  return fc
    .tuple(fc.array(segment, { maxLength: 5 }), fc.boolean(), fc.constantFrom(...suffixes))
    .map(
      ([segments, slash, suffix]) =>
        `/${segments.join('/')}${slash && segments.length > 0 ? '/' : ''}${suffix}`,
    );
}
