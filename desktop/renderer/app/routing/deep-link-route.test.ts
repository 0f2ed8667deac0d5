import { describe, expect, it } from 'vitest';
import { deepLinkRoute } from './deep-link-route';

describe('deep links into the console', () => {
  it('atende://ticket/{id} and tickets/{id} open the ticket', () => {
    expect(deepLinkRoute({ path: '/ticket/42', query: {} })).toBe('/atendimento/42');
    expect(deepLinkRoute({ path: '/tickets/7', query: {} })).toBe('/atendimento/7');
  });

  it('a screen of the menu opens with its query; anything else is ignored', () => {
    expect(deepLinkRoute({ path: '/contatos', query: { searchParam: 'Maria' } })).toBe('/contatos?searchParam=Maria');
    expect(deepLinkRoute({ path: '/ticket/0', query: {} })).toBeNull();
    expect(deepLinkRoute({ path: '/ticket/abc', query: {} })).toBeNull();
    expect(deepLinkRoute({ path: '/no-such-screen', query: {} })).toBeNull();
  });
});
