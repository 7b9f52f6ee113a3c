/** Locating files shipped inside dependencies (whose `exports` do not expose them). */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Walks up from this package to the nearest `node_modules/<relative>`. */
export function dependencyFile(relative: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'node_modules', relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`Cannot find ${relative} in any node_modules above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
