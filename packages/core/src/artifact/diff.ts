/** A small line diff for artifact previews and the job summary's diff stat. */

export interface LineDiff {
  added: number;
  removed: number;
  /** Unified-style lines (`+`, `-`, ` `), context trimmed to 2 lines around changes. */
  lines: string[];
}

/** Cells of the LCS table we are willing to fill; beyond it, only counts are given. */
const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function lineDiff(before: string, after: string): LineDiff {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length * b.length > MAX_CELLS) {
    const counts = new Map<string, number>();
    for (const line of a) counts.set(line, (counts.get(line) ?? 0) + 1);
    let added = 0;
    for (const line of b) {
      const left = counts.get(line) ?? 0;
      if (left > 0) counts.set(line, left - 1);
      else added += 1;
    }
    const removed = [...counts.values()].reduce((sum, n) => sum + n, 0);
    return { added, removed, lines: [`@@ too large to show (${a.length} → ${b.length} lines) @@`] };
  }
  // lcs[i][j] = LCS length of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    }
  }
  const all: string[] = [];
  let i = 0;
  let j = 0;
  let added = 0;
  let removed = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      all.push(` ${a[i] ?? ''}`);
      i += 1;
      j += 1;
    } else if (
      j < b.length &&
      (i >= a.length || (lcs[i * width + j + 1] ?? 0) >= (lcs[(i + 1) * width + j] ?? 0))
    ) {
      all.push(`+${b[j] ?? ''}`);
      added += 1;
      j += 1;
    } else {
      all.push(`-${a[i] ?? ''}`);
      removed += 1;
      i += 1;
    }
  }
  const keep = all.map(
    (line, index) =>
      line[0] !== ' ' || all.slice(Math.max(0, index - 2), index + 3).some((near) => near[0] !== ' '),
  );
  const lines: string[] = [];
  all.forEach((line, index) => {
    if (keep[index]) lines.push(line);
    else if (keep[index - 1] === true) lines.push('@@');
  });
  return { added, removed, lines };
}
