/**
 * Text from outside (IPC, deep links) must not carry NUL bytes, terminal escapes or other C0
 * control codes into notifications, logs or routes.
 */
export function hasControlCharacters(text: string, allowLineBreaks = true): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    // Tab and line breaks are ordinary in a message body; elsewhere they are refused too.
    if (allowLineBreaks && (code === 0x09 || code === 0x0a || code === 0x0d)) continue;
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
