import { Classes } from '@blueprintjs/core';
import { useEffect } from 'react';
import { useStore } from 'react-redux';
import { IDLE_CHECK_INTERVAL_MS, IDLE_TICKS, PROFILE_REFRESH_MS } from '@shared/limits';
import { useGetPublicSystemColorsQuery } from '../../api/tenant-settings.api';
import { useGetUserQuery } from '../../api/users.api';
import { connectRealtime, disconnectRealtime, setRealtimePresence } from '../realtime/realtime-connection';
import type { AppStore } from '../store';
import { useAppDispatch, useAppSelector } from '../store-hooks';
import { applyCssVariables, isCssColor, toCssVariables } from '../theme/system-colors';
import { appStorage } from './app-storage';
import { ACTIVITY_EVENTS, createIdleCounter } from './idle-counter';
import { createPresenceTracker } from './presence-tracker';
import { profileChanged } from './session.slice';

/** Session-wide behaviour with no screen of its own (spec sections 4, 6, 7 and 9). */
export function SessionEffects() {
  const store = useStore() as AppStore;
  const dispatch = useAppDispatch();
  const { token, userId, tenantId, profile, isDark } = useAppSelector((state) => state.session);

  // Blueprint's dark theme class on <body>, so portals (dialogs, toasts) follow it too.
  useEffect(() => {
    document.body.classList.toggle(Classes.DARK, isDark);
  }, [isDark]);

  // White-label colours at start-up; the stored copy was applied before the first render.
  const { data: colors } = useGetPublicSystemColorsQuery();
  useEffect(() => {
    if (!colors) return;
    appStorage.writeStoredColors(colors);
    applyCssVariables(toCssVariables(colors, isCssColor), document.documentElement);
  }, [colors]);

  // Realtime connection while signed in.
  useEffect(() => {
    if (!token || tenantId === null) return;
    connectRealtime(store, tenantId);
    return () => disconnectRealtime();
    // A refreshed token is read by the socket's auth callback; it must not reconnect. Another
    // user signing in over a session (the login screen reached by URL) must: the socket would
    // otherwise keep presenting the first user's token and receive their events.
  }, [Boolean(token), tenantId, userId, store]);

  // Profile refresh every 30 s, except for ordinary users (spec section 6 and 7).
  const refreshProfile = Boolean(token) && userId !== null && profile !== null && profile !== 'user';
  const { data: freshUser } = useGetUserQuery(userId ?? 0, { skip: !refreshProfile, pollingInterval: PROFILE_REFRESH_MS });
  useEffect(() => {
    if (!freshUser || freshUser.id !== userId) return;
    if (freshUser.profile !== profile || freshUser.queues) {
      appStorage.patchUser({ profile: freshUser.profile, username: freshUser.name, queues: freshUser.queues });
      dispatch(profileChanged({ profile: freshUser.profile, username: freshUser.name }));
    }
  }, [freshUser, userId, profile, dispatch]);

  // Two hours without a click, mouse move or key press reload the page (spec section 9); a few
  // minutes make the user away for colleagues, until the next activity (issue #18).
  useEffect(() => {
    if (!token) return;
    const presence = createPresenceTracker(setRealtimePresence);
    const counter = createIdleCounter(
      () => window.location.reload(),
      {
        now: () => Date.now(),
        setInterval: (fn, ms) => window.setInterval(fn, ms),
        clearInterval: (handle) => window.clearInterval(handle as number),
      },
      { ticks: IDLE_TICKS, checkEveryMs: IDLE_CHECK_INTERVAL_MS, onCheck: presence.idleFor },
    );
    counter.start();
    const onActivity = () => {
      counter.reset();
      presence.active();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, onActivity, { passive: true });
    return () => {
      counter.stop();
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, onActivity);
      setRealtimePresence('online');
    };
  }, [Boolean(token)]);

  return null;
}
