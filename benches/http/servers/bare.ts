/**
 * The ceiling: node:http with a hand-written switch, no framework. Everything a framework adds (routing
 * tables, middleware, request/response objects) shows up as the distance to this server.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { NOT_FOUND_BODY, TaskStore, TITLE_REQUIRED_BODY, WELCOME } from '../model.js';
import { summarise } from '../orders.js';
import { announce, BODY_LIMIT, HOST } from './announce.js';

const store = new TaskStore();

function send(res: ServerResponse, status: number, data?: unknown): void {
  if (data === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  const body = JSON.stringify(data);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Reads and parses a JSON body; answers 400/413 itself and resolves `undefined` then. */
function readJson(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > BODY_LIMIT) {
        send(res, 413, { error: 'Payload Too Large' });
        return resolve(undefined);
      }
      try {
        resolve(size === 0 ? {} : JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        send(res, 400, { error: 'Malformed JSON' });
        resolve(undefined);
      }
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const method = req.method ?? 'GET';

  if (path === '/') {
    if (method === 'GET') return send(res, 200, WELCOME);
    return send(res, 405, { error: 'Method Not Allowed' });
  }
  if (path === '/tasks') {
    if (method === 'GET') return send(res, 200, store.list());
    if (method === 'POST') {
      const body = await readJson(req, res);
      if (body === undefined) return;
      const task = store.create(body);
      return task ? send(res, 201, task) : send(res, 400, TITLE_REQUIRED_BODY);
    }
    return send(res, 405, { error: 'Method Not Allowed' });
  }
  if (path.startsWith('/tasks/') && path.indexOf('/', 7) === -1 && path.length > 7) {
    const id = decodeURIComponent(path.slice(7));
    switch (method) {
      case 'GET': {
        const task = store.get(id);
        return task ? send(res, 200, task) : send(res, 404, NOT_FOUND_BODY);
      }
      case 'PUT': {
        const body = await readJson(req, res);
        if (body === undefined) return;
        const task = store.update(id, body);
        return task ? send(res, 200, task) : send(res, 404, NOT_FOUND_BODY);
      }
      case 'DELETE':
        return store.delete(id) ? send(res, 204) : send(res, 404, NOT_FOUND_BODY);
      default:
        return send(res, 405, { error: 'Method Not Allowed' });
    }
  }
  // The write path (`--mix post`): the body read and parsed as readJson does (no UTF-8 check), the query
  // read with URLSearchParams.
  if (path.startsWith('/orders/') && path.indexOf('/', 8) === -1 && path.length > 8) {
    if (method !== 'POST') return send(res, 405, { error: 'Method Not Allowed' });
    const body = await readJson(req, res);
    if (body === undefined) return;
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const value = (name: string) => query.get(name) ?? undefined;
    const shop = decodeURIComponent(path.slice(8));
    return send(res, 200, summarise(shop, value('channel'), value('priority'), value('coupon'), body));
  }
  send(res, 404, { error: 'Not Found' });
}

// The ceiling gets the one node option Arbor's server sets for speed (node 24.12+: a request without body
// headers arrives already ended, no empty stream read after each response), so that it stays the ceiling.
const server = createServer({ optimizeEmptyRequests: true }, (req, res) => {
  handle(req, res).catch(() => {
    if (!res.headersSent) send(res, 500, { error: 'Internal Server Error' });
    else res.destroy();
  });
});
server.listen(0, HOST, () => announce(server));
