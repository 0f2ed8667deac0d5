import type { ThunkAction, UnknownAction } from '@reduxjs/toolkit';
import type { AppDispatch } from '../app/store';
import type { CatalogName } from '../app/realtime/event-dispatcher';
import { baseApi } from './base.api';
import { applyCatalogEvent, type CatalogItem, type CatalogListRules } from './catalog-cache';
import { demandListRules, demandsApi } from './demands.api';
import { kanbanApi, kanbanListRules, laneListRules } from './kanban.api';
import { queueListRules, queuesApi } from './queues.api';
import { quickMessageListRules, quickMessagesApi } from './quick-messages.api';
import { tagListRules, tagsApi } from './tags.api';
import { teamListRules, teamsApi } from './teams.api';

/**
 * Applies a CRM catalog event to its cached list (CONVENTIONS: socket events patch the cache).
 * When the event does not fit the cache (a reorder of ids it does not hold), the list is
 * refetched instead.
 */
type Recipe<T> = (draft: T[]) => T[] | void;

function patcher<T extends CatalogItem>(
  update: (recipe: Recipe<T>) => ThunkAction<unknown, any, unknown, UnknownAction>,
  rules: CatalogListRules<T>,
  tag: 'Queue' | 'Tag' | 'Team' | 'Kanban' | 'Lane' | 'Demand' | 'QuickMessage',
) {
  return (dispatch: AppDispatch, payload: unknown) => {
    let unfit = false;
    dispatch(
      update((draft) => {
        const next = applyCatalogEvent(draft, payload, rules);
        if (next === null) unfit = true;
        else return next;
      }),
    );
    if (unfit) dispatch(baseApi.util.invalidateTags([tag]));
  };
}

const PATCHERS: Record<CatalogName, (dispatch: AppDispatch, payload: unknown) => void> = {
  queue: patcher((recipe) => queuesApi.util.updateQueryData('listQueues', undefined, recipe), queueListRules, 'Queue'),
  tag: patcher((recipe) => tagsApi.util.updateQueryData('listTags', undefined, recipe), tagListRules, 'Tag'),
  team: patcher((recipe) => teamsApi.util.updateQueryData('listTeams', undefined, recipe), teamListRules, 'Team'),
  kanban: patcher((recipe) => kanbanApi.util.updateQueryData('listKanbans', undefined, recipe), kanbanListRules, 'Kanban'),
  lane: patcher((recipe) => kanbanApi.util.updateQueryData('listLanes', undefined, recipe), laneListRules, 'Lane'),
  demand: patcher((recipe) => demandsApi.util.updateQueryData('listDemands', undefined, recipe), demandListRules, 'Demand'),
  fastReply: patcher(
    (recipe) => quickMessagesApi.util.updateQueryData('listQuickMessages', undefined, recipe),
    quickMessageListRules,
    'QuickMessage',
  ),
};

export function patchCatalogCache(dispatch: AppDispatch, catalog: CatalogName, payload: unknown): void {
  PATCHERS[catalog](dispatch, payload);
}
