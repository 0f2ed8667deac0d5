import { describe, expect, it } from 'vitest';
import { campaignProgress } from './campaign-status';

describe('campaignProgress', () => {
  it('counts delivered and failed as done; an empty campaign is at 0', () => {
    expect(campaignProgress({ contacts: 10, pending: 5, sending: 1, delivered: 3, failed: 1 })).toEqual({ done: 4, ratio: 0.4 });
    expect(campaignProgress({ contacts: 0, pending: 0, sending: 0, delivered: 0, failed: 0 })).toEqual({ done: 0, ratio: 0 });
  });
});
