// Build-time compression, the last step of scripts/build-site.mjs: beside every compressible file
// of dist (HTML, JS, CSS, SVG, JSON, web manifest, text, CSV, XML, icons, WebAssembly) it
// writes `<file>.br` (brotli, maximum quality) and `<file>.gz` (gzip level 9), which the gateway
// serves to browsers that accept them, so nothing is compressed per request, nor at its start:
// the files and the size from which it compresses (gateway/src/web.rs) are the ones here. A
// variant is kept only when it is smaller than the file. Node's zlib only.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|webmanifest|txt|csv|xml|ico|wasm)$/;
const MIN_BYTES = 256;
// Binary files: brotli's text model would only cost time.
const BINARY = /\.(?:ico|wasm)$/;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Every compressible file under dir (not in dot folders such as .vite, which is not served). */
async function compressibleFiles(dir) {
  const files = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await compressibleFiles(path)));
    else if (entry.isFile() && COMPRESSIBLE.test(entry.name)) files.push(path);
  }
  return files;
}

/** Writes the .br and .gz variants under dist; returns what it wrote, for the build log. */
export async function precompress(dist) {
  const files = await compressibleFiles(dist);
  const written = { br: 0, gz: 0, bytes: 0, brBytes: 0, gzBytes: 0 };
  // The async zlib calls run on libuv's thread pool (4 threads), so the cores share the work.
  await Promise.all(
    files.map(async (file) => {
      const data = await readFile(file);
      if (data.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: BINARY.test(file) ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        }),
        gzipAsync(data, { level: 9 }),
      ]);
      written.bytes += data.length;
      if (br.length < data.length) {
        await writeFile(`${file}.br`, br);
        written.br += 1;
        written.brBytes += br.length;
      }
      if (gz.length < data.length) {
        await writeFile(`${file}.gz`, gz);
        written.gz += 1;
        written.gzBytes += gz.length;
      }
    }),
  );
  return written;
}
