// npm run demo: Writ's approval lifecycle against the embedded GitHub emulator (see packages/cli/demo/demo.ts).
import { printDemo } from '../packages/cli/demo/demo.js';

process.exitCode = await printDemo();
