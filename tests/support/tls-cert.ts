/**
 * The TLS and HTTP/2 suites' certificate: self-signed for `localhost` and 127.0.0.1, valid for a century,
 * committed beside this file (made once with `openssl req -x509 -newkey ec -pkeyopt
 * ec_paramgen_curve:prime256v1 -nodes -days 36500 -subj /CN=localhost -addext
 * subjectAltName=DNS:localhost,IP:127.0.0.1`), so the suites need no tool at test time. The servers serve
 * with it and the clients trust it as their CA. A test key: it protects nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TestCertificate {
  key: string;
  cert: string;
}

let loaded: TestCertificate | undefined;

export function testCertificate(): TestCertificate {
  loaded ??= {
    key: readFileSync(join(import.meta.dirname, 'tls', 'localhost-key.pem'), 'utf8'),
    cert: readFileSync(join(import.meta.dirname, 'tls', 'localhost-cert.pem'), 'utf8'),
  };
  return loaded;
}
