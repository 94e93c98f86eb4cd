/**
 * The environment holds many variables that are not ours (PATH, HOME,
 * npm_*, …), so a variable whose first level names no configuration section
 * is normally ignored in silence. One that looks like a misspelled section
 * is warned about instead. The rule:
 *
 * - the name has a key separator (`__` or `:`) with a non-empty first
 *   segment: only such names address a section's keys;
 * - the first segment is no section, but is within a small edit distance of
 *   one, ignoring case: at most 1 edit for sections of up to 5 letters
 *   (`Jwt`), at most 2 for longer ones (`Serverr`, `Sever`, `Sevrer`). An
 *   edit inserts, deletes or replaces one letter, or swaps two neighbours.
 *
 * The closest section wins; on a tie the alphabetically first.
 */
export interface SectionTypo {
  /** The variable as set: `Serverr__Port`. */
  key: string;
  /** The section it most likely meant: `Server`. */
  section: string;
  /** The variable with that section spelled right: `Server__Port`. */
  suggestion: string;
}

/** Optimal string alignment distance: Levenshtein plus swaps of two neighbouring letters. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** The warning's words: `unknown configuration section ignored: Serverr__Port (did you mean Server__Port?)`. */
export const describeSectionTypo = (typo: SectionTypo) => `unknown configuration section ignored: ${typo.key} (did you mean ${typo.suggestion}?)`;

const allowedEdits = (section: string) => (section.length <= 5 ? 1 : 2);

/** The likely intended section of an environment variable, or undefined when it is none of ours or not a typo. */
export function findSectionTypo(name: string, sections: readonly string[]): SectionTypo | undefined {
  const match = /^(.*?)(__|:)/.exec(name);
  const segment = match?.[1];
  if (!segment) return undefined;
  const lower = segment.toLowerCase();
  if (sections.some((section) => section.toLowerCase() === lower)) return undefined;
  let best: { section: string; distance: number } | undefined;
  for (const section of [...sections].sort()) {
    const distance = editDistance(lower, section.toLowerCase());
    if (distance <= allowedEdits(section) && (!best || distance < best.distance)) best = { section, distance };
  }
  return best && { key: name, section: best.section, suggestion: best.section + name.slice(segment.length) };
}
