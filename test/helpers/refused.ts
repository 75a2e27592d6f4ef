/**
 * The refusals of issue 27 ("Nothing silent"): a call that throws a TypeError or RangeError whose
 * message starts with the class or function the user called, says what is wrong, and names no
 * private field of three.js or three-vrm and no unnamed object as "".
 */
import { expect } from 'vitest';

/** Private fields of three.js and three-vrm, and "" (an unnamed object): never in a message. */
const PRIVATE = /\b_[a-zA-Z]+|""/;

/**
 * Checks that `call` throws a TypeError or RangeError (`type`, when given) whose message starts with
 * `cls` (then ": " or "."), matches `pattern` and names nothing private; returns the message.
 */
export function expectRefused(call: () => unknown, cls: string, pattern: RegExp, type?: typeof TypeError | typeof RangeError): string {
  let error: unknown = null;
  try {
    call();
  } catch (e) {
    error = e;
  }
  if (type) expect(error, String(error)).toBeInstanceOf(type);
  else expect(error instanceof TypeError || error instanceof RangeError, String(error)).toBe(true);
  const message = (error as Error).message;
  expect(message.startsWith(`${cls}: `) || message.startsWith(`${cls}.`), message).toBe(true);
  expect(message).toMatch(pattern);
  expect(message).not.toMatch(PRIVATE);
  return message;
}

/** `new C(...args)` with more arguments than C's type allows (to check that they are refused). */
export const construct = (C: unknown, ...args: unknown[]): unknown => new (C as new (...a: unknown[]) => unknown)(...args);
