/** The builder's address: `?id=` edits a stored flow, none starts a new one. */
export const builderPath = (id?: number): string => (id ? `/chat-flow/builder?id=${id}` : '/chat-flow/builder');
