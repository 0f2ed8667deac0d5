/** Business constants and limits of spec section 9, declared once for server and clients. */
export const IDLE_TICKS = 7200;
export const IDLE_CHECK_INTERVAL_MS = 30_000;
/**
 * Presence (issue #18): after this many seconds without a click, mouse move or key press (the
 * idle counter above, read at its 30 s checks) the app tells the server the user is away; the
 * next activity makes them online again. Five minutes: a short pause (a call, a coffee) leaves
 * an agent online, a longer one shows colleagues that a transfer may wait.
 */
export const PRESENCE_AWAY_AFTER_SECONDS = 300;
export const PROFILE_REFRESH_MS = 30_000;
export const DEFAULT_TICKET_PAGE = 1;
export const REQUEST_TIMEOUT_MS = 20_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const CALL_INSTANCE_FALLBACK_MS = 1000;
export const CALL_RESET_AFTER_END_MS = 3500;
export const TOAST_TIMEOUT_MS = 500;
export const LOGIN_REDIRECT_AFTER_401_MS = 2000;
export const REDIRECT_AFTER_PASSWORD_RECOVERY_MS = 3000;
/** The loading overlay shows only when more than this passed since the previous request. */
export const LOADING_OVERLAY_GAP_MS = 2000;
export const LOADING_OVERLAY_HIDE_MS = 1000;
export const FORWARD_MAX_MESSAGES = 10;
export const FORWARD_MAX_CONTACTS = 1;
export const CONTACT_SEARCH_MIN_CHARS = 2;
/** The contact list counts its matches exactly up to this many; beyond, the count is estimated. */
export const CONTACT_COUNT_EXACT_MAX = 2_000;
/**
 * Without a text search the tenant's index counts cheaply (no trigram match per row): the count
 * stays exact up to this many contacts, so the list right after an import shows the real total
 * (the planner's estimate lags until the table is analysed).
 */
export const CONTACT_COUNT_EXACT_MAX_UNSEARCHED = 200_000;
export const INTERACTIVE_TEXT_MIN = 1;
export const INTERACTIVE_TEXT_MAX = 60;
export const INTERACTIVE_BUTTON_MAX = 20;
export const PASSWORD_MIN_LENGTH = 7;
export const FAREWELL_CLOSE_DELAY_MS = 30_000;
export const MASS_RESOLVE_BLOCK = 10;
export const TICKET_LIST_LOAD_MORE_MS = 3000;
export const JOB_QUEUE_REFRESH_MS = 10_000;
export const QUEUE_RESTART_MAX = 5;
export const LOGIN_RATE_LIMIT_WINDOW_MS = 60_000;
export const LOGIN_RATE_LIMIT_MAX_FAILURES = 5;
export const LICENCE_RATE_LIMIT_WINDOW_MS = 60_000;
export const AUTO_CLOSE_OPTIONS_MINUTES = [10, 60, 1440, 7200, 14400] as const;
export const RATING_MIN = 0;
export const RATING_MAX = 5;
export const RATING_LABELS = ['Ruim', 'Regular', 'Bom', 'Muito Bom', 'Excelente', 'Incrível'] as const;
export const SCHEDULE_RECURRENCE_DAYS = [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 60] as const;
export const SCHEDULE_DEFAULT_REPETITIONS = 1;
export const TASK_RECURRENCE_DAYS = [0, 7, 30, 45, 60, 75, 90] as const;
export const QUICK_SCHEDULE_SHORTCUTS = ['in30Minutes', 'tomorrow', 'nextWeek', 'custom'] as const;
export const CAMPAIGN_MAX_MESSAGES = 3;
export const SPAM_COMPLAINT_BAN_PERCENT = 2;
export const UPDATE_FILE_NAME = 'update_rapido.zip';
export const EVOLUTION_MIN_VERSION = '2.20.0';
export const NUMBER_FORMAT = { locale: 'pt-BR', minimumFractionDigits: 2, maximumFractionDigits: 3 } as const;
export const DATE_FORMAT = 'dd/MM/yyyy';
export const DATE_TIME_FORMAT = 'dd/MM/yyyy HH:mm';
