/**
 * Validation of multipart/form-data bodies against `@param … name.formData` annotations (issue 40), on
 * both servers and through `app.fetch()`: a table of forms sent × the answer (the handler's 200, or the
 * 400 naming each field and what is wrong with it, or 415 for a body that is not a form). The uploads a
 * refused request carried are deleted all the same.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Application, memoryLogger, type Request, type Response } from '../../ts/src/app/index.js';
import { withEngine } from './support/engine.js';
import { type Client, transports } from './support/transport.js';

/**
 * @schema Meta
 * @property {integer} id.required - Id
 */

const uploads = mkdtempSync(join(tmpdir(), 'arbor-form-validation-'));
/** The streamed forms' folder: nothing may ever be written to it. */
const streamedUploads = mkdtempSync(join(tmpdir(), 'arbor-form-streamed-'));

/** What arrived, from a form read before the handler (files on disk). */
const echoRead = (req: Request, res: Response) =>
  res.json({ fields: req.body(), files: req.files().map((f) => `${f.fieldname}:${f.filename}`) });

/** What arrived, from a form streamed to the handler (`req.parts()`): the same answer as {@link echoRead}. */
async function echoStreamed(req: Request, res: Response): Promise<Response> {
  const fields: Record<string, string | string[]> = {};
  const files: string[] = [];
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      files.push(`${part.fieldname}:${part.filename}`);
      part.stream.resume();
      continue;
    }
    const previous = fields[part.fieldname];
    if (previous === undefined) fields[part.fieldname] = part.value;
    else if (Array.isArray(previous)) previous.push(part.value);
    else fields[part.fieldname] = [previous, part.value];
  }
  return res.json({ fields, files });
}

/** The form routes, their forms read before the handler, or streamed to it (`uploads.stream`). */
function formApp(stream = false): Application {
  const app = new Application(
    withEngine({
      validate: true,
      logger: memoryLogger(),
      uploads: { tmpDir: stream ? streamedUploads : uploads, stream },
    }),
  );
  const echo = stream ? echoStreamed : echoRead;

  /**
   * @param {file} avatar.formData.required image/png, image/jpeg - Picture
   * @param {file[1..3]} docs.formData.optional - Documents
   * @param {string} name.formData.required - Name
   * @param {integer} age.formData.optional - Age
   * @param {boolean} listed.formData.optional - Listed
   * @param {array<number>} scores.formData.optional - Scores
   * @param {Meta} meta.formData.optional - Metadata, as JSON
   * @response 200 What arrived
   */
  app.post('/profile', echo);

  /**
   * @param {file[]} photos.formData.required - At least one photo
   * @response 200 What arrived
   */
  app.post('/photos', echo);

  /**
   * @param {string} note.formData.optional - Free text
   * @response 200 What arrived
   */
  app.post('/note', echo);
  return app;
}

/** One part of a form: a plain value, or a file with its name and type. */
type Part = [name: string, value: string] | [name: string, file: { filename: string; type: string }];

const png = { filename: 'a.png', type: 'image/png' };
const jpeg = { filename: 'b.jpg', type: 'image/jpeg' };
const text = { filename: 'notes.txt', type: 'text/plain' };
const ok = (...parts: Part[]): Part[] => [['avatar', png], ['name', 'Ada'], ...parts];

/** A 400's details as `name message` lines; `'ok'` for a 200; the status otherwise. */
type Outcome = 'ok' | string[] | 415;

const rows: [
  label: string,
  path: string,
  parts: Part[] | { type: string; body: string },
  outcome: Outcome,
][] = [
  ['a picture and a name', '/profile', ok(), 'ok'],
  [
    'a JPEG too',
    '/profile',
    [
      ['avatar', jpeg],
      ['name', 'Ada'],
    ],
    'ok',
  ],
  ['no picture', '/profile', [['name', 'Ada']], ['avatar is required']],
  ['nothing at all', '/profile', [], ['avatar is required', 'name is required']],
  [
    'an empty body, no Content-Type',
    '/profile',
    { type: '', body: '' },
    ['avatar is required', 'name is required'],
  ],
  [
    'two pictures in the single-file field',
    '/profile',
    [
      ['avatar', png],
      ['avatar', jpeg],
      ['name', 'Ada'],
    ],
    ['avatar must be a single file (got 2)'],
  ],
  [
    'a picture of an undeclared type',
    '/profile',
    [
      ['avatar', text],
      ['name', 'Ada'],
    ],
    ['avatar must be image/png or image/jpeg (got text/plain in "notes.txt")'],
  ],
  [
    'the picture as a plain field',
    '/profile',
    [
      ['avatar', 'not a file'],
      ['name', 'Ada'],
    ],
    ['avatar must be a file'],
  ],
  [
    'the name as a file (not also "required")',
    '/profile',
    [
      ['avatar', png],
      ['name', png],
    ],
    ['name must be a form field, not a file'],
  ],
  ['the name twice', '/profile', ok(['name', 'Grace']), ['name must be sent once (got 2 values)']],
  ['an integer', '/profile', ok(['age', '42']), 'ok'],
  ['an integer that is not a number', '/profile', ok(['age', 'abc']), ['age must be integer']],
  ['an integer with a fraction', '/profile', ok(['age', '4.5']), ['age must be integer']],
  ['a boolean', '/profile', ok(['listed', 'true']), 'ok'],
  ['a boolean that is not one', '/profile', ok(['listed', 'yes']), ['listed must be boolean']],
  ['repeated numbers', '/profile', ok(['scores', '1.5'], ['scores', '-2']), 'ok'],
  [
    'one repeated value that is not a number',
    '/profile',
    ok(['scores', '1.5'], ['scores', 'x']),
    ['scores/1 must be number'],
  ],
  ['a JSON part', '/profile', ok(['meta', '{"id":1}']), 'ok'],
  ['a JSON part that is not JSON', '/profile', ok(['meta', '{id}']), ['meta must be JSON']],
  ['a JSON part that breaks its schema', '/profile', ok(['meta', '{"id":"x"}']), ['meta/id must be integer']],
  ['documents within their bounds', '/profile', ok(['docs', png], ['docs', text], ['docs', jpeg]), 'ok'],
  [
    'too many documents',
    '/profile',
    ok(['docs', png], ['docs', png], ['docs', png], ['docs', png]),
    ['docs must have at most 3 files (got 4)'],
  ],
  [
    'several problems at once',
    '/profile',
    [
      ['avatar', png],
      ['avatar', png],
      ['age', 'x'],
    ],
    ['avatar must be a single file (got 2)', 'name is required', 'age must be integer'],
  ],
  [
    'a JSON body where a form is declared',
    '/profile',
    { type: 'application/json', body: '{"name":"Ada"}' },
    415,
  ],
  [
    'a URL-encoded body where a multipart form is declared',
    '/note',
    { type: 'application/x-www-form-urlencoded', body: 'note=hi' },
    415,
  ],
  ['{file[]} required: none', '/photos', [], ['photos is required']],
  ['{file[]}: one', '/photos', [['photos', png]], 'ok'],
  [
    '{file[]}: three',
    '/photos',
    [
      ['photos', png],
      ['photos', png],
      ['photos', jpeg],
    ],
    'ok',
  ],
  ['an optional field left out', '/note', [], 'ok'],
  [
    'fields and files nobody declared are let through',
    '/note',
    [
      ['extra', 'x'],
      ['upload', png],
    ],
    'ok',
  ],
];

/** The form as bytes, with its Content-Type (multipart, as fetch writes it). */
async function encode(
  parts: Part[] | { type: string; body: string },
): Promise<{ headers: Record<string, string>; body: Uint8Array }> {
  if (!Array.isArray(parts))
    return {
      headers: parts.type === '' ? {} : { 'Content-Type': parts.type },
      body: new TextEncoder().encode(parts.body),
    };
  const form = new FormData();
  for (const [name, value] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, new Blob(['bytes of ', value.filename], { type: value.type }), value.filename);
  }
  const request = new globalThis.Request('http://localhost/', { method: 'POST', body: form });
  return {
    headers: { 'Content-Type': request.headers.get('content-type') ?? '' },
    body: new Uint8Array(await request.arrayBuffer()),
  };
}

/** Resolves once the uploads folder is empty, or fails after 5 s. */
async function emptied(): Promise<void> {
  const deadline = Date.now() + 5000;
  while (readdirSync(uploads).length > 0) {
    if (Date.now() > deadline) throw new Error(`left behind: ${readdirSync(uploads).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(transports)('form validation over $name', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await transport.connect(formApp());
  });
  afterAll(() => client.close());

  test.each(rows)('%s (POST %s)', async (_label, path, parts, outcome) => {
    const { headers, body } = await encode(parts);
    const reply = await client.request(path, { method: 'POST', headers, body });
    if (outcome === 'ok') expect(reply.status, reply.text).toBe(200);
    else if (outcome === 415) {
      expect(reply.status, reply.text).toBe(415);
      expect(reply.json().error).toMatch(/^Expected a multipart\/form-data body, got application\//);
    } else {
      expect(reply.status, reply.text).toBe(400);
      const answer = reply.json();
      expect(answer.code).toBe(400);
      expect(
        answer.details.map((d: { in: string; name: string; message: string }) => `${d.name} ${d.message}`),
      ).toEqual(outcome);
      expect(answer.details.every((d: { in: string }) => d.in === 'body')).toBe(true);
      // The sentence names every field.
      for (const line of outcome) expect(answer.error).toContain(line.split(' ')[0]?.split('/')[0]);
    }
    await emptied();
  });
});

/**
 * The same forms streamed to the handler: a form the contract takes reaches it whole; one it refuses is a
 * 400 from the loop over `req.parts()`. A part that is wrong on its own (a file of an undeclared type, a
 * file where a field is expected) is refused as it arrives, before the handler gets it, so such a form's
 * answer names that first problem rather than every one.
 */
describe.each(transports)('form validation of a streamed form over $name', (transport) => {
  let client: Client;
  beforeAll(async () => {
    client = await transport.connect(formApp(true));
  });
  afterAll(() => client.close());

  test.each(rows)('%s (POST %s)', async (_label, path, parts, outcome) => {
    const { headers, body } = await encode(parts);
    const reply = await client.request(path, { method: 'POST', headers, body });
    if (outcome === 'ok') expect(reply.status, reply.text).toBe(200);
    else if (outcome === 415) expect(reply.status, reply.text).toBe(415);
    else {
      expect(reply.status, reply.text).toBe(400);
      const lines = reply
        .json()
        .details.map((d: { in: string; name: string; message: string }) => `${d.name} ${d.message}`);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(outcome).toContain(line);
    }
    expect(readdirSync(streamedUploads)).toEqual([]);
  });
});

/** Both ways a form reaches the handler, on every transport: the checks coerce copies of the values. */
const modes = transports.flatMap((transport) =>
  [false, true].map((stream) => ({
    transport,
    stream,
    name: `${transport.name}${stream ? ', streamed' : ''}`,
  })),
);
describe.each(modes)('the handler reads the values as sent over $name', ({ transport, stream }) => {
  test('coerced copies are checked, the strings reach the handler', async () => {
    const client = await transport.connect(formApp(stream));
    try {
      const { headers, body } = await encode(
        ok(['age', '42'], ['scores', '1.5'], ['scores', '2'], ['meta', '{"id":1}']),
      );
      const reply = await client.request('/profile', { method: 'POST', headers, body });
      expect(reply.json()).toEqual({
        fields: { name: 'Ada', age: '42', scores: ['1.5', '2'], meta: '{"id":1}' },
        files: ['avatar:a.png'],
      });
    } finally {
      await client.close();
    }
  });
});
