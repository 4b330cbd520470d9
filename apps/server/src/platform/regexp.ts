import { RE2JS } from 're2js';
import { badRequest } from './errors';

/**
 * Regexp conditions run on RE2 (re2js, pure JavaScript): matching takes time linear in the value, so a
 * user's pattern such as `^(a+)+$` cannot stall the single-process server the way a backtracking RegExp
 * can. RE2 syntax is JavaScript's without lookaround and backreferences; patterns it cannot compile are
 * refused with 400.
 */

export const MAX_PATTERN_LENGTH = 1000;

const compiled = new Map<string, RE2JS>();

/** The compiled pattern (cached); a 400 naming the problem when RE2 cannot compile it. */
export function compilePattern(pattern: string): RE2JS {
  const cached = compiled.get(pattern);
  if (cached) return cached;
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw badRequest(`A regular expression may have at most ${MAX_PATTERN_LENGTH} characters.`);
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern);
  } catch (err) {
    throw badRequest(
      `"${pattern.slice(0, 64)}" is not a valid regular expression: ${(err as Error).message}. Patterns use RE2 syntax (no lookahead, lookbehind or backreferences).`,
    );
  }
  if (compiled.size >= 500) compiled.clear();
  compiled.set(pattern, re);
  return re;
}
