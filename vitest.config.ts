import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: end-to-end suites start servers and browsers, keep parallelism modest.
    maxWorkers: 2,
    // Installs Debian's chromium when missing (browser tests drive it with playwright-core).
    globalSetup: ['tests/browser/global-setup.ts'],
    projects: [
      // Each project names its own files: an `include` set here would be merged into both projects' lists.
      { extends: true, test: { name: 'arbor', include: ['tests/**/*.test.ts', 'ts/**/*.test.ts'] } },
      // The framework's suites again on Arbor's own server (`server: 'arbor'`): both servers answer alike.
      {
        extends: true,
        test: {
          name: 'arbor-server',
          include: ['tests/app/**/*.test.ts', 'tests/ops/**/*.test.ts'],
          env: { ARBOR_TEST_SERVER: 'arbor' },
        },
      },
    ],
  },
});
