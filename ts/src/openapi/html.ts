/**
 * `generateHtml(document)`: one self-contained, static HTML page for an OpenAPI document.
 *
 * No script, no external stylesheet, font or image: the CSS is inline and a Content-Security-Policy
 * (`default-src 'none'`) makes the browser refuse any request the page might still try. Everything that
 * comes from the document is escaped, since annotations are free text.
 */
import type { OpenApiDocument } from './types.js';

type Json = Record<string, unknown>;

const escapeMap: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** HTML-escapes any value (non-strings are stringified first). */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => escapeMap[c] ?? c);
}

const asObject = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** Anchor ids built from names: anything outside [A-Za-z0-9_-] becomes `-`. */
const anchor = (prefix: string, name: unknown) => `${prefix}-${String(name).replace(/[^\w-]/g, '-')}`;

/** A schema as a short type expression, schema references linked: `array<Product>`, `string (uuid)`. */
function typeHtml(schemaValue: unknown): string {
  const schema = asObject(schemaValue);
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop() ?? '';
    return `<a href="#${escapeHtml(anchor('schema', name))}">${escapeHtml(name)}</a>`;
  }
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const parts = asArray(schema[key]);
    if (parts.length) {
      const inner = parts.map(typeHtml).join(' | ');
      return schema.nullable === true ? `${inner} | null` : inner;
    }
  }
  // 3.1's raw bytes: no type, the media type in `contentMediaType` (3.0.3 says `string (binary)`).
  if (schema.type === undefined && typeof schema.contentMediaType === 'string') return 'binary';
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type ?? 'any']).map(String);
  let text = types
    .map((t) => (t === 'array' ? `array&lt;${typeHtml(schema.items)}&gt;` : escapeHtml(t)))
    .join(' | ');
  if (schema.nullable === true) text += ' | null';
  if (schema.format) text += ` <span class="muted">(${escapeHtml(schema.format)})</span>`;
  if (schema.pattern) text += ` <code class="pattern">${escapeHtml(schema.pattern)}</code>`;
  return text;
}

function json(value: unknown): string {
  return `<pre class="example"><code>${escapeHtml(JSON.stringify(value, null, 2))}</code></pre>`;
}

function parametersHtml(parameters: unknown[]): string {
  if (!parameters.length) return '';
  const rows = parameters.map((p) => {
    const param = asObject(p);
    return `<tr><td><code>${escapeHtml(param.name)}</code></td><td>${escapeHtml(param.in)}</td><td>${
      param.required === true ? 'required' : 'optional'
    }</td><td>${typeHtml(param.schema)}</td><td>${escapeHtml(param.description)}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>Name</th><th>In</th><th>Required</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** `encoding`: a form's Encoding Objects, whose `contentType` says which files a part takes. */
function propertiesHtml(schemaValue: unknown, encoding: unknown = {}): string {
  const schema = asObject(schemaValue);
  const required = new Set(asArray(schema.required).map(String));
  const rows = Object.entries(asObject(schema.properties)).map(([name, prop]) => {
    const description = asObject(prop).description;
    const partType = asObject(asObject(encoding)[name]).contentType;
    const type = partType
      ? `${typeHtml(prop)} <span class="muted">(${escapeHtml(partType)})</span>`
      : typeHtml(prop);
    return `<tr><td><code>${escapeHtml(name)}</code></td><td>${type}</td><td>${
      required.has(name) ? 'required' : 'optional'
    }</td><td>${escapeHtml(description)}</td></tr>`;
  });
  if (!rows.length) return '';
  return `<table><thead><tr><th>Property</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function contentHtml(contentValue: unknown): string {
  return Object.entries(asObject(contentValue))
    .map(([media, m]) => {
      const mediaObject = asObject(m);
      const schema = asObject(mediaObject.schema);
      const body =
        schema.type === 'object' && schema.properties
          ? propertiesHtml(schema, mediaObject.encoding)
          : mediaObject.schema
            ? `<p>${typeHtml(schema)}${schema.description ? ` <span class="muted">${escapeHtml(schema.description)}</span>` : ''}</p>`
            : '';
      const example =
        'example' in mediaObject ? `<p class="muted">Example</p>${json(mediaObject.example)}` : '';
      return `<div class="media"><span class="muted">${escapeHtml(media)}</span>${body}${example}</div>`;
    })
    .join('');
}

/** A `$ref` to `components.parameters`, `.responses` or `.requestBodies`, replaced by what it names. */
type Resolve = (value: unknown) => unknown;

function componentResolver(document: OpenApiDocument): Resolve {
  const components = asObject(document.components);
  return (value) => {
    const ref = asObject(value).$ref;
    const m =
      typeof ref === 'string'
        ? /^#\/components\/(parameters|responses|requestBodies)\/(.+)$/.exec(ref)
        : null;
    return m === null ? value : (asObject(components[m[1] ?? ''])[m[2] ?? ''] ?? value);
  };
}

function operationHtml(path: string, method: string, op: Json, resolve: Resolve): string {
  const tags = asArray(op.tags).map((t) => `<span class="tag">${escapeHtml(t)}</span>`);
  const security = asArray(op.security).flatMap((s) => Object.keys(asObject(s)));
  const body = asObject(resolve(op.requestBody));
  const responses = Object.entries(asObject(op.responses)).map(([status, r]) => {
    const response = asObject(resolve(r));
    return `<tr><td><code>${escapeHtml(status)}</code></td><td>${escapeHtml(response.description)}${contentHtml(
      response.content,
    )}</td></tr>`;
  });
  return `<section class="operation${op.deprecated === true ? ' deprecated' : ''}" id="${escapeHtml(
    anchor('op', op.operationId ?? `${method}-${path}`),
  )}">
<h3><span class="method method-${escapeHtml(method)}">${escapeHtml(method.toUpperCase())}</span> <code class="path">${escapeHtml(path)}</code>${
    op.deprecated === true ? ' <span class="badge">deprecated</span>' : ''
  }</h3>
${op.summary ? `<p class="summary">${escapeHtml(op.summary)}</p>` : ''}${
  op.description ? `<p class="description">${escapeHtml(op.description)}</p>` : ''
}<p class="muted">operationId <code>${escapeHtml(op.operationId)}</code>${tags.length ? ` · ${tags.join(' ')}` : ''}${
    security.length ? ` · security: ${security.map((s) => `<code>${escapeHtml(s)}</code>`).join(', ')}` : ''
  }</p>
${parametersHtml(asArray(op.parameters).map(resolve))}${
  op.requestBody
    ? `<h4>Request body${body.required === true ? ' <span class="muted">(required)</span>' : ''}</h4>${contentHtml(body.content)}`
    : ''
}<h4>Responses</h4><table><thead><tr><th>Status</th><th>Description</th></tr></thead><tbody>${responses.join('')}</tbody></table>
</section>`;
}

const CSS = `body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2430;background:#f7f8fa}
main{max-width:960px;margin:0 auto;padding:24px}h1{margin:0 0 4px}h2{margin-top:40px;border-bottom:2px solid #d8dde6;padding-bottom:4px}
.muted{color:#5d6778;font-size:13px}code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
.operation{background:#fff;border:1px solid #d8dde6;border-radius:6px;padding:12px 16px;margin:16px 0}
.operation h3{margin:0;font-size:16px}.deprecated .path{text-decoration:line-through}
.method{display:inline-block;min-width:64px;text-align:center;border-radius:4px;color:#fff;font-size:13px;padding:2px 6px;background:#555}
.method-get{background:#1f6feb}.method-post{background:#1a7f37}.method-put{background:#9a6700}.method-patch{background:#8250df}.method-delete{background:#cf222e}
.badge,.tag{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;background:#eef1f5;border:1px solid #d8dde6}
.badge{background:#fff1e5;border-color:#f0b37e}table{border-collapse:collapse;width:100%;margin:6px 0}
th,td{border:1px solid #e3e7ed;padding:4px 8px;text-align:left;vertical-align:top}th{background:#f1f3f6;font-size:13px}
pre.example{background:#0f1720;color:#e6edf3;padding:8px 12px;border-radius:4px;overflow:auto}
.media{margin:4px 0}nav ol{columns:2}h4{margin:12px 0 4px}`;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * @example
 * res.html(generateHtml(OpenApiExporter.export(app)));
 */
export function generateHtml(document: OpenApiDocument): string {
  const info = asObject(document.info);
  const operations: string[] = [];
  const toc: string[] = [];
  const resolve = componentResolver(document);
  for (const [path, item] of Object.entries(asObject(document.paths))) {
    for (const [method, op] of Object.entries(asObject(item))) {
      // A Path Item also holds `servers`, `parameters`, `summary`…: only its operations are listed.
      if (!HTTP_METHODS.has(method)) continue;
      const operation = asObject(op);
      operations.push(operationHtml(path, method, operation, resolve));
      toc.push(
        `<li><a href="#${escapeHtml(anchor('op', operation.operationId ?? `${method}-${path}`))}">${escapeHtml(
          method.toUpperCase(),
        )} ${escapeHtml(path)}</a>${operation.summary ? ` — ${escapeHtml(operation.summary)}` : ''}</li>`,
      );
    }
  }
  const components = asObject(document.components);
  const schemas = Object.entries(asObject(components.schemas)).map(([name, s]) => {
    const schema = asObject(s);
    const example = 'example' in schema ? schema.example : asArray(schema.examples)[0];
    return `<section class="operation schema" id="${escapeHtml(anchor('schema', name))}"><h3>${escapeHtml(name)}</h3>${
      schema.description ? `<p>${escapeHtml(schema.description)}</p>` : ''
    }${propertiesHtml(schema) || `<p>${typeHtml(schema)}</p>`}${example !== undefined ? `<p class="muted">Example</p>${json(example)}` : ''}</section>`;
  });
  const schemes = Object.entries(asObject(components.securitySchemes)).map(
    ([name, s]) =>
      `<tr><td><code>${escapeHtml(name)}</code></td><td><code>${escapeHtml(JSON.stringify(s))}</code></td></tr>`,
  );
  const servers = asArray(document.servers).map((s) => {
    const server = asObject(s);
    return `<li><code>${escapeHtml(server.url)}</code> ${escapeHtml(server.description)}</li>`;
  });
  const tags = asArray(document.tags).map((t) => {
    const tag = asObject(t);
    return `<li><span class="tag">${escapeHtml(tag.name)}</span> ${escapeHtml(tag.description)}</li>`;
  });
  const title = escapeHtml(info.title);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${title} — API documentation</title>
<style>${CSS}</style>
</head>
<body><main>
<header><h1>${title}</h1><p class="muted">Version ${escapeHtml(info.version)} · OpenAPI ${escapeHtml(document.openapi)}</p>${
    info.description ? `<p>${escapeHtml(info.description)}</p>` : ''
  }${servers.length ? `<p>Servers</p><ul>${servers.join('')}</ul>` : ''}${tags.length ? `<p>Tags</p><ul>${tags.join('')}</ul>` : ''}</header>
<nav><h2>Operations</h2><ol>${toc.join('')}</ol></nav>
<h2 id="operations">Endpoints</h2>
${operations.join('\n')}
${schemas.length ? `<h2 id="schemas">Schemas</h2>\n${schemas.join('\n')}` : ''}
${schemes.length ? `<h2 id="security">Security schemes</h2><table><tbody>${schemes.join('')}</tbody></table>` : ''}
</main></body>
</html>
`;
}
