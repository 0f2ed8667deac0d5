import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Profile } from '@shared/profiles';
import type { StoredSession } from './app-storage';

/** The signed-in user as the UI needs it; localStorage stays the durable copy (app-storage). */
export interface SessionState {
  token: string | null;
  userId: number | null;
  tenantId: number | null;
  username: string | null;
  email: string | null;
  profile: Profile | null;
  isDark: boolean;
  /** The tenant is blocked (payment overdue): only its settings menu is offered. */
  tenantBlocked: boolean;
}

export const emptySession: SessionState = {
  token: null,
  userId: null,
  tenantId: null,
  username: null,
  email: null,
  profile: null,
  isDark: false,
  tenantBlocked: false,
};

export function sessionFromStorage(stored: StoredSession | null): SessionState {
  return stored ? { ...emptySession, ...stored } : emptySession;
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: emptySession,
  reducers: {
    sessionStarted: (_state, action: PayloadAction<StoredSession>) => ({ ...emptySession, ...action.payload }),
    tokenRefreshed(state, action: PayloadAction<string>) {
      state.token = action.payload;
    },
    profileChanged(state, action: PayloadAction<{ profile?: Profile; username?: string }>) {
      if (action.payload.profile) state.profile = action.payload.profile;
      if (action.payload.username) state.username = action.payload.username;
    },
    darkModeChanged(state, action: PayloadAction<boolean>) {
      state.isDark = action.payload;
    },
    tenantBlockedChanged(state, action: PayloadAction<boolean>) {
      state.tenantBlocked = action.payload;
    },
    /** A 401 drops the credentials but keeps the theme, so the login screen does not flash. */
    sessionCleared: (state) => ({ ...emptySession, isDark: state.isDark }),
  },
});

export const { sessionStarted, tokenRefreshed, profileChanged, darkModeChanged, tenantBlockedChanged, sessionCleared } =
  sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;
