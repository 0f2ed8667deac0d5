import { fetchBaseQuery } from '@reduxjs/toolkit/query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATISTICS_PATHS } from '@shared/schemas/statistics';
import { periodParams, queueParam } from '../../api/statistics-params';

type EarlyModule = typeof import('./early-requests');

const ORIGIN = 'http://atende.test';
const period = { startDate: '2026-11-26', endDate: '2026-11-26', queuesIds: [] };

describe('early requests (boot.ts -> the API layer)', () => {
  let early: EarlyModule;
  let network: ReturnType<typeof vi.fn>;

  beforeEach(async () => {
    vi.resetModules();
    vi.stubGlobal('document', { baseURI: `${ORIGIN}/` });
    network = vi.fn(async (input: RequestInfo | URL) => new Response(JSON.stringify({ url: String(input instanceof Request ? input.url : input) })));
    vi.stubGlobal('fetch', network);
    early = await import('./early-requests');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** The app's fetchBaseQuery as app-base-query.ts builds it, with the early answers first. */
  const appQuery = (token: string) =>
    fetchBaseQuery({
      baseUrl: '',
      fetchFn: (input, init) => (input instanceof Request ? early.takeEarlyResponse(input) : null) ?? fetch(input, init),
      prepareHeaders: (headers) => {
        headers.set('authorization', `Bearer ${token}`);
        return headers;
      },
    });
  const api = { signal: new AbortController().signal, dispatch: vi.fn(), getState: vi.fn(), abort: vi.fn(), extra: undefined, endpoint: 'x', type: 'query' as const };

  it("answers the app's very request (same URL as fetchBaseQuery builds it, same token) with the early call, once", async () => {
    // As boot.ts builds them: the API's base, the path, '?', the parameters (an empty set leaves
    // the '?'). The base is the server's address (the desktop) or '' (the web app, same origin).
    early.startEarlyGet(`${ORIGIN}${STATISTICS_PATHS.ticketsTimes}?${new URLSearchParams(periodParams(period))}`, 'tok-1');
    early.startEarlyGet(`${ORIGIN}${STATISTICS_PATHS.perUsersDetail}?${new URLSearchParams(queueParam([]))}`, 'tok-1');
    expect(network).toHaveBeenCalledTimes(2);
    early.markAppStarted();

    const query = appQuery('tok-1');
    // As app-base-query.ts asks: the base put before the path (withBaseUrl), the parameters apart.
    const times = await query({ url: `${ORIGIN}${STATISTICS_PATHS.ticketsTimes}`, params: periodParams(period) }, api, {});
    const agents = await query({ url: `${ORIGIN}${STATISTICS_PATHS.perUsersDetail}`, params: queueParam([]) }, api, {});
    expect(times.data).toEqual({ url: `${ORIGIN}/statistics-tickets-times?startDate=2026-11-26&endDate=2026-11-26` });
    expect(agents.data).toEqual({ url: `${ORIGIN}${STATISTICS_PATHS.perUsersDetail}?` });
    expect(network).toHaveBeenCalledTimes(2); // both taken over, nothing sent again

    // Taken once: the same call again goes out.
    await query({ url: `${ORIGIN}${STATISTICS_PATHS.ticketsTimes}`, params: periodParams(period) }, api, {});
    expect(network).toHaveBeenCalledTimes(3);
  });

  it('leaves other tokens, other URLs and other methods alone', async () => {
    early.startEarlyGet(`${STATISTICS_PATHS.ticketsTimes}?${new URLSearchParams(periodParams(period))}`, 'tok-1');
    const url = `${ORIGIN}${STATISTICS_PATHS.ticketsTimes}?startDate=2026-11-26&endDate=2026-11-26`;
    expect(early.takeEarlyResponse(new Request(url, { headers: { authorization: 'Bearer tok-2' } }))).toBeNull();
    expect(early.takeEarlyResponse(new Request(`${url}&queuesIds=1`, { headers: { authorization: 'Bearer tok-1' } }))).toBeNull();
    expect(early.takeEarlyResponse(new Request(url, { method: 'POST', headers: { authorization: 'Bearer tok-1' } }))).toBeNull();
    expect(early.takeEarlyResponse(new Request(url, { headers: { authorization: 'Bearer tok-1' } }))).not.toBeNull();
  });

  it('sends nothing once the app has started, and drops an answer older than EARLY_MAX_AGE_MS', async () => {
    vi.useFakeTimers({ toFake: ['performance', 'setTimeout'] });
    const url = `${STATISTICS_PATHS.ticketsHours}?${new URLSearchParams(periodParams(period))}`;
    early.startEarlyGet(url, 'tok-1');
    vi.advanceTimersByTime(early.EARLY_MAX_AGE_MS + 1);
    const request = new Request(`${ORIGIN}${url}`, { headers: { authorization: 'Bearer tok-1' } });
    expect(early.takeEarlyResponse(request)).toBeNull();

    early.markAppStarted();
    early.startEarlyGet(url, 'tok-1');
    expect(network).toHaveBeenCalledTimes(1);
    expect(early.takeEarlyResponse(request)).toBeNull();
  });
});
