import { describe, expect, it } from 'vitest';
import { formatCount } from './numbers';

describe('formatCount', () => {
  it('groups thousands in the locale, and says "—" for an unknown count', () => {
    const grouped = new Intl.NumberFormat().format(3118);
    expect(formatCount(3118)).toBe(grouped);
    expect(grouped).not.toBe('3118');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(null)).toBe('—');
  });
});
