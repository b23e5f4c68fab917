import { describe, expect, it } from '@jest/globals';
import { viewQueryOf, viewUrlOf } from './rule-view.js';

describe('a rule’s dashboard view', () => {
  it('reads a pasted dashboard address or query string as list filters, lists for repeated keys', () => {
    expect(viewQueryOf('https://radar.example.com/dashboard?cloudInstances=GCC+High&products=Teams&products=Exchange#top')).toEqual({
      cloudInstances: 'GCC High',
      products: ['Teams', 'Exchange'],
    });
    expect(viewQueryOf('sources=roadmap')).toEqual({ sources: 'roadmap' });
    expect(viewQueryOf('  ')).toEqual({});
  });

  it('links a rule back to its view', () => {
    expect(viewUrlOf({ cloudInstances: ['GCC High'] })).toBe('/dashboard?cloudInstances=GCC+High');
    expect(viewUrlOf({})).toBe('/dashboard');
  });
});
