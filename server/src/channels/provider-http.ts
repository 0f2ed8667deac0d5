import { ChannelSendError } from './channel-adapter';

/**
 * How every provider HTTP client (Graph API, Messenger Platform, Telegram, hub, gateways) reads
 * a call that got no usable answer, so the outbound delivery can tell "never sent" from "may
 * have arrived" (docs/architecture.md, delivery guarantees):
 * - refused, unknown host, unreachable network, connect timeout: the request never left, so it
 *   is retried with backoff like a 5xx;
 * - the connection reset or closed after the request was written (mid-answer): the provider
 *   may have taken the message, so a send is not resent blindly but failed as unconfirmed;
 * - no answer within our deadline: retried (spec: timeouts back off like 5xx). A provider that
 *   accepted the message and answered after the deadline may then get it twice; the deadline
 *   (15 s) is far above the providers' usual answer times.
 */

/** Failures once the request may have been written: the connection died before the answer. */
const ANSWER_LOST = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

const codeOf = (err: unknown): string | undefined => {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * A fetch that threw (no answer): a ChannelSendError classified as above, worded
 * "<who> indisponível (<call>): <reason>". Never names the URL (it may carry a token).
 */
export function noAnswerError(err: unknown, who: string, timeoutMs: number, call?: string): ChannelSendError {
  const e = err as Error & { cause?: { message?: string } };
  const unavailable = `${who} indisponível${call ? ` (${call})` : ''}`;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') {
    return new ChannelSendError(`${unavailable}: sem resposta em ${timeoutMs} ms`, true, undefined, undefined, undefined, { noAnswer: true });
  }
  const code = codeOf(err);
  if (code && ANSWER_LOST.has(code)) return answerLost(call ? `${who} (${call})` : who, code);
  return new ChannelSendError(`${unavailable}: ${code ?? e?.cause?.message ?? e?.message ?? String(err)}`, true, undefined, undefined, undefined, {
    noAnswer: true,
  });
}

/**
 * An answer whose body could not be read. Cut by the network (a reset mid-answer) or a 2xx that
 * is not what the provider sends: the provider answered, so the message may have been taken.
 * A non-2xx with an unreadable body is an ordinary failure of its status.
 */
export function unreadableAnswer(err: unknown, who: string, status: number): ChannelSendError {
  const code = codeOf(err);
  if (code && ANSWER_LOST.has(code)) return answerLost(who, code, status);
  if (status >= 200 && status < 300) {
    return new ChannelSendError(`${who}: resposta inválida (não é JSON)`, true, status, undefined, undefined, { mayHaveArrived: true });
  }
  return new ChannelSendError(`${who}: resposta inválida (não é JSON)`, true, status);
}

function answerLost(who: string, code: string, status?: number): ChannelSendError {
  return new ChannelSendError(`${who}: a conexão caiu antes da resposta (${code})`, true, status, undefined, undefined, {
    noAnswer: true,
    mayHaveArrived: true,
  });
}

/**
 * A failure of a step that comes before the send itself (a media upload): retrying cannot
 * duplicate a message the customer sees, so "may have arrived" is dropped.
 */
export function beforeTheSend<T>(call: Promise<T>): Promise<T> {
  return call.catch((err: unknown) => {
    if (err instanceof ChannelSendError && err.mayHaveArrived) {
      throw new ChannelSendError(err.message, true, err.providerStatus, err.providerCode, err.retryAfterMs, { noAnswer: err.transport.noAnswer });
    }
    throw err;
  });
}
