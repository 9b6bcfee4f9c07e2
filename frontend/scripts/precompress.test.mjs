import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { precompress } from './precompress.mjs';

describe('precompress', () => {
  let dist;
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  it('writes both variants of every file the gateway would otherwise compress at its start', async () => {
    dist = mkdtempSync(join(tmpdir(), 'precompress-'));
    mkdirSync(join(dist, 'assets'));
    mkdirSync(join(dist, '.vite'));
    const files = {
      'assets/chunk.js': 'export const a = 1;\n'.repeat(15), // 300 bytes: over the gateway's 256
      'assets/reader.wasm': Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(4096, 7)]),
      'import-template.csv': 'tracking_number,origin,destination\n'.repeat(12),
      'assets/tiny.js': 'export {};\n'.repeat(10), // 110 bytes: sent as it is
      '.vite/manifest.json': JSON.stringify({ chunk: 'x'.repeat(2000) }), // the build's, not served
    };
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dist, name), content);

    await precompress(dist);

    for (const name of ['assets/chunk.js', 'assets/reader.wasm', 'import-template.csv']) {
      const original = readFileSync(join(dist, name));
      expect(brotliDecompressSync(readFileSync(join(dist, `${name}.br`))).equals(original), name).toBe(true);
      expect(gunzipSync(readFileSync(join(dist, `${name}.gz`))).equals(original), name).toBe(true);
    }
    for (const name of ['assets/tiny.js', '.vite/manifest.json']) {
      expect([existsSync(join(dist, `${name}.br`)), existsSync(join(dist, `${name}.gz`))], name).toEqual([false, false]);
    }
  });
});
