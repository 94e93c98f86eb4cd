import { describe, expect, it } from 'vitest';
import { Later } from './later.ts';

describe('Later', () => {
  it('gives the value the later step gave', () => {
    const later = new Later<number>('the answer');
    later.give(42);
    expect(later.get()).toBe(42);
  });

  it('names what is missing when read before it is given, and refuses a second value', () => {
    const later = new Later<number>('the answer');
    expect(() => later.get()).toThrow('the answer read before the wiring step that makes it ran');
    later.give(1);
    expect(() => later.give(2)).toThrow('the answer was given twice');
  });
});
