import { afterEach, beforeEach } from 'vitest';

/**
 * esbuild (the in-process server compiles plugin code with it) under jsdom. There
 * `globalThis.Uint8Array` is jsdom's while Node's TextEncoder returns Node's, and esbuild checks
 * at load that they agree ("… instanceof Uint8Array is incorrectly false"); a failed load stays
 * failed for the whole worker. Once loaded it still needs Node's Uint8Array while it builds, or it
 * reads its output as empty.
 */
const nodeUint8Array = () => Object.getPrototypeOf(new TextEncoder().encode('')).constructor as Uint8ArrayConstructor;

/** Loads esbuild with Node's Uint8Array in place (test/setup-web.ts: before any test can try and fail). */
export async function loadEsbuild(): Promise<void> {
  const jsdomUint8Array = globalThis.Uint8Array;
  globalThis.Uint8Array = nodeUint8Array();
  try {
    await import('esbuild');
  } finally {
    globalThis.Uint8Array = jsdomUint8Array;
  }
}

/**
 * Lets the server compile plugin sources in the tests of the calling file or describe block:
 * Node's Uint8Array is the global for each of them, jsdom's again after it. Use it where a test
 * creates or edits a plugin with code; elsewhere a compile quietly stores empty code.
 */
export function compilePluginSourcesInTheseTests(): void {
  const jsdomUint8Array = globalThis.Uint8Array;
  beforeEach(() => {
    globalThis.Uint8Array = nodeUint8Array();
  });
  afterEach(() => {
    globalThis.Uint8Array = jsdomUint8Array;
  });
}
