#!/usr/bin/env node
// Runs the TypeScript sources directly (no build step): register tsx, then start the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
await main(process.argv.slice(2)).catch((error) => {
  process.stderr.write(`writ-emulator: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
