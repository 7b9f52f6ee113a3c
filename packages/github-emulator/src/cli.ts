/** `writ-emulator [--port N] [--seed S]`: starts the emulator and prints one JSON line once listening. */
import { startEmulator } from './server.js';

function parseArgs(argv: string[]): { port: number; seed: number; host: string } {
  const out = { port: 0, seed: 1, host: '127.0.0.1' };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    const value = argv[index + 1];
    if (arg === '--port' || arg === '--seed') {
      const parsed = Number(value);
      if (value === undefined || !Number.isInteger(parsed) || parsed < 0) {
        throw new Error(`Invalid ${arg} '${String(value)}'. Expected a non-negative integer.`);
      }
      if (arg === '--port') out.port = parsed;
      else out.seed = parsed;
      index++;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write('Usage: writ-emulator [--port N] [--seed S]\n');
      process.exit(0);
    } else {
      throw new Error(`Unknown argument '${arg}'. Expected --port N or --seed S.`);
    }
  }
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const options = parseArgs(argv);
  const emulator = await startEmulator(options);
  process.stdout.write(
    `${JSON.stringify({ url: emulator.url, graphqlUrl: emulator.graphqlUrl, adminUrl: emulator.adminUrl })}\n`,
  );
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
