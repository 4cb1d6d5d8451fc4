// Chooses and installs the Rust → WebAssembly toolchain (README, "Working on Arbor", says the same for users).
//
// 1. Standard path: rustup's `wasm32-unknown-unknown` target (`rustup target add` when missing).
// 2. Debian path, when rustup cannot add the target: Debian's rustc-web + rust-web-src, building std for
//    wasm32 from source with `-Z build-std`, linked with wasm-ld-14.
// Host tools (the wasm-bindgen CLI, pinned to the crate's exact version) are installed with
// `cargo install --locked` into cargo's own bin directory, outside the checkout, so fresh clones on the
// same machine reuse them.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { capture, log, run } from './run.mjs';

const TARGET = 'wasm32-unknown-unknown';
const DEBIAN_PACKAGES = ['rustc-web', 'cargo-web', 'rust-web-src', 'lld-14'];

/** The exact wasm-bindgen version pinned in the workspace Cargo.toml (`wasm-bindgen = "=x.y.z"`). */
export function wasmBindgenPin(root) {
  const manifest = readFileSync(join(root, 'Cargo.toml'), 'utf8');
  const match = /^wasm-bindgen\s*=\s*"=([0-9.]+)"/m.exec(manifest);
  if (!match?.[1])
    throw new Error('Cargo.toml must pin wasm-bindgen exactly, e.g. wasm-bindgen = "=0.2.114"');
  return match[1];
}

const cargoBin = () => join(process.env.CARGO_HOME ?? join(homedir(), '.cargo'), 'bin');

function standardPath() {
  if (!capture('rustup', ['--version'])) return null;
  const installed = capture('rustup', ['target', 'list', '--installed']) ?? '';
  if (!installed.split('\n').includes(TARGET)) {
    log(`toolchain: adding the ${TARGET} target with rustup`);
    try {
      run('rustup', ['target', 'add', TARGET]);
    } catch (error) {
      log(`toolchain: rustup could not add ${TARGET} (${error.message})`);
      return null;
    }
  }
  return { kind: 'standard', cargo: 'cargo', args: [], env: {}, targetDir: 'target' };
}

function debianPath() {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a template.
  const status = capture('dpkg-query', ['-W', '-f=${Status}\\n', ...DEBIAN_PACKAGES]) ?? '';
  const installed = status.split('\n').filter((line) => line === 'install ok installed').length;
  if (installed !== DEBIAN_PACKAGES.length) {
    if (!capture('apt-get', ['--version'])) return null;
    log(`toolchain: installing ${DEBIAN_PACKAGES.join(' ')} from Debian`);
    try {
      run('apt-get', ['update']);
      run('apt-get', ['install', '-y', '--no-install-recommends', ...DEBIAN_PACKAGES]);
    } catch (error) {
      log(`toolchain: apt-get failed (${error.message})`);
      return null;
    }
  }
  return {
    kind: 'debian',
    cargo: '/usr/bin/cargo',
    args: ['-Z', 'build-std=std,panic_abort'],
    env: { RUSTC_BOOTSTRAP: '1', RUSTC: '/usr/bin/rustc', RUSTFLAGS: '-C linker=/usr/bin/wasm-ld-14' },
    // Its own target directory: std built from source must not mix with rustup's artefacts.
    targetDir: 'target/debian',
  };
}

/** Installs the wasm-bindgen CLI at the pinned version unless that exact version is already there. */
export function ensureWasmBindgen(root) {
  const pin = wasmBindgenPin(root);
  const binary = join(cargoBin(), 'wasm-bindgen');
  const version = capture(binary, ['--version']);
  if (version === `wasm-bindgen ${pin}`) return binary;
  log(`toolchain: installing wasm-bindgen-cli ${pin} with cargo install (once per machine, ~4 min)`);
  run('cargo', ['install', 'wasm-bindgen-cli', '--version', pin, '--locked']);
  return binary;
}

/** Returns how to build for wasm32 on this machine, installing what is missing; throws when impossible. */
export function ensureWasmToolchain(root) {
  const toolchain = standardPath() ?? debianPath();
  if (!toolchain) {
    throw new Error(
      `No way to build for ${TARGET} here. Install either rustup (https://rustup.rs) with network access so ` +
        `that \`rustup target add ${TARGET}\` works, or, on Debian, the packages ${DEBIAN_PACKAGES.join(' ')} ` +
        '(apt-get install -y --no-install-recommends ' +
        `${DEBIAN_PACKAGES.join(' ')}). Then run the command again.`,
    );
  }
  return { ...toolchain, wasmBindgen: ensureWasmBindgen(root) };
}
