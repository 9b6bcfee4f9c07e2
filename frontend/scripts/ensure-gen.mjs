// Runs `buf generate` when src/gen is missing or older than a .proto file under ../proto.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('..', import.meta.url).pathname;
const genMarker = join(here, 'src/gen/logistics/v1/shipment_service_pb.ts');
const protoDir = join(here, '../proto');

function newestProto(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestProto(p));
    else if (entry.name.endsWith('.proto')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const stale =
  !existsSync(genMarker) ||
  statSync(genMarker).mtimeMs < Math.max(newestProto(protoDir), statSync(join(here, 'buf.gen.yaml')).mtimeMs);
if (stale) {
  console.log('Generating TypeScript from ../proto ...');
  execSync('npm run generate', { cwd: here, stdio: 'inherit' });
}
