/** The `writ` entry: hands argv and the environment to `runCli` and exits with its status. */
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
