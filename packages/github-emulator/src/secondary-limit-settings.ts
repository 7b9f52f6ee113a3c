/**
 * The setting of the emulator's secondary limit (secondary-limit.ts has the model): GitHub's figures, a
 * test's own, or off. A leaf module: the World (state.ts) holds the setting, the model reads the World.
 */
export interface SecondaryLimits {
  /** Content-creating requests admitted in any 60 s (GitHub: 80). */
  perMinute: number;
  /** Content-creating requests admitted in any 3600 s (GitHub: 500). */
  perHour: number;
}

/** GitHub's documented figures. */
export const GITHUB_SECONDARY_LIMITS: Readonly<SecondaryLimits> = Object.freeze({
  perMinute: 80,
  perHour: 500,
});

/**
 * The setting as given to the World, the admin API or the CLI: `true` (GitHub's figures), `false` or
 * null (off), or figures of a test's own (each defaults to GitHub's).
 */
export type SecondaryLimitsInput = boolean | null | Partial<SecondaryLimits>;

/** A setting resolved to figures, or null (off); throws a message naming the bad figure. */
export function resolveSecondaryLimits(input: SecondaryLimitsInput | undefined): SecondaryLimits | null {
  if (input === undefined || input === null || input === false) return null;
  if (input === true) return { ...GITHUB_SECONDARY_LIMITS };
  const limits = { ...GITHUB_SECONDARY_LIMITS, ...input };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new Error(`secondary limit ${name} must be a positive integer, not ${String(value)}`);
    }
  }
  return limits;
}
