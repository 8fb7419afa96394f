import { describe, expect, it } from 'vitest';
import { formatChange, formatPercent } from './format';

describe('formatPercent', () => {
  it('reads a small rate as it is, never as 0%', () => {
    expect(formatPercent(0.0002)).toBe('0.02%');
    expect(formatPercent(0.000123)).toBe('0.012%');
    expect(formatPercent(0.0054)).toBe('0.54%');
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(-0.0002)).toBe('-0.02%');
  });

  it('reads a rate just under 100% as under it', () => {
    expect(formatPercent(0.9996)).toBe('99.96%');
    expect(formatPercent(0.99999)).toBe('99.999%');
    expect(formatPercent(1)).toBe('100%');
  });

  it('keeps one decimal between', () => {
    expect(formatPercent(0.125)).toBe('12.5%');
    expect(formatPercent(0.5)).toBe('50%');
    expect(formatPercent(0.999)).toBe('99.9%');
    expect(formatPercent(2.5)).toBe('250%');
  });

  it('a change from nothing is not a percentage', () => {
    expect(formatChange(5, 0)).toBeNull();
    expect(formatChange(3, 2)).toBe('+50%');
    expect(formatChange(1, 2000)).toBe('-99.95%');
  });
});
