/**
 * The soak report's memory rule: retained memory grows when its floor rises, not when the last checkpoint
 * happens to catch more requests in flight than the first.
 */
import { describe, expect, it } from 'vitest';
import { floorGrowth } from '../../benches/load/soak-report.js';

describe('floorGrowth', () => {
  it.each([
    {
      name: 'a leak: every checkpoint higher than the one before',
      values: [10, 11, 12, 13, 14, 15, 16, 17, 18],
      growth: 6,
    },
    { name: 'flat', values: [10, 10, 10, 10, 10, 10], growth: 0 },
    { name: 'in-flight spikes, the last one high', values: [5, 8, 6, 21, 25, 20, 12, 5, 24], growth: 0 },
    { name: 'in-flight spikes, the first one high', values: [24, 5, 8, 6, 21, 25, 20, 12, 5], growth: 0 },
    { name: 'a leak under spikes', values: [5, 20, 6, 9, 25, 10, 13, 30, 14], growth: 8 },
  ])('$name → $growth', ({ values, growth }) => {
    expect(floorGrowth(values)).toBe(growth);
  });

  it('fewer than two checkpoints say nothing', () => {
    expect(floorGrowth([])).toBe(0);
    expect(floorGrowth([7])).toBe(0);
  });
});
