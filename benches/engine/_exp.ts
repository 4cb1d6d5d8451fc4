import { createWasmEngine } from '../../ts/src/engine/wasm-engine.js';
import { Router } from '../../ts/src/router.js';
import { githubSet, patternText, requestPath } from '../router/routes.js';

const table = githubSet();
const router = new Router<number>({ onShadowed: () => {} });
const engine = createWasmEngine();
for (const route of table.routes) {
  const pattern = patternText(route.pieces);
  router.add(route.method, pattern, route.id);
  engine.insert([route.method], pattern);
}
const requests = table.requests.map((r) => ({
  method: r.method,
  path: requestPath(r.path),
  names: Object.keys(router.find(r.method, r.path)?.params ?? {}),
}));
const counts = requests.map((r) => r.names.length);
import { shapeSwitch, type MatchColumns, FIXED_SHAPE, fixedMatch, readMatch } from '../../ts/src/match-builder.js';
const columns: MatchColumns<number> = { entries: [], values: [], cases: [], fixed: [] };
const shapeIdx = new Map<string, number>();
const shapeLists: string[][] = [];
{
  const e2 = createWasmEngine();
  for (const route of table.routes) {
    const sh = e2.insert([route.method], patternText(route.pieces));
    const fixed = sh.names.length === 0 ? fixedMatch(route.id, sh.id) : null;
    let idx = FIXED_SHAPE;
    if (fixed === null) {
      const key = sh.names.join(',');
      idx = shapeIdx.get(key) ?? -5;
      if (idx === -5) { idx = shapeLists.length; shapeLists.push([...sh.names]); shapeIdx.set(key, idx); }
    }
    columns.entries[sh.id] = { value: route.id, id: sh.id, names: sh.names, captures: 0, fixed, make: readMatch };
    columns.values[sh.id] = route.id; columns.cases[sh.id] = idx; columns.fixed[sh.id] = fixed;
  }
}
const build = shapeSwitch(shapeLists, columns);
// Per-shape params only, no match wrapper
const paramsOnly = new Function('cases', `return (id, s, p) => { switch (cases[id]) { case -1: return null; ${shapeLists.map((names, i) => `case ${i}: return { ${names.map((n, j) => `${JSON.stringify(n)}: p.slice(s[${2*j}], s[${2*j+1}])`).join(', ')} };`).join('\n')} } return null; }`)(columns.cases);

console.log('max values', Math.max(...counts), 'avg', counts.reduce((a,b)=>a+b,0)/counts.length);
const pre = requests.map((r) => { engine.lookup(r.method, r.path); return Array.from(engine.spans.slice(0, 8)); });
const preTyped = requests.map((r) => { engine.lookup(r.method, r.path); return new Uint32Array(engine.spans.slice(0, 8)); });
class LazyMatch {
  value: number; id: number; path: string; a: number; b: number; c: number; d: number; _p: Record<string,string> | undefined;
  constructor(value: number, id: number, path: string, a: number, b: number, c: number, d: number) {
    this.value = value; this.id = id; this.path = path; this.a = a; this.b = b; this.c = c; this.d = d; this._p = undefined;
  }
  get params(): Record<string,string> { return this._p ?? (this._p = lazyBuild(this.id, this)); }
}
const F = ['a','b','c','d'];
const lazyBuild = new Function('cases', `return (id, m) => { const p = m.path; switch (cases[id]) { ${shapeLists.map((names, i) => `case ${i}: return { ${names.map((n, j) => `${JSON.stringify(n)}: p.slice(m.${F[j]} & 0x7fff, m.${F[j]} >>> 15)`).join(', ')} };`).join('\n')} } return {}; }`)(columns.cases);
const values = columns.values;
function lazyFind(method: string, path: string): LazyMatch | null {
  const a = engine.lookup(method, path);
  if (a < 0) return null;
  const s = engine.spans;
  return new LazyMatch(values[a]!, a, engine.matchedPath, s[0]! | (s[1]! << 15), s[2]! | (s[3]! << 15), s[4]! | (s[5]! << 15), s[6]! | (s[7]! << 15));
}
let sink = 0;
const misses = requests.map((r, k) => requestPath(`/nonexistent-seg${k % 10}/abcdefgh/ijklmnop/qrstuvwx`));
const missesSlash = requests.map((r, k) => requestPath(`/nonexistent-seg${k % 10}/abcdefgh/ijklmnop/qrstuvw/`));
const missesDeep = requests.map((r, k) => requestPath(`/repos/owner${k}/repo${k}/nonexistent/abcdefgh`));
const layers: Record<string, () => void> = {
  engine() {
    let s = 0;
    for (const r of requests) s += engine.lookup(r.method, r.path);
    sink += s;
  },
  spans() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      const a = engine.lookup(r.method, r.path);
      const sp = engine.spans;
      const n = counts[k]!;
      for (let i = 0; i < 2 * n; i++) s += sp[i]!;
      s += a;
    }
    sink += s;
  },
  slices() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      const a = engine.lookup(r.method, r.path);
      const sp = engine.spans;
      const n = counts[k]!;
      const p = engine.matchedPath;
      for (let i = 0; i < n; i++) s += p.slice(sp[2 * i]!, sp[2 * i + 1]!).length;
      s += a;
    }
    sink += s;
  },
  slicesOnlyPlain() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      const sp = pre[k]!;
      const n = counts[k]!;
      const p = r.path;
      for (let i = 0; i < n; i++) s += p.slice(sp[2 * i]!, sp[2 * i + 1]!).length;
    }
    sink += s;
  },
  slicesOnlyTyped() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      const sp = preTyped[k]!;
      const n = counts[k]!;
      const p = r.path;
      for (let i = 0; i < n; i++) s += p.slice(sp[2 * i]!, sp[2 * i + 1]!).length;
    }
    sink += s;
  },
  engineThenPlain() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      s += engine.lookup(r.method, r.path);
      const sp = pre[k]!;
      const n = counts[k]!;
      const p = r.path;
      for (let i = 0; i < n; i++) s += p.slice(sp[2 * i]!, sp[2 * i + 1]!).length;
    }
    sink += s;
  },
  engineThenWasmSpans() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      s += engine.lookup(r.method, r.path);
      const sp = engine.spans;
      const n = counts[k]!;
      const p = r.path;
      for (let i = 0; i < n; i++) s += p.slice(sp[2 * i]!, sp[2 * i + 1]!).length;
    }
    sink += s;
  },
  trivialThenPlain() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      s += engine.lookup(r.method, '/zz');
      const sp = pre[k]!;
      const n = counts[k]!;
      const p = r.path;
      for (let i = 0; i < n; i++) s += p.slice(sp[2 * i]!, sp[2 * i + 1]!).length;
    }
    sink += s;
  },
  trivial() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      s += engine.lookup(r.method, '/zz');
    }
    sink += s;
  },
  miss45() {
    let s = 0;
    for (let k = 0; k < misses.length; k++) s += engine.lookup('GET', misses[k]!);
    sink += s;
  },
  miss45slash() {
    let s = 0;
    for (let k = 0; k < missesSlash.length; k++) s += engine.lookup('GET', missesSlash[k]!);
    sink += s;
  },
  missDeep() {
    let s = 0;
    for (let k = 0; k < missesDeep.length; k++) s += engine.lookup('GET', missesDeep[k]!);
    sink += s;
  },
  objOnly() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      const n = counts[k]!;
      for (let i = 0; i < n; i++) { const o = { a: k, b: i, c: r }; s += o.a; }
    }
    sink += s;
  },
  engineThenObj() {
    let s = 0;
    for (let k = 0; k < requests.length; k++) {
      const r = requests[k]!;
      s += engine.lookup(r.method, r.path);
      const n = counts[k]!;
      for (let i = 0; i < n; i++) { const o = { a: k, b: i, c: r }; s += o.a; }
    }
    sink += s;
  },
  build() {
    let s = 0;
    for (const r of requests) {
      const a = engine.lookup(r.method, r.path);
      if (a < 0) continue;
      const m = build(a, engine.spans, engine.matchedPath);
      s += m === null ? -1 : m.id;
    }
    sink += s;
  },
  paramsOnly() {
    let s = 0;
    for (const r of requests) {
      const a = engine.lookup(r.method, r.path);
      if (a < 0) continue;
      const m = paramsOnly(a, engine.spans, engine.matchedPath);
      s += m === null ? -1 : 1;
    }
    sink += s;
  },
  lazySel() {
    let s = 0;
    for (const r of requests) s += lazyFind(r.method, r.path)?.value ?? -1;
    sink += s;
  },
  lazyRead() {
    let s = 0;
    for (const r of requests) {
      const m = lazyFind(r.method, r.path);
      if (m === null) continue;
      const names = r.names; const params = m.params; let n = m.id;
      for (let i = 0; i < names.length; i++) n += (params[names[i] as string] as string).length;
      s += n;
    }
    sink += s;
  },
  findRead() {
    let s = 0;
    for (const r of requests) {
      const m = router.find(r.method, r.path);
      if (m === null) continue;
      const names = r.names; const params = m.params; let n = m.id;
      for (let i = 0; i < names.length; i++) n += (params[names[i] as string] as string).length;
      s += n;
    }
    sink += s;
  },
  select() {
    let s = 0;
    for (const r of requests) s += router.select(r.method, r.path)?.id ?? -1;
    sink += s;
  },
  find() {
    let s = 0;
    for (const r of requests) s += router.find(r.method, r.path)?.id ?? -1;
    sink += s;
  },
};
function slice(name: string, ms: number): number {
  const run = layers[name] as () => void;
  let passes = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) { run(); passes++; now = performance.now(); }
  return ((now - start) * 1e6) / (passes * requests.length);
}
const names = Object.keys(layers);
for (const name of names) slice(name, 300);
const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
const end = performance.now() + 5000;
while (performance.now() < end) for (const name of names) samples[name]!.push(slice(name, 20));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const n of names) console.log(`  ${n.padEnd(10)} ${median(samples[n]!).toFixed(1)}`);
if (sink === 0.5) console.log(sink);
