// npm run demo: Writ's approval lifecycle against the embedded GitHub emulator (see packages/cli/src/demo.ts).
import { printDemo } from '../packages/cli/src/demo.js';

process.exitCode = await printDemo();
