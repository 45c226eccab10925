// npm run generate: writes the generated files (docs/openapi.json and the SDK's types from lib/contract, the console's page trees from app/(console)).
// A test fails when a committed copy differs from what this would write.
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED } from './generated-files';

for (const [file, content] of Object.entries(GENERATED())) {
  const target = path.join(__dirname, '..', file);
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : undefined;
  if (current === content) continue;
  fs.writeFileSync(target, content);
  process.stdout.write(`wrote ${file}\n`);
}
