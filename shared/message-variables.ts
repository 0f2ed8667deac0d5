/**
 * Variables an agent may put in message text (spec section 2): `{{name}}`, `{{greeting}}` ...
 * They are replaced when a message is sent (quick messages, campaigns, chatbot steps).
 */
export const MESSAGE_VARIABLES = [
  'name',
  'greeting',
  'protocol',
  'email',
  'phoneNumber',
  'kanban',
  'user',
  'userEmail',
  'firstName',
  'lastName',
  'businessName',
] as const;

export type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

export const isMessageVariable = (value: string): value is MessageVariable =>
  (MESSAGE_VARIABLES as readonly string[]).includes(value);

/** The text an agent types for a variable, e.g. `{{firstName}}`. */
export const messageVariableToken = (variable: MessageVariable): string => `{{${variable}}}`;

const TOKEN = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

/** The known variables used in a text, once each, in order of first use. */
export function findMessageVariables(text: string): MessageVariable[] {
  const found: MessageVariable[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const name = match[1];
    if (isMessageVariable(name) && !found.includes(name)) found.push(name);
  }
  return found;
}

/**
 * Replaces every known variable with its value (a missing value becomes empty text, so the
 * contact never sees `{{email}}`); unknown `{{...}}` are left as typed.
 */
export function renderMessageVariables(
  text: string,
  values: Partial<Record<MessageVariable, string | null | undefined>>,
): string {
  return text.replace(TOKEN, (token, name: string) => (isMessageVariable(name) ? (values[name] ?? '') : token));
}

/** `greeting` by the hour of day (0-23) in the tenant's time zone: Bom dia / Boa tarde / Boa noite. */
export function greetingForHour(hour: number): string {
  if (hour >= 5 && hour < 12) return 'Bom dia';
  if (hour >= 12 && hour < 18) return 'Boa tarde';
  return 'Boa noite';
}
