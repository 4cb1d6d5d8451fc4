/** generateHtml: self-contained, escaped, and showing every operation, parameter, schema and example. */
import { describe, expect, it, vi } from 'vitest';
import { escapeHtml, exportWithDiagnostics, generateHtml } from '../../ts/src/openapi/index.js';
import { documented, fixture, source, table } from './helpers.js';

vi.spyOn(process, 'emitWarning').mockImplementation(() => {});

const evil = '<img src=x onerror=alert(1)>';
const fx = fixture(
  documented(
    `@summary Show ${evil}
@description Says "hi" & 'bye'
@param {integer} id.path.required - The <b>id</b>
@param {string} q.query - Search ${evil}
@param {string} name.body.required - Name
@response 200 {Thing} The thing
@response 404 Gone
@response 201 {file} application/pdf - The receipt
@response 202 {Thing} text/event-stream - Changes
@example request
{"name": "</script><script>alert(1)</script>"}
@example response 200
{"id": 1, "html": "<b>"}
@tags A&B
@deprecated true
@security bearerAuth`,
    '/things/:id<int>',
    'put',
    `
/**
 * @tag A&B - Tags ${evil}
 */
/**
 * @schema Thing
 * @property {integer} id - Identifier
 * @property {string} label - Label ${evil}
 * @example {"id": 7}
 */
`,
  ),
);
const routes = table([
  { methods: ['PUT'], pattern: '/things/:id<int>', callSite: { file: fx.file, line: fx.lineOf('app.put') } },
  { methods: ['GET'], pattern: '/plain' },
]);
const { document } = exportWithDiagnostics(
  source(routes, { info: { title: `Shop ${evil}`, version: '1"2', description: 'A & B' } }),
  { security: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
);
const html = generateHtml(document);

describe('generateHtml', () => {
  it('escapes every piece of text from the document', () => {
    expect(html).not.toContain(evil);
    expect(html).not.toContain('</script><script>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('Says &quot;hi&quot; &amp; &#39;bye&#39;');
    expect(html).toContain('A&amp;B');
  });

  // Expected values written out, not computed by the code under test.
  it.each([
    ['<b>', '&lt;b&gt;'],
    ['a & b', 'a &amp; b'],
    [`"q" 'a'`, '&quot;q&quot; &#39;a&#39;'],
    ['&amp;', '&amp;amp;'],
    ['plain', 'plain'],
  ])('escapeHtml(%j) = %j', (input, expected) => expect(escapeHtml(input)).toBe(expected));

  it('is self-contained: no script, no external URL, a CSP that forbids requests', () => {
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html).not.toMatch(/(?:src|href)="(?!#)/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('shows every operation, parameter, schema and example', () => {
    for (const text of [
      'PUT</span> <code class="path">/things/{id}</code>',
      'GET</span> <code class="path">/plain</code>',
      '<code>id</code></td><td>path</td><td>required</td><td>integer</td>',
      '<code>q</code></td><td>query</td><td>optional</td><td>string</td>',
      '<code>name</code></td><td>string</td><td>required</td>',
      '<a href="#schema-Thing">Thing</a>',
      'id="schema-Thing"',
      '<code>label</code></td><td>string</td>',
      '&quot;id&quot;: 7',
      '&quot;html&quot;: &quot;&lt;b&gt;&quot;',
      '<span class="badge">deprecated</span>',
      'security: <code>bearerAuth</code>',
      '<code>404</code></td><td>Gone',
      'application/pdf</span><p>binary</p>',
      'text/event-stream</span><p>string <span class="muted">Server-Sent Events; each event&#39;s data: Thing, as JSON</span>',
      '<li><span class="tag">A&amp;B</span> Tags &lt;img',
    ]) {
      expect(html).toContain(text);
    }
  });
});
