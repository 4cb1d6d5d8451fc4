/** ROUTING.md §3 rules 1–5 and §3.1: static vs dynamic, definition order, methods, case, query, empty values. */
import type { MatchTable } from './harness.js';

export const basicTables: MatchTable[] = [
  {
    name: 'static routes',
    spec: '§2 static',
    routes: ['/', '/users', '/users/all', '/a/b/c'],
    cases: [
      { path: '/', expect: { route: '/' } },
      { path: '/users', expect: { route: '/users' } },
      { path: '/users/all', expect: { route: '/users/all' } },
      { path: '/a/b/c', expect: { route: '/a/b/c' } },
      { path: '/user', expect: null },
      { path: '/usersx', expect: null },
      { path: '/a/b', expect: null },
    ],
  },
  {
    name: 'an exact static route beats a dynamic one, whatever the order',
    spec: '§3 rule 2',
    routes: ['/posts/:id', '/posts/create', '/:any/latest', '/news/latest'],
    cases: [
      { path: '/posts/create', expect: { route: '/posts/create' } },
      { path: '/posts/42', expect: { route: '/posts/:id', params: { id: '42' } } },
      { path: '/news/latest', expect: { route: '/news/latest' } },
      { path: '/blog/latest', expect: { route: '/:any/latest', params: { any: 'blog' } } },
    ],
  },
  {
    name: 'among dynamic routes the first defined wins',
    spec: '§3 rule 3',
    routes: ['/repos/:owner/:repo/:format/:ref', '/repos/:owner/:repo/commits/:ref', '/x/*', '/x/:a'],
    cases: [
      {
        path: '/repos/o/r/commits/main',
        expect: {
          route: '/repos/:owner/:repo/:format/:ref',
          params: { owner: 'o', repo: 'r', format: 'commits', ref: 'main' },
        },
      },
      { path: '/x/y', expect: { route: '/x/*', params: { '*': 'y' } } },
    ],
  },
  {
    name: 'a value that fails a constraint moves on to the next candidate',
    spec: '§3 rule 3',
    routes: ['/users/:id<int>', '/users/:name<alpha>', '/users/:other', '/v/:v<v\\d+>/x', '/v/*'],
    cases: [
      { path: '/users/42', expect: { route: '/users/:id<int>', params: { id: '42' } } },
      { path: '/users/bob', expect: { route: '/users/:name<alpha>', params: { name: 'bob' } } },
      { path: '/users/bob42', expect: { route: '/users/:other', params: { other: 'bob42' } } },
      { path: '/v/v2/x', expect: { route: '/v/:v<v\\d+>/x', params: { v: 'v2' } } },
      { path: '/v/w2/x', expect: { route: '/v/*', params: { '*': 'w2/x' } } },
    ],
  },
  {
    name: 'methods select among routes; allowedMethods lists every method that matches',
    spec: '§3, Methods',
    routes: [
      ['GET', '/tasks'],
      ['POST', '/tasks'],
      [['PUT', 'PATCH'], '/tasks/:id<int>'],
      ['DELETE', '/tasks/:id'],
      ['GET', '/tasks/:id<int>'],
      ['OPTIONS', '/cors/*'],
    ],
    cases: [
      { method: 'GET', path: '/tasks', expect: { route: '/tasks' } },
      { method: 'POST', path: '/tasks', expect: { route: '/tasks' } },
      { method: 'PUT', path: '/tasks', expect: null },
      { method: 'PATCH', path: '/tasks/7', expect: { route: '/tasks/:id<int>', params: { id: '7' } } },
      { method: 'DELETE', path: '/tasks/abc', expect: { route: '/tasks/:id', params: { id: 'abc' } } },
      { method: 'GET', path: '/tasks/abc', expect: null },
      { method: 'HEAD', path: '/tasks', expect: null },
      { method: 'OPTIONS', path: '/cors/a/b', expect: { route: '/cors/*', params: { '*': 'a/b' } } },
    ],
    allowed: [
      { path: '/tasks', methods: ['GET', 'POST'] },
      { path: '/tasks/7', methods: ['PUT', 'PATCH', 'DELETE', 'GET'] },
      { path: '/tasks/abc', methods: ['DELETE'] },
      { path: '/tasks/', methods: ['GET', 'POST'] },
      { path: '/tasks?page=2', methods: ['GET', 'POST'] },
      { path: '/nothing', methods: [] },
    ],
  },
  {
    name: 'matching is case-sensitive',
    spec: '§3 rule 5',
    routes: ['/Users', '/api/:Name'],
    cases: [
      { path: '/Users', expect: { route: '/Users' } },
      { path: '/users', expect: null },
      { path: '/USERS', expect: null },
      { path: '/api/X', expect: { route: '/api/:Name', params: { Name: 'X' } } },
      { path: '/API/X', expect: null },
    ],
  },
  {
    name: 'the query string and the fragment are not part of matching',
    spec: '§3 rule 1',
    routes: ['/search', '/items/:id', '/files/*'],
    cases: [
      { path: '/search?q=x', expect: { route: '/search' } },
      { path: '/search?', expect: { route: '/search' } },
      { path: '/search#top', expect: { route: '/search' } },
      { path: '/items/7?x=/y', expect: { route: '/items/:id', params: { id: '7' } } },
      { path: '/files/a/b?c/d', expect: { route: '/files/*', params: { '*': 'a/b' } } },
      { path: '/search/?q=x', expect: { route: '/search' } },
    ],
  },
  {
    name: 'a parameter never matches an empty segment',
    spec: '§3.1 empty values',
    routes: ['/a/:p', '/b/:p/c', '/c/:x-:y'],
    cases: [
      { path: '/a/x', expect: { route: '/a/:p', params: { p: 'x' } } },
      { path: '/a/', expect: null },
      { path: '/b//c', expect: null },
      { path: '/c/-y', expect: null },
      { path: '/c/x-', expect: null },
    ],
  },
  {
    name: 'duplicate slashes are never collapsed',
    spec: '§3.1',
    routes: ['/a/b', '/x//y', '/p/:id'],
    cases: [
      { path: '/a//b', expect: null },
      { path: '//a/b', expect: null },
      { path: '/x//y', expect: { route: '/x//y' } },
      { path: '/x/y', expect: null },
      { path: '/p//1', expect: null },
    ],
  },
];
