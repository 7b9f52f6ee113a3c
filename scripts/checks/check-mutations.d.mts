/** Types of scripts/checks/check-mutations.mjs for the tests that import it. */
export function copyTree(root?: string): string;
