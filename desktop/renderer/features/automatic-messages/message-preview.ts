import { MESSAGE_VARIABLES, greetingForHour, renderMessageVariables, type MessageVariable } from '@shared/message-variables';

/**
 * The preview of an automatic message (birthday, farewell, rating): the text with every
 * variable filled from an example contact, ticket and agent, as the server fills them when it
 * sends (`renderForTicket`), so the supervisor sees what the customer will read.
 */

export type Translate = (key: string) => string;

/** Example values, translated (the example contact's name reads naturally in each language). */
export function sampleVariableValues(t: Translate, now: Date = new Date()): Record<MessageVariable, string> {
  const values = {} as Record<MessageVariable, string>;
  for (const variable of MESSAGE_VARIABLES) values[variable] = t(`automaticMessages.sample.${variable}`);
  // The greeting follows the hour, as the server's does (here the browser's hour).
  values.greeting = greetingForHour(now.getHours());
  return values;
}

export function previewMessage(text: string, values: Record<MessageVariable, string>): string {
  return renderMessageVariables(text, values);
}

/**
 * `token` inserted in `text` in place of the selection [start, end) (the caret when equal), and
 * where the caret goes after it. Out-of-range positions insert at the end.
 */
export function insertToken(
  text: string,
  token: string,
  start?: number | null,
  end?: number | null,
): { text: string; caret: number } {
  const from = start === null || start === undefined || start < 0 || start > text.length ? text.length : start;
  const to = end === null || end === undefined || end < from || end > text.length ? from : end;
  return { text: text.slice(0, from) + token + text.slice(to), caret: from + token.length };
}
