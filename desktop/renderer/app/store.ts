import { configureStore } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import { baseApi } from '../api/base.api';
import { appStorage } from './session/app-storage';
import { sessionFromStorage, sessionReducer } from './session/session.slice';

export function createAppStore() {
  const store = configureStore({
    reducer: { [baseApi.reducerPath]: baseApi.reducer, session: sessionReducer },
    preloadedState: { session: sessionFromStorage(appStorage.readSession()) },
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
  // Refetch on focus and reconnect where a query asks for it.
  setupListeners(store.dispatch);
  return store;
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];
