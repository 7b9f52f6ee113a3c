/**
 * `writ-emulator [--port N] [--seed S] [--layout dotcom|ghes] [--secondary-limits]`: starts the emulator
 * and prints one JSON line once listening. `WRIT_EMULATOR_LAYOUT` sets the layout when `--layout` is not
 * given. `--secondary-limits` switches on GitHub's secondary limit on content creation (80 a minute,
 * 500 an hour, secondary-limit.ts); it is off by default.
 */
import type { Layout } from './server.js';
import { startEmulator } from './server.js';

const LAYOUT_NAMES: readonly Layout[] = ['dotcom', 'ghes'];

function parseLayout(value: string | undefined, from: string): Layout {
  if (value !== undefined && (LAYOUT_NAMES as readonly string[]).includes(value)) return value as Layout;
  throw new Error(`Invalid ${from} '${String(value)}'. Expected dotcom or ghes.`);
}

function parseArgs(
  argv: string[],
  env: NodeJS.ProcessEnv,
): { port: number; seed: number; host: string; layout: Layout; secondaryLimits: boolean } {
  const out = {
    port: 0,
    seed: 1,
    host: '127.0.0.1',
    secondaryLimits: false,
    layout:
      env.WRIT_EMULATOR_LAYOUT === undefined || env.WRIT_EMULATOR_LAYOUT === ''
        ? ('dotcom' as Layout)
        : parseLayout(env.WRIT_EMULATOR_LAYOUT, 'WRIT_EMULATOR_LAYOUT'),
  };
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
    } else if (arg === '--layout') {
      out.layout = parseLayout(value, '--layout');
      index++;
    } else if (arg === '--secondary-limits') {
      out.secondaryLimits = true;
    } else if (arg === '--help' || arg === '-h') {
      process.stdout.write(
        'Usage: writ-emulator [--port N] [--seed S] [--layout dotcom|ghes] [--secondary-limits]\n',
      );
      process.exit(0);
    } else {
      throw new Error(
        `Unknown argument '${arg}'. Expected --port N, --seed S, --layout dotcom|ghes or --secondary-limits.`,
      );
    }
  }
  return out;
}

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const options = parseArgs(argv, env);
  const emulator = await startEmulator(options);
  process.stdout.write(
    `${JSON.stringify({ url: emulator.url, graphqlUrl: emulator.graphqlUrl, serverUrl: emulator.serverUrl, adminUrl: emulator.adminUrl })}\n`,
  );
  const stop = (): void => {
    void emulator.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
