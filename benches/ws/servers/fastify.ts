/** `@fastify/websocket`'s echo (`/echo`) with its defaults: the same `ws` underneath as Arbor's. */
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { announce, HOST } from '../../http/servers/announce.js';

const app = Fastify({ logger: false });
await app.register(websocket);
app.register(async (scoped) => {
  scoped.get('/echo', { websocket: true }, (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
});
await app.listen({ port: 0, host: HOST });
announce(app.server);
