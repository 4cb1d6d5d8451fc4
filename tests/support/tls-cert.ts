/**
 * A self-signed certificate for `localhost` and 127.0.0.1, made with the machine's `openssl` once per
 * test process: the TLS and HTTP/2 suites serve with it, and their clients trust it as their CA.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
}

let made: TestCertificate | undefined;

export function testCertificate(): TestCertificate {
  if (made !== undefined) return made;
  const dir = mkdtempSync(join(tmpdir(), 'arbor-tls-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    made = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    return made;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
