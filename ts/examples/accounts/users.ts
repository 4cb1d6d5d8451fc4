/**
 * The accounts application's users: a directory in memory, passwords kept as scrypt hashes and checked
 * in constant time. An unknown name costs the same hash as a known one, so the time a login takes tells
 * nobody which names exist.
 */
import { randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const hash = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;
const KEY_BYTES = 32;

/** A user as the pages and the API show it. */
export interface User {
  id: string;
  username: string;
  displayName: string;
}

interface Account extends User {
  salt: Buffer;
  passwordHash: Buffer;
}

/** The demo account: `ada`, password `correct horse battery staple`. */
export const DEMO_USER = { username: 'ada', password: 'correct horse battery staple' };

export class Users {
  readonly #byName = new Map<string, Account>();
  readonly #byId = new Map<string, Account>();
  /** Hashed against when the name is unknown: the same work either way. */
  readonly #decoy = { salt: randomBytes(16), passwordHash: Buffer.alloc(KEY_BYTES) };

  /** A directory holding the demo user. */
  static withDemoUser(): Users {
    const users = new Users();
    users.add('u1', DEMO_USER.username, DEMO_USER.password, 'Ada Lovelace');
    return users;
  }

  add(id: string, username: string, password: string, displayName: string): void {
    const salt = randomBytes(16);
    const account = { id, username, displayName, salt, passwordHash: scryptSync(password, salt, KEY_BYTES) };
    this.#byName.set(username, account);
    this.#byId.set(id, account);
  }

  /** The user whose name and password these are, or `null`. */
  async check(username: string, password: string): Promise<User | null> {
    const account = this.#byName.get(username);
    const { salt, passwordHash } = account ?? this.#decoy;
    const given = await hash(password, salt, KEY_BYTES);
    return timingSafeEqual(given, passwordHash) && account !== undefined ? publicView(account) : null;
  }

  find(id: string): User | null {
    const account = this.#byId.get(id);
    return account === undefined ? null : publicView(account);
  }

  rename(id: string, displayName: string): void {
    const account = this.#byId.get(id);
    if (account !== undefined) account.displayName = displayName;
  }
}

function publicView(account: Account): User {
  return { id: account.id, username: account.username, displayName: account.displayName };
}
