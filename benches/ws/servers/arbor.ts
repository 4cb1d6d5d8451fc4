/**
 * Arbor's `app.ws` echo (`/echo`), on the server `ARBOR_WS_SERVER` names (`node`, the default server, or
 * `arbor`, the own one). Loads the bundle when `ARBOR_BENCH_FROM=dist` (as users run it), else the sources.
 */
import { announce, HOST } from '../../http/servers/announce.js';

type AppModule = typeof import('../../../ts/src/app/index.js');
const fromDist = process.env.ARBOR_BENCH_FROM === 'dist';
const { Application } = (
  fromDist
    ? await import(new URL('../../../dist/ts/src/bundle/index.js', import.meta.url).href)
    : await import('../../../ts/src/app/index.js')
) as AppModule;

const server = process.env.ARBOR_WS_SERVER === 'arbor' ? 'arbor' : 'node';
const app = new Application({ server });
app.ws('/echo', (socket) =>
  socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })),
);

const listening = app.createServer();
listening.listen(0, HOST, () => announce(listening));
