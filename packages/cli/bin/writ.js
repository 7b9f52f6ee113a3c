#!/usr/bin/env node
// Runs the TypeScript sources directly (no build step): register tsx, then start the CLI.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
