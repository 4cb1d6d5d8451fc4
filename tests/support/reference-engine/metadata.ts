/**
 * Route metadata derived from the pieces: template, parameter list, and the shape key that decides
 * conflicts.
 */
import type { ParamInfo, PatternPiece } from '../../../ts/src/engine/engine.js';
import type { Piece } from './pattern.js';

/**
 * `/posts/{id}`: every parameter as `{name}` (constraint dropped, optional kept as `{page}`, the wildcard
 * as `{*}`), static text as written (not percent-encoded: the template is for people and documents),
 * a regex block as written.
 */
export function templateOf(pieces: Piece[]): string {
  return pieces.map(templatePart).join('');
}

function templatePart(piece: Piece): string {
  switch (piece.kind) {
    case 'static':
      return piece.written;
    case 'param':
      return `{${piece.name}}`;
    case 'wildcard':
      return '{*}';
    case 'regex':
      return `{${piece.block.source}}`;
  }
}

/** The pieces as the core reports them (`RouteInfo.pieces`): text as written, not percent-encoded. */
export function piecesOf(pieces: Piece[]): PatternPiece[] {
  return pieces.map((piece): PatternPiece => {
    switch (piece.kind) {
      case 'static':
        return { kind: 'text', text: piece.written };
      case 'param': {
        const c = piece.constraint;
        return {
          kind: 'param',
          name: piece.name,
          constraint: c === null ? 'none' : c.shortcut === null ? 'regex' : 'shortcut',
          shortcut: c?.shortcut ?? null,
          regex: c?.source ?? null,
          optional: piece.optional,
        };
      }
      case 'wildcard':
        return { kind: 'wildcard' };
      default:
        return { kind: 'regex', source: piece.block.source, captures: piece.block.groups.map((g) => g.name) };
    }
  });
}

/** Parameters in span order: path parameters and the wildcard in textual order, then named groups. */
export function paramsOf(pieces: Piece[]): ParamInfo[] {
  const params: ParamInfo[] = [];
  for (const piece of pieces) {
    if (piece.kind === 'param') {
      params.push({
        name: piece.name,
        kind: piece.optional ? 'optional' : 'param',
        shortcut: piece.constraint?.shortcut ?? null,
        regex: piece.constraint?.source ?? null,
        optional: piece.optional,
      });
    } else if (piece.kind === 'wildcard') {
      params.push({ name: '*', kind: 'wildcard', shortcut: null, regex: null, optional: false });
    } else if (piece.kind === 'regex') {
      for (const group of piece.block.groups) {
        if (group.name === null) continue;
        // A group that may not participate (`(?P<x>a)?`) is still reported as a parameter. Its `regex`
        // is null, as in the core: the group is not a constraint of its own (it is matched as part of
        // the whole block, whose source is in the template).
        params.push({ name: group.name, kind: 'regex-group', shortcut: null, regex: null, optional: false });
      }
    }
  }
  return params;
}

export function capturesOf(pieces: Piece[]): number {
  const last = pieces.at(-1);
  return last?.kind === 'regex' ? last.block.groups.length : 0;
}

export function isStaticPattern(pieces: Piece[]): boolean {
  return pieces.every((piece) => piece.kind === 'static');
}

/**
 * Two patterns with the same key match the same paths in the same way: registering both for one
 * method is a conflict (ROUTING.md §3 rule 4). Parameter names and the spelling (`:id` / `{id}`, `int` /
 * `\d+`, `/café` / `/caf%C3%A9`) do not change what a route matches, so they are not part of the key.
 */
export function shapeKey(pieces: Piece[]): string {
  return JSON.stringify(pieces.map(keyPart));
}

function keyPart(piece: Piece): unknown[] {
  switch (piece.kind) {
    case 'static':
      return ['s', piece.text];
    case 'param':
      return ['p', piece.constraint?.source ?? null, piece.optional];
    case 'wildcard':
      return ['*'];
    case 'regex':
      return ['r', piece.block.source];
  }
}
