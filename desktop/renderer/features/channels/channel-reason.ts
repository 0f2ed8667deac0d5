/**
 * What a channel card says about why its session is not connected. The server stores the
 * reason as text: sometimes our own Portuguese sentence, often the provider's raw error in
 * English ("WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com) (408)"). A raw error is
 * classified into a Portuguese explanation (i18n `channels.reason.<kind>`) and kept as the
 * folded technical detail, so support can still read it.
 */
export const REASON_KINDS = [
  'dns',
  'auth',
  'timeout',
  'rateLimit',
  'providerDown',
  'network',
  'qrTimeout',
  'loggedOut',
  'unknown',
] as const;
export type ReasonKind = (typeof REASON_KINDS)[number];

export interface ChannelReasonView {
  /** Our own sentence (already Portuguese), shown as it is. */
  own: string | null;
  /** Explanation of the provider's raw error, when there is one. */
  kind: ReasonKind | null;
  /** The provider's raw error, shown folded. */
  detail: string | null;
}

/** First match wins: a DNS failure reported with a 408 is a DNS failure. */
const PATTERNS: [Exclude<ReasonKind, 'unknown'>, RegExp][] = [
  ['dns', /ENOTFOUND|EAI_AGAIN|getaddrinfo/i],
  [
    'auth',
    /\b(401|403)\b|unauthori[sz]ed|forbidden|invalid (oauth )?(access )?token|error validating access token|OAuthException|\(#190\)/i,
  ],
  ['timeout', /ETIMEDOUT|ESOCKETTIMEDOUT|timed? ?out|timeout|\b408\b/i],
  ['rateLimit', /\b429\b|too many requests|rate.?limit/i],
  ['providerDown', /\b50[0234]\b|internal server error|bad gateway|service unavailable|indispon[ií]vel/i],
  [
    'network',
    /ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EPIPE|socket hang up|fetch failed|WebSocket Error|network|connection (closed|terminated|lost)/i,
  ],
  ['qrTimeout', /QR refs attempts ended|qr.{0,20}(expired|timed? ?out)/i],
  ['loggedOut', /logged ?out|device[_ ]removed/i],
];

/** Marks of a provider's raw text (error codes, English error words, an HTTP status in brackets). */
const RAW_HINT =
  /\bE[A-Z]{3,}\b|fetch failed|socket hang up|WebSocket|\(\d{3}\)|unauthori[sz]ed|forbidden|OAuth|timed? ?out|error/i;
/** Our sentences are Portuguese; raw provider texts practically never carry these letters. */
const PORTUGUESE = /[ãõçáéíóúâêô]/i;
/** The Baileys adapter appends the last raw error to its own sentence. */
const LAST_ERROR = /\s*Último erro:\s*/;

export function classifyProviderError(raw: string): ReasonKind {
  return PATTERNS.find(([, pattern]) => pattern.test(raw))?.[0] ?? 'unknown';
}

export function explainChannelReason(reason: string | null | undefined): ChannelReasonView | null {
  const text = reason?.trim();
  if (!text) return null;
  const [head, ...rest] = text.split(LAST_ERROR);
  if (rest.length > 0) {
    const raw = rest.join(' ').trim();
    return { own: head!.trim() || null, kind: raw ? classifyProviderError(raw) : null, detail: raw || null };
  }
  if (PORTUGUESE.test(text) && !RAW_HINT.test(text)) return { own: text, kind: null, detail: null };
  return { own: null, kind: classifyProviderError(text), detail: text };
}
