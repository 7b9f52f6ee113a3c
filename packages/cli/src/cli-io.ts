/**
 * What every `writ` command takes besides its arguments: the environment it reads and the sinks it
 * prints to. A leaf module (it imports nothing), so the commands and the dispatcher (cli.ts) share these
 * types without importing each other.
 */

/** Where a command prints: its output and its failures (tests collect both). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The environment a command reads (process.env, or a test's own). */
export type CliEnv = Record<string, string | undefined>;
