#!/usr/bin/env node
// Runs the TypeScript sources directly (no build step): register tsx, then start the CLI. tsx reads
// Writ's own tsconfig.json, never one in the directory writ runs from (the user's repository), whose
// `paths` would otherwise steer the CLI's imports.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../../tsconfig.json', import.meta.url)) });
await import('../src/main.ts');
