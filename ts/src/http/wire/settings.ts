/**
 * What every connection of one server shares, and what one connection may hold for a client before it
 * stops reading from it.
 */
import type { Dispatch, TransportLogger } from '../dispatch.js';
import type { ErrorShape } from '../errors.js';
import type { HttpDate } from './writer.js';

/** What every connection of one server shares. */
export interface WireSettings {
  dispatch: Dispatch;
  logger: TransportLogger;
  /** The shape of the refusals the connection writes itself (the application's). */
  errors: ErrorShape;
  maxHeaderSize: number;
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  date: HttpDate;
  /** The server is closing: each connection closes once it owes no answer. */
  closing: boolean;
}

/** Unread bytes a connection holds before it pauses the socket: pipelined requests, or a body nobody reads yet. */
export const HIGH_WATER = 64 * 1024;
/**
 * Bytes of answers waiting in the process for a client that does not read them: past this, no more of its
 * requests are parsed, and its socket is paused, until they drain. The kernel's socket buffer holds a few
 * MiB more before any of it waits here, so a client is owed about what node:http owes one before it stops
 * reading.
 */
export const OWED_LIMIT = 1024 * 1024;
