/** Writ's version: the CLI's `--version` and the probe's evidence (held equal to package.json's by a test). */
export const WRIT_VERSION = '0.2.0';
