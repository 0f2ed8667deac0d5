import { useState } from 'react';
import { contactInitials } from './contact-display';

/** Hues for initials, picked by the name so a contact keeps its colour between visits. */
const HUES = [210, 150, 25, 280, 340, 190, 45, 260];

function hueOf(name: string): number {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return HUES[hash % HUES.length];
}

/**
 * The contact's picture, or its initials on a colour when it has none or the picture fails to
 * load (channel pictures expire).
 */
export function ContactAvatar({ name, pictureUrl, size = 32 }: { name: string; pictureUrl: string | null; size?: number }) {
  const [failed, setFailed] = useState(false);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (pictureUrl && !failed) {
    return (
      <img
        className="contact-avatar"
        src={pictureUrl}
        alt=""
        style={style}
        onError={() => setFailed(true)}
        referrerPolicy="no-referrer"
      />
    );
  }
  return (
    <span
      className="contact-avatar contact-avatar-initials"
      aria-hidden
      style={{ ...style, background: `hsl(${hueOf(name)} 55% 45%)` }}
    >
      {contactInitials(name)}
    </span>
  );
}
