/**
 * The checked-in generated files are what the generators give for the applications now (so CI fails on
 * a route or a contract changed without them), and `arbor types:export --check` / `client:export --check`
 * say so as CI would run them: exit 0 on the checked-in file, 1 with the fix on a stale one.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { arbor } from '../cli/support.js';
import { absolute, GENERATED, ROOT } from './generated-files.js';

// Each command starts a tsx process: generous on a loaded two-core machine.
vi.setConfig({ testTimeout: 120_000 });

const scratch = mkdtempSync(join(tmpdir(), 'arbor-generated-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(GENERATED)('$file', ({ file, make }) => {
  it('is what the generator gives for the application now', () => {
    const made = make();
    if (process.env.ARBOR_UPDATE_GENERATED === '1') writeFileSync(absolute(file), made);
    expect(readFileSync(absolute(file), 'utf8')).toBe(made);
  });
});

describe.each(GENERATED.filter((g) => g.command.length > 0))(
  'arbor $command.0 --check',
  ({ file, command }) => {
    it('passes on the checked-in file and fails on a stale one, naming the fix', async () => {
      const fresh = await arbor([...command, '--output', file, '--check'], { cwd: ROOT });
      expect(fresh.stderr).toBe('');
      expect(fresh.code).toBe(0);
      expect(fresh.stdout).toMatch(/Up to date: .* \(\d+ routes\)/);

      const stale = join(scratch, file.replace(/\W/g, '-'));
      writeFileSync(
        stale,
        readFileSync(absolute(file), 'utf8').replace('"GET /tasks/:id"', '"GET /tasks/:key"'),
      );
      const failed = await arbor([...command, '--output', stale, '--check'], { cwd: ROOT });
      expect(failed.code).toBe(1);
      expect(failed.stderr).toMatch(/is out of date: run `arbor .+ --output .+` and commit it/);
    });
  },
);
