// `npm run generate`: ../proto → src/gen/ (the TypeScript messages and service descriptors the
// Connect clients use). src/gen is committed, so `npm run build` needs neither this script nor
// cargo; run it after changing a .proto file. `make test` runs it with --check.
//
// No buf or protoc binary: the Rust proto crate compiles the .proto files with protox (pure Rust)
// and its `proto-descriptor` binary prints the FileDescriptorSet (with comments); this script
// wraps it in a CodeGeneratorRequest and runs the protoc-gen-es plugin (pure JS) in-process,
// with the options buf used to pass (`target=ts,erasable_syntax=true`, imported files included).
//
// Usage: node scripts/generate.mjs [--check] [--descriptor-set FILE]
//   --check               compare with src/gen instead of writing; exits 1, listing what differs
//   --descriptor-set FILE read the encoded FileDescriptorSet from FILE instead of running cargo
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { create, fromBinary } from '@bufbuild/protobuf';
import { CodeGeneratorRequestSchema, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { protocGenEs } from '@bufbuild/protoc-gen-es/dist/cjs/src/protoc-gen-es-plugin.js';

const frontend = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = join(frontend, '..');
const outDir = join(frontend, 'src', 'gen');
const PARAMETER = 'target=ts,erasable_syntax=true';

const { values: args } = parseArgs({
  options: { check: { type: 'boolean', default: false }, 'descriptor-set': { type: 'string' } },
});

function descriptorSet() {
  if (args['descriptor-set']) return readFileSync(args['descriptor-set']);
  return execFileSync('cargo', ['run', '--quiet', '--locked', '-p', 'logistics-proto', '--bin', 'proto-descriptor'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
}

const set = fromBinary(FileDescriptorSetSchema, descriptorSet());
const request = create(CodeGeneratorRequestSchema, {
  parameter: PARAMETER,
  // Every file but the well-known types, which protoc-gen-es imports from @bufbuild/protobuf/wkt.
  fileToGenerate: set.file.map((file) => file.name).filter((name) => !name.startsWith('google/protobuf/')),
  protoFile: set.file,
});
const response = protocGenEs.run(request);
if (response.error) throw new Error(`protoc-gen-es: ${response.error}`);
const generated = new Map(response.file.map((file) => [file.name, file.content]));

/** The files under dir, as paths relative to it with forward slashes. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
}

if (args.check) {
  const stale = [];
  for (const [name, content] of generated) {
    const file = join(outDir, name);
    if (!existsSync(file)) stale.push(`missing: src/gen/${name}`);
    else if (readFileSync(file, 'utf8') !== content) stale.push(`out of date: src/gen/${name}`);
  }
  for (const name of filesUnder(outDir)) if (!generated.has(name)) stale.push(`not generated: src/gen/${name}`);
  if (stale.length > 0) {
    console.error(`src/gen does not match ../proto; run \`npm run generate\` and commit the result:\n  ${stale.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`src/gen is up to date (${generated.size} files)`);
} else {
  rmSync(outDir, { recursive: true, force: true });
  for (const [name, content] of generated) {
    const file = join(outDir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
  console.log(`generated ${generated.size} files in src/gen`);
}
